import { ObjectId, type Collection } from "mongodb";
import { getDb } from "~/db.server";
import type { BusinessUnitId } from "./financial.server";
import type { IndexDeclaration } from "./indexes";
import { latestLedgerMonth, ledgerRows, listAccounts, round2 } from "./ledger.server";

/**
 * The fiscal asset page (spec 001 §2 "Fiscal asset page"): the "Ativo Fiscal" modal's two-year table (the tax
 * asset accounts of the ledger at the close of the two latest years), its observations, and the items table
 * with each item's worksheet and supporting document in the store.
 */

export const FISCAL_ITEMS = "fiscal_items";
export const FISCAL_OBSERVATIONS = "fiscal_observations";

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
  { collection: FISCAL_ITEMS, key: { businessUnitID: 1, year: -1, account: 1 }, options: { name: "businessUnit_year_account" } },
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
  const valueAt = (account: string, month: Date) => rows.find((r) => r.account === account && r.month.getTime() === month.getTime());
  // The earlier year closes in December; before the ledger started, its balance is the prior-year figure of the latest month.
  const earlier = (account: string) => valueAt(account, earlierClose)?.actual ?? valueAt(account, latest)?.priorYear ?? 0;
  const tableRows = fiscal.map((a) => ({ account: a._id, description: a.description, values: [valueAt(a._id, latest)?.actual ?? 0, earlier(a._id)] }));
  return {
    years: [year, year - 1],
    months: [latest, earlierClose],
    rows: tableRows,
    totals: [0, 1].map((i) => round2(tableRows.reduce((s, r) => s + r.values[i], 0))),
  };
}

export async function listFiscalItems(unit: BusinessUnitId): Promise<(FiscalItem & { _id: ObjectId })[]> {
  return (await items()).find({ businessUnitID: unit }).sort({ year: -1, account: 1 }).limit(200).toArray() as Promise<(FiscalItem & { _id: ObjectId })[]>;
}

/** One item of the unit (null for malformed ids, unknown ids or another unit's item). */
export async function findFiscalItem(unit: BusinessUnitId, id: string): Promise<FiscalItem | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await items()).findOne({ _id: new ObjectId(id), businessUnitID: unit });
}

export async function findObservation(unit: BusinessUnitId): Promise<FiscalObservation | null> {
  return (await observations()).findOne({ _id: unit });
}

export async function saveObservation(unit: BusinessUnitId, text: string, user: string, now = new Date()): Promise<void> {
  await (await observations()).updateOne({ _id: unit }, { $set: { text, user, updatedAt: now } }, { upsert: true });
}
