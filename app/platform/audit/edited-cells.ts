import { z } from "zod";

/**
 * The cells a save changed, as its audit entry keeps them: each row's key (a forecast account, "4101001 - Salários e
 * Ordenados"), the month ("YYYY-MM"), the value it had and the value written, taken from what the save wrote (never
 * recomputed later). Bounded: the first EDITED_CELLS_SHOWN cells that fit EDITED_CELLS_CHARS, and how many more
 * (`moreCells`), so an entry stays small (the model cuts details over 8,000 characters to their keys).
 */

export const EDITED_CELLS_SHOWN = 50;
/** The characters the listed cells may take, as JSON: with the entry's other details, well within the model's cap. */
export const EDITED_CELLS_CHARS = 5_000;

export type EditedCell = { account: string; month: string; old: number; new: number };
export type EditedCellsDetails = { cells: EditedCell[]; moreCells?: number };

/** The details of the cells a save wrote (`cells` in the order written), bounded. */
export function editedCellsDetails(cells: readonly EditedCell[]): EditedCellsDetails {
  const kept: EditedCell[] = [];
  let chars = 0;
  for (const cell of cells) {
    if (kept.length === EDITED_CELLS_SHOWN) break;
    const entry = { account: cell.account, month: cell.month, old: cell.old, new: cell.new };
    chars += JSON.stringify(entry).length + 1;
    if (chars > EDITED_CELLS_CHARS) break;
    kept.push(entry);
  }
  const more = cells.length - kept.length;
  return more > 0 ? { cells: kept, moreCells: more } : { cells: kept };
}

const storedCell = z.object({
  account: z.string().min(1).max(300),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
  old: z.number(),
  new: z.number(),
});

/** The cells an entry's details list (as stored: read with a schema), or null when it lists none. */
export function readEditedCells(
  details: Record<string, unknown> | undefined,
): { cells: EditedCell[]; more: number } | null {
  const listed = details?.cells;
  // Counted before any cell is read: a longer list is not one this module wrote.
  if (!Array.isArray(listed) || listed.length > EDITED_CELLS_SHOWN) return null;
  const cells = z.array(storedCell).safeParse(listed);
  if (!cells.success || cells.data.length === 0) return null;
  const more = z.number().int().min(0).safeParse(details?.moreCells);
  return { cells: cells.data, more: more.success ? more.data : 0 };
}
