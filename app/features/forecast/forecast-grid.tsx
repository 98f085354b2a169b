import { Form } from "@remix-run/react";
import { type ColumnDef, type ColumnPinningState, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import {
  type ClipboardEvent,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  lazy,
  type MouseEvent,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import {
  type CellChange,
  changedCells,
  editedLines,
  type ForecastGridPayload,
  type GridRow,
  gridRows,
  initialValues,
  planPaste,
  readPastedBlock,
  sumValues,
  yearSums,
} from "~/features/forecast/forecast-grid-rules";
import type { AnnualTotal } from "~/features/forecast/release-points";
import { messages } from "~/messages";
import { monthLabel, parseMonthKey } from "~/shared/months";
import { formatPtBr2, parsePtBrNumber, roundTo2 } from "~/shared/numbers";
import { Alert } from "~/shared/ui/alert";
import { useHydrated } from "~/shared/ui/use-hydrated";
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

// The grid's dialogs open only on request: their code loads with the first one (and is fetched once the page is idle).
const loadDialogs = () => import("./grid-dialogs");
const MassChangeDialog = lazy(() => loadDialogs().then((m) => ({ default: m.MassChangeDialog })));
const CellHistoryDialog = lazy(() => loadDialogs().then((m) => ({ default: m.CellHistoryDialog })));

/**
 * The forecast review grid (spec 001 §2–§5), on TanStack Table's column model and pinning: one row per
 * group header (step), account (row), group total (step-total) and the cost centre's total (step-row); the account
 * column, one column per month (actuals, then forecasts) and the annual totals. Only account rows × forecast columns
 * change, and only when the payload says the grid is open. Values live in a per-account array; a change replaces only
 * its account's array, so only that row (and the totals) render again. Focus moves through the DOM (no render per
 * arrow key); editing, paste and mass change go through one `apply` that records an undo step.
 */

export type ConflictMark = { account: string; month: string; current: number; text: string };

type VarianceMeasure = "previous" | "abs" | "pct";
type ColumnMeta =
  | { kind: "label" }
  | { kind: "month"; index: number }
  | { kind: "total"; index: number }
  /** A read-only variance column (issue 52): `index` is a month's position (rf, actual) or an annual total's (total). */
  | { kind: "variance"; group: VarianceGroup; measure: VarianceMeasure; index: number };
type ColumnView = {
  id: string;
  meta: ColumnMeta;
  header: string;
  sub: string;
  width: number;
  left: number | null;
  lastPinned: boolean;
  pinned: boolean;
};
type Cell = { line: number; month: number };
type Editing = { row: number; column: number; text: string; error: boolean };
type UndoStep = { line: number; month: number; before: number | null }[];

const LABEL_WIDTH = 300;
const MONTH_WIDTH = 112;
const TOTAL_WIDTH = 132;
const VARIANCE_WIDTH = 120;
/** The widths reach the CSS as variables (one source for the cells' widths and the pinned offsets). */
const WIDTH_VARIABLES = {
  "--fg-label": `${LABEL_WIDTH}px`,
  "--fg-month": `${MONTH_WIDTH}px`,
  "--fg-total": `${TOTAL_WIDTH}px`,
  "--fg-variance": `${VARIANCE_WIDTH}px`,
} as CSSProperties;
const PAGE_ROWS = 10;
/** Spec 001 §9: "Grid height 500 or 530 px": 500 with the edit toolbar above it, 530 without (read-only). */
const EDIT_HEIGHT = 500;
const READ_HEIGHT = 530;

export type ForecastGridProps = {
  payload: ForecastGridPayload;
  /** When the payload was loaded: a new value (the reload after a save) resets the values, keeping scroll and focus. */
  loadedAt?: number;
  /** The keyboard help under the toolbar (the page folds it away on a touch screen). */
  showKeyboardHelp?: boolean;
  /** The page's save status dialog is open: once it closes, the focus returns to the cell active at Salvar. */
  saveDialogOpen?: boolean;
  caption: string;
  /** Cells the last save refused because someone else changed them. */
  conflicts: readonly ConflictMark[];
  onConflictsResolved: () => void;
  onSave: (changes: CellChange[]) => void;
  saving: boolean;
  historyUrl: (account: string, month: string) => string;
  /** Told how many changed cells are not saved yet. */
  onPendingChange?: (count: number) => void;
  /** Pinned columns, kept by the page so a reload after saving keeps them. */
  columnPinning: ColumnPinningState;
  onColumnPinningChange: (pinning: ColumnPinningState) => void;
};

/** The account column starts pinned. */
export const INITIAL_PINNING: ColumnPinningState = { left: ["acc_description_edit"], right: [] };

export function ForecastGrid({
  payload,
  loadedAt,
  showKeyboardHelp = true,
  saveDialogOpen = false,
  caption,
  conflicts,
  onConflictsResolved,
  onSave,
  saving,
  historyUrl,
  columnPinning,
  onColumnPinningChange,
  onPendingChange,
}: ForecastGridProps) {
  const hydrated = useHydrated();
  const editable = payload.editable && hydrated;
  const { months, totals, groups, firstForecastIndex } = payload;
  const rows = useMemo(() => gridRows(groups), [groups]);
  const accounts = useMemo(() => groups.flatMap((g) => g.accounts), [groups]);
  let [original, setOriginal] = useState(() => initialValues(groups));
  let [values, setValuesState] = useState(() => initialValues(groups));
  // The values with every change made so far, rendered or not: changes and undo steps are computed from it (not in a
  // state updater, which React may call twice).
  const latest = useRef(values);
  const setValues = useCallback((next: (number | null)[][]) => {
    latest.current = next;
    setValuesState(next);
  }, []);
  let [editing, setEditing] = useState<Editing | null>(null);
  const [notice, setNotice] = useState<{ tone: "info" | "error"; text: string } | null>(null);
  const [active, setActive] = useState<{ row: number; column: number } | null>(null);
  let [massColumn, setMassColumn] = useState<number | null>(null);
  let [historyCell, setHistoryCell] = useState<Cell | null>(null);
  const undo = useRef<UndoStep[]>([]);
  // How many undo steps there are, rendered: "Desfazer última" is disabled without one.
  const [undoDepth, setUndoDepth] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);

  // A reload (after a save) starts afresh from the stored values, in place: the same DOM, so the scroll position and
  // the focused cell stay where they were (remounting the grid sent it back to the first month). The rest of this
  // render, which React throws away for the new state, reads the new values too (the rows may have changed).
  const [loaded, setLoaded] = useState(loadedAt);
  if (loaded !== loadedAt) {
    setLoaded(loadedAt);
    original = initialValues(groups);
    values = latest.current = initialValues(groups);
    editing = massColumn = historyCell = null;
    setOriginal(original);
    setValuesState(values);
    undo.current = [];
    setUndoDepth(0);
    setEditing(null);
    setNotice(null);
    setMassColumn(null);
    setHistoryCell(null);
  }

  // ------------------------------------------------------------------ columns (TanStack: model, pinning, offsets)
  const columnDefs = useMemo<ColumnDef<GridRow>[]>(
    () => [
      { id: "acc_description_edit", header: forecastTexts.accountColumn, size: LABEL_WIDTH, meta: { kind: "label" } },
      ...months.map((key, index) => ({
        id: `m_${key}`,
        header: monthLabel(parseMonthKey(key) ?? 0),
        size: MONTH_WIDTH,
        meta: { kind: "month", index },
      })),
      ...totals.map((total, index) => ({
        id: `y_${total.year}`,
        header: forecastTexts.totalColumn(total.year),
        size: TOTAL_WIDTH,
        meta: { kind: "total", index },
      })),
      ...varianceColumnDefs(payload.variance, months, totals),
    ],
    [months, totals, payload.variance],
  );
  const table = useReactTable({
    data: rows,
    columns: columnDefs,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    state: { columnPinning },
    onColumnPinningChange: (updater) =>
      onColumnPinningChange(typeof updater === "function" ? updater(columnPinning) : updater),
  });
  // The table memoises these: the same arrays until the definitions or the pinning change.
  const left = table.getLeftLeafColumns();
  const center = table.getCenterLeafColumns();
  const columns = useMemo<ColumnView[]>(() => {
    return [...left, ...center].map((column, i) => {
      const meta = column.columnDef.meta as ColumnMeta;
      const pinned = i < left.length;
      const total = meta.kind === "total" ? totals[meta.index] : null;
      return {
        id: column.id,
        meta,
        header: String(column.columnDef.header),
        sub:
          meta.kind === "variance"
            ? VARIANCE_TAGS[meta.measure]
            : meta.kind === "month"
              ? meta.index >= firstForecastIndex
                ? forecastTexts.forecastTag
                : forecastTexts.actualTag
              : total && !total.complete
                ? forecastTexts.partialYear(total.indexes.length)
                : "",
        width: column.getSize(),
        left: pinned ? column.getStart("left") : null,
        lastPinned: pinned && i === left.length - 1,
        pinned,
      };
    });
  }, [left, center, totals, firstForecastIndex]);
  const tableRows = table.getRowModel().rows;

  // ------------------------------------------------------------------ derived state
  const sums = useMemo(() => sumValues(groups, values, months.length), [groups, values, months.length]);
  const edited = useMemo(() => editedLines(original, values), [original, values]);
  const pending = useMemo(() => changedCells(groups, months, original, values), [groups, months, original, values]);
  const historyByLine = useMemo(() => accounts.map((a) => new Set(a.edited)), [accounts]);
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

  // The latest state for the stable event handlers below.
  const state = useRef({ rows, columns, values, editable, editing, firstForecastIndex });
  state.current = { rows, columns, values, editable, editing, firstForecastIndex };

  /** The account × month a visual position holds, when the user may change it. */
  const editableCell = useCallback((row: number, column: number): Cell | null => {
    const s = state.current;
    const gridRow = s.rows[row];
    const meta = s.columns[column]?.meta;
    if (!s.editable || gridRow?.type !== "row" || meta?.kind !== "month" || meta.index < s.firstForecastIndex)
      return null;
    if (s.values[gridRow.line][meta.index] === null) return null;
    return { line: gridRow.line, month: meta.index };
  }, []);

  /** Sets cells (rounded to cents) as one undo step. */
  const apply = useCallback(
    (changes: { line: number; month: number; value: number }[]) => {
      if (changes.length === 0) return;
      const current = latest.current;
      const next = current.slice();
      const step: UndoStep = [];
      for (const { line, month, value } of changes) {
        if (next[line] === current[line]) next[line] = current[line].slice();
        step.push({ line, month, before: next[line][month] });
        next[line][month] = roundTo2(value);
      }
      undo.current.push(step);
      setUndoDepth(undo.current.length);
      setValues(next);
    },
    [setValues],
  );

  // ------------------------------------------------------------------ focus and navigation
  const focusCell = useCallback((row: number, column: number) => {
    const s = state.current;
    const r = Math.max(0, Math.min(s.rows.length - 1, row));
    const c = Math.max(0, Math.min(s.columns.length - 1, column));
    const element = cellElement(scroller.current, r, c);
    if (!element) return;
    element.focus({ preventScroll: false });
    if (!s.columns[c].pinned) revealCell(scroller.current, element);
    setActive((a) => (a?.row === r && a.column === c ? a : { row: r, column: c }));
  }, []);

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
    [editableCell],
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
        setNotice({ tone: "error", text: forecastTexts.invalidNumber });
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
    [apply, editableCell, focusCell],
  );

  /** Escape drops the text and returns to the cell; leaving with text that is not a number drops it with a message. */
  const cancelEditing = useCallback(
    (reason: "escape" | "invalid") => {
      const s = state.current;
      if (!s.editing) return;
      const { row, column } = s.editing;
      setEditing(null);
      if (reason === "invalid") {
        setNotice({ tone: "error", text: forecastTexts.invalidNumber });
        return;
      }
      setNotice(null);
      requestAnimationFrame(() => focusCell(row, column));
    },
    [focusCell],
  );

  const positionOf = (target: EventTarget | null): { row: number; column: number } | null => {
    const cell = (target as HTMLElement | null)?.closest?.("[role=gridcell], [role=rowheader]");
    const row = cell?.parentElement?.getAttribute("data-row");
    if (!cell || row == null) return null;
    return { row: Number(row), column: Array.prototype.indexOf.call(cell.parentElement!.children, cell) };
  };

  const undoLast = useCallback(() => {
    const step = undo.current.pop();
    setUndoDepth(undo.current.length);
    if (!step) return;
    const current = latest.current;
    const next = current.slice();
    for (let i = step.length - 1; i >= 0; i--) {
      const { line, month, before } = step[i];
      if (next[line] === current[line]) next[line] = current[line].slice();
      next[line][month] = before;
    }
    setValues(next);
  }, [setValues]);

  const undoAll = () => {
    undo.current = [];
    setUndoDepth(0);
    setValues(original.map((row) => row.slice()));
    setEditing(null);
    setNotice(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (state.current.editing || (event.target as HTMLElement).tagName === "INPUT") return;
    const at = positionOf(event.target);
    if (!at) return;
    const { row, column } = at;
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    if (moves[key]) {
      event.preventDefault();
      focusCell(row + moves[key][0], column + moves[key][1]);
    } else if (key === "Tab") {
      const next = column + (event.shiftKey ? -1 : 1);
      if (next < 0 || next >= state.current.columns.length) return; // leaves the grid
      event.preventDefault();
      focusCell(row, next);
    } else if (key === "Home" || key === "End") {
      event.preventDefault();
      const c = key === "Home" ? 0 : state.current.columns.length - 1;
      focusCell(ctrl ? (key === "Home" ? 0 : state.current.rows.length - 1) : row, c);
    } else if (key === "PageDown" || key === "PageUp") {
      event.preventDefault();
      focusCell(row + (key === "PageDown" ? PAGE_ROWS : -PAGE_ROWS), column);
    } else if (key === "Enter" || key === "F2") {
      event.preventDefault();
      if (!startEditing(row, column) && key === "Enter") focusCell(row + 1, column);
    } else if (key === "Delete" || key === "Backspace") {
      const cell = editableCell(row, column);
      if (cell) {
        event.preventDefault();
        apply([{ ...cell, value: 0 }]);
      }
    } else if (ctrl && key.toLowerCase() === "z") {
      event.preventDefault();
      undoLast();
    } else if (key.length === 1 && !ctrl && !event.altKey && /[\d,.\-+(]/.test(key)) {
      if (startEditing(row, column, key)) event.preventDefault();
    }
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
      const firstAccount = Math.max(
        0,
        rows.findIndex((r) => r.type === "row"),
      );
      const firstForecast = Math.max(
        0,
        columns.findIndex((c) => c.meta.kind === "month" && c.meta.index === firstForecastIndex),
      );
      focusCell(active?.row ?? firstAccount, active?.column ?? firstForecast);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const text = event.clipboardData.getData("text/plain");
    const inEditor = (event.target as HTMLElement).tagName === "INPUT";
    if (inEditor && !/[\t\n\r]/.test(text.replace(/(\r\n|\n|\r)$/, ""))) return; // one value: the editor takes it
    if (!state.current.editable) return;
    event.preventDefault();
    const start =
      inEditor && state.current.editing
        ? { row: state.current.editing.row, column: state.current.editing.column }
        : positionOf(event.target);
    if (!start) {
      setNotice({ tone: "error", text: forecastTexts.pasteNoCell });
      return;
    }
    setEditing(null);
    const block = readPastedBlock(text);
    if (!block.ok) {
      setNotice({
        tone: "error",
        text:
          block.reason === "tooLarge"
            ? forecastTexts.pasteTooLarge(50_000)
            : forecastTexts.pasteNotNumber(block.text, block.line, block.column),
      });
      return;
    }
    const plan = planPaste(
      block.values,
      start,
      { rows: state.current.rows.length, columns: state.current.columns.length },
      (r, c) => editableCell(r, c) !== null,
    );
    apply(plan.targets.map((t) => ({ ...(editableCell(t.row, t.column) as Cell), value: t.value })));
    setNotice({ tone: "info", text: forecastTexts.pasted(plan.targets.length, plan.skipped, plan.outside) });
  };

  const applyMassChange = (month: number, change: (value: number) => number | null) => {
    const updates: { line: number; month: number; value: number }[] = [];
    latest.current.forEach((row, line) => {
      const before = row[month];
      const after = before === null ? null : change(before);
      if (after !== null) updates.push({ line, month, value: after });
    });
    apply(updates);
    setMassColumn(null);
    setNotice({ tone: "info", text: forecastTexts.massChanged(updates.length) });
  };

  /** After a refused save: either keep this user's values (the next save overwrites knowingly) or take the stored ones. */
  const resolveConflicts = (mode: "keepMine" | "useCurrent") => {
    const lineOf = new Map(accounts.map((a, i) => [a.account, i]));
    const cells = conflicts.flatMap((c) => {
      const line = lineOf.get(c.account);
      const month = months.indexOf(c.month);
      return line === undefined || month < 0 ? [] : [{ line, month, current: c.current }];
    });
    const withStored = (base: (number | null)[][]) => {
      const next = base.slice();
      for (const { line, month, current } of cells) {
        if (next[line] === base[line]) next[line] = base[line].slice();
        next[line][month] = current;
      }
      return next;
    };
    setOriginal(withStored(original));
    if (mode === "useCurrent") setValues(withStored(latest.current));
    onConflictsResolved();
  };

  /**
   * Salvar remembers the active cell; when the save dialog closes the focus returns to it (Radix gives it back to a
   * trigger, and this dialog has none). The reload keeps the grid's DOM, so the cell is the same element.
   */
  const refocus = useRef<{ row: number; column: number } | null>(null);
  const saveChanges = () => {
    refocus.current = active;
    onSave(pending);
  };
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
  }, [saveDialogOpen]);

  /** A cell's earlier value may be restored when the cell may change now (the server checks again when it is saved). */
  const restorable = (cell: Cell) =>
    editable && cell.month >= firstForecastIndex && values[cell.line][cell.month] !== null;

  /** "Restaurar" in the cell's history: an ordinary edit of the cell (one undo step, saved with the others). */
  const restoreValue = (cell: Cell, value: number) => {
    setHistoryCell(null);
    if (!restorable(cell)) return;
    apply([{ ...cell, value }]);
    setNotice({ tone: "info", text: forecastTexts.restored(formatPtBr2(value)) });
  };

  // The page asks before leaving with unsaved changes.
  useEffect(() => onPendingChange?.(pending.length), [pending.length, onPendingChange]);
  useEffect(() => void loadDialogs(), []);

  const activeCell = (() => {
    if (!active) return null;
    const gridRow = rows[active.row];
    const meta = columns[active.column]?.meta;
    return gridRow?.type === "row" && meta?.kind === "month" ? { line: gridRow.line, month: meta.index } : null;
  })();
  const editableMonths =
    columns.filter((c) => c.meta.kind === "month" && c.meta.index >= firstForecastIndex).length > 0;
  const height = payload.editable ? EDIT_HEIGHT : READ_HEIGHT;
  const variance = payload.variance;
  /** Changing the variance columns reloads the grid from the stored values: not over unsaved changes. */
  const onVarianceSubmit = (event: { preventDefault: () => void }) => {
    if (pending.length === 0) return;
    event.preventDefault();
    setNotice({ tone: "error", text: forecastTexts.variance.pendingFirst });
  };
  const tableWidth = columns.reduce((w, c) => w + c.width, 0);

  return (
    <div className="forecast-grid">
      <VarianceToggles shown={variance?.columns ?? []} onSubmit={onVarianceSubmit} />
      {variance ? (
        <p className="forecast-grid__variance-note">
          {variance.previousFound
            ? forecastTexts.variance.hint(variance.previousRf)
            : forecastTexts.variance.noPrevious(variance.previousRf)}
        </p>
      ) : null}
      {editable ? (
        <div className="forecast-grid__toolbar" role="toolbar" aria-label={caption}>
          <button
            type="button"
            className="button button--primary"
            disabled={pending.length === 0 || saving}
            onClick={saveChanges}
          >
            {pending.length > 0 ? forecastTexts.saveCount(pending.length) : forecastTexts.save}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={pending.length === 0 || saving}
            onClick={undoAll}
          >
            {forecastTexts.undoAll}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={saving || undoDepth === 0}
            onClick={undoLast}
          >
            {forecastTexts.undoLast}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={!activeCell}
            onClick={() => setHistoryCell(activeCell)}
          >
            {forecastTexts.history}
          </button>
          <span className="forecast-grid__pending" aria-live="polite">
            {pending.length > 0 ? forecastTexts.pending(pending.length) : forecastTexts.noPending}
          </span>
        </div>
      ) : hydrated ? (
        <div className="forecast-grid__toolbar">
          <button
            type="button"
            className="button button--secondary"
            disabled={!activeCell}
            onClick={() => setHistoryCell(activeCell)}
          >
            {forecastTexts.history}
          </button>
        </div>
      ) : null}
      {editable && showKeyboardHelp ? <p className="forecast-grid__help">{forecastTexts.keyboardHelp}</p> : null}
      {notice ? (
        <div className="forecast-grid__notice">
          <Alert tone={notice.tone}>{notice.text}</Alert>
        </div>
      ) : null}
      {conflicts.length > 0 ? (
        <div className="forecast-grid__conflicts">
          <Alert tone="warning">
            <ul>
              {conflicts.slice(0, 5).map((c) => (
                <li key={`${c.account}:${c.month}`}>
                  {c.account}, {monthLabel(parseMonthKey(c.month) ?? 0)}: {c.text}
                </li>
              ))}
            </ul>
            <div className="forecast-grid__conflict-actions">
              <button type="button" className="button button--secondary" onClick={() => resolveConflicts("useCurrent")}>
                {forecastTexts.useCurrent}
              </button>
              <button type="button" className="button button--secondary" onClick={() => resolveConflicts("keepMine")}>
                {forecastTexts.keepMine}
              </button>
            </div>
          </Alert>
        </div>
      ) : null}
      <div
        ref={scroller}
        className="forecast-grid__scroll scroll-area"
        style={{ maxHeight: height }}
        tabIndex={0}
        role="region"
        aria-label={caption}
        onKeyDown={onKeyDown}
        onDoubleClick={onDoubleClick}
        onFocus={onFocus}
        onPaste={onPaste}
      >
        <div
          className="forecast-grid__table"
          role="grid"
          aria-label={caption}
          aria-readonly={!editable}
          aria-rowcount={rows.length + 1}
          aria-colcount={columns.length}
          style={{ width: tableWidth, ...WIDTH_VARIABLES }}
        >
          <div className="forecast-grid__header" role="rowgroup">
            <div className="forecast-grid__header-row" role="row" aria-rowindex={1}>
              {columns.map((c) => (
                <HeaderCell
                  key={c.id}
                  column={c}
                  hydrated={hydrated}
                  massChange={
                    editable && editableMonths && c.meta.kind === "month" && c.meta.index >= firstForecastIndex
                  }
                  onPin={() => table.getColumn(c.id)?.pin(c.pinned ? false : "left")}
                  onMassChange={() => c.meta.kind === "month" && setMassColumn(c.meta.index)}
                />
              ))}
            </div>
          </div>
          <div className="forecast-grid__body" role="rowgroup">
            {tableRows.map(({ original: row, index }) => {
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
                <RowView
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
                  gridReadOnly={!editable}
                  edited={isAccount && edited.has(row.line)}
                  history={isAccount ? historyByLine[row.line] : undefined}
                  conflicts={isAccount ? conflictsByLine.get(row.line) : undefined}
                  editing={isEditing ? editing : null}
                  onCommit={commit}
                  onCancel={cancelEditing}
                />
              );
            })}
          </div>
        </div>
      </div>
      {/* A boundary only while a dialog is open: one rendered empty on the server hydrates after the grid, and an update
          of the grid meanwhile reaches it first (React error 421, "received an update before it finished hydrating";
          seen in grid-layout.e2e.ts). */}
      {massColumn !== null || historyCell ? (
        <Suspense fallback={null}>
          {massColumn !== null ? (
            <MassChangeDialog
              column={monthLabel(parseMonthKey(months[massColumn]) ?? 0)}
              onClose={() => setMassColumn(null)}
              onApply={(change) => applyMassChange(massColumn, change)}
            />
          ) : null}
          {historyCell ? (
            <CellHistoryDialog
              account={accounts[historyCell.line].account}
              month={monthLabel(parseMonthKey(months[historyCell.month]) ?? 0)}
              url={historyUrl(accounts[historyCell.line].account, months[historyCell.month])}
              current={values[historyCell.line][historyCell.month]}
              onRestore={restorable(historyCell) ? (value) => restoreValue(historyCell, value) : undefined}
              onClose={() => setHistoryCell(null)}
            />
          ) : null}
        </Suspense>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

/** The classes of a pinned column's cells (the last one draws the edge). */
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

// A row's children are its cells in column order (RowView draws one per column), so a cell is found by position.
function cellElement(box: HTMLElement | null, row: number, column: number): HTMLElement | null {
  return (box?.querySelector<HTMLElement>(`[data-row="${row}"]`)?.children[column] as HTMLElement | undefined) ?? null;
}

const pinnedClass = (column: ColumnView) =>
  column.pinned ? (column.lastPinned ? " is-pinned is-last-pinned" : " is-pinned") : "";

/** Pinned columns stick at their offset from TanStack's column.getStart("left"). Widths come from the CSS (one class per kind). */
function pinnedStyle(column: ColumnView) {
  return column.left === null ? undefined : { left: column.left };
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
  const pinLabel = column.pinned ? messages.unpinColumn : messages.pinColumn;
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
                title={forecastTexts.massChange}
                aria-label={forecastTexts.massChangeOf(column.header)}
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
  conflicts: ReadonlyMap<number, string> | undefined;
  editing: Editing | null;
  onCommit: (text: string, move: [number, number] | null) => void;
  onCancel: (reason: "escape" | "invalid") => void;
};

const RowView = memo(function RowView({
  row,
  index,
  columns,
  values,
  original,
  totals,
  variance,
  firstForecastIndex,
  editable,
  gridReadOnly,
  edited,
  history,
  conflicts,
  editing,
  onCommit,
  onCancel,
}: RowViewProps) {
  const years = values ? yearSums(values, totals) : null;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-row={index}
      className={`forecast-grid__row forecast-grid__row--${row.type}${edited ? " is-edited" : ""}`}
    >
      {columns.map((column, c) => {
        const meta = column.meta;
        if (meta.kind === "label") {
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
              {edited ? <span className="forecast-grid__edited">{forecastTexts.edited}</span> : null}
            </div>
          );
        }
        if (meta.kind === "variance") {
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
        const value = meta.kind === "month" ? values?.[meta.index] : years?.[meta.index];
        const isMonth = meta.kind === "month";
        const forecastColumn = isMonth && meta.index >= firstForecastIndex;
        const canEdit = editable && forecastColumn && value !== null && value !== undefined;
        const changed = isMonth && original !== undefined && value !== original[meta.index];
        const conflict = isMonth ? conflicts?.get(meta.index) : undefined;
        // A month cell is the plain `forecast-grid__cell` (the grid's ~460 cells carry as little markup as they can).
        let classes = meta.kind === "month" ? "forecast-grid__cell" : "forecast-grid__cell forecast-grid__cell--total";
        if (forecastColumn) classes += " is-forecast";
        if (canEdit) classes += " is-editable";
        if (changed) classes += " is-changed";
        if (conflict) classes += " is-conflict";
        if (isMonth && history?.has(meta.index)) classes += " has-history";
        classes += pinnedClass(column);
        if (editing && editing.column === c) {
          return (
            <div key={column.id} role="gridcell" className={`${classes} is-editing`} style={pinnedStyle(column)}>
              <CellEditor
                editing={editing}
                label={`${row.label}, ${column.header}`}
                onCommit={onCommit}
                onCancel={onCancel}
              />
            </div>
          );
        }
        return (
          <div
            key={column.id}
            role="gridcell"
            tabIndex={-1}
            className={classes}
            style={pinnedStyle(column)}
            title={conflict}
            aria-readonly={canEdit || gridReadOnly ? undefined : true}
          >
            {value === null || value === undefined ? (row.type === "step" ? "" : "—") : formatPtBr2(value)}
          </div>
        );
      })}
    </div>
  );
});

function CellEditor({
  editing,
  label,
  onCommit,
  onCancel,
}: {
  editing: Editing;
  label: string;
  onCommit: (text: string, move: [number, number] | null) => void;
  onCancel: (reason: "escape" | "invalid") => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    const element = input.current;
    if (!element) return;
    done.current = false;
    element.focus();
    // A typed first character replaces the value; double-click, Enter and F2 select it for overwriting.
    if (editing.text.length === 1 && !editing.error) element.setSelectionRange(1, 1);
    else element.select();
  }, [editing.text, editing.error]);
  const finish = (move: [number, number] | null) => {
    done.current = true;
    onCommit(input.current?.value ?? "", move);
  };
  return (
    <input
      ref={input}
      className="forecast-grid__input"
      defaultValue={editing.text}
      inputMode="decimal"
      aria-label={label}
      aria-invalid={editing.error || undefined}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          finish([event.shiftKey ? -1 : 1, 0]);
        } else if (event.key === "Tab") {
          event.preventDefault();
          finish([0, event.shiftKey ? -1 : 1]);
        } else if (event.key === "Escape") {
          event.preventDefault();
          done.current = true;
          onCancel("escape");
        }
      }}
      onBlur={() => {
        // Leaving the cell keeps a valid value; an invalid one is dropped (the message stays).
        if (done.current) return;
        const parsed = parsePtBrNumber(input.current?.value ?? "");
        if (parsed.ok) finish(null);
        else onCancel("invalid");
      }}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Variance columns (issue 52): read-only, after the annual totals, so that the month columns stay side by side for
