import type { Readable } from "node:stream";
import { excelTexts } from "~/messages";
import { type CellWrite, readWindow, saveForecastCells } from "~/models/forecast.server";
import { byPtBrNumeric } from "~/shared/collation";
import {
  type ConflictCell,
  contentRevision,
  type ExcelColumn,
  editedCell,
  type RefusedCell,
  type RoundTripReport,
  readReturnedFile,
  xlsxDownload,
} from "~/shared/excel/round-trip.server";
import { type CellValue, cellText } from "~/shared/excel/values";
import { type CalendarDate, type Month, monthKey, monthLabel, monthOfDate, monthStartDate } from "~/shared/months";
import { formatPtBr2, MONEY_RULE, readNumber, roundTo2 } from "~/shared/numbers";
import { forecastCommentNotes, forecastNoteKey } from "./comments.server";
import { lockMessage } from "./cycle/server-texts";
import type { AnnualTotal } from "./release-points";
import { isEditableMonth, isOpenForEditing, windowMonths } from "./release-points";
import { loadReviewGrid, type Review } from "./review.server";
import { forecastTexts } from "./texts";
import { comparedMonthsOf, type Diff, VARIANCE_GROUPS, type VarianceFigures, type VariancePayload } from "./variance";

/**
 * "Exportar Excel" of the forecast review (one RF and cost centre) and its way back: an account a row, its group and
 * description, then one column per month of the window (actuals, then forecasts). Only the months open for editing
 * today are editable, with the grid's rules (an amount, rounded to cents as the grid rounds it); a cell saved by someone else since
 * the export is a conflict; the changes are one save "via Excel", recorded in each cell's history.
 */

export const FORECAST_DATASET = "forecast";

type AccountRow = {
  account: string;
  group: string;
  label: string;
  cells: Map<Month, number | null>;
  /** The account's variance figures (the export only; a returned file's variance columns are not read). */
  variance?: VarianceFigures;
  /** A group's or the cost centre's total (the export only): the grid's sum, no record. */
  total?: true;
};

const monthKeyOf = (m: Month) => `m${monthKey(m)}`;

function columnsOf(review: Review, today: CalendarDate): ExcelColumn<AccountRow>[] {
  const { calendar } = review;
  const open = isOpenForEditing(calendar, today);
  return [
    { key: "group_level_2", header: forecastTexts.excelGroup, kind: "text", value: (r) => r.group },
    { key: "account_concat", header: forecastTexts.accountColumn, kind: "text", width: 16, value: (r) => r.account },
    { key: "acc_description", header: forecastTexts.excelDescription, kind: "text", width: 36, value: (r) => r.label },
    ...windowMonths(calendar).map(
      (m): ExcelColumn<AccountRow> => ({
        key: monthKeyOf(m),
        header: monthLabel(m),
        kind: "number",
        decimals: 2,
        editable: open && isEditableMonth(calendar, m, today),
        value: (r) => r.cells.get(m) ?? null,
      }),
    ),
  ];
}

/** The window's accounts with each month's amount: the actual before the first forecast month, the forecast after. */
async function accountRows(review: Review): Promise<AccountRow[]> {
  const { calendar, costCenter } = review;
  const accounts = await readWindow(
    calendar.name,
    costCenter.cost_center_concat,
    monthStartDate(calendar.firstMonth),
    monthStartDate(calendar.lastMonth + 1),
  );
  const rows = accounts.map(({ _id, label, months, values, forecasts }) => {
    const cells = new Map<Month, number | null>();
    months.forEach((date, i) => {
      const m = monthOfDate(date);
      cells.set(m, m < calendar.firstForecastMonth ? values[i] : forecasts[i]);
    });
    return { account: _id.account, group: _id.group, label, cells };
  });
  return rows.sort((a, b) => byPtBrNumeric(a.group, b.group) || byPtBrNumeric(a.account, b.account));
}

const revisionOf = (columns: readonly ExcelColumn<AccountRow>[]) => (r: AccountRow) =>
  contentRevision(columns.filter((c) => c.editable).map((c) => c.value(r)));

/**
 * The variance columns of the export: all three groups, whatever the screen shows, after the months and
 * read-only: the annual totals beside the previous RF's, RF(n) − RF(n−1) per month, forecast − actual per closed month.
 * Their headers are not month labels, so a returned file's variance columns are simply not read (importForecastFile
 * knows only columnsOf's).
 */
