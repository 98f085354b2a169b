import type { FeatureFlag } from "~/config.server";
import { messages } from "~/messages";
import { PERMISSION_TYPES, type PermissionType } from "~/domain/permissions";

/**
 * THE access table (spec 000 §2 "Header and navigation", §6; spec 001 §6): permission types, tier labels,
 * the landing page per type, the header menu, the side navigation and the route rules that the server
 * guards (`requireAccess` in app/auth.server.ts) enforce. The menu and the guards both read it, so an
 * entry shown in the menu is always an entry the server lets through, and nothing else in the code base
 * names a permission type. Pure (no server imports beyond types): the browser may use it too.
 */

export { PERMISSION_TYPES, type PermissionType };

/** Feature flags as the guards see them (config.features). */
export type Features = Readonly<Record<FeatureFlag, boolean>>;

// ---------------------------------------------------------------------------------------------
// Tiers (spec 000 §6 "Administrators", §9: four assignable tiers)

export const ASSIGNABLE_TIERS = ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"] as const satisfies readonly PermissionType[];
export type Tier = (typeof ASSIGNABLE_TIERS)[number];

export const TIER_LABELS: Record<Tier, string> = {
  "USER EXPLORER": "Explorer",
  "USER BRONZE": "Básico",
  "USER SILVER": "Padrão",
  "USER GOLD": "Avançado",
};

export function isPermissionType(value: unknown): value is PermissionType {
  return typeof value === "string" && (PERMISSION_TYPES as readonly string[]).includes(value);
}

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (ASSIGNABLE_TIERS as readonly string[]).includes(value);
}

/**
 * The tier an admin-created user gets (spec 000 §4 gives creation no tier). The lowest-privilege tier
 * that still has a working landing page: USER BRONZE lands on /captura/manual and can only upload and
 * follow its uploads, so a new account sees nothing sensitive until a permission admin raises it.
 */
export const DEFAULT_TIER_FOR_NEW_USERS: Tier = "USER BRONZE";

/**
 * Administrative types: not listed in the user-administration grids, and neither deletable nor re-tierable
 * from them (they are provisioned by operations, e.g. the seed).
 */
export const ADMIN_TIERS_PROTECTED: readonly PermissionType[] = ["SYSTEM ADMIN", "USER ADMIN", "USER PERMISS"];

/** Who may retry a failed job besides its uploader (docs/decisions.md). */
export const RETRY_ADMIN_TYPE: PermissionType = "SYSTEM ADMIN";

/** Types whose users may edit the HR auxiliary figures and comments (spec 001 §5; the list is ours). */
export const HR_EDIT_TYPES: readonly PermissionType[] = ["SYSTEM ADMIN", "USER GOLD"];

// ---------------------------------------------------------------------------------------------
// Groups of types used below

const ADMIN_AND_GOLD = ["SYSTEM ADMIN", "USER GOLD"] as const satisfies readonly PermissionType[];
const UPLOADERS = ["SYSTEM ADMIN", "USER BRONZE", "USER SILVER", "USER GOLD"] as const satisfies readonly PermissionType[];
const REPORT_READERS = ["SYSTEM ADMIN", "USER SILVER", "USER GOLD"] as const satisfies readonly PermissionType[];
const EXPLORERS = ["USER EXPLORER", "SYSTEM ADMIN", "USER SILVER", "USER GOLD"] as const satisfies readonly PermissionType[];
const PERMISSION_ADMINS = ["SYSTEM ADMIN", "USER PERMISS"] as const satisfies readonly PermissionType[];
const USER_ADMINS = ["USER ADMIN"] as const satisfies readonly PermissionType[];

// ---------------------------------------------------------------------------------------------
// Route rules

export type RouteRule = {
  /** A path pattern; `:name` matches one non-empty segment. */
  pattern: string;
  types: readonly PermissionType[];
  /** The feature flag that must be on, if any. */
  flag?: FeatureFlag;
  /** Where the rule comes from: the spec, or our decision (see docs/decisions.md). */
  source: "spec" | "ours";
};

/** Prefixes under which every page needs a signed-in user and a matching route rule (deny by default). */
export const PROTECTED_PREFIXES = ["/ij", "/captura", "/repo", "/user", "/jobs"] as const;

