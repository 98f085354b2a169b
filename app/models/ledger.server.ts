import type { AnyBulkWriteOperation, Collection, Document, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { noteDataChanged } from "./dashboard-cache.server";
import { BUSINESS_UNITS, type BusinessUnitId } from "./financial.server";
import type { IndexDeclaration } from "./indexes";
import { insertIgnoringDuplicates, nokIndexes, type UploadMeta } from "./upload-rows.server";

/**
 * The general ledger the reports, statements, cockpit, FP&A and fiscal screens read: a chart of
 * accounts with the cockpit's categories (Category 1 > Category 2 > Category 3 = the postable account) and one
 * row per business unit × account × month with the actual balance, the prior year's balance for that month
 * and the forecast of the current release point (rf_n).
 */

export const LEDGER_ACCOUNTS = "ledger_accounts";
export const LEDGER = "ledger";
/** The rows of uploaded ledger files that broke a rule (import template "ledger"). */
export const LEDGER_NOK = "ledger_nok";

export { CATEGORY1_OPTIONS, type Category1, LEDGER_REPORTS, type LedgerReport } from "~/models/reports.fields";

import { CATEGORY1_OPTIONS, type Category1 } from "~/models/reports.fields";

export type LedgerAccount = {
  /** The account code, e.g. "1.1.02.001"; also the _id. */
  _id: string;
  description: string;
  category1: Category1;
  category2: string;
  /** The postable account's own name (Category 3). */
  category3: string;
  /** Part of the working-capital report (operational current assets and liabilities). */
  workingCapital: boolean;
  /** A tax asset shown on the fiscal asset page. */
  fiscal: boolean;
  /** Sort order within the chart. */
  order: number;
};

export type LedgerRow = {
  _id?: ObjectId;
  businessUnitID: BusinessUnitId;
  /** LedgerAccount._id */
  account: string;
  /** First day of the month, UTC. */
  month: Date;
  /** Closing balance of the month. */
  actual: number;
  /** Closing balance of the same month a year earlier. */
  priorYear: number;
  /** The current release point's forecast for the month (rf_n); FP&A planners revise it. */
  forecast: number;
  forecastUpdatedBy?: string;
  forecastUpdatedAt?: Date;
};

export const indexes: IndexDeclaration[] = [
  // Every ledger read is one unit and one month or a month range, all accounts (cockpit, FP&A, statements).
  {
    collection: LEDGER,
    key: { businessUnitID: 1, month: 1, account: 1 },
    options: { name: "businessUnit_month_account", unique: true },
  },
  ...nokIndexes(LEDGER_NOK),
];

async function accountsCollection(): Promise<Collection<LedgerAccount>> {
  return (await getDb()).collection<LedgerAccount>(LEDGER_ACCOUNTS);
}

async function ledgerCollection(): Promise<Collection<LedgerRow>> {
  return (await getDb()).collection<LedgerRow>(LEDGER);
}

/** The chart of accounts in its order (a few dozen documents). */
export async function listAccounts(): Promise<LedgerAccount[]> {
  return (await accountsCollection()).find({}).sort({ order: 1 }).toArray();
}

export function isBusinessUnit(value: unknown): value is BusinessUnitId {
  return typeof value === "string" && (BUSINESS_UNITS as readonly string[]).includes(value);
}

/** Ledger rows of one unit for the given months (all accounts). */
export async function ledgerRows(businessUnitID: BusinessUnitId, months: readonly Date[]): Promise<LedgerRow[]> {
  if (months.length === 0) return [];
  return (await ledgerCollection())
    .find({ businessUnitID, month: { $in: [...months] } }, { projection: { _id: 0 } })
    .sort({ month: 1, account: 1 })
    .toArray();
}

/** Ledger rows of one unit for every month in [from, to] (all accounts). */
export async function ledgerRowsBetween(businessUnitID: BusinessUnitId, from: Date, to: Date): Promise<LedgerRow[]> {
  return (await ledgerCollection())
    .find({ businessUnitID, month: { $gte: from, $lte: to } }, { projection: { _id: 0 } })
    .sort({ month: 1, account: 1 })
    .toArray();
}

/** The latest month with ledger rows for the unit in [from, to], or null. */
export async function latestLedgerMonth(businessUnitID: BusinessUnitId, from: Date, to: Date): Promise<Date | null> {
  const row = await (await ledgerCollection())
    .find({ businessUnitID, month: { $gte: from, $lte: to } }, { projection: { month: 1 } })
    .sort({ month: -1 })
    .limit(1)
    .next();
  return row?.month ?? null;
}

/** Sets the forecast of one account × month of a unit; false when there is no such ledger row. */
export async function setForecast(input: {
  businessUnitID: BusinessUnitId;
  account: string;
  month: Date;
  forecast: number;
  user: string;
  now?: Date;
}): Promise<boolean> {
  const result = await (await ledgerCollection()).updateOne(
    { businessUnitID: input.businessUnitID, month: input.month, account: input.account },
    { $set: { forecast: input.forecast, forecastUpdatedBy: input.user, forecastUpdatedAt: input.now ?? new Date() } },
  );
  return result.matchedCount === 1;
}

// ---------------------------------------------------------------------------------------------
// The account tree (Category 1 > Category 2 > account), with sums

export type TreeNode = {
  /** "c1:Current Assets", "c2:Current Assets/Inventories" or the account code. */
  key: string;
  parentKey: string | null;
  kind: "category1" | "category2" | "account";
  label: string;
  account?: LedgerAccount;
};

/** The tree nodes of `accounts` in chart order: each category before its children. */
export function accountTree(accounts: readonly LedgerAccount[]): TreeNode[] {
  const nodes: TreeNode[] = [];
  const seen = new Set<string>();
  const ordered = [...accounts].sort(
    (a, b) => CATEGORY1_OPTIONS.indexOf(a.category1) - CATEGORY1_OPTIONS.indexOf(b.category1) || a.order - b.order,
  );
  for (const account of ordered) {
    const c1 = `c1:${account.category1}`;
    const c2 = `c2:${account.category1}/${account.category2}`;
    if (!seen.has(c1)) {
      seen.add(c1);
      nodes.push({ key: c1, parentKey: null, kind: "category1", label: account.category1 });
    }
    if (!seen.has(c2)) {
      seen.add(c2);
      nodes.push({ key: c2, parentKey: c1, kind: "category2", label: account.category2 });
    }
    nodes.push({ key: account._id, parentKey: c2, kind: "account", label: account.category3, account });
  }
  return nodes;
}

/** Sums a per-account figure up the tree: every node's value is the sum of its accounts'. */
export function sumTree(nodes: readonly TreeNode[], figureOf: (account: LedgerAccount) => number): Map<string, number> {
  const sums = new Map<string, number>();
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  for (const node of nodes) {
    if (node.kind !== "account" || !node.account) continue;
    const value = figureOf(node.account);
    for (let at: TreeNode | undefined = node; at; at = at.parentKey ? byKey.get(at.parentKey) : undefined) {
      sums.set(at.key, round2((sums.get(at.key) ?? 0) + value));
    }
  }
  return sums;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** Rows indexed by account for one month. */
export function byAccount(rows: readonly LedgerRow[], month: Date): Map<string, LedgerRow> {
  const t = month.getTime();
  return new Map(rows.filter((r) => r.month.getTime() === t).map((r) => [r.account, r]));
}

// ---------------------------------------------------------------------------------------------
// Upload template "ledger" (/captura/manual): replaces the (business unit, month) pairs a file holds

/** An account as a ledger file describes it (its order in the chart is kept, or given after the last one). */
export type UploadedAccount = Omit<LedgerAccount, "order">;

/** Adds the accounts the chart lacks (after its last one, in code order) and updates the others' descriptions. */
export async function upsertLedgerAccounts(
  accounts: readonly UploadedAccount[],
  meta: UploadMeta,
): Promise<{ inserted: number; updated: number }> {
  if (accounts.length === 0) return { inserted: 0, updated: 0 };
  const collection = meta.db.collection<LedgerAccount>(LEDGER_ACCOUNTS);
  const found = await collection.find({ _id: { $in: accounts.map((a) => a._id) } }).toArray();
  const byId = new Map(found.map((a) => [a._id, a]));
  const last = await collection
    .find({}, { projection: { order: 1 } })
    .sort({ order: -1 })
    .limit(1)
    .next();
  let order = typeof last?.order === "number" ? last.order : 0;
  const writes: AnyBulkWriteOperation<LedgerAccount>[] = [];
  let inserted = 0;
  for (const account of [...accounts].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))) {
    const stored = byId.get(account._id);
    const { _id, ...fields } = account;
    if (!stored) {
      writes.push({
        updateOne: { filter: { _id }, update: { $set: fields, $setOnInsert: { order: ++order } }, upsert: true },
      });
      inserted++;
    } else if ((Object.keys(fields) as Array<keyof typeof fields>).some((k) => stored[k] !== fields[k])) {
      writes.push({ updateOne: { filter: { _id }, update: { $set: fields } } });
    }
  }
  if (writes.length > 0) {
    await collection.bulkWrite(writes, { ordered: false });
    await noteDataChanged([LEDGER_ACCOUNTS], meta.db);
  }
  return { inserted, updated: writes.length - inserted };
}

/** Removes every ledger row of the given (unit, month) pairs; returns how many. */
export async function deleteLedgerMonths(
  pairs: ReadonlyArray<{ businessUnitID: BusinessUnitId; month: Date }>,
  meta: UploadMeta,
): Promise<number> {
  let removed = 0;
  const collection = meta.db.collection<LedgerRow>(LEDGER);
  for (const pair of pairs)
    removed += (await collection.deleteMany({ businessUnitID: pair.businessUnitID, month: pair.month })).deletedCount;
  if (removed > 0) await noteDataChanged([LEDGER], meta.db);
  return removed;
}

/** Inserts uploaded ledger rows (ids chosen by the caller, so a second run inserts nothing twice). */
export async function insertLedgerRows(rows: readonly Document[], meta: UploadMeta): Promise<number> {
  const inserted = await insertIgnoringDuplicates(meta.db.collection(LEDGER), rows);
  if (inserted > 0) await noteDataChanged([LEDGER], meta.db);
  return inserted;
}
