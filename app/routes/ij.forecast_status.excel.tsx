// Screen: Forecast cycle status board, Excel export: /ij/forecast_status/excel.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { boardXlsx, parseBoardQuery } from "~/features/forecast/cycle/board.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { portalToday } from "~/shared/clock.server";

/** /ij/forecast_status/excel?rf=&estado=&nivel=: the status board's filtered rows as an XLSX (all pages). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_status.excel", request);
  const params = new URL(request.url).searchParams;
  const response = await boardXlsx(parseBoardQuery(params), portalToday(), reviewPath);
  // The audit trail: the board's export, with the filter used (boardXlsx does not tell its row count).
  return recordedDownload(response, {
    actor: user,
    dataset: "forecast",
    object: { kind: "screen", id: "/ij/forecast_status", label: "forecast_status" },
    filter: params,
  });
}
