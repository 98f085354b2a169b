/**
 * `npm run db:indexes`: applies every index the model modules declare. A separate release step,
 * not something each container start does. Idempotent.
 */
import { applyIndexes } from "~/models/all-indexes.server";
import { closeDb, getDb } from "~/db.server";

async function main() {
  const started = Date.now();
  const db = await getDb();
  const applied = await applyIndexes(db);
  for (const { collection, names } of applied) console.log(`${collection}: ${names.join(", ")}`);
  const total = applied.reduce((s, a) => s + a.names.length, 0);
  console.log(`Applied ${total} indexes on ${applied.length} collections of database "${db.databaseName}" in ${Date.now() - started} ms.`);
}

main()
  .then(() => closeDb())
  .catch(async (error: unknown) => {
    console.error(`db:indexes failed: ${error instanceof Error ? error.message : String(error)}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
