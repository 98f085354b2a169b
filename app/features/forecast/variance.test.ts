import { describe, expect, it } from "vitest";
import { comparedMonthsNote, comparedSpan, monthSpan } from "./grid-texts";
import { parseScenario } from "./release-points";
import {
  buildVariance,
  difference,
  formatVarianceAmount,
  formatVariancePercent,
  parseVarianceColumns,
  previousScenario,
  type VarianceInput,
} from "./variance";

/**
 * The variance columns' figures against values worked out by hand: two accounts in one group over four months (two
 * actuals, then two forecasts; two "years" of two months), a zero base, an account without a previous RF record.
 */

const SALARIES = "4101001 - Salários e Ordenados";
const CHARGES = "4101002 - Encargos Sociais";

const input = (over: Partial<VarianceInput> = {}): VarianceInput => ({
  columns: ["total", "rf", "actual"],
  previousRf: "RF1 2027",
  groups: [
    {
      accounts: [
        { account: SALARIES, values: [100, 200, 300, 0] },
        { account: CHARGES, values: [50, null, 10, 20] },
      ],
    },
  ],
  monthCount: 4,
  firstForecastIndex: 2,
  totals: [
    { year: 2026, indexes: [0, 1], complete: false },
    { year: 2027, indexes: [2, 3], complete: false },
  ],
  // The previous RF forecasts from month 1; it has no record of CHARGES.
  previous: new Map([[SALARIES, [80, 150, 0, 10]]]),
  previousWindow: { from: 0, to: 3, firstForecastIndex: 1 },
  actual: new Map([
    [SALARIES, [100, 200, null, null]],
    [CHARGES, [50, 5, null, null]],
  ]),
  // Months 0 and 1 are before the current month.
  currentMonthIndex: 2,
  ...over,
});

const dash = { abs: null, pct: null };

describe("difference", () => {
  it("is the change and its percentage of the base's size, with a zero base giving no percentage", () => {
    expect(difference(120, 100)).toEqual({ abs: 20, pct: 20 });
    expect(difference(-50, -100)).toEqual({ abs: 50, pct: 50 });
    expect(difference(100, 300)).toEqual({ abs: -200, pct: -66.7 });
    expect(difference(5, 0)).toEqual({ abs: 5, pct: null });
    expect(difference(0, 0)).toEqual({ abs: 0, pct: null });
    expect(difference(10.1, 10)).toEqual({ abs: 0.1, pct: 1 });
    expect(difference(null, 10)).toEqual(dash);
    expect(difference(10, null)).toEqual(dash);
  });

  it("is computed from the two totals as shown (each rounded to cents, half away from zero): Δ = A − B, Δ% = Δ / |B|", () => {
    // The review's 2027 total over the 8 months both RFs hold, against the previous RF's over the same months.
    expect(difference(519193, 505480)).toEqual({ abs: 13713, pct: 2.7 });
    // Shown "1,00" and "0,01" (0,005 rounds away from zero): Δ 0,99, not round(0,999) = 1,00.
    expect(difference(1.004, 0.005)).toEqual({ abs: 0.99, pct: 9900 });
    // "0,13" − "0,11" = 0,02 (the unrounded 0,011 would show 0,01).
    expect(difference(0.125, 0.114)).toEqual({ abs: 0.02, pct: 18.2 });
    expect(difference(-0.125, 0)).toEqual({ abs: -0.13, pct: null });
    // A sum's binary noise never shows: 0,1 + 0,2 is "0,30".
    expect(difference(0.1 + 0.2, 0.3)).toEqual({ abs: 0, pct: 0 });
    expect(difference(14486487.100000001, 14486487.1)).toEqual({ abs: 0, pct: 0 });
    // Δ% to one decimal, half away from zero: 0,25 % → 0,3 %; −0,25 % → −0,3 %.
    expect(difference(100.25, 100)).toEqual({ abs: 0.25, pct: 0.3 });
    expect(difference(99.75, 100)).toEqual({ abs: -0.25, pct: -0.3 });
    expect(difference(100.05, 300.04)).toEqual({ abs: -199.99, pct: -66.7 });
  });

  it("shows amounts in cents and percentages with one decimal in pt-BR, and — for none (never ∞ or NaN)", () => {
    expect(formatVarianceAmount(-1234.5)).toBe("-1.234,50");
    expect(formatVariancePercent(12.3)).toBe("12,3%");
    expect(formatVariancePercent(-100)).toBe("-100,0%");
    expect(formatVariancePercent(null)).toBe("—");
    expect(formatVariancePercent(Number.POSITIVE_INFINITY)).toBe("—");
    expect(formatVariancePercent(Number.NaN)).toBe("—");
    expect(formatVarianceAmount(null)).toBe("—");
  });
});

