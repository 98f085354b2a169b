import { type CommentScreen, commentsOfScope, threadMarks } from "~/models/cell-comments.server";
import { findAuxRows, inBranchScope, scopeOfStores } from "~/models/hr.server";
import type { ThreadState } from "~/platform/comments/thread-link";
import {
  type CellTarget,
  cellKeyOf,
  cellPartsOf,
  readersOfRoute,
  threadNote,
} from "~/platform/comments/threads.server";
import { monthLabel } from "~/shared/months";
import { hrGridPath, hrThreadPath } from "./paths";

/**
 * Comments on the HR grid's rows: an HR record is one person's month, so a thread is kept with the branch (the scope)
 * and the record's id (the cell), which the imports and the round trip keep (they update records in place). Who may
 * read or be mentioned is the grid's read rule and its branch scope: a person limited to other branches is never
 * offered, and a mention of them refuses the comment.
 */

const SCREEN: CommentScreen = "hr";
const GRID_ROUTE = "routes/ij.rh_edit.$filial" as const;

const cellOf = (id: string) => cellKeyOf([id]);

/** The branch's threads, by row id (the grid keeps those of its rows). */
export async function hrThreadMarks(filial: string): Promise<Map<string, ThreadState>> {
  const marks = new Map<string, ThreadState>();
  for (const mark of await threadMarks(SCREEN, filial)) {
    const id = cellPartsOf(mark.cell, 1)?.[0];
    if (id) marks.set(id, { comments: mark.comments, resolved: mark.resolved });
  }
  return marks;
}

/**
 * The thread of a branch's row, or null when the branch has no such row. The branch must already be one the user may
 * see (the route checks it as the grid does).
 */
export async function hrCellTarget(filial: string, id: string): Promise<CellTarget | null> {
  const [row] = await findAuxRows(filial, [id]);
  if (!row) return null;
  const month = { from: row.mes_apur, to: row.mes_apur };
  return {
    key: { screen: SCREEN, scope: filial, cell: cellOf(row.id) },
    label: `${row.nome} · ${monthLabel(row.mes_apur)}`,
    place: `Auxiliar Padrão · ${filial}`,
    gridHref: `${hrGridPath(filial, month)}#r-${row.id}`,
    threadHref: hrThreadPath(filial, row.id),
    readers: () => readersOfRoute(GRID_ROUTE, (person) => inBranchScope(filial, scopeOfStores(person.stores))),
  };
}

/** The branch's commented rows (the list page), in the grid's order. */
export async function hrThreads(filial: string) {
  const marks = await hrThreadMarks(filial);
  return (await findAuxRows(filial, [...marks.keys()])).map((row) => ({
    label: `${row.nome} · ${monthLabel(row.mes_apur)}`,
    href: hrThreadPath(filial, row.id),
    comments: marks.get(row.id)?.comments ?? 0,
    resolved: marks.get(row.id)?.resolved ?? false,
  }));
}

/** The exported rows' threads as notes, by row id. */
export async function hrCommentNotes(filial: string, ids: readonly string[]): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  if (ids.length === 0) return notes;
  for (const [cell, comments] of await commentsOfScope(SCREEN, filial, ids.map(cellOf))) {
    const id = cellPartsOf(cell, 1)?.[0];
    if (id) notes.set(id, threadNote(comments));
  }
  return notes;
}
