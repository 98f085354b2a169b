import { describe, expect, it } from "vitest";
import { spreadOverRows, spreadTotal } from "./spread";

/**
 * "Distribuir total": a total over the open months, in proportion to weights, each month rounded to the
 * unit (cents, or whole units for quantities), the rounding remainder on the last month so the sum is exact; no
 * weight (all zero, none, a negative one) falls back to evenly and says so. A partial base (some months without one):
 * each month without a base takes the even share, total / n, and the months with one share the rest by it; those
 * months are named (`unbased`). Computed by hand.
 */
describe("spreadTotal", () => {
  const cases: Array<{
    name: string;
    total: number;
    weights: number[];
    decimals: 0 | 2;
    want: number[];
    fallback?: boolean;
    /** The months without a base that took the even share (total / n) while the others follow theirs. */
    unbased?: number[];
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
      name: "no base in any month falls back to evenly",
      total: 20,
      weights: [Number.NaN, Number.NaN],
      decimals: 0,
      want: [10, 10],
      fallback: true,
    },
    {
      name: "months without a base but one with a base of zero only: evenly",
      total: 30,
      weights: [Number.NaN, 0, Number.NaN],
      decimals: 2,
      want: [10, 10, 10],
      fallback: true,
    },
    {
      name: "a month without a base takes total/n, the others share the rest by their base",
      total: 20,
      weights: [Number.NaN, 1],
      decimals: 0,
      want: [10, 10],
      unbased: [0],
    },
    {
      name: "two months without a base: 25 each; 50 shared 1:2, rounded, the remainder on the last month",
      total: 100,
      weights: [Number.NaN, Number.NaN, 1, 2],
      decimals: 2,
      want: [25, 25, 16.67, 33.33],
      unbased: [0, 1],
    },
    {
      name: "the last month without a base takes the rounding remainder",
      total: 100,
      weights: [1, 2, Number.NaN],
      decimals: 2,
      want: [22.22, 44.44, 33.34],
      unbased: [2],
    },
    {
      name: "eight months with a base, four without (a previous RF covering 8 of 12 months)",
      total: 12_000,
      weights: [1, 1, 2, 2, 1, 1, 1, 1, Number.NaN, Number.NaN, Number.NaN, Number.NaN],
      decimals: 2,
      want: [800, 800, 1600, 1600, 800, 800, 800, 800, 1000, 1000, 1000, 1000],
      unbased: [8, 9, 10, 11],
    },
    {
      name: "a based month of zero takes nothing; the month without a base its even share",
      total: 90,
      weights: [0, Number.NaN, 5],
      decimals: 2,
      want: [0, 30, 60],
      unbased: [1],
    },
    {
      name: "whole units, a negative total",
      total: -10,
      weights: [Number.NaN, 1, 1],
      decimals: 0,
      want: [-3, -3, -4],
      unbased: [0],
    },
    {
      name: "a negative base still falls back to evenly, months without one too",
      total: 30,
      weights: [Number.NaN, -1, 4],
      decimals: 0,
      want: [10, 10, 10],
      fallback: true,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const result = spreadTotal(c.total, c.weights, c.decimals);
      expect(result.values).toEqual(c.want);
      expect(result.fellBack).toBe(c.fallback ?? false);
      expect(result.unbased).toEqual(c.unbased ?? []);
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

  it("names, row by row, the months without a base that took the even share", () => {
    const result = spreadOverRows(
      90,
      [
        [1, 2, Number.NaN],
        [1, 1, 1],
      ],
      null,
      2,
    );
    expect(result.values).toEqual([
      [20, 40, 30],
      [30, 30, 30],
    ]);
    expect(result.unbased).toEqual([[2], []]);
    expect(result.fellBack).toEqual([false, false]);
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
