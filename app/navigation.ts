import { canAccessRoute, type PermissionType, type RouteId } from "~/access";
import type { AccessContext } from "~/config.server";
import { consolidatedTexts } from "~/features/forecast/consolidated/texts";
import { outboxTexts } from "~/features/outbox/texts";
import { auditTexts, hrTexts, messages } from "~/messages";
import { NAV_LABELS } from "~/navigation-labels";
import { byNumericCode } from "~/shared/collation";

export { NAV_LABELS } from "~/navigation-labels";

/**
 * The landing page per type, the header menu and the side navigation (spec 000 §2 "Header and navigation", §6;
 * spec 001 §6), built from the access rules of app/access.ts: a link the menu shows is always a route the server
 * lets through. Pure: the browser may import the labels from here.
 */

// ---------------------------------------------------------------------------------------------
// Links: the canonical path of a route the portal links to, with the route id whose rule decides it

export type RouteLink = { route: RouteId; to: string };

/** The fields of a dashboard record (spec 000 §3) that navigation needs. */
export type DashboardSummary = { painelId: number | string; panelLabel: string; panelType: number };

function byPainelId(a: DashboardSummary, b: DashboardSummary): number {
  const x = Number(a.painelId);
  const y = Number(b.painelId);
  if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
  return byNumericCode(String(a.painelId), String(b.painelId));
}

function dashboardsOfType(dashboards: readonly DashboardSummary[], panelType: 1 | 2): DashboardSummary[] {
  return dashboards.filter((d) => Number(d.panelType) === panelType).sort(byPainelId);
}

export const dashboardPath = (painelId: number | string) => `/ij/painel/${encodeURIComponent(String(painelId))}`;
export const jobsDashboardPath = (painelId: number | string) =>
  `/jobs/dashboard/${encodeURIComponent(String(painelId))}`;

const DASHBOARD_ROUTE: RouteId = "routes/ij.painel.$id";
const JOBS_DASHBOARD_ROUTE: RouteId = "routes/jobs.dashboard.$id";

// ---------------------------------------------------------------------------------------------
// Landing per type (spec 000 §6)

const FIXED_LANDING: Partial<Record<PermissionType, RouteLink>> = {
  "USER ADMIN": { route: "routes/user.config", to: "/user/config/" },
  "USER EXPLORER": { route: "routes/ij.explorer", to: "/ij/explorer" },
  "USER BRONZE": { route: "routes/captura.manual", to: "/captura/manual" },
  "USER SILVER": { route: "routes/captura.manual", to: "/captura/manual" },
  "USER PERMISS": { route: "routes/user.permission", to: "/user/permission" },
};

/** The page every signed-in user may see; the last fallback of `landingFor`. */
export const FALLBACK_LANDING = "/home";

/** Pages tried in order when the first dashboard is missing (or its flag is off). */
const DASHBOARD_FALLBACKS: readonly RouteLink[] = [
  { route: "routes/jobs.executados", to: "/jobs/executados" },
  { route: "routes/ij.explorer", to: "/ij/explorer" },
  { route: "routes/ij.report", to: "/ij/report" },
  { route: "routes/repo.master-data._index", to: "/repo/master-data" },
  { route: "routes/captura.manual", to: "/captura/manual" },
];

/**
 * Where a user lands after sign-in. SYSTEM ADMIN and USER GOLD: the first Intelligent Journey dashboard
 * (panelType 1, lowest painelId). When there is none — or its flag is off — the first page of
 * DASHBOARD_FALLBACKS the type may open, else FALLBACK_LANDING. The other types land on their fixed page
 * (when that page's flag is off: FALLBACK_LANDING).
 */
export function landingFor(
  type: PermissionType,
  dashboards: readonly DashboardSummary[],
  context: AccessContext,
): string {
  const allowed = (link: RouteLink) => canAccessRoute(type, link.route, context);
  const fixed = FIXED_LANDING[type];
  if (fixed) return allowed(fixed) ? fixed.to : FALLBACK_LANDING;
  const first = dashboardsOfType(dashboards, 1)[0];
  if (first && canAccessRoute(type, DASHBOARD_ROUTE, context)) return dashboardPath(first.painelId);
  return DASHBOARD_FALLBACKS.find(allowed)?.to ?? FALLBACK_LANDING;
}

// ---------------------------------------------------------------------------------------------
// Header menu and side navigation

export const LOGOUT_PATH = "/logout";

export type MenuItem = { label: string; to: string; kind: "link" | "logout" };
/** `activeOn`: the paths (prefixes) of the item's own flow where it is marked as current too. */
export type SideNavItem = { label: string; to: string; activeOn?: string[] };
export type SideNavGroupId = "intelligentJourney" | "dataJourney" | "executedJobs";
export type SideNavGroup = { id: SideNavGroupId; label: string; items: SideNavItem[] };
export type Navigation = {
  menu: MenuItem[];
  /** Empty when hidden (USER ADMIN) or when the type sees no item. */
  sideNav: SideNavGroup[];
  sideNavHidden: boolean;
};

