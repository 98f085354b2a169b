import { linkedCell } from "~/shared/cell-link";
import { monthLabel, parseMonthKey } from "~/shared/months";
import { cellHistoryReply, type HistoryReply } from "./cell-history.server";
import { gridDialogTexts as t } from "./dialog-texts";
import type { ForecastGridPayload } from "./forecast-grid-rules";
import type { Review } from "./review.server";

/**
 * The review grid opened at a cell: `?celula=<account>:<YYYY-MM>` (a thread's "Voltar", an audit entry's "Abrir",
 * with `&historico=1` for its history) or `?conta=&mes=` (the links of comments' notices sent before). The grid gives
 * that cell the fragment's id, scrolls to it and focuses it; with its history asked for, the page shows the history
 * (in the grid's dialog, or under the grid without JavaScript).
 */

export type OpenedCell = { account: string; month: string; history: boolean };

/** The cell a link names, marked on the payload for the grid to open on; null when it names no cell of the grid. */
export function openOnCell(grid: ForecastGridPayload, params: URLSearchParams): OpenedCell | null {
  const linked = linkedCell(params);
  const account = linked?.key ?? params.get("conta");
  const month = linked?.month ?? params.get("mes");
  if (!account || !month) return null;
  const line = grid.groups.flatMap((g) => g.accounts).findIndex((a) => a.account === account);
  const at = grid.months.indexOf(month);
  if (line < 0 || at < 0) return null;
  const history = linked?.history === true;
  grid.focus = { line, month: at, history };
  return { account, month, history };
}

/** The history a page shows without JavaScript: its rows, and its words (so the grid's script carries none of them). */
export type OpenedHistory = Pick<Extract<HistoryReply, { ok: true }>, "entries"> & {
  title: string;
  /** The columns' names: when, who, the value before, the value after. */
  columns: [string, string, string, string];
  empty: string;
};

/** The history of the cell a link opens with its history (for the page without JavaScript); null otherwise. */
export async function openedCellHistory(review: Review, opened: OpenedCell | null): Promise<OpenedHistory | null> {
  if (!opened?.history) return null;
  const { body } = await cellHistoryReply(review, opened.account, opened.month);
  if (!body.ok) return null;
  return {
    entries: body.entries,
    title: t.historyTitle(opened.account, monthLabel(parseMonthKey(opened.month) ?? 0)),
    columns: [t.historyWhen, t.historyWho, t.historyOld, t.historyNew],
    empty: t.historyEmpty,
  };
}
