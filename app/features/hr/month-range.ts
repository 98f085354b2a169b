import { portalTimeZone } from "~/shared/dates";
import {
  addMonths,
  type Month,
  type MonthRange,
  monthAt,
  monthKey,
  monthLabel,
  monthOf,
  monthsBetween,
  parseMonthText,
} from "~/shared/months";
import { hrTexts } from "./texts";

/**
 * The month range of the HR auxiliary data (spec 001 §9: the previous calendar month by default, the current one when
 * FEATURE_AUX_CURRENT_MONTH is on; a range held in the URL as `mes_inicio`/`mes_fim`, "YYYY-MM"). Months are the
 * shared calendar months (app/shared/months.ts); `mes_apur` is stored as the month's first day, 00:00 UTC. Pure.
 */

/** The URL parameters of the range (the names the spec gives the forecast's month range, §7). */
export const MONTH_FROM_PARAM = "mes_inicio";
export const MONTH_TO_PARAM = "mes_fim";

/** The earliest month that may be asked for, and the longest range (the grid holds at most 10000 rows anyway). */
export const FIRST_MONTH: Month = monthOf(2000, 1);
export const MAX_RANGE_MONTHS = 24;

/** The default month: the previous calendar month, or the current one when the flag says so. */
export function defaultMonth(now: Date, useCurrentMonth: boolean, timeZone: string = portalTimeZone()): Month {
  const current = monthAt(now, timeZone);
  return useCurrentMonth ? current : addMonths(current, -1);
}

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
  const from = fromText ? parseMonthText(fromText) : null;
  const to = toText ? parseMonthText(toText) : null;
  if ((fromText && from === null) || (toText && to === null)) return refuse(hrTexts.monthInvalid);
  const range = { from: (from ?? to) as Month, to: (to ?? from) as Month };
  if (monthsBetween(range.from, range.to) < 0) return refuse(hrTexts.monthReversed);
  const last = monthAt(options.now, options.timeZone);
  if (monthsBetween(FIRST_MONTH, range.from) < 0 || monthsBetween(range.to, last) < 0) {
    return refuse(hrTexts.monthOutOfBounds(monthLabel(FIRST_MONTH), monthLabel(last)));
  }
  if (monthsBetween(range.from, range.to) + 1 > MAX_RANGE_MONTHS)
    return refuse(hrTexts.monthSpanTooLong(MAX_RANGE_MONTHS));
  return { ok: true, range, defaulted: false };
}

/** The range as URL parameters ("YYYY-MM"); a month given as text (what the form shows back) goes as typed. */
export function monthRangeParams(range: { from: Month | string; to: Month | string }): URLSearchParams {
  const text = (m: Month | string) => (typeof m === "number" ? monthKey(m) : m);
  return new URLSearchParams({ [MONTH_FROM_PARAM]: text(range.from), [MONTH_TO_PARAM]: text(range.to) });
}