export const ROUTE_RULES: readonly RouteRule[] = [
  // Dashboards (spec 000 §6: SYSTEM ADMIN and USER GOLD)
  { pattern: "/ij/painel/:id", types: ADMIN_AND_GOLD, flag: "dashboard", source: "spec" },
  { pattern: "/jobs/dashboard/:id", types: ADMIN_AND_GOLD, flag: "dashboard", source: "spec" },
  { pattern: "/jobs/executados", types: ADMIN_AND_GOLD, flag: "jobsExecuted", source: "spec" },

  // User administration (spec 000 §6)
  { pattern: "/user/config", types: USER_ADMINS, source: "spec" },
  { pattern: "/user/permission", types: PERMISSION_ADMINS, source: "spec" },

  // Capture: BRONZE and SILVER land on /captura/manual; the uploader tiers and SYSTEM ADMIN upload.
  { pattern: "/captura/manual", types: UPLOADERS, flag: "upload", source: "ours" },
  { pattern: "/captura/automacao", types: UPLOADERS, flag: "upload", source: "ours" },
  { pattern: "/captura/processando", types: UPLOADERS, flag: "upload", source: "ours" },

  // Repository (spec 000 §6: Repository Master for SYSTEM ADMIN and USER GOLD)
  { pattern: "/repo/format", types: ADMIN_AND_GOLD, flag: "masterRepository", source: "ours" },
  { pattern: "/repo/master-data", types: ADMIN_AND_GOLD, flag: "masterRepository", source: "spec" },
  { pattern: "/repo/master-data/canal", types: ADMIN_AND_GOLD, flag: "masterRepository", source: "spec" },
  { pattern: "/repo/master-data/planejamento", types: ADMIN_AND_GOLD, flag: "masterRepository", source: "spec" },

  // Planning (spec: "needs a feature flag"; types ours)
  { pattern: "/ij/plan", types: ADMIN_AND_GOLD, flag: "planning", source: "ours" },
  { pattern: "/ij/plan_edit", types: ADMIN_AND_GOLD, flag: "planning", source: "ours" },

  // Reports (spec 001 §6: Relatorios for SYSTEM ADMIN, USER SILVER, USER GOLD)
  { pattern: "/ij/report", types: REPORT_READERS, flag: "report", source: "spec" },
  { pattern: "/ij/report_preview", types: REPORT_READERS, flag: "report", source: "ours" },
  { pattern: "/ij/report_create", types: REPORT_READERS, flag: "report", source: "ours" },
  { pattern: "/ij/report_save", types: REPORT_READERS, flag: "report", source: "ours" },

  // Cost-centre forecast review (roles not shown: the finance planners' tiers)
  { pattern: "/ij/report_create_schneider", types: ADMIN_AND_GOLD, flag: "report", source: "ours" },
  { pattern: "/ij/report_preview_schneider", types: ADMIN_AND_GOLD, flag: "report", source: "ours" },
  { pattern: "/ij/report_preview_edit_schneider/:period/:cost_center", types: ADMIN_AND_GOLD, flag: "report", source: "ours" },

  // Explorer (spec 001 §6)
  { pattern: "/ij/explorer", types: EXPLORERS, flag: "explorer", source: "spec" },

  // HR auxiliary data (roles not shown)
  { pattern: "/ij/rh", types: ADMIN_AND_GOLD, source: "ours" },
  { pattern: "/ij/rh_edit/:filial", types: ADMIN_AND_GOLD, source: "ours" },

  // Financial statement (spec 001 §6: USER GOLD with a flag)
  { pattern: "/ij/demo_financial", types: ["USER GOLD"], flag: "financialStatement", source: "spec" },
  { pattern: "/ij/preview_financial", types: ["USER GOLD"], flag: "financialStatement", source: "spec" },

  // Cockpit (roles not shown)
  { pattern: "/ij/cockpit", types: ADMIN_AND_GOLD, flag: "report", source: "ours" },
  { pattern: "/ij/cockpit_preview", types: ADMIN_AND_GOLD, flag: "report", source: "ours" },
];

