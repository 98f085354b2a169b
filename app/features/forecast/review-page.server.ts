// Screen: Forecast review grid: /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}.
import { data } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { canWriteRoute } from "~/platform/auth/auth.server";
import { excelPanelState } from "~/platform/import/returned-file-jobs.server";
import { portalToday } from "~/shared/clock.server";
import type { ExcelPanelData } from "~/shared/excel/panel";
import { readLimitedText } from "~/shared/request-body.server";
import { cellHistoryHtml } from "./cell-history-noscript.server";
import { markCommentedCells } from "./comments.server";
import { markChangedCells } from "./cycle/changes.server";
import { CYCLE_ACTION, loadCycle } from "./cycle/cycle.server";
import { cycleAnswerTexts } from "./cycle/server-texts";
import { FORECAST_DATASET } from "./excel.server";
import { filterPath, reviewPath } from "./forecast-filter";
import { openedCellHistory, openOnCell } from "./open-cell.server";
import { loadReviewGrid, reviewRefusal, startReview } from "./review.server";
import { reviewPageTexts, reviewStateNotice } from "./review-page-texts";
import { parseVarianceColumns } from "./variance";
import { compareReviewWithVersion } from "./versions/review-variance.server";

/**
 * The review grid's page as its loader answers it (app/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.tsx),
 * and the cycle form its action reads: the route keeps its guard, its POSTs and its screen.
 */

/** A cycle action's form: an intent and a comment of at most a few thousand characters. */
const CYCLE_FORM_MAX_BYTES = 64 * 1024;

export async function loadReviewPage(request: Request, params: Params, user: AuthenticatedUser) {
  const start = startReview(params, user);
  if (!start.ok) return notFound(start.message, params);
  const today = portalToday();
  const canWrite = canWriteRoute(user, "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat");
  const url = new URL(request.url);
  // Every read of the page starts in this turn, the cost centre's record and the read rule's among them, so that they
  // reach the database as one command (app/models/reads-together.server.ts); a cost centre without records is a 404
  // all the same, one the user may not read the portal's 403: nothing else read is answered.
  const reading = loadReviewGrid(start.review, today, canWrite, parseVarianceColumns(url.searchParams));
  const grid = reading.then((r) => r.grid);
  const [found, review, excelState, { view: cycle, changedCells }] = await Promise.all([
    start.found,
    reading,
    excelPanelState(url.searchParams, user.email, FORECAST_DATASET),
    loadCycle(start.review, user, today),
    // "vs versão": the saved versions offered, and the grid against the one asked for (`?versao=`); the cells
    // with comments.
    compareReviewWithVersion(grid, start.review, url.searchParams),
    markCommentedCells(grid, start.review),
  ]);
  if (!found.ok && found.status === 403) throw reviewRefusal(found);
  if (!found.ok) return notFound(found.message, params);
  review.costCenter = found.costCenter;
  // The cells changed since the last submission, marked.
  markChangedCells(review.grid, changedCells);
  // The cell a link opens the grid on (a thread's, an audit entry's: `?celula=`), with its history when asked.
  const openedHistory = await openedCellHistory(start.review, openOnCell(review.grid, url.searchParams));
  // A submitted or approved cost centre is read-only for everyone (the server refuses every write path too).
  if (cycle.frozen) review.grid.editable = false;
  const excelHref = `${reviewPath(review.rf, review.costCenter.cost_center_concat)}/excel`;
  const excel: ExcelPanelData = {
    exportHref: excelHref,
    importAction: excelHref,
    canImport: canWrite && review.open && !cycle.frozen,
    ...excelState,
  };
  const done = CYCLE_ACTION.safeParse(url.searchParams.get("ciclo"));
  // loadedAt tells the grid that a reload (after a save) brought stored values: it starts afresh from them, keeping its
  // scroll and focused cell.
  return {
    found: true as const,
    ...review,
    excel,
    cycle,
    cycleDone: done.success ? cycleAnswerTexts.done[done.data] : null,
    loadedAt: Date.now(),
    // Worded here, so that the page's script carries none of these texts.
    factsLine: reviewPageTexts.facts(review.facts.anchor, review.facts.editMonth, review.facts.from, review.facts.to),
    stateNotice: reviewStateNotice(review),
    noData: reviewPageTexts.noData,
    openedHistory: openedHistory && cellHistoryHtml(openedHistory),
    filterHref: filterPath({ rf: review.rf, cost_center_concat: review.costCenter.cost_center_concat }),
  };
}

function notFound(message: string, params: Params) {
  return data({ found: false as const, message, filterHref: filterPath({ rf: params.rf }) }, { status: 404 });
}

/** A cycle action's form: an intent and a comment (at most CYCLE_FORM_MAX_BYTES), or null when unreadable. */
export async function readCycleForm(request: Request): Promise<URLSearchParams | null> {
  const text = await readLimitedText(request, CYCLE_FORM_MAX_BYTES).catch(() => null);
  return text === null ? null : new URLSearchParams(text);
}
