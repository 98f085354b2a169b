import {
  ATTRIBUTES,
  type AttributeParam,
  CHANNELS,
  type FilterErrors,
  parseFilter,
  SKU_GROUPED_LIMIT,
  SKU_LIST_LIMIT,
  type SkuOption,
  skuModeOf,
} from "~/features/planning/planning";
import {
  checkFilterAgainstCatalogue,
  findSkus,
  listAttributeOptions,
  normalizeSkuSearch,
  searchSkus,
} from "~/models/planning-catalogue.server";
import type { PlanningScreen } from "./screens";

/**
 * The loader of the filter screens (/ij/plan, the report filter /ij/report_create; spec 001 §2): the catalogue's
 * options, the SKU search (`skuSearch`, at most 500 matches), the values the URL carries (coming back from the
 * results, or after a search without JavaScript), and — when the results screen sent the user back with
 * `check=1` — the messages of a filter it refused.
 */

const text = (v: string | null, max: number) => (v ?? "").slice(0, max);

export async function loadFilterScreen(request: Request, screen: PlanningScreen) {
  const params = new URL(request.url).searchParams;
  const list = (name: string, max: number) =>
    params
      .getAll(name)
      .slice(0, max)
      .map((v) => v.slice(0, 100));
  const values = {
    dateStart: text(params.get("dateStart"), 10),
    dateEnd: text(params.get("dateEnd"), 10),
    sku: list("sku", SKU_LIST_LIMIT),
    chanel: screen.kind === "plan" ? list("chanel", CHANNELS.length) : [],
    ...(Object.fromEntries(ATTRIBUTES.map((a) => [a.param, list(a.param, SKU_GROUPED_LIMIT)])) as Record<
      AttributeParam,
      string[]
    >),
  };
  const skuSearch = normalizeSkuSearch(params.get("skuSearch"));
  const [options, skuResults, chosen] = await Promise.all([
    listAttributeOptions(),
    searchSkus(skuSearch),
    findSkus(values.sku),
  ]);
  // A SKU the catalogue does not know stays listed (checked), so the message about it has something to point at.
  const known = new Set(chosen.map((s) => s.sku));
  const selectedSkus: SkuOption[] = [
    ...chosen,
    ...values.sku.filter((s) => !known.has(s)).map((sku) => ({ sku, description: "" })),
  ];

  let errors: FilterErrors = {};
  if (params.get("check") === "1") {
    const parsed = parseFilter(params, screen.kind);
    errors = parsed.ok ? await checkFilterAgainstCatalogue(parsed.filter) : parsed.errors;
  }
  return {
    values,
    skuMode: screen.kind === "plan" ? skuModeOf(params) : ("attributes" as const),
    skuSearch,
    options,
    skuResults,
    selectedSkus,
    errors,
    /** An address without parameters: the browser may fill the form from the stored filter (formFilter). */
    restorable: [...params.keys()].length === 0,
  };
}
