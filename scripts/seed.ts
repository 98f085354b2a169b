/**
 * `npm run seed`: applies the indexes, drops the seeded collections and writes the deterministic
 * demo data. With --if-empty it only applies the indexes when user_permissions already has documents.
 */
import { closeDb, getDb } from "~/db.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/seed/index.server";
import { parseSeedArgs, SEED_USAGE } from "./seed-args";
import { runSeed } from "./seed-run";

async function main() {
  const args = parseSeedArgs(process.argv.slice(2));
  if (args.help) {
    console.log(SEED_USAGE);
    return;
  }
  const started = Date.now();
  const db = await getDb();
  const result = await runSeed(db, args, (line) => console.log(line));
  if (!result.seeded) return;
  const total = Object.values(result.counts).reduce((s, n) => s + n, 0);
  console.log(`Seeded ${total} documents into "${db.databaseName}" in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  console.log(`Demo accounts (password ${DEMO_PASSWORD}):`);
  for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(24)} ${(a.type || "(no type)").padEnd(14)} ${a.note}`);
}

main()
  .then(() => closeDb())
  .catch(async (error: unknown) => {
    console.error(`seed failed: ${error instanceof Error ? error.message : String(error)}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
