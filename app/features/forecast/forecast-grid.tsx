import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useNonce } from "~/shared/ui/nonce";
import { useHydrated } from "~/shared/ui/use-hydrated";
import {
  type ColumnPinningState,
  type ColumnView,
  GridHeader,
  useForecastColumns,
  WIDTH_VARIABLES,
} from "./forecast-columns";
import {
  type AccountLine,
  type CellChange,
  type ForecastGridPayload,
  type GridRow,
  gridRows,
} from "./forecast-grid-rules";
import { GridBody } from "./forecast-row";
import type { OpenDialogsProps } from "./grid-dialogs";
import { firstEditableColumn, scrollScript } from "./grid-scroll";
import { gridTexts } from "./grid-texts";
import { type Cell, type ConflictMark, type ForecastEdits, useForecastEdits } from "./use-forecast-edits";
import { useGridKeyboard } from "./use-grid-keyboard";
import { VarianceNote, VarianceToggles } from "./variance-columns";

export { INITIAL_PINNING } from "./forecast-columns";
export type { ConflictMark } from "./use-forecast-edits";

// The grid's dialogs and its comments panel open only on request: their code loads with the first one.
const OpenDialogs = lazy(() => import("./grid-dialogs").then((m) => ({ default: m.OpenDialogs })));
const CommentsPanel = lazy(() => import("./comments-panel"));
// The toolbar and the edits' notices exist only in a browser running the page (hydrated): no server HTML waits on them.
const GridToolbar = lazy(() => import("./grid-toolbar").then((m) => ({ default: m.GridToolbar })));
const GridNotices = lazy(() => import("./grid-toolbar").then((m) => ({ default: m.GridNotices })));

/**
 * The forecast review grid (spec 001 §2–§5), its columns and their pinning in forecast-columns.tsx: one
 * row per group header, account, group total and the cost centre's total (forecast-row.tsx); only account rows ×
 * forecast columns change, and only when the payload says the grid is open. The values, undo steps and notices are in
 * use-forecast-edits.ts; focus, keys and paste in use-grid-keyboard.ts.
 */

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
  /** "Distribuir total" (the page whose preview the grid's dialog reads), for an editable grid. */
  spreadUrl?: string;
  /**
   * A cell's comments (their own page, for a browser without JavaScript): with it, Shift+F2, the toolbar and the
   * history dialog open them in a panel beside the grid.
   */
  commentsUrl?: (account: string, month: string) => string;
  /** Told how many changed cells are not saved yet. */
  onPendingChange?: (count: number) => void;
  /** Pinned columns, kept by the page so a reload after saving keeps them. */
  columnPinning: ColumnPinningState;
  onColumnPinningChange: (pinning: ColumnPinningState) => void;
};