describe("the months a comparison covers, as its label says them", () => {
  const keys = (year: number, from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `${year}-${String(from + i).padStart(2, "0")}`);

  it("names runs of months in pt-BR, with the year once per run", () => {
    expect(monthSpan(keys(2027, 1, 8))).toBe("jan–ago/27");
    expect(monthSpan(["2027-06"])).toBe("jun/27");
    expect(monthSpan([...keys(2026, 11, 12), ...keys(2027, 1, 2)])).toBe("nov/26–fev/27");
    expect(monthSpan([...keys(2027, 1, 3), "2027-06", ...keys(2027, 9, 10)])).toBe("jan–mar/27, jun/27, set–out/27");
    expect(monthSpan([])).toBe("");
  });

  it("says which months and how many of the year's, only when fewer than all", () => {
    expect(comparedMonthsNote({ compared: 8, of: 12, keys: keys(2027, 1, 8) })).toBe(" (jan–ago/27, 8 de 12 meses)");
    expect(comparedMonthsNote({ compared: 8, of: 12 })).toBe(" (8 de 12 meses)");
    expect(comparedMonthsNote({ compared: 0, of: 2, keys: [] })).toBe(" (nenhum mês em comum)");
    expect(comparedMonthsNote({ compared: 12, of: 12, keys: keys(2027, 1, 12) })).toBe("");
    expect(comparedMonthsNote(undefined)).toBe("");
    expect(comparedSpan({ compared: 8, of: 12, keys: keys(2027, 1, 8) })).toBe(" (jan–ago/27)");
    expect(comparedSpan({ compared: 12, of: 12, keys: keys(2027, 1, 12) })).toBe("");
  });
});

describe("RF(n) − RF(n−1)", () => {
  const v = buildVariance(input());

  it("compares each account's shown month with the previous RF's, — without a previous record or for a zero base's %", () => {
    expect(v.lines[0].rf).toEqual([
      { abs: 20, pct: 25 }, // 100 − 80
      { abs: 50, pct: 33.3 }, // 200 − 150
      { abs: 300, pct: null }, // 300 − 0: zero base
      { abs: -10, pct: -100 }, // 0 − 10
    ]);
    expect(v.lines[1].rf).toEqual([dash, dash, dash, dash]);
  });

  it("gives the group's and the cost centre's totals the variance of their sums", () => {
    // Sums shown: 150, 200, 310, 20; previous: 80, 150, 0, 10.
    const expected = [
      { abs: 70, pct: 87.5 },
      { abs: 50, pct: 33.3 },
      { abs: 310, pct: null },
      { abs: 10, pct: 100 },
    ];
    expect(v.groups[0].rf).toEqual(expected);
    expect(v.grand.rf).toEqual(expected);
  });

  it("shows — where the month is outside the previous RF's window", () => {
    const outside = buildVariance(input({ previousWindow: { from: 1, to: 2, firstForecastIndex: 1 } }));
    expect(outside.lines[0].rf[0]).toEqual(dash);
    expect(outside.lines[0].rf[3]).toEqual(dash);
    expect(outside.lines[0].rf[1]).toEqual({ abs: 50, pct: 33.3 });
  });
});

describe("forecast − actual for closed months", () => {
  const v = buildVariance(input());

  it("lists the months with an actual before the current month, and compares the forecast made for them", () => {
    expect(v.closedMonths).toEqual([0, 1]);
    // Month 0 was an actual in both RFs: nothing forecast it. Month 1: the previous RF forecast 150, actual 200.
    expect(v.lines[0].actual).toEqual([dash, { abs: -50, pct: -25 }, null, null]);
    // No previous RF record of CHARGES: closed, but no forecast to compare.
    expect(v.lines[1].actual).toEqual([dash, dash, null, null]);
    expect(v.groups[0].actual).toEqual([dash, { abs: -50, pct: -25 }, null, null]);
  });

  it("takes this RF's forecast where the closed month is one of its forecast columns, with the actual as the base", () => {
    const own = buildVariance(
      input({
        actual: new Map([
          [SALARIES, [100, 200, 240, null]],
          [CHARGES, [50, 5, 0, null]],
        ]),
        currentMonthIndex: 3,
      }),
    );
    expect(own.closedMonths).toEqual([0, 1, 2]);
    expect(own.lines[0].actual[2]).toEqual({ abs: 60, pct: 25 }); // 300 − 240
    expect(own.lines[1].actual[2]).toEqual({ abs: 10, pct: null }); // 10 − 0: zero base
    expect(own.groups[0].actual[2]).toEqual({ abs: 70, pct: 29.2 }); // 310 − 240
    expect(own.lines[0].actual[3]).toBeNull(); // the current month is never closed
  });
});

describe("the year's total", () => {
  it("sums this RF's shown months beside the previous RF's over the same months", () => {
    const v = buildVariance(input());
    expect(v.lines[0].total).toEqual([
      { current: 300, previous: 230, abs: 70, pct: 30.4 },
      { current: 300, previous: 10, abs: 290, pct: 2900 },
    ]);
    expect(v.lines[1].total).toEqual([
      { current: 50, previous: null, ...dash },
      { current: 30, previous: null, ...dash },
    ]);
    expect(v.grand.total).toEqual([
      { current: 350, previous: 230, abs: 120, pct: 52.2 },
      { current: 330, previous: 10, abs: 320, pct: 3200 },
    ]);
  });
});

