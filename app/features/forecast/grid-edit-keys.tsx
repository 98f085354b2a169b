import { type KeyboardEvent, useEffect, useRef } from "react";
import { formatPtBr2, parsePtBrNumber, roundTo2 } from "~/shared/numbers";
import { gridEditTexts } from "./edit-texts";
import type { CancelEdit, CommitEdit } from "./forecast-cell";
import { cellElement, type GridEditContext, type GridState, revealCell } from "./grid-dom";
import { PASTE_MAX_CELLS, planPaste, readPastedBlock } from "./grid-paste";
import type { Cell, CellValue, Editing, Position } from "./use-forecast-edits";

/**
 * What the grid's keys, double click and paste do, and the input of the cell being typed in (use-grid-keyboard.ts keeps
 * the focus and the state): loaded once the grid is in a browser, since only there may it be edited (without JavaScript
 * it is read-only).
 */

const PAGE_ROWS = 10;
const MOVES: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** The account × month a visual position holds, when the user may change it. */
function editableCellOf(s: GridState, row: number, column: number): Cell | null {
  const gridRow = s.rows[row];
  const meta = s.columns[column]?.meta;
  if (!s.editable || gridRow?.type !== "row" || meta?.kind !== "month" || meta.index < s.firstForecastIndex)
    return null;
  if (s.values[gridRow.line][meta.index] === null) return null;
  return { line: gridRow.line, month: meta.index };
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

/** Opens the editor of the cell at (row, column) when it may change (`text`: a first key typed over it). */
export function startEditing(g: GridEditContext, row: number, column: number, text?: string): boolean {
  const cell = editableCellOf(g.state.current, row, column);
  if (!cell) return false;
  const current = g.edits.latest.current[cell.line][cell.month];
  g.edits.setEditing({ row, column, text: text ?? (current === null ? "" : formatPtBr2(current)), error: false });
  // A cell double-tapped half under the pinned columns opens fully beside them.
  requestAnimationFrame(() => {
    const element = cellElement(g.scroller.current, row, column);
    if (element) revealCell(g.scroller.current, element);
  });
  return true;
}

/** Enter, F2, Delete, Ctrl+Z and a digit on a cell at `at`. */
function onEditKey(event: KeyboardEvent, at: Position, g: GridEditContext) {
  const { row, column } = at;
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (key === "Enter" || key === "F2") {
    event.preventDefault();
    if (!startEditing(g, row, column) && key === "Enter") g.focusCell(row + 1, column);
  } else if (key === "Delete" || key === "Backspace") {
    const cell = editableCellOf(g.state.current, row, column);
    if (cell) {
      event.preventDefault();
      g.edits.apply([{ ...cell, value: 0 }]);
    }
  } else if (ctrl && key.toLowerCase() === "z") {
    event.preventDefault();
    g.edits.undoLast();
  } else if (key.length === 1 && !ctrl && !event.altKey && /[\d,.\-+(]/.test(key)) {
    if (startEditing(g, row, column, key)) event.preventDefault();
  }
}

/** A key on the cell at `at` (not in its editor): moves the focus, or edits. */
export function onKeyDown(g: GridEditContext, event: KeyboardEvent, at: Position) {
  const target = navigationTarget(event, at, g.state.current);
  if (target === "out") return; // Tab leaves the grid
  if (!target) return onEditKey(event, at, g);
  event.preventDefault();
  g.focusCell(target.row, target.column);
}

/** Reads the editor's text; a valid number (empty = 0) is stored and the focus moves by (dRow, dColumn). */
export function commit(g: GridEditContext, text: string, move: [number, number] | null) {
  const s = g.state.current;
  const { setEditing, setNotice } = g.edits;
  if (!s.editing) return;
  const { row, column } = s.editing;
  const parsed = parsePtBrNumber(text);
  if (!parsed.ok) {
    setEditing({ ...s.editing, text, error: true });
    setNotice({ tone: "error", text: gridEditTexts.invalidNumber });
    return;
  }
  const cell = editableCellOf(s, row, column);
  if (cell && g.edits.latest.current[cell.line][cell.month] !== roundTo2(parsed.value))
    g.edits.apply([{ ...cell, value: parsed.value }]);
  setEditing(null);
  setNotice(null);
  // Enter and Tab move on; leaving the cell with the mouse leaves the focus where the user put it.
  if (move) requestAnimationFrame(() => g.focusCell(row + move[0], column + move[1]));
}

/** Escape drops the text and returns to the cell; leaving with text that is not a number drops it with a message. */
export function cancelEditing(g: GridEditContext, reason: "escape" | "invalid") {
  const s = g.state.current;
  const { setEditing, setNotice } = g.edits;
  if (!s.editing) return;
  const { row, column } = s.editing;
  setEditing(null);
  if (reason === "invalid") {
    setNotice({ tone: "error", text: gridEditTexts.invalidNumber });
    return;
  }
  setNotice(null);
  requestAnimationFrame(() => g.focusCell(row, column));
}

/** What a pasted block changes: the cells from `start` that may change, or why nothing does. */
function pasteChanges(
  text: string,
  start: Position,
  s: GridState,
): { ok: true; changes: CellValue[]; notice: string } | { ok: false; notice: string } {
  const block = readPastedBlock(text);
  if (!block.ok) {
    return {
      ok: false,
      notice:
        block.reason === "tooLarge"
          ? gridEditTexts.pasteTooLarge(PASTE_MAX_CELLS)
          : gridEditTexts.pasteNotNumber(block.text, block.line, block.column),
    };
  }
  const size = { rows: s.rows.length, columns: s.columns.length };
  const plan = planPaste(block.values, start, size, (r, c) => editableCellOf(s, r, c) !== null);
  return {
    ok: true,
    changes: plan.targets.map((t) => ({ ...(editableCellOf(s, t.row, t.column) as Cell), value: t.value })),
    notice: gridEditTexts.pasted(plan.targets.length, plan.skipped, plan.outside),
  };
}

/** A block pasted at `start` (null: not on a cell), saying what was taken. */
export function paste(g: GridEditContext, text: string, start: Position | null) {
  const { setEditing, setNotice } = g.edits;
  if (!start) return setNotice({ tone: "error", text: gridEditTexts.pasteNoCell });
  setEditing(null);
  const result = pasteChanges(text, start, g.state.current);
  if (result.ok) g.edits.apply(result.changes);
  setNotice({ tone: result.ok ? "info" : "error", text: result.notice });
}

/** The text input of a cell being edited: Enter and Tab commit and move on, Escape drops, leaving keeps a number. */
function CellEditor({
  editing,
  label,
  onCommit,
  onCancel,
}: {
  editing: Editing;
  label: string;
  onCommit: CommitEdit;
  onCancel: CancelEdit;
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

/** The editor of the cell being typed in (forecast-cell.tsx draws it in the cell). */
export function cellEditor(editing: Editing, label: string, onCommit: CommitEdit, onCancel: CancelEdit) {
  return <CellEditor editing={editing} label={label} onCommit={onCommit} onCancel={onCancel} />;
}
