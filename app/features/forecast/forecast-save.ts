import { z } from "zod";
import { type CalendarDate, type Month, monthLabel, parseMonthKey } from "~/shared/months";
import { hasAtMostTwoDecimals } from "~/shared/numbers";
import { isEditableMonth, isOpenForEditing, type ScenarioCalendar } from "./release-points";
import { forecastTexts } from "./texts";

/** The largest save body the review takes: a whole grid of changed cells (400 accounts × 26 months) fits. */
export const FORECAST_SAVE_BODY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What the review's save accepts, checked on the server whatever the browser did (spec 001 §4, §5): the
 * scenario open today, only forecast columns of its window, numbers with at most two decimals, each cell once. The
 * body is `{ intent: "save", changes: [{ account, month: "YYYY-MM", old, value, at, spread? }] }`, `old` being the value the
 * browser loaded and `at` when the cell was last changed in the portal as loaded (0: never) — together the state the
 * save was made on (the concurrency check; `at` keeps a save sent again from applying twice). Any refusal refuses the
 * whole save.
 */

/** More cells than a 400-account × 26-month grid holds (10,400), so a full-grid save always fits. */
export const SAVE_MAX_CELLS = 20_000;
/** 15 significant digits with the cents: what a double keeps exactly. */
const VALUE_LIMIT = 1e13;

const changeSchema = z
  .object({
    account: z.string().min(1).max(300),
    month: z.string().max(40),
    old: z.number(),
    // A string here is refused with its own message (a forged or broken client), not as an unreadable body.
    value: z.union([z.number(), z.string().max(60)]),
    // Optional for a caller of an older page (then only `old` is checked); the grid always sends it.
    at: z.number().int().min(0).max(8.64e15).optional(),
    // The grid's "Distribuir total": the cell's history says "distribuído".
    spread: z.literal(true).optional(),
  })
  .strict();

const bodySchema = z.object({ intent: z.literal("save"), changes: z.array(changeSchema) }).strict();

export type SaveCell = { account: string; month: Month; old: number; value: number; at?: number; via?: "spread" };
export type SaveCheck = { ok: true; cells: SaveCell[] } | { ok: false; status: 400 | 409; message: string };

const refuse = (message: string, status: 400 | 409 = 400): SaveCheck => ({ ok: false, status, message });

export function checkSave(body: unknown, calendar: ScenarioCalendar, today: CalendarDate): SaveCheck {
  const changes = (body as { changes?: unknown } | null)?.changes;
  if (Array.isArray(changes) && changes.length > SAVE_MAX_CELLS)
    return refuse(forecastTexts.tooManyCells(SAVE_MAX_CELLS));
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return refuse(forecastTexts.invalidSave);
  if (parsed.data.changes.length === 0) return refuse(forecastTexts.nothingToSave);
  if (!isOpenForEditing(calendar, today))
    return refuse(forecastTexts.lockedRefused(calendar.name, monthLabel(calendar.editMonth)), 409);

  const cells: SaveCell[] = [];
  const seen = new Set<string>();
  for (const change of parsed.data.changes) {
    const month = parseMonthKey(change.month);
    if (month === null || !isEditableMonth(calendar, month, today))
      return refuse(forecastTexts.columnRefused(month === null ? change.month.slice(0, 10) : monthLabel(month)));
    const { value } = change;
    if (typeof value === "string") return refuse(forecastTexts.notANumber(value.slice(0, 30)));
    if (!hasAtMostTwoDecimals(value)) return refuse(forecastTexts.tooManyDecimals(String(value).replace(".", ",")));
    if (Math.abs(value) >= VALUE_LIMIT) return refuse(forecastTexts.valueOutOfRange);
    const key = `${month}\u0000${change.account}`;
    if (seen.has(key)) return refuse(forecastTexts.duplicateCell(change.account, monthLabel(month)));
    seen.add(key);
    // -0 would be stored as a different number than the 0 the browser shows.
    cells.push({
      account: change.account,
      month,
      old: change.old,
      value: value === 0 ? 0 : value,
      ...(change.at !== undefined ? { at: change.at } : {}),
      ...(change.spread ? { via: "spread" as const } : {}),
    });
  }
  return { ok: true, cells };
}
