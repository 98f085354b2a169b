import type { RouteId } from "~/access";
import { ATTRIBUTES } from "~/models/planning.fields";
import { type RoundTripDataset, RoundTripScopeError } from "~/shared/excel/dataset";
import type { ExcelColumn } from "~/shared/excel/round-trip.server";
import { importPlanningFile, PLANNING_COLUMNS, PLANNING_DATASET, planningXlsx } from "./excel.server";
import { filterSearchParams, parseFilter } from "./planning";

/** The quantities of /ij/plan_edit as a round trip (app/round-trips.server.ts lists it). */
export const planningRoundTrip: RoundTripDataset<RouteId> = {
  id: PLANNING_DATASET,
  exportName: "planning",
  columns: PLANNING_COLUMNS as readonly ExcelColumn<never>[],
  scopeFields: ["dateStart", "dateEnd", "chanel", "sku", "skuMode", ...ATTRIBUTES.map((a) => a.param)],
  listFields: ["chanel", "sku", ...ATTRIBUTES.map((a) => a.param)],
  async exportXlsx(scope) {
    const parsed = parseFilter(scope, "plan");
    if (!parsed.ok) {
      const errors = Object.entries(parsed.errors).map(
        ([field, messages]) => `${field}: ${(messages as string[]).join(", ")}`,
      );
      throw new RoundTripScopeError(errors.join("; "));
    }
    return planningXlsx(parsed.filter);
  },
  returned: {
    writeRoute: "routes/ij.plan_edit.excel",
    async apply(open, _scope, user) {
      // The file's own scope is the filter: importPlanningFile reads it from the hidden column.
      const outcome = await importPlanningFile(await open(), user.email, "plan_edit");
      if (!outcome.ok) return outcome;
      return {
        ok: true,
        dataset: PLANNING_DATASET,
        report: outcome.report,
        screen: `/ij/plan_edit?${filterSearchParams(outcome.filter).toString()}`,
      };
    },
  },
};
