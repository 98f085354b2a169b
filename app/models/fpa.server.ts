import type { AnyBulkWriteOperation } from "mongodb";
import { getDb } from "~/db.server";
import { addMonthsToDate } from "~/shared/months";
import { noteDataChanged } from "./dashboard-cache.server";
import type { BusinessUnitId } from "./financial.server";
import type { IndexDeclaration } from "./indexes";
import {
  accountTree,
  byAccount,
  type LedgerRow,
  ledgerRows,
  ledgerRowsBetween,
  listAccounts,
  round2,
  sumTree,
} from "./ledger.server";
import { nokIndexes, type UploadCounts, type UploadMeta } from "./upload-rows.server";

/**
 * The FP&A report (spec 001 §2 "FP&A report page", §3 "Editable report table columns", "Variance rows"): the
 * ledger of one unit and month as a tree by parentId — step rows for the categories (grey, not editable) and
 * one row per account — with its responsible people in the header.
 */

export const FPA_RESPONSIBLES = "fpa_responsibles";
/** The rows of uploaded FP&A responsible files that broke a rule (import template "fpa_responsibles"). */
export const FPA_RESPONSIBLES_NOK = "fpa_responsibles_nok";

export const indexes: IndexDeclaration[] = [...nokIndexes(FPA_RESPONSIBLES_NOK)];

/** The header of a unit's FP&A report (spec 001 §2: country, functional area, responsible person, user, cost centre). */
export type FpaResponsible = {
  /** The business unit. */
  _id: BusinessUnitId;
  country: string;
  functionalArea: string;
  personResponsible: string;
  userResponsible: string;
  costCenter: string;
};

const RESPONSIBLE_FIELDS = ["country", "functionalArea", "personResponsible", "userResponsible", "costCenter"] as const;

/** Upload template "fpa_responsibles": upserts each unit's header by its business unit (the _id). */
export async function upsertResponsibles(rows: readonly FpaResponsible[], meta: UploadMeta): Promise<UploadCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0, removed: 0 };
  const collection = meta.db.collection<FpaResponsible>(FPA_RESPONSIBLES);
  const found = new Map(
    (await collection.find({ _id: { $in: rows.map((r) => r._id) } }).toArray()).map((r) => [r._id, r]),
  );
  const writes: AnyBulkWriteOperation<FpaResponsible>[] = [];
  let inserted = 0;
  let unchanged = 0;
  for (const row of rows) {
    const stored = found.get(row._id);
    if (stored && RESPONSIBLE_FIELDS.every((f) => stored[f] === row[f])) {
      unchanged++;
      continue;
    }
    if (!stored) inserted++;
    const { _id, ...fields } = row;
    writes.push({
      updateOne: {
        filter: { _id },
        update: { $set: { ...fields, updatedBy: meta.user, updatedAt: meta.now } },
        upsert: true,
      },
    });
  }
  if (writes.length > 0) {
    await collection.bulkWrite(writes, { ordered: false });
    await noteDataChanged([FPA_RESPONSIBLES], meta.db);
  }
  return { inserted, updated: writes.length - inserted, unchanged, removed: 0 };
}

export async function findResponsible(unit: BusinessUnitId): Promise<FpaResponsible | null> {
  return (await getDb()).collection<FpaResponsible>(FPA_RESPONSIBLES).findOne({ _id: unit });
}

/** Every unit's responsibles (one record per business unit): what the forecast preparers are suggested from. */
export async function listResponsibles(): Promise<FpaResponsible[]> {
  return (await getDb()).collection<FpaResponsible>(FPA_RESPONSIBLES).find({}).sort({ _id: 1 }).limit(1000).toArray();
}

export type FpaRowType = "step" | "row";

/** A row of the Current tab (spec 001 §3 "Report sample row"). */
export type FpaCurrentRow = {
  id: string;
  parentId: string | null;
  type: FpaRowType;
  acc_description: string;
  /** Same month a year earlier. */
  priorY: number;
  /** The month before. */
  priorM: number;
  actual: number;
  /** The release point's forecast for the month (editable on account rows). */
  rf_n: number;
};

