import { monthLabel, parseMonthKey } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";
import { gridEditTexts } from "./edit-texts";
import { gridTexts } from "./grid-texts";
import type { ConflictMark, Notice } from "./use-forecast-edits";

/** Above the grid: its buttons (save, undo, history), the keyboard help, the last notice and a refused save's cells. */

export function GridToolbar({
  editable,
  hydrated,
  caption,
  pending,
  saving,
  undoDepth,
  historyOn,
  onSave,
  onUndoAll,
  onUndoLast,
  onHistory,
  onComments,
  onSpread,
}: {
  /** The grid may be edited in this browser now; else (once hydrated) only the history is offered. */
  editable: boolean;
  hydrated: boolean;
  caption: string;
  /** Changed cells not saved yet. */
  pending: number;
  saving: boolean;
  undoDepth: number;
  /** An account's month is active: its history can be shown. */
  historyOn: boolean;
  onSave: () => void;
  onUndoAll: () => void;
  onUndoLast: () => void;
  onHistory: () => void;
  /** The active cell's comments, when there is one. */
  onComments?: () => void;
  /** "Distribuir total" from the active row, when there is one. */
  onSpread?: () => void;
}) {
  const history = (
    <>
      <button type="button" className="button button--secondary" disabled={!historyOn} onClick={onHistory}>
        {gridEditTexts.history}
      </button>
      <button type="button" className="button button--secondary" disabled={!onComments} onClick={onComments}>
        {gridTexts.comments}
      </button>
    </>
  );
  if (!editable) return hydrated ? <div className="forecast-grid__toolbar">{history}</div> : null;
  return (
    <div className="forecast-grid__toolbar" role="toolbar" aria-label={caption}>
      <button type="button" className="button button--primary" disabled={pending === 0 || saving} onClick={onSave}>
        {pending > 0 ? gridEditTexts.saveCount(pending) : gridEditTexts.save}
      </button>
      <button type="button" className="button button--secondary" disabled={pending === 0 || saving} onClick={onUndoAll}>
        {gridEditTexts.undoAll}
      </button>
      <button
        type="button"
        className="button button--secondary"
        disabled={saving || undoDepth === 0}
        onClick={onUndoLast}
      >
        {gridEditTexts.undoLast}
      </button>
      <button type="button" className="button button--secondary" disabled={!onSpread || saving} onClick={onSpread}>
        {gridEditTexts.spread}
      </button>
      {history}
      <span className="forecast-grid__pending" aria-live="polite">
        {pending > 0 ? gridEditTexts.pending(pending) : gridEditTexts.noPending}
      </span>
    </div>
  );
}

/** The last notice (a paste, a mass change, an invalid number), and the cells a save refused with the two ways out. */
export function GridNotices({
  notice,
  conflicts,
  onResolve,
}: {
  notice: Notice | null;
  conflicts: readonly ConflictMark[];
  onResolve: (mode: "keepMine" | "useCurrent") => void;
}) {
  return (
    <>
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
              <button type="button" className="button button--secondary" onClick={() => onResolve("useCurrent")}>
                {gridEditTexts.useCurrent}
              </button>
              <button type="button" className="button button--secondary" onClick={() => onResolve("keepMine")}>
                {gridEditTexts.keepMine}
              </button>
            </div>
          </Alert>
        </div>
      ) : null}
    </>
  );
}
