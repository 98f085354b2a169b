import { z } from "zod";
import type { RouteId } from "~/access";
import { getConfig } from "~/config.server";
import { branchScopeOf, branchVisible } from "~/models/hr.server";
import { type RoundTripDataset, RoundTripScopeError, scopeRecord } from "~/shared/excel/dataset";
import type { ExcelColumn } from "~/shared/excel/round-trip.server";
import { HR_COLUMNS, hrXlsx, importHrFile } from "./excel.server";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM, resolveMonthRange } from "./month-range";
import { FILIAL_MAX, HR_DATASET, hrGridPath } from "./paths";

/** The export's scope, as `portal export hr` takes it. */
const hrScope = z.object({
  filial: z.string({ required_error: "filial is required" }).min(1).max(200),
  [MONTH_FROM_PARAM]: z.string().max(32).optional(),
  [MONTH_TO_PARAM]: z.string().max(32).optional(),
});

const monthsOf = (from: string | null, to: string | null) =>
  resolveMonthRange({ from, to }, { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth });

/** A branch's HR auxiliary rows as a round trip (app/round-trips.server.ts lists it). */
export const hrRoundTrip: RoundTripDataset<RouteId> = {
  id: HR_DATASET,
  exportName: "hr",
  // An export of these rows sent back and stored is an HR file, whatever its header says later.
  dataClass: "hr",
  columns: HR_COLUMNS as readonly ExcelColumn<never>[],
  scopeFields: ["filial", MONTH_FROM_PARAM, MONTH_TO_PARAM],
  async exportXlsx(scope) {
    const parsed = hrScope.safeParse(scopeRecord(scope));
    if (!parsed.success) throw new RoundTripScopeError(parsed.error);
    const months = monthsOf(parsed.data[MONTH_FROM_PARAM] ?? null, parsed.data[MONTH_TO_PARAM] ?? null);
    if (!months.ok) throw new RoundTripScopeError(months.error);
    // The operator sees every branch (no store scope); an unknown one is said so rather than exported empty.
    if (!(await branchVisible(parsed.data.filial, { kind: "all" })))
      throw new RoundTripScopeError(`no branch "${parsed.data.filial}"`);
    return hrXlsx(parsed.data.filial, months.range);
  },
  returned: {
    writeRoute: "routes/ij.rh_edit.$filial.excel",
    /** The branch of the file must be one the uploader sees. */
    async mayImport(user, scope) {
      const filial = scope.get("filial") ?? "";
      if (!filial || filial.length > FILIAL_MAX) return false;
      return branchVisible(filial, await branchScopeOf(user.email));
    },
    async apply(open, scope, user) {
      const filial = scope.get("filial") ?? "";
      const months = monthsOf(scope.get(MONTH_FROM_PARAM), scope.get(MONTH_TO_PARAM));
      if (!months.ok) return { ok: false, message: months.error };
      const outcome = await importHrFile(await open(), filial, months.range, user.email);
      if (!outcome.ok) return outcome;
      return { ok: true, dataset: HR_DATASET, report: outcome.report, screen: hrGridPath(filial, months.range) };
    },
  },
};
