import {
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { formatPtBr2, parsePtBrNumber, roundTo2 } from "~/shared/numbers";
import type { ColumnView } from "./forecast-columns";
import type { GridRow } from "./forecast-grid-rules";
import { scrollToColumn } from "./grid-scroll";
import { gridTexts } from "./grid-texts";
import type { Cell, Editing, ForecastEdits, Position, Values } from "./use-forecast-edits";

/**
 * The grid's focus and keys: focus moves through the DOM (no render per arrow key), among the cells of a roving
 * grid; Enter, F2, a digit or a double click opens a cell's editor, whose text is committed or dropped here; Delete,
 * Ctrl+Z and paste change cells through the edits' `apply`.
 */

const PAGE_ROWS = 10;
const MOVES: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** The grid as last rendered: what the stable handlers read when they run. */
type GridState = {
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
function revealCell(box: HTMLElement | null, element: HTMLElement) {
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
function cellElement(box: HTMLElement | null, row: number, column: number): HTMLElement | null {
  return (box?.querySelector<HTMLElement>(`[data-row="${row}"]`)?.children[column] as HTMLElement | undefined) ?? null;
}

/** The grid position of an event's cell (a body cell or a row's label), or null outside them. */
function positionOf(target: EventTarget | null): Position | null {
  const cell = (target as HTMLElement | null)?.closest?.("[role=gridcell], [role=rowheader]");
  const row = cell?.parentElement?.getAttribute("data-row");
  if (!cell || row == null) return null;
  return { row: Number(row), column: Array.prototype.indexOf.call(cell.parentElement!.children, cell) };
}

/** The account × month a visual position holds, when the user may change it. */
function editableCellOf(s: GridState, row: number, column: number): Cell | null {
  const gridRow = s.rows[row];
  const meta = s.columns[column]?.meta;
  if (!s.editable || gridRow?.type !== "row" || meta?.kind !== "month" || meta.index < s.firstForecastIndex)
    return null;
  if (s.values[gridRow.line][meta.index] === null) return null;
  return { line: gridRow.line, month: meta.index };
}

function accountMonthAt(s: Pick<GridState, "rows" | "columns">, at: Position): Cell | null {
  const gridRow = s.rows[at.row];
  const meta = s.columns[at.column]?.meta;
  return gridRow?.type === "row" && meta?.kind === "month" ? { line: gridRow.line, month: meta.index } : null;
}

/** The first forecast cell of the first account (or the first row or column when there is none). */
function entryCell(s: Omit<GridState, "editing" | "values" | "editable">): Position {
  return {
    row: Math.max(
      0,
      s.rows.findIndex((r) => r.type === "row"),
    ),
    column: Math.max(
      0,
      s.columns.findIndex((c) => c.meta.kind === "month" && c.meta.index === s.firstForecastIndex),
    ),
  };
}

/** Where a navigation key moves the focus from `at`: null when it is no such key, "out" when Tab leaves the grid. */
function navigationTarget(event: KeyboardEvent, at: Position, s: GridState): Position | "out" | null {
  const { row, column } = at;
  const key = event.key;
  if (MOVES[key]) return { row: row + MOVES[key][0], column: column + MOVES[key][1] };
  if (key === "Tab") {
    const next = column + (event.shiftKey ? -1 : 1);
    return next < 0 || next >= s.columns.length ? "out" : { row, column: next };
  }
  if (key === "Home" || key === "End") {
    const rowTo = key === "Home" ? 0 : s.rows.length - 1;
    return { row: event.ctrlKey || event.metaKey ? rowTo : row, column: key === "Home" ? 0 : s.columns.length - 1 };
  }
  if (key === "PageDown" || key === "PageUp")
    return { row: row + (key === "PageDown" ? PAGE_ROWS : -PAGE_ROWS), column };
  return null;
}

/** Enter, F2, Delete, Ctrl+Z and a digit on a cell at `at`. */
function onEditKey(
  event: KeyboardEvent,
  at: Position,
  grid: {
    startEditing: (row: number, column: number, text?: string) => boolean;
    editableCell: (row: number, column: number) => Cell | null;
    focusCell: (row: number, column: number) => void;
    apply: ForecastEdits["apply"];
    undoLast: () => void;
  },
) {
  const { row, column } = at;
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (key === "Enter" || key === "F2") {
    event.preventDefault();
    if (!grid.startEditing(row, column) && key === "Enter") grid.focusCell(row + 1, column);
  } else if (key === "Delete" || key === "Backspace") {
    const cell = grid.editableCell(row, column);
    if (cell) {
      event.preventDefault();
      grid.apply([{ ...cell, value: 0 }]);
    }
  } else if (ctrl && key.toLowerCase() === "z") {
    event.preventDefault();
    grid.undoLast();
  } else if (key.length === 1 && !ctrl && !event.altKey && /[\d,.\-+(]/.test(key)) {
    if (grid.startEditing(row, column, key)) event.preventDefault();
  }
}

/** The focused cell, kept as a position; focusCell moves the DOM focus and scrolls a cell beside the pinned ones. */
function useCellFocus(state: { readonly current: GridState }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<Position | null>(null);
  const focusCell = useCallback(
    (row: number, column: number) => {
      const s = state.current;
      const r = Math.max(0, Math.min(s.rows.length - 1, row));
      const c = Math.max(0, Math.min(s.columns.length - 1, column));
      const element = cellElement(scroller.current, r, c);
      if (!element) return;
      element.focus({ preventScroll: false });
      if (!s.columns[c].pinned) revealCell(scroller.current, element);
      setActive((a) => (a?.row === r && a.column === c ? a : { row: r, column: c }));
    },
    [state],
  );
  return { scroller, active, setActive, focusCell };
}

/**
 * Salvar remembers the active cell; when the save dialog closes the focus returns to it (Radix gives it back to a
 * trigger, and this dialog has none). The reload keeps the grid's DOM, so the cell is the same element.
 */
function useRefocusAfterSave(saveDialogOpen: boolean, scroller: { readonly current: HTMLElement | null }) {
  const refocus = useRef<Position | null>(null);
  useEffect(() => {
    const at = refocus.current;
    if (saveDialogOpen || !at) return;
    refocus.current = null;
    // After Radix's own focus return (a timeout queued as the dialog unmounted).
    const timer = setTimeout(() => {
      const focused = document.activeElement;
      if (!focused || focused === document.body)
        cellElement(scroller.current, at.row, at.column)?.focus({ preventScroll: true });
    }, 0);
    return () => clearTimeout(timer);
  }, [saveDialogOpen, scroller]);
  return (at: Position | null) => {
    refocus.current = at;
  };
}

/** Opening a cell's editor, and committing or dropping what was typed in it. */
function useCellEditor(
  state: { readonly current: GridState },
  edits: ForecastEdits,
  focus: ReturnType<typeof useCellFocus>,
) {
  const { apply, latest, setEditing, setNotice } = edits;
  const { scroller, focusCell } = focus;
  const editableCell = useCallback(
    (row: number, column: number) => editableCellOf(state.current, row, column),
    [state],
  );

  const startEditing = useCallback(
    (row: number, column: number, text?: string) => {
      const cell = editableCell(row, column);
      if (!cell) return false;
      const current = latest.current[cell.line][cell.month];
      setEditing({ row, column, text: text ?? (current === null ? "" : formatPtBr2(current)), error: false });
      // A cell double-tapped half under the pinned columns opens fully beside them.
      requestAnimationFrame(() => {
        const element = cellElement(scroller.current, row, column);
        if (element) revealCell(scroller.current, element);
      });
      return true;
    },
    [editableCell, latest, setEditing, scroller],
  );

  /** Reads the editor's text; a valid number (empty = 0) is stored and the focus moves by (dRow, dColumn). */
  const commit = useCallback(
    (text: string, move: [number, number] | null) => {
      const s = state.current;
      if (!s.editing) return;
      const { row, column } = s.editing;
      const parsed = parsePtBrNumber(text);
      if (!parsed.ok) {
        setEditing({ ...s.editing, text, error: true });
        setNotice({ tone: "error", text: gridTexts.invalidNumber });
        return;
      }
      const cell = editableCell(row, column);
      if (cell && latest.current[cell.line][cell.month] !== roundTo2(parsed.value))
        apply([{ ...cell, value: parsed.value }]);
      setEditing(null);
      setNotice(null);
      // Enter and Tab move on; leaving the cell with the mouse leaves the focus where the user put it.
      if (move) requestAnimationFrame(() => focusCell(row + move[0], column + move[1]));
    },
    [state, apply, editableCell, focusCell, latest, setEditing, setNotice],
  );

  /** Escape drops the text and returns to the cell; leaving with text that is not a number drops it with a message. */
  const cancelEditing = useCallback(
    (reason: "escape" | "invalid") => {
      const s = state.current;
      if (!s.editing) return;
      const { row, column } = s.editing;
      setEditing(null);
      if (reason === "invalid") {
        setNotice({ tone: "error", text: gridTexts.invalidNumber });
        return;
      }
      setNotice(null);
      requestAnimationFrame(() => focusCell(row, column));
    },
    [state, focusCell, setEditing, setNotice],
  );

  return { editableCell, startEditing, commit, cancelEditing };
}

export type GridKeyboardInput = GridState & {
  edits: ForecastEdits;
  saveDialogOpen: boolean;
  /** Shift+F2 on an account's month: its comments. */
  onComments?: (cell: Cell) => void;
  /** The cell focused once the grid is in the browser (a comment's link names it). */
  startAt?: Cell;
  /** Without `startAt`: the column the grid is scrolled to once in the browser (the first editable month's). */
  startColumn?: string | null;
};

/** The position of an account's month in the grid, or null. */
function positionOfCell(s: Pick<GridState, "rows" | "columns">, cell: Cell): Position | null {
  const row = s.rows.findIndex((r) => r.type === "row" && r.line === cell.line);
  const column = s.columns.findIndex((c) => c.meta.kind === "month" && c.meta.index === cell.month);
  return row < 0 || column < 0 ? null : { row, column };
}

export function useGridKeyboard({
  edits,
  saveDialogOpen,
  onComments,
  startAt,
  startColumn,
  ...grid
}: GridKeyboardInput) {
  // The latest state for the stable event handlers.
  const state = useRef(grid);
  state.current = grid;
  const focus = useCellFocus(state);
  const { scroller, active, setActive, focusCell } = focus;
  const editor = useCellEditor(state, edits, focus);
  const { editableCell, startEditing } = editor;
  const rememberFocus = useRefocusAfterSave(saveDialogOpen, scroller);
  // Opened on a cell: focused once, when the grid is in the browser; else scrolled to its first editable month (which
  // the page's script did already when the server drew the grid).
  const start = useRef({ cell: startAt, column: startColumn });
  useEffect(() => {
    const { cell, column } = start.current;
    start.current = { cell: undefined, column: null };
    const to = cell && positionOfCell(state.current, cell);
    if (to) focusCell(to.row, to.column);
    else scrollToColumn(scroller.current, column ?? null);
  }, [focusCell, scroller]);

  /** Moves the focus to an account's month (back from the comments panel). */
  const focusAccountMonth = useCallback(
    (cell: Cell) => {
      const to = positionOfCell(state.current, cell);
      if (to) focusCell(to.row, to.column);
    },
    [focusCell],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (state.current.editing || (event.target as HTMLElement).tagName === "INPUT") return;
    const at = positionOf(event.target);
    if (!at) return;
    const cell = event.key === "F2" && event.shiftKey ? accountMonthAt(state.current, at) : null;
    if (cell && onComments) {
      event.preventDefault();
      return onComments(cell);
    }
    const target = navigationTarget(event, at, state.current);
    if (target === "out") return; // Tab leaves the grid
    if (!target) return onEditKey(event, at, { ...editor, focusCell, apply: edits.apply, undoLast: edits.undoLast });
    event.preventDefault();
    focusCell(target.row, target.column);
  };

  const onDoubleClick = (event: MouseEvent<HTMLDivElement>) => {
    const at = positionOf(event.target);
    if (at && !state.current.editing) startEditing(at.row, at.column);
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const at = positionOf(event.target);
    if (at) setActive((a) => (a?.row === at.row && a.column === at.column ? a : at));
    else if (event.target === scroller.current) {
      // Entering the grid with Tab: the last active cell, else the first forecast cell of the first account.
      const to = active ?? entryCell(grid);
      focusCell(to.row, to.column);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const text = event.clipboardData.getData("text/plain");
    const s = state.current;
    const inEditor = (event.target as HTMLElement).tagName === "INPUT";
    if (inEditor && !/[\t\n\r]/.test(text.replace(/(\r\n|\n|\r)$/, ""))) return; // one value: the editor takes it
    if (!s.editable) return;
    event.preventDefault();
    const start = inEditor && s.editing ? { row: s.editing.row, column: s.editing.column } : positionOf(event.target);
    edits.paste(text, start, { rows: s.rows.length, columns: s.columns.length }, editableCell);
  };

  return {
    scroller,
    /** The account × month of the active cell, when it is an account's month (the history button's cell). */
    activeCell: active ? accountMonthAt(grid, active) : null,
    /** Before a save: the active cell gets the focus back once the save dialog closes. */
    rememberFocus: () => rememberFocus(active),
    handlers: { onKeyDown, onDoubleClick, onFocus, onPaste },
    focusAccountMonth,
    commit: editor.commit,
    cancelEditing: editor.cancelEditing,
  };
}
