import { z } from "zod";
import { OPERATOR_TYPE, type RouteId } from "~/access";
import { writesCostCentre } from "~/models/forecast-readers.server";
import { portalToday } from "~/shared/clock.server";
import { type RoundTripDataset, RoundTripScopeError, type RoundTripUser, scopeRecord } from "~/shared/excel/dataset";
import { FORECAST_DATASET, forecastXlsx, importForecastFile } from "./excel.server";
import { reviewPath } from "./forecast-filter";
import { resolveReview } from "./review.server";

/** The export's scope, as `portal export forecast` takes it. */
const forecastScope = z.object({
  rf: z.string({ required_error: "rf is required (e.g. rf=RF2-2026)" }).min(1).max(40),
  cost_center_concat: z.string({ required_error: "cost_center_concat is required" }).min(1).max(300),
});

/** `portal export` runs as the operator: the deployment's shell, which reads every cost centre. */
const OPERATOR = { email: "", type: OPERATOR_TYPE };

/** The sender of an edited export, as the forecast's rule takes them. */
const readerOf = (user: RoundTripUser) => ({
  email: user.email,
  name: user.name,
  type: user.type ?? null,
});

/**
 * The forecast review of one RF and cost centre as a round trip (app/round-trips.server.ts lists it). An edited export
 * comes back only from someone who may write its cost centre (the forecast's one rule, as on the review's saves and an
 * upload's rows).
 */
export const forecastRoundTrip: RoundTripDataset<RouteId> = {
  id: FORECAST_DATASET,
  exportName: "forecast",
  scopeFields: ["rf", "cost_center_concat"],
  async exportXlsx(scope) {
    const parsed = forecastScope.safeParse(scopeRecord(scope));
    if (!parsed.success) throw new RoundTripScopeError(parsed.error);
    const lookup = await resolveReview(parsed.data, OPERATOR);
    if (!lookup.ok) throw new RoundTripScopeError(lookup.message);
    return forecastXlsx(lookup.review, portalToday());
  },
  returned: {
    writeRoute: "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel",
    mayImport: (user, scope) => writesCostCentre(readerOf(user), scope.get("cost_center_concat") ?? ""),
    async apply(open, scope, user) {
      const lookup = await resolveReview(
        { rf: scope.get("rf") ?? "", cost_center_concat: scope.get("cost_center_concat") ?? "" },
        readerOf(user),
        "write",
      );
      if (!lookup.ok) return lookup;
      const outcome = await importForecastFile(await open(), lookup.review, portalToday(), user);
      if (!outcome.ok) return outcome;
      return {
        ok: true,
        dataset: FORECAST_DATASET,
        report: outcome.report,
        screen: reviewPath(lookup.review.calendar.name, lookup.review.costCenter.cost_center_concat),
      };
    },
  },
};