function varianceColumnsOf(variance: VariancePayload, months: readonly Month[], totals: readonly AnnualTotal[]) {
  const t = forecastTexts.variance;
  const amount = (key: string, header: string, pick: (f: VarianceFigures) => number | null | undefined) =>
    ({
      key,
      header,
      kind: "number",
      decimals: 2,
      value: (r) => (r.variance ? (pick(r.variance) ?? "—") : null),
    }) satisfies ExcelColumn<AccountRow>;
  const percent = (key: string, header: string, pick: (f: VarianceFigures) => Diff | null | undefined) =>
    ({
      key,
      header,
      kind: "percent",
      decimals: 1,
      // The figure in percent (−0,3) as the fraction a percent cell holds (−0,003).
      value: (r) => {
        const pct = r.variance ? pick(r.variance)?.pct : null;
        return r.variance ? (typeof pct === "number" ? pct / 100 : "—") : null;
      },
    }) satisfies ExcelColumn<AccountRow>;
  const keys = months.map(monthKey);
  return [
    // Both totals over the same months, which their headers (and the Δ's) name when fewer than the year's.
    ...totals.flatMap((total, i) => {
      const compared = comparedMonthsOf(variance.totalMonths[i], keys);
      return [
        amount(`vt_cur_${total.year}`, t.totalCurrent(total.year, compared), (f) => f.total[i]?.current),
        amount(
          `vt_prev_${total.year}`,
          t.totalPrevious(total.year, variance.previousRf, compared),
          (f) => f.total[i]?.previous,
        ),
        amount(`vt_abs_${total.year}`, t.totalAbs(total.year, compared), (f) => f.total[i]?.abs),
        percent(`vt_pct_${total.year}`, t.totalPct(total.year, compared), (f) => f.total[i]),
      ];
    }),
    ...months.flatMap((m, i) => [
      amount(`vr_abs_${monthKey(m)}`, t.rfAbs(monthLabel(m)), (f) => f.rf[i]?.abs),
      percent(`vr_pct_${monthKey(m)}`, t.rfPct(monthLabel(m)), (f) => f.rf[i]),
    ]),
    ...variance.closedMonths.flatMap((i) => [
      amount(`va_abs_${monthKey(months[i])}`, t.actualAbs(monthLabel(months[i])), (f) => f.actual[i]?.abs),
      percent(`va_pct_${monthKey(months[i])}`, t.actualPct(monthLabel(months[i])), (f) => f.actual[i]),
    ]),
  ];
}

/** The review's XLSX; `beforeSend` is told the row (account) count first (the audit trail). */
export async function forecastXlsx(
  review: Review,
  today: CalendarDate,
  beforeSend?: (rows: number) => Promise<unknown>,
): Promise<Response> {
  // The grid's own load (the same rows, the previous RF's and the actuals'), with every variance group on; the cells'
  // comments as notes.
  const [{ grid }, notes] = await Promise.all([
    loadReviewGrid(review, today, false, VARIANCE_GROUPS),
    forecastCommentNotes(review),
  ]);
  const months = windowMonths(review.calendar);
  const variance = grid.variance as VariancePayload;
  // The grid's rows in its order: each group's accounts, then the group's total; the cost centre's total last.
  const rows: AccountRow[] = [];
  const accounts: AccountRow[] = [];
  let line = 0;
  for (const group of grid.groups) {
    const ofGroup = group.accounts.map((a) => ({
      account: a.account,
      group: group.name,
      label: a.label,
      cells: new Map(months.map((m, i) => [m, a.values[i]])),
      variance: variance.lines[line++],
    }));
    rows.push(...ofGroup, totalRow(forecastTexts.groupTotal(group.name), group.name, ofGroup, months));
    accounts.push(...ofGroup);
  }
  rows.push(totalRow(forecastTexts.grandTotal, "", accounts, months));
  const base = columnsOf(review, today);
  const columns = [...base, ...varianceColumnsOf(variance, months, grid.totals)];
  const firstForecast = months.indexOf(review.calendar.firstForecastMonth);
  const marks = columns.map((c) => {
    const at = months.findIndex((m) => c.key === monthKeyOf(m));
    if (at < 0) return null;
    return at < firstForecast || firstForecast < 0 ? forecastTexts.actualTag : forecastTexts.forecastTag;
  });
  await beforeSend?.(accounts.length);
  return xlsxDownload(
    {
      dataset: FORECAST_DATASET,
      scope: { rf: review.calendar.name, cost_center_concat: review.costCenter.cost_center_concat },
      sheetName: review.calendar.name,
      fileName: `forecast-${review.calendar.name}-${review.costCenter.cost_center}.xlsx`,
      columns,
      idOf: (r) => (r.total ? "" : r.account),
      revisionOf: revisionOf(base),
      marks,
      notesOf: (r) => (r.total || notes.size === 0 ? null : notesOfAccount(notes, r.account, months)),
    },
    (async function* () {
      yield rows;
    })(),
  );
}

/** An account's month cells' notes, by column key. */
function notesOfAccount(notes: ReadonlyMap<string, string>, account: string, months: readonly Month[]) {
  const found = new Map<string, string>();
  for (const m of months) {
    const note = notes.get(forecastNoteKey(account, monthKey(m)));
    if (note) found.set(monthKeyOf(m), note);
  }
  return found;
}

/** A total row: per month the sum of the rows' amounts (to cents), empty where none has one. */
function totalRow(label: string, group: string, of: readonly AccountRow[], months: readonly Month[]): AccountRow {
  const cells = new Map<Month, number | null>();
  for (const m of months) {
    const amounts = of.map((r) => r.cells.get(m)).filter((v): v is number => typeof v === "number");
    cells.set(m, amounts.length === 0 ? null : roundTo2(amounts.reduce((sum, v) => sum + v, 0)));
  }
  return { account: label, group, label: "", cells, total: true };
}

