import { Form } from "@remix-run/react";
import { monthLabel, parseMonthKey } from "~/shared/months";
import type { GridRow } from "./forecast-grid-rules";
import { gridTexts } from "./grid-texts";
import type { AnnualTotal } from "./release-points";
import {
  type Diff,
  formatVarianceAmount,
  formatVariancePercent,
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

type VarianceMeasure = "previous" | "abs" | "pct";
/** The groups' columns, and a saved version's ("vs versão": per month, and per annual total). */
type ColumnGroup = VarianceGroup | "version" | "versionTotal";
/** A variance column: `index` is a month's position (rf, actual, version) or an annual total's (total, versionTotal). */
export type VarianceColumnMeta = { kind: "variance"; group: ColumnGroup; measure: VarianceMeasure; index: number };

/** The line under a variance column's header. */
export const VARIANCE_TAGS: Record<VarianceMeasure, string> = {
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

/** The "vs versão" columns: each annual total beside the version's, then each month's difference. */
function versionColumns(
  variance: VariancePayload,
  months: readonly string[],
  totals: readonly AnnualTotal[],
  label: (index: number) => string,
): GridColumnDef<VarianceColumnMeta>[] {
  if (!variance.version) return [];
  const t = gridTexts.versionCompare;
  const name = variance.version.name;
  return [
    ...totals.flatMap((total, index) => [
      column(`vv_prev_${total.year}`, t.totalVersion(total.year, name), metaOf("versionTotal", index, "previous")),
      column(`vv_abs_${total.year}`, t.totalAbs(total.year), metaOf("versionTotal", index, "abs")),
      column(`vv_pct_${total.year}`, t.totalPct(total.year), metaOf("versionTotal", index, "pct")),
    ]),
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
        return totals.flatMap((total, index) => [
          column(
            `vt_prev_${total.year}`,
            t.totalPrevious(total.year, variance.previousRf, variance.totalMonths[index]),
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

/** The figures a column reads: a month's difference, or an annual total's (with the compared total). */
function diffOf(
  figures: VarianceFigures,
  meta: VarianceColumnMeta,
): (Diff & { previous?: number | null }) | null | undefined {
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
      {variance.version ? (
        <p className="forecast-grid__variance-note">{gridTexts.versionCompare.hint(variance.version.name)}</p>
      ) : null}
    </>
  );
}