export function ForecastGrid(props: ForecastGridProps) {
  const { payload, loadedAt, showKeyboardHelp = true, saveDialogOpen = false, caption, conflicts } = props;
  const { saving, onSave, onPendingChange, onConflictsResolved } = props;
  const hydrated = useHydrated();
  const editable = payload.editable && hydrated;
  const { months, groups, firstForecastIndex, variance } = payload;
  const rows = useMemo(() => gridRows(groups), [groups]);
  const accounts = useMemo(() => groups.flatMap((g) => g.accounts), [groups]);
  const edits = useForecastEdits({ payload, accounts, loadedAt, editable, conflicts, onConflictsResolved });
  const { columns, onPin } = useForecastColumns(payload, props.columnPinning, props.onColumnPinningChange);
  const { values, editing, pending } = edits;
  const { commentsUrl } = props;
  const comments = useCommentsPanel(accounts, commentsUrl !== undefined);
  const onComments = commentsUrl
    ? (cell: Cell) => {
        edits.setHistoryCell(null);
        comments.open(cell);
      }
    : undefined;
  const keys = useGridKeyboard({
    ...{ rows, columns, values, editable, editing, firstForecastIndex, edits, saveDialogOpen },
    onComments,
    startAt: payload.focus,
    startColumn: firstEditableColumn(payload),
  });

  // The page asks before leaving with unsaved changes.
  useEffect(() => onPendingChange?.(pending.length), [pending.length, onPendingChange]);
  // A cell's history closed: the focus goes back to the cell (the dialog has no trigger to give it to), unless the
  // comments panel took it.
  const { historyCell } = edits;
  const { focusAccountMonth } = keys;
  const shownHistory = useRef(historyCell);
  useEffect(() => {
    const closed = shownHistory.current;
    shownHistory.current = historyCell;
    if (closed && !historyCell && !comments.cell) requestAnimationFrame(() => focusAccountMonth(closed));
  }, [historyCell, comments.cell, focusAccountMonth]);
  // Opened at a cell's history (an audit entry's link): its dialog, once the cell has the focus.
  const { setHistoryCell } = edits;
  const [openedHistory] = useState(payload.focus?.history ? payload.focus : null);
  useEffect(() => {
    if (openedHistory) setHistoryCell({ line: openedHistory.line, month: openedHistory.month });
  }, [openedHistory, setHistoryCell]);

  /** Changing the variance columns reloads the grid from the stored values: not over unsaved changes. */
  const onVarianceSubmit = (event: { preventDefault: () => void }) => {
    if (pending.length === 0) return;
    event.preventDefault();
    edits.setNotice({ tone: "error", text: gridTexts.variance.pendingFirst });
  };

  return (
    <div className="forecast-grid">
      <VarianceToggles
        shown={variance?.columns ?? []}
        versions={payload.versionChoices}
        version={variance?.version?.id}
        onSubmit={onVarianceSubmit}
      />
      <VarianceNote variance={variance} />
      {hydrated ? (
        <Suspense fallback={null}>
          <GridToolbar
            editable={editable}
            hydrated={hydrated}
            caption={caption}
            pending={pending.length}
            saving={saving}
            undoDepth={edits.undoDepth}
            historyOn={keys.activeCell !== null}
            onSave={() => {
              keys.rememberFocus();
              onSave(edits.toSave());
            }}
            onUndoAll={edits.undoAll}
            onUndoLast={edits.undoLast}
            onHistory={() => edits.setHistoryCell(keys.activeCell)}
            onComments={
              onComments && keys.activeCell ? () => keys.activeCell && onComments(keys.activeCell) : undefined
            }
            onSpread={
              props.spreadUrl && keys.activeCell ? () => edits.setSpreadLine(keys.activeCell?.line ?? null) : undefined
            }
          />
        </Suspense>
      ) : null}
      {editable && showKeyboardHelp ? <p className="forecast-grid__help">{gridTexts.keyboardHelp}</p> : null}
      {hydrated ? (
        <Suspense fallback={null}>
          <GridNotices notice={edits.notice} conflicts={conflicts} onResolve={edits.resolveConflicts} />
        </Suspense>
      ) : null}
      <div className={comments.cell ? "forecast-grid__main has-panel" : "forecast-grid__main"}>
        <GridTable
          caption={caption}
          payload={payload}
          editable={editable}
          hydrated={hydrated}
          rowCount={rows.length}
          columns={columns}
          rows={rows}
          onPin={onPin}
          accounts={comments.accounts}
          conflicts={conflicts}
          edits={edits}
          keys={keys}
        />
        {comments.cell && commentsUrl ? (
          <Suspense fallback={null}>
            <CommentsPanel
              url={commentsUrl(accounts[comments.cell.line].account, months[comments.cell.month])}
              onPosted={comments.posted}
              onClose={() => {
                const cell = comments.cell;
                comments.close();
                if (cell) requestAnimationFrame(() => keys.focusAccountMonth(cell));
              }}
            />
          </Suspense>
        ) : null}
      </div>
      <GridDialogs
        edits={edits}
        accounts={accounts}
        months={months}
        historyUrl={props.historyUrl}
        commentsUrl={commentsUrl}
        onOpenComments={onComments}
        spreadUrl={props.spreadUrl}
      />
    </div>
  );
}

