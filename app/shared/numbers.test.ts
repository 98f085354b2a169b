import { describe, expect, it } from "vitest";
import { formatNumber, formatPercent, formatSize, type NumberRule, readNumber, readNumberText } from "./numbers";

const MONEY: NumberRule = { decimals: 2, min: -1e13, max: 1e13, excessDecimals: "round" };
const COUNT: NumberRule = { decimals: 0, min: 0, max: 1_000_000, excessDecimals: "refuse" };
const FIGURE: NumberRule = { decimals: 2, min: 0, max: 31, excessDecimals: "refuse" };

describe("readNumberText: the forms of a number", () => {
  it.each([
    ["1.234,56", 1234.56],
    ["1234,56", 1234.56],
    ["1234", 1234],
    [",5", 0.5],
    ["-1.234,5", -1234.5],
    ["+3", 3],
    ["(1.234,56)", -1234.56],
    ["12.5", 12.5],
    ["1234.56", 1234.56],
    ["1.234", 1234],
    ["1.234.567", 1234567],
    [" 1234,5 ", 1234.5],
    ["\u00a0- 1.234,50", -1234.5],
    ["0,000", 0],
    ["-0", 0],
  ])("reads %j as %s", (text, value) => {
    expect(readNumberText(text)).toMatchObject({ ok: true, value, empty: false });
  });

  it("reads empty text (or only spaces) as 0, marked empty", () => {
    expect(readNumberText("")).toEqual({ ok: true, value: 0, empty: true, decimals: 0 });
    expect(readNumberText("  ")).toMatchObject({ value: 0, empty: true });
  });

  it.each([
    "abc",
    "1,234.56",
    "1.23.4",
    "R$ 10",
    "--1",
    "1,2,3",
    ",",
    "1e5",
    "12.",
    ".5",
    "1234567890123456",
    "1 234",
    "1\u00a0234,50",
  ])("refuses %j", (text) => {
    expect(readNumberText(text)).toBeNull();
  });

  it("counts the decimals that matter (trailing zeros do not)", () => {
    expect(readNumberText("10,500")).toMatchObject({ value: 10.5, decimals: 1 });
    expect(readNumberText("1.234,567")).toMatchObject({ decimals: 3 });
  });
});

describe("readNumber: a rule's decimals, minimum and maximum", () => {
  it("rounds extra decimals of an amount half away from zero", () => {
    expect(readNumber("1,005", MONEY)).toEqual({ ok: true, value: 1.01, empty: false });
    expect(readNumber("-2,675", MONEY)).toEqual({ ok: true, value: -2.68, empty: false });
    expect(readNumber(0.1 + 0.2, MONEY)).toEqual({ ok: true, value: 0.3, empty: false });
  });

  it("refuses extra decimals where the rule says so, but not trailing zeros", () => {
    expect(readNumber("12,5", COUNT)).toEqual({ ok: false, problem: "decimals" });
    expect(readNumber("12,00", COUNT)).toEqual({ ok: true, value: 12, empty: false });
    expect(readNumber(12.5, COUNT)).toEqual({ ok: false, problem: "decimals" });
    expect(readNumber("10,500", FIGURE)).toEqual({ ok: true, value: 10.5, empty: false });
  });

  it("says negative for a value below a minimum of 0, and min/max otherwise", () => {
    expect(readNumber("-1", COUNT)).toEqual({ ok: false, problem: "negative" });
    expect(readNumber("(5)", FIGURE)).toEqual({ ok: false, problem: "negative" });
    expect(readNumber("31,01", FIGURE)).toEqual({ ok: false, problem: "max" });
    expect(readNumber("31", FIGURE)).toEqual({ ok: true, value: 31, empty: false });
    expect(readNumber("-20000000000000", MONEY)).toEqual({ ok: false, problem: "min" });
    expect(readNumber(Number.NaN, MONEY)).toEqual({ ok: false, problem: "format" });
  });

  it("reads 12.5 as twelve and a half under every rule that allows a decimal (docs/decisions.md)", () => {
    expect(readNumber("12.5", FIGURE)).toEqual({ ok: true, value: 12.5, empty: false });
    expect(readNumber("12.5", COUNT)).toEqual({ ok: false, problem: "decimals" });
  });
});

describe("formatNumber, formatPercent, formatSize", () => {
  it.each([
    [1234.5, 2, 2, "1.234,50"],
    [-0.05, 2, 2, "-0,05"],
    [-0.001, 2, 2, "0,00"],
    [0, 2, 2, "0,00"],
    [1234567.891, 2, 2, "1.234.567,89"],
    [1.005, 2, 2, "1,01"],
    [10.5, 2, 1, "10,5"],
    [10, 2, 0, "10"],
    [1000000, 0, 0, "1.000.000"],
  ])("formats %s with %s decimals (at least %s) as %j", (value, decimals, min, text) => {
    expect(formatNumber(value, decimals, min)).toBe(text);
  });

  it("writes percentages and sizes in pt-BR", () => {
    expect(formatPercent(12.345)).toBe("12,3%");
    expect(formatPercent(-5, 0)).toBe("-5%");
    expect(formatSize(1.5 * 1024 ** 2)).toBe("1,5 MB");
    expect(formatSize(2 * 1024 ** 3)).toBe("2 GB");
    expect(formatSize(12 * 1024 + 100)).toBe("12 KB");
    expect(formatSize(900)).toBe("900 bytes");
    expect(formatSize(1000)).toBe("1.000 bytes");
  });

  it("shows what a pt-BR Intl formatter shows for the same decimals, except a minus on a value shown as zero", () => {
    // Screens format thousands of cells per page: a formatter built per call (toLocaleString with options) costs
    // about 30 µs each, so they call formatNumber; what people read must not change.
    let seed = 7;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (const [decimals, min] of [
      [1, 1],
      [1, 0],
      [2, 0],
    ]) {
      const intl = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: min, maximumFractionDigits: decimals });
      for (let i = 0; i < 2000; i++) {
        const value = (next() - 0.5) * 10 ** Math.floor(next() * 8);
        const shown = formatNumber(value, decimals, min);
        if (/^-?0(,0*)?$/.test(intl.format(value))) expect(shown).not.toMatch(/^-/);
        else expect(shown).toBe(intl.format(value));
      }
    }
  });

  it("reads back what it writes", () => {
    for (const value of [0, 1, -1, 0.5, 1234.56, -98765.43, 12345678.9])
      expect(readNumber(formatNumber(value, 2), MONEY)).toEqual({ ok: true, value, empty: false });
  });
});
