import { describe, expect, it } from "vitest";
import { roundTo2 } from "~/shared/numbers";
import { type ColumnSetup, valueColumns } from "./columns";
import type { TreeRow } from "./tree";
import { makeRandom } from "./write-paths.fixture";

/**
 * The consolidated view's value columns: when the two sides cover different months, both totals beside the Δ sum the
 * months both cover and their headers say which; the year's total is labelled as the whole year; the Δ and Δ% are
 * computed from the two totals as shown (to cents).
 */

const months = Array.from({ length: 12 }, (_, i) => {
  const mm = String(i + 1).padStart(2, "0");
  return { key: `2027-${mm}`, label: `${mm}/2027`, forecast: i >= 1 };
});
const setup = (over: Partial<ColumnSetup> = {}): ColumnSetup => ({
  months,
  year: 2027,
  baseLabel: "RF1 2027",
  compareLabel: "RF4 2026",
  cols: ["total", "mes"],
  common: [0, 1, 2, 3, 4, 5, 6, 7],
  ...over,
});
const headers = (s: ColumnSetup) => valueColumns(s).map((c) => [c.id, c.header]);
type Row = Pick<TreeRow, "a" | "aTotal" | "b" | "bTotal" | "aMatched">;

describe("the consolidated view's comparison columns", () => {
  it("over fewer months than the year: the shown total of those months beside the compared one, both labelled", () => {
    expect(headers(setup()).filter(([id]) => !id.startsWith("m_") && !/^[dp]_2027/.test(id))).toEqual([
      ["total", "Total 2027 (ano inteiro)"],
      ["a_total", "Total 2027 RF1 2027 (jan–ago/27, 8 de 12 meses)"],
      ["b_total", "Total 2027 RF4 2026 (jan–ago/27, 8 de 12 meses)"],
      ["d_total", "Δ (jan–ago/27)"],
      ["p_total", "Δ% (jan–ago/27)"],
    ]);
  });

  it("over every month: one year's total, the compared one and the Δ, with no month label", () => {
    const all = setup({ common: months.map((_, i) => i) });
    expect(headers(all).filter(([id]) => /total/.test(id))).toEqual([
      ["total", "Total 2027"],
      ["b_total", "Total 2027 RF4 2026"],
      ["d_total", "Δ"],
      ["p_total", "Δ%"],
    ]);
  });

  it("against another year's actuals: each side's months in its own year", () => {
    const other = setup({ compareLabel: "Realizado", compareYear: 2026, common: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(headers(other).filter(([id]) => id === "a_total" || id === "b_total")).toEqual([
      ["a_total", "Total 2027 RF1 2027 (jan–out/27, 10 de 12 meses)"],
      ["b_total", "Total 2026 Realizado (jan–out/26, 10 de 12 meses)"],
    ]);
  });

  it("shows a month's Δ only for the months both sides cover", () => {
    const columns = valueColumns(setup());
    const row: Row = { a: months.map(() => 10), b: months.map(() => 4), aTotal: 120, bTotal: 32, aMatched: 80 };
    expect(columns.find((c) => c.id === "d_2027-08")!.value(row)).toBe(6);
    expect(columns.find((c) => c.id === "d_2027-09")!.value(row)).toBeNull();
    expect(columns.find((c) => c.id === "p_2027-09")!.value(row)).toBeNull();
  });

  it("has Δ = shown A − shown B and Δ% = Δ / |shown B| (one decimal) at every row, for random sums", () => {
    const columns = valueColumns(setup());
    const value = (id: string, row: Row) => columns.find((c) => c.id === id)!.value(row);
    const random = makeRandom(2027);
    for (let round = 0; round < 500; round++) {
      // Sums of many cents carry binary noise (14486487.100000001): what shows is rounded to cents.
      const noisy = () => (random.next() < 0.1 ? 0 : (random.int(-1e9, 1e9) + random.next()) / 100);
      const row: Row = { a: [], b: [], aTotal: noisy(), bTotal: noisy(), aMatched: noisy() };
      const a = roundTo2(value("a_total", row)!);
      const b = roundTo2(value("b_total", row)!);
      const abs = value("d_total", row)!;
      expect(Math.round(abs * 100), `${a} − ${b}`).toBe(Math.round(a * 100) - Math.round(b * 100));
      const pct = value("p_total", row);
      const [cents, base] = [Math.round(abs * 100), Math.abs(Math.round(b * 100))];
      if (base === 0) expect(pct).toBeNull();
      else expect(pct).toBe((Math.sign(cents) * Math.round((Math.abs(cents) * 1000) / base)) / 10 || 0);
    }
  });
});
