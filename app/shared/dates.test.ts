import { afterEach, describe, expect, it } from "vitest";
import {
  calendarDateOf,
  DEFAULT_TIME_ZONE,
  formatCalendarDate,
  formatDate,
  formatDateTime,
  formatDayShortMonthYear,
  formatFileTimestamp,
  isTimeZone,
  portalTimeZone,
  setPortalTimeZone,
} from "./dates";

// 2030-05-02 00:13:27 UTC is 1 May 2030 21:13:27 in São Paulo (UTC−3, no daylight saving since 2019); the first
// release printed it as "02 May 30 12:13:27".
const lateEvening = new Date(Date.UTC(2030, 4, 2, 0, 13, 27));
// 2024-03-05 14:07:09 UTC = 11:07:09 in São Paulo; 2023-12-31 03:05:01 UTC = 00:05:01 on 31/12 there.
const afternoon = new Date(Date.UTC(2024, 2, 5, 14, 7, 9));
const localMidnight = new Date(Date.UTC(2023, 11, 31, 3, 5, 1));
// January 2018: São Paulo still had daylight saving (UTC−2).
const summer2018 = new Date(Date.UTC(2018, 0, 15, 12, 0, 0));

afterEach(() => setPortalTimeZone(DEFAULT_TIME_ZONE));

describe("the portal's zone", () => {
  it("defaults to America/Sao_Paulo, whatever the machine's zone", () => {
    expect(portalTimeZone()).toBe("America/Sao_Paulo");
    expect(formatDateTime(lateEvening)).toBe("01 mai 30 21:13:27");
  });
  it("follows the configured zone, and ignores a zone the runtime does not know", () => {
    setPortalTimeZone("UTC");
    expect(formatDateTime(lateEvening)).toBe("02 mai 30 00:13:27");
    setPortalTimeZone("Mars/Olympus_Mons");
    expect(portalTimeZone()).toBe("UTC");
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("Europe/Lisbon")).toBe(true);
  });
  it("an explicit zone wins over the portal's", () => {
    expect(formatDateTime(lateEvening, "Asia/Tokyo")).toBe("02 mai 30 09:13:27");
  });
  it("applies the zone's own rules for the date (daylight saving of the past)", () => {
    expect(formatDateTime(summer2018)).toBe("15 jan 18 10:00:00");
  });
});

describe("the wall clock of a zone, read from an offset kept per hour", () => {
  // What Intl says, field by field, as formatDateTime writes it.
  const formats = new Map<string, Intl.DateTimeFormat>();
  const reference = (ms: number, timeZone: string) => {
    let f = formats.get(timeZone);
    if (!f) {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      });
      formats.set(timeZone, f);
    }
    const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    const month = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"][
      Number(p.month) - 1
    ];
    return `${p.day} ${month} ${p.year.slice(-2)} ${p.hour}:${p.minute}:${p.second}`;
  };
  const sweep = (from: number, to: number, step: number) =>
    Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

  it("agrees with Intl across daylight-saving changes, half-hour and 45-minute zones, and a local mean time of the past", () => {
    const zones = [
      "America/Sao_Paulo",
      "Europe/Lisbon",
      "Australia/Lord_Howe",
      "America/St_Johns",
      "Asia/Kathmandu",
      "UTC",
    ];
    // Every 37 min 17.3 s over six months holding changes in all of them (São Paulo's last summer time among them).
    const instants = sweep(Date.UTC(2018, 9, 1), Date.UTC(2019, 3, 8), 2_237_300);
    // Minute by minute around São Paulo's changes of 2018-11-04 and 2019-02-17, and its 1914 change from local mean time (UTC−3:06:28).
    for (const at of [Date.UTC(2018, 10, 4, 3), Date.UTC(2019, 1, 17, 2), Date.UTC(1914, 0, 1, 3, 6, 28)])
      instants.push(...sweep(at - 7_200_000, at + 7_200_000, 60_500));
    for (const zone of zones) {
      const wrong = instants.filter((ms) => formatDateTime(new Date(ms), zone) !== reference(ms, zone));
      expect(wrong.map((ms) => `${zone} ${new Date(ms).toISOString()}`)).toEqual([]);
    }
  });
});