/** A row of the Variances tab (spec 001 §3 "Variance rows"); amounts are differences, actualRF a percentage. */
export type FpaVarianceRow = {
  id: string;
  parentId: string | null;
  type: FpaRowType;
  acc_description: string;
  /** Year to date actual minus the prior year's year to date. */
  priorY: number;
  /** Year to date actual minus year to date forecast. */
  rfY: number;
  /** Month actual minus the month before. */
  priorM: number;
  /** Month actual minus the month's forecast. */
  rfM: number;
  /** (actual − forecast) / |forecast| × 100 for the month; null when the forecast is 0. */
  actualRF: number | null;
};

export type FpaReport = { current: FpaCurrentRow[]; variances: FpaVarianceRow[] } | null;

const sumBy = (rows: readonly LedgerRow[], account: string, field: "actual" | "priorYear" | "forecast") =>
  rows.reduce((s, r) => (r.account === account ? s + r[field] : s), 0);

/** Both tabs of a unit's month; null when the ledger has no rows for it. */
export async function fpaReport(unit: BusinessUnitId, month: Date): Promise<FpaReport> {
  const yearStart = new Date(Date.UTC(month.getUTCFullYear(), 0, 1));
  const [accounts, monthRows, previousRows, ytdRows] = await Promise.all([
    listAccounts(),
    ledgerRows(unit, [month]),
    ledgerRows(unit, [addMonthsToDate(month, -1)]),
    ledgerRowsBetween(unit, yearStart, month),
  ]);
  if (monthRows.length === 0) return null;
  return buildFpaReport(accounts, month, monthRows, previousRows, ytdRows);
}

/** The pure part of fpaReport (unit-tested with hand-made ledgers). */
export function buildFpaReport(
  accounts: Awaited<ReturnType<typeof listAccounts>>,
  month: Date,
  monthRows: readonly LedgerRow[],
  previousRows: readonly LedgerRow[],
  ytdRows: readonly LedgerRow[],
): { current: FpaCurrentRow[]; variances: FpaVarianceRow[] } {
  const now = byAccount(monthRows, month);
  const before = byAccount(previousRows, addMonthsToDate(month, -1));
  const tree = accountTree(accounts);
  const sums = {
    priorY: sumTree(tree, (a) => now.get(a._id)?.priorYear ?? 0),
    priorM: sumTree(tree, (a) => before.get(a._id)?.actual ?? 0),
    actual: sumTree(tree, (a) => now.get(a._id)?.actual ?? 0),
    rf: sumTree(tree, (a) => now.get(a._id)?.forecast ?? 0),
    ytdActual: sumTree(tree, (a) => sumBy(ytdRows, a._id, "actual")),
    ytdPrior: sumTree(tree, (a) => sumBy(ytdRows, a._id, "priorYear")),
    ytdRf: sumTree(tree, (a) => sumBy(ytdRows, a._id, "forecast")),
  };
  const get = (m: Map<string, number>, key: string) => m.get(key) ?? 0;
  const current: FpaCurrentRow[] = [];
  const variances: FpaVarianceRow[] = [];
  for (const node of tree) {
    const base = {
      id: node.key,
      parentId: node.parentKey,
      type: (node.kind === "account" ? "row" : "step") as FpaRowType,
      acc_description: node.kind === "account" ? (node.account?.description ?? node.label) : node.label,
    };
    const actual = get(sums.actual, node.key);
    const rf = get(sums.rf, node.key);
    current.push({ ...base, priorY: get(sums.priorY, node.key), priorM: get(sums.priorM, node.key), actual, rf_n: rf });
    variances.push({
      ...base,
      priorY: round2(get(sums.ytdActual, node.key) - get(sums.ytdPrior, node.key)),
      rfY: round2(get(sums.ytdActual, node.key) - get(sums.ytdRf, node.key)),
      priorM: round2(actual - get(sums.priorM, node.key)),
      rfM: round2(actual - rf),
      actualRF: rf === 0 ? null : round2(((actual - rf) / Math.abs(rf)) * 100),
    });
  }
  return { current, variances };
}