// paste and keyboard editing.

const VARIANCE_TAGS: Record<VarianceMeasure, string> = {
  previous: forecastTexts.variance.tagPrevious,
  abs: forecastTexts.variance.tagDiff,
  pct: forecastTexts.variance.tagPercent,
};

function varianceColumnDefs(
  variance: VariancePayload | undefined,
  months: readonly string[],
  totals: readonly AnnualTotal[],
): ColumnDef<GridRow>[] {
  if (!variance) return [];
  const t = forecastTexts.variance;
  const column = (id: string, header: string, meta: ColumnMeta): ColumnDef<GridRow> => ({
    id,
    header,
    size: VARIANCE_WIDTH,
    meta,
  });
  const label = (index: number) => monthLabel(parseMonthKey(months[index]) ?? 0);
  return variance.columns.flatMap((group): ColumnDef<GridRow>[] => {
    switch (group) {
      case "total":
        return totals.flatMap((total, index) => [
          column(`vt_prev_${total.year}`, t.totalPrevious(total.year, variance.previousRf), {
            kind: "variance",
            group,
            measure: "previous",
            index,
          }),
          column(`vt_abs_${total.year}`, t.totalAbs(total.year), { kind: "variance", group, measure: "abs", index }),
          column(`vt_pct_${total.year}`, t.totalPct(total.year), { kind: "variance", group, measure: "pct", index }),
        ]);
      case "rf":
        return months.flatMap((key, index) => [
          column(`vr_abs_${key}`, t.rfAbs(label(index)), { kind: "variance", group, measure: "abs", index }),
          column(`vr_pct_${key}`, t.rfPct(label(index)), { kind: "variance", group, measure: "pct", index }),
        ]);
      case "actual":
        return variance.closedMonths.flatMap((index) => [
          column(`va_abs_${months[index]}`, t.actualAbs(label(index)), {
            kind: "variance",
            group,
            measure: "abs",
            index,
          }),
          column(`va_pct_${months[index]}`, t.actualPct(label(index)), {
            kind: "variance",
            group,
            measure: "pct",
            index,
          }),
        ]);
      default:
        return [];
    }
  });
}

function varianceOfRow(variance: VariancePayload | undefined, row: GridRow): VarianceFigures | undefined {
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

function varianceText(figures: VarianceFigures | undefined, meta: Extract<ColumnMeta, { kind: "variance" }>): string {
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
function VarianceToggles({
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
