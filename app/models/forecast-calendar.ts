/**
 * The calendar of a forecast scenario (spec 001 §4, §9): the release-point table, each RF's anchor, window and edit
 * month, and where a day stands against that month. Pure and browser-safe, below the features because the forecast
 * model's write rule (`forecastLocks`, app/models/forecast.server.ts) decides with it; the review's other calendar
 * rules (editable columns, totals) build on it in app/features/forecast/release-points.ts, which re-exports it.
 */
import { type CalendarDate, type Month, monthNumber, monthOfDay, yearOfMonth } from "~/shared/months";
import type { ReleasePointName, Scenario } from "./forecast.fields";

export type ReleasePointRule = {
  /** The anchor's month, 1–12. */
  anchorMonth: number;
  /** The anchor's year relative to the scenario's year. */
  anchorYearOffset: number;
  monthsBefore: number;
  monthsAfter: number;
};

/** Spec 001 §4 and §9. */
export const RELEASE_POINTS: Readonly<Record<ReleasePointName, ReleasePointRule>> = {
  RF1: { anchorMonth: 10, anchorYearOffset: -1, monthsBefore: 11, monthsAfter: 14 },
  RF2: { anchorMonth: 1, anchorYearOffset: 0, monthsBefore: 11, monthsAfter: 13 },
  RF3: { anchorMonth: 4, anchorYearOffset: 0, monthsBefore: 11, monthsAfter: 13 },
  RF4: { anchorMonth: 7, anchorYearOffset: 0, monthsBefore: 11, monthsAfter: 13 },
};

/** Every anchor is on the 2nd of its month. */
export const ANCHOR_DAY = 2;

// ---------------------------------------------------------------------------------------------
// Calendar days (months and days themselves: app/shared/months.ts)

const dayValue = (d: CalendarDate) => Date.UTC(d.year, d.month - 1, d.day);

// ---------------------------------------------------------------------------------------------
// Scenarios

export type ScenarioCalendar = Scenario & {
  anchor: CalendarDate;
  anchorMonth: Month;
  /** The one month in which the grid may be edited: the month after the anchor. */
  editMonth: Month;
  /** The window, both ends included. */
  firstMonth: Month;
  lastMonth: Month;
  /** The first month dated on or after the anchor: the first forecast column. */
  firstForecastMonth: Month;
};

export function scenarioCalendar(scenario: Scenario): ScenarioCalendar {
  const rule = RELEASE_POINTS[scenario.releasePoint];
  const anchor = { year: scenario.year + rule.anchorYearOffset, month: rule.anchorMonth, day: ANCHOR_DAY };
  const anchorMonth = monthOfDay(anchor);
  let firstForecastMonth = anchorMonth;
  while (
    dayValue({ year: yearOfMonth(firstForecastMonth), month: monthNumber(firstForecastMonth), day: 1 }) <
    dayValue(anchor)
  )
    firstForecastMonth++;
  return {
    ...scenario,
    anchor,
    anchorMonth,
    editMonth: anchorMonth + 1,
    firstMonth: anchorMonth - rule.monthsBefore,
    lastMonth: anchorMonth + rule.monthsAfter,
    firstForecastMonth,
  };
}

/** Where a day stands against a scenario's edit month. */
export type EditWindow = "open" | "closed" | "upcoming";

/** Where today stands against the edit month: in it (open), after it (editing closed) or before it (opens later). */
export function editWindowOf(calendar: ScenarioCalendar, today: CalendarDate): EditWindow {
  const todayMonth = monthOfDay(today);
  return todayMonth === calendar.editMonth ? "open" : todayMonth > calendar.editMonth ? "closed" : "upcoming";
}
