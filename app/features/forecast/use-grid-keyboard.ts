import {
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { cellElement, type GridEditContext, type GridState, revealCell } from "./grid-dom";
import { scrollToColumn } from "./grid-scroll";
import type { Cell, Editing, ForecastEdits, Position } from "./use-forecast-edits";

/**
 * The grid's focus and keys: focus moves through the DOM (no render per arrow key), among the cells of a roving
 * grid; Enter, F2, a digit or a double click opens a cell's editor, whose text is committed or dropped; Delete,
 * Ctrl+Z and paste change cells through the edits' `apply`. What those keys do is in grid-edit-keys.ts, loaded once the
 * grid is in the browser (only there may it be edited): until then the handlers leave the keys alone, and a paste
 * (its text read at once) is taken when it has loaded.
 */

/** The grid position of an event's cell (a body cell or a row's label), or null outside them. */
function positionOf(target: EventTarget | null): Position | null {
  const cell = (target as HTMLElement | null)?.closest?.("[role=gridcell], [role=rowheader]");
  const row = cell?.parentElement?.getAttribute("data-row");
  if (!cell || row == null) return null;
  return { row: Number(row), column: Array.prototype.indexOf.call(cell.parentElement!.children, cell) };
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

type EditKeys = typeof import("./grid-edit-keys");

/**
 * The editing code, imported once the grid is in the browser; `run` calls it with the latest context (nothing before
 * it has loaded), `later` once it has.
 */
function useEditKeys(context: GridEditContext) {
  const latest = useRef(context);
  latest.current = context;
  const code = useRef<EditKeys | null>(null);
  const loading = useRef<Promise<EditKeys> | null>(null);
  useEffect(() => {
    const load = import("./grid-edit-keys");
    loading.current = load;
    load.then((m) => {
      code.current = m;
      // The grid's scroll area says its keys now work (a test, or a style, can wait on it).
      latest.current.scroller.current?.setAttribute("data-keys", "ready");
    });
  }, []);
  const run = useCallback((use: (m: EditKeys, g: GridEditContext) => void) => {
    if (code.current) use(code.current, latest.current);
  }, []);
  const later = useCallback((use: (m: EditKeys, g: GridEditContext) => void) => {
    if (code.current) use(code.current, latest.current);
    else loading.current?.then((m) => use(m, latest.current));
  }, []);
  return { run, later, code };
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
  const code = useEditKeys({ state, edits, scroller, focusCell });
  const { run } = code;
  const commit = useCallback(
    (text: string, move: [number, number] | null) => run((m, g) => m.commit(g, text, move)),
    [run],
  );
  const cancelEditing = useCallback((reason: "escape" | "invalid") => run((m, g) => m.cancelEditing(g, reason)), [run]);
  /** The input of the cell being typed in (a cell is only typed in once the editing code has loaded). */
  const editor = useCallback(
    (editing: Editing, label: string): ReactNode =>
      code.code.current?.cellEditor(editing, label, commit, cancelEditing) ?? null,
    [code.code, commit, cancelEditing],
  );
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
    run((m, g) => m.onKeyDown(g, event, at));
  };

  const onDoubleClick = (event: MouseEvent<HTMLDivElement>) => {
    const at = positionOf(event.target);
    if (at && !state.current.editing) run((m, g) => m.startEditing(g, at.row, at.column));
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
    code.later((m, g) => m.paste(g, text, start));
  };

  return {
    scroller,
    /** The account × month of the active cell, when it is an account's month (the history button's cell). */
    activeCell: active ? accountMonthAt(grid, active) : null,
    /** Before a save: the active cell gets the focus back once the save dialog closes. */
    rememberFocus: () => rememberFocus(active),
    handlers: { onKeyDown, onDoubleClick, onFocus, onPaste },
    focusAccountMonth,
    editor,
  };
}
