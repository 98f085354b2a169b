import { z } from "zod";
import {
  ATTRIBUTES,
  type AttributeParam,
  CHANNELS,
  checkGroupEdit,
  checkQuantity,
  DATE_MAX,
  DATE_MIN,
  type FilterErrors,
  type FilterKind,
  type FormFilter,
  type GroupEdit,
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

const dateField = z
  .string()
  .optional()
  .transform((v) => (v ? v : null))
  .superRefine((v, ctx) => {
    if (v !== null && (!isCalendarDate(v) || v < DATE_MIN || v > DATE_MAX)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: planningTexts.dateInvalid(brazilianDate(DATE_MIN), brazilianDate(DATE_MAX)),
      });
    }
  });

const unique = <T>(values: T[]) => [...new Set(values)];

function listField(label: string, max: number, valid: (value: string) => boolean, invalid: (value: string) => string) {
  return z
    .array(z.string())
    .transform(unique)
    .superRefine((values, ctx) => {
      if (values.length > max)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: planningTexts.tooManyValues(label, max) });
      const bad = values.find((v) => !valid(v));
      if (bad !== undefined)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: invalid(bad.slice(0, VALUE_MAX_LENGTH)) });
    });
}

const attributeShape = Object.fromEntries(
  ATTRIBUTES.map((a) => [
    a.param,
    listField(
      planningTexts.attributes[a.param],
      SKU_GROUPED_LIMIT,
      (v) => v.length <= VALUE_MAX_LENGTH,
      (v) => planningTexts.unknownValue(planningTexts.attributes[a.param], v),
    ),
  ]),
) as Record<AttributeParam, ReturnType<typeof listField>>;

const filterSchema = z
  .object({
    dateStart: dateField,
    dateEnd: dateField,
    sku: listField(planningTexts.sku, SKU_LIST_LIMIT, (v) => SKU_CODE.test(v), planningTexts.unknownSku),
    chanel: listField(
      planningTexts.channel,
      CHANNELS.length,
      (v) => (CHANNELS as readonly string[]).includes(v),
      planningTexts.unknownChannel,
    ),
    ...attributeShape,
  })
  .superRefine((f, ctx) => {
    if (f.dateStart && f.dateEnd && f.dateEnd < f.dateStart)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["dateEnd"], message: planningTexts.dateOrder });
  });

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
  const input: Record<string, unknown> = {
    dateStart: params.get("dateStart") ?? undefined,
    dateEnd: params.get("dateEnd") ?? undefined,
    sku: params.getAll("sku"),
    chanel: kind === "plan" ? params.getAll("chanel") : [],
  };
  for (const a of ATTRIBUTES) input[a.param] = params.getAll(a.param);
  const parsed = filterSchema.safeParse(input);
  const errors: FilterErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "dateStart") as keyof FilterErrors;
      (errors[key] ??= []).push(issue.message);
    }
  }
  if (kind === "plan" && params.getAll("chanel").length === 0)
    (errors.chanel ??= []).push(planningTexts.channelRequired);
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors, skuMode };
  const filter = parsed.data as PlanningFilter;
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
// Quantities and the group-edit factor as zod schemas for the server's forms (the rules: planning-values.ts)

/** A typed quantity (checkQuantity) as a zod field. */
export const quantityField = z.unknown().transform((input, ctx) => {
  const checked = checkQuantity(input);
  if (checked.ok) return checked.value;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: checked.message });
  return z.NEVER;
});

/** A group edit (checkGroupEdit) as a zod object: its messages on `percent` and `op`. */
export const groupEditSchema = z
  .object({ percent: z.unknown(), op: z.unknown() })
  .transform((input, ctx): GroupEdit => {
    const checked = checkGroupEdit({ percent: input.percent, op: input.op });
    if (checked.ok) return checked.value;
    for (const message of checked.percent) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["percent"], message });
    for (const message of checked.op) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["op"], message });
    return z.NEVER;
  });

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

const storedList = z.array(z.string().max(VALUE_MAX_LENGTH)).max(SKU_GROUPED_LIMIT).catch([]);
const storedFormFilter = z.object({
  dateStart: z.string().max(10).catch(""),
  dateEnd: z.string().max(10).catch(""),
  skuMode: z.enum(["sku", "attributes"]).catch("attributes"),
  sku: storedList,
  chanel: storedList,
  ...Object.fromEntries(ATTRIBUTES.map((a) => [a.param, storedList])),
});

/** The stored filter read back (whatever another version or a user left there), or null. */
export function fromFormFilter(text: string | null): FormFilter | null {
  if (!text) return null;
  try {
    const parsed = storedFormFilter.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as FormFilter) : null;
  } catch {
    return null;
  }
}
