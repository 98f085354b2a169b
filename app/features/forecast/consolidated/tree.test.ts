import { describe, expect, it } from "vitest";
import { cycleSummary, displayShares } from "./cycle-summary";
import type { FigureSet } from "./figures";
import { DEFAULT_QUERY, isOpen, queryParams, toggled } from "./query";
import { buildTree, visibleRows } from "./tree";
import { makeRandom } from "./write-paths.fixture";

/** The tree's sums, which rows show, and the cycle's shares, as pure rules. */

const set = (lines: Record<string, { account: string; group: string; amounts: (number | null)[] }[]>): FigureSet => ({
  months: [0, 1, 2],
  lines: new Map(
    Object.entries(lines).map(([cc, list]) => [cc, new Map(list.map((l) => [l.account, { ...l, label: l.account }]))]),
  ),
  centres: new Map(),
});

const centres = [
  { cost_center_concat: "CC1 - A", cost_center: "CC1", level: "Comercial", state: "approved" as const },
  { cost_center_concat: "CC2 - B", cost_center: "CC2", level: "Comercial", state: "preparing" as const },
  { cost_center_concat: "CC3 - C", cost_center: "CC3", level: "Operações", state: "submitted" as const },
];
const shown = set({
  "CC1 - A": [
    { account: "4101 - X", group: "Pessoal", amounts: [1, 2, null] },
    { account: "4201 - Y", group: "Gerais", amounts: [10, null, 30] },
  ],
  "CC2 - B": [{ account: "4101 - X", group: "Pessoal", amounts: [100, 200, 300] }],
  "CC3 - C": [{ account: "4101 - X", group: "Pessoal", amounts: [null, null, 5] }],
});

describe("buildTree", () => {
  it("sums every level from the accounts, in order: company, area, cost centre, group, account", () => {
    const rows = buildTree({ monthCount: 3, centres, shown, compared: null, noArea: "-", companyLabel: "Empresa" });
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(rows.map((r) => r.key)).toEqual([
      "total",
      "a|Comercial",
      "c|CC1 - A",
      "g|CC1 - A|Pessoal",
      "l|CC1 - A|4101 - X",
      "g|CC1 - A|Gerais",
      "l|CC1 - A|4201 - Y",
      "c|CC2 - B",
      "g|CC2 - B|Pessoal",
      "l|CC2 - B|4101 - X",
      "a|Operações",
      "c|CC3 - C",
      "g|CC3 - C|Pessoal",
      "l|CC3 - C|4101 - X",
    ]);
    expect(byKey.get("c|CC1 - A")).toMatchObject({ a: [11, 2, 30], aTotal: 43, state: "approved" });
    expect(byKey.get("a|Comercial")).toMatchObject({ a: [111, 202, 330], aTotal: 643 });
    expect(byKey.get("total")).toMatchObject({ a: [111, 202, 335], aTotal: 648, label: "Empresa" });
    expect(byKey.get("a|Operações")).toMatchObject({ a: [null, null, 5] });
  });

  it("beside compared figures: both totals sum the same months, those both sides cover", () => {
    const compared = set({ "CC1 - A": [{ account: "4101 - X", group: "Pessoal", amounts: [2, 7, null] }] });
    // The compared side covers months 0 and 1, the shown one 0 and 2 (say): only month 0 is common.
    const rows = buildTree({
      monthCount: 3,
      centres,
      shown,
      compared,
      common: [0],
      noArea: "-",
      companyLabel: "Empresa",
    });
    const account = rows.find((r) => r.key === "l|CC1 - A|4101 - X")!;
    expect(account).toMatchObject({ b: [2, 7, null], bTotal: 2, aTotal: 3, aMatched: 1 });
    // Nothing to compare with: the shown side's total over the common months, and none beside it.
    expect(rows.find((r) => r.key === "c|CC2 - B")).toMatchObject({ bTotal: null, aMatched: 100 });
    expect(rows.find((r) => r.key === "total")).toMatchObject({ bTotal: 2, aMatched: 111 });
    // An account only the compared side has counts 0 on the shown side.
    const only = set({ "CC3 - C": [{ account: "4999 - Z", group: "Pessoal", amounts: [4, null, null] }] });
    const withOnly = buildTree({
      monthCount: 3,
      centres,
      shown,
      compared: only,
      common: [0, 1],
      noArea: "-",
      companyLabel: "Empresa",
    });
    expect(withOnly.find((r) => r.key === "l|CC3 - C|4999 - Z")).toMatchObject({ aMatched: 0, bTotal: 4 });
    // No month in common: nothing on either side.
    const none = buildTree({ monthCount: 3, centres, shown, compared, common: [], noArea: "-", companyLabel: "E" });
    expect(none.find((r) => r.key === "total")).toMatchObject({ bTotal: null, aMatched: null });
  });

  it("shows only the rows whose ancestors are open; a toggle's address opens and closes one row", () => {
    const rows = buildTree({ monthCount: 3, centres, shown, compared: null, noArea: "-", companyLabel: "E" });
    const shownKeys = (query: typeof DEFAULT_QUERY) =>
      visibleRows(rows, (key, depth) => isOpen(query, key, depth)).map((r) => r.key);
    expect(shownKeys(DEFAULT_QUERY)).toEqual(["total", "a|Comercial", "a|Operações"]);
    const opened = toggled(DEFAULT_QUERY, "a|Operações", 0);
    expect(queryParams(opened).getAll("abrir")).toEqual(["a|Operações"]);
    expect(shownKeys(opened)).toEqual(["total", "a|Comercial", "a|Operações", "c|CC3 - C"]);
    expect(toggled(opened, "a|Operações", 0)).toEqual(DEFAULT_QUERY);
    const all = { ...DEFAULT_QUERY, level: 3 };
    expect(shownKeys(all)).toHaveLength(rows.length);
    const closed = toggled(all, "a|Comercial", 0);
    expect(queryParams(closed).getAll("fechar")).toEqual(["a|Comercial"]);
    expect(shownKeys(closed)).toEqual([
      "total",
      "a|Comercial",
      "a|Operações",
      "c|CC3 - C",
      "g|CC3 - C|Pessoal",
      "l|CC3 - C|4101 - X",
    ]);
  });
});

describe("the cycle's shares", () => {
  it("add up to 100 % per area and for the company, for random amounts and states", () => {
    const random = makeRandom(42);
    const codes = ["preparing", "submitted", "returned", "approved", "not_submitted"] as const;
    for (let round = 0; round < 200; round++) {
      const list = Array.from({ length: random.int(1, 30) }, () => ({
        level: random.pick(["Comercial", "Operações", "Energia"]),
        state: random.pick(codes),
        amount: random.amount(),
      }));
      for (const row of cycleSummary(list)) {
        expect(row.states.reduce((s, x) => s + x.count, 0)).toBe(row.count);
        const shares = row.states.map((s) => s.share);
        if (row.total === 0) continue;
        expect(shares.reduce<number>((s, x) => s + (x ?? 0), 0)).toBeCloseTo(100, 9);
        const shown = displayShares(shares);
        expect(Math.round(shown.reduce<number>((s, x) => s + (x ?? 0), 0) * 10)).toBe(1000);
      }
    }
  });

  it("are none (—) for a total of zero", () => {
    const [company] = cycleSummary([{ level: "A", state: "approved", amount: 0 }]);
    expect(company.states.map((s) => s.share)).toEqual([null, null, null, null, null]);
  });
});
