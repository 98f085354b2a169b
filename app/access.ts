import type { AccessContext, FeatureFlag } from "~/config.server";
import type { RouteId } from "~/route-ids";
import {
  DEFAULT_FORECAST_REVIEWER_TYPES,
  DEFAULT_HR_EDITOR_TYPES,
  PERMISSION_TYPES,
  type PermissionType,
} from "~/shared/permissions";

/**
 * THE access table (spec 000 §6; spec 001 §6): permission types, tier labels and the rule of every route module.
 * The landing page per type, the header menu and the side navigation read these rules (app/navigation.ts).
 *
 * Rules are keyed by the Remix ROUTE ID of the module that matched (`routes/user.config`), never by the
 * URL's text: the router matches case-insensitively on the decoded path, so a rule looked up from the URL
 * drifts from the module that actually runs (`/USER/config`, `/%75ser/config`, `//user/config` …). Each
 * route module's loader and action call `requireRouteAccess("<its own route id>", request)`
 * (app/platform/auth/auth.server.ts); test/access-table.test.ts fails when a route of the manifest has no rule here or a
 * module guards itself with another route's id, and test/e2e/access-matrix.e2e.ts probes every route ×
 * account × spelling × method against this table. Nothing else names a permission type.
 *
 * Pure (no server imports beyond types): the browser may import the tier labels from here.
 */

export { type AccessContext, DEFAULT_HR_EDITOR_TYPES, PERMISSION_TYPES, type PermissionType };

/** Feature flags as the guards see them (config.features). */
export type Features = Readonly<Record<FeatureFlag, boolean>>;

// ---------------------------------------------------------------------------------------------
// Tiers (spec 000 §6 "Administrators", §9: four assignable tiers)

export const ASSIGNABLE_TIERS = [
  "USER EXPLORER",
  "USER BRONZE",
  "USER SILVER",
  "USER GOLD",
] as const satisfies readonly PermissionType[];
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
 * from them (they are provisioned by operations, e.g. the seed or the CLI).
 */
export const ADMIN_TIERS_PROTECTED: readonly PermissionType[] = ["SYSTEM ADMIN", "USER ADMIN", "USER PERMISS"];

/** The rights of the operator's CLI `import` without `--user` (the deployment's own shell; docs/access.md). */
export const OPERATOR_TYPE: PermissionType = "SYSTEM ADMIN";

/** Who may retry a failed job besides its uploader (docs/decisions.md): defined beside the permission types. */
export { RETRY_ADMIN_TYPE } from "~/shared/permissions";

/**
 * Who sees and revokes every user's API tokens and makes SCIM tokens (docs/decisions.md "API tokens"); a SCIM token
 * works while its maker still has this type.
 */
export const TOKEN_ADMIN_TYPE: PermissionType = "SYSTEM ADMIN";

// ---------------------------------------------------------------------------------------------
// Groups of types used below

const ADMIN_AND_GOLD = ["SYSTEM ADMIN", "USER GOLD"] as const satisfies readonly PermissionType[];
const UPLOADERS = [
  "SYSTEM ADMIN",
  "USER BRONZE",
  "USER SILVER",
  "USER GOLD",
] as const satisfies readonly PermissionType[];
const REPORT_READERS = ["SYSTEM ADMIN", "USER SILVER", "USER GOLD"] as const satisfies readonly PermissionType[];
const EXPLORERS = [
  "USER EXPLORER",
  "SYSTEM ADMIN",
  "USER SILVER",
  "USER GOLD",
] as const satisfies readonly PermissionType[];
const PERMISSION_ADMINS = ["SYSTEM ADMIN", "USER PERMISS"] as const satisfies readonly PermissionType[];
const USER_ADMINS = ["USER ADMIN"] as const satisfies readonly PermissionType[];
/** Who reads the audit trail (docs/decisions.md): SYSTEM ADMIN. */
const AUDIT_READERS = ["SYSTEM ADMIN"] as const satisfies readonly PermissionType[];
/** HR auxiliary data readers (docs/decisions.md): the editors plus USER SILVER, who sees the grid read-only. */
const HR_READERS = ["SYSTEM ADMIN", "USER SILVER", "USER GOLD"] as const satisfies readonly PermissionType[];

