import { hrTexts } from "~/features/hr/texts";
import { portalTimeZone } from "~/shared/dates";

/**
 * The month range of the HR auxiliary data (spec 001 §9: the previous calendar month by default, the current
 * one when FEATURE_AUX_CURRENT_MONTH is on; issue 13: a range held in the URL). A month is "YYYY-MM", the value
 * of an <input type="month">; `mes_apur` is stored as the month's first day, 00:00 UTC. Pure.
 */

export type Month = `${number}-${number}`;

/** The URL parameters of the range (the names the spec gives the forecast's month range, §7). */
export const MONTH_FROM_PARAM = "mes_inicio";
export const MONTH_TO_PARAM = "mes_fim";

/** The earliest month that may be asked for, and the longest range (the grid holds at most 10000 rows anyway). */
export const FIRST_MONTH = "2000-01" as Month;
export const MAX_RANGE_MONTHS = 24;


const pad = (n: number) => String(n).padStart(2, "0");

function toMonth(year: number, month: number): Month | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || year < 1000 || year > 9999 || month < 1 || month > 12) return null;
  return `${year}-${pad(month)}` as Month;
}

/** "2026-03" (what <input type="month"> sends) or "03/2026" (what people type where that input is a text box). */
export function parseMonth(text: string | null | undefined): Month | null {
  const value = String(text ?? "").trim();
  const iso = /^(\d{4})-(\d{2})$/.exec(value);
  if (iso) return toMonth(Number(iso[1]), Number(iso[2]));
  const br = /^(\d{1,2})\/(\d{4})$/.exec(value);
  if (br) return toMonth(Number(br[2]), Number(br[1]));
  return null;
}

export function addMonths(month: Month, n: number): Month {
  const [y, m] = month.split("-").map(Number);
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}` as Month;
}

export function monthsBetween(from: Month, to: Month): number {
  const [fy, fm] = from.split("-").map(Number);
  const [ty, tm] = to.split("-").map(Number);
  return ty * 12 + tm - (fy * 12 + fm);
}

/** The calendar month of `now` in `timeZone` (the portal's PORTAL_TIME_ZONE by default): "previous month" turns at midnight there, not in UTC. */
export function monthAt(now: Date, timeZone: string = portalTimeZone()): Month {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" }).formatToParts(now);
  const year = Number(parts.find((p) => p.type === "year")?.value);
  const month = Number(parts.find((p) => p.type === "month")?.value);
  return toMonth(year, month) ?? (`${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}` as Month);
}

/** The default month: the previous calendar month, or the current one when the flag says so. */
export function defaultMonth(now: Date, useCurrentMonth: boolean, timeZone: string = portalTimeZone()): Month {
  const current = monthAt(now, timeZone);
  return useCurrentMonth ? current : addMonths(current, -1);
}

/** The first day of the month, 00:00 UTC (how `mes_apur` is stored). */
export function monthStartUtc(month: Month): Date {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, 1));
}

/** The month of a stored `mes_apur`. */
export function monthOfDate(date: Date): Month {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}` as Month;
}

/** "2026-03" → "03/2026". */
export function formatMonth(month: Month): string {
  const [y, m] = month.split("-");
  return `${m}/${y}`;
}

export type MonthRange = { from: Month; to: Month };

export type MonthRangeResult =
  | { ok: true; range: MonthRange; defaulted: boolean }
  /** `from`/`to`: what was asked, to show back in the form. */
  | { ok: false; error: string; from: string; to: string; fallback: MonthRange };

/**
 * The range the URL asks for. Neither end given: the default month alone. One end given: that month alone.
 * A malformed month, a reversed range, a month before FIRST_MONTH or after the current month, or a range
 * longer than MAX_RANGE_MONTHS is refused with a message (and the default range to offer instead).
 */
export function resolveMonthRange(
  params: { from: string | null; to: string | null },
  options: { now: Date; useCurrentMonth: boolean; timeZone?: string },
): MonthRangeResult {
  const fallbackMonth = defaultMonth(options.now, options.useCurrentMonth, options.timeZone);
  const fallback = { from: fallbackMonth, to: fallbackMonth };
  const fromText = (params.from ?? "").trim().slice(0, 32);
  const toText = (params.to ?? "").trim().slice(0, 32);
  if (!fromText && !toText) return { ok: true, range: fallback, defaulted: true };
  const refuse = (error: string) => ({ ok: false as const, error, from: fromText, to: toText, fallback });
  const from = fromText ? parseMonth(fromText) : null;
  const to = toText ? parseMonth(toText) : null;
  if ((fromText && !from) || (toText && !to)) return refuse(hrTexts.monthInvalid);
  const range = { from: (from ?? to) as Month, to: (to ?? from) as Month };
  if (monthsBetween(range.from, range.to) < 0) return refuse(hrTexts.monthReversed);
  const last = monthAt(options.now, options.timeZone);
  if (monthsBetween(FIRST_MONTH, range.from) < 0 || monthsBetween(range.to, last) < 0) {
    return refuse(hrTexts.monthOutOfBounds(formatMonth(FIRST_MONTH), formatMonth(last)));
  }
  if (monthsBetween(range.from, range.to) + 1 > MAX_RANGE_MONTHS) return refuse(hrTexts.monthSpanTooLong(MAX_RANGE_MONTHS));
  return { ok: true, range, defaulted: false };
}

/** The range as URL parameters. */
export function monthRangeParams(range: { from: string; to: string }): URLSearchParams {
  return new URLSearchParams({ [MONTH_FROM_PARAM]: range.from, [MONTH_TO_PARAM]: range.to });
}
