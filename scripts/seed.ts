/**
 * `npm run seed`: applies the indexes, drops the seeded collections and writes the deterministic
 * demo data. With --if-empty it does nothing when user_permissions already has documents.
 */
import { applyIndexes } from "~/models/all-indexes.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { closeDb, getDb } from "~/db.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, SEEDED_COLLECTIONS, seedDatabase } from "~/seed/index.server";
import { parseSeedArgs, SEED_USAGE } from "./seed-args";

async function main() {
  const args = parseSeedArgs(process.argv.slice(2));
  if (args.help) {
    console.log(SEED_USAGE);
    return;
  }
  const started = Date.now();
  const db = await getDb();
  if (args.ifEmpty && (await db.collection(USER_PERMISSIONS).estimatedDocumentCount()) > 0) {
    console.log(`Database "${db.databaseName}" already has data (${USER_PERMISSIONS} is not empty): seed skipped.`);
    return;
  }
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of SEEDED_COLLECTIONS) if (existing.has(name)) await db.collection(name).drop();
  // Indexes first: the unique ones double as a check on the generated data.
  await applyIndexes(db);
  const counts = await seedDatabase(db, { scale: args.scale, referenceDate: args.referenceDate, log: (line) => console.log(line) });
  const total = Object.values(counts).reduce((s, n) => s + n, 0);
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