// ---------------------------------------------------------------------------------------------
// Route rules

/** Who passes: a list of types, or a list the configuration holds. */
export type TypeSet =
  | readonly PermissionType[]
  /** A list the configuration holds, with `plus` types always let through. */
  | { configured: "hrEditorTypes" | "forecastReviewerTypes"; plus?: readonly PermissionType[] };

export type TypeRule = {
  types: TypeSet;
  /** The feature flag that must be on, if any. */
  flag?: FeatureFlag;
};

export type RouteRule =
  /** Anyone, signed in or not (the login, recovery, SSO return, /home, the root layout). */
  | { kind: "public" }
  /** Any signed-in user whose type is set (layouts and the not-found splats under the protected prefixes). */
  | { kind: "signedIn" }
  /**
   * Answered only with a bearer token, never a session (the API, app/api): each operation applies the rule of the
   * screen whose data it reads or writes to the token owner's type (app/api/v1/operations.server.ts).
   */
  | { kind: "token" }
  /**
   * Signed-in users of `read.types` with `read.flag` on. `write`, when present, is what the route's saving
   * actions need on top of `read` (a screen some may read but not change).
   */
  | { kind: "restricted"; read: TypeRule; write?: TypeRule; source: "spec" | "ours" };

const PUBLIC = { kind: "public" } as const satisfies RouteRule;
const SIGNED_IN = { kind: "signedIn" } as const satisfies RouteRule;
const TOKEN = { kind: "token" } as const satisfies RouteRule;
const restricted = (
  types: TypeSet,
  flag: FeatureFlag | undefined,
  source: "spec" | "ours",
  write?: TypeRule,
): RouteRule => ({
  kind: "restricted",
  read: flag ? { types, flag } : { types },
  ...(write ? { write } : {}),
  source,
});

const DASHBOARDS = restricted(ADMIN_AND_GOLD, "dashboard", "spec");
const UPLOAD = restricted(UPLOADERS, "upload", "ours");
const REPOSITORY = restricted(ADMIN_AND_GOLD, "masterRepository", "spec");
const REPORTS = restricted(REPORT_READERS, "report", "spec");
const PLANNING_RULE: TypeRule = { types: ADMIN_AND_GOLD, flag: "planning" };
const PLANNING = restricted(PLANNING_RULE.types, PLANNING_RULE.flag, "ours");
/** Cost-centre forecast review, cockpit (roles not shown: the finance planners' tiers, docs/decisions.md). */
const FINANCE = restricted(ADMIN_AND_GOLD, "report", "ours");
const FINANCIAL_STATEMENT = restricted(["USER GOLD"], "financialStatement", "spec");
const HR = restricted(HR_READERS, undefined, "ours", { types: { configured: "hrEditorTypes" } });
/** Comments on the HR grid's rows: whoever reads the grid discusses it (its write rule is the figures'). */
const HR_COMMENTS = restricted(HR_READERS, undefined, "ours");
/**
 * The forecast review and its cycle (docs/decisions.md "Forecast cycle"): the finance planners read and edit it, the
 * forecast reviewers (FORECAST_REVIEWER_TYPES) read it to decide; the status board is the reviewers' and the
 * administrators'; the preparers' assignments are the administrators'.
 */
const FORECAST_READERS: TypeSet = { configured: "forecastReviewerTypes", plus: ADMIN_AND_GOLD };
const FORECAST_REVIEW = restricted(FORECAST_READERS, "report", "ours", { types: ADMIN_AND_GOLD, flag: "report" });
/** Comments on the review's cells: whoever reads it discusses it (its write rule is the figures'). */
const FORECAST_REVIEW_COMMENTS = restricted(FORECAST_READERS, "report", "ours");
const FORECAST_BOARD = restricted({ configured: "forecastReviewerTypes", plus: ["SYSTEM ADMIN"] }, "report", "ours");
const FORECAST_PREPARERS = restricted(["SYSTEM ADMIN"], "report", "ours");
/** "Meus centros de custo": whoever may prepare a cost centre (the review's saving types). */
const FORECAST_MINE = restricted(ADMIN_AND_GOLD, "report", "ours");
/**
 * The seasonality profiles that "Distribuir total" offers as a base: the reviewers and SYSTEM ADMIN keep them (the
 * screen, read and write); a preparer uses them from the spread, which reads them itself.
 */
