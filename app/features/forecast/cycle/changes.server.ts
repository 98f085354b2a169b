import { type ChangedCell, changedCellsBetween } from "~/models/forecast.server";
import { timelineOf } from "~/models/forecast-cycle.server";
import { formatDate, formatDateTime } from "~/shared/dates";
import { monthKeyOfDate, monthLabelOfDate } from "~/shared/months";
import { formatNumber } from "~/shared/numbers";
import { parsePaging } from "~/shared/pagination";
import { reviewPath } from "../forecast-filter";
import type { ForecastGridPayload } from "../forecast-grid-rules";
import type { Review } from "../review.server";
import { changesTexts as t } from "./changes-texts";

/**
 * "Alterações a revisar" (/ij/report_preview_edit_schneider/{rf}/{cc}/alteracoes): the cells of a cost centre changed
 * since the last state a reviewer saw or decided, its baseline: the last return or approval of the cost centre in the
 * RF, else its first submission (a submission withdrawn and sent again moves nothing: the reviewer may have seen the
 * first); up to the last submission while it is under review, else until now; every change before any submission.
 * The page says which. Each cell once: its first value in the window → its last, by the last author (the model's
 * `changedCellsBetween`).
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
  /** Which baseline, and up to when: "Mudanças desde a devolução de 28/11/2027 por Ana…". */
  since: string;
  rows: ChangeRow[];
  total: number;
  page: number;
  pageSize: number;
};

type TimelineEvent = { action: string; to: string; at: Date; by?: string; name?: string };

/** What a reviewer last saw or decided: the last return or approval, else the first submission (null: none yet). */
export type ChangesBaseline = { kind: "return" | "approval" | "firstSubmission"; at: Date; who: string };

const BASELINE_KINDS: Record<string, ChangesBaseline["kind"]> = { return: "return", approve: "approval" };

export type ChangesWindow = { from: Date | null; to: Date | null; baseline: ChangesBaseline | null };

/** The window the page shows, from the cycle's timeline (in time order): from the baseline, to the last submission. */
export function changesWindow(events: readonly TimelineEvent[]): ChangesWindow {
  const who = (e: TimelineEvent) => e.name || e.by || "";
  const latest = [...events].reverse();
  const decision = latest.find((e) => BASELINE_KINDS[e.action] !== undefined);
  const first = events.find((e) => e.action === "submit");
  const seen = decision ?? first;
  const baseline: ChangesBaseline | null = seen
    ? { kind: decision ? BASELINE_KINDS[decision.action] : "firstSubmission", at: seen.at, who: who(seen) }
    : null;
  const underReview = events.at(-1)?.to === "submitted";
  const lastSubmission = latest.find((e) => e.action === "submit")?.at ?? null;
  return { from: baseline?.at ?? null, to: underReview ? lastSubmission : null, baseline };
}

/** The page's sentence: the baseline by name, day and person, and the last submission while under review. */
export function changesSince(window: ChangesWindow): string {
  if (!window.baseline) return t.windowAll;
  const { kind, at, who } = window.baseline;
  return `${t.since[kind](formatDate(at), who)}${window.to ? t.until(formatDate(window.to)) : "."}`;
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
    since: changesSince(window),
    rows: cells.slice((page - 1) * CHANGES_PAGE_SIZE, page * CHANGES_PAGE_SIZE).map(toRow),
    total: cells.length,
    page,
    pageSize: CHANGES_PAGE_SIZE,
  };
}

/**
 * Marks on the review's grid the cells the changes page lists (`since` of each account line): `cells` are
 * `changedCellsBetween` over `changesWindow` of the timeline (loadCycle reads them; none before a first submission,
 * when every change is new and a mark would say nothing).
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
