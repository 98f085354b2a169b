import { type Collection, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { addMonthsToDate } from "~/shared/months";
import type { BusinessUnitId } from "./financial.server";
import type { IndexDeclaration } from "./indexes";
import {
  accountTree,
  byAccount,
  type Category1,
  type LedgerAccount,
  type LedgerReport,
  ledgerRows,
  listAccounts,
  round2,
  sumTree,
} from "./ledger.server";

/**
 * The cockpit (spec 001 §2 "Cockpit", "Balance sheet table page"): the balance-sheet or working-capital table
 * of one unit, the chosen month beside the month before, with the differences, and per row the comment and
 * the files the finance team attached for that unit and month.
 */

export const COCKPIT_COMMENTS = "cockpit_comments";
export const COCKPIT_FILES = "cockpit_files";

export type CockpitComment = {
  _id?: ObjectId;
  businessUnitID: BusinessUnitId;
  month: Date;
  /** The table row: a category key ("c1:…", "c2:…") or an account code. */
  rowKey: string;
  text: string;
  user: string;
  updatedAt: Date;
};

export type CockpitFile = {
  _id?: ObjectId;
  businessUnitID: BusinessUnitId;
  month: Date;
  rowKey: string;
  originalName: string;
  originalFile: string;
  bucket: string;
  size: number;
  user: string;
  createdAt: Date;
};

export const indexes: IndexDeclaration[] = [
  {
    collection: COCKPIT_COMMENTS,
    key: { businessUnitID: 1, month: 1, rowKey: 1 },
    options: { name: "businessUnit_month_rowKey", unique: true },
  },
  {
    collection: COCKPIT_FILES,
    key: { businessUnitID: 1, month: 1, rowKey: 1, createdAt: 1 },
    options: { name: "businessUnit_month_rowKey_createdAt" },
  },
];

async function comments(): Promise<Collection<CockpitComment>> {
  return (await getDb()).collection<CockpitComment>(COCKPIT_COMMENTS);
}

async function files(): Promise<Collection<CockpitFile>> {
  return (await getDb()).collection<CockpitFile>(COCKPIT_FILES);
}

export type CockpitFilter = {
  businessUnitID: BusinessUnitId;
  report: LedgerReport;
  month: Date;
  category1: Category1 | null;
  category2: string | null;
  category3: string | null;
};

/** The accounts a filter selects (the report, then each chosen category). */
export function selectAccounts(
  accounts: readonly LedgerAccount[],
  filter: Omit<CockpitFilter, "businessUnitID" | "month">,
): LedgerAccount[] {
  return accounts.filter(
    (a) =>
      (filter.report === "BALANCE_SHEET" || a.workingCapital) &&
      (!filter.category1 || a.category1 === filter.category1) &&
      (!filter.category2 || a.category2 === filter.category2) &&
      (!filter.category3 || a.category3 === filter.category3),
  );
}

export type CockpitRow = {
  key: string;
  parentKey: string | null;
  kind: "category1" | "category2" | "account";
  label: string;
  previous: number;
  current: number;
  difference: number;
  /** null when the previous month is 0. */
  differencePercent: number | null;
  comment: string;
  files: { id: string; name: string }[];
};

export type CockpitTable = { months: [Date, Date]; rows: CockpitRow[]; hasData: boolean };

export async function cockpitTable(filter: CockpitFilter): Promise<CockpitTable> {
  const previousMonth = addMonthsToDate(filter.month, -1);
  const [accounts, rows, commentDocs, fileDocs] = await Promise.all([
    listAccounts(),
    ledgerRows(filter.businessUnitID, [previousMonth, filter.month]),
    (await comments()).find({ businessUnitID: filter.businessUnitID, month: filter.month }).toArray(),
    (await files())
      .find(
        { businessUnitID: filter.businessUnitID, month: filter.month },
        { projection: { rowKey: 1, originalName: 1 } },
      )
      .sort({ rowKey: 1, createdAt: 1 })
      .toArray(),
  ]);
  const tree = accountTree(selectAccounts(accounts, filter));
  const now = byAccount(rows, filter.month);
  const before = byAccount(rows, previousMonth);
  const current = sumTree(tree, (a) => now.get(a._id)?.actual ?? 0);
  const previous = sumTree(tree, (a) => before.get(a._id)?.actual ?? 0);
  const commentOf = new Map(commentDocs.map((c) => [c.rowKey, c.text]));
  const filesOf = new Map<string, { id: string; name: string }[]>();
  for (const f of fileDocs)
    filesOf.set(f.rowKey, [...(filesOf.get(f.rowKey) ?? []), { id: String(f._id), name: f.originalName }]);
  return {
    months: [previousMonth, filter.month],
    hasData: now.size > 0,
    rows: tree.map((node) => {
      const c = current.get(node.key) ?? 0;
      const p = previous.get(node.key) ?? 0;
      return {
        key: node.key,
        parentKey: node.parentKey,
        kind: node.kind,
        label: node.kind === "account" ? (node.account?.description ?? node.label) : node.label,
        previous: p,
        current: c,
        difference: round2(c - p),
        differencePercent: p === 0 ? null : round2(((c - p) / Math.abs(p)) * 100),
        comment: commentOf.get(node.key) ?? "",
        files: filesOf.get(node.key) ?? [],
      };
    }),
  };
}

/** Saves (or clears, with an empty text) the comment of a row. */
export async function saveComment(input: {
  businessUnitID: BusinessUnitId;
  month: Date;
  rowKey: string;
  text: string;
  user: string;
  now?: Date;
}): Promise<void> {
  const key = { businessUnitID: input.businessUnitID, month: input.month, rowKey: input.rowKey };
  if (!input.text) {
    await (await comments()).deleteOne(key);
    return;
  }
  await (await comments()).updateOne(
    key,
    { $set: { text: input.text, user: input.user, updatedAt: input.now ?? new Date() } },
    { upsert: true },
  );
}

export async function countRowFiles(businessUnitID: BusinessUnitId, month: Date, rowKey: string): Promise<number> {
  return (await files()).countDocuments({ businessUnitID, month, rowKey });
}

export async function addRowFile(file: CockpitFile): Promise<string> {
  const result = await (await files()).insertOne(file);
  return String(result.insertedId);
}

/** A row's file by id, only within the given unit and month (another unit's or month's id answers null). */
export async function findRowFile(
  businessUnitID: BusinessUnitId,
  month: Date,
  id: string,
): Promise<CockpitFile | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await files()).findOne({ _id: new ObjectId(id), businessUnitID, month });
}
