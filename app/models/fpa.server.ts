import { getDb } from "~/db.server";
import type { BusinessUnitId } from "./financial.server";
import { accountTree, byAccount, ledgerRows, ledgerRowsBetween, listAccounts, round2, sumTree, type LedgerRow } from "./ledger.server";
import { addMonthsToDate } from "~/shared/months";

/**
 * The FP&A report (spec 001 §2 "FP&A report page", §3 "Editable report table columns", "Variance rows"): the
 * ledger of one unit and month as a tree by parentId — step rows for the categories (grey, not editable) and
 * one row per account — with its responsible people in the header.
 */

export const FPA_RESPONSIBLES = "fpa_responsibles";

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

export async function findResponsible(unit: BusinessUnitId): Promise<FpaResponsible | null> {
  return (await getDb()).collection<FpaResponsible>(FPA_RESPONSIBLES).findOne({ _id: unit });
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
