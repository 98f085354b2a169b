import { describe, expect, it } from "vitest";
import { formatCount, normalizeCnpj, parseDate, parseYearMonthDay } from "./values";

describe("import value rules", () => {
  it("checks CNPJ check digits", () => {
    expect(normalizeCnpj("11.222.333/0001-81")).toBe("11222333000181");
    expect(normalizeCnpj("11222333000182")).toBeNull();
    expect(normalizeCnpj("11111111111111")).toBeNull();
    expect(normalizeCnpj("1122233300018")).toBeNull();
  });

  it("parses dates in the accepted forms and refuses impossible ones", () => {
    expect(parseDate("2027-12-31")).toEqual(new Date("2027-12-31T00:00:00Z"));
    expect(parseDate("31/12/2027")).toEqual(new Date("2027-12-31T00:00:00Z"));
    expect(parseDate("20271231")).toEqual(new Date("2027-12-31T00:00:00Z"));
    expect(parseDate("2027-02-29")).toBeNull();
    expect(parseDate("12/31/2027")).toBeNull();
    expect(parseDate(" 2024-02-29 ")).toEqual(new Date("2024-02-29T00:00:00Z"));
    expect(parseDate("2027-1a-31")).toBeNull();
    expect(parseDate("2027-12-31T10:00:00Z")).toEqual(new Date("2027-12-31T00:00:00Z"));
    expect(parseYearMonthDay("2026-01-31")).toBe("20260131");
    expect(parseYearMonthDay("20261301")).toBeNull();
  });

  it("formats counts with the pt-BR thousands separator", () => {
    expect(formatCount(12345)).toBe("12.345");
    expect(formatCount(67)).toBe("67");
  });
});
