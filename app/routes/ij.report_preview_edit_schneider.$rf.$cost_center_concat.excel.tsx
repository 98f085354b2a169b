// Screen: Forecast review Excel round trip: GET /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}/excel, POST an edited export back.

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { FORECAST_DATASET, forecastXlsx, importForecastFile } from "~/features/forecast/excel.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { resolveReview, reviewRefusal } from "~/features/forecast/review.server";
import { messages } from "~/messages";
import { keepExcelReport } from "~/models/excel-imports.server";
import { recordExport, recordRoundTrip } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { queuedImportRedirect } from "~/platform/import/returned-file-jobs.server";
import { portalToday } from "~/shared/clock.server";
import { returnedFileOf } from "~/shared/excel/round-trip.server";
import { redirectWithToast } from "~/shared/toast.server";

/** "Exportar Excel": the review's accounts and months, as the grid shows them. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel",
    request,
  );
  const lookup = await resolveReview(params, user);
  if (!lookup.ok) throw reviewRefusal(lookup);
  const { calendar, costCenter } = lookup.review;
  return forecastXlsx(lookup.review, portalToday(), (rows) =>
    recordExport({
      actor: user,
      dataset: FORECAST_DATASET,
      object: { kind: "costCentre", id: costCenter.cost_center_concat, label: calendar.name },
      filter: { rf: calendar.name, cost_center_concat: costCenter.cost_center_concat },
      rows,
    }),
  );
}

/** An edited export sent back: the changed cells of the open months, saved via Excel; then the review with the outcome. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel",
    request,
    "write",
  );
  const lookup = await resolveReview(params, user, "write");
  if (!lookup.ok) throw reviewRefusal(lookup);
  const back = reviewPath(lookup.review.calendar.name, lookup.review.costCenter.cost_center_concat);
  const file = await returnedFileOf(request);
  if (!file.ok) return redirectWithToast(back, { type: "error", description: file.message });
  const queued = await queuedImportRedirect(file, user.email, back);
  if (queued) return queued;
  const outcome = await importForecastFile(file.stream, lookup.review, portalToday(), user);
  if (!outcome.ok) return redirectWithToast(back, { type: "error", description: outcome.message });
  const id = await keepExcelReport(FORECAST_DATASET, user.email, outcome.report);
  await recordRoundTrip({
    actor: user,
    dataset: FORECAST_DATASET,
    report: outcome.report,
    reportLink: `${back}?excel=${id}`,
    via: "screen",
  });
  return redirectWithToast(`${back}?excel=${id}`, { type: "success", description: messages.saved });
}
