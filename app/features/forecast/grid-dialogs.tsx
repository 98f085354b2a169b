import { Link } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { monthLabel, parseMonthKey } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";
import { Dialog } from "~/shared/ui/dialog";
import { uiTexts } from "~/shared/ui/texts";
import type { HistoryReply } from "./cell-history.server";
import { gridDialogTexts } from "./dialog-texts";
import { gridTexts } from "./grid-texts";
import { applyPercent, type Direction, readPercent, takesMassChange } from "./mass-change";
import { SpreadDialog } from "./spread-dialog";
import type { ForecastEdits } from "./use-forecast-edits";

/**
 * The mass column change (spec 001 §5): a percent and Aumentar or Diminuir, applied to the detail rows with a value in
 * the column, rounded to cents. `onApply` receives the change per value (null: the cell does not take it).
 */
export function MassChangeDialog({
  column,
  onClose,
  onApply,
}: {
  column: string;
  onClose: () => void;
  onApply: (change: (value: number) => number | null) => void;
}) {
  const id = useId();
  const [percent, setPercent] = useState("10");
  const [direction, setDirection] = useState<Direction>("increase");
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const read = readPercent(percent, direction);
    if (!read.ok) {
      setError(read.message);
      return;
    }
    onApply((value) => (takesMassChange(value) ? applyPercent(value, read.percent, direction) : null));
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={gridTexts.massChangeOf(column)}
      description={gridDialogTexts.massChangeDescription}
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {uiTexts.cancel}
          </button>
          <button type="submit" form={`${id}-form`} className="button button--primary">
            {gridDialogTexts.apply}
          </button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        className="forecast-mass"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-percent`}>{gridDialogTexts.percentLabel}</label>
          <input
            id={`${id}-percent`}
            value={percent}
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setPercent(event.target.value);
              setError(null);
            }}
          />
          {error ? (
            <span id={`${id}-error`} className="field__error">
              {error}
            </span>
          ) : null}
        </div>
        <fieldset className="forecast-mass__direction">
          <legend>{gridDialogTexts.directionLabel}</legend>
          {(["increase", "decrease"] as const).map((d) => (
            <label key={d}>
              <input
                type="radio"
                name="direction"
                value={d}
                checked={direction === d}
                onChange={() => setDirection(d)}
              />
              {d === "increase" ? uiTexts.increase : uiTexts.decrease}
            </label>
          ))}
        </fieldset>
      </form>
    </Dialog>
  );
}

type HistoryState =
  | { kind: "loading" }
  | { kind: "failed"; message: string }
  | { kind: "loaded"; entries: Extract<HistoryReply, { ok: true }>["entries"] };

/**
 * A cell's saved changes (who, when, old, new), newest first, read from the review's history resource route. With
 * `onRestore` (the cell may change now) each earlier value has "Restaurar", which hands it to the grid as an edit.
 */
export function CellHistoryDialog({
  account,
  month,
  url,
  current,
  onRestore,
  onClose,
  commentsUrl,
  onOpenComments,
}: {
  account: string;
  month: string;
  url: string;
  /** The cell's comments (their own page). */
  commentsUrl?: string;
  /** The cell's value on screen: restoring it again would change nothing. */
  current: number | null;
  onRestore?: (value: number) => void;
  onClose: () => void;
  /** Opens the cell's comments beside the grid (the link's page is for a new tab, or without JavaScript). */
  onOpenComments?: () => void;
}) {
  const [state, setState] = useState<HistoryState>({ kind: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    fetch(url, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then(async (response) => {
        const body = (await response.json()) as HistoryReply;
        setState(body.ok ? { kind: "loaded", entries: body.entries } : { kind: "failed", message: body.message });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ kind: "failed", message: gridDialogTexts.historyFailed });
        return error;
      });
    return () => controller.abort();
  }, [url]);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={gridDialogTexts.historyTitle(account, month)}>
      {state.kind === "loading" ? <p>{gridDialogTexts.historyLoading}</p> : null}
      {state.kind === "failed" ? <Alert tone="error">{state.message}</Alert> : null}
      {state.kind === "loaded" && state.entries.length === 0 ? <p>{gridDialogTexts.historyEmpty}</p> : null}
      {state.kind === "loaded" && state.entries.length > 0 ? (
        <table className="forecast-history">
          <thead>
            <tr>
              <th scope="col">{gridDialogTexts.historyWhen}</th>
              <th scope="col">{gridDialogTexts.historyWho}</th>
              <th scope="col">{gridDialogTexts.historyOld}</th>
              <th scope="col">{gridDialogTexts.historyNew}</th>
              {onRestore ? (
                <th scope="col">
                  <span className="visually-hidden">{gridDialogTexts.restore}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {state.entries.map((e, i) => (
              <tr key={i}>
                <td>{e.when}</td>
                <td>{e.who}</td>
                <td className="forecast-history__number">{e.old}</td>
                <td className="forecast-history__number">{e.new}</td>
                {onRestore ? (
                  <td>
                    <button
                      type="button"
                      className="button button--secondary forecast-history__restore"
                      aria-label={gridDialogTexts.restoreOf(e.old)}
                      disabled={e.oldValue === current}
                      onClick={() => onRestore(e.oldValue)}
                    >
                      {gridDialogTexts.restore}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {commentsUrl ? (
        <p>
          <Link
            to={commentsUrl}
            onClick={(event) => {
              if (!onOpenComments || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              onOpenComments();
            }}
          >
            {gridDialogTexts.historyComments}
          </Link>
        </p>
      ) : null}
    </Dialog>
  );
}

export type OpenDialogsProps = {
  edits: ForecastEdits;
  accounts: readonly { account: string }[];
  months: readonly string[];
  historyUrl: (account: string, month: string) => string;
  commentsUrl?: (account: string, month: string) => string;
  /** A cell's comments in the panel beside the grid. */
  onOpenComments?: (cell: { line: number; month: number }) => void;
  spreadUrl?: string;
};

/** The grid's open dialog: the mass change of a month, a cell's history, or "Distribuir total" from a row. */
export function OpenDialogs(props: OpenDialogsProps) {
  const { edits, accounts, months, historyUrl, commentsUrl, onOpenComments, spreadUrl } = props;
  const { massColumn, historyCell, spreadLine } = edits;
  const label = (month: number) => monthLabel(parseMonthKey(months[month]) ?? 0);
  return (
    <>
      {massColumn !== null ? (
        <MassChangeDialog
          column={label(massColumn)}
          onClose={() => edits.setMassColumn(null)}
          onApply={(change) => edits.applyMassChange(massColumn, change)}
        />
      ) : null}
      {historyCell ? (
        <CellHistoryDialog
          account={accounts[historyCell.line].account}
          month={label(historyCell.month)}
          url={historyUrl(accounts[historyCell.line].account, months[historyCell.month])}
          commentsUrl={commentsUrl?.(accounts[historyCell.line].account, months[historyCell.month])}
          current={edits.values[historyCell.line][historyCell.month]}
          onRestore={edits.restorable(historyCell) ? (value) => edits.restoreValue(historyCell, value) : undefined}
          onClose={() => edits.setHistoryCell(null)}
          onOpenComments={onOpenComments ? () => onOpenComments(historyCell) : undefined}
        />
      ) : null}
      {spreadLine !== null && spreadUrl ? (
        <SpreadDialog
          url={spreadUrl}
          accounts={accounts}
          months={months}
          line={spreadLine}
          onClose={() => edits.setSpreadLine(null)}
          onApply={edits.applySpread}
        />
      ) : null}
    </>
  );
}
