import { getConfig } from "~/config.server";
import { countLoginFailures, insertLoginFailure, ipKey } from "~/models/auth-records.server";

/**
 * Rate limit of single sign-on starts (/saml/login) per client IP. Each SAML start stores an AuthnRequest ID for
 * 30 minutes, so an unbounded stream of starts would fill `saml_requests`. Counted in MongoDB beside the failed
 * sign-ins (`login_attempts`, key `sso-start:ip:…`, TTL), so the limit holds across containers: at most
 * SSO_START_MAX_PER_IP starts within LOGIN_WINDOW_MINUTES. The allowance is per address, and generous, because an
 * office behind one NAT address signs in through it at the start of the day. Without a client address (no host in
 * front, as in tests) nothing is counted.
 */
export async function allowSsoStart(ip: string | null): Promise<boolean> {
  if (!ip) return true;
  const { loginLimit, sso } = getConfig();
  const key = `sso-start:${ipKey(ip)}`;
  const { count } = await countLoginFailures(key, new Date(Date.now() - loginLimit.windowMinutes * 60_000));
  if (count >= sso.startMaxPerIp) return false;
  await insertLoginFailure([key], new Date(), loginLimit.windowMinutes);
  return true;
}
