import { messages, planningTexts } from "~/messages";

/**
 * The values and rules of SKU quantity planning that the browser needs as well as the server (spec 001
 * §2–§5, §9; issue 10): constants, the filter's shape, quantities, the group-edit factor and the filter kept
 * in the browser. Plain functions without zod, so the results screen ships no schema library; the server's
 * zod schemas (app/domain/planning.ts, which re-exports this module) call these same rules.
 */

// ---------------------------------------------------------------------------------------------
// Constants (spec 001 §9)

export const CHANNELS = ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"] as const;
export type Channel = (typeof CHANNELS)[number];

export const PLANNING_PAGE_SIZE = 20;
/** The competency date pickers' bounds (spec 001 §5). */
export const DATE_MIN = "1950-12-30";
export const DATE_MAX = "2030-12-30";
/** The group-edit percentage (spec 001 §5): 0 to 1,000,000, step 1, default 10. */
export const PERCENT_MIN = 0;
export const PERCENT_MAX = 1_000_000;
export const PERCENT_DEFAULT = 10;
/** A decrease multiplies by 1 − p/100: above 100 % it would turn quantities negative (docs/decisions.md). */
export const DECREASE_MAX = 100;
/** SKU list (spec 001 §7: find with projection, limit 500): the picker's matches and the most SKUs a filter holds. */
export const SKU_LIST_LIMIT = 500;
/** SKU grouped by sku (spec 001 §7: aggregate, limit 2000): the most values an attribute list offers or a filter holds. */
export const SKU_GROUPED_LIMIT = 2000;
/**
 * The largest quantity: a batch result is capped here, a typed one above it refused. Chosen so that
 * quantity × (100 + PERCENT_MAX) stays below 2^53, where doubles (JavaScript's and MongoDB's) are exact.
 */
export const QUANTITY_MAX = 1_000_000_000;
/** The longest value a filter list holds (a SKU code, an attribute value). */
export const VALUE_MAX_LENGTH = 100;

// ---------------------------------------------------------------------------------------------
// The filter (spec 001 §3 "Planning filter form": dateStart, dateEnd, sku, brand, category, hero,
// majorCategory, abcd, subCategory, plcLocal, chanel). The URL and the form use these names.

export const ATTRIBUTES = [
  { param: "brand", field: "marca" },
  { param: "category", field: "category_sku" },
  { param: "hero", field: "hero" },
  { param: "majorCategory", field: "categoria_principal_sku" },
  { param: "abcd", field: "abcd" },
  { param: "subCategory", field: "sub_categoria_sku" },
  { param: "plcLocal", field: "plc_localsku" },
] as const;
export type AttributeParam = (typeof ATTRIBUTES)[number]["param"];
export type AttributeField = (typeof ATTRIBUTES)[number]["field"];

export type PlanningFilter = {
  /** YYYY-MM-DD, or null for the lower bound. */
  dateStart: string | null;
  dateEnd: string | null;
  sku: string[];
  /** Empty = every channel (the report filter has no channel choice). */
  chanel: Channel[];
} & Record<AttributeParam, string[]>;

/** /ij/plan chooses between specific SKUs and SKU attributes (spec 001 §2); the report filter offers both at once. */
export type SkuMode = "sku" | "attributes";

export type FilterKind = "plan" | "report";

/** The values the filter screens offer per attribute, and one entry of the SKU list. */
export type AttributeOptions = Record<AttributeParam, string[]>;
export type SkuOption = { sku: string; description: string };

export type FilterErrors = Partial<Record<"dateStart" | "dateEnd" | "sku" | "chanel" | AttributeParam, string[]>>;

// ---------------------------------------------------------------------------------------------
// Quantities and the group-edit factor (spec 001 §4, §5)

const notValid = messages.numberNotValid;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** A typed quantity: digits only (no sign, fraction or exponent), 0 to QUANTITY_MAX. */
export function checkQuantity(input: unknown): Checked<number> {
  if (typeof input !== "string") return { ok: false, message: notValid };
  const text = input.trim();
  if (!/^\d{1,10}$/.test(text) || Number(text) > QUANTITY_MAX) return { ok: false, message: notValid };
  return { ok: true, value: Number(text) };
}

export type Direction = "increase" | "decrease";
export const DIRECTIONS = ["increase", "decrease"] as const;
export type GroupEdit = { percent: number; op: Direction };

/** The group-edit percentage: an integer 0 to 1,000,000 ("Number is not valid" otherwise). */
export function checkPercent(input: unknown): Checked<number> {
  if (typeof input !== "string") return { ok: false, message: notValid };
  const text = input.trim();
  if (!/^\d{1,7}$/.test(text)) return { ok: false, message: notValid };
  const n = Number(text);
  return n >= PERCENT_MIN && n <= PERCENT_MAX ? { ok: true, value: n } : { ok: false, message: notValid };
}

/** A group edit: the percentage and Increase/Decrease; a decrease at most 100 %. Every message, in order. */
export function checkGroupEdit(input: { percent: unknown; op: unknown }): { ok: true; value: GroupEdit } | { ok: false; messages: string[]; percent: string[]; op: string[] } {
  const percent = checkPercent(input.percent);
  const op = (DIRECTIONS as readonly unknown[]).includes(input.op) ? (input.op as Direction) : null;
  const percentErrors = percent.ok ? [] : [percent.message];
  const opErrors = op ? [] : [notValid];
  if (percent.ok && op === "decrease" && percent.value > DECREASE_MAX) percentErrors.push(planningTexts.decreaseTooLarge);
  if (percent.ok && op && percentErrors.length === 0) return { ok: true, value: { percent: percent.value, op } };
  return { ok: false, messages: [...percentErrors, ...opErrors], percent: percentErrors, op: opErrors };
}

/**
 * The integer multiplier of a group edit, in hundredths: increase ×(1 + p/100) = (100 + p)/100, decrease
 * ×(1 − p/100) = (100 − p)/100 (spec 001 §5).
 */
export function multiplierOf(edit: GroupEdit): number {
  return edit.op === "increase" ? 100 + edit.percent : 100 - edit.percent;
}

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
  return (multiplier / 100).toLocaleString("pt-BR", { maximumFractionDigits: 2 });
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

export type FormFilter = { dateStart: string; dateEnd: string; skuMode: SkuMode; sku: string[]; chanel: string[] } & Record<AttributeParam, string[]>;

export function toFormFilter(filter: PlanningFilter, skuMode: SkuMode): FormFilter {
  const out = { dateStart: filter.dateStart ?? "", dateEnd: filter.dateEnd ?? "", skuMode, sku: [...filter.sku], chanel: [...filter.chanel] } as FormFilter;
  for (const a of ATTRIBUTES) out[a.param] = [...filter[a.param]];
  return out;
}

