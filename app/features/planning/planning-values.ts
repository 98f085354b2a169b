import { formatNumber, type NumberRule, readNumber } from "~/shared/numbers";
import { uiTexts } from "~/shared/ui/texts";
import { planningTexts } from "./texts";

/**
 * The values and rules of SKU quantity planning that the browser needs as well as the server (spec 001
 * §2–§5, §9): constants, the filter's shape, quantities, the group-edit factor and the filter kept
 * in the browser. Plain functions without zod, so the results screen ships no schema library; the server's
 * zod schemas (app/features/planning/planning.ts, which re-exports this module) call these same rules.
 */

export * from "~/models/planning.fields";

import {
  ATTRIBUTES,
  type AttributeParam,
  DECREASE_MAX,
  DIRECTIONS,
  type Direction,
  type GroupEdit,
  multiplierOf,
  PERCENT_MAX,
  PERCENT_MIN,
  type PlanningFilter,
  QUANTITY_MAX,
  type SkuMode,
} from "~/models/planning.fields";

// ---------------------------------------------------------------------------------------------
// Quantities and the group-edit factor (spec 001 §4, §5)

const notValid = uiTexts.numberNotValid;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** A quantity: a whole number, 0 to QUANTITY_MAX, typed in pt-BR ("1.234") or plain ("1234"). */
export const QUANTITY_RULE: NumberRule = { decimals: 0, min: 0, max: QUANTITY_MAX, excessDecimals: "refuse" };

/**
 * A typed quantity (the grid, the Excel round trip's text cells) or a spreadsheet's number cell, under QUANTITY_RULE
 * (app/shared/numbers.ts); empty is not a quantity.
 */
export function checkQuantity(input: unknown): Checked<number> {
  if (typeof input !== "string" && typeof input !== "number") return { ok: false, message: notValid };
  if (typeof input === "string" && (input.trim() === "" || input.length > 32)) return { ok: false, message: notValid };
  const read = readNumber(input, QUANTITY_RULE);
  return read.ok ? { ok: true, value: read.value } : { ok: false, message: notValid };
}

/** The group-edit percentage: an integer 0 to 1,000,000 ("Number is not valid" otherwise). */
export function checkPercent(input: unknown): Checked<number> {
  if (typeof input !== "string") return { ok: false, message: notValid };
  const text = input.trim();
  if (!/^\d{1,7}$/.test(text)) return { ok: false, message: notValid };
  const n = Number(text);
  return n >= PERCENT_MIN && n <= PERCENT_MAX ? { ok: true, value: n } : { ok: false, message: notValid };
}

/** A group edit: the percentage and Increase/Decrease; a decrease at most 100 %. Every message, in order. */
export function checkGroupEdit(input: {
  percent: unknown;
  op: unknown;
}): { ok: true; value: GroupEdit } | { ok: false; messages: string[]; percent: string[]; op: string[] } {
  const percent = checkPercent(input.percent);
  const op = (DIRECTIONS as readonly unknown[]).includes(input.op) ? (input.op as Direction) : null;
  const percentErrors = percent.ok ? [] : [percent.message];
  const opErrors = op ? [] : [notValid];
  if (percent.ok && op === "decrease" && percent.value > DECREASE_MAX)
    percentErrors.push(planningTexts.decreaseTooLarge);
  if (percent.ok && op && percentErrors.length === 0) return { ok: true, value: { percent: percent.value, op } };
  return { ok: false, messages: [...percentErrors, ...opErrors], percent: percentErrors, op: opErrors };
}

/**
 * The integer multiplier of a group edit, in hundredths: increase ×(1 + p/100) = (100 + p)/100, decrease
 * ×(1 − p/100) = (100 − p)/100 (spec 001 §5).
 */

/**
 * A quantity after a group edit: valor × multiplier / 100 rounded half up to an integer, capped at
 * QUANTITY_MAX. Computed as floor((valor × multiplier + 50) / 100), which is exact in doubles for every
 * quantity up to QUANTITY_MAX, and is the very expression the batch update runs in the database
 * (batchValorExpression), so the preview and the saved values agree.
 */
export function applyMultiplier(valor: number, multiplier: number): number {
  return Math.min(QUANTITY_MAX, Math.floor((valor * multiplier + 50) / 100));
}

/** The factor as pt-BR text: 1,1 for +10 %, 0,75 for −25 %. */
export function factorText(multiplier: number): string {
  return formatNumber(multiplier / 100, 2, 0);
}

/** "+10% (×1,1)". */
export function groupEditLabel(edit: GroupEdit): string {
  return planningTexts.factorLabel(edit.op, edit.percent, factorText(multiplierOf(edit)));
}

/** A group edit from the URL (`percent`, `op`), or null when absent or invalid. */
export function groupEditFromParams(params: URLSearchParams): GroupEdit | null {
  if (!params.has("percent") && !params.has("op")) return null;
  const checked = checkGroupEdit({ percent: params.get("percent") ?? undefined, op: params.get("op") ?? undefined });
  return checked.ok ? checked.value : null;
}

// ---------------------------------------------------------------------------------------------
// The filter kept in the browser (spec 001 §2: "Generating stores the filter in the browser (name formFilter)")

export type FormFilter = {
  dateStart: string;
  dateEnd: string;
  skuMode: SkuMode;
  sku: string[];
  chanel: string[];
} & Record<AttributeParam, string[]>;

export function toFormFilter(filter: PlanningFilter, skuMode: SkuMode): FormFilter {
  const out = {
    dateStart: filter.dateStart ?? "",
    dateEnd: filter.dateEnd ?? "",
    skuMode,
    sku: [...filter.sku],
    chanel: [...filter.chanel],
  } as FormFilter;
  for (const a of ATTRIBUTES) out[a.param] = [...filter[a.param]];
  return out;
}