const MENU: ReadonlyArray<{ label: string; link: RouteLink; kind: MenuItem["kind"] }> = [
  { label: messages.menuUserSettings, link: { route: "routes/user.permission", to: "/user/permission" }, kind: "link" },
  { label: messages.menuUserManagement, link: { route: "routes/user.config", to: "/user/config" }, kind: "link" },
  { label: auditTexts.menu, link: { route: "routes/user.audit", to: "/user/audit" }, kind: "link" },
  { label: outboxTexts.menu, link: { route: "routes/user.emails", to: "/user/emails" }, kind: "link" },
  { label: messages.menuLogout, link: { route: "routes/logout", to: LOGOUT_PATH }, kind: "logout" },
];

/** Types for which the side navigation is not shown (spec 000 §2). */
const SIDE_NAV_HIDDEN_FOR: readonly PermissionType[] = ["USER ADMIN"];

type StaticItem = { label: string; activeOn?: string[] } & RouteLink;
type GroupSpec = {
  id: SideNavGroupId;
  label: string;
  /** Dashboard entries of this panelType go first, under the rule of their route. */
  dashboards?: { panelType: 1 | 2; route: RouteId; path: (painelId: number | string) => string };
  items: StaticItem[];
};

/**
 * The side menu. Every item is visible exactly when its route's rule lets the type through, so the menu and
 * the guards cannot disagree.
 */
const SIDE_NAV: readonly GroupSpec[] = [
  {
    id: "intelligentJourney",
    label: NAV_LABELS.intelligentJourney,
    dashboards: { panelType: 1, route: DASHBOARD_ROUTE, path: dashboardPath },
    items: [
      { label: NAV_LABELS.financialStatement, route: "routes/ij.demo_financial", to: "/ij/demo_financial" },
      { label: NAV_LABELS.reports, route: "routes/ij.report", to: "/ij/report" },
      // Not in the spec's menu: the company's forecast as a whole, for the review's readers (docs/decisions.md).
      { label: consolidatedTexts.menu, route: "routes/ij.forecast_consolidado", to: "/ij/forecast_consolidado" },
      // The forecast cycle's own screens, for whoever may open each (docs/decisions.md, "Forecast cycle").
      {
        label: NAV_LABELS.forecastReview,
        route: "routes/ij.report_create_schneider",
        to: "/ij/report_create_schneider",
        activeOn: ["/ij/report_preview_edit_schneider/", "/ij/report_preview_schneider"],
      },
      { label: NAV_LABELS.forecastMine, route: "routes/ij.forecast_meus_centros", to: "/ij/forecast_meus_centros" },
      { label: NAV_LABELS.forecastStatus, route: "routes/ij.forecast_status", to: "/ij/forecast_status" },
      { label: NAV_LABELS.forecastPreparers, route: "routes/ij.forecast_preparers", to: "/ij/forecast_preparers" },
      {
        label: NAV_LABELS.forecastProfiles,
        route: "routes/ij.forecast_perfis_sazonalidade",
        to: "/ij/forecast_perfis_sazonalidade",
      },
      { label: NAV_LABELS.explorer, route: "routes/ij.explorer", to: "/ij/explorer" },
    ],
  },
  {
    id: "dataJourney",
    label: NAV_LABELS.dataJourney,
    items: [
      { label: NAV_LABELS.repositoryMaster, route: "routes/repo.master-data._index", to: "/repo/master-data" },
      { label: NAV_LABELS.repositoryFiles, route: "routes/repo.format", to: "/repo/format" },
      { label: NAV_LABELS.planning, route: "routes/ij.plan", to: "/ij/plan" },
      // Not in the spec's menu, which leaves the HR screen unreachable: its readers find it here (docs/decisions.md).
      { label: hrTexts.title, route: "routes/ij.rh", to: "/ij/rh" },
      { label: NAV_LABELS.manualCapture, route: "routes/captura.manual", to: "/captura/manual" },
      { label: NAV_LABELS.processing, route: "routes/captura.processando", to: "/captura/processando" },
    ],
  },
  {
    id: "executedJobs",
    label: NAV_LABELS.executedJobs,
    dashboards: { panelType: 2, route: JOBS_DASHBOARD_ROUTE, path: jobsDashboardPath },
    items: [{ label: NAV_LABELS.executedJobsList, route: "routes/jobs.executados", to: "/jobs/executados" }],
  },
];

/** The header menu and side navigation of a user of `type`. */
export function buildNavigation(
  type: PermissionType,
  dashboards: readonly DashboardSummary[],
  context: AccessContext,
): Navigation {
  const menu = MENU.filter((m) => m.kind === "logout" || canAccessRoute(type, m.link.route, context)).map(
    ({ label, link, kind }) => ({
      label,
      to: link.to,
      kind,
    }),
  );
  const sideNavHidden = SIDE_NAV_HIDDEN_FOR.includes(type);
  if (sideNavHidden) return { menu, sideNav: [], sideNavHidden };
  const sideNav: SideNavGroup[] = [];
  for (const group of SIDE_NAV) {
    const items: SideNavItem[] = [];
    if (group.dashboards && canAccessRoute(type, group.dashboards.route, context)) {
      for (const d of dashboardsOfType(dashboards, group.dashboards.panelType)) {
        items.push({ label: d.panelLabel, to: group.dashboards.path(d.painelId) });
      }
    }
    for (const item of group.items) {
      if (canAccessRoute(type, item.route, context))
        items.push({ label: item.label, to: item.to, ...(item.activeOn ? { activeOn: item.activeOn } : {}) });
    }
    if (items.length > 0) sideNav.push({ id: group.id, label: group.label, items });
  }
  return { menu, sideNav, sideNavHidden };
}
