import { getConfig } from "~/config.server";
import { countLoginFailures, deleteLoginFailures, emailKey, insertLoginFailure, ipKey } from "~/models/auth-records.server";

/**
 * Rate limit of failed sign-ins, per e-mail and per client IP, counted in MongoDB (`login_attempts`, TTL) so
 * the limit holds across containers. Per e-mail: LOGIN_MAX_FAILURES within LOGIN_WINDOW_MINUTES. Per IP the
 * allowance is IP_FACTOR times larger, because an office behind one NAT address shares it.
 */

export const IP_FACTOR = 4;

export type LoginCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export async function checkLoginAllowed({ email, ip }: { email: string; ip?: string | null }): Promise<LoginCheck> {
  const { maxFailures, windowMinutes } = getConfig().loginLimit;
  const now = Date.now();
  const since = new Date(now - windowMinutes * 60_000);
  const checks: Array<[string, number]> = [[emailKey(email), maxFailures]];
  if (ip) checks.push([ipKey(ip), maxFailures * IP_FACTOR]);
  let retryAfterMs = 0;
  for (const [key, limit] of checks) {
    const { count, oldest } = await countLoginFailures(key, since);
    if (count >= limit && oldest) retryAfterMs = Math.max(retryAfterMs, oldest.getTime() + windowMinutes * 60_000 - now);
  }
  return retryAfterMs > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) } : { allowed: true };
}

export async function recordLoginFailure({ email, ip }: { email: string; ip?: string | null }): Promise<void> {
  const keys = [emailKey(email)];
  if (ip) keys.push(ipKey(ip));
  await insertLoginFailure(keys, new Date(), getConfig().loginLimit.windowMinutes);
}

/** After a successful sign-in (or password reset) the e-mail's failures no longer count. */
export async function clearLoginFailures(email: string): Promise<void> {
  await deleteLoginFailures(emailKey(email));
}

/**
 * Password-reset requests per e-mail share the same allowance and window, so the forgot-password dialog cannot
 * be used to flood a mailbox. Answers false when the request must be dropped (silently: no enumeration).
 */
export async function allowResetRequest(email: string): Promise<boolean> {
  const { maxFailures, windowMinutes } = getConfig().loginLimit;
  const key = `reset:${emailKey(email)}`;
  const { count } = await countLoginFailures(key, new Date(Date.now() - windowMinutes * 60_000));
  if (count >= maxFailures) return false;
  await insertLoginFailure([key], new Date(), windowMinutes);
  return true;
}

/**
 * The client address for the per-IP limit. The host puts `clientIp` (Express `req.ip`, which honours
 * `trust proxy`) into the Remix load context; headers are not read here because they can be forged.
 */
export function getClientIp(context: unknown): string | null {
  if (context && typeof context === "object" && "clientIp" in context) {
    const ip = (context as { clientIp?: unknown }).clientIp;
    if (typeof ip === "string" && ip.length > 0 && ip.length <= 64) return ip;
  }
  return null;
}
