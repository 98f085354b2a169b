import type { ReactNode } from "react";
import { CELL_FRAGMENT } from "~/shared/cell-link";
import { formatPtBr2 } from "~/shared/numbers";
import { type ColumnView, pinnedClass, pinnedStyle } from "./forecast-columns";
import type { GridRow } from "./forecast-grid-rules";
import { gridTexts } from "./grid-texts";
import type { Editing } from "./use-forecast-edits";

/**
 * A month's or an annual total's cell, and the editor a forecast cell opens in place (its input: grid-edit-keys.tsx,
 * loaded with the grid's editing code). Cells are drawn by a plain function, not a component: the grid has thousands
 * and each carries as little as it can.
 */

export type CommitEdit = (text: string, move: [number, number] | null) => void;
export type CancelEdit = (reason: "escape" | "invalid") => void;
/** The input of the cell being typed in (`label`: its row and column). */
export type CellEditorView = (editing: Editing, label: string) => ReactNode;

export type ValueCellProps = {
  row: GridRow;
  column: ColumnView;
  /** The column's kind and position (of the month, or of the annual total). */
  meta: { kind: "month" | "total"; index: number };
  value: number | null | undefined;
  /** The stored value (account rows' months only). */
  stored: number | null | undefined;
  /** The row's account may change now (its forecast months). */
  editable: boolean;
  firstForecastIndex: number;
  /** The whole grid is read-only (said once, on the grid); otherwise each read-only cell says so. */
  gridReadOnly: boolean;
  hasHistory: boolean;
  /** The cell has comments (Shift+F2 opens them). */
  hasComment: boolean;
  /** The cell a link opened the grid at: it carries the link's fragment id (the browser scrolls to it). */
  anchor?: boolean;
  /** Changed since the last submission (what the reviewer has not seen). */
  since: boolean;
  /** Why the last save refused this cell. */
  conflict: string | undefined;
  /** The editor's state when this cell is being typed in. */
  editing: Editing | null;
  editor: CellEditorView;
};

export function valueCell(p: ValueCellProps) {
  const { row, column, value } = p;
  const isMonth = p.meta.kind === "month";
  const forecastColumn = isMonth && p.meta.index >= p.firstForecastIndex;
  const canEdit = p.editable && forecastColumn && value !== null && value !== undefined;
  const changed = isMonth && p.stored !== undefined && value !== p.stored;
  // A month cell is the plain `forecast-grid__cell` (the grid's ~460 cells carry as little markup as they can).
  let classes = isMonth ? "forecast-grid__cell" : "forecast-grid__cell forecast-grid__cell--total";
  if (forecastColumn) classes += " is-forecast";
  if (canEdit) classes += " is-editable";
  if (changed) classes += " is-changed";
  if (p.conflict) classes += " is-conflict";
  if (p.hasHistory) classes += " has-history";
  if (p.since) classes += " is-since";
  if (p.hasComment) classes += " has-comment";
  classes += pinnedClass(column);
  if (p.editing) {
    return (
      <div key={column.id} role="gridcell" className={`${classes} is-editing`} style={pinnedStyle(column)}>
        {p.editor(p.editing, `${row.label}, ${column.header}`)}
      </div>
    );
  }
  return (
    <div
      key={column.id}
      id={p.anchor ? CELL_FRAGMENT : undefined}
      role="gridcell"
      tabIndex={-1}
      className={classes}
      style={pinnedStyle(column)}
      title={p.conflict ?? (p.since ? gridTexts.sinceMarker : p.hasComment ? gridTexts.commentMarker : undefined)}
      aria-readonly={canEdit || p.gridReadOnly ? undefined : true}
    >
      {value === null || value === undefined ? (row.type === "step" ? "" : "—") : formatPtBr2(value)}
    </div>
  );
}
