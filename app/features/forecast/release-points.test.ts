import { describe, expect, it } from "vitest";
import {
  type CalendarDate,
  monthKey,
  monthLabel,
  monthOf,
  monthOfDate,
  parseIsoDate,
  parseMonthKey,
} from "~/shared/months";
import {
  annualTotals,
  editWindowOf,
  isEditableMonth,
  isForecastMonth,
  isOpenForEditing,
  parseScenario,
  type ScenarioCalendar,
  scenarioCalendar,
  scenarioOpenOn,
  totalYearOf,
  windowMonths,
} from "./release-points";
import { forecastTexts } from "./texts";

const day = (iso: string): CalendarDate => {
  const parsed = parseIsoDate(iso);
  if (!parsed) throw new Error(`bad date ${iso}`);
  return parsed;
};
const month = (key: string) => {
  const m = parseMonthKey(key);
  if (m === null) throw new Error(`bad month ${key}`);
  return m;
};
const calendarOf = (name: string): ScenarioCalendar => {
  const scenario = parseScenario(name);
  if (!scenario) throw new Error(`bad scenario ${name}`);
  return scenarioCalendar(scenario);
};

/**
 * Every release point, in a year whose RF1 anchor falls in the year before (the year boundary), with its anchor,
 * edit month and window, and the days around its edit month: the last day before it, its first and last day, and the
 * first day after it.
 */
const TABLE = [
  {
    rf: "RF1 2027",
    anchor: "2026-10-02",
    edit: "2026-11",
    first: "2025-11",
    last: "2027-12",
    months: 26,
    before: "2026-10-31",
    start: "2026-11-01",
    end: "2026-11-30",
    after: "2026-12-01",
  },
  {
    rf: "RF2 2027",
    anchor: "2027-01-02",
    edit: "2027-02",
    first: "2026-02",
    last: "2028-02",
    months: 25,
    before: "2027-01-31",
    start: "2027-02-01",
    end: "2027-02-28",
    after: "2027-03-01",
  },
  {
    rf: "RF3 2027",
    anchor: "2027-04-02",
    edit: "2027-05",
    first: "2026-05",
    last: "2028-05",
    months: 25,
    before: "2027-04-30",
    start: "2027-05-01",
    end: "2027-05-31",
    after: "2027-06-01",
  },
  {
    rf: "RF4 2027",
    anchor: "2027-07-02",
    edit: "2027-08",
    first: "2026-08",
    last: "2028-08",
    months: 25,
    before: "2027-07-31",
    start: "2027-08-01",
    end: "2027-08-31",
    after: "2027-09-01",
  },
  {
    rf: "RF1 2026",
    anchor: "2025-10-02",
    edit: "2025-11",
    first: "2024-11",
    last: "2026-12",
    months: 26,
    before: "2025-10-31",
    start: "2025-11-01",
    end: "2025-11-30",
    after: "2025-12-01",
  },
  {
    rf: "RF2 2028",
    anchor: "2028-01-02",
    edit: "2028-02",
    first: "2027-02",
    last: "2029-02",
    months: 25,
    before: "2028-01-31",
    start: "2028-02-01",
    end: "2028-02-29",
    after: "2028-03-01",
  },
] as const;

