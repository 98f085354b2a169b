import { describe, expect, it } from "vitest";
import { formatDayMonthYear, formatFileTimestamp, formatJobTimestamp } from "./dates";

// 2024-03-05 14:07:09 UTC, and a morning / midnight / noon instant for the 12-hour clock.
const afternoon = new Date(Date.UTC(2024, 2, 5, 14, 7, 9));
const morning = new Date(Date.UTC(2025, 10, 23, 9, 30, 0));
const midnight = new Date(Date.UTC(2023, 11, 31, 0, 5, 1));
const noon = new Date(Date.UTC(2023, 0, 1, 12, 0, 0));

describe("formatDayMonthYear: DD/MM/yyyy", () => {
  it("pads day and month, in UTC", () => {
    expect(formatDayMonthYear(afternoon)).toBe("05/03/2024");
    expect(formatDayMonthYear(midnight)).toBe("31/12/2023");
  });
  it("shows ' - ' for a missing or invalid date", () => {
    expect(formatDayMonthYear(null)).toBe(" - ");
    expect(formatDayMonthYear(new Date("nope"))).toBe(" - ");
  });
});

describe("formatFileTimestamp: 'D MMM YYYY H:mm' (en-US months)", () => {
  it("does not pad the day or the 24-hour hour", () => {
    expect(formatFileTimestamp(afternoon)).toBe("5 Mar 2024 14:07");
    expect(formatFileTimestamp(morning)).toBe("23 Nov 2025 9:30");
    expect(formatFileTimestamp(midnight)).toBe("31 Dec 2023 0:05");
  });
  it("accepts an ISO string (dates arrive serialised) and refuses garbage", () => {
    expect(formatFileTimestamp("2024-03-05T14:07:09.000Z")).toBe("5 Mar 2024 14:07");
    expect(formatFileTimestamp("yesterday")).toBe(" - ");
    expect(formatFileTimestamp(undefined)).toBe(" - ");
  });
});

describe("formatJobTimestamp: ' DD MMM YY hh:mm:ss' (en-US months, 12-hour clock)", () => {
  it("pads every part and uses the 12-hour clock of the pattern (hh = 01-12)", () => {
    expect(formatJobTimestamp(afternoon)).toBe("05 Mar 24 02:07:09");
    expect(formatJobTimestamp(morning)).toBe("23 Nov 25 09:30:00");
    expect(formatJobTimestamp(midnight)).toBe("31 Dec 23 12:05:01");
    expect(formatJobTimestamp(noon)).toBe("01 Jan 23 12:00:00");
  });
});
