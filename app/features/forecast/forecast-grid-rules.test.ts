import { describe, expect, it } from "vitest";
import { parseMonthKey } from "~/shared/months";
import {
  buildGroups,
  changedCells,
  editedLines,
  gridRows,
  initialValues,
  sumValues,
  type WindowRecord,
  yearSums,
} from "./forecast-grid-rules";
import { parseTsv, planPaste, readPastedBlock } from "./grid-paste";
import { applyPercent, readPercent, takesMassChange } from "./mass-change";
import { annualTotals } from "./release-points";

const record = (
  account: string,
  group: string,
  monthIndex: number,
  value: number,
  forecast: number,
  edited = false,
): WindowRecord => ({
  account_concat: account,
  acc_description: account.split(" - ")[1],
  group_level_2: group,
  monthIndex,
  value,
  forecast,
  edited,
});

const PEOPLE = "Despesas com Pessoal";
const GENERAL = "Despesas Gerais";
// Three months: index 0 and 1 are actuals, 2 is a forecast column.
const records = [
  record("4201001 - Aluguel", GENERAL, 0, 10, 99),
  record("4201001 - Aluguel", GENERAL, 2, 0, 30.5, true),
  record("4101010 - Bônus", PEOPLE, 1, 7, 99),
  record("4101002 - Encargos", PEOPLE, 0, 1, 99),
  record("4101002 - Encargos", PEOPLE, 1, 2, 99),
  record("4101002 - Encargos", PEOPLE, 2, 0, 3),
  record("4101002 - Encargos", PEOPLE, 7, 0, 3),
];

