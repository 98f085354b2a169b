import { type CommentScreen, commentsOfScope, threadMarks } from "~/models/cell-comments.server";
import { ATTRIBUTES, type AttributeParam, CHANNELS, type Channel, type PlanningFilter } from "~/models/planning.fields";
import type { PlanningRow } from "~/models/planning-queries.server";
import { planningRowById } from "~/models/planning-queries.server";
import type { ThreadState } from "~/platform/comments/thread-link";
import { type CellTarget, cellKeyOf, readersOfRoute, threadNote } from "~/platform/comments/threads.server";
import { monthKey, monthOfDate, monthStartDate } from "~/shared/months";
import { filterSearchParams } from "./planning";
import { formatCompetencyMonth } from "./planning-dates";
import { planningThreadPath } from "./row-paths";
import { PLAN_SCREEN } from "./screens";

/**
 * Comments on the planning grid's rows (/ij/plan_edit): a row's quantity is one SKU in one channel for one month, the
 * key its uploads and round trips keep (they write by SKU, channel and month), so a thread is kept with those three.
 * Who may read or be mentioned is the planning grid's read rule.
 */

const SCREEN: CommentScreen = "planning";
const SCOPE = "plan";
const GRID_ROUTE = "routes/ij.plan_edit" as const;

type RowKey = Pick<PlanningRow, "sku" | "channel" | "dateRef">;
const cellOf = (row: RowKey) => cellKeyOf([row.sku, row.channel, monthKey(monthOfDate(row.dateRef))]);

/** The listed rows' threads, by row id. */
export async function planningThreadMarks(
  rows: readonly (RowKey & { id: string })[],
): Promise<Record<string, ThreadState>> {
  const marks: Record<string, ThreadState> = {};
  if (rows.length === 0) return marks;
  const byCell = new Map(rows.map((r) => [cellOf(r), r.id]));
  for (const mark of await threadMarks(SCREEN, SCOPE, [...byCell.keys()])) {
    const id = byCell.get(mark.cell);
    if (id) marks[id] = { comments: mark.comments, resolved: mark.resolved };
  }
  return marks;
}

/** The grid filtered to the row's SKU, channel and month (the link a mention's notice opens), at the row. */
function gridPathOf(row: PlanningRow): string {
  const month = monthOfDate(row.dateRef);
  const last = new Date(monthStartDate(month + 1).getTime() - 86_400_000);
  const filter: PlanningFilter = {
    dateStart: monthStartDate(month).toISOString().slice(0, 10),
    dateEnd: last.toISOString().slice(0, 10),
    sku: [row.sku],
    chanel: (CHANNELS as readonly string[]).includes(row.channel) ? [row.channel as Channel] : [],
    ...(Object.fromEntries(ATTRIBUTES.map((a) => [a.param, [] as string[]])) as Record<AttributeParam, string[]>),
  };
  const params = filterSearchParams(filter, "sku");
  return `${PLAN_SCREEN.resultsPath}?${params}#p-${row._id.toHexString()}`;
}

/** The thread of a planning row, or null when there is no such row. */
export async function planningCellTarget(id: string): Promise<CellTarget | null> {
  const row = await planningRowById(id);
  if (!row) return null;
  return {
    key: { screen: SCREEN, scope: SCOPE, cell: cellOf(row) },
    label: `${row.sku} · ${row.channel} · ${formatCompetencyMonth(row.dateRef)}`,
    place: PLAN_SCREEN.title,
    gridHref: gridPathOf(row),
    threadHref: planningThreadPath(row._id.toHexString()),
    readers: () => readersOfRoute(GRID_ROUTE),
  };
}

/** A page of exported rows with their threads as notes (one read per page). */
export async function* withCommentNotes<Row extends RowKey>(
  pages: AsyncIterable<readonly Row[]>,
): AsyncGenerator<(Row & { note?: string })[]> {
  for await (const page of pages) {
    const notes = await commentsOfScope(SCREEN, SCOPE, page.map(cellOf));
    yield page.map((row) => {
      const comments = notes.get(cellOf(row));
      return comments ? { ...row, note: threadNote(comments) } : row;
    });
  }
}