const FORECAST_PROFILES = restricted({ configured: "forecastReviewerTypes", plus: ["SYSTEM ADMIN"] }, "report", "ours");
/**
 * The consolidated forecast and its versions (docs/decisions.md): the review's
 * readers open them (a preparer sees only the cost centres they prepare); reviewers and SYSTEM ADMIN save a version,
 * SYSTEM ADMIN deletes one.
 */
const FORECAST_CONSOLIDATED = restricted(FORECAST_READERS, "report", "ours", {
  types: { configured: "forecastReviewerTypes", plus: ["SYSTEM ADMIN"] },
  flag: "report",
});
const FORECAST_VERSIONS = restricted(FORECAST_READERS, "report", "ours", { types: ["SYSTEM ADMIN"], flag: "report" });

/**
 * Every route module, by route id (the file name under app/routes without its extension, prefixed with
 * `routes/`; `root` for app/root.tsx). A new route adds its line here and calls
 * `requireRouteAccess("<its id>", request)` in its loader and action (docs/access.md).
 */
export const ROUTE_ACCESS = {
  root: PUBLIC,

  // Public (spec 000 §2 "Public routes")
  "routes/_index": PUBLIC,
  "routes/recovery.$code": PUBLIC,
  "routes/home": PUBLIC,
  "routes/saml": PUBLIC,
  "routes/saml.login": PUBLIC,
  "routes/saml.metadata": PUBLIC,
  // The API's description, for people and for client generators.
  "routes/api.v1.openapi[.json]": PUBLIC,
  "routes/api.docs": PUBLIC,
  // The API itself: a personal token (docs/api.md), each operation under its screen's rule.
  "routes/api.v1.$": TOKEN,
  // SCIM provisioning: a SCIM token (made by SYSTEM ADMIN on /user/tokens?scim=1).
  "routes/scim.v2.$": TOKEN,
  "routes/logout": PUBLIC,
  // Every address no other route matches: the branded 404 page, for anyone.
  "routes/$": PUBLIC,

  // Signed-in downloads: the token is the grant (bucket, key, file name), the session keeps leaked links useless.
  "routes/download.$token": SIGNED_IN,

  // The layouts of the protected hierarchies and their not-found splats: a session, then each child's own rule.
  "routes/ij": SIGNED_IN,
  "routes/ij.$": SIGNED_IN,
  "routes/captura": SIGNED_IN,
  "routes/captura.$": SIGNED_IN,
  "routes/repo": SIGNED_IN,
  "routes/repo.$": SIGNED_IN,
  "routes/user": SIGNED_IN,
  "routes/user.$": SIGNED_IN,
  "routes/jobs": SIGNED_IN,
  "routes/jobs.$": SIGNED_IN,

  // Dashboards (spec 000 §6: SYSTEM ADMIN and USER GOLD; the flag is the spec's "dashboard")
  "routes/ij.painel.$id": DASHBOARDS,
  "routes/ij.painel.$id.embed-url": DASHBOARDS,
  "routes/jobs.dashboard.$id": DASHBOARDS,
  "routes/jobs.dashboard.$id.embed-url": DASHBOARDS,
  "routes/jobs.executados": restricted(ADMIN_AND_GOLD, "jobsExecuted", "spec"),

  // User administration (spec 000 §6)
  "routes/user.config": restricted(USER_ADMINS, undefined, "spec"),
  "routes/user.permission": restricted(PERMISSION_ADMINS, undefined, "spec"),
  // The audit trail and its export: SYSTEM ADMIN only.
  "routes/user.audit": restricted(AUDIT_READERS, undefined, "ours"),
  "routes/user.audit_.export": restricted(AUDIT_READERS, undefined, "ours"),
  // The demo's e-mails: exists only while mail goes to the outbox (MAIL=outbox).
  "routes/user.emails": restricted(AUDIT_READERS, "mailOutbox", "ours"),
  // Each user's own notices and settings: every signed-in user, only their own.
  "routes/user.notices": SIGNED_IN,
  "routes/user.settings": SIGNED_IN,
  // Each user's own subscriptions; subscribing also needs the right to open what is followed.
  "routes/user.subscriptions": SIGNED_IN,
  // Each user's own API tokens; SYSTEM ADMIN also sees and revokes everyone's (checked by the route).
  "routes/user.tokens": SIGNED_IN,
  // Each user's own saved views (a view's screen applies its own rule when it is opened).
  "routes/user.visoes": SIGNED_IN,

  // Capture: BRONZE and SILVER land on /captura/manual; the uploader tiers and SYSTEM ADMIN upload.
  "routes/captura.manual": UPLOAD,
  "routes/captura.manual_.modelo.$template": UPLOAD,
  "routes/captura.automacao": UPLOAD,
  "routes/captura.processando": UPLOAD,
  // A job's refused rows as CSV (its uploader, or a type that may open /jobs/executados: checked on the file).
  "routes/captura.processando_.nok.$id": UPLOAD,
  // The refused rows as an XLSX to fix and send again: the same people as the CSV, checked on the file.
  "routes/captura.processando_.corrigir.$id": UPLOAD,
  "routes/api.upload": UPLOAD,
  "routes/api.uploads.s3": UPLOAD,
  "routes/api.files.register": UPLOAD,

  // Repository (spec 000 §6: Repository Master for SYSTEM ADMIN and USER GOLD)
  "routes/repo.format": REPOSITORY,
  "routes/repo.master-data._index": REPOSITORY,
  "routes/repo.master-data.canal": REPOSITORY,
  "routes/repo.master-data.planejamento": REPOSITORY,
  // Their Excel round trips: the lists' readers export, and send an edited export of a valid base back.
  "routes/repo.master-data.excel": REPOSITORY,
  "routes/repo.master-data.canal.excel": REPOSITORY,
  "routes/repo.master-data.planejamento.excel": REPOSITORY,

  // Planning (spec 001 §6: "needs a feature flag"; the types are ours)
  "routes/ij.plan": PLANNING,
  "routes/ij.plan_edit": PLANNING,
  // Its Excel round trip: the same readers export, the same editors send an edited export back.
  "routes/ij.plan_edit.excel": PLANNING,
  // A row's comments: the grid's readers.
  "routes/ij.plan_edit_.comentarios": PLANNING,
  // "Distribuir total" of a SKU in a channel: the grid's rule (its POST the grid's write rule).
  "routes/ij.plan_edit_.distribuir": PLANNING,

  // Reports (spec 001 §6: Relatorios for SYSTEM ADMIN, USER SILVER, USER GOLD). The report preview is the
  // planning results screen: report readers read it, saving needs the planning rule.
  "routes/ij.report": REPORTS,
  "routes/ij.report_preview": restricted(REPORT_READERS, "report", "ours", PLANNING_RULE),
  "routes/ij.report_create": restricted(REPORT_READERS, "report", "ours"),
  // Reports area (docs/decisions.md "Reports and financial statements"): the list, its online viewer
  // and inline file, and the product reviews share the report readers' rule. /ij/report_save is the FP&A
  // editable report: report readers read it, the finance planners (SYSTEM ADMIN, USER GOLD) save edits.
  "routes/ij.report._index": REPORTS,
  "routes/ij.report.$id.view": REPORTS,
  "routes/ij.report.$id.file": REPORTS,
  "routes/ij.report.reviews": REPORTS,
  "routes/ij.report_save": restricted(REPORT_READERS, "report", "ours", { types: ADMIN_AND_GOLD, flag: "report" }),
  // Fiscal asset page (roles not shown: the finance planners' tiers, like the cockpit).
  "routes/ij.fiscal": FINANCE,

  // Cost-centre forecast review (roles not shown: SYSTEM ADMIN and USER GOLD, the finance planners; docs/decisions.md)
  "routes/ij.report_create_schneider": FORECAST_REVIEW,
  "routes/ij.report_preview_schneider": FORECAST_REVIEW,
  "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat": FORECAST_REVIEW,
  "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history": FORECAST_REVIEW,
  // The review's Excel round trip: its readers export, its editors send an edited export back.
  "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel": FORECAST_REVIEW,
  // "Distribuir total" of a review: its editors (the review's write rule), for the preview too.
  "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir": FORECAST_REVIEW,
  "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.alteracoes": FORECAST_REVIEW,
  // A cell's comments: its readers comment (the write rule is the figures', not the discussion's).
  "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios": FORECAST_REVIEW_COMMENTS,
  // The status board per RF, and its export.
  "routes/ij.forecast_status": FORECAST_BOARD,
  "routes/ij.forecast_status.excel": FORECAST_BOARD,
  // Who prepares each cost centre: a screen and its template.
  "routes/ij.forecast_preparers": FORECAST_PREPARERS,
  "routes/ij.forecast_preparers.modelo": FORECAST_PREPARERS,
  "routes/ij.forecast_meus_centros": FORECAST_MINE,
  // The seasonality profiles (a base of "Distribuir total"): the reviewers and SYSTEM ADMIN keep them.
  "routes/ij.forecast_perfis_sazonalidade": FORECAST_PROFILES,
  // The consolidated forecast, its export (the readers, each in their scope) and the versions' list.
  "routes/ij.forecast_consolidado": FORECAST_CONSOLIDATED,
  "routes/ij.forecast_consolidado.excel": restricted(FORECAST_READERS, "report", "ours"),
  "routes/ij.forecast_versoes": FORECAST_VERSIONS,

  // Explorer (spec 001 §6)
  "routes/ij.explorer": restricted(EXPLORERS, "explorer", "spec"),
  // The document a hit opens: the explorer's readers.
  "routes/ij.explorer_.$id": restricted(EXPLORERS, "explorer", "spec"),

  // HR auxiliary data (roles not shown: readers ours, editors from HR_EDITOR_TYPES)
  "routes/ij.rh": HR,
  "routes/ij.rh_edit.$filial": HR,
  // Its Excel round trip: the grid's readers export; its editors (HR_EDITOR_TYPES) send an edited export back.
  "routes/ij.rh_edit.$filial.excel": HR,
  // A row's comments: the grid's readers, within their branch scope (checked by the route, as the grid does).
  "routes/ij.rh_edit_.$filial.comentarios": HR_COMMENTS,

  // Financial statement (spec 001 §6: USER GOLD with a flag)
  "routes/ij.demo_financial": FINANCIAL_STATEMENT,
  "routes/ij.preview_financial": FINANCIAL_STATEMENT,
  "routes/ij.preview_financial.$id.file": FINANCIAL_STATEMENT,

  // Cockpit (roles not shown)
  "routes/ij.cockpit": FINANCE,
  "routes/ij.cockpit_preview": FINANCE,
} as const satisfies Record<RouteId, RouteRule>;

