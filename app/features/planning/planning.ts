import {
  ATTRIBUTES,
  type AttributeParam,
  CHANNELS,
  DATE_MAX,
  DATE_MIN,
  type FilterErrors,
  type FilterKind,
  type FormFilter,
  type PlanningFilter,
  SKU_GROUPED_LIMIT,
  SKU_LIST_LIMIT,
  type SkuMode,
  VALUE_MAX_LENGTH,
} from "./planning-values";
import { planningTexts } from "./texts";

export * from "./planning-values";

/**
 * The rules of SKU quantity planning (spec 001 §2–§5, §9), shared by the browser and the server:
 * the filter form and its limits, the group-edit percentage, quantities and their rounding, paging.
 * Pure: no server code.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const SKU_CODE = /^[A-Za-z0-9._-]{1,64}$/;

/** A calendar date written YYYY-MM-DD (2025-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  if (!ISO_DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** DD/MM/YYYY of a YYYY-MM-DD date (for messages). */
export function brazilianDate(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${d}/${m}/${y}`;
}

/** The message of a date outside the form's bounds (or not a date), null when it is fine or empty. */
function dateError(value: string | null): string | null {
  return value !== null && (!isCalendarDate(value) || value < DATE_MIN || value > DATE_MAX)
    ? planningTexts.dateInvalid(brazilianDate(DATE_MIN), brazilianDate(DATE_MAX))
    : null;
}

/** The messages of a list of values: too many of them, then the first one that is not valid. */
function listErrors(
  values: readonly string[],
  label: string,
  max: number,
  valid: (value: string) => boolean,
  invalid: (value: string) => string,
): string[] {
  const errors: string[] = [];
  if (values.length > max) errors.push(planningTexts.tooManyValues(label, max));
  const bad = values.find((v) => !valid(v));
  if (bad !== undefined) errors.push(invalid(bad.slice(0, VALUE_MAX_LENGTH)));
  return errors;
}

/** Each list's label, limit and check (the SKU codes, the four channels, the attributes' values). */
const LISTS: readonly {
  name: "sku" | "chanel" | AttributeParam;
  label: string;
  max: number;
  valid: (value: string) => boolean;
  invalid: (value: string) => string;
}[] = [
  {
    name: "sku",
    label: planningTexts.sku,
    max: SKU_LIST_LIMIT,
    valid: (v) => SKU_CODE.test(v),
    invalid: planningTexts.unknownSku,
  },
  {
    name: "chanel",
    label: planningTexts.channel,
    max: CHANNELS.length,
    valid: (v) => (CHANNELS as readonly string[]).includes(v),
    invalid: planningTexts.unknownChannel,
  },
  ...ATTRIBUTES.map((a) => ({
    name: a.param,
    label: planningTexts.attributes[a.param],
    max: SKU_GROUPED_LIMIT,
    valid: (v: string) => v.length <= VALUE_MAX_LENGTH,
    invalid: (v: string) => planningTexts.unknownValue(planningTexts.attributes[a.param], v),
  })),
];

export type ParsedFilter =
  | { ok: true; filter: PlanningFilter; skuMode: SkuMode }
  | { ok: false; errors: FilterErrors; skuMode: SkuMode };

/** The SKU mode of /ij/plan from the form: `skuMode=sku`, else attributes (the report filter uses both lists). */
export function skuModeOf(params: URLSearchParams): SkuMode {
  return params.get("skuMode") === "sku" ? "sku" : "attributes";
}

/**
 * Reads and checks a filter from the URL or a form. /ij/plan keeps only the list group its radio chose and
 * needs a channel (spec 001 §5); the report filter keeps every list and has no channel (every channel).
 * Catalogue membership of the values is checked by the server (models/planning-catalogue.server.ts).
 */
export function parseFilter(params: URLSearchParams, kind: FilterKind): ParsedFilter {
  const skuMode = kind === "plan" ? skuModeOf(params) : "attributes";
  const errors: FilterErrors = {};
  const add = (key: keyof FilterErrors, messages: readonly string[]) => {
    if (messages.length > 0) (errors[key] ??= []).push(...messages);
  };
  const dateStart = params.get("dateStart") || null;
  const dateEnd = params.get("dateEnd") || null;
  add(
    "dateStart",
    [dateError(dateStart)].filter((m) => m !== null),
  );
  add(
    "dateEnd",
    [dateError(dateEnd)].filter((m) => m !== null),
  );
  const lists: Record<string, string[]> = {};
  for (const list of LISTS) {
    const values = list.name === "chanel" && kind !== "plan" ? [] : [...new Set(params.getAll(list.name))];
    add(list.name, listErrors(values, list.label, list.max, list.valid, list.invalid));
    lists[list.name] = values;
  }
  if (dateStart && dateEnd && dateEnd < dateStart) add("dateEnd", [planningTexts.dateOrder]);
  if (kind === "plan" && params.getAll("chanel").length === 0) add("chanel", [planningTexts.channelRequired]);
  if (Object.keys(errors).length > 0) return { ok: false, errors, skuMode };
  // Every value passed its list's check: the channels are the four.
  const filter = { dateStart, dateEnd, ...lists } as PlanningFilter;
  if (kind === "plan") {
    if (skuMode === "sku") for (const a of ATTRIBUTES) filter[a.param] = [];
    else filter.sku = [];
  }
  return { ok: true, filter, skuMode };
}

/** The filter as URL search parameters (the spec's names), for links back to the filter and between screens. */
export function filterSearchParams(filter: PlanningFilter, skuMode?: SkuMode): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.dateStart) params.set("dateStart", filter.dateStart);
  if (filter.dateEnd) params.set("dateEnd", filter.dateEnd);
  if (skuMode) params.set("skuMode", skuMode);
  for (const sku of filter.sku) params.append("sku", sku);
  for (const a of ATTRIBUTES) for (const v of filter[a.param]) params.append(a.param, v);
  for (const c of filter.chanel) params.append("chanel", c);
  return params;
}

/** The channels a filter covers: the chosen ones, or all four when none is chosen. */
// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Paging: /ij/plan_edit counts pages from 1; /ij/report_preview sends the page index, first 0 (spec 001 §4)

const MAX_PAGE_INDEX = 1_000_000;

/** The 1-based page a URL asks for, its `page` parameter counted from `base` (0 or 1); anything else is the first page. */
export function pageFromParams(params: URLSearchParams, base: 0 | 1): number {
  const text = params.get("page") ?? "";
  if (!/^\d{1,7}$/.test(text)) return 1;
  const index = Number(text) - base;
  return index >= 0 && index <= MAX_PAGE_INDEX ? index + 1 : 1;
}

/** The `page` parameter value of a 1-based page for a URL counted from `base`. */
export function pageParamValue(page: number, base: 0 | 1): number {
  return page - 1 + base;
}

export const OBJECT_ID_HEX = /^[0-9a-f]{24}$/;

// ---------------------------------------------------------------------------------------------
// The filter kept in the browser (spec 001 §2: "Generating stores the filter in the browser (name formFilter)")

/** A stored list: strings of a value's length at most, no more than a group's; anything else reads as empty. */
function storedList(value: unknown): string[] {
  return Array.isArray(value) &&
    value.length <= SKU_GROUPED_LIMIT &&
    value.every((v) => typeof v === "string" && v.length <= VALUE_MAX_LENGTH)
    ? value
    : [];
}

/** A stored date: a string of 10 characters at most, else empty. */
const storedDate = (value: unknown) => (typeof value === "string" && value.length <= 10 ? value : "");

/** The stored filter read back (whatever another version or a user left there), or null. */
export function fromFormFilter(text: string | null): FormFilter | null {
  if (!text) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return null;
  const field = (key: string): unknown =>
    Object.hasOwn(stored, key) ? (stored as Record<string, unknown>)[key] : undefined;
  const filter: Record<string, unknown> = {
    dateStart: storedDate(field("dateStart")),
    dateEnd: storedDate(field("dateEnd")),
    skuMode: field("skuMode") === "sku" ? "sku" : "attributes",
  };
  for (const list of LISTS) filter[list.name] = storedList(field(list.name));
  return filter as FormFilter;
}
