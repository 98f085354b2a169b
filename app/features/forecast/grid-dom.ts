import type { ColumnView } from "./forecast-columns";
import type { GridRow } from "./forecast-grid-rules";
import type { Editing, ForecastEdits, Values } from "./use-forecast-edits";

/**
 * What the grid's keyboard hook (use-grid-keyboard.ts) and its editing code, loaded later (grid-edit-keys.tsx), both
 * work on: the grid as last rendered, and finding and revealing a cell in its scroll area.
 */

/** The grid as last rendered: what the stable handlers read when they run. */
export type GridState = {
  rows: readonly GridRow[];
  columns: readonly ColumnView[];
  values: Values;
  editable: boolean;
  editing: Editing | null;
  firstForecastIndex: number;
};

/**
 * Scrolls the grid sideways so that a (not pinned) cell is wholly in view beside the pinned columns. Their width is
 * measured, not summed from the column sizes: on a phone the CSS narrows the pinned column.
 */
export function revealCell(box: HTMLElement | null, element: HTMLElement) {
  if (!box) return;
  let pinnedWidth = 0;
  for (const sibling of Array.from(element.parentElement?.children ?? [])) {
    if (sibling.classList.contains("is-pinned")) pinnedWidth += sibling.getBoundingClientRect().width;
  }
  const left = element.offsetLeft;
  const right = left + element.offsetWidth;
  if (left < box.scrollLeft + pinnedWidth) box.scrollLeft = Math.max(0, left - pinnedWidth);
  else if (right > box.scrollLeft + box.clientWidth) {
    box.scrollLeft = Math.min(left - pinnedWidth, right - box.clientWidth);
  }
}

// A row's children are its cells in column order (the row draws one per column), so a cell is found by position.
export function cellElement(box: HTMLElement | null, row: number, column: number): HTMLElement | null {
  return (box?.querySelector<HTMLElement>(`[data-row="${row}"]`)?.children[column] as HTMLElement | undefined) ?? null;
}

/** What the editing code (grid-edit-keys.ts) works on: the grid as last rendered, its edits, focus and scroll area. */
export type GridEditContext = {
  state: { readonly current: GridState };
  edits: ForecastEdits;
  scroller: { readonly current: HTMLElement | null };
  focusCell: (row: number, column: number) => void;
};