export type { RouteId };

// ---------------------------------------------------------------------------------------------
// Upload targets: every file the worker applies writes through a screen's rule

/**
 * What a file loaded through /captura/manual (or the CLI's `import --user`) may change is what its uploader may change
 * on the screen the data belongs to: each upload target names that screen's route id and mode. The worker checks the
 * uploader's rights as they stand when it recognises the file (never at upload time only), /captura/manual lists only
 * the templates its visitor may load, and the template download refuses the others. Rows of HR auxiliary data are
 * also held to the uploader's branch scope, as on /ij/rh_edit/{filial} (`rows: "hrBranchScope"`); rows of the forecast
 * to the cost centres the uploader may write, as on the review (`rows: "forecastCostCentres"`).
 */
export type UploadTargetRule = {
  routeId: RouteId;
  mode: AccessMode;
  rows?: "hrBranchScope" | "forecastCostCentres";
};

export const UPLOAD_TARGET_ACCESS = {
  // Spec 000's master-data templates are what the uploader tiers exist for: the upload rule itself.
  product: { routeId: "routes/captura.manual", mode: "write" },
  channel: { routeId: "routes/captura.manual", mode: "write" },
  spend: { routeId: "routes/captura.manual", mode: "write" },
  planning_quantity: { routeId: "routes/ij.plan_edit", mode: "write" },
  forecast: {
    routeId: "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat",
    mode: "write",
    rows: "forecastCostCentres",
  },
  // The ledger feeds the statements and the cockpit: the finance planners' rule.
  ledger: { routeId: "routes/ij.cockpit", mode: "write" },
  hr_aux: { routeId: "routes/ij.rh_edit.$filial", mode: "write", rows: "hrBranchScope" },
  fpa_responsibles: { routeId: "routes/ij.report_save", mode: "write" },
  fiscal_items: { routeId: "routes/ij.fiscal", mode: "write" },
  // Report packages publish to /ij/report: the reports area's writers (those who save /ij/report_save).
  reports: { routeId: "routes/ij.report_save", mode: "write" },
  // Explorer documents: the explorer's readers (among those who may upload at all).
  explorer: { routeId: "routes/ij.explorer", mode: "read" },
} as const satisfies Record<string, UploadTargetRule>;

