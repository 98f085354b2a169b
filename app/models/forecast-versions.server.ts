import { type Binary, type Db, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import type { IndexDeclaration } from "./indexes";
import { packAmounts, unpackAmounts } from "./packed-amounts";
import { aggregateTogether } from "./reads-together.server";

/**
 * Versions of the forecast: a named, immutable copy of an RF's figures as the review showed them (actuals in the
 * months before the RF's first forecast month, forecasts from it), with who made it and when. A header in
 * FORECAST_VERSIONS and one row per cost centre in FORECAST_VERSION_ROWS holding each account's months as one array.
 * Nothing but `createVersion` and `deleteVersion` writes either collection: no write path of the forecast touches
 * them, so a version cannot change.
 */

export const FORECAST_VERSIONS = "forecast_versions";
export const FORECAST_VERSION_ROWS = "forecast_version_rows";

export const VERSION_KINDS = ["manual", "closing", "approval"] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

export type VersionHeader = {
  _id: ObjectId;
  name: string;
  rf: string;
  kind: VersionKind;
  /** An approval's cost centre (the version holds only it). */
  cost_center_concat?: string;
  created_at: Date;
  created_by: string;
  created_by_name: string;
  /** The sum of every amount of the RF's year held (the list's total). */
  total: number;
  cost_centers: number;
  /** "saving" while its rows are written; lists and reads see "ready" only. */
  state: "saving" | "ready";
  /** The RF of an automatic closing version: at most one each (unique). */
  closing_of?: string;
};

export type VersionRowAccount = { account: string; label: string; group: string; amounts: (number | null)[] };

/** A version's row as read and written by the callers: each account's months as an array. */
export type VersionRow = {
  version_id: ObjectId;
  rf: string;
  cost_center_concat: string;
  cost_center: string;
  level_descr: string;
  /** The month of position 0 of each account's `amounts`. */
  first_month: Date;
  accounts: VersionRowAccount[];
};

/** As stored: each account's months packed (packed-amounts.ts). */
type StoredVersionRow = Omit<VersionRow, "accounts"> & {
  accounts: (Omit<VersionRowAccount, "amounts"> & { amounts: Binary })[];
};

const packedRow = (row: VersionRow): StoredVersionRow => ({
  ...row,
  accounts: row.accounts.map((a) => ({ ...a, amounts: packAmounts(a.amounts) })),
});
const unpacked = (row: StoredVersionRow): VersionRow => ({
  ...row,
  accounts: row.accounts.map((a) => ({ ...a, amounts: unpackAmounts(a.amounts) })),
});

export const indexes: IndexDeclaration[] = [
  { collection: FORECAST_VERSIONS, key: { rf: 1, created_at: -1 }, options: { name: "rf_createdAt" } },
  { collection: FORECAST_VERSIONS, key: { created_at: -1 }, options: { name: "createdAt" } },
  {
    collection: FORECAST_VERSIONS,
    key: { kind: 1, cost_center_concat: 1, created_at: -1 },
    options: { name: "kind_costCenter_createdAt" },
  },
  {
    collection: FORECAST_VERSIONS,
    key: { closing_of: 1 },
    options: { unique: true, sparse: true, name: "closingOf_unique_sparse" },
  },
  {
    collection: FORECAST_VERSION_ROWS,
    key: { version_id: 1, cost_center_concat: 1 },
    options: { unique: true, name: "version_costCenter_unique" },
  },
];

async function headers(given?: Db) {
  return (given ?? (await getDb())).collection<VersionHeader>(FORECAST_VERSIONS);
}
async function rows(given?: Db) {
  return (given ?? (await getDb())).collection<StoredVersionRow>(FORECAST_VERSION_ROWS);
}

export type NewVersion = Omit<VersionHeader, "_id" | "state">;

/**
 * Stores a version: its header first ("saving"), then its rows, then the header "ready". A closing version that
 * exists already (another instance made it) gives null; a failure removes what was written.
 */
export async function createVersion(
  header: NewVersion,
  body: readonly Omit<VersionRow, "version_id">[],
): Promise<VersionHeader | null> {
  const _id = new ObjectId();
  const stored: VersionHeader = { ...header, _id, state: "saving" };
  try {
    await (await headers()).insertOne(stored);
  } catch (error) {
    if ((error as { code?: number }).code === 11000 && header.closing_of) return null;
    throw error;
  }
  try {
    if (body.length > 0) await (await rows()).insertMany(body.map((row) => packedRow({ ...row, version_id: _id })));
    await (await headers()).updateOne({ _id }, { $set: { state: "ready" } });
  } catch (error) {
    await removeVersion(_id).catch(() => undefined);
    throw error;
  }
  return { ...stored, state: "ready" };
}

async function removeVersion(_id: ObjectId): Promise<void> {
  await (await rows()).deleteMany({ version_id: _id });
  await (await headers()).deleteOne({ _id });
}

/** Deletes a version (header and rows); whether it existed. */
export async function deleteVersion(id: ObjectId): Promise<VersionHeader | null> {
  const found = await (await headers()).findOne({ _id: id, state: "ready" });
  if (!found) return null;
  await removeVersion(id);
  return found;
}

/**
 * Which versions a reader's cost centres (null: every one; the forecast's read rule, forecast-readers.server.ts) let
 * them see: a version of every cost centre (its rows are then read in scope), or one kept for a cost centre of theirs
 * (at its approval); a version of another's cost centre is, for them, no version at all.
 */
function readableBy(costCenters: readonly string[] | null) {
  return costCenters
    ? { $or: [{ cost_center_concat: { $exists: false } }, { cost_center_concat: { $in: [...costCenters] } }] }
    : {};
}

export async function findVersion(id: ObjectId, costCenters: readonly string[] | null): Promise<VersionHeader | null> {
  return (await headers()).findOne({ _id: id, state: "ready", ...readableBy(costCenters) });
}

/**
 * Which versions a list holds: every kind, newest first; the company's (saved by people, and the edit months'
 * closings), newest first; or the approvals, by cost centre and each cost centre's newest first.
 */
export type VersionSection = "all" | "company" | "approval";

const SECTIONS: Record<VersionSection, { filter: object; sort: Record<string, 1 | -1> }> = {
  all: { filter: {}, sort: { created_at: -1 } },
  company: { filter: { kind: { $in: ["manual", "closing"] } }, sort: { created_at: -1 } },
  approval: { filter: { kind: "approval" }, sort: { cost_center_concat: 1, created_at: -1 } },
};

/**
 * Ready versions a reader may see (readableBy), of the RFs given or all, one page of a section (indexes rf_createdAt,
 * createdAt, kind_costCenter_createdAt). A short page is the last one, so its total needs no count (the review's
 * version choice: one read).
 */
export async function listVersions(
  rfs: readonly string[] | null,
  skip: number,
  limit: number,
  costCenters: readonly string[] | null,
  section: VersionSection = "all",
): Promise<{ rows: VersionHeader[]; total: number }> {
  const { filter: kinds, sort } = SECTIONS[section];
  const filter = {
    state: "ready" as const,
    ...kinds,
    ...(rfs ? { rf: { $in: [...rfs] } } : {}),
    ...readableBy(costCenters),
  };
  // Read together with the page's other reads of the same turn (the review's comment marks).
  const rows = await aggregateTogether<VersionHeader>(FORECAST_VERSIONS, [
    { $match: filter },
    { $sort: sort },
    { $skip: skip },
    { $limit: limit },
  ]);
  const last = rows.length < limit && (rows.length > 0 || skip === 0);
  return { rows, total: last ? skip + rows.length : await (await headers()).countDocuments(filter) };
}

/** The rows of a version, of every cost centre or of those listed (index version_costCenter_unique). */
export async function readVersionRows(id: ObjectId, costCenters: readonly string[] | null): Promise<VersionRow[]> {
  if (costCenters && costCenters.length === 0) return [];
  const found = await (await rows())
    .find(
      { version_id: id, ...(costCenters ? { cost_center_concat: { $in: [...costCenters] } } : {}) },
      { projection: { _id: 0 } },
    )
    .toArray();
  return found.map(unpacked);
}

/**
 * The sum of the year's amounts per version over the cost centres listed (a preparer's list shows their total):
 * one read of the page's versions' rows (index version_costCenter_unique).
 */
export async function versionTotalsOf(
  ids: readonly ObjectId[],
  costCenters: readonly string[],
  from: (row: VersionRow) => number,
): Promise<Map<string, number>> {
  const totals = new Map<string, number>(ids.map((id) => [id.toHexString(), 0]));
  if (ids.length === 0 || costCenters.length === 0) return totals;
  const found = await (await rows())
    .find({ version_id: { $in: [...ids] }, cost_center_concat: { $in: [...costCenters] } }, { projection: { _id: 0 } })
    .toArray();
  for (const row of found) {
    const key = row.version_id.toHexString();
    totals.set(key, (totals.get(key) ?? 0) + from(unpacked(row)));
  }
  return totals;
}

/** Whether an RF already has its closing version. */
export async function hasClosingVersion(rf: string): Promise<boolean> {
  return (await (await headers()).countDocuments({ closing_of: rf }, { limit: 1 })) > 0;
}
