import { getConfig } from "~/config.server";
import { calendarDayIn } from "~/shared/dates";
import { type CalendarDate, parseIsoDate } from "~/shared/months";

/**
 * The portal's "today", for rules that depend on the calendar day (the forecast review opens a scenario only in its
 * edit month). `PORTAL_TODAY=YYYY-MM-DD` pins it — the demo and the browser tests open any month that way — else it is
 * the current day in the portal's time zone (PORTAL_TIME_ZONE), the zone it shows its dates in (app/shared/dates.ts).
 * Instants written to the database (who changed what, when) always use the real time.
 */
export function portalToday(now: Date = new Date()): CalendarDate {
  const pinned = getConfig().portalToday;
  const day = pinned ? parseIsoDate(pinned) : null;
  if (day) return day;
  return calendarDayIn(now, getConfig().timeZone);
}
