import type { Db } from "mongodb";
import { applyIndexes } from "~/models/all-indexes.server";
import { clearDashboardCache } from "~/models/dashboard-cache.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { SEEDED_COLLECTIONS, seedDatabase } from "~/seed/index.server";
import type { SeedArgs } from "./seed-args";

export type SeedRunResult = { seeded: false } | { seeded: true; counts: Record<string, number> };

/**
 * Where a seed records that it began and that it finished: a seed cut short (Ctrl+C, a crash, a lost
 * connection) has written user_permissions first and the large collections last, so "user_permissions is not
 * empty" alone would take a partial database for a seeded one.
 */
export const SEED_STATE = "seed_state";
type SeedState = { _id: "demo"; state: "started" | "complete"; scale: number; startedAt: Date; completedAt?: Date };

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
  const state = db.collection<SeedState>(SEED_STATE);
  if (args.ifEmpty && (await db.collection(USER_PERMISSIONS).estimatedDocumentCount()) > 0) {
    const last = await state.findOne({ _id: "demo" });
    // No record: data the seed did not write (or an older release's); a finished seed: keep it either way.
    if (last?.state !== "started") {
      await applyIndexes(db);
      log(`Database "${db.databaseName}" already has data (${USER_PERMISSIONS} is not empty): seed skipped, indexes applied.`);
      return { seeded: false };
    }
    log(`Database "${db.databaseName}" holds a seed that never finished (started ${last.startedAt.toISOString()}): seeding again.`);
  }
  await state.replaceOne({ _id: "demo" }, { state: "started", scale: args.scale, startedAt: new Date() }, { upsert: true });
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of SEEDED_COLLECTIONS) if (existing.has(name)) await db.collection(name).drop();
  // Indexes before the data: the unique ones double as a check on the generated documents.
  await applyIndexes(db);
  const counts = await seedDatabase(db, { scale: args.scale, referenceDate: args.referenceDate, log });
  // Dashboards computed from the old data must not be served for the new.
  await clearDashboardCache(db);
  await state.updateOne({ _id: "demo" }, { $set: { state: "complete", completedAt: new Date() } });
  return { seeded: true, counts };
}