export type UploadTargetId = keyof typeof UPLOAD_TARGET_ACCESS;

export function isUploadTargetId(value: string): value is UploadTargetId {
  return Object.hasOwn(UPLOAD_TARGET_ACCESS, value);
}

export function routeRule(routeId: RouteId): RouteRule {
  return ROUTE_ACCESS[routeId];
}

export function isRouteId(value: string): value is RouteId {
  return Object.hasOwn(ROUTE_ACCESS, value);
}

function typesOf(set: TypeSet, context: AccessContext): readonly PermissionType[] {
  if (!("configured" in set)) return set;
  const configured =
    set.configured === "hrEditorTypes"
      ? context.hrEditorTypes
      : (context.forecastReviewerTypes ?? DEFAULT_FORECAST_REVIEWER_TYPES);
  return set.plus ? [...configured, ...set.plus] : configured;
}

function passes(rule: TypeRule, type: PermissionType, context: AccessContext): boolean {
  if (rule.flag && !context.features[rule.flag]) return false;
  return typesOf(rule.types, context).includes(type);
}

export type AccessMode = "read" | "write";

/**
 * Whether a user of `type` may run the route `routeId` (its loader: "read"; its saving actions: "write").
 * Public routes let everyone through; every other route needs a set type. An empty or unknown type opens
 * nothing but public routes.
 */
