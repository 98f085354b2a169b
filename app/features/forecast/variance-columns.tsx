import { Form } from "@remix-run/react";
import { monthLabel, parseMonthKey } from "~/shared/months";
import type { GridRow } from "./forecast-grid-rules";
import { type ComparedMonths, gridTexts } from "./grid-texts";
import type { AnnualTotal } from "./release-points";
import {
  comparedMonthsOf,
  type Diff,
  formatVarianceAmount,
  formatVariancePercent,
  partialComparison,
  VARIANCE_GROUPS,
  VARIANCE_PARAM,
  type VarianceFigures,
  type VarianceGroup,
  type VariancePayload,
} from "./variance";

/**
 * The grid's variance columns: read-only, each placed beside what it compares (columnDefs, forecast-columns.tsx). Their
 * definitions, the text of each cell, and the GET form that turns groups on.
 */

export const VARIANCE_WIDTH = 120;

/** A column of the grid: its id, its header, its width in pixels and what it shows. */
export type GridColumnDef<Meta> = { id: string; header: string; size: number; meta: Meta };

/** A total over the compared months (current: this RF's; previous: the compared one's), or a difference. */
type VarianceMeasure = "current" | "previous" | "abs" | "pct";
/** The groups' columns, and a saved version's ("vs versão": per month, and per annual total). */
type ColumnGroup = VarianceGroup | "version" | "versionTotal";
/** A variance column: `index` is a month's position (rf, actual, version) or an annual total's (total, versionTotal). */
export type VarianceColumnMeta = { kind: "variance"; group: ColumnGroup; measure: VarianceMeasure; index: number };

/** The line under a variance column's header. */
export const VARIANCE_TAGS: Record<VarianceMeasure, string> = {
  current: gridTexts.variance.tagCurrent,
  previous: gridTexts.variance.tagPrevious,
  abs: gridTexts.variance.tagDiff,
  pct: gridTexts.variance.tagPercent,
};

const column = (id: string, header: string, meta: VarianceColumnMeta): GridColumnDef<VarianceColumnMeta> => ({
  id,
  header,
  size: VARIANCE_WIDTH,
  meta,
});

