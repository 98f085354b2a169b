import { useCallback, useMemo, useRef, useState } from "react";
import { formatPtBr2, roundTo2 } from "~/shared/numbers";
import {
  type AccountGroup,
  type AccountLine,
  type CellChange,
  changedCells,
  editedLines,
  type ForecastGridPayload,
  initialValues,
  sumValues,
} from "./forecast-grid-rules";
import { gridTexts } from "./grid-texts";

/**
 * The grid's edits: the values per account (a change replaces only its account's array, so only that row and the
 * totals render again), the undo steps, the cell being typed in, the notice under the toolbar and the open dialog;
 * editing, paste (grid-edit-keys.ts), mass change, restore and undo all go through one `apply` that records an undo step.
 */

/** A cell the last save refused because someone else changed it. */
export type ConflictMark = { account: string; month: string; current: number; text: string };
/** An account × month: the account's line and the month's position. */
export type Cell = { line: number; month: number };
export type CellValue = Cell & { value: number };
/** A position in the grid as drawn: row and column. */
export type Position = { row: number; column: number };
export type Editing = Position & { text: string; error: boolean };
export type Notice = { tone: "info" | "error"; text: string };
export type Values = (number | null)[][];
export type UndoStep = { line: number; month: number; before: number | null }[];
/** Marks the changes to save whose latest step was a spread (spread-dialog.tsx, loaded with the first spread). */
export type SpreadMarker = (
  pending: readonly CellChange[],
  steps: readonly { cells: UndoStep; spread: boolean }[],
  accounts: readonly { account: string }[],
  months: readonly string[],
) => CellChange[];

/**
 * The values, the stored ones they started from, and the undo steps. A new `loadedAt` (the reload after a save)
 * starts afresh from the stored values, in place: the same DOM, so the scroll position and the focused cell stay where
 * they were (remounting the grid sent it back to the first month). The rest of this render, which React throws away
 * for the new state, reads the new values too (the rows may have changed).
 */
function useUndoableValues(groups: readonly AccountGroup[], loadedAt: number | undefined) {
  let [original, setOriginal] = useState(() => initialValues(groups));
  let [values, setValuesState] = useState(() => initialValues(groups));
  // The values with every change made so far, rendered or not: changes and undo steps are computed from it (not in a
  // state updater, which React may call twice).
  const latest = useRef(values);
  const setValues = useCallback((next: Values) => {
    latest.current = next;
    setValuesState(next);
  }, []);
  const undo = useRef<UndoStep[]>([]);
  // The steps that were a "Distribuir total": a cell whose latest step is one is saved as distributed.
  const spreads = useRef(new WeakSet<UndoStep>());
  // How many undo steps there are, rendered: "Desfazer última" is disabled without one.
  const [undoDepth, setUndoDepth] = useState(0);
  const [loaded, setLoaded] = useState(loadedAt);
  const reloaded = loaded !== loadedAt;
  if (reloaded) {
    setLoaded(loadedAt);
    original = initialValues(groups);
    values = latest.current = initialValues(groups);
    setOriginal(original);
    setValuesState(values);
    undo.current = [];
    setUndoDepth(0);
  }

  /** Sets cells (rounded to cents) as one undo step (`spread`: a "Distribuir total"). */
  const apply = useCallback(
    (changes: readonly CellValue[], spread?: boolean) => {
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
      if (spread) spreads.current.add(step);
      setUndoDepth(undo.current.length);
      setValues(next);
    },
    [setValues],
  );

  /** The undo steps, oldest first, each with whether it was a spread. */
  const steps = () => undo.current.map((step) => ({ cells: step, spread: spreads.current.has(step) }));

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

  /** Back to the stored values, with no undo step left. */
  const restart = () => {
    undo.current = [];
    setUndoDepth(0);
    setValues(original.map((row) => row.slice()));
  };

  return {
    original,
    values,
    latest,
    undoDepth,
    reloaded,
    setOriginal,
    setValues,
    apply,
    undoLast,
    restart,
    steps,
  };
}

/** The cells of `conflicts` set to the value stored now (a line is copied once). */
function withStored(base: Values, cells: readonly (Cell & { current: number })[]): Values {
  const next = base.slice();
  for (const { line, month, current } of cells) {
    if (next[line] === base[line]) next[line] = base[line].slice();
    next[line][month] = current;
  }
  return next;
}

/** The conflicts' cells, by line and month position (those no longer in the grid are left out). */
function conflictCells(
  conflicts: readonly ConflictMark[],
  accounts: readonly AccountLine[],
  months: readonly string[],
): (Cell & { current: number })[] {
  const lineOf = new Map(accounts.map((a, i) => [a.account, i]));
  return conflicts.flatMap((c) => {
    const line = lineOf.get(c.account);
    const month = months.indexOf(c.month);
    return line === undefined || month < 0 ? [] : [{ line, month, current: c.current }];
  });
}

