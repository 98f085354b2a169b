import { type Cookie, createCookie, redirect } from "@remix-run/node";
import { getConfig } from "~/config.server";
import {
  deleteSession,
  findSessionView,
  insertSession,
  type ProviderTokens,
  type SessionRecord,
  type SessionView,
  touchSession,
} from "~/models/sessions.server";
import { actorByEmail, recordAudit } from "~/platform/audit/record.server";
import { getIdentityProvider } from "~/services/identity.server";
import { SESSION_COOKIE_NAME } from "~/shared/session-cookie-name";

/**
 * The cookie session. The `__session` cookie (signed, httpOnly, SameSite=Lax, Secure in production) holds
 * only the id of a session record in MongoDB; a new id is issued at every sign-in.
 */

export { SESSION_COOKIE_NAME };

/** The idle deadline is written at most once a minute, to save writes. */
const TOUCH_INTERVAL_MS = 60_000;

let cached: { secret: string; secure: boolean; cookie: Cookie } | undefined;

export function getSessionCookie(): Cookie {
  const config = getConfig();
  const secure = config.isProduction && config.origin.startsWith("https://");
  if (cached?.secret === config.session.secret && cached.secure === secure) return cached.cookie;
  // No Max-Age: a browser-session cookie. The server record decides expiry, and a cookie that outlives its
  // record is what lets the portal tell "expired" from "never signed in".
  const cookie = createCookie(SESSION_COOKIE_NAME, {
    secrets: [config.session.secret],
    httpOnly: true,
    secure,
    sameSite: "lax",
    path: "/",
  });
  cached = { secret: config.session.secret, secure, cookie };
  return cookie;
}

export type SessionState =
  | { kind: "anonymous" }
  /** A session cookie was sent, but its session is gone (logout, deleted user, timeout). */
  | { kind: "expired"; sessionId: string }
  /** `view`: what the page reads with it (the user's record, unread notices, the menus' dashboards). */
  | { kind: "active"; session: SessionRecord; view: SessionView };

async function readSessionId(request: Request): Promise<string | null> {
  const value: unknown = await getSessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 && value.length <= 128 ? value : null;
}

export async function getSessionState(request: Request): Promise<SessionState> {
  const id = await readSessionId(request);
  if (!id) return { kind: "anonymous" };
  const view = await findSessionView(id, getConfig().tenantId);
  if (!view) return { kind: "expired", sessionId: id };
  const { session } = view;
  const now = new Date();
  if (now >= session.idleExpiresAt || now >= session.absoluteExpiresAt) {
    // Only the request that ended it writes the entry (parallel requests may find it expired together).
    if (await deleteSession(id)) {
      await recordSessionEnded(session.email, now >= session.absoluteExpiresAt ? "absoluteTimeout" : "idleTimeout");
    }
    return { kind: "expired", sessionId: id };
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    const touched = await touchSession(session, getConfig().session.idleMinutes, now);
    return { kind: "active", session: touched, view: { ...view, session: touched } };
  }
  return { kind: "active", session, view };
}

/** The audit entry of a session the portal ended (timeout, or the user's record deleted or emptied). */
export async function recordSessionEnded(email: string, reason: string): Promise<void> {
  await recordAudit({
    actor: await actorByEmail(email),
    event: "sessionExpired",
    object: { kind: "session", id: email },
    outcome: "ok",
    details: { reason },
  });
}

/** Only same-site paths: never an absolute or protocol-relative address (no open redirect). */
export function safeRedirectPath(to: string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/**
 * Starts a session for `email` (replacing the session of `request`, if any) and returns the Set-Cookie
 * headers for the response.
 */
export async function startSession(
  email: string,
  providerTokens?: ProviderTokens,
  request?: Request,
  notOnOrAfter?: Date,
): Promise<{ sessionId: string; headers: Headers }> {
  if (request) {
    const previous = await readSessionId(request);
    if (previous) await deleteSession(previous);
  }
  const config = getConfig();
  // The refresh token is not kept: the portal never refreshes provider tokens, and a stored long-lived
  // credential would only add risk. The access token is enough for GlobalSignOut at logout.
  let stored: ProviderTokens | undefined;
  if (providerTokens) {
    const { refreshToken: _notKept, ...rest } = providerTokens;
    stored = rest;
  }
  const record = await insertSession(email, config.session, new Date(), stored, notOnOrAfter);
  const headers = new Headers();
  headers.append("Set-Cookie", await getSessionCookie().serialize(record._id));
  headers.append("Set-Cookie", signedOutMarker(false));
  return { sessionId: record._id, headers };
}

export async function createUserSession(
  request: Request,
  email: string,
  redirectTo: string,
  providerTokens?: ProviderTokens,
): Promise<Response> {
  const { headers } = await startSession(email, providerTokens, request);
  return redirect(safeRedirectPath(redirectTo), { headers });
}

/** A Set-Cookie value that removes the session cookie. */
export async function clearSessionCookie(): Promise<string> {
  return getSessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Deletes the session, signs out at the provider, and goes to / without the cookie. */
export async function logout(request: Request): Promise<Response> {
  const id = await readSessionId(request);
  if (id) {
    const session = await deleteSession(id);
    if (session?.providerTokens) await getIdentityProvider().signOut(session.providerTokens);
    if (session) {
      await recordAudit({
        actor: await actorByEmail(session.email),
        event: "signOut",
        object: { kind: "session", id: session.email },
        outcome: "ok",
      });
    }
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await clearSessionCookie());
  headers.append("Set-Cookie", signedOutMarker(true));
  return redirect("/", { headers });
}

/**
 * Whether this browser signed out on purpose (the marker `logout` sets and the next sign-in removes): a protected page
 * then sends it to the sign-in page, not to the session-expired notice (Back after Sair). Not signed: forging it only
 * changes which of the two sign-in screens is shown.
 */
const SIGNED_OUT_COOKIE_NAME = "jp_signed_out";

function signedOutMarker(set: boolean): string {
  const secure = getConfig().isProduction && getConfig().origin.startsWith("https://") ? "; Secure" : "";
  return `${SIGNED_OUT_COOKIE_NAME}=${set ? "1" : ""}; Path=/; HttpOnly; SameSite=Lax${secure}${set ? "" : "; Max-Age=0"}`;
}

export function signedOutDeliberately(request: Request): boolean {
  const cookies = request.headers.get("Cookie") ?? "";
  return cookies.split(";").some((part) => part.trim() === `${SIGNED_OUT_COOKIE_NAME}=1`);
}
