import type { Db } from "mongodb";
import { getDb } from "~/db.server";
import { planningTexts } from "~/messages";
import {
  ATTRIBUTES,
  type AttributeField,
  type AttributeOptions,
  type FilterErrors,
  type PlanningFilter,
  SKU_GROUPED_LIMIT,
  SKU_LIST_LIMIT,
  type SkuOption,
} from "~/models/planning.fields";
import { byPtBrNumeric } from "~/shared/collation";
import type { IndexDeclaration } from "./indexes";
import { PRODUCT_MASTER, type ProductMasterRow } from "./master-data.server";

/**
 * What the planning and report filters offer, read from the product catalogue (spec 001 §2, §3, §7): the SKU
 * list (find with a projection, at most 500) and the values of each SKU attribute (at most 2000 per list).
 *
 * Each attribute list is the catalogue's distinct values of that field, read from an index on it (a
 * DISTINCT_SCAN: one seek per value, however large the catalogue). The delivered interface grouped the
 * catalogue by sku (limit 2000) and collected the values in the browser, which only saw the first 2000 SKUs
 * (docs/decisions.md). The SKU list is searched by code prefix, a range on the `sku` index that the
 * master-data model declares.
 */

/** One index per attribute: `distinct` reads an index whose first field is the key. */
export const catalogueIndexes: IndexDeclaration[] = ATTRIBUTES.map((a) => ({
  collection: PRODUCT_MASTER,
  key: { [a.field]: 1 },
  options: { name: `planning_${a.field}` },
}));

/**
 * The catalogue's values of each attribute as last read, kept KNOWN_VALUES_MS: the results screens check their filter
 * on every page, and a filter naming every attribute cost seven commands a page. A chosen value found here is known;
 * one not found is asked of the catalogue (so a value added since is known at once). A value removed from the
 * catalogue within the last KNOWN_VALUES_MS is still taken for that long; the filter then names the plan's rows that
 * carry it, as it would have a moment before (docs/decisions.md, "Planning").
 */
export const KNOWN_VALUES_MS = 10_000;
type KnownValues = { until: number; values: Promise<Set<unknown>> };
const knownValues = new WeakMap<Db, Map<AttributeField, KnownValues>>();

function keepValues(db: Db, field: AttributeField, values: Promise<unknown[]>): Promise<Set<unknown>> {
  let byField = knownValues.get(db);
  if (!byField) knownValues.set(db, (byField = new Map()));
  const entry = { until: Date.now() + KNOWN_VALUES_MS, values: values.then((list) => new Set(list)) };
  byField.set(field, entry);
  // A failed read is not kept: the next check asks again.
  entry.values.catch(() => byField.get(field) === entry && byField.delete(field));
  return entry.values;
}

/** The kept values of one attribute, read again (one DISTINCT_SCAN of its index) when older than KNOWN_VALUES_MS. */
function valuesOf(db: Db, field: AttributeField): Promise<Set<unknown>> {
  const kept = knownValues.get(db)?.get(field);
  if (kept && kept.until > Date.now()) return kept.values;
  return keepValues(db, field, db.collection<ProductMasterRow>(PRODUCT_MASTER).distinct(field));
}

/** The values offered for every attribute, sorted, at most SKU_GROUPED_LIMIT each (read afresh, and kept for the checks). */
export async function listAttributeOptions(): Promise<AttributeOptions> {
  const db = await getDb();
  const catalogue = db.collection<ProductMasterRow>(PRODUCT_MASTER);
  const lists = await Promise.all(ATTRIBUTES.map((a) => catalogue.distinct(a.field)));
  ATTRIBUTES.forEach((a, i) => void keepValues(db, a.field, Promise.resolve(lists[i])));
  return Object.fromEntries(
    ATTRIBUTES.map((a, i) => [
      a.param,
      lists[i]
        .filter((v): v is string => typeof v === "string")
        .sort(byPtBrNumeric)
        .slice(0, SKU_GROUPED_LIMIT),
    ]),
  ) as AttributeOptions;
}

