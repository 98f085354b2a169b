/**
 * The release-point rules of the cost-centre forecast review (spec 001 §4, §5, §9). The table itself, each scenario's
 * calendar and its edit window are in app/models/forecast-calendar.ts (the forecast model's write rule decides with
 * them) and re-exported here; this module adds every rule that follows from them: which months a scenario shows,
 * which are actuals and which forecasts, when its grid is open for editing and which columns may then change, and how
 * annual totals group the months. Pure: the server (loader and save) and the browser (grid) decide with these same
 * functions, and "today" is always a parameter (the clock is injected: app/shared/clock.server.ts, PORTAL_TODAY).
 *
 * Readings recorded in docs/decisions.md ("Forecast review"):
 * - The spec's "edit month 1 / 4 / 7" for RF2–RF4 are JavaScript month indexes (0 = January), as "RF1: anchor 2 Oct,
 *   edit month November" shows: the edit month is the month after the anchor for every RF (Nov, Feb, May, Aug).
 * - A scenario "RF1 Y" is the first forecast of year Y, prepared in October of Y−1: its anchor is 2 Oct Y−1 and its 14
 *   months ahead end in December of Y. The spec's "RF1 year capped at the current year" gives exactly Y−1 on every day
 *   of Y−1, the only year in which RF1 Y is prepared; fixing it keeps a scenario's window and edit month from moving
 *   with the clock afterwards (the capped rule would reopen RF1 Y in November of Y on another window).
 * - A month column is dated on its first day; "on or after the anchor" (the 2nd) therefore leaves the anchor's own
 *   month with the actuals, and the forecast columns start with the edit month.
 */

import { RELEASE_POINT_NAMES, type Scenario, scenarioName } from "~/models/forecast.fields";
import { editWindowOf, RELEASE_POINTS, type ScenarioCalendar } from "~/models/forecast-calendar";
import { type CalendarDate, type Month, monthOf, monthOfDay, monthStartDate, yearOfMonth } from "~/shared/months";

export {
  parseScenario,
  RELEASE_POINT_NAMES,
  type ReleasePointName,
  type Scenario,
  scenarioName,
} from "~/models/forecast.fields";
export {
  ANCHOR_DAY,
  type EditWindow,
  editWindowOf,
  RELEASE_POINTS,
  type ScenarioCalendar,
  scenarioCalendar,
} from "~/models/forecast-calendar";

/**
 * Annual totals are "computed around 20 December" (spec 001 §9): the total of year Y sums the month columns dated from
 * 21 December of Y−1 up to and including 20 December of Y. For month columns dated on the 1st this is the calendar
 * year, and a month start that a time zone shifts by hours (1 Jan 00:00 UTC is 31 Dec 21:00 in São Paulo) still lands
 * in its own year.
 */
export const TOTAL_YEAR_LAST_DAY = { month: 12, day: 20 } as const;

// ---------------------------------------------------------------------------------------------
// Scenarios (the table, the calendar and the edit window itself: app/models/forecast-calendar.ts)

/** The window's months, oldest first. */
export function windowMonths(calendar: ScenarioCalendar): Month[] {
  return Array.from({ length: calendar.lastMonth - calendar.firstMonth + 1 }, (_, i) => calendar.firstMonth + i);
}

export const inWindow = (calendar: ScenarioCalendar, m: Month) => m >= calendar.firstMonth && m <= calendar.lastMonth;

/** Forecast column (dated on or after the anchor) rather than an actuals column. */
export const isForecastMonth = (calendar: ScenarioCalendar, m: Month) => m >= calendar.firstForecastMonth;

/** The grid is open only while today is in the scenario's edit month; otherwise it is locked. */
export const isOpenForEditing = (calendar: ScenarioCalendar, today: CalendarDate) =>
  editWindowOf(calendar, today) === "open";

/** Whether the cell of month `m` may change today: open grid, inside the window, a forecast column. */
export function isEditableMonth(calendar: ScenarioCalendar, m: Month, today: CalendarDate): boolean {
  return isOpenForEditing(calendar, today) && inWindow(calendar, m) && isForecastMonth(calendar, m);
}

/** The scenario whose edit month contains `today`, if any (Nov → RF1 of next year; Feb, May, Aug → RF2–RF4). */
export function scenarioOpenOn(today: CalendarDate): Scenario | null {
  for (const releasePoint of RELEASE_POINT_NAMES) {
    const rule = RELEASE_POINTS[releasePoint];
    const editMonth = monthOf(today.year, rule.anchorMonth) + 1;
    if (monthOfDay(today) !== editMonth) continue;
    const year = yearOfMonth(editMonth - 1) - rule.anchorYearOffset;
    return { name: scenarioName(releasePoint, year), releasePoint, year };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Annual totals

/** The year whose annual total counts a column dated `date` (see TOTAL_YEAR_LAST_DAY). */
export function totalYearOf(date: Date): number {
  const year = date.getUTCFullYear();
  const lastInstant = Date.UTC(year, TOTAL_YEAR_LAST_DAY.month - 1, TOTAL_YEAR_LAST_DAY.day + 1);
  return date.getTime() >= lastInstant ? year + 1 : year;
}

export type AnnualTotal = {
  year: number;
  /** Positions, in `months`, of the columns the total sums. */
  indexes: number[];
  /** False when the window covers only part of the year. */
  complete: boolean;
};

/** One total per year the months touch, in order; each sums its year's columns. */
export function annualTotals(months: readonly Month[]): AnnualTotal[] {
  const totals: AnnualTotal[] = [];
  months.forEach((m, index) => {
    const year = totalYearOf(monthStartDate(m));
    let total = totals.find((t) => t.year === year);
    if (!total) {
      total = { year, indexes: [], complete: false };
      totals.push(total);
    }
    total.indexes.push(index);
  });
  for (const total of totals) total.complete = total.indexes.length === 12;
  return totals;
}
