/**
 * How long a token lives (pure: the form, the server and /api/docs read the same values). A personal token lives 1 to
 * 365 days; a SCIM token one of SCIM_TOKEN_LIVES, chosen by SYSTEM ADMIN: a directory's provisioning stops when its
 * token expires, so it may live longer, or until it is revoked ("never").
 */

export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;

export const SCIM_TOKEN_LIVES = ["90", "180", "365", "never"] as const;
export type ScimTokenLife = (typeof SCIM_TOKEN_LIVES)[number];
export const DEFAULT_SCIM_TOKEN_LIFE: ScimTokenLife = "90";

/** Days before expiry when a token's owner (and, for a SCIM token, every SYSTEM ADMIN) is warned, once each. */
export const EXPIRY_WARNING_DAYS = [14, 3] as const;
