import { type CommentScreen, commentsOfScope, threadMarks } from "~/models/cell-comments.server";
import { readWindow } from "~/models/forecast.server";
import { costCentreReaderEmails } from "~/models/forecast-readers.server";
import {
  type CellTarget,
  cellKeyOf,
  cellPartsOf,
  readersOfRoute,
  threadNote,
} from "~/platform/comments/threads.server";
import { cellHref } from "~/shared/cell-link";
import { monthKey, monthLabel, monthStartDate, parseMonthKey } from "~/shared/months";
import { commentPath, reviewPath } from "./forecast-filter";
import type { ForecastGridPayload } from "./forecast-grid-rules";
import { inWindow } from "./release-points";
import type { Review } from "./review.server";

/**
 * Comments on the forecast review's cells: a cell is the review's RF and cost centre (the scope) and an account's month
 * (the cell), the keys of the forecast rows, so a thread stays with its figure whatever the grid shows. Who may read or
 * be mentioned is the review's read rule and the forecast's (app/models/forecast-readers.server.ts): its cost centre's
 * preparers, the reviewers and SYSTEM ADMIN.
 */

const SCREEN: CommentScreen = "forecast";
const REVIEW_ROUTE = "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat" as const;

const scopeOf = (review: Review) => JSON.stringify([review.calendar.name, review.costCenter.cost_center_concat]);
const cellOf = (account: string, month: string) => cellKeyOf([account, month]);
const cellParts = (cell: string) => cellPartsOf(cell, 2);

/** The grid opened on a cell (`?celula=…#celula`: the grid scrolls to it and focuses it; open-cell.server.ts). */
export const reviewCellPath = (review: Review, account: string, month: string) =>
  cellHref(reviewPath(review.calendar.name, review.costCenter.cost_center_concat), account, month);

/** The review's accounts (the window's), for the thread page's check and its way to another cell. */
export async function reviewAccounts(review: Review): Promise<{ account: string; label: string }[]> {
  const { calendar, costCenter } = review;
  const window = await readWindow(
    calendar.name,
    costCenter.cost_center_concat,
    monthStartDate(calendar.firstMonth),
    monthStartDate(calendar.lastMonth + 1),
  );
  return window.map((w) => ({ account: w._id.account, label: w.label }));
}

/** The cell an account and month name in the review's window, or null when the review has no such cell. */
export async function forecastCellTarget(review: Review, account: string, month: string): Promise<CellTarget | null> {
  const m = parseMonthKey(month);
  if (m === null || !inWindow(review.calendar, m) || account.length === 0 || account.length > 300) return null;
  if (!(await reviewAccounts(review)).some((a) => a.account === account)) return null;
  const rf = review.calendar.name;
  const cc = review.costCenter.cost_center_concat;
  return {
    key: { screen: SCREEN, scope: scopeOf(review), cell: cellOf(account, monthKey(m)) },
    label: `${account} · ${monthLabel(m)}`,
    place: `Forecast ${rf} · ${cc}`,
    gridHref: reviewCellPath(review, account, monthKey(m)),
    threadHref: commentPath(rf, cc, account, monthKey(m)),
    readers: async () => {
      const [people, readable] = await Promise.all([readersOfRoute(REVIEW_ROUTE), costCentreReaderEmails(cc)]);
      return people.filter((p) => readable.has(p.email.toLowerCase()));
    },
  };
}

/** Marks the grid's commented cells. */
export async function markCommentedCells(
  grid: ForecastGridPayload | Promise<ForecastGridPayload>,
  review: Review,
): Promise<void> {
  // The marks are read while the grid is (one command with its reads, when the page starts both in one turn).
  const [marks, shown] = await Promise.all([threadMarks(SCREEN, scopeOf(review)), grid]);
  if (marks.length === 0) return;
  const column = new Map(shown.months.map((key, i) => [key, i]));
  const byAccount = new Map<string, number[]>();
  for (const mark of marks) {
    const parts = cellParts(mark.cell);
    const at = parts ? column.get(parts[1]) : undefined;
    if (!parts || at === undefined) continue;
    byAccount.set(parts[0], [...(byAccount.get(parts[0]) ?? []), at]);
  }
  for (const group of shown.groups)
    for (const line of group.accounts) {
      const commented = byAccount.get(line.account);
      if (commented) line.comments = commented;
    }
}

export type ForecastThreadRow = { label: string; href: string; comments: number; resolved: boolean };

/** The review's commented cells, by account and month. */
export async function forecastThreads(review: Review): Promise<ForecastThreadRow[]> {
  const rf = review.calendar.name;
  const cc = review.costCenter.cost_center_concat;
  const rows: (ForecastThreadRow & { order: string })[] = [];
  for (const mark of await threadMarks(SCREEN, scopeOf(review))) {
    const parts = cellParts(mark.cell);
    const m = parts ? parseMonthKey(parts[1]) : null;
    if (!parts || m === null) continue;
    rows.push({
      label: `${parts[0]} · ${monthLabel(m)}`,
      href: commentPath(rf, cc, parts[0], parts[1]),
      comments: mark.comments,
      resolved: mark.resolved,
      order: `${parts[0]}\n${parts[1]}`,
    });
  }
  return rows.sort((a, b) => a.order.localeCompare(b.order, "pt-BR", { numeric: true }));
}

/** Each commented cell's comments as one note text (an export's cell note), by account and month key. */
export async function forecastCommentNotes(review: Review): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  for (const [cell, comments] of await commentsOfScope(SCREEN, scopeOf(review))) {
    const parts = cellParts(cell);
    if (parts) notes.set(cellOf(parts[0], parts[1]), threadNote(comments));
  }
  return notes;
}

export { cellOf as forecastNoteKey };