/** A mass change of one month: every value it takes (`change` gives null for one it leaves). */
function massChanges(values: Values, month: number, change: (value: number) => number | null): CellValue[] {
  const updates: CellValue[] = [];
  values.forEach((row, line) => {
    const before = row[month];
    const after = before === null ? null : change(before);
    if (after !== null) updates.push({ line, month, value: after });
  });
  return updates;
}

/** The cell being typed in, the notice under the toolbar and the open dialog: all closed by a reload. */
function useEditorState(reloaded: boolean) {
  let [editing, setEditing] = useState<Editing | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  let [massColumn, setMassColumn] = useState<number | null>(null);
  let [historyCell, setHistoryCell] = useState<Cell | null>(null);
  let [spreadLine, setSpreadLine] = useState<number | null>(null);
  if (reloaded) {
    editing = massColumn = historyCell = spreadLine = null;
    setEditing(null);
    setNotice(null);
    setMassColumn(null);
    setHistoryCell(null);
    setSpreadLine(null);
  }
  return {
    ...{ editing, setEditing, notice, setNotice, massColumn, setMassColumn, historyCell, setHistoryCell },
    ...{ spreadLine, setSpreadLine },
  };
}

export type ForecastEditsInput = {
  payload: ForecastGridPayload;
  accounts: readonly AccountLine[];
  loadedAt: number | undefined;
  /** The grid may be edited in this browser now. */
  editable: boolean;
  conflicts: readonly ConflictMark[];
  onConflictsResolved: () => void;
};

export function useForecastEdits(input: ForecastEditsInput) {
  const { groups, months, firstForecastIndex } = input.payload;
  const v = useUndoableValues(groups, input.loadedAt);
  const ui = useEditorState(v.reloaded);
  const { original, values, latest, apply } = v;
  const { setEditing, setNotice } = ui;
  const sums = useMemo(() => sumValues(groups, values, months.length), [groups, values, months.length]);
  const edited = useMemo(() => editedLines(original, values), [original, values]);
  const pending = useMemo(() => changedCells(groups, months, original, values), [groups, months, original, values]);

  const undoAll = () => {
    v.restart();
    setEditing(null);
    setNotice(null);
  };

  const applyMassChange = (month: number, change: (value: number) => number | null) => {
    const updates = massChanges(latest.current, month, change);
    apply(updates);
    ui.setMassColumn(null);
    setNotice({ tone: "info", text: gridTexts.massChanged(updates.length) });
  };

  /** "Distribuir total" in the grid: one undo step, its cells saved as distributed (`mark`). */
  const marker = useRef<SpreadMarker | null>(null);
  const applySpread = (changes: readonly CellValue[], notice: string, mark: SpreadMarker) => {
    marker.current = mark;
    apply(changes, true);
    ui.setSpreadLine(null);
    setNotice({ tone: "info", text: notice });
  };

  /** The changes to save (after a spread, its cells marked: their history says "distribuído"). */
  const toSave = () => (marker.current ? marker.current(pending, v.steps(), input.accounts, months) : pending);

  /** After a refused save: either keep this user's values (the next save overwrites knowingly) or take the stored ones. */
  const resolveConflicts = (mode: "keepMine" | "useCurrent") => {
    const cells = conflictCells(input.conflicts, input.accounts, months);
    v.setOriginal(withStored(original, cells));
    if (mode === "useCurrent") v.setValues(withStored(latest.current, cells));
    input.onConflictsResolved();
  };

  /** A cell's earlier value may be restored when the cell may change now (the server checks again when it is saved). */
  const restorable = (cell: Cell) =>
    input.editable && cell.month >= firstForecastIndex && values[cell.line][cell.month] !== null;

  /** "Restaurar" in the cell's history: an ordinary edit of the cell (one undo step, saved with the others). */
  const restoreValue = (cell: Cell, value: number) => {
    ui.setHistoryCell(null);
    if (!restorable(cell)) return;
    apply([{ ...cell, value }]);
    setNotice({ tone: "info", text: gridTexts.restored(formatPtBr2(value)) });
  };

  return {
    ...ui,
    original,
    values,
    latest,
    sums,
    edited,
    pending,
    undoDepth: v.undoDepth,
    apply,
    undoLast: v.undoLast,
    undoAll,
    applyMassChange,
    applySpread,
    toSave,
    resolveConflicts,
    restorable,
    restoreValue,
  };
}

export type ForecastEdits = ReturnType<typeof useForecastEdits>;