function normalizePath(pathname: string): string {
  const path = pathname.split(/[?#]/)[0] || "/";
  return path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
}

function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}$`);
}

const compiledRules = ROUTE_RULES.map((rule) => ({ rule, re: patternToRegExp(rule.pattern) }));

/** The rule for a path (trailing slash ignored), or undefined. */
export function findRouteRule(pathname: string): RouteRule | undefined {
  const path = normalizePath(pathname);
  return compiledRules.find(({ re }) => re.test(path))?.rule;
}

export function isProtectedPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return PROTECTED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Whether a user of `type` may open `pathname`. Under a protected prefix a path without a rule is denied;
 * outside them (/, /recovery/…, /home) every path is open. An empty/unknown type opens nothing protected.
 */
export function canAccess(type: PermissionType | "" | null | undefined, pathname: string, features: Features): boolean {
  const rule = findRouteRule(pathname);
  if (!rule) return !isProtectedPath(pathname);
  if (!isPermissionType(type)) return false;
  if (rule.flag && !features[rule.flag]) return false;
  return rule.types.includes(type);
}

// ---------------------------------------------------------------------------------------------
// Dashboards as the menu and the landing see them

/** The fields of a dashboard record (spec 000 §3) that navigation needs. */
export type DashboardSummary = { painelId: number | string; panelLabel: string; panelType: number };

function byPainelId(a: DashboardSummary, b: DashboardSummary): number {
  const x = Number(a.painelId);
  const y = Number(b.painelId);
  if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
  return String(a.painelId).localeCompare(String(b.painelId), "en", { numeric: true });
}

function dashboardsOfType(dashboards: readonly DashboardSummary[], panelType: 1 | 2): DashboardSummary[] {
  return dashboards.filter((d) => Number(d.panelType) === panelType).sort(byPainelId);
}

export const dashboardPath = (painelId: number | string) => `/ij/painel/${encodeURIComponent(String(painelId))}`;
export const jobsDashboardPath = (painelId: number | string) => `/jobs/dashboard/${encodeURIComponent(String(painelId))}`;

// ---------------------------------------------------------------------------------------------
// Landing per type (spec 000 §6)

const FIXED_LANDING: Partial<Record<PermissionType, string>> = {
  "USER ADMIN": "/user/config/",
  "USER EXPLORER": "/ij/explorer",
  "USER BRONZE": "/captura/manual",
  "USER SILVER": "/captura/manual",
  "USER PERMISS": "/user/permission",
};

/** The page every signed-in user may see; the last fallback of `landingFor`. */
export const FALLBACK_LANDING = "/home";

/** Pages tried in order when the first dashboard is missing (or its flag is off). */
const DASHBOARD_FALLBACKS = ["/jobs/executados", "/ij/explorer", "/ij/report", "/repo/master-data", "/captura/manual"];

/**
 * Where a user lands after sign-in. SYSTEM ADMIN and USER GOLD: the first Intelligent Journey dashboard
 * (panelType 1, lowest painelId). When there is none — or, given `features`, its flag is off — the first
 * page of DASHBOARD_FALLBACKS the type may open, else FALLBACK_LANDING. The other types land on their
 * fixed page (when `features` is given and the page's flag is off: FALLBACK_LANDING).
 */
export function landingFor(type: PermissionType, dashboards: readonly DashboardSummary[], features?: Features): string {
  const allowed = (path: string) => (features ? canAccess(type, path, features) : findRouteRule(path)?.types.includes(type) ?? false);
  const fixed = FIXED_LANDING[type];
  if (fixed) return allowed(fixed) ? fixed : FALLBACK_LANDING;
  const first = dashboardsOfType(dashboards, 1)[0];
  if (first && allowed(dashboardPath(first.painelId))) return dashboardPath(first.painelId);
  return DASHBOARD_FALLBACKS.find(allowed) ?? FALLBACK_LANDING;
}

// ---------------------------------------------------------------------------------------------
// Header menu and side navigation

export const LOGOUT_PATH = "/logout";

export type MenuItem = { label: string; to: string; kind: "link" | "logout" };
export type SideNavItem = { label: string; to: string };
export type SideNavGroupId = "intelligentJourney" | "dataJourney" | "executedJobs";
export type SideNavGroup = { id: SideNavGroupId; label: string; items: SideNavItem[] };
export type Navigation = {
  menu: MenuItem[];
  /** Empty when hidden (USER ADMIN) or when the type sees no item. */
  sideNav: SideNavGroup[];
  sideNavHidden: boolean;
};

const MENU: ReadonlyArray<{ label: string; to: string; kind: MenuItem["kind"]; types: readonly PermissionType[] }> = [
  { label: messages.menuUserSettings, to: "/user/permission", kind: "link", types: PERMISSION_ADMINS },
  { label: messages.menuUserManagement, to: "/user/config", kind: "link", types: USER_ADMINS },
  { label: messages.menuLogout, to: LOGOUT_PATH, kind: "logout", types: PERMISSION_TYPES },
];

/** Side-navigation labels; the group and item names are the spec's (§2), the capture items ours. */
export const NAV_LABELS = {
  intelligentJourney: "Intelligent Journey",
  dataJourney: "Data Journey",
  executedJobs: "Executed Jobs",
  financialStatement: "Financial Statement",
  reports: "Relatorios",
  explorer: "Explorer",
  repositoryMaster: "Repository Master",
  planning: "Planejamento",
  manualCapture: "Captura manual",
  processing: "Processamento",
  executedJobsList: "Jobs executados",
} as const;

/** Types for which the side navigation is not shown (spec 000 §2). */
const SIDE_NAV_HIDDEN_FOR: readonly PermissionType[] = ["USER ADMIN"];

type StaticItem = { label: string; to: string };
type GroupSpec = {
  id: SideNavGroupId;
  label: string;
  /** Dashboard entries of this panelType go first, through the route rule of their path. */
  dashboards?: { panelType: 1 | 2; path: (painelId: number | string) => string };
  items: StaticItem[];
};

/**
 * The side menu. Every item is visible exactly when `canAccess` lets its path through, so the menu and the
 * guards cannot disagree: the types and flags of each item are those of its route rule above.
 */
const SIDE_NAV: readonly GroupSpec[] = [
  {
    id: "intelligentJourney",
    label: NAV_LABELS.intelligentJourney,
    dashboards: { panelType: 1, path: dashboardPath },
    items: [
      { label: NAV_LABELS.financialStatement, to: "/ij/demo_financial" },
      { label: NAV_LABELS.reports, to: "/ij/report" },
      { label: NAV_LABELS.explorer, to: "/ij/explorer" },
    ],
  },
  {
    id: "dataJourney",
    label: NAV_LABELS.dataJourney,
    items: [
      { label: NAV_LABELS.repositoryMaster, to: "/repo/master-data" },
      { label: NAV_LABELS.planning, to: "/ij/plan" },
      { label: NAV_LABELS.manualCapture, to: "/captura/manual" },
      { label: NAV_LABELS.processing, to: "/captura/processando" },
    ],
  },
  {
    id: "executedJobs",
    label: NAV_LABELS.executedJobs,
    dashboards: { panelType: 2, path: jobsDashboardPath },
    items: [{ label: NAV_LABELS.executedJobsList, to: "/jobs/executados" }],
  },
];

/** The header menu and side navigation of a user of `type`. */
export function buildNavigation(type: PermissionType, dashboards: readonly DashboardSummary[], features: Features): Navigation {
  const menu = MENU.filter((m) => m.types.includes(type)).map(({ label, to, kind }) => ({ label, to, kind }));
  const sideNavHidden = SIDE_NAV_HIDDEN_FOR.includes(type);
  if (sideNavHidden) return { menu, sideNav: [], sideNavHidden };
  const sideNav: SideNavGroup[] = [];
  for (const group of SIDE_NAV) {
    const items: SideNavItem[] = [];
    if (group.dashboards) {
      for (const d of dashboardsOfType(dashboards, group.dashboards.panelType)) {
        const to = group.dashboards.path(d.painelId);
        if (canAccess(type, to, features)) items.push({ label: d.panelLabel, to });
      }
    }
    for (const item of group.items) {
      if (canAccess(type, item.to, features)) items.push({ label: item.label, to: item.to });
    }
    if (items.length > 0) sideNav.push({ id: group.id, label: group.label, items });
  }
  return { menu, sideNav, sideNavHidden };
}
