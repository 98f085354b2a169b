import { canAccessRoute, isPermissionType, type PermissionType, type RouteId } from "~/access";
import { accessContext, getConfig } from "~/config.server";
import { getDashboard } from "~/models/dashboard-queries.server";
import { PANEL_TYPES } from "~/models/dashboards.server";
import { BUSINESS_UNITS, REPORT_ORIGINS } from "~/models/reports.fields";
import type { SubscriptionKind } from "~/models/subscriptions.fields";
import { findPermissionRecord } from "~/models/user-permissions.server";

/**
 * Who may subscribe to what, and receive it: whoever may open its page NOW — the route's rule and flag
 * (app/access.ts) for the subscriber's CURRENT permission type, read from the permission record at every call — and
 * only things that exist. Checked when subscribing and again at every send.
 */

/** The screen each kind of subscription opens: its rule is the subscription's rule. */
export const ROUTE_OF_KIND = {
  report_origin: "routes/ij.report._index",
  financial_statements: "routes/ij.demo_financial",
  dashboard: "routes/ij.painel.$id",
} as const satisfies Record<SubscriptionKind, RouteId>;

export type AccessCheck =
  | { ok: true; user: { email: string; name: string; type: PermissionType } }
  | { ok: false; reason: "rights" | "notFound" };

/** Whether `object` names something of `kind` (a known origin, unit or dashboard of the tenant). */
async function objectExists(kind: SubscriptionKind, object: string): Promise<boolean> {
  if (kind === "report_origin") return (REPORT_ORIGINS as readonly string[]).includes(object);
  if (kind === "financial_statements") return (BUSINESS_UNITS as readonly string[]).includes(object);
  if (!/^\d{1,9}$/.test(object)) return false;
  try {
    const record = await getDashboard(getConfig().tenantId, object);
    return Number(record.panelType) === PANEL_TYPES.intelligentJourney;
  } catch (error) {
    if (error instanceof Response) return false;
    throw error;
  }
}

/** May `email` open (kind, object) now? */
export async function checkAccess(email: string, kind: SubscriptionKind, object: string): Promise<AccessCheck> {
  const record = await findPermissionRecord(email);
  const type = record?.type;
  if (!record || !isPermissionType(type) || !canAccessRoute(type, ROUTE_OF_KIND[kind], accessContext(), "read"))
    return { ok: false, reason: "rights" };
  if (!(await objectExists(kind, object))) return { ok: false, reason: "notFound" };
  return { ok: true, user: { email: record.user, name: record.name ?? "", type } };
}
