/**
 * The three date formats of spec 000 §9, with en-US month names, in UTC (the portal shows its
 * dates in UTC; the server renders them, so the browser's zone never changes a value):
 *   DD/MM/yyyy            user lists (createdAt)                  → formatDayMonthYear
 *   'D MMM YYYY H:mm'     the file repository (/repo/format)       → formatFileTimestamp
 *   ' DD MMM YY hh:mm:ss' the job lists (statusChangeDate)         → formatJobTimestamp
 * The pattern tokens are moment's: D/DD day, MMM short month, YY/YYYY year, H 0-23, hh 01-12.
 * A missing or invalid date shows " - ".
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
export const MISSING_DATE = " - ";

export type DateInput = Date | string | number | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function formatDayMonthYear(value: DateInput): string {
  const d = toDate(value);
  if (!d) return MISSING_DATE;
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

export function formatFileTimestamp(value: DateInput): string {
  const d = toDate(value);
  if (!d) return MISSING_DATE;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${d.getUTCHours()}:${pad(d.getUTCMinutes())}`;
}

/** The spec's leading space is layout, not content: the text starts with the day. */
export function formatJobTimestamp(value: DateInput): string {
  const d = toDate(value);
  if (!d) return MISSING_DATE;
  const hour12 = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCFullYear() % 100)} ${pad(hour12)}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
