import { monthOfDate, monthOfDay, monthStartDate, parseIsoDate } from "~/shared/months";

/**
 * The stored vocabulary of SKU quantity planning (spec 001 §3, §9): channels, the SKU attributes and their fields,
 * the filter's shape and its limits. Browser-safe and text-free, so the planning model and the planning feature
 * share one definition.
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

/** The group edit's two directions (spec 001 §5). */
export type Direction = "increase" | "decrease";
export const DIRECTIONS = ["increase", "decrease"] as const;

export type GroupEdit = { percent: number; op: Direction };

/** The multiplier of a group edit, in percent: 100 + p to increase, 100 − p to decrease. */
export function multiplierOf(edit: GroupEdit): number {
  return edit.op === "increase" ? 100 + edit.percent : 100 - edit.percent;
}

/** The channels a filter covers: every channel when it names none. */
export function effectiveChannels(filter: Pick<PlanningFilter, "chanel">): Channel[] {
  return filter.chanel.length > 0 ? [...filter.chanel] : [...CHANNELS];
}

/** The first day (UTC) of the month holding a YYYY-MM-DD date. */
function competencyMonth(iso: string): Date {
  const day = parseIsoDate(iso);
  return monthStartDate(day ? monthOfDay(day) : monthOfDate(new Date(iso)));
}

/**
 * The competency months a filter covers, inclusive: the month of From to the month of To (a row's dateRef is
 * the first day of its month). A bound left empty is the picker's bound (docs/decisions.md).
 */
export function competencyRange(filter: Pick<PlanningFilter, "dateStart" | "dateEnd">): { from: Date; to: Date } {
  return { from: competencyMonth(filter.dateStart ?? DATE_MIN), to: competencyMonth(filter.dateEnd ?? DATE_MAX) };
}

/** The attributes whose values a filter chooses, in ATTRIBUTES order. */
export function chosenAttributes(filter: PlanningFilter): (typeof ATTRIBUTES)[number][] {
  return ATTRIBUTES.filter((a) => filter[a.param].length > 0);
}

/** The row fields a filter tests. */
export type FilterableRow = { sku: string; channel: string; dateRef: Date } & Record<AttributeField, string>;

/** Whether a row falls inside a filter: the same rule as the database query (models/planning-queries.server.ts). */
export function filterMatchesRow(filter: PlanningFilter, row: FilterableRow): boolean {
  const { from, to } = competencyRange(filter);
  const t = row.dateRef.getTime();
  if (t < from.getTime() || t > to.getTime()) return false;
  if (!(effectiveChannels(filter) as string[]).includes(row.channel)) return false;
  if (filter.sku.length > 0 && !filter.sku.includes(row.sku)) return false;
  return ATTRIBUTES.every((a) => filter[a.param].length === 0 || filter[a.param].includes(row[a.field]));
}
