import { getConfig } from "~/config.server";
import { deleteLoginAttempts, insertLoginAttempts, ipKey, readLoginAttempts } from "~/models/auth-records.server";

/**
 * Rate limit of single sign-on starts (/saml/login) per client address (an IPv6 address by its /64). Each SAML start
 * stores an AuthnRequest ID for 30 minutes, so an unbounded stream of starts would fill `saml_requests`. Counted in
 * MongoDB beside the failed sign-ins (`login_attempts`, key `sso-start:ip:…`, TTL), so the limit holds across
 * containers: at most SSO_START_MAX_PER_IP starts within LOGIN_WINDOW_MINUTES. Like the sign-in limits, a start is
 * RESERVED first (its record inserted, then counted with it included) and a refused one takes its record back, so
 * parallel starts see each other and a burst gets no more than the limit. The allowance is per address, and generous,
 * because an office behind one NAT address signs in through it at the start of the day. Without a client address (no
 * host in front, as in tests) nothing is counted.
 */
export async function allowSsoStart(ip: string | null): Promise<boolean> {
  if (!ip) return true;
  const { loginLimit, sso } = getConfig();
  const key = `sso-start:${ipKey(ip)}`;
  const now = Date.now();
  const [id] = await insertLoginAttempts([key], new Date(now), loginLimit.windowMinutes);
  const since = new Date(now - loginLimit.windowMinutes * 60_000);
  const { count } = await readLoginAttempts(key, since, sso.startMaxPerIp + 1);
  if (count <= sso.startMaxPerIp) return true;
  await deleteLoginAttempts([id]);
  return false;
}
