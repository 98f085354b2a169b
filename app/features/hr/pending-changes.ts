import type { HrAuxRow } from "~/models/hr.server";
import { figureCell, type GridEdits } from "./aux-grid";
import { HR_FIGURE_FIELDS, type HrFigureField } from "./figures";

export type PendingChange = { id: string; field: HrFigureField; text: string; value: number; row: HrAuxRow };

/** The typed cells that differ from the stored values, and how many typed cells are invalid. */
export function pendingChanges(
  edits: GridEdits,
  rows: ReadonlyMap<string, HrAuxRow>,
): { changes: PendingChange[]; invalid: number } {
  const changes: PendingChange[] = [];
  let invalid = 0;
  for (const [id, fields] of Object.entries(edits)) {
    const row = rows.get(id);
    if (!row) continue;
    for (const field of HR_FIGURE_FIELDS) {
      const typed = fields[field];
      if (typed === undefined) continue;
      const cell = figureCell(row, field, typed);
      if (cell.error) invalid++;
      else if (cell.dirty && cell.value !== null) changes.push({ id, field, text: typed, value: cell.value, row });
    }
  }
  return { changes, invalid };
}
