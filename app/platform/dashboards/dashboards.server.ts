import { getConfig } from "~/config.server";
import { getDashboard } from "~/models/dashboard-queries.server";
import type { PanelType } from "~/models/dashboards.server";
import { FORECAST } from "~/models/forecast.server";
import { forecastScopeOf } from "~/models/forecast-readers.server";
import { branchScopeOf, HR_AUX } from "~/models/hr.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { type ChartResult, type RowFilter, runCharts } from "~/services/dashboards/native.server";
import { DashboardEmbedError, type EmbedAddress, generateEmbedAddress } from "~/services/dashboards/quicksight.server";
import { uiTexts } from "~/shared/ui/texts";
import { dashboardProviderTexts } from "./texts";

/**
 * The dashboards provider (config.dashboards.kind): `native` (the default) runs the charts stored with
 * the record; `quicksight` asks QuickSight for an embed address for the signed-in user.
 */

export type DashboardScreen = {
  dashboard: { painelId: number; panelLabel: string; panelType: PanelType };
  view:
    | { provider: "native"; charts: ChartResult[] }
    | { provider: "quicksight"; embed: EmbedAddress | null; error: string | null };
};

function forbidden(): Response {
  return new Response(uiTexts.forbidden, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * The record behind /ij/painel/{id} (panelType 1) or /jobs/dashboard/{id} (panelType 2): 404 when the
 * tenant has no such id, 403 when the record belongs to the other route.
 */
async function findForRoute(painelId: string | undefined, panelType: PanelType) {
  const record = await getDashboard(getConfig().tenantId, painelId ?? "");
  if (Number(record.panelType) !== panelType) throw forbidden();
  return record;
}

/** Everything a dashboard screen shows. A failed QuickSight call is data (shown in an alert), not a crash. */
export async function loadDashboardScreen(
  user: AuthenticatedUser,
  painelId: string | undefined,
  panelType: PanelType,
): Promise<DashboardScreen> {
  const record = await findForRoute(painelId, panelType);
  const dashboard = { painelId: Number(record.painelId), panelLabel: record.panelLabel, panelType };
  if (getConfig().dashboards.kind === "native") {
    // HR auxiliary data in a chart: only the viewer's branches, as on /ij/rh; the forecast only the cost centres the
    // viewer may read, as on the review (the forecast's read rule: a preparer, those they prepare).
    const [scope, costCentres] = await Promise.all([branchScopeOf(user.email), forecastScopeOf(user)]);
    const filters: RowFilter[] = [
      ...(scope.kind === "stores" ? [{ collection: HR_AUX, field: "filial_nome", values: scope.stores }] : []),
      ...(costCentres ? [{ collection: FORECAST, field: "cost_center_concat", values: costCentres }] : []),
    ];
    return {
      dashboard,
      view: {
        provider: "native",
        charts: await runCharts(record.charts, `${record.cliente}:${record.dashboardId}`, filters),
      },
    };
  }
  try {
    const embed = await generateEmbedAddress(user.email, record.dashboardId);
    return { dashboard, view: { provider: "quicksight", embed, error: null } };
  } catch (error) {
    const message = error instanceof DashboardEmbedError ? error.message : dashboardProviderTexts.dashboardUnexpected;
    return { dashboard, view: { provider: "quicksight", embed: null, error: message } };
  }
}

/**
 * A fresh embed address for the renewal of an open QuickSight dashboard, as a JSON Response
 * (never cached). 404 under the native provider, which has no sessions to renew.
 */
export async function renewEmbedAddressResponse(
  user: AuthenticatedUser,
  painelId: string | undefined,
  panelType: PanelType,
): Promise<Response> {
  const record = await findForRoute(painelId, panelType);
  if (getConfig().dashboards.kind !== "quicksight") throw new Response(null, { status: 404 });
  const headers = { "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" };
  try {
    const embed = await generateEmbedAddress(user.email, record.dashboardId);
    return new Response(JSON.stringify(embed), { status: 200, headers });
  } catch (error) {
    const message = error instanceof DashboardEmbedError ? error.message : dashboardProviderTexts.dashboardUnexpected;
    return new Response(JSON.stringify({ error: message }), { status: 502, headers });
  }
}

export type { ChartResult, EmbedAddress };
