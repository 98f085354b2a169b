import { type CSSProperties, useMemo } from "react";
import { monthLabel, parseMonthKey } from "~/shared/months";
import { uiTexts } from "~/shared/ui/texts";
import type { ForecastGridPayload } from "./forecast-grid-rules";
import { gridTexts } from "./grid-texts";
import type { AnnualTotal } from "./release-points";
import type { VariancePayload } from "./variance";
import {
  type GridColumnDef,
  totalComparedPartly,
  VARIANCE_TAGS,
  VARIANCE_WIDTH,
  type VarianceColumnMeta,
  varianceColumnDefs,
} from "./variance-columns";

/**
 * The grid's column model: the account column, one column per month (actuals, then forecasts), the annual totals and
 * the variance columns asked for; which are pinned (in the order they were pinned, before the others) and at what
 * offset; and the header row. The pinning state has TanStack Table's shape, whose pinning this follows.
 */

/** The ids of the columns pinned to the left, in the order they were pinned. */
export type ColumnPinningState = { left?: string[]; right?: string[] };

export type ColumnMeta =
  | { kind: "label" }
  | { kind: "month"; index: number }
  | { kind: "total"; index: number }
  | VarianceColumnMeta;

/** A column as the rows draw it, in visual order (pinned first). */
export type ColumnView = {
  id: string;
  meta: ColumnMeta;
  header: string;
  sub: string;
  width: number;
  left: number | null;
  lastPinned: boolean;
  pinned: boolean;
};

const LABEL_WIDTH = 300;
const MONTH_WIDTH = 112;
const TOTAL_WIDTH = 132;
/** The widths reach the CSS as variables (one source for the cells' widths and the pinned offsets). */
export const WIDTH_VARIABLES = {
  "--fg-label": `${LABEL_WIDTH}px`,
  "--fg-month": `${MONTH_WIDTH}px`,
  "--fg-total": `${TOTAL_WIDTH}px`,
  "--fg-variance": `${VARIANCE_WIDTH}px`,
} as CSSProperties;

/** The account column starts pinned. */
export const INITIAL_PINNING: ColumnPinningState = { left: ["acc_description_edit"], right: [] };

/** The columns in order: the account, each month with its variance columns beside it, each year's total likewise. */
export function columnDefs(
  months: readonly string[],
  totals: readonly AnnualTotal[],
  variance: VariancePayload | undefined,
): GridColumnDef<ColumnMeta>[] {
  const variances = varianceColumnDefs(variance, months, totals);
  const beside = (yearly: boolean, index: number) =>
    variances.filter(
      (c) => c.meta.index === index && (c.meta.group === "total" || c.meta.group === "versionTotal") === yearly,
    );
  return [
    { id: "acc_description_edit", header: gridTexts.accountColumn, size: LABEL_WIDTH, meta: { kind: "label" } },
    ...months.flatMap((key, index) => [
      {
        id: `m_${key}`,
        header: monthLabel(parseMonthKey(key) ?? 0),
        size: MONTH_WIDTH,
        meta: { kind: "month" as const, index },
      },
      ...beside(false, index),
    ]),
    ...totals.flatMap((total, index) => [
      {
        id: `y_${total.year}`,
        // Beside a comparison over fewer months, the year's total says that it sums the whole year.
        header:
          total.complete && totalComparedPartly(variance, index)
            ? gridTexts.variance.wholeYear(total.year)
            : gridTexts.totalColumn(total.year),
        size: TOTAL_WIDTH,
        meta: { kind: "total" as const, index },
      },
      ...beside(true, index),
    ]),
  ];
}

/** The line under a column's header: actual or forecast, a partial year's month count, a variance's measure. */
function subHeader(meta: ColumnMeta, totals: readonly AnnualTotal[], firstForecastIndex: number): string {
  if (meta.kind === "variance") return VARIANCE_TAGS[meta.measure];
  if (meta.kind === "month") return meta.index >= firstForecastIndex ? gridTexts.forecastTag : gridTexts.actualTag;
  const total = meta.kind === "total" ? totals[meta.index] : null;
  return total && !total.complete ? gridTexts.partialYear(total.indexes.length) : "";
}

/** The columns in visual order: the pinned ones first, each at the sum of the widths before it. */
export function pinnedColumns(
  defs: readonly GridColumnDef<ColumnMeta>[],
  pinning: ColumnPinningState,
  subOf: (meta: ColumnMeta) => string,
): ColumnView[] {
  const left = (pinning.left ?? []).flatMap((id) => defs.filter((d) => d.id === id));
  const right = new Set(pinning.right ?? []);
  const center = defs.filter((d) => !left.includes(d) && !right.has(d.id));
  let offset = 0;
  return [...left, ...center].map((def, i) => {
    const pinned = i < left.length;
    const view: ColumnView = {
      id: def.id,
      meta: def.meta,
      header: def.header,
      sub: subOf(def.meta),
      width: def.size,
      left: pinned ? offset : null,
      lastPinned: pinned && i === left.length - 1,
      pinned,
    };
    if (pinned) offset += def.size;
    return view;
  });
}

