import { memo, useMemo } from "react";
import { type CellEditorView, valueCell } from "./forecast-cell";
import { type ColumnView, pinnedClass, pinnedStyle } from "./forecast-columns";
import { type AccountLine, type ForecastGridPayload, type GridRow, yearSums } from "./forecast-grid-rules";
import { gridTexts } from "./grid-texts";
import type { AnnualTotal } from "./release-points";
import type { ConflictMark, Editing, ForecastEdits } from "./use-forecast-edits";
import type { VarianceFigures } from "./variance";
import { type VarianceColumnMeta, varianceOfRow, varianceText } from "./variance-columns";

/**
 * The grid's body: one row per group header (step), account (row), group total (step-total) and the cost centre's
 * total (step-row). A row is memoised: a change replaces only its account's values, so only that row (and the totals)
 * render again.
 */

type RowViewProps = {
  row: GridRow;
  index: number;
  columns: ColumnView[];
  values: readonly (number | null)[] | undefined;
  original: readonly (number | null)[] | undefined;
  totals: readonly AnnualTotal[];
  /** The row's variance figures (computed by the loader from the stored values), when variance columns are on. */
  variance: VarianceFigures | undefined;
  firstForecastIndex: number;
  editable: boolean;
  /** The whole grid is read-only (said once, on the grid); otherwise each read-only cell says so. */
  gridReadOnly: boolean;
  edited: boolean;
  history: ReadonlySet<number> | undefined;
  /** Month positions changed since the last submission. */
  since: readonly number[] | undefined;
  /** Month positions with comments. */
  comments: readonly number[] | undefined;
  /** The month position of the cell a link opened the grid at, on its row (it carries the link's fragment id). */
  anchor: number | undefined;
  conflicts: ReadonlyMap<number, string> | undefined;
  editing: Editing | null;
  editor: CellEditorView;
};

function labelCell(row: GridRow, column: ColumnView, edited: boolean) {
  return (
    <div
      key={column.id}
      role="rowheader"
      tabIndex={-1}
      className={`forecast-grid__label${pinnedClass(column)}`}
      style={pinnedStyle(column)}
      title={row.type === "row" ? row.account : undefined}
    >
      {row.label}
      {edited ? <span className="forecast-grid__edited">{gridTexts.edited}</span> : null}
    </div>
  );
}

function varianceCell(
  row: GridRow,
  column: ColumnView,
  meta: VarianceColumnMeta,
  variance: VarianceFigures | undefined,
  gridReadOnly: boolean,
) {
  const text = row.type === "step" ? "" : varianceText(variance, meta);
  return (
    <div
      key={column.id}
      role="gridcell"
      tabIndex={-1}
      className={`forecast-grid__cell forecast-grid__cell--variance forecast-grid__cell--${meta.group}${
        text.startsWith("-") ? " is-negative" : ""
      }${pinnedClass(column)}`}
      style={pinnedStyle(column)}
      aria-readonly={gridReadOnly ? undefined : true}
    >
      {text}
    </div>
  );
}

export const ForecastRow = memo(function ForecastRow(p: RowViewProps) {
  const { row, values, editing } = p;
  const years = values ? yearSums(values, p.totals) : null;
  return (
    <div
      role="row"
      aria-rowindex={p.index + 2}
      data-row={p.index}
      className={`forecast-grid__row forecast-grid__row--${row.type}${p.edited ? " is-edited" : ""}`}
    >
      {p.columns.map((column, c) => {
        const meta = column.meta;
        if (meta.kind === "label") return labelCell(row, column, p.edited);
        if (meta.kind === "variance") return varianceCell(row, column, meta, p.variance, p.gridReadOnly);
        const isMonth = meta.kind === "month";
        return valueCell({
          row,
          column,
          meta,
          value: isMonth ? values?.[meta.index] : years?.[meta.index],
          stored: isMonth ? p.original?.[meta.index] : undefined,
          editable: p.editable,
          firstForecastIndex: p.firstForecastIndex,
          gridReadOnly: p.gridReadOnly,
          hasHistory: isMonth && p.history?.has(meta.index) === true,
          since: isMonth && p.since?.includes(meta.index) === true,
          hasComment: isMonth && p.comments?.includes(meta.index) === true,
          anchor: isMonth && p.anchor === meta.index,
          conflict: isMonth ? p.conflicts?.get(meta.index) : undefined,
          editing: editing && editing.column === c ? editing : null,
          editor: p.editor,
        });
      })}
    </div>
  );
});

/** Per account line, the months whose cell has a history, and the months the last save refused (with why). */
function useLineMarks(accounts: readonly AccountLine[], months: readonly string[], conflicts: readonly ConflictMark[]) {
  const history = useMemo(() => accounts.map((a) => new Set(a.edited)), [accounts]);
  const conflictsByLine = useMemo(() => {
    const lineOf = new Map(accounts.map((a, i) => [a.account, i]));
    const byLine = new Map<number, Map<number, string>>();
    for (const c of conflicts) {
      const line = lineOf.get(c.account);
      const month = months.indexOf(c.month);
      if (line === undefined || month < 0) continue;
      if (!byLine.has(line)) byLine.set(line, new Map());
      byLine.get(line)?.set(month, c.text);
    }
    return byLine;
  }, [conflicts, accounts, months]);
  return { history, conflicts: conflictsByLine };
}

export function GridBody({
  rows,
  columns,
  payload,
  accounts,
  gridReadOnly,
  conflicts,
  edits,
  editor,
}: {
  rows: readonly GridRow[];
  columns: ColumnView[];
  /** Its months, totals and variance; `editable`: the grid is open (its cells look editable before hydration). */
  payload: ForecastGridPayload;
  accounts: readonly AccountLine[];
  gridReadOnly: boolean;
  conflicts: readonly ConflictMark[];
  edits: Pick<ForecastEdits, "values" | "original" | "sums" | "edited" | "editing">;
  editor: CellEditorView;
}) {
  const { months, totals, firstForecastIndex, variance } = payload;
  const marks = useLineMarks(accounts, months, conflicts);
  const { values, original, sums, edited, editing } = edits;
  return (
    <div className="forecast-grid__body" role="rowgroup">
      {rows.map((row, index) => {
        const isAccount = row.type === "row";
        const rowValues =
          row.type === "row"
            ? values[row.line]
            : row.type === "step-total"
              ? sums.groups[row.group]
              : row.type === "step-row"
                ? sums.grand
                : undefined;
        const isEditing = editing !== null && editing.row === index;
        return (
          <ForecastRow
            key={row.id}
            row={row}
            index={index}
            columns={columns}
            values={rowValues}
            original={isAccount ? original[row.line] : undefined}
            totals={totals}
            variance={varianceOfRow(variance, row)}
            firstForecastIndex={firstForecastIndex}
            editable={payload.editable && isAccount}
            gridReadOnly={gridReadOnly}
            edited={isAccount && edited.has(row.line)}
            history={isAccount ? marks.history[row.line] : undefined}
            since={isAccount ? accounts[row.line].since : undefined}
            comments={isAccount ? accounts[row.line].comments : undefined}
            anchor={isAccount && payload.focus?.line === row.line ? payload.focus.month : undefined}
            conflicts={isAccount ? marks.conflicts.get(row.line) : undefined}
            editing={isEditing ? editing : null}
            editor={editor}
          />
        );
      })}
    </div>
  );
}
