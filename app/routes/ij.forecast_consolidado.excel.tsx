// Screen: Consolidated forecast, Excel export: /ij/forecast_consolidado/excel.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseConsolidatedQuery } from "~/features/forecast/consolidated/consolidated.server";
import { consolidatedXlsx } from "~/features/forecast/consolidated/excel.server";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { portalToday } from "~/shared/clock.server";

/** The view the same query shows, as an XLSX with Excel's row outline, in the viewer's scope. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_consolidado.excel", request);
  const params = new URL(request.url).searchParams;
  const { response, model } = await consolidatedXlsx(parseConsolidatedQuery(params), user, portalToday());
  return recordedDownload(response, {
    actor: user,
    dataset: "forecast",
    object: { kind: "screen", id: "/ij/forecast_consolidado", label: "forecast_consolidado" },
    filter: params,
    rows: model.rows.length,
  });
}
