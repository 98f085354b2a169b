import type { Db } from "mongodb";
import { allIndexes, applyIndexes } from "~/models/all-indexes.server";
import { clearDashboardCache } from "~/models/dashboard-cache.server";
import { ensureAttributeSets } from "~/models/planning-attribute-sets.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { SEEDED_COLLECTIONS, seedDatabase, seedEmptyStart } from "~/seed/index.server";
import type { SeedArgs } from "./seed-args";

export type SeedRunResult = { seeded: false } | { seeded: true; counts: Record<string, number> };

/**
 * Where a seed records that it began and that it finished: a seed cut short (Ctrl+C, a crash, a lost
 * connection) has written user_permissions first and the large collections last, so "user_permissions is not
 * empty" alone would take a partial database for a seeded one.
 */
export const SEED_STATE = "seed_state";
type SeedState = {
  _id: "demo";
  state: "started" | "complete";
  /** "empty": the empty start (accounts and configuration only); absent on the demo data (seeds made before the empty start existed). */
  kind?: "demo" | "empty";
  scale: number;
  startedAt: Date;
  completedAt?: Date;
};

/**
 * The empty start refused to write: the database already holds data it did not write (the demo data, or a
 * company's own). The message says which, and how to start empty.
 */
export class SeedRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedRefusedError";
  }
}

/**
 * The work of `npm run seed`: drops the seeded collections, applies the indexes and writes the demo data.
 * With --if-empty and data already there it applies the indexes only, so a database seeded by an earlier
 * release (the demo keeps ./data across updates) still gets the indexes added since.
 */
export async function runSeed(
  db: Db,
  args: Pick<SeedArgs, "scale" | "ifEmpty" | "referenceDate"> & { empty?: boolean; liveJobs?: boolean },
  log: (line: string) => void,
): Promise<SeedRunResult> {
  const state = db.collection<SeedState>(SEED_STATE);
  if (args.ifEmpty && args.empty) {
    // The empty start on data it did not write itself would not be empty: refused, naming what is there.
    const last = await state.findOne({ _id: "demo" });
    if (last?.state !== "started" && last?.kind !== "empty") {
      const filled = await collectionsWithData(db);
      if (filled.length > 0) {
        throw new SeedRefusedError(
          last
            ? `Database "${db.databaseName}" already holds the demo data; the empty start needs an empty database.`
            : `Database "${db.databaseName}" already holds data (${filled.slice(0, 5).join(", ")}${filled.length > 5 ? ", …" : ""}); the empty start needs an empty database.`,
        );
      }
    }
  }
  if (args.ifEmpty && (await db.collection(USER_PERMISSIONS).estimatedDocumentCount()) > 0) {
    const last = await state.findOne({ _id: "demo" });
    // No record: data the seed did not write (or an older release's); a finished seed: keep it either way.
    if (last?.state !== "started") {
      await applyIndexes(db);
      await ensureAttributeSets(db);
      log(
        last?.kind === "empty"
          ? `Database "${db.databaseName}" holds an earlier empty start: kept as it is, indexes applied.`
          : `Database "${db.databaseName}" already has data (${USER_PERMISSIONS} is not empty): seed skipped, indexes applied.`,
      );
      return { seeded: false };
    }
    log(
      `Database "${db.databaseName}" holds a seed that never finished (started ${last.startedAt.toISOString()}): seeding again.`,
    );
  }
  const kind = args.empty ? "empty" : "demo";
  await state.replaceOne(
    { _id: "demo" },
    { state: "started", kind, scale: args.scale, startedAt: new Date() },
    { upsert: true },
  );
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of SEEDED_COLLECTIONS) if (existing.has(name)) await db.collection(name).drop();
  // The unique indexes before the data (they double as a check on the generated documents); the others after it,
  // where one sort per index builds them faster than adding each batch's entries into a growing tree, while this
  // process still stores the seeded files. (Building each collection's indexes while the seed writes the next ones
  // was slower.)
  await applyIndexes(
    db,
    allIndexes.filter((d) => d.options?.unique),
  );
  const counts = args.empty
    ? await seedEmptyStart(db, { referenceDate: args.referenceDate, log })
    : await seedDatabase(db, {
        scale: args.scale,
        referenceDate: args.referenceDate,
        log,
        liveJobs: args.liveJobs,
        afterCollections: () => applyIndexes(db),
      });
  if (args.empty) await applyIndexes(db);
  // Dashboards computed from the old data must not be served for the new.
  await clearDashboardCache(db);
  await state.updateOne({ _id: "demo" }, { $set: { state: "complete", completedAt: new Date() } });
  return { seeded: true, counts };
}

/** The collections of `db` that hold documents (the seed's own record aside). */
async function collectionsWithData(db: Db): Promise<string[]> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((n) => n !== SEED_STATE && !n.startsWith("system."));
  const counts = await Promise.all(names.map((n) => db.collection(n).estimatedDocumentCount()));
  return names.filter((_, i) => counts[i] > 0).sort();
}
