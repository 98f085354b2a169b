import { messages } from "~/messages";
import { cellExists, cellHistory } from "~/models/forecast.server";
import { formatDateTime } from "~/shared/dates";
import { monthLabel, monthStartDate, parseMonthKey } from "~/shared/months";
import { formatPtBr2 } from "~/shared/numbers";
import { inWindow } from "./release-points";
import type { Review } from "./review.server";
import { forecastTexts } from "./texts";

/**
 * A review cell's history (who changed it, when, from which value to which): the grid's "Histórico da célula" reads
 * it as JSON (the review's history route), and the page opened at a cell's history without JavaScript shows it.
 * The routes resolve the review first (its read rule).
 */

export type HistoryReply =
  | { ok: true; entries: { when: string; who: string; old: string; new: string; oldValue: number }[] }
  | { ok: false; message: string };

/**
 * One cell's changes in the review's window, newest first (the dialog's JSON and the page without JavaScript alike);
 * a request that names no cell of the window is refused.
 */
export async function cellHistoryReply(
  review: Review,
  account: string,
  monthText: string,
): Promise<{ status: 200 | 400 | 404; body: HistoryReply }> {
  const month = parseMonthKey(monthText);
  if (!account || account.length > 300 || month === null || !inWindow(review.calendar, month))
    return { status: 400, body: { ok: false, message: messages.badRequest } };
  const { calendar, costCenter } = review;
  const [exists, entries] = await Promise.all([
    cellExists(calendar.name, costCenter.cost_center_concat, account, monthStartDate(month)),
    cellHistory(calendar.name, costCenter.cost_center_concat, account, monthStartDate(month)),
  ]);
  if (!exists)
    return { status: 404, body: { ok: false, message: forecastTexts.cellMissing(account, monthLabel(month)) } };
  return {
    status: 200,
    body: {
      ok: true,
      entries: entries.map((e) => ({
        when: formatDateTime(e.at),
        who: `${e.name ? `${e.name} (${e.by})` : e.by}${e.via === "spread" ? ` · ${forecastTexts.spreadHistory}` : ""}`,
        old: formatPtBr2(e.old),
        new: formatPtBr2(e.new),
        oldValue: e.old,
      })),
    },
  };
}

/** One cell's changes, newest first: `?account=<account_concat>&month=YYYY-MM` of the review's window. */
export async function reviewHistory(url: URL, review: Review): Promise<Response> {
  const { status, body } = await cellHistoryReply(
    review,
    url.searchParams.get("account") ?? "",
    url.searchParams.get("month") ?? "",
  );
  return Response.json(body, { status, headers: { "Cache-Control": "private, no-store" } });
}
