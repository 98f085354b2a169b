const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF rule for state-changing requests: the Origin header (or, without it, the Referer's origin) must be the
 * portal's own origin. A non-GET request with neither is refused too. Safe methods always pass.
 */
export function isSameOriginRequest(input: { method: string; origin: string | null; referer: string | null; expected: string }): boolean {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return true;
  if (input.origin !== null && input.origin !== "") return input.origin === input.expected;
  if (!input.referer) return false;
  try {
    return new URL(input.referer).origin === input.expected;
  } catch {
    return false;
  }
}

/**
 * The one route another site may POST to: the SAML assertion consumer, where the IdP posts the signed response.
 * The signature, InResponseTo and the single-use assertion ID protect it instead.
 */
export function isCrossSitePostAllowed(pathname: string, ssoMode: string): boolean {
  return ssoMode === "saml" && pathname === "/saml";
}