describe("the year's total where the previous RF's window holds fewer of the year's months", () => {
  // The previous RF's window ends at month 2: of 2027's months 2 and 3 it holds month 2 only.
  const shorter = input({
    previous: new Map([[SALARIES, [80, 150, 250, 10]]]),
    previousWindow: { from: 0, to: 2, firstForecastIndex: 1 },
  });

  it("compares the same months on both sides: this RF's month 2 against the previous RF's month 2", () => {
    const v = buildVariance(shorter);
    expect(v.lines[0].total).toEqual([
      { current: 300, previous: 230, abs: 70, pct: 30.4 },
      { current: 300, previous: 250, abs: 50, pct: 20 },
    ]);
    expect(v.lines[1].total[1]).toEqual({ current: 10, previous: null, ...dash });
    expect(v.grand.total[1]).toEqual({ current: 310, previous: 250, abs: 60, pct: 24 });
  });

  it("says which of the year's months were compared, and how many", () => {
    expect(buildVariance(shorter).totalMonths).toEqual([
      { compared: 2, of: 2, indexes: [0, 1] },
      { compared: 1, of: 2, indexes: [2] },
    ]);
    expect(buildVariance(input()).totalMonths).toEqual([
      { compared: 2, of: 2, indexes: [0, 1] },
      { compared: 2, of: 2, indexes: [2, 3] },
    ]);
  });

  it("reconciles at every row: the shown Δ is the shown current total minus the shown previous one", () => {
    const v = buildVariance(
      input({
        groups: [
          {
            accounts: [
              { account: SALARIES, values: [0.1, 0.2, 100.004, 50.005] },
              { account: CHARGES, values: [0.2, 0.1, 0.004, 0.005] },
            ],
          },
        ],
        previous: new Map([
          [SALARIES, [0.1, 0.1, 0.005, 1]],
          [CHARGES, [0.1, 0.1, 0.005, 1]],
        ]),
        previousWindow: { from: 0, to: 2, firstForecastIndex: 1 },
      }),
    );
    for (const row of [...v.lines, ...v.groups, v.grand])
      for (const total of row.total) {
        if (total.previous === null) continue;
        expect(total.abs).toBeCloseTo(total.current - total.previous, 9);
        expect(Math.round(total.current * 100) / 100).toBe(total.current);
      }
    // 2027 compares month 2 only: 100,00 + 0,00 against 0,01 + 0,01.
    expect(v.grand.total[1]).toEqual({ current: 100.01, previous: 0.01, abs: 100, pct: 1000000 });
  });

  it("shows — where the windows share none of the year's months", () => {
    const v = buildVariance(input({ previousWindow: { from: 0, to: 1, firstForecastIndex: 1 } }));
    expect(v.totalMonths[1]).toEqual({ compared: 0, of: 2, indexes: [] });
    expect(v.lines[0].total[1]).toEqual({ current: 0, previous: null, ...dash });
    expect(v.grand.total[1]).toEqual({ current: 0, previous: null, ...dash });
  });
});

describe("without a previous RF (RF1 of a year whose RF4 before it has no records)", () => {
  it("shows — in every RF and total comparison, and still compares closed months with this RF's forecast", () => {
    const v = buildVariance(
      input({ previousRf: "RF4 2025", previous: new Map(), currentMonthIndex: 3, firstForecastIndex: 2 }),
    );
    expect(v.previousFound).toBe(false);
    expect(v.grand.rf).toEqual([dash, dash, dash, dash]);
    expect(v.grand.total.map((t) => t.previous)).toEqual([null, null]);
    expect(v.lines[0].actual).toEqual([dash, dash, null, null]);
  });
});

describe("the groups asked for", () => {
  it("reads ?cols= as a list or repeated, ignores unknown names, and keeps a fixed order", () => {
    expect(parseVarianceColumns(new URLSearchParams("cols=actual,rf"))).toEqual(["rf", "actual"]);
    expect(parseVarianceColumns(new URLSearchParams("cols=total&cols=xx&cols=RF"))).toEqual(["total", "rf"]);
    expect(parseVarianceColumns(new URLSearchParams(""))).toEqual([]);
  });

  it("computes only the groups shown", () => {
    const v = buildVariance(input({ columns: ["rf"] }));
    expect(v.lines[0].total).toEqual([]);
    expect(v.lines[0].actual).toEqual([]);
    expect(v.closedMonths).toEqual([]);
    expect(v.lines[0].rf).toHaveLength(4);
  });

  it("names the previous RF: RF2 → RF1 of the year, RF1 → RF4 of the year before", () => {
    const previous = (name: string) => previousScenario(parseScenario(name)!).name;
    expect(previous("RF1 2026")).toBe("RF4 2025");
    expect(previous("RF2 2026")).toBe("RF1 2026");
    expect(previous("RF3 2026")).toBe("RF2 2026");
    expect(previous("RF4 2026")).toBe("RF3 2026");
  });
});
