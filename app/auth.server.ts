import { redirect } from "@remix-run/node";
import { canAccess, isPermissionType, type PermissionType } from "~/access";
import { getConfig } from "~/config.server";
import { isSameOriginRequest } from "~/domain/same-origin";
import { messages } from "~/messages";
import { deleteSession } from "~/models/sessions.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { clearSessionCookie, getSessionState } from "~/session.server";

/**
 * Guards for loaders and actions. They throw Responses (a redirect when signed out, 403 when not
 * allowed) so a loader reads top to bottom:
 *
 *   const user = await requireAccess(request); // the pathname of the request by default
 */

/** The login page shows the "Aviso / sessão expirou" modal when this query parameter is 1. */
export const SESSION_EXPIRED_PARAM = "expired";
export const SESSION_EXPIRED_REDIRECT = `/?${SESSION_EXPIRED_PARAM}=1`;

export type AuthenticatedUser = { email: string; name: string; type: PermissionType; sessionId: string };

async function endSessionAndRedirect(sessionId?: string): Promise<never> {
  if (sessionId) await deleteSession(sessionId);
  throw redirect(SESSION_EXPIRED_REDIRECT, { headers: { "Set-Cookie": await clearSessionCookie() } });
}

/** The signed-in user, with the permission type read from the permission record on every request. */
export async function requireUser(request: Request): Promise<AuthenticatedUser> {
  const state = await getSessionState(request);
  if (state.kind === "anonymous") throw redirect("/");
  if (state.kind === "expired") return endSessionAndRedirect();
  const record = await findPermissionRecord(state.session.email);
  // A deleted user or an emptied type ends the session at once.
  if (!record || !isPermissionType(record.type)) return endSessionAndRedirect(state.session._id);
  return { email: record.user, name: record.name ?? "", type: record.type, sessionId: state.session._id };
}

/** The signed-in user, or null (for public pages that adapt to a session, e.g. the root loader). */
export async function getOptionalUser(request: Request): Promise<AuthenticatedUser | null> {
  try {
    return await requireUser(request);
  } catch (error) {
    if (error instanceof Response) return null;
    throw error;
  }
}

export function forbidden(): Response {
  return new Response(messages.forbidden, { status: 403, statusText: "Forbidden", headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** requireUser + the access table: 403 when the type may not open `path` or its feature flag is off. */
export async function requireAccess(request: Request, path?: string): Promise<AuthenticatedUser> {
  const user = await requireUser(request);
  const pathname = path ?? new URL(request.url).pathname;
  if (!canAccess(user.type, pathname, getConfig().features)) throw forbidden();
  return user;
}

/**
 * CSRF defence for state-changing requests (the host applies the same rule to every request; actions call
 * this too so they stay safe when driven directly): Origin, or else the Referer's origin, must be the portal's.
 */
export function assertSameOrigin(request: Request): void {
  const ok = isSameOriginRequest({
    method: request.method,
    origin: request.headers.get("Origin"),
    referer: request.headers.get("Referer"),
    expected: getConfig().origin,
  });
  if (!ok) throw forbidden();
}