describe("buildGroups and gridRows", () => {
  const groups = buildGroups(records, 3, 2);

  it("orders groups and accounts by account code, actuals before the anchor and forecasts after, null where nothing is stored", () => {
    expect(groups.map((g) => g.name)).toEqual([PEOPLE, GENERAL]);
    expect(groups[0].accounts.map((a) => a.account)).toEqual(["4101002 - Encargos", "4101010 - Bônus"]);
    expect(groups[0].accounts[0].values).toEqual([1, 2, 3]);
    expect(groups[0].accounts[1].values).toEqual([null, 7, null]);
    expect(groups[1].accounts[0]).toEqual({
      account: "4201001 - Aluguel",
      label: "Aluguel",
      values: [10, null, 30.5],
      edited: [2],
      stamps: [0, 0, 0],
    });
  });

  it("shows a stored amount that is not a number as an empty cell", () => {
    const broken = buildGroups(
      [{ ...record("4101001 - X", PEOPLE, 2, 0, 0), forecast: null }, record("4101001 - X", PEOPLE, 1, Number.NaN, 0)],
      3,
      2,
    );
    expect(broken[0].accounts[0].values).toEqual([null, null, null]);
  });

  it("gives each group a step, its rows and a step-total, and the cost centre a closing step-row", () => {
    const rows = gridRows(groups);
    expect(rows.map((r) => `${r.type}:${r.label}`)).toEqual([
      `step:${PEOPLE}`,
      "row:Encargos",
      "row:Bônus",
      `step-total:Total ${PEOPLE}`,
      `step:${GENERAL}`,
      "row:Aluguel",
      `step-total:Total ${GENERAL}`,
      "step-row:Total do centro de custo",
    ]);
    expect(rows.filter((r) => r.type === "row").map((r) => (r.type === "row" ? r.line : -1))).toEqual([0, 1, 2]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(gridRows([])).toEqual([]);
  });

  it("sums groups, the cost centre and years from the current values", () => {
    const values = initialValues(groups);
    values[1][2] = 100;
    const sums = sumValues(groups, values, 3);
    expect(sums.groups).toEqual([
      [1, 9, 103],
      [10, 0, 30.5],
    ]);
    expect(sums.grand).toEqual([11, 9, 133.5]);
    const months = ["2025-12", "2026-01", "2026-02"].map((k) => parseMonthKey(k) as number);
    expect(yearSums(sums.grand, annualTotals(months))).toEqual([11, 142.5]);
  });
});

describe("changes", () => {
  const groups = buildGroups(records, 3, 2);
  const original = initialValues(groups);

  it("sends only the cells whose value changed, with the loaded value for the concurrency check", () => {
    const current = original.map((row) => [...row]);
    current[0][2] = 4;
    current[2][2] = 30.5; // unchanged
    current[1][1] = 7;
    expect(changedCells(groups, ["2025-12", "2026-01", "2026-02"], original, current)).toEqual([
      { account: "4101002 - Encargos", month: "2026-02", old: 3, value: 4, at: 0 },
    ]);
    expect([...editedLines(original, current)]).toEqual([0]);
  });

  it("flags no row once a value is back to the loaded one", () => {
    const current = original.map((row) => [...row]);
    current[0][2] = 4;
    current[0][2] = 3;
    expect(editedLines(original, current).size).toBe(0);
    expect(changedCells(groups, ["a", "b", "c"], original, current)).toEqual([]);
  });
});

describe("paste", () => {
  it("splits lines and tabs, drops one trailing empty line and keeps empty cells", () => {
    expect(parseTsv("1\t2\r\n3\t\n")).toEqual([
      ["1", "2"],
      ["3", ""],
    ]);
    expect(parseTsv("1\n\n")).toEqual([["1"], [""]]);
    expect(parseTsv('"1.234,5"\t2')).toEqual([["1.234,5", "2"]]);
  });

  it("reads pt-BR numbers, empty as 0, rounded to cents", () => {
    expect(readPastedBlock("1.234,567\t\t-2\n0,1\t3\t4\n")).toEqual({
      ok: true,
      values: [
        [1234.57, 0, -2],
        [0.1, 3, 4],
      ],
    });
  });

  it("refuses the whole block when a cell is text, naming it", () => {
    expect(readPastedBlock("1\t2\n3\tabc\n")).toEqual({
      ok: false,
      reason: "notNumber",
      text: "abc",
      line: 2,
      column: 2,
    });
    expect(readPastedBlock("1,234.56")).toMatchObject({ ok: false, reason: "notNumber", line: 1, column: 1 });
  });

  it("refuses a block beyond 50,000 cells", () => {
    expect(readPastedBlock(Array.from({ length: 251 }, () => new Array(200).fill("1").join("\t")).join("\n"))).toEqual({
      ok: false,
      reason: "tooLarge",
    });
  });

  it("lays the block from the focused cell, skipping and counting locked targets and counting what falls outside", () => {
    // 4 × 4 grid; row 1 is a group row, column 0 is locked.
    const editable = (row: number, column: number) => row !== 1 && column !== 0;
    const plan = planPaste(
      [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
        [10, 11, 12],
      ],
      { row: 0, column: 1 },
      { rows: 4, columns: 4 },
      editable,
    );
    expect(plan.targets).toEqual([
      { row: 0, column: 1, value: 1 },
      { row: 0, column: 2, value: 2 },
      { row: 0, column: 3, value: 3 },
      { row: 2, column: 1, value: 7 },
      { row: 2, column: 2, value: 8 },
      { row: 2, column: 3, value: 9 },
      { row: 3, column: 1, value: 10 },
      { row: 3, column: 2, value: 11 },
      { row: 3, column: 3, value: 12 },
    ]);
    expect(plan.skipped).toBe(3);
    expect(plan.outside).toBe(0);
    const edge = planPaste([[1, 2, 3]], { row: 3, column: 2 }, { rows: 4, columns: 4 }, editable);
    expect(edge).toEqual({
      targets: [
        { row: 3, column: 2, value: 1 },
        { row: 3, column: 3, value: 2 },
      ],
      skipped: 0,
      outside: 1,
    });
  });
});

describe("mass change", () => {
  it.each([
    [1000, 10, "increase", 1100],
    [1000, 10, "decrease", 900],
    [333.33, 2.5, "increase", 341.66],
    [123.45, 33.333, "decrease", 82.3],
    [-50, 10, "increase", -55],
    [10, 100, "decrease", 0],
    [10, 0, "increase", 10],
  ] as const)("%d with %d%% %s gives %d", (value, percent, direction, expected) => {
    expect(applyPercent(value, percent, direction)).toBe(expected);
  });

  it("reads the percent in pt-BR, between 0 and 1,000,000, at most 100 to decrease", () => {
    expect(readPercent("2,5", "increase")).toEqual({ ok: true, percent: 2.5 });
    expect(readPercent("1.000.000", "increase")).toEqual({ ok: true, percent: 1_000_000 });
    expect(readPercent("100", "decrease")).toEqual({ ok: true, percent: 100 });
    expect(readPercent("101", "decrease")).toMatchObject({ ok: false, message: "Para diminuir, use no máximo 100%." });
    for (const bad of ["", "abc", "-5", "1.000.001"]) expect(readPercent(bad, "increase")).toMatchObject({ ok: false });
  });

  it("changes only cells with a value", () => {
    expect([null, 0, 5, -1].map(takesMassChange)).toEqual([false, false, true, true]);
  });
});