export function canAccessRoute(
  type: PermissionType | "" | null | undefined,
  routeId: RouteId,
  context: AccessContext,
  mode: AccessMode = "read",
): boolean {
  const rule = ROUTE_ACCESS[routeId] as RouteRule;
  if (rule.kind === "public") return true;
  if (!isPermissionType(type)) return false;
  // A session never opens a token route.
  if (rule.kind === "token") return false;
  if (rule.kind === "signedIn") return true;
  if (!passes(rule.read, type, context)) return false;
  return mode === "read" || !rule.write || passes(rule.write, type, context);
}

/**
 * Whether a user of `type` already sees users' e-mail addresses: whoever may open a screen that lists users by address
 * (user administration, permissions). Anyone else is shown people by name only (e.g. the people a comment may mention).
 */
export function maySeeUserAddresses(type: PermissionType | "" | null | undefined, context: AccessContext): boolean {
  return canAccessRoute(type, "routes/user.config", context) || canAccessRoute(type, "routes/user.permission", context);
}

/** Whether a user of `type` may load files of `target`: the upload rule, and the rule of the screen the data feeds. */
export function canUploadTo(
  type: PermissionType | "" | null | undefined,
  target: UploadTargetId,
  context: AccessContext,
): boolean {
  const rule: UploadTargetRule = UPLOAD_TARGET_ACCESS[target];
  return canAccessRoute(type, "routes/api.upload", context) && canAccessRoute(type, rule.routeId, context, rule.mode);
}