/** The pinning with `id` pinned last to the left, or unpinned. */
export function pinToggled(pinning: ColumnPinningState, id: string, pin: boolean): ColumnPinningState {
  const left = (pinning.left ?? []).filter((c) => c !== id);
  return { left: pin ? [...left, id] : left, right: (pinning.right ?? []).filter((c) => c !== id) };
}

/** The columns in visual order, and the pin button's action. */
export function useForecastColumns(
  payload: ForecastGridPayload,
  columnPinning: ColumnPinningState,
  onColumnPinningChange: (pinning: ColumnPinningState) => void,
): { columns: ColumnView[]; onPin: (column: ColumnView) => void } {
  const { months, totals, variance, firstForecastIndex } = payload;
  const defs = useMemo(() => columnDefs(months, totals, variance), [months, totals, variance]);
  const columns = useMemo(
    () => pinnedColumns(defs, columnPinning, (meta) => subHeader(meta, totals, firstForecastIndex)),
    [defs, columnPinning, totals, firstForecastIndex],
  );
  const onPin = (column: ColumnView) => onColumnPinningChange(pinToggled(columnPinning, column.id, !column.pinned));
  return { columns, onPin };
}

/** The classes of a pinned column's cells (the last one draws the edge). */
export const pinnedClass = (column: ColumnView) =>
  column.pinned ? (column.lastPinned ? " is-pinned is-last-pinned" : " is-pinned") : "";

/** Pinned columns stick at their offset (pinnedColumns). Widths come from the CSS (one class per kind). */
export function pinnedStyle(column: ColumnView) {
  return column.left === null ? undefined : { left: column.left };
}

/** The header row: each column's name and sub-header, and (in the browser) its pin and mass change buttons. */
export function GridHeader({
  columns,
  onPin,
  hydrated,
  massChange,
  onMassChange,
}: {
  columns: readonly ColumnView[];
  onPin: (column: ColumnView) => void;
  hydrated: boolean;
  /** Whether a column offers the mass change. */
  massChange: (column: ColumnView) => boolean;
  onMassChange: (month: number) => void;
}) {
  return (
    <div className="forecast-grid__header" role="rowgroup">
      <div className="forecast-grid__header-row" role="row" aria-rowindex={1}>
        {columns.map((c) => (
          <HeaderCell
            key={c.id}
            column={c}
            hydrated={hydrated}
            massChange={massChange(c)}
            onPin={() => onPin(c)}
            onMassChange={() => c.meta.kind === "month" && onMassChange(c.meta.index)}
          />
        ))}
      </div>
    </div>
  );
}

function HeaderCell({
  column,
  hydrated,
  massChange,
  onPin,
  onMassChange,
}: {
  column: ColumnView;
  hydrated: boolean;
  massChange: boolean;
  onPin: () => void;
  onMassChange: () => void;
}) {
  const pinLabel = column.pinned ? uiTexts.unpinColumn : uiTexts.pinColumn;
  const kind = column.meta.kind;
  return (
    <div
      role="columnheader"
      data-column={column.id}
      className={`forecast-grid__head forecast-grid__head--${kind}${pinnedClass(column)}`}
      style={pinnedStyle(column)}
    >
      <span className="forecast-grid__head-text">{column.header}</span>
      <span className="forecast-grid__head-line">
        <span className="forecast-grid__head-sub">{column.sub}</span>
        {hydrated ? (
          <span className="forecast-grid__head-actions">
            {massChange ? (
              <button
                type="button"
                className="forecast-grid__icon"
                title={gridTexts.massChange}
                aria-label={gridTexts.massChangeOf(column.header)}
                onClick={onMassChange}
              >
                %
              </button>
            ) : null}
            <button
              type="button"
              className={`forecast-grid__icon${column.pinned ? " is-on" : ""}`}
              title={pinLabel}
              aria-label={`${pinLabel}: ${column.header}`}
              aria-pressed={column.pinned}
              onClick={onPin}
            >
              <PinIcon />
            </button>
          </span>
        ) : null}
      </span>
    </div>
  );
}

function PinIcon() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M9.8 1.2l5 5-1.4 1.4-.7-.7-2.6 2.6.4 3.2-1.4 1.4-3-3-3.6 3.6-1.1-1.1 3.6-3.6-3-3 1.4-1.4 3.2.4 2.6-2.6-.7-.7z"
      />
    </svg>
  );
}
