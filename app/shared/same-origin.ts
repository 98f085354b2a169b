const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF rule for state-changing requests: the Origin header (or, without it, the Referer's origin) must be one of
 * the portal's own origins — the configured ones (APP_ORIGIN, its local aliases, APP_ALLOWED_ORIGINS) or the
 * origin the request itself was addressed to (its Host, or the forwarded host when the proxy is trusted), which a
 * browser on another site cannot choose. A non-GET request with neither header is refused. Safe methods pass.
 */
export function isSameOriginRequest(input: {
  method: string;
  origin: string | null;
  referer: string | null;
  allowed: readonly string[];
}): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return true;
  const allowed = new Set(input.allowed.map(originOf).filter((o): o is string => o !== null));
  if (input.origin !== null && input.origin !== "") return allowed.has(input.origin.toLowerCase());
  if (!input.referer) return false;
  const refererOrigin = originOf(input.referer);
  return refererOrigin !== null && allowed.has(refererOrigin);
}

/** The serialised origin of a URL (lower-case scheme and host, default port dropped), or null. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The routes another site may POST to: the SAML assertion consumer, where the IdP posts the signed response (the
 * signature, InResponseTo and the single-use assertion ID protect it instead), and the token API (below). (The host uses this before any
 * route has matched; the /saml route's own action does not ask for the same origin either.)
 */
export function isCrossSitePostAllowed(pathname: string, ssoMode: string): boolean {
  return isSamlConsumer(pathname, ssoMode) || isTokenApiPath(pathname);
}

/** The SAML assertion consumer, where the IdP posts (`pathname`: the path Remix routes). */
export function isSamlConsumer(pathname: string, ssoMode: string): boolean {
  return ssoMode === "saml" && /^\/saml\/?$/i.test(pathname);
}

/**
 * The API and SCIM answer only to a bearer token and never reads a cookie (app/api), so a request another site makes a browser
 * send carries nothing that opens it: it needs no origin check, and a client that sends no Origin is not refused.
 */
export function isTokenApiPath(pathname: string): boolean {
  return tokenApiOf(pathname) !== null;
}

/** Which token-read surface a path (as Remix routes it) belongs to: the REST API, SCIM, or neither. */
export function tokenApiOf(pathname: string): "api" | "scim" | null {
  const match = /^\/(api\/v1|scim\/v2)(\/|$)/i.exec(pathname);
  return match ? (match[1].toLowerCase() === "api/v1" ? "api" : "scim") : null;
}