/** An amount as a returned file holds it: a number cell, or text typed in pt-BR; null when it is neither. */
export function amountOf(value: CellValue | undefined): number | null {
  if (typeof value !== "number" && cellText(value ?? null).trim() === "") return null;
  const read = readNumber(typeof value === "number" ? value : cellText(value ?? null), MONEY_RULE);
  return read.ok ? read.value : null;
}

export type ForecastImportOutcome = { ok: true; report: RoundTripReport } | { ok: false; message: string };

/** Applies an edited export of this review (same RF and cost centre): only edited cells, only editable months. */
export async function importForecastFile(
  source: Readable,
  review: Review,
  today: CalendarDate,
  author: { email: string; name: string },
): Promise<ForecastImportOutcome> {
  const columns = columnsOf(review, today);
  const file = await readReturnedFile(source, FORECAST_DATASET, columns as readonly ExcelColumn<never>[], 10_000);
  if (!file.ok) return file;
  if (
    file.scope.get("rf") !== review.calendar.name ||
    file.scope.get("cost_center_concat") !== review.costCenter.cost_center_concat
  ) {
    return { ok: false, message: excelTexts.excelOtherScope };
  }
  const current = new Map((await accountRows(review)).map((r) => [r.account, r]));
  const refused: RefusedCell[] = [];
  const conflicts: ConflictCell[] = [];
  const writes: Array<CellWrite & { line: number }> = [];
  const months = windowMonths(review.calendar);
  for (const row of file.rows) {
    const stored = current.get(row.id);
    if (!stored) {
      refused.push({
        line: row.line,
        row: row.id,
        column: forecastTexts.accountColumn,
        value: row.id,
        reason: excelTexts.excelUnknownRow,
      });
      continue;
    }
    for (const m of months) {
      const key = monthKeyOf(m);
      const column = columns.find((c) => c.key === key)!;
      const cell = row.cells.get(key);
      const shown = cellText(cell ?? null);
      if (!column.editable) {
        // A locked month (an actual, or a scenario closed today): any value other than the stored one is refused.
        if (row.cells.has(key) && amountOf(cell) !== (stored.cells.get(m) ?? null)) {
          refused.push({
            line: row.line,
            row: row.id,
            column: monthLabel(m),
            value: shown,
            reason: forecastTexts.columnRefused(monthLabel(m)),
          });
        }
        continue;
      }
      if (!editedCell(row, key, amountOf)) continue;
      const value = amountOf(cell);
      if (value === null) {
        refused.push({
          line: row.line,
          row: row.id,
          column: monthLabel(m),
          value: shown,
          reason: forecastTexts.notANumber(shown.slice(0, 30)),
        });
        continue;
      }
      const now = stored.cells.get(m) ?? null;
      const before = amountOf(row.original.get(key));
      if (now !== before) {
        conflicts.push({
          line: row.line,
          row: row.id,
          column: monthLabel(m),
          fileValue: formatPtBr2(value),
          currentValue: now === null ? "" : formatPtBr2(now),
          by: null,
        });
        continue;
      }
      if (now === value) continue;
      writes.push({
        account: row.id,
        month: monthStartDate(m),
        old: now ?? 0,
        value: value === 0 ? 0 : value,
        line: row.line,
      });
    }
  }
  let changed = 0;
  if (writes.length > 0) {
    const result = await saveForecastCells(
      review.calendar.name,
      review.costCenter.cost_center_concat,
      writes,
      author,
      new Date(),
      "excel",
    );
    if (result.kind === "saved") changed = result.count;
    else if (result.kind === "conflicts") {
      changed = result.saved;
      for (const conflict of result.conflicts) {
        const write = writes.find(
          (w) => w.account === conflict.account && w.month.getTime() === conflict.month.getTime(),
        );
        conflicts.push({
          line: write?.line ?? 0,
          row: conflict.account,
          column: monthLabel(monthOfDate(conflict.month)),
          fileValue: write ? formatPtBr2(write.value) : "",
          currentValue: formatPtBr2(conflict.current),
          by: conflict.by,
        });
      }
    } else if (result.kind === "frozen" || result.kind === "closed" || result.kind === "upcoming") {
      // The model's rule refuses (submitted, approved, or outside the edit month): every changed cell of the file is
      // refused, with the message every write path gives.
      const reason = lockMessage(result, review.costCenter.cost_center_concat, review.calendar.name);
      for (const write of writes)
        refused.push({
          line: write.line,
          row: write.account,
          column: monthLabel(monthOfDate(write.month)),
          value: formatPtBr2(write.value),
          reason,
        });
    } else {
      refused.push({
        line: 0,
        row: result.account,
        column: monthLabel(monthOfDate(result.month)),
        value: "",
        reason: excelTexts.excelUnknownRow,
      });
    }
  }
  return { ok: true, report: { changed, conflicts, refused } };
}
