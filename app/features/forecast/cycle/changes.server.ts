import { type ChangedCell, changedCellsBetween } from "~/models/forecast.server";
import { timelineOf } from "~/models/forecast-cycle.server";
import { formatDateTime } from "~/shared/dates";
import { monthKeyOfDate, monthLabelOfDate } from "~/shared/months";
import { formatNumber } from "~/shared/numbers";
import { parsePaging } from "~/shared/pagination";
import { reviewPath } from "../forecast-filter";
import type { ForecastGridPayload } from "../forecast-grid-rules";
import type { Review } from "../review.server";

/**
 * "Alterações desde o último envio" (/ij/report_preview_edit_schneider/{rf}/{cc}/alteracoes): while a cost centre is
 * under review, the cells that changed between its last two submissions (what the reviewer has not seen decided on);
 * otherwise the cells changed since its last submission (or ever, before the first). Each cell once: its first value
 * before the window → its last value in it, by the last author (the model's `changedCellsBetween`).
 */

export const CHANGES_PAGE_SIZE = 50;

export type ChangeRow = {
  account: string;
  month: string;
  old: string;
  new: string;
  who: string;
  when: string;
  count: number;
};

export type ChangesPage = {
  rf: string;
  costCenter: string;
  reviewHref: string;
  window: { from: string | null; to: string | null };
  rows: ChangeRow[];
  total: number;
  page: number;
  pageSize: number;
};

/** The window the page shows, from the cycle's timeline: its ends are submissions (null: open). */
export function changesWindow(events: readonly { action: string; to: string; at: Date }[]): {
  from: Date | null;
  to: Date | null;
} {
  const submissions = events.filter((e) => e.action === "submit").map((e) => e.at);
  const underReview = events.at(-1)?.to === "submitted";
  if (underReview) return { from: submissions.at(-2) ?? null, to: submissions.at(-1) ?? null };
  return { from: submissions.at(-1) ?? null, to: null };
}

const amount = (value: number) => formatNumber(value, 2);

function toRow(cell: ChangedCell): ChangeRow {
  return {
    account: cell.account,
    month: monthLabelOfDate(cell.month),
    old: amount(cell.old),
    new: amount(cell.new),
    who: cell.name || cell.by,
    when: formatDateTime(cell.at),
    count: cell.count,
  };
}

export async function loadChanges(review: Review, url: URL): Promise<ChangesPage> {
  const rf = review.calendar.name;
  const cc = review.costCenter.cost_center_concat;
  const window = changesWindow(await timelineOf(rf, cc));
  const cells = await changedCellsBetween(rf, cc, window.from, window.to);
  const { page: asked } = parsePaging(url, [CHANGES_PAGE_SIZE]);
  const pages = Math.max(1, Math.ceil(cells.length / CHANGES_PAGE_SIZE));
  const page = Math.min(asked, pages);
  return {
    rf,
    costCenter: cc,
    reviewHref: reviewPath(rf, cc),
    window: {
      from: window.from ? formatDateTime(window.from) : null,
      to: window.to ? formatDateTime(window.to) : null,
    },
    rows: cells.slice((page - 1) * CHANGES_PAGE_SIZE, page * CHANGES_PAGE_SIZE).map(toRow),
    total: cells.length,
    page,
    pageSize: CHANGES_PAGE_SIZE,
  };
}

/**
 * Marks on the review's grid the cells the changes page lists (`since` of each account line): `cells` are
 * `changedCellsBetween` over `changesWindow` of the timeline (loadCycle reads them; none before a first submission,
 * when every change is "since" and a mark would say nothing).
 */
export function markChangedCells(grid: ForecastGridPayload, cells: readonly ChangedCell[]): void {
  if (cells.length === 0) return;
  const column = new Map(grid.months.map((key, i) => [key, i]));
  const byAccount = new Map<string, number[]>();
  for (const cell of cells) {
    const at = column.get(monthKeyOfDate(cell.month));
    if (at === undefined) continue;
    const list = byAccount.get(cell.account);
    if (list) list.push(at);
    else byAccount.set(cell.account, [at]);
  }
  for (const group of grid.groups)
    for (const line of group.accounts) {
      const since = byAccount.get(line.account);
      if (since) line.since = since;
    }
}
