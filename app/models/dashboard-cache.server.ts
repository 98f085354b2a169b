import type { Db } from "mongodb";
import { getDb, isPortalDb } from "~/db.server";
import type { ChartRow } from "./dashboards.fields";
import { aggregateTogether } from "./reads-together.server";

/**
 * What keeps a native dashboard page to a read: each chart's figures are kept in
 * `dashboard_chart_cache` with the data fingerprint they were computed from, and recomputed only when
 * that fingerprint changes. The fingerprint is, per collection the chart reads, its data version
 * (`data_versions`, bumped by every model function that writes a business collection) and its
 * document count (so an insert or delete that forgot to bump still shows), plus a maximum age as a
 * last resort for in-place updates nobody announced.
 */

export const DATA_VERSIONS = "data_versions";
export const DASHBOARD_CHART_CACHE = "dashboard_chart_cache";

type DataVersionRecord = { _id: string; version: number; changedAt: Date };

export type CachedChart = {
  /** `<tenant>:<dashboardId>:<chartId>:<definition hash>` */
  _id: string;
  fingerprint: string;
  rows: ChartRow[];
  computedAt: Date;
};

/**
 * Marks business collections as changed, so the dashboards that read them compute their figures again
 * on their next view. Call it from every model function that writes such a collection (one write:
 * a bulk upsert of the counters).
 */
export async function noteDataChanged(collections: readonly string[], db?: Db): Promise<void> {
  if (collections.length === 0) return;
  const database = db ?? (await getDb());
  const now = new Date();
  await database.collection<DataVersionRecord>(DATA_VERSIONS).bulkWrite(
    [...new Set(collections)].map((name) => ({
      updateOne: { filter: { _id: name }, update: { $inc: { version: 1 }, $set: { changedAt: now } }, upsert: true },
    })),
    { ordered: false },
  );
}

/**
 * The data state of some collections, one string per collection: its version and document count
 * (read by _id and from metadata: no scan). On the portal's own database the versions are read with the request's
 * other reads of the same turn; another `Db` (the CLI's, a worker's) reads alone.
 */
export async function dataStates(collections: readonly string[], db?: Db): Promise<Map<string, string>> {
  const database = db ?? (await getDb());
  const names = [...new Set(collections)].sort();
  const versionFilter = { _id: { $in: names } };
  const [versions, counts] = await Promise.all([
    db && !isPortalDb(db)
      ? database
          .collection<DataVersionRecord>(DATA_VERSIONS)
          .find(versionFilter, { projection: { version: 1 } })
          .toArray()
      : aggregateTogether<Pick<DataVersionRecord, "_id" | "version">>(DATA_VERSIONS, [
          { $match: versionFilter },
          { $project: { version: 1 } },
        ]),
    Promise.all(names.map((name) => database.collection(name).estimatedDocumentCount())),
  ]);
  const versionOf = new Map(versions.map((v) => [v._id, v.version]));
  return new Map(names.map((name, i) => [name, `${name}@${versionOf.get(name) ?? 0}#${counts[i]}`]));
}

export async function readCachedCharts(ids: readonly string[]): Promise<Map<string, CachedChart>> {
  if (ids.length === 0) return new Map();
  const db = await getDb();
  const found = await db
    .collection<CachedChart>(DASHBOARD_CHART_CACHE)
    .find({ _id: { $in: [...ids] } })
    .toArray();
  return new Map(found.map((c) => [c._id, c]));
}

export async function storeCachedChart(entry: CachedChart): Promise<void> {
  const db = await getDb();
  await db.collection<CachedChart>(DASHBOARD_CHART_CACHE).replaceOne({ _id: entry._id }, entry, { upsert: true });
}

/** Forgets every cached figure (after a reseed). */
export async function clearDashboardCache(db: Db): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of [DASHBOARD_CHART_CACHE, DATA_VERSIONS]) if (existing.has(name)) await db.collection(name).drop();
}
