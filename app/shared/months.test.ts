import { describe, expect, it } from "vitest";
import {
  addMonths,
  addMonthsToDate,
  compareMonths,
  dayLabel,
  isoDate,
  monthAt,
  monthKey,
  monthKeyOfDate,
  monthLabel,
  monthLabelOfDate,
  monthOf,
  monthOfDate,
  monthRange,
  monthShortLabel,
  monthStartDate,
  monthStartOfKey,
  monthsBetween,
  parseIsoDate,
  parseMonthKey,
  parseMonthText,
} from "./months";

const m = (year: number, month: number) => monthOf(year, month);

describe("parsing months", () => {
  it.each([
    ["2026-03", m(2026, 3)],
    ["2026-12", m(2026, 12)],
    ["2026-01", m(2026, 1)],
    [" 2026-03 ", m(2026, 3)],
    ["2026-00", null],
    ["2026-13", null],
    ["2026-3", null],
    ["26-03", null],
    ["03/2026", null],
    ["2026-03-01", null],
    ["", null],
    [null, null],
  ])("the key %j is %j", (text, month) => {
    expect(parseMonthKey(text)).toBe(month);
  });

  it.each([
    ["2026-03", m(2026, 3)],
    ["03/2026", m(2026, 3)],
    ["3/2026", m(2026, 3)],
    ["13/2026", null],
    ["00/2026", null],
    ["março", null],
    ['{"$gt":""}', null],
  ])("what people type, %j, is %j", (text, month) => {
    expect(parseMonthText(text)).toBe(month);
  });
});

describe("formatting months", () => {
  it.each([
    [m(2026, 3), "2026-03", "03/2026", "Mar 26"],
    [m(1999, 12), "1999-12", "12/1999", "Dec 99"],
    [m(2000, 1), "2000-01", "01/2000", "Jan 00"],
  ])("%j is %j, %j and %j", (month, key, label, short) => {
    expect(monthKey(month)).toBe(key);
    expect(monthLabel(month)).toBe(label);
    expect(monthShortLabel(month)).toBe(short);
  });
});

describe("arithmetic, comparison and ranges", () => {
  it.each([
    [m(2026, 1), -1, m(2025, 12)],
    [m(2025, 12), 1, m(2026, 1)],
    [m(2026, 3), -27, m(2023, 12)],
    [m(2026, 3), 0, m(2026, 3)],
    [m(2026, 11), 14, m(2028, 1)],
  ])("%j + %j months is %j", (month, n, expected) => {
    expect(addMonths(month, n)).toBe(expected);
    expect(monthsBetween(month, expected)).toBe(n);
    expect(Math.sign(compareMonths(month, expected)) || 0).toBe(-Math.sign(n) || 0);
  });

  it("lists a range inclusively, across a year, and nothing when reversed", () => {
    expect(monthRange(m(2025, 11), m(2026, 2)).map(monthKey)).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    expect(monthRange(m(2026, 2), m(2026, 2))).toEqual([m(2026, 2)]);
    expect(monthRange(m(2026, 3), m(2026, 2))).toEqual([]);
  });
});

describe("stored dates", () => {
  it("a month is stored as its first day at 00:00 UTC, and comes back from it", () => {
    expect(monthStartDate(m(2026, 3)).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    for (const month of [m(1950, 12), m(2026, 1), m(2030, 12)]) expect(monthOfDate(monthStartDate(month))).toBe(month);
    expect(monthOfDate(new Date("2026-03-31T23:59:59Z"))).toBe(m(2026, 3));
  });

  it("converts keys and stored dates both ways, and moves a stored month", () => {
    expect(monthStartOfKey("2026-03")?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(monthStartOfKey("2026-13")).toBeNull();
    expect(monthKeyOfDate(new Date("2026-03-01T00:00:00Z"))).toBe("2026-03");
    expect(monthLabelOfDate("2026-03-01T00:00:00.000Z")).toBe("03/2026");
    expect(addMonthsToDate(new Date("2026-01-01T00:00:00Z"), -1).toISOString()).toBe("2025-12-01T00:00:00.000Z");
  });

  it("the month of an instant is the month in the portal's zone, not in UTC", () => {
    // 1 March 02:00 UTC is still 28 February in São Paulo (UTC−3).
    expect(monthAt(new Date("2026-03-01T02:00:00Z"), "America/Sao_Paulo")).toBe(m(2026, 2));
    expect(monthAt(new Date("2026-03-01T03:00:00Z"), "America/Sao_Paulo")).toBe(m(2026, 3));
    expect(monthAt(new Date("2026-03-01T02:00:00Z"), "UTC")).toBe(m(2026, 3));
  });
});

describe("calendar days", () => {
  it.each([
    ["2026-02-28", { year: 2026, month: 2, day: 28 }],
    ["2024-02-29", { year: 2024, month: 2, day: 29 }],
    ["2026-02-29", null],
    ["2026-13-01", null],
    ["2026-1-01", null],
  ])("%j is %j", (text, day) => {
    expect(parseIsoDate(text)).toEqual(day);
    if (day) {
      expect(isoDate(day)).toBe(text);
      expect(dayLabel(day)).toBe(`${text.slice(8)}/${text.slice(5, 7)}/${text.slice(0, 4)}`);
    }
  });
});
