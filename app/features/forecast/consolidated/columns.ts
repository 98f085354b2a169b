import { type Diff, difference } from "../variance";
import type { ComparisonGroup } from "./query";
import { consolidatedTexts as t } from "./texts";
import type { TreeRow } from "./tree";

/**
 * The consolidated view's value columns, for the screen and the export alike: the months, the year's total, then
 * the comparison groups asked for (the compared year's total with Δ and Δ%, each month's Δ and Δ%). The year's Δ
 * compares the same months: the shown figures of the months the compared ones have. Pure and browser-safe.
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
  compareLabel: string | null;
  cols: readonly ComparisonGroup[];
};

const yearDiff = (row: Pick<TreeRow, "aMatched" | "bTotal">): Diff => difference(row.aMatched, row.bTotal);

export function valueColumns(setup: ColumnSetup): ValueColumn[] {
  const columns: ValueColumn[] = setup.months.map((m, i) => ({
    id: `m_${m.key}`,
    header: m.label,
    tag: m.forecast ? t.forecastTag : t.actualTag,
    kind: "amount",
    value: (r) => r.a[i] ?? null,
  }));
  columns.push({ id: "total", header: t.total(setup.year), kind: "amount", value: (r) => r.aTotal });
  if (!setup.compareLabel) return columns;
  if (setup.cols.includes("total"))
    columns.push(
      { id: "b_total", header: t.totalOf(setup.year, setup.compareLabel), kind: "amount", value: (r) => r.bTotal },
      { id: "d_total", header: t.diff, kind: "amount", value: (r) => yearDiff(r).abs },
      { id: "p_total", header: t.diffPct, kind: "percent", value: (r) => yearDiff(r).pct },
    );
  if (setup.cols.includes("mes"))
    setup.months.forEach((m, i) => {
      const diff = (r: Pick<TreeRow, "a" | "b">) => difference(r.a[i] ?? null, r.b[i] ?? null);
      columns.push(
        { id: `d_${m.key}`, header: t.monthDiff(m.label), kind: "amount", value: (r) => diff(r).abs },
        { id: `p_${m.key}`, header: t.monthDiffPct(m.label), kind: "percent", value: (r) => diff(r).pct },
      );
    });
  return columns;
}
