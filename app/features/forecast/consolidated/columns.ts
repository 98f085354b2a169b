import { type ComparedMonths, comparedMonthsNote, comparedSpan } from "../grid-texts";
import { type Diff, difference } from "../variance";
import type { ComparisonGroup } from "./query";
import { consolidatedTexts as t } from "./texts";
import type { TreeRow } from "./tree";

/**
 * The consolidated view's value columns, for the screen and the export alike: the months, the year's total, then
 * the comparison groups asked for (the compared total with Δ and Δ%, each month's Δ and Δ%). Both totals of a
 * comparison sum the months both sides cover; when those are fewer than the year's, the shown side's total over them
 * stands beside the compared one, both headers say the months, and the year's own total says it is the whole year.
 * Every Δ is the difference of the two totals shown beside it (variance.ts `difference`). Pure and browser-safe.
 */

export type ValueColumn = {
  id: string;
  header: string;
  /** "Real" or "Forecast" under a month. */
  tag?: string;
  kind: "amount" | "percent";
  value: (row: Pick<TreeRow, "a" | "aTotal" | "b" | "bTotal" | "aMatched">) => number | null;
};

export type ColumnSetup = {
  months: readonly { key: string; label: string; forecast: boolean }[];
  year: number;
  /** The shown figures' short name ("RF2 2027"), for its total over the compared months. */
  baseLabel?: string;
  compareLabel: string | null;
  /** The compared figures' year when another than the view's (the actuals of the year before). */
  compareYear?: number;
  /** The month positions both sides cover (every month when absent). */
  common?: readonly number[];
  cols: readonly ComparisonGroup[];
};

/** The setup a view's model gives (the screen's loader data, the export's model). */
export function columnSetupOf(model: {
  months: ColumnSetup["months"];
  year: number;
  baseShort?: string;
  compareLabel: string | null;
  compareYear?: number;
  common?: readonly number[];
  query: { cols: readonly ComparisonGroup[] };
}): ColumnSetup {
  return {
    months: model.months,
    year: model.year,
    baseLabel: model.baseShort,
    compareLabel: model.compareLabel,
    compareYear: model.compareYear,
    common: model.common,
    cols: model.query.cols,
  };
}

const yearDiff = (row: Pick<TreeRow, "aMatched" | "bTotal">): Diff => difference(row.aMatched, row.bTotal);

/** Each side's compared months as the labels say them: the view's year, and the compared figures' own. */
function comparedMonths(setup: ColumnSetup): { shown: ComparedMonths; compared: ComparedMonths } {
  const common = setup.common ?? setup.months.map((_, i) => i);
  const keys = common.map((i) => setup.months[i].key);
  const compareYear = String(setup.compareYear ?? setup.year);
  const of = setup.months.length;
  return {
    shown: { compared: common.length, of, keys },
    compared: { compared: common.length, of, keys: keys.map((k) => `${compareYear}${k.slice(4)}`) },
  };
}

export function valueColumns(setup: ColumnSetup): ValueColumn[] {
  const months = comparedMonths(setup);
  const partly = setup.compareLabel !== null && setup.cols.includes("total") && months.shown.compared < months.shown.of;
  const common = new Set(setup.common ?? setup.months.map((_, i) => i));
  const columns: ValueColumn[] = setup.months.map((m, i) => ({
    id: `m_${m.key}`,
    header: m.label,
    tag: m.forecast ? t.forecastTag : t.actualTag,
    kind: "amount",
    value: (r) => r.a[i] ?? null,
  }));
  const yearHeader = partly ? t.wholeYear(setup.year) : t.total(setup.year);
  columns.push({ id: "total", header: yearHeader, kind: "amount", value: (r) => r.aTotal });
  if (!setup.compareLabel) return columns;
  if (setup.cols.includes("total")) {
    if (partly)
      columns.push({
        id: "a_total",
        header: `${t.totalOf(setup.year, setup.baseLabel ?? "")}${comparedMonthsNote(months.shown)}`,
        kind: "amount",
        value: (r) => r.aMatched,
      });
    const compareYear = setup.compareYear ?? setup.year;
    columns.push(
      {
        id: "b_total",
        header: `${t.totalOf(compareYear, setup.compareLabel)}${comparedMonthsNote(months.compared)}`,
        kind: "amount",
        value: (r) => r.bTotal,
      },
      {
        id: "d_total",
        header: `${t.diff}${comparedSpan(months.shown)}`,
        kind: "amount",
        value: (r) => yearDiff(r).abs,
      },
      {
        id: "p_total",
        header: `${t.diffPct}${comparedSpan(months.shown)}`,
        kind: "percent",
        value: (r) => yearDiff(r).pct,
      },
    );
  }
  if (setup.cols.includes("mes"))
    setup.months.forEach((m, i) => {
      // Only a month both sides cover has a difference.
      const diff = (r: Pick<TreeRow, "a" | "b">) => (common.has(i) ? difference(r.a[i] ?? null, r.b[i] ?? null) : null);
      columns.push(
        { id: `d_${m.key}`, header: t.monthDiff(m.label), kind: "amount", value: (r) => diff(r)?.abs ?? null },
        { id: `p_${m.key}`, header: t.monthDiffPct(m.label), kind: "percent", value: (r) => diff(r)?.pct ?? null },
      );
    });
  return columns;
}
