import { type Collection, type Db, type Document, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { noteDataChanged } from "./dashboard-cache.server";
import { FILES, type FileRecord } from "./files.server";
import type { BusinessUnitId } from "./financial.server";
import type { IndexDeclaration } from "./indexes";
import { latestLedgerMonth, ledgerRows, listAccounts, round2 } from "./ledger.server";
import { insertIgnoringDuplicates, nokIndexes, type UploadMeta } from "./upload-rows.server";

/**
 * The fiscal asset page (spec 001 §2 "Fiscal asset page"): the "Ativo Fiscal" modal's two-year table (the tax
 * asset accounts of the ledger at the close of the two latest years), its observations, and the items table
 * with each item's worksheet and supporting document in the store.
 */

export const FISCAL_ITEMS = "fiscal_items";
export const FISCAL_OBSERVATIONS = "fiscal_observations";
/** The rows of uploaded fiscal-item files that broke a rule (import template "fiscal_items"). */
export const FISCAL_ITEMS_NOK = "fiscal_items_nok";

export type StoredFile = { bucket: string; key: string; name: string };

export type FiscalItem = {
  _id?: ObjectId;
  businessUnitID: BusinessUnitId;
  year: number;
  /** The ledger account the item supports. */
  account: string;
  description: string;
  value: number;
  worksheet: StoredFile;
  document: StoredFile;
};

export type FiscalObservation = {
  /** `${businessUnitID}` */
  _id: BusinessUnitId;
  text: string;
  user: string;
  updatedAt: Date;
};

export const indexes: IndexDeclaration[] = [
  {
    collection: FISCAL_ITEMS,
    key: { businessUnitID: 1, year: -1, account: 1 },
    options: { name: "businessUnit_year_account" },
  },
  ...nokIndexes(FISCAL_ITEMS_NOK),
];

async function items(): Promise<Collection<FiscalItem>> {
  return (await getDb()).collection<FiscalItem>(FISCAL_ITEMS);
}

async function observations(): Promise<Collection<FiscalObservation>> {
  return (await getDb()).collection<FiscalObservation>(FISCAL_OBSERVATIONS);
}

export type FiscalYearTable = {
  years: [number, number] | [];
  /** The month each year's balance is taken at (December, or the latest closed month of the current year). */
  months: Date[];
  rows: { account: string; description: string; values: number[] }[];
  totals: number[];
};

/** The fiscal accounts at the close of the unit's two latest ledger years. */
export async function fiscalYearTable(unit: BusinessUnitId): Promise<FiscalYearTable> {
  const latest = await latestLedgerMonth(unit, new Date(Date.UTC(1950, 0, 1)), new Date(Date.UTC(9999, 11, 1)));
  if (!latest) return { years: [], months: [], rows: [], totals: [] };
  const year = latest.getUTCFullYear();
  const earlierClose = new Date(Date.UTC(year - 1, 11, 1));
  const [accounts, rows] = await Promise.all([listAccounts(), ledgerRows(unit, [latest, earlierClose])]);
  const fiscal = accounts.filter((a) => a.fiscal);
  const valueAt = (account: string, month: Date) =>
    rows.find((r) => r.account === account && r.month.getTime() === month.getTime());
  // The earlier year closes in December; before the ledger started, its balance is the prior-year figure of the latest month.
  const earlier = (account: string) =>
    valueAt(account, earlierClose)?.actual ?? valueAt(account, latest)?.priorYear ?? 0;
  const tableRows = fiscal.map((a) => ({
    account: a._id,
    description: a.description,
    values: [valueAt(a._id, latest)?.actual ?? 0, earlier(a._id)],
  }));
  return {
    years: [year, year - 1],
    months: [latest, earlierClose],
    rows: tableRows,
    totals: [0, 1].map((i) => round2(tableRows.reduce((s, r) => s + r.values[i], 0))),
  };
}

export async function listFiscalItems(unit: BusinessUnitId): Promise<(FiscalItem & { _id: ObjectId })[]> {
  return (await items()).find({ businessUnitID: unit }).sort({ year: -1, account: 1 }).limit(200).toArray() as Promise<
    (FiscalItem & { _id: ObjectId })[]
  >;
}

/** One item of the unit (null for malformed ids, unknown ids or another unit's item). */
export async function findFiscalItem(unit: BusinessUnitId, id: string): Promise<FiscalItem | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await items()).findOne({ _id: new ObjectId(id), businessUnitID: unit });
}

export async function findObservation(unit: BusinessUnitId): Promise<FiscalObservation | null> {
  return (await observations()).findOne({ _id: unit });
}

export async function saveObservation(
  unit: BusinessUnitId,
  text: string,
  user: string,
  now = new Date(),
): Promise<void> {
  await (await observations()).updateOne({ _id: unit }, { $set: { text, user, updatedAt: now } }, { upsert: true });
}

// ---------------------------------------------------------------------------------------------
// Upload template "fiscal_items" (/captura/manual): replaces the (business unit, year) pairs a file holds

/**
 * The files of the repository (/repo/format) by original name, the latest upload of each name: an item's worksheet and
 * document are files uploaded there before the items file. Served by the files' originalName index.
 */
export async function repositoryFilesNamed(names: readonly string[], db?: Db): Promise<Map<string, StoredFile>> {
  if (names.length === 0) return new Map();
  const database = db ?? (await getDb());
  const found = await database
    .collection<FileRecord>(FILES)
    .find(
      { originalName: { $in: [...new Set(names)] } },
      { projection: { _id: 0, originalName: 1, originalFile: 1, bucket: 1, statusChangeDate: 1 } },
    )
    .toArray();
  found.sort((a, b) => (b.statusChangeDate?.getTime?.() ?? 0) - (a.statusChangeDate?.getTime?.() ?? 0));
  const byName = new Map<string, StoredFile>();
  for (const f of found)
    if (!byName.has(f.originalName))
      byName.set(f.originalName, { bucket: f.bucket, key: f.originalFile, name: f.originalName });
  return byName;
}

/** Removes every item of the given (unit, year) pairs; returns how many. */
export async function deleteFiscalItemsOf(
  pairs: ReadonlyArray<{ businessUnitID: BusinessUnitId; year: number }>,
  meta: UploadMeta,
): Promise<number> {
  let removed = 0;
  const collection = meta.db.collection<FiscalItem>(FISCAL_ITEMS);
  for (const pair of pairs)
    removed += (await collection.deleteMany({ businessUnitID: pair.businessUnitID, year: pair.year })).deletedCount;
  if (removed > 0) await noteDataChanged([FISCAL_ITEMS], meta.db);
  return removed;
}

/** Inserts uploaded items (ids chosen by the caller, so a second run inserts nothing twice). */
export async function insertFiscalItems(items: readonly Document[], meta: UploadMeta): Promise<number> {
  const inserted = await insertIgnoringDuplicates(meta.db.collection(FISCAL_ITEMS), items);
  if (inserted > 0) await noteDataChanged([FISCAL_ITEMS], meta.db);
  return inserted;
}
