import { Form } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { monthLabel, parseMonthKey } from "~/shared/months";
import type { GridRow } from "./forecast-grid-rules";
import type { AnnualTotal } from "./release-points";
import { forecastTexts } from "./texts";
import {
  formatVarianceAmount,
  formatVariancePercent,
  VARIANCE_GROUPS,
  VARIANCE_PARAM,
  type VarianceFigures,
  type VarianceGroup,
  type VariancePayload,
} from "./variance";

/**
 * The grid's variance columns: read-only, after the annual totals, so that the month columns stay side by side for
 * paste and keyboard editing. Their definitions, the text of each cell, and the GET form that turns groups on.
 */

export const VARIANCE_WIDTH = 120;

type VarianceMeasure = "previous" | "abs" | "pct";
/** A variance column: `index` is a month's position (rf, actual) or an annual total's (total). */
export type VarianceColumnMeta = { kind: "variance"; group: VarianceGroup; measure: VarianceMeasure; index: number };

/** The line under a variance column's header. */
export const VARIANCE_TAGS: Record<VarianceMeasure, string> = {
  previous: forecastTexts.variance.tagPrevious,
  abs: forecastTexts.variance.tagDiff,
  pct: forecastTexts.variance.tagPercent,
};

const column = (id: string, header: string, meta: VarianceColumnMeta): ColumnDef<GridRow> => ({
  id,
  header,
  size: VARIANCE_WIDTH,
  meta,
});

const metaOf = (group: VarianceGroup, index: number, measure: VarianceMeasure): VarianceColumnMeta => ({
  kind: "variance",
  group,
  measure,
  index,
});

/** The columns of the groups the payload carries, in its order. */
export function varianceColumnDefs(
  variance: VariancePayload | undefined,
  months: readonly string[],
  totals: readonly AnnualTotal[],
): ColumnDef<GridRow>[] {
  if (!variance) return [];
  const t = forecastTexts.variance;
  const label = (index: number) => monthLabel(parseMonthKey(months[index]) ?? 0);
  return variance.columns.flatMap((group): ColumnDef<GridRow>[] => {
    switch (group) {
      case "total":
        return totals.flatMap((total, index) => [
          column(
            `vt_prev_${total.year}`,
            t.totalPrevious(total.year, variance.previousRf),
            metaOf(group, index, "previous"),
          ),
          column(`vt_abs_${total.year}`, t.totalAbs(total.year), metaOf(group, index, "abs")),
          column(`vt_pct_${total.year}`, t.totalPct(total.year), metaOf(group, index, "pct")),
        ]);
      case "rf":
        return months.flatMap((key, index) => [
          column(`vr_abs_${key}`, t.rfAbs(label(index)), metaOf(group, index, "abs")),
          column(`vr_pct_${key}`, t.rfPct(label(index)), metaOf(group, index, "pct")),
        ]);
      case "actual":
        return variance.closedMonths.flatMap((index) => [
          column(`va_abs_${months[index]}`, t.actualAbs(label(index)), metaOf(group, index, "abs")),
          column(`va_pct_${months[index]}`, t.actualPct(label(index)), metaOf(group, index, "pct")),
        ]);
      default:
        return [];
    }
  });
}

/** A row's variance figures (computed by the loader from the stored values). */
export function varianceOfRow(variance: VariancePayload | undefined, row: GridRow): VarianceFigures | undefined {
  if (!variance) return undefined;
  switch (row.type) {
    case "row":
      return variance.lines[row.line];
    case "step-total":
      return variance.groups[row.group];
    case "step-row":
      return variance.grand;
    default:
      return undefined;
  }
}

export function varianceText(figures: VarianceFigures | undefined, meta: VarianceColumnMeta): string {
  if (!figures) return "";
  if (meta.measure === "previous") return formatVarianceAmount(figures.total[meta.index]?.previous);
  const diff =
    meta.group === "rf"
      ? figures.rf[meta.index]
      : meta.group === "actual"
        ? figures.actual[meta.index]
        : figures.total[meta.index];
  if (!diff) return "—";
  return meta.measure === "pct" ? formatVariancePercent(diff.pct) : formatVarianceAmount(diff.abs);
}

/**
 * The variance column groups as a GET form (`?cols=total&cols=rf`): the URL keeps them for back, forward and
 * bookmarks, and it works without JavaScript. Closed until a group is on, so the grid starts as high as before.
 */
export function VarianceToggles({
  shown,
  onSubmit,
}: {
  shown: readonly VarianceGroup[];
  onSubmit: (event: { preventDefault: () => void }) => void;
}) {
  const t = forecastTexts.variance;
  const labels: Record<VarianceGroup, string> = {
    total: t.groupTotal,
    rf: t.groupRf,
    actual: t.groupActual,
  };
  return (
    <details className="forecast-grid__variance" open={shown.length > 0 || undefined}>
      <summary>{t.legend}</summary>
      {/* Keyed by the groups shown: back and forward bring the boxes of that URL. */}
      <Form
        key={shown.join(",")}
        method="get"
        preventScrollReset
        onSubmit={onSubmit}
        className="forecast-grid__variance-form"
      >
        {VARIANCE_GROUPS.map((group) => (
          <label key={group} className="forecast-grid__variance-option">
            <input type="checkbox" name={VARIANCE_PARAM} value={group} defaultChecked={shown.includes(group)} />
            {labels[group]}
          </label>
        ))}
        <button type="submit" className="button button--secondary">
          {t.show}
        </button>
      </Form>
    </details>
  );
}

/** Which previous RF the variance compares with, and whether it has this cost centre's records. */
export function VarianceNote({ variance }: { variance: VariancePayload | undefined }) {
  if (!variance) return null;
  return (
    <p className="forecast-grid__variance-note">
      {variance.previousFound
        ? forecastTexts.variance.hint(variance.previousRf)
        : forecastTexts.variance.noPrevious(variance.previousRf)}
    </p>
  );
}
