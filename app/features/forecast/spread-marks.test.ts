import { describe, expect, it } from "vitest";
import type { CellChange } from "./forecast-grid-rules";
import { markSpreadCells } from "./spread-dialog";

/**
 * What a save of the grid says was distributed: the cells whose latest change (undo step) was a "Distribuir total"; a
 * cell typed over after the spread is a typed change again, and a spread undone leaves nothing marked.
 */
describe("markSpreadCells", () => {
  const accounts = [{ account: "A" }, { account: "B" }];
  const months = ["2027-02", "2027-03"];
  const pending: CellChange[] = [
    { account: "A", month: "2027-02", old: 1, value: 5, at: 0 },
    { account: "A", month: "2027-03", old: 1, value: 6, at: 0 },
    { account: "B", month: "2027-02", old: 1, value: 7, at: 0 },
  ];
  const step = (cells: [number, number][]) => cells.map(([line, month]) => ({ line, month, before: 1 }));

  it("marks the spread's cells, not a cell typed over after it nor one typed before", () => {
    const marked = markSpreadCells(
      pending,
      [
        { cells: step([[1, 0]]), spread: false },
        {
          cells: step([
            [0, 0],
            [0, 1],
          ]),
          spread: true,
        },
        { cells: step([[0, 1]]), spread: false },
      ],
      accounts,
      months,
    );
    expect(marked.map((c) => c.spread ?? false)).toEqual([true, false, false]);
  });

  it("marks a cell spread again after it was typed", () => {
    const marked = markSpreadCells(
      pending,
      [
        { cells: step([[0, 0]]), spread: false },
        {
          cells: step([
            [0, 0],
            [1, 0],
          ]),
          spread: true,
        },
      ],
      accounts,
      months,
    );
    expect(marked.map((c) => c.spread ?? false)).toEqual([true, false, true]);
  });
});
