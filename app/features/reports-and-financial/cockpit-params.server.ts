import { z } from "zod";
import { BUSINESS_UNITS, CATEGORY1_OPTIONS, LEDGER_REPORTS } from "~/models/reports.fields";
import type { CockpitParams } from "./cockpit-filters";
import { optionalMonth } from "./month-param";

/** The cockpit's URL state as its loaders read it: a value that is not one of the choices is ignored. */
const cockpitParamsSchema = z.object({
  period: optionalMonth,
  unit: z.enum(BUSINESS_UNITS).nullable().catch(null),
  report: z.enum(LEDGER_REPORTS).catch("BALANCE_SHEET"),
  category1: z.enum(CATEGORY1_OPTIONS).nullable().catch(null),
  category2: z.string().max(120).nullable().catch(null),
  category3: z.string().max(120).nullable().catch(null),
}) satisfies z.ZodType<CockpitParams, z.ZodTypeDef, unknown>;

export function readCockpitParams(url: URL): CockpitParams {
  const get = (k: string) => url.searchParams.get(k) || null;
  return cockpitParamsSchema.parse({
    period: get("period"),
    unit: get("unit"),
    report: get("report") ?? undefined,
    category1: get("category1"),
    category2: get("category2"),
    category3: get("category3"),
  });
}
