import { getDb } from "~/db.server";
import { ATTRIBUTES, SKU_GROUPED_LIMIT, SKU_LIST_LIMIT, type AttributeOptions, type FilterErrors, type PlanningFilter, type SkuOption } from "~/models/planning.fields";
import { planningTexts } from "~/messages";
import { PRODUCT_MASTER, type ProductMasterRow } from "./master-data.server";
import type { IndexDeclaration } from "./indexes";
import { byPtBrNumeric } from "~/shared/collation";

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


/** The values offered for every attribute, sorted, at most SKU_GROUPED_LIMIT each. */
export async function listAttributeOptions(): Promise<AttributeOptions> {
  const catalogue = (await getDb()).collection<ProductMasterRow>(PRODUCT_MASTER);
  const lists = await Promise.all(ATTRIBUTES.map((a) => catalogue.distinct(a.field)));
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
    .find(prefix ? { sku: { $gte: prefix, $lt: prefixEnd(prefix) } } : {}, { projection: { _id: 0, sku: 1, material_description: 1 } })
    .sort({ sku: 1 })
    .limit(SKU_LIST_LIMIT)
    .toArray();
  return dedupe(rows);
}

/** The named SKUs as the catalogue describes them (to show a filter's choices, and to check them). */
export async function findSkus(skus: readonly string[]): Promise<SkuOption[]> {
  if (skus.length === 0) return [];
  const catalogue = (await getDb()).collection<ProductMasterRow>(PRODUCT_MASTER);
  const rows = await catalogue.find({ sku: { $in: [...skus] } }, { projection: { _id: 0, sku: 1, material_description: 1 } }).toArray();
  return dedupe(rows).sort((a, b) => byPtBrNumeric(a.sku, b.sku));
}

function dedupe(rows: Pick<ProductMasterRow, "sku" | "material_description">[]): SkuOption[] {
  const seen = new Map<string, SkuOption>();
  for (const r of rows) if (!seen.has(r.sku)) seen.set(r.sku, { sku: r.sku, description: r.material_description ?? "" });
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
    if (unknown !== undefined) errors[a.param] = [planningTexts.unknownValue(planningTexts.attributes[a.param], unknown)];
  }
  return errors;
}

/** The filter's attribute values that the catalogue holds, by attribute (empty lists for attributes not in use). */
async function chosenAttributeValues(filter: PlanningFilter): Promise<AttributeOptions> {
  const catalogue = (await getDb()).collection<ProductMasterRow>(PRODUCT_MASTER);
  const lists = await Promise.all(
    ATTRIBUTES.map((a) => (filter[a.param].length > 0 ? catalogue.distinct(a.field, { [a.field]: { $in: [...filter[a.param]] } }) : [])),
  );
  return Object.fromEntries(ATTRIBUTES.map((a, i) => [a.param, lists[i].filter((v): v is string => typeof v === "string")])) as AttributeOptions;
}
