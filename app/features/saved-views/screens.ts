import type { RouteId } from "~/route-ids";
import type { savedViewTexts } from "./texts";

/**
 * The screens that keep views: their path (the URL without its query) and the route whose rule opens them. A view is
 * an address of one of these; the screen's own rules apply to whoever opens it. Pure: the browser's form reads it too.
 */

export type ViewScreen = { id: keyof typeof savedViewTexts.screens; pattern: RegExp; routeId: RouteId };

export const VIEW_SCREENS: readonly ViewScreen[] = [
  { id: "planning", pattern: /^\/ij\/plan_edit$/, routeId: "routes/ij.plan_edit" },
  { id: "forecastFilter", pattern: /^\/ij\/report_create_schneider$/, routeId: "routes/ij.report_create_schneider" },
  { id: "consolidated", pattern: /^\/ij\/forecast_consolidado$/, routeId: "routes/ij.forecast_consolidado" },
  { id: "hr", pattern: /^\/ij\/rh_edit\/[^/]{1,200}$/, routeId: "routes/ij.rh_edit.$filial" },
  { id: "processing", pattern: /^\/captura\/processando$/, routeId: "routes/captura.processando" },
  { id: "executed", pattern: /^\/jobs\/executados$/, routeId: "routes/jobs.executados" },
  { id: "audit", pattern: /^\/user\/audit$/, routeId: "routes/user.audit" },
];

export function viewScreenOf(pathname: string): ViewScreen | null {
  return VIEW_SCREENS.find((s) => s.pattern.test(pathname)) ?? null;
}

export const VIEWS_PATH = "/user/visoes";
