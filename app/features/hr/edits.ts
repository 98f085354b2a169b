import { type FigureEdit, HR_FIGURE_FIELDS, HR_ROW_LIMIT, type HrFigureField } from "~/models/hr.fields";
import { checkFigure } from "./figures";

export type { FigureEdit } from "~/models/hr.fields";

/**
 * How the grid's figure inputs travel: one form field per cell, named `<field>.<row id>`, holding the text
 * typed (pt-BR). The browser sends only the changed cells; without JavaScript it sends them all, and the
 * server keeps only what differs from the database. Pure: both sides name and read the fields the same way.
 */

/** The most cells one save may carry: every figure of the rows the grid can show. */
export const MAX_FIGURE_FIELDS = HR_ROW_LIMIT * HR_FIGURE_FIELDS.length;

export const figureInputName = (field: HrFigureField, id: string) => `${field}.${id}`;

const INPUT_NAME = new RegExp(`^(${HR_FIGURE_FIELDS.join("|")})\\.([0-9a-f]{24})$`);

export function parseFigureInputName(name: string): { field: HrFigureField; id: string } | null {
  const match = INPUT_NAME.exec(name);
  return match ? { field: match[1] as HrFigureField, id: match[2] } : null;
}

export type FigureFormResult =
  | { ok: true; edits: FigureEdit[] }
  /** `errors` by input name; `tooMany` when the form carries more cells than a grid can hold. */
  | { ok: false; errors: Record<string, string>; tooMany?: boolean };

/** The figure cells of a posted form (other fields are ignored), each checked by its field's rule. */
export function readFigureForm(entries: Iterable<[string, unknown]>): FigureFormResult {
  const edits: FigureEdit[] = [];
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const cell = parseFigureInputName(name);
    if (!cell || seen.has(name)) continue;
    seen.add(name);
    if (seen.size > MAX_FIGURE_FIELDS) return { ok: false, errors: {}, tooMany: true };
    const checked = checkFigure(cell.field, typeof value === "string" ? value : "\u0000");
    if (checked.ok) edits.push({ ...cell, value: checked.value });
    else errors[name] = checked.error;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, edits };
}

/** A comment as the server stores it: line breaks as "\n" (forms send "\r\n", which would count twice). */
export function normalizeComment(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
