import { formatDateTime, formatDayShortMonthYear } from "~/shared/dates";
import { competencyRange, type PlanningFilter } from "./planning";
import { planningTexts } from "./texts";

/**
 * The date formats of the planning screens (pt-BR, spec 001 §2: "Date is shown as day, short month, year";
 * "the period text … as month and year"). Instants (a row's creation, a saved change) are formatted by
 * app/shared/dates.ts in the portal's zone; a competency month is a calendar month (the 1st at 00:00 UTC), no zone.
 */
const monthFormat = new Intl.DateTimeFormat("pt-BR", { month: "short", year: "numeric", timeZone: "UTC" });

/** "05 mai 2026": a row's Date (its creationDate), in the portal's zone. */
export function formatPlanningDay(date: Date): string {
  return formatDayShortMonthYear(date);
}

/** "mai. de 2026": a competency month (a row's dateRef, always the 1st at 00:00 UTC). */
export function formatCompetencyMonth(date: Date): string {
  return monthFormat.format(date);
}

/** "05 mai 26 14:03:27": when a change was saved (the history), the portal's date and time. */
export function formatChangeStamp(date: Date): string {
  return formatDateTime(date);
}

/** The period text of the results header: the filter's From and To as month and year. */
export function formatPeriod(filter: Pick<PlanningFilter, "dateStart" | "dateEnd">): string {
  if (!filter.dateStart && !filter.dateEnd) return planningTexts.periodAll;
  const { from, to } = competencyRange(filter);
  return planningTexts.periodText(formatCompetencyMonth(from), formatCompetencyMonth(to));
}
