import { describe, expect, it } from "vitest";
import { sanitizeAuditDetails } from "~/models/audit.server";
import { EDITED_CELLS_SHOWN, type EditedCell, editedCellsDetails, readEditedCells } from "./edited-cells";

const cell = (i: number, account = `41010${String(i).padStart(2, "0")} - Conta ${i}`): EditedCell => ({
  account,
  month: `2027-${String((i % 12) + 1).padStart(2, "0")}`,
  old: i * 1000,
  new: i * 1000 + 0.5,
});

/** The details of a forecast save around the cells (the review's link, RF and cost centre at their longest). */
const entryDetails = (cells: EditedCell[]) => ({
  rows: cells.length,
  link: `/ij/report_preview_edit_schneider/RF2%202027/${"C".repeat(200)}`,
  rf: "RF2 2027",
  cost_center_concat: "C".repeat(200),
  ...editedCellsDetails(cells),
});

describe("an edit's cells in its audit entry", () => {
  it("keeps every cell of a small save, each with its month and the values before and after", () => {
    const details = editedCellsDetails([cell(1), cell(2)]);
    expect(details).toEqual({ cells: [cell(1), cell(2)] });
    expect(readEditedCells(details)).toEqual({ cells: [cell(1), cell(2)], more: 0 });
  });

  it(`lists the first ${EDITED_CELLS_SHOWN} cells of a larger save and counts the others`, () => {
    const cells = Array.from({ length: 130 }, (_, i) => cell(i));
    const details = editedCellsDetails(cells);
    expect(details.cells).toEqual(cells.slice(0, EDITED_CELLS_SHOWN));
    expect(details.moreCells).toBe(80);
    expect(readEditedCells(details)?.more).toBe(80);
  });

  it("stays whole in the stored entry, even with the longest account names (fewer cells listed, the rest counted)", () => {
    for (const cells of [
      Array.from({ length: 400 }, (_, i) => cell(i)),
      Array.from({ length: 400 }, (_, i) => cell(i, `${i} ${"Á".repeat(290)}`)),
    ]) {
      const details = entryDetails(cells);
      expect(sanitizeAuditDetails(details)).toEqual(details);
      expect(details.cells.length + (details.moreCells ?? 0)).toBe(400);
      expect(details.cells.length).toBeGreaterThan(0);
    }
  });

  it("reads no cells from details that do not list them as written", () => {
    expect(readEditedCells(undefined)).toBeNull();
    expect(readEditedCells({ rows: 2 })).toBeNull();
    expect(readEditedCells({ cells: [] })).toBeNull();
    expect(readEditedCells({ cells: [{ account: "A", month: "2027-13", old: 1, new: 2 }] })).toBeNull();
    expect(readEditedCells({ cells: "…" })).toBeNull();
    expect(readEditedCells({ cells: [cell(1)], moreCells: -3 })).toEqual({ cells: [cell(1)], more: 0 });
  });
});
