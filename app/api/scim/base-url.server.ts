import { getConfig } from "~/config.server";
import { SCIM_PREFIX } from "./protocol";

/**
 * The absolute SCIM base URL an identity provider is configured with: the portal's public origin as configured
 * (APP_ORIGIN; http://localhost:PORT without it), never a Host header, and /scim/v2.
 */
export function scimBaseUrl(): string {
  return `${getConfig().origin}${SCIM_PREFIX}`;
}