describe.each(TABLE)("$rf", (row) => {
  const calendar = calendarOf(row.rf);

  it(`anchors on ${row.anchor}, is edited in ${row.edit} and shows ${row.first}..${row.last} (${row.months} months)`, () => {
    expect(`${calendar.anchor.year}-${String(calendar.anchor.month).padStart(2, "0")}-0${calendar.anchor.day}`).toBe(
      row.anchor,
    );
    expect(monthKey(calendar.editMonth)).toBe(row.edit);
    expect(monthKey(calendar.firstMonth)).toBe(row.first);
    expect(monthKey(calendar.lastMonth)).toBe(row.last);
    expect(windowMonths(calendar)).toHaveLength(row.months);
    // 11 months before the anchor's month, 13 after (14 for RF1).
    expect(calendar.anchorMonth - calendar.firstMonth).toBe(11);
    expect(calendar.lastMonth - calendar.anchorMonth).toBe(row.rf.startsWith("RF1") ? 14 : 13);
    // The edit month is the month after the anchor, and the first forecast column.
    expect(calendar.editMonth).toBe(calendar.anchorMonth + 1);
    expect(calendar.firstForecastMonth).toBe(calendar.editMonth);
  });

  it.each([
    ["the last day before the edit month", row.before, false],
    ["the first day of the edit month", row.start, true],
    ["the last day of the edit month", row.end, true],
    ["the first day after the edit month", row.after, false],
  ])("is %s (%s) open: %s", (_label, today, open) => {
    expect(isOpenForEditing(calendar, day(today))).toBe(open);
    // In the edit month exactly the forecast columns can change; outside it, none.
    const editable = windowMonths(calendar).filter((m) => isEditableMonth(calendar, m, day(today)));
    if (open) {
      expect(monthKey(editable[0])).toBe(row.edit);
      expect(monthKey(editable[editable.length - 1])).toBe(row.last);
      expect(editable).toHaveLength(calendar.lastMonth - calendar.editMonth + 1);
    } else {
      expect(editable).toEqual([]);
    }
  });

  it("is locked in the same month a year earlier and a year later", () => {
    const start = day(row.start);
    expect(isOpenForEditing(calendar, { ...start, year: start.year - 1 })).toBe(false);
    expect(isOpenForEditing(calendar, { ...start, year: start.year + 1 })).toBe(false);
  });

  it("keeps the anchor's month with the actuals and refuses months outside the window, even in the edit month", () => {
    const today = day(row.start);
    expect(isForecastMonth(calendar, calendar.anchorMonth)).toBe(false);
    expect(isEditableMonth(calendar, calendar.anchorMonth, today)).toBe(false);
    expect(isEditableMonth(calendar, calendar.firstMonth, today)).toBe(false);
    expect(isEditableMonth(calendar, calendar.lastMonth + 1, today)).toBe(false);
    expect(isEditableMonth(calendar, calendar.firstMonth - 1, today)).toBe(false);
  });
});

describe("every day of two years", () => {
  it("opens exactly one scenario in Nov, Feb, May and Aug and none in the other months", () => {
    const opened: Record<string, string> = {};
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
      const d = new Date(t);
      const today = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
      const scenario = scenarioOpenOn(today);
      const key = `${today.year}-${String(today.month).padStart(2, "0")}`;
      if (!scenario) {
        expect([2, 5, 8, 11]).not.toContain(today.month);
        continue;
      }
      expect(isOpenForEditing(scenarioCalendar(scenario), today)).toBe(true);
      opened[key] = scenario.name;
    }
    expect(opened).toEqual({
      "2025-02": "RF2 2025",
      "2025-05": "RF3 2025",
      "2025-08": "RF4 2025",
      "2025-11": "RF1 2026",
      "2026-02": "RF2 2026",
      "2026-05": "RF3 2026",
      "2026-08": "RF4 2026",
      "2026-11": "RF1 2027",
    });
  });
});

describe("parseScenario", () => {
  it("reads an RF name with its year, with the space the URL carries", () => {
    expect(parseScenario("RF1 2020")).toEqual({ name: "RF1 2020", releasePoint: "RF1", year: 2020 });
    expect(parseScenario("RF4 2099")?.releasePoint).toBe("RF4");
  });

  it.each([
    "actual",
    "RF5 2026",
    "RF1 26",
    "rf1 2026",
    "RF1  2026",
    " RF1 2026",
    "RF1 2026 ",
    "RF1-2026",
    "RF1 1999",
    "RF1 2100",
    "",
    "RF1 2026\n",
  ])("refuses %j", (text) => {
    expect(parseScenario(text)).toBeNull();
  });
});

