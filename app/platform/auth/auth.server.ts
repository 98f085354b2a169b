import { redirect } from "@remix-run/node";
import {
  type AccessMode,
  canAccessRoute,
  isPermissionType,
  type PermissionType,
  type RouteId,
  routeRule,
} from "~/access";
import { accessContext, getConfig } from "~/config.server";
import { deleteSession } from "~/models/sessions.server";
import type { DashboardSummary } from "~/navigation";
import { recordAccessRefused } from "~/platform/audit/record.server";
import { memoInRequest } from "~/shared/request-scope.server";
import { isSameOriginRequest } from "~/shared/same-origin";
import { uiTexts } from "~/shared/ui/texts";
import { pageAddressOf, signInPath } from "./return-to.server";
import { clearSessionCookie, getSessionState, recordSessionEnded, signedOutDeliberately } from "./session.server";

/**
 * Guards for loaders and actions. They throw Responses (a redirect when signed out, 403 when not
 * allowed) so a loader reads top to bottom:
 *
 *   const user = await requireRouteAccess("routes/user.config", request);
 *
 * The route id is the module's own (app/access.ts, docs/access.md): the rule is the one of the route that
 * matched, whatever spelling of the URL led there.
 */

/** The login page shows the "Aviso / sessão expirou" modal when this query parameter is 1. */
export const SESSION_EXPIRED_PARAM = "expired";
export const SESSION_EXPIRED_REDIRECT = `/?${SESSION_EXPIRED_PARAM}=1`;

export type AuthenticatedUser = { email: string; name: string; type: PermissionType; sessionId: string };

/** What the layout shows of a signed-in user, read with the session (findSessionView). */
export type SignedInPage = { user: AuthenticatedUser; unreadNotices: number; dashboards: DashboardSummary[] };

type UserState = ({ kind: "user" } & SignedInPage) | { kind: "anonymous" } | { kind: "expired"; sessionId?: string };

/** Read once per page request: the root loader and the guards of the layout and the route share it. */
function readUserState(request: Request): Promise<UserState> {
  return memoInRequest(`user-state:${request.headers.get("Cookie") ?? ""}`, () => readUserStateNow(request));
}

async function readUserStateNow(request: Request): Promise<UserState> {
  const state = await getSessionState(request);
  if (state.kind === "anonymous") return { kind: "anonymous" };
  if (state.kind === "expired") return { kind: "expired" };
  const { permission: record, unreadNotices, dashboards } = state.view;
  // A deleted user or an emptied type ends the session at once.
  if (!record || !isPermissionType(record.type)) return { kind: "expired", sessionId: state.session._id };
  return {
    kind: "user",
    user: { email: record.user, name: record.name ?? "", type: record.type, sessionId: state.session._id },
    unreadNotices,
    dashboards,
  };
}

/** To sign-in at `location`, ending the session (record and cookie) when there was one. */
async function toSignIn(state: Exclude<UserState, { kind: "user" }>, location: string): Promise<never> {
  if (state.kind === "anonymous") throw redirect(location);
  if (state.sessionId) {
    const ended = await deleteSession(state.sessionId);
    if (ended) await recordSessionEnded(ended.email, "userRemoved");
  }
  throw redirect(location, { headers: { "Set-Cookie": await clearSessionCookie() } });
}

/** The signed-in user, with the permission type read from the permission record on every request. */
export async function requireUser(request: Request): Promise<AuthenticatedUser> {
  const state = await readUserState(request);
  if (state.kind === "user") return state.user;
  return toSignIn(state, state.kind === "expired" ? SESSION_EXPIRED_REDIRECT : "/");
}

/** The signed-in user, or null (for public pages that adapt to a session). */
export async function getOptionalUser(request: Request): Promise<AuthenticatedUser | null> {
  return (await getOptionalSignedInPage(request))?.user ?? null;
}

/**
 * The signed-in user with their unread notices and the menus' dashboards (the root loader), or null: read with the
 * session in the same command as the route's guard, so a page's layout costs no read of its own.
 */
export async function getOptionalSignedInPage(request: Request): Promise<SignedInPage | null> {
  const state = await readUserState(request);
  if (state.kind === "user")
    return { user: state.user, unreadNotices: state.unreadNotices, dashboards: state.dashboards };
  try {
    return await toSignIn(state, "/");
  } catch (error) {
    if (error instanceof Response) return null;
    throw error;
  }
}

export function forbidden(): Response {
  return new Response(uiTexts.forbidden, {
    status: 403,
    statusText: "Forbidden",
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * The guard of a route module, by its own route id: a state-changing request from another origin gets 403
 * (CSRF); no session — never signed in, or expired — goes to sign-in with the session-expired modal (spec 000
 * §2: it shows whenever a protected page has no session) and the page asked for in `redirectTo`, where the
 * login returns when the user's type may open it (return-to.server.ts); a type the route's
 * rule does not admit (or its flag off) gets 403. `write` also asks for the rule's saving permission (a screen
 * some may read but not change).
 */
export async function requireRouteAccess(
  routeId: RouteId,
  request: Request,
  mode: AccessMode = "read",
): Promise<AuthenticatedUser> {
  if (routeRule(routeId).kind === "public") throw new Error(`${routeId} is public; it has no guard to call`);
  try {
    assertSameOrigin(request);
  } catch (refusal) {
    // No actor: a request another site made the browser send is not the user's, and its session is not read.
    await recordAccessRefused(null, screenOf(routeId, request), "crossOrigin", {
      origin: request.headers.get("Origin") ?? request.headers.get("Referer") ?? null,
    });
    throw refusal;
  }
  const state = await readUserState(request);
  if (state.kind !== "user") {
    // After Sair, Back to a protected page shows the sign-in page, not the session-expired notice.
    const expired = state.kind === "anonymous" && signedOutDeliberately(request) ? null : SESSION_EXPIRED_PARAM;
    return toSignIn(state, signInPath(expired, pageAddressOf(request)));
  }
  const { user } = state;
  if (!canAccessRoute(user.type, routeId, accessContext(), mode)) {
    // Every refusal of the guard is in the audit trail before the 403 is answered.
    await recordAccessRefused(user, screenOf(routeId, request), "notAllowed");
    throw forbidden();
  }
  return user;
}

/** The screen a refusal names: the route module and the path asked for (without its query, which may hold anything). */
function screenOf(routeId: RouteId, request: Request): { routeId: string; path: string } {
  return { routeId, path: new URL(request.url).pathname.slice(0, 200) };
}

/** Whether `user` may use the saving actions of `routeId` (to show a screen read-only). */
export function canWriteRoute(user: AuthenticatedUser, routeId: RouteId): boolean {
  return canAccessRoute(user.type, routeId, accessContext(), "write");
}

/**
 * CSRF defence for state-changing requests (the host applies the same rule to every request; guards and public
 * actions call this too so they stay safe when driven directly): Origin, or else the Referer's origin, must be one
 * of the portal's origins or the one the request was addressed to.
 */
export function assertSameOrigin(request: Request): void {
  const ok = isSameOriginRequest({
    method: request.method,
    origin: request.headers.get("Origin"),
    referer: request.headers.get("Referer"),
    allowed: [...getConfig().allowedOrigins, new URL(request.url).origin],
  });
  if (!ok) throw forbidden();
}
