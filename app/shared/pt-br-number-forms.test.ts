import { describe, expect, it } from "vitest";
import { formatPtBr2, hasAtMostTwoDecimals, parsePtBrNumber, roundTo2 } from "./numbers";

const value = (text: string) => {
  const parsed = parsePtBrNumber(text);
  return parsed.ok ? parsed.value : "invalid";
};

describe("parsePtBrNumber", () => {
  it.each([
    ["1.234,56", 1234.56],
    ["1234,56", 1234.56],
    ["1234", 1234],
    ["1.234", 1234],
    ["12.345.678,9", 12345678.9],
    [",5", 0.5],
    ["0,125", 0.125],
    ["-1.234,5", -1234.5],
    ["+7", 7],
    ["(1.234,56)", -1234.56],
    ["  42,10\u00a0", 42.1],
    ["1234.56", 1234.56],
    ["0.5", 0.5],
    ["0.125", 0.125],
    ["-0", 0],
  ])("reads %j as %d", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it("reads empty text (and spaces) as 0, and says it was empty", () => {
    expect(parsePtBrNumber("")).toEqual({ ok: true, value: 0, empty: true });
    expect(parsePtBrNumber("   ")).toEqual({ ok: true, value: 0, empty: true });
    expect(parsePtBrNumber("0")).toEqual({ ok: true, value: 0, empty: false });
  });

  it.each([
    "abc",
    "12a",
    "1,234.56",
    "1.23.4",
    "12.34,5",
    "--1",
    "1,2,3",
    ",",
    "-",
    "()",
    "1e5",
    "R$ 10",
    "Infinity",
    "1 234",
    "1234567890123456",
  ])("refuses %j", (text) => {
    expect(parsePtBrNumber(text)).toEqual({ ok: false });
  });

  it("keeps 15 significant digits and refuses more", () => {
    expect(value("9.999.999.999.999,99")).toBe(9999999999999.99);
    expect(value("99.999.999.999.999,99")).toBe("invalid");
  });
});

describe("roundTo2", () => {
  it.each([
    [1.005, 1.01],
    [-2.675, -2.68],
    [1.004999, 1],
    [1234.5678, 1234.57],
    [0.001, 0],
    [-0.004, 0],
    [10, 10],
  ])("rounds %d to %d", (input, expected) => {
    expect(roundTo2(input)).toBe(expected);
  });
});

describe("hasAtMostTwoDecimals", () => {
  it("accepts cents and refuses finer values or non-numbers", () => {
    expect(hasAtMostTwoDecimals(1234.56)).toBe(true);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
    expect(hasAtMostTwoDecimals(-7)).toBe(true);
    expect(hasAtMostTwoDecimals(1.234)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe("formatPtBr2", () => {
  it.each([
    [0, "0,00"],
    [1234.5, "1.234,50"],
    [-1234.567, "-1.234,57"],
    [999.999, "1.000,00"],
    [12345678.9, "12.345.678,90"],
    [-0.001, "0,00"],
    [0.05, "0,05"],
    [100, "100,00"],
  ])("formats %d as %s", (input, expected) => {
    expect(formatPtBr2(input)).toBe(expected);
  });

  it("round-trips through the parser", () => {
    for (const n of [0, 0.01, 1.1, 999.99, 1000, 123456.78, -98765.43]) expect(value(formatPtBr2(n))).toBe(n);
  });
});
