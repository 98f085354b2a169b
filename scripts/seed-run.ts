import type { Db } from "mongodb";
import { applyIndexes } from "~/models/all-indexes.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { SEEDED_COLLECTIONS, seedDatabase } from "~/seed/index.server";
import type { SeedArgs } from "./seed-args";

export type SeedRunResult = { seeded: false } | { seeded: true; counts: Record<string, number> };

/**
 * The work of `npm run seed`: drops the seeded collections, applies the indexes and writes the demo data.
 * With --if-empty and data already there it applies the indexes only, so a database seeded by an earlier
 * release (the demo keeps ./data across updates) still gets the indexes added since.
 */
export async function runSeed(
  db: Db,
  args: Pick<SeedArgs, "scale" | "ifEmpty" | "referenceDate">,
  log: (line: string) => void,
): Promise<SeedRunResult> {
  if (args.ifEmpty && (await db.collection(USER_PERMISSIONS).estimatedDocumentCount()) > 0) {
    await applyIndexes(db);
    log(`Database "${db.databaseName}" already has data (${USER_PERMISSIONS} is not empty): seed skipped, indexes applied.`);
    return { seeded: false };
  }
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of SEEDED_COLLECTIONS) if (existing.has(name)) await db.collection(name).drop();
  // Indexes before the data: the unique ones double as a check on the generated documents.
  await applyIndexes(db);
  const counts = await seedDatabase(db, { scale: args.scale, referenceDate: args.referenceDate, log });
  return { seeded: true, counts };
}