describe("months and dates", () => {
  it("parses, labels and converts months", () => {
    expect(monthKey(month("2026-03"))).toBe("2026-03");
    expect(monthLabel(month("2026-03"))).toBe("03/2026");
    expect(parseMonthKey("2026-13")).toBeNull();
    expect(parseMonthKey("2026-3")).toBeNull();
    expect(monthOfDate(new Date("2026-12-31T23:59:59Z"))).toBe(month("2026-12"));
    expect(month("2027-01") - month("2026-12")).toBe(1);
  });

  it("accepts only real calendar days", () => {
    expect(parseIsoDate("2028-02-29")).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseIsoDate("2027-02-29")).toBeNull();
    expect(parseIsoDate("2026-11-31")).toBeNull();
    expect(parseIsoDate("2026-1-05")).toBeNull();
  });
});

describe("annual totals around 20 December", () => {
  it.each([
    ["2025-12-20T23:59:59.999Z", 2025],
    ["2025-12-21T00:00:00.000Z", 2026],
    ["2025-12-01T00:00:00.000Z", 2025],
    ["2026-01-01T00:00:00.000Z", 2026],
    // 1 January 00:00 in São Paulo is 03:00 UTC; 1 January 00:00 UTC is 31 December 21:00 there.
    ["2026-01-01T03:00:00.000Z", 2026],
    ["2025-12-31T21:00:00.000Z", 2026],
    // A month start shifted a few hours east of UTC is still in its own year.
    ["2025-11-30T22:00:00.000Z", 2025],
  ])("counts a column dated %s in %d", (iso, year) => {
    expect(totalYearOf(new Date(iso))).toBe(year);
  });

  it("gives RF1 2027 (Nov 2025..Dec 2027) a partial 2025 and full 2026 and 2027 totals", () => {
    const totals = annualTotals(windowMonths(calendarOf("RF1 2027")));
    expect(totals.map((t) => [t.year, t.indexes.length, t.complete])).toEqual([
      [2025, 2, false],
      [2026, 12, true],
      [2027, 12, true],
    ]);
    expect(totals[1].indexes).toEqual(Array.from({ length: 12 }, (_, i) => 2 + i));
  });

  it("gives RF2 2027 (Feb 2026..Feb 2028) totals for 2026 (11 months), 2027 and 2028 (2 months)", () => {
    const totals = annualTotals(windowMonths(calendarOf("RF2 2027")));
    expect(totals.map((t) => [t.year, t.indexes.length, t.complete])).toEqual([
      [2026, 11, false],
      [2027, 12, true],
      [2028, 2, false],
    ]);
    expect(totals.flatMap((t) => t.indexes)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("puts December in its year and January in the next", () => {
    const [dec, jan] = [month("2026-12"), month("2027-01")];
    expect(annualTotals([dec, jan]).map((t) => t.year)).toEqual([2026, 2027]);
    expect(monthOf(2026, 12)).toBe(dec);
  });
});

describe("a locked grid says whether editing closed or will open", () => {
  it.each(TABLE)("$rf: upcoming before $edit, open in it, closed after it", (row) => {
    const calendar = calendarOf(row.rf);
    expect(editWindowOf(calendar, day(row.before))).toBe("upcoming");
    expect(editWindowOf(calendar, day(row.start))).toBe("open");
    expect(editWindowOf(calendar, day(row.end))).toBe("open");
    expect(editWindowOf(calendar, day(row.after))).toBe("closed");
  });

  it("names the past month as closed and the future one as opening, across a year boundary", () => {
    const rf1 = calendarOf("RF1 2027"); // edited in 11/2026
    expect(editWindowOf(rf1, day("2027-02-15"))).toBe("closed");
    expect(editWindowOf(rf1, day("2026-01-15"))).toBe("upcoming");
    expect(forecastTexts.lockedNotice(monthLabel(rf1.editMonth), "closed")).toBe(
      "Grade bloqueada: a edição deste RF encerrou em 11/2026.",
    );
    expect(forecastTexts.lockedNotice(monthLabel(rf1.editMonth), "upcoming")).toBe(
      "Grade bloqueada: a edição deste RF abre em 11/2026.",
    );
  });
});
