import { portalTimeZone } from "./dates";

/**
 * THE calendar-month module: one type for a month and every operation the portal needs on months (parse, format,
 * add, compare, ranges, the stored Date and the month of an instant), plus calendar days. Forecast, HR, reports,
 * cockpit, FP&A and planning use it; none has its own. Pure and browser-safe.
 *
 * A month is one integer, year × 12 + month − 1, so steps are additions, ranges are loops and comparisons are `<`.
 * It leaves the portal in two shapes only: its key "YYYY-MM" (URL parameters, <input type="month">, JSON payloads)
 * and its first day at 00:00 UTC (how every collection stores a month: data_ref, mes_apur, month, dateRef).
 */

export type Month = number;

/** A calendar day, month 1–12. */
export type CalendarDate = { year: number; month: number; day: number };

/** An inclusive range of months. */
export type MonthRange = { from: Month; to: Month };

const pad2 = (n: number) => String(n).padStart(2, "0");

export const monthOf = (year: number, month: number): Month => year * 12 + (month - 1);
export const yearOfMonth = (m: Month): number => Math.floor(m / 12);
export const monthNumber = (m: Month): number => (m % 12) + 1;

/** A month of a four-digit year, or null (months 00 and 13 are no months). */
function validMonth(year: number, month: number): Month | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || year < 1000 || year > 9999 || month < 1 || month > 12)
    return null;
  return monthOf(year, month);
}

// ---------------------------------------------------------------------------------------------
// Parse and format

/** "2026-03": the URL, payload and <input type="month"> form. */
export const monthKey = (m: Month): string => `${yearOfMonth(m)}-${pad2(monthNumber(m))}`;
/** "03/2026": how screens show a month (Brazilian order, no month names). */
export const monthLabel = (m: Month): string => `${pad2(monthNumber(m))}/${yearOfMonth(m)}`;

/** "2026-03" → its month; anything else → null. */
export function parseMonthKey(text: string | null | undefined): Month | null {
  const match = /^(\d{4})-(\d{2})$/.exec(String(text ?? "").trim());
  return match ? validMonth(Number(match[1]), Number(match[2])) : null;
}

/** What people type: "2026-03" (an <input type="month">) or "03/2026" (where that input is a text box). */
/** Whether a text is a month key ("YYYY-MM", a real month): what routes check month parameters with. */
export const isMonthKey = (text: string): boolean => parseMonthKey(text) !== null;

export function parseMonthText(text: string | null | undefined): Month | null {
  const value = String(text ?? "").trim();
  const key = parseMonthKey(value);
  if (key !== null) return key;
  const br = /^(\d{1,2})\/(\d{4})$/.exec(value);
  return br ? validMonth(Number(br[2]), Number(br[1])) : null;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic, comparison, ranges

export const addMonths = (m: Month, n: number): Month => m + n;
/** How many months `to` is after `from` (negative when before). */
export const monthsBetween = (from: Month, to: Month): number => to - from;
export const compareMonths = (a: Month, b: Month): number => a - b;

/** Every month from `from` to `to`, inclusive (empty when `to` is before `from`). */
export function monthRange(from: Month, to: Month): Month[] {
  const out: Month[] = [];
  for (let m = from; m <= to; m++) out.push(m);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Stored dates and instants

/** The first day of the month, 00:00 UTC: how every collection stores a month. */
export const monthStartDate = (m: Month): Date => new Date(Date.UTC(yearOfMonth(m), monthNumber(m) - 1, 1));
/** The UTC month of an instant (of a stored month, its own month). */
export const monthOfDate = (date: Date): Month => monthOf(date.getUTCFullYear(), date.getUTCMonth() + 1);

/** A stored month moved by `n` months (the first day of that month, 00:00 UTC). */
export const addMonthsToDate = (date: Date, n: number): Date => monthStartDate(monthOfDate(date) + n);
/** "2026-03" → its stored first day; null when malformed. */
export function monthStartOfKey(text: string | null | undefined): Date | null {
  const m = parseMonthKey(text);
  return m === null ? null : monthStartDate(m);
}
/** The key ("YYYY-MM") and the label ("MM/YYYY") of a stored month (a Date, or the ISO text JSON made of it). */
export const monthKeyOfDate = (date: Date | string): string => monthKey(monthOfDate(new Date(date)));
export const monthLabelOfDate = (date: Date | string): string => monthLabel(monthOfDate(new Date(date)));

const SHORT_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
/** "May 20": a month as the cockpit's columns show it (spec 001 §2). */
export const monthShortLabel = (m: Month): string => `${SHORT_NAMES[monthNumber(m) - 1]} ${pad2(yearOfMonth(m) % 100)}`;

/** The calendar month of `now` in `timeZone` (the portal's PORTAL_TIME_ZONE by default), not in UTC. */
export function monthAt(now: Date, timeZone: string = portalTimeZone()): Month {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" }).formatToParts(now);
  const year = Number(parts.find((p) => p.type === "year")?.value);
  const month = Number(parts.find((p) => p.type === "month")?.value);
  return validMonth(year, month) ?? monthOfDate(now);
}

// ---------------------------------------------------------------------------------------------
// Calendar days

export const monthOfDay = (day: CalendarDate): Month => monthOf(day.year, day.month);

/** A real calendar day from "YYYY-MM-DD", or null. */
export function parseIsoDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { year, month, day };
}

export const isoDate = (d: CalendarDate): string => `${d.year}-${pad2(d.month)}-${pad2(d.day)}`;
/** "02/10/2025". */
export const dayLabel = (d: CalendarDate): string => `${pad2(d.day)}/${pad2(d.month)}/${d.year}`;