describe("formatDate: DD/MM/yyyy", () => {
  it("pads day and month, on the zone's calendar", () => {
    expect(formatDate(afternoon)).toBe("05/03/2024");
    expect(formatDate(lateEvening)).toBe("01/05/2030");
    expect(formatDate(localMidnight)).toBe("31/12/2023");
  });
  it("shows ' - ' for a missing or invalid date", () => {
    expect(formatDate(null)).toBe(" - ");
    expect(formatDate(new Date("nope"))).toBe(" - ");
  });
});

describe("formatFileTimestamp: 'D MMM YYYY H:mm' (pt-BR months, 24 h)", () => {
  it("does not pad the day or the hour", () => {
    expect(formatFileTimestamp(afternoon)).toBe("5 mar 2024 11:07");
    expect(formatFileTimestamp(lateEvening)).toBe("1 mai 2030 21:13");
    expect(formatFileTimestamp(localMidnight)).toBe("31 dez 2023 0:05");
  });
  it("accepts an ISO string (dates arrive serialised) and refuses garbage", () => {
    expect(formatFileTimestamp("2024-03-05T14:07:09.000Z")).toBe("5 mar 2024 11:07");
    expect(formatFileTimestamp("yesterday")).toBe(" - ");
    expect(formatFileTimestamp(undefined)).toBe(" - ");
  });
});

describe("formatDateTime: the job lists' 'DD MMM YY HH:mm:ss' (pt-BR months, 24 h)", () => {
  it("pads every part and uses the 24-hour clock", () => {
    expect(formatDateTime(afternoon)).toBe("05 mar 24 11:07:09");
    expect(formatDateTime(lateEvening)).toBe("01 mai 30 21:13:27");
    expect(formatDateTime(localMidnight)).toBe("31 dez 23 00:05:01");
  });
  it("names every month in Portuguese", () => {
    const months = Array.from(
      { length: 12 },
      (_, m) => formatDateTime(new Date(Date.UTC(2025, m, 15, 15)), "UTC").split(" ")[1],
    );
    expect(months).toEqual(["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"]);
  });
});

describe("formatDayShortMonthYear and formatCalendarDate", () => {
  it("a day of an instant in the zone, a calendar day as stored", () => {
    expect(formatDayShortMonthYear(lateEvening)).toBe("01 mai 2030");
    expect(formatDayShortMonthYear(localMidnight)).toBe("31 dez 2023");
    // 31/12/2026 stored as midnight UTC stays 31/12/2026 (in São Paulo that instant is the evening of the 30th).
    expect(formatCalendarDate(new Date(Date.UTC(2026, 11, 31)))).toBe("31/12/2026");
    expect(formatCalendarDate(null)).toBe(" - ");
  });
});

describe("the day of an instant, as a day value", () => {
  it("is the day in the portal's zone, at midnight UTC (how an XLSX date cell holds a day)", () => {
    expect(calendarDateOf(lateEvening)?.toISOString()).toBe("2030-05-01T00:00:00.000Z");
    expect(calendarDateOf(lateEvening, "Asia/Tokyo")?.toISOString()).toBe("2030-05-02T00:00:00.000Z");
    expect(calendarDateOf(localMidnight)?.toISOString()).toBe("2023-12-31T00:00:00.000Z");
    expect(formatCalendarDate(calendarDateOf(lateEvening))).toBe(formatDate(lateEvening));
  });
  it("is null for a missing or invalid date", () => {
    expect(calendarDateOf(null)).toBeNull();
    expect(calendarDateOf("not a date")).toBeNull();
  });
});
