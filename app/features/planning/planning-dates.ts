import { planningTexts } from "~/messages";
import { competencyRange, type PlanningFilter } from "./planning";

/**
 * The date formats of the planning screens (pt-BR, spec 001 §2: "Date is shown as day, short month, year";
 * "the period text … as month and year"). Formatted on the server, in the portal's display zone, so the
 * browser's zone never changes a value. The zone is UTC, as app/shared/dates.ts uses today (docs/decisions.md).
 */
export const PLANNING_TIME_ZONE = "UTC";

const dayFormat = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "short", year: "numeric", timeZone: PLANNING_TIME_ZONE });
const monthFormat = new Intl.DateTimeFormat("pt-BR", { month: "short", year: "numeric", timeZone: "UTC" });
const stampFormat = new Intl.DateTimeFormat("pt-BR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: PLANNING_TIME_ZONE,
});

/** "05 de mai. de 2026": a row's Date (its creationDate). */
export function formatPlanningDay(date: Date): string {
  return dayFormat.format(date);
}

/** "mai. de 2026": a competency month (a row's dateRef, always the 1st at 00:00 UTC). */
export function formatCompetencyMonth(date: Date): string {
  return monthFormat.format(date);
}

/** "05/05/2026, 14:03:27": when a change was saved (the history). */
export function formatChangeStamp(date: Date): string {
  return stampFormat.format(date);
}

/** The period text of the results header: the filter's From and To as month and year. */
export function formatPeriod(filter: Pick<PlanningFilter, "dateStart" | "dateEnd">): string {
  if (!filter.dateStart && !filter.dateEnd) return planningTexts.periodAll;
  const { from, to } = competencyRange(filter);
  return planningTexts.periodText(formatCompetencyMonth(from), formatCompetencyMonth(to));
}
