/**
 * THE module for every date and time a person reads (screens, notices, e-mails, job messages, dialogs, viewers, cell
 * notes, comment threads, the text of exports): pt-BR, 24-hour clock, in the portal's time zone (PORTAL_TIME_ZONE,
 * default America/Sao_Paulo), never in the zone of the machine or of the browser. Nothing else in app/ formats a date
 * for people (no toLocaleString, Intl.DateTimeFormat or toISOString shown to anyone; test/dates-for-people.test.ts
 * lists the files that write dates themselves, each for a machine); a calendar month is months.ts's. One format per
 * kind, the shapes of spec 000 §9 with Portuguese month abbreviations and the 24-hour clock (docs/decisions.md,
 * "Texts and language"):
 *   a day                 DD/MM/yyyy                                   → formatDate             "01/05/2030"
 *   an instant            ' DD MMM YY hh:mm:ss', the job lists' (Processamento, Jobs executados), and every other
 *                         history, list, notice, note or export that shows when something happened
 *                                                                      → formatDateTime         "01 mai 30 21:13:27"
 * and, where a spec fixes another shape for one screen:
 *   'D MMM YYYY H:mm'     the file repository (/repo/format, spec 000) → formatFileTimestamp    "1 mai 2030 21:13"
 *   day, short month, year  the planning rows' Date (spec 001 §2)     → formatDayShortMonthYear "01 mai 2030"
 * A day stored as midnight UTC (a validity date, a version day, an XLSX date cell) names a day, not an instant:
 * formatCalendarDate, DD/MM/yyyy with no zone applied.
 *
 * Spreadsheets: an instant is formatDateTime's text (the same in an XLSX and a CSV); a day is a date cell shown
 * dd/mm/yyyy, holding midnight UTC of that day (of an instant, its day in the portal's zone: calendarDateOf). The
 * zone is named once where a text needs it ("Quando (America/Sao_Paulo)"), never UTC beside it.
 *
 * Machines read ISO 8601 (toISOString, UTC): the API's and SCIM's JSON, logs, file names of downloads, query
 * parameters (?de=2026-11-29), stored keys and the audit's hash chain (its `day` is a UTC day, a key, not shown as
 * a date). Those are not for people and do not change with the portal's zone.
 *
 * Every function takes the zone as its last argument; without it, the portal's zone: the server sets it
 * from its configuration (config.server.ts) and the browser from the root loader's data before anything is
 * rendered, so server and browser print the same text (no hydration mismatch). A missing or invalid date
 * shows " - ".
 */

export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";
export const MISSING_DATE = " - ";

const MONTHS_PT_BR = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"] as const;

export type DateInput = Date | string | number | null | undefined;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `zone` is an IANA time zone this runtime knows (e.g. America/Sao_Paulo, UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    formatters.delete(zone);
    return false;
  }
}

let portalZone: string = DEFAULT_TIME_ZONE;

/** Sets the zone the formatting functions use by default (the server from its configuration, the browser from the root loader). */
export function setPortalTimeZone(zone: string): void {
  if (zone !== portalZone && isTimeZone(zone)) portalZone = zone;
}

export function portalTimeZone(): string {
  return portalZone;
}

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The wall-clock reading of `date` in `timeZone`, as the zone's rules give it (Intl). */
function exactPartsIn(date: Date, timeZone: string): Parts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour % 24,
    minute: parts.minute,
    second: parts.second,
  };
}

const HOUR_MS = 3_600_000;

/** The zone's offset (wall clock minus UTC, in ms) at `ms`, or null when Date.UTC cannot hold the reading. */
function offsetAt(ms: number, timeZone: string): number | null {
  const p = exactPartsIn(new Date(ms), timeZone);
  if (!(p.year >= 1000 && p.year <= 9999)) return null;
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** By zone and UTC hour: the offset when it is the same at both ends of that hour, else null (a change falls in it). */
const hourOffsets = new Map<string, number | null>();
const HOUR_OFFSETS_MAX = 20_000;

/**
 * The wall-clock reading of `date` in `timeZone`. `formatToParts` costs a few microseconds a call, a visible part
 * of a page listing 40 dates; the zone's offset is kept per hour instead (rules change offsets at most once within
 * an hour), and an hour that holds a change is read exactly.
 */
function partsIn(date: Date, timeZone: string): Parts {
  const ms = date.getTime();
  const hour = Math.floor(ms / HOUR_MS);
  const key = `${timeZone}|${hour}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    const start = offsetAt(hour * HOUR_MS, timeZone);
    offset = start !== null && start === offsetAt(hour * HOUR_MS + HOUR_MS - 1, timeZone) ? start : null;
    if (hourOffsets.size >= HOUR_OFFSETS_MAX) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  if (offset === null) return exactPartsIn(date, timeZone);
  const wall = new Date(ms + offset);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** The calendar day `date` falls on in `timeZone` (the portal's zone by default): month 1–12. */
export function calendarDayIn(date: Date, timeZone: string = portalZone): { year: number; month: number; day: number } {
  const { year, month, day } = partsIn(date, timeZone);
  return { year, month, day };
}

const pad = (n: number) => String(n).padStart(2, "0");

function formatWith(value: DateInput, timeZone: string, shape: (p: Parts) => string): string {
  const date = toDate(value);
  return date ? shape(partsIn(date, timeZone)) : MISSING_DATE;
}

/**
 * The day an instant falls on in `timeZone` (the portal's by default), as that day's midnight UTC: how a stored day
 * and an XLSX date cell hold a day. Null for a missing or invalid date.
 */
export function calendarDateOf(value: DateInput, timeZone: string = portalZone): Date | null {
  const date = toDate(value);
  if (!date) return null;
  const { year, month, day } = partsIn(date, timeZone);
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, day);
  return midnight;
}

/** The portal's date: "01/05/2030". */
export function formatDate(value: DateInput, timeZone: string = portalZone): string {
  return formatWith(value, timeZone, (p) => `${pad(p.day)}/${pad(p.month)}/${p.year}`);
}

/**
 * The portal's date and time, the job lists' shape of spec 000 §9 (' DD MMM YY hh:mm:ss', read as 24 h): "01 mai 30
 * 21:13:27". The spec's leading space is layout, not content: the text starts with the day.
 */
export function formatDateTime(value: DateInput, timeZone: string = portalZone): string {
  return formatWith(
    value,
    timeZone,
    (p) =>
      `${pad(p.day)} ${MONTHS_PT_BR[p.month - 1]} ${pad(p.year % 100)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`,
  );
}

/** The file repository's timestamp (/repo/format, spec 000 §9 'D MMM YYYY H:mm'): "1 mai 2030 21:13". */
export function formatFileTimestamp(value: DateInput, timeZone: string = portalZone): string {
  return formatWith(
    value,
    timeZone,
    (p) => `${p.day} ${MONTHS_PT_BR[p.month - 1]} ${p.year} ${p.hour}:${pad(p.minute)}`,
  );
}

/** The planning rows' Date (spec 001 §2: "day, short month, year"): "01 mai 2030". */
export function formatDayShortMonthYear(value: DateInput, timeZone: string = portalZone): string {
  return formatWith(value, timeZone, (p) => `${pad(p.day)} ${MONTHS_PT_BR[p.month - 1]} ${p.year}`);
}

/**
 * A calendar date stored as midnight UTC (a validity date, a version day) as DD/MM/yyyy: it names a day, not
 * an instant, so no zone applies (in São Paulo midnight UTC is the evening before).
 */
export function formatCalendarDate(value: DateInput): string {
  return formatDate(value, "UTC");
}
