import { describe, expect, it } from "vitest";
import { spreadOverRows, spreadTotal } from "./spread";

/**
 * "Distribuir total": a total over the open months, in proportion to weights, each month rounded to the
 * unit (cents, or whole units for quantities), the rounding remainder on the last month so the sum is exact; no
 * weight (all zero, none, a negative one) falls back to evenly and says so. Computed by hand.
 */
describe("spreadTotal", () => {
  const cases: Array<{
    name: string;
    total: number;
    weights: number[];
    decimals: 0 | 2;
    want: number[];
    fallback?: boolean;
  }> = [
    { name: "evenly, exact", total: 300, weights: [1, 1, 1], decimals: 2, want: [100, 100, 100] },
    { name: "evenly, remainder on the last", total: 100, weights: [1, 1, 1], decimals: 2, want: [33.33, 33.33, 33.34] },
    { name: "evenly, whole units", total: 10, weights: [1, 1, 1], decimals: 0, want: [3, 3, 4] },
    { name: "by weights", total: 1000, weights: [1, 3], decimals: 2, want: [250, 750] },
    {
      name: "by weights, rounding half up per month",
      total: 10,
      weights: [1, 1, 1, 1, 1, 1],
      decimals: 2,
      want: [1.67, 1.67, 1.67, 1.67, 1.67, 1.65],
    },
    { name: "like a base with a zero month", total: 90, weights: [2, 0, 1], decimals: 2, want: [60, 0, 30] },
    { name: "cents of the total kept", total: 1234.5, weights: [1, 2], decimals: 2, want: [411.5, 823] },
    { name: "a negative total", total: -100, weights: [1, 1, 1], decimals: 2, want: [-33.33, -33.33, -33.34] },
    { name: "zero", total: 0, weights: [5, 1], decimals: 2, want: [0, 0] },
    { name: "one month takes it all", total: 77.77, weights: [4], decimals: 2, want: [77.77] },
    {
      name: "all-zero base falls back to evenly",
      total: 90,
      weights: [0, 0, 0],
      decimals: 2,
      want: [30, 30, 30],
      fallback: true,
    },
    {
      name: "a negative weight falls back to evenly",
      total: 20,
      weights: [3, -1],
      decimals: 0,
      want: [10, 10],
      fallback: true,
    },
    {
      name: "a missing base falls back to evenly",
      total: 20,
      weights: [Number.NaN, 1],
      decimals: 0,
      want: [10, 10],
      fallback: true,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const result = spreadTotal(c.total, c.weights, c.decimals);
      expect(result.values).toEqual(c.want);
      expect(result.fellBack).toBe(c.fallback ?? false);
      // The months add up to the total exactly, in units of the last decimal.
      const unit = 10 ** c.decimals;
      expect(result.values.reduce((sum, v) => sum + Math.round(v * unit), 0)).toBe(Math.round(c.total * unit));
    });

  it("refuses no months", () => {
    expect(() => spreadTotal(10, [], 2)).toThrow();
  });
});

/**
 * A total over several rows: each row takes the whole total, or the total is shared by the rows' weights first (to
 * the unit, the remainder on the last row), then each row over its months by its own weights (the remainder on its
 * last month). Every cell and every row add up exactly. Computed by hand.
 */
describe("spreadOverRows", () => {
  it("gives each row the whole total", () => {
    const result = spreadOverRows(
      90,
      [
        [1, 1, 1],
        [1, 2],
      ],
      null,
      2,
    );
    expect(result.values).toEqual([
      [30, 30, 30],
      [30, 60],
    ]);
    expect(result.fellBack).toEqual([false, false]);
    expect(result.sharedFellBack).toBe(false);
  });

  it("shares one total by the rows' weights, then each row over its months", () => {
    const result = spreadOverRows(
      100,
      [
        [1, 1, 1],
        [1, 1, 1],
      ],
      [1, 3],
      2,
    );
    expect(result.values).toEqual([
      [8.33, 8.33, 8.34],
      [25, 25, 25],
    ]);
    const cents = result.values.flat().reduce((sum, v) => sum + Math.round(v * 100), 0);
    expect(cents).toBe(10_000);
  });

  it("puts the rows' rounding remainder on the last row, and whole units for quantities", () => {
    const result = spreadOverRows(
      10,
      [
        [1, 1],
        [1, 1],
        [1, 1],
      ],
      [1, 1, 1],
      0,
    );
    expect(result.values).toEqual([
      [2, 1],
      [2, 1],
      [2, 2],
    ]);
    expect(result.values.flat().reduce((a, b) => a + b, 0)).toBe(10);
  });

  it("shares evenly when no row has a positive weight, and says so; a row without a base falls back alone", () => {
    const result = spreadOverRows(
      60,
      [
        [0, 0],
        [1, 2],
      ],
      [0, 0],
      2,
    );
    expect(result.sharedFellBack).toBe(true);
    expect(result.values).toEqual([
      [15, 15],
      [10, 20],
    ]);
    expect(result.fellBack).toEqual([true, false]);
  });
});