const metaOf = (group: ColumnGroup, index: number, measure: VarianceMeasure): VarianceColumnMeta => ({
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
): GridColumnDef<VarianceColumnMeta>[] {
  if (!variance) return [];
  const label = (index: number) => monthLabel(parseMonthKey(months[index]) ?? 0);
  return [...groupColumns(variance, months, totals, label), ...versionColumns(variance, months, totals, label)];
}

/**
 * A year's comparison: this RF's total over the compared months when they are fewer than the year's (the year's own
 * total column sums them all), the compared total over the same months, then Δ and Δ%, each saying the months.
 */
function totalColumns(
  id: "vt" | "vv",
  group: "total" | "versionTotal",
  index: number,
  year: number,
  compared: ComparedMonths | undefined,
  headers: { previous: string; abs: string; pct: string },
): GridColumnDef<VarianceColumnMeta>[] {
  const partly = compared !== undefined && compared.compared < compared.of;
  return [
    ...(partly
      ? [column(`${id}_cur_${year}`, gridTexts.variance.totalCurrent(year, compared), metaOf(group, index, "current"))]
      : []),
    column(`${id}_prev_${year}`, headers.previous, metaOf(group, index, "previous")),
    column(`${id}_abs_${year}`, headers.abs, metaOf(group, index, "abs")),
    column(`${id}_pct_${year}`, headers.pct, metaOf(group, index, "pct")),
  ];
}

/** The "vs versão" columns: each annual total beside the version's, then each month's difference. */
function versionColumns(
  variance: VariancePayload,
  months: readonly string[],
  totals: readonly AnnualTotal[],
  label: (index: number) => string,
): GridColumnDef<VarianceColumnMeta>[] {
  if (!variance.version) return [];
  const t = gridTexts.versionCompare;
  const { name, totalMonths } = variance.version;
  return [
    ...totals.flatMap((total, index) => {
      const compared = comparedMonthsOf(totalMonths?.[index], months);
      return totalColumns("vv", "versionTotal", index, total.year, compared, {
        previous: t.totalVersion(total.year, name, compared),
        abs: t.totalAbs(total.year, compared),
        pct: t.totalPct(total.year, compared),
      });
    }),
    ...months.flatMap((key, index) => [
      column(`vm_abs_${key}`, t.monthAbs(label(index)), metaOf("version", index, "abs")),
      column(`vm_pct_${key}`, t.monthPct(label(index)), metaOf("version", index, "pct")),
    ]),
  ];
}

function groupColumns(
  variance: VariancePayload,
  months: readonly string[],
  totals: readonly AnnualTotal[],
  label: (index: number) => string,
): GridColumnDef<VarianceColumnMeta>[] {
  const t = gridTexts.variance;
  return variance.columns.flatMap((group): GridColumnDef<VarianceColumnMeta>[] => {
    switch (group) {
      case "total":
        return totals.flatMap((total, index) => {
          const compared = comparedMonthsOf(variance.totalMonths[index], months);
          return totalColumns("vt", group, index, total.year, compared, {
            previous: t.totalPrevious(total.year, variance.previousRf, compared),
            abs: t.totalAbs(total.year, compared),
            pct: t.totalPct(total.year, compared),
          });
        });
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

/** Whether the annual total `index` has a comparison beside it over fewer months than it sums. */
export function totalComparedPartly(variance: VariancePayload | undefined, index: number): boolean {
  if (!variance) return false;
  return (
    (variance.columns.includes("total") && partialComparison(variance.totalMonths[index])) ||
    partialComparison(variance.version?.totalMonths?.[index])
  );
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

/** The figures a column reads: a month's difference, or an annual total's (with the compared total). */
function diffOf(
  figures: VarianceFigures,
  meta: VarianceColumnMeta,
): (Diff & { current?: number; previous?: number | null }) | null | undefined {
  switch (meta.group) {
    case "rf":
      return figures.rf[meta.index];
    case "actual":
      return figures.actual[meta.index];
    case "total":
      return figures.total[meta.index];
    case "version":
      return figures.version?.months[meta.index];
    case "versionTotal":
      return figures.version?.total[meta.index];
  }
}

export function varianceText(figures: VarianceFigures | undefined, meta: VarianceColumnMeta): string {
  if (!figures) return "";
  const diff = diffOf(figures, meta);
  if (meta.measure === "current") return formatVarianceAmount(diff?.current);
  if (meta.measure === "previous") return formatVarianceAmount(diff?.previous);
  if (!diff) return "—";
  return meta.measure === "pct" ? formatVariancePercent(diff.pct) : formatVarianceAmount(diff.abs);
}

/**
 * The variance column groups as a GET form (`?cols=total&cols=rf`): the URL keeps them for back, forward and
 * bookmarks, and it works without JavaScript. Closed until a group is on, so the grid starts as high as before.
 */
export function VarianceToggles({
  shown,
  versions = [],
  version,
  onSubmit,
}: {
  shown: readonly VarianceGroup[];
  /** The saved versions offered (`?versao=`), and the one compared with. */
  versions?: readonly { id: string; name: string }[];
  version?: string;
  onSubmit: (event: { preventDefault: () => void }) => void;
}) {
  const t = gridTexts.variance;
  const labels: Record<VarianceGroup, string> = {
    total: t.groupTotal,
    rf: t.groupRf,
    actual: t.groupActual,
  };
  return (
    <details className="forecast-grid__variance" open={shown.length > 0 || version !== undefined || undefined}>
      <summary>{t.legend}</summary>
      {/* Keyed by the groups shown: back and forward bring the boxes of that URL. */}
      <Form
        key={`${shown.join(",")}|${version ?? ""}`}
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
        {versions.length > 0 ? (
          <label className="forecast-grid__variance-option">
            {gridTexts.versionCompare.label}
            <select name="versao" defaultValue={version ?? ""}>
              <option value="">{gridTexts.versionCompare.none}</option>
              {versions.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
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
    <>
      {variance.columns.length > 0 ? (
        <p className="forecast-grid__variance-note">
          {variance.previousFound
            ? gridTexts.variance.hint(variance.previousRf)
            : gridTexts.variance.noPrevious(variance.previousRf)}
        </p>
      ) : null}
      {variance.totalMonths.some(partialComparison) || variance.version?.totalMonths?.some(partialComparison) ? (
        <p className="forecast-grid__variance-note">{gridTexts.variance.sameMonthsNote}</p>
      ) : null}
      {variance.version ? (
        <p className="forecast-grid__variance-note">{gridTexts.versionCompare.hint(variance.version.name)}</p>
      ) : null}
    </>
  );
}