/**
 * The cell whose comments the side panel shows, and the cells commented from it since the grid loaded (marked at once:
 * a comment posted there does not reload the grid, whose unsaved changes stay).
 */
function useCommentsPanel(accounts: readonly AccountLine[], enabled: boolean) {
  const [cell, setCell] = useState<Cell | null>(null);
  const [commented, setCommented] = useState<readonly Cell[]>([]);
  const marked = useMemo(() => {
    if (commented.length === 0) return accounts;
    return accounts.map((account, line) => {
      const added = commented.filter((c) => c.line === line && !account.comments?.includes(c.month));
      return added.length === 0
        ? account
        : { ...account, comments: [...(account.comments ?? []), ...added.map((c) => c.month)] };
    });
  }, [accounts, commented]);
  return {
    cell: enabled ? cell : null,
    accounts: marked,
    open: setCell,
    close: () => setCell(null),
    posted: () => {
      if (cell) setCommented((list) => [...list, cell]);
    },
  };
}

/** The scroll region (the keys' handlers are on it) and the ARIA grid in it: the header row and the body. */
function GridTable({
  caption,
  payload,
  editable,
  hydrated,
  rowCount,
  columns,
  rows,
  onPin,
  accounts,
  conflicts,
  edits,
  keys,
}: {
  caption: string;
  payload: ForecastGridPayload;
  editable: boolean;
  hydrated: boolean;
  rowCount: number;
  columns: ColumnView[];
  rows: readonly GridRow[];
  onPin: (column: ColumnView) => void;
  accounts: readonly AccountLine[];
  conflicts: readonly ConflictMark[];
  edits: ForecastEdits;
  keys: ReturnType<typeof useGridKeyboard>;
}) {
  const nonce = useNonce();
  // Opened at a cell, the browser scrolls to it (the link's fragment); else the page's script shows the first
  // editable month (grid-scroll.ts).
  const startColumn = payload.focus ? null : firstEditableColumn(payload);
  return (
    <>
      <div
        ref={keys.scroller}
        className="forecast-grid__scroll scroll-area"
        style={{ maxHeight: payload.editable ? EDIT_HEIGHT : READ_HEIGHT }}
        tabIndex={0}
        role="region"
        aria-label={caption}
        {...keys.handlers}
      >
        <div
          className="forecast-grid__table"
          role="grid"
          aria-label={caption}
          aria-readonly={!editable}
          aria-rowcount={rowCount + 1}
          aria-colcount={columns.length}
          style={{ width: columns.reduce((w, c) => w + c.width, 0), ...WIDTH_VARIABLES }}
        >
          <GridHeader
            columns={columns}
            onPin={onPin}
            hydrated={hydrated}
            massChange={(c) => editable && c.meta.kind === "month" && c.meta.index >= payload.firstForecastIndex}
            onMassChange={edits.setMassColumn}
          />
          <GridBody
            rows={rows}
            columns={columns}
            payload={payload}
            accounts={accounts}
            gridReadOnly={!editable}
            conflicts={conflicts}
            edits={edits}
            editor={keys.editor}
          />
        </div>
      </div>
      {startColumn ? (
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script and a month column's id (grid-scroll.ts)
          dangerouslySetInnerHTML={{ __html: scrollScript(startColumn) }}
        />
      ) : null}
    </>
  );
}

/**
 * The mass change, the cell's history and "Distribuir total" (their code loads with the first one opened). A boundary
 * only while a dialog is open: one rendered empty on the server hydrates after the grid, and an update of the grid
 * meanwhile reaches it first (React error 421, "received an update before it finished hydrating"; seen in
 * grid-layout.e2e.ts).
 */
function GridDialogs(props: OpenDialogsProps) {
  const { massColumn, historyCell, spreadLine } = props.edits;
  if (massColumn === null && !historyCell && spreadLine === null) return null;
  return (
    <Suspense fallback={null}>
      <OpenDialogs {...props} />
    </Suspense>
  );
}
