import { parsePtBrNumber, roundTo2 } from "~/shared/numbers";

/**
 * A paste into the forecast review grid (spec 001 §4): tab-separated values from Excel or Google Sheets, read as
 * numbers and laid over the grid. Pure; apart from forecast-grid-rules.ts so that only the grid's editing code, loaded
 * in the browser after hydration (grid-edit-keys.ts), carries it.
 */

/** The most cells one paste may carry (a 400 × 26 grid has 10,400). */
export const PASTE_MAX_CELLS = 50_000;

/** Lines by \n, \r\n or \r; cells by tab. One trailing empty line (what spreadsheets append) is dropped. */
export function parseTsv(text: string): string[][] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => line.split("\t").map((cell) => cell.replace(/^"(.*)"$/s, "$1")));
}

export type PastedBlock =
  | { ok: true; values: number[][] }
  | { ok: false; reason: "notNumber"; text: string; line: number; column: number }
  | { ok: false; reason: "tooLarge" };

/** Every pasted cell as a number rounded to cents (empty → 0), or the first one that is not a number (1-based). */
export function readPastedBlock(text: string): PastedBlock {
  const cells = parseTsv(text);
  if (cells.reduce((n, row) => n + row.length, 0) > PASTE_MAX_CELLS) return { ok: false, reason: "tooLarge" };
  const values: number[][] = [];
  for (let r = 0; r < cells.length; r++) {
    const row: number[] = [];
    for (let c = 0; c < cells[r].length; c++) {
      const parsed = parsePtBrNumber(cells[r][c]);
      if (!parsed.ok)
        return { ok: false, reason: "notNumber", text: cells[r][c].trim().slice(0, 40), line: r + 1, column: c + 1 };
      row.push(roundTo2(parsed.value));
    }
    values.push(row);
  }
  return { ok: true, values };
}

export type PastePlan = {
  targets: { row: number; column: number; value: number }[];
  /** Values whose target is locked, a group/total row or a total column. */
  skipped: number;
  /** Values that fall past the grid's last row or column. */
  outside: number;
};

/**
 * Lays a pasted block over the grid from the focused cell, in the order the grid shows its rows and columns: value
 * (i, j) goes to row start.row + i, column start.column + j. A target that cannot be edited keeps its value and is
 * counted as skipped; the block is not shifted around it (a spreadsheet's paste is a rectangle).
 */
export function planPaste(
  block: readonly (readonly number[])[],
  start: { row: number; column: number },
  size: { rows: number; columns: number },
  isEditable: (row: number, column: number) => boolean,
): PastePlan {
  const plan: PastePlan = { targets: [], skipped: 0, outside: 0 };
  block.forEach((values, i) => {
    values.forEach((value, j) => {
      const row = start.row + i;
      const column = start.column + j;
      if (row >= size.rows || column >= size.columns) plan.outside++;
      else if (!isEditable(row, column)) plan.skipped++;
      else plan.targets.push({ row, column, value });
    });
  });
  return plan;
}