/** The first code after every code starting with `prefix` (prefixes are ASCII: see SKU_SEARCH). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** What a SKU search may hold: the characters of SKU codes. */
const SKU_SEARCH = /[^A-Za-z0-9._-]/g;

export function normalizeSkuSearch(text: string | null | undefined): string {
  return (text ?? "").replace(SKU_SEARCH, "").slice(0, 64);
}

/** The catalogue's SKUs whose code starts with `search` (all when empty), in code order, at most SKU_LIST_LIMIT. */
export async function searchSkus(search: string): Promise<SkuOption[]> {
  const prefix = normalizeSkuSearch(search);
  const catalogue = (await getDb()).collection<ProductMasterRow>(PRODUCT_MASTER);
  const rows = await catalogue
    .find(prefix ? { sku: { $gte: prefix, $lt: prefixEnd(prefix) } } : {}, {
      projection: { _id: 0, sku: 1, material_description: 1 },
    })
    .sort({ sku: 1 })
    .limit(SKU_LIST_LIMIT)
    .toArray();
  return dedupe(rows);
}

/** The named SKUs as the catalogue describes them (to show a filter's choices, and to check them). */
export async function findSkus(skus: readonly string[]): Promise<SkuOption[]> {
  if (skus.length === 0) return [];
  const catalogue = (await getDb()).collection<ProductMasterRow>(PRODUCT_MASTER);
  const rows = await catalogue
    .find({ sku: { $in: [...skus] } }, { projection: { _id: 0, sku: 1, material_description: 1 } })
    .toArray();
  return dedupe(rows).sort((a, b) => byPtBrNumeric(a.sku, b.sku));
}

function dedupe(rows: Pick<ProductMasterRow, "sku" | "material_description">[]): SkuOption[] {
  const seen = new Map<string, SkuOption>();
  for (const r of rows)
    if (!seen.has(r.sku)) seen.set(r.sku, { sku: r.sku, description: r.material_description ?? "" });
  return [...seen.values()];
}

/**
 * Checks a well-formed filter against the catalogue: every SKU and attribute value must be one it holds
 * (an unknown value is refused, not silently matched to nothing). Returns the errors by field, if any. Only the
 * chosen values are looked up (one indexed distinct per attribute in use), not the screen's whole lists: the
 * results screens check on every page.
 */
export async function checkFilterAgainstCatalogue(filter: PlanningFilter): Promise<FilterErrors> {
  const errors: FilterErrors = {};
  const [known, skus] = await Promise.all([chosenAttributeValues(filter), findSkus(filter.sku)]);
  const found = new Set(skus.map((s) => s.sku));
  const missingSku = filter.sku.find((s) => !found.has(s));
  if (missingSku !== undefined) errors.sku = [planningTexts.unknownSku(missingSku)];
  for (const a of ATTRIBUTES) {
    const unknown = filter[a.param].find((v) => !known[a.param].includes(v));
    if (unknown !== undefined)
      errors[a.param] = [planningTexts.unknownValue(planningTexts.attributes[a.param], unknown)];
  }
  return errors;
}

/**
 * The filter's attribute values that the catalogue holds, by attribute (empty lists for attributes not in use): those
 * in the kept lists, and those the catalogue answers for when asked about the rest (one indexed distinct per attribute).
 */
async function chosenAttributeValues(filter: PlanningFilter): Promise<AttributeOptions> {
  const db = await getDb();
  const catalogue = db.collection<ProductMasterRow>(PRODUCT_MASTER);
  const lists = await Promise.all(
    ATTRIBUTES.map(async (a) => {
      const chosen = filter[a.param];
      if (chosen.length === 0) return [];
      const kept = await valuesOf(db, a.field);
      const unseen = chosen.filter((v) => !kept.has(v));
      const found = unseen.length > 0 ? await catalogue.distinct(a.field, { [a.field]: { $in: unseen } }) : [];
      return [...chosen.filter((v) => kept.has(v)), ...found];
    }),
  );
  return Object.fromEntries(
    ATTRIBUTES.map((a, i) => [a.param, lists[i].filter((v): v is string => typeof v === "string")]),
  ) as AttributeOptions;
}
