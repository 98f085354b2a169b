import type { ObjectId } from "mongodb";
import { getConfig } from "~/config.server";
import {
  deleteLoginAttempts,
  deleteLoginFailures,
  emailKey,
  insertLoginAttempts,
  ipKey,
  readLoginAttempts,
} from "~/models/auth-records.server";
import { normalizeEmail } from "~/models/users.server";

/**
 * Limits of the sign-in and of the reset by code, counted in MongoDB (`login_attempts`, TTL) so they hold across
 * containers. Every attempt is RESERVED before its comparison (scrypt, code hash): one record per key is inserted
 * first, then the keys are counted with it included, and a refused attempt takes its records back. Parallel requests
 * therefore see each other, and a burst gets no more comparisons than the limits allow. A failure keeps its records
 * for LOGIN_WINDOW_MINUTES; a success (or an attempt the provider could not answer) takes them back.
 *
 * Sign-in (M = LOGIN_MAX_FAILURES, within the window W = LOGIN_WINDOW_MINUTES):
 * - account AND client address (soft lockout, OWASP ASVS 2.2.1): M failures freely, then each further attempt waits
 *   DELAY_BASE_SECONDS × 2^k after the pair's last failure (k = failures beyond M), never more than W. Failures from
 *   one address never slow the account down on another address.
 * - client address, across accounts: IP_FACTOR × M failures, then refused until the oldest leaves the window.
 * - account, across addresses: ACCOUNT_FACTOR × M failures; beyond them only the addresses that have not failed on
 *   the account within the window are let through, so a spread-out attack slows down while the real user, from his
 *   own address, still signs in.
 * - everyone: LOGIN_GLOBAL_MAX_FAILURES failures, then refused until the oldest leaves the window.
 * Reset by code (/recovery/{code}): per client address IP_FACTOR × M attempts and LOGIN_GLOBAL_MAX_FAILURES from
 * everyone, within W; on top of the code's own cap of 5 attempts (auth-records.server.ts).
 */

export const IP_FACTOR = 4;
export const ACCOUNT_FACTOR = 4;
export const DELAY_BASE_SECONDS = 30;

const GLOBAL_KEY = "global";
const RECOVERY_GLOBAL_KEY = "recovery:global";
const pairKey = (email: string, ip: string | null | undefined) =>
  `pair:${JSON.stringify([normalizeEmail(email), ip ? ip.trim().toLowerCase() : ""])}`;
const recoveryIpKey = (ip: string) => `recovery:${ipKey(ip)}`;

/** An attempt let through: its records, to be kept (failure) or taken back (success) once the comparison is done. */
export type Reservation = { ids: ObjectId[]; pair?: string };
/** A refused attempt was `slowed` (the progressive delay of an account from an address) or `locked` (a hard limit). */
export type AttemptCheck =
  | { allowed: true; reservation: Reservation }
  | { allowed: false; retryAfterSeconds: number; limit: "slowed" | "locked" };

/** A key counted up to `limit` attempts in the window (`progressive`: then one more after each growing delay). */
type Rule = { key: string; limit: number; progressive?: boolean; exceptCleanPair?: boolean };

/** The wait after the `beyond`-th failure past the free allowance: doubling from DELAY_BASE_SECONDS, at most W. */
export function progressiveDelayMs(beyond: number, windowMs: number): number {
  return Math.min(DELAY_BASE_SECONDS * 1000 * 2 ** Math.min(beyond, 30), windowMs);
}

async function reserve(rules: Rule[]): Promise<AttemptCheck> {
  const { windowMinutes } = getConfig().loginLimit;
  const windowMs = windowMinutes * 60_000;
  const now = Date.now();
  const since = new Date(now - windowMs);
  const ids = await insertLoginAttempts(
    rules.map((r) => r.key),
    new Date(now),
    windowMinutes,
  );
  const seen = await Promise.all(rules.map((rule) => readLoginAttempts(rule.key, since, rule.limit + 64)));
  // Failures (and attempts in flight) of this account from this address, besides this one.
  const pairIndex = rules.findIndex((r) => r.progressive);
  const pairOthers = pairIndex >= 0 ? seen[pairIndex].count - 1 : 0;
  let waitMs = 0;
  let locked = false;
  rules.forEach((rule, i) => {
    const { count, oldest, latest } = seen[i];
    const others = count - 1;
    if (rule.progressive) {
      if (others < rule.limit) return;
      // Not the free allowance: one more attempt once the delay after the latest other attempt has passed. An attempt
      // in flight in parallel is such a latest one (at ≈ now), so of a burst at most one passes.
      const last = latest.find((d) => !d._id.equals(ids[i]))?.at.getTime() ?? now;
      waitMs = Math.max(waitMs, last + progressiveDelayMs(others - rule.limit, windowMs) - now);
      return;
    }
    if (count <= rule.limit) return;
    if (rule.exceptCleanPair && pairOthers === 0) return;
    locked = true;
    waitMs = Math.max(waitMs, (oldest?.getTime() ?? now) + windowMs - now, 1000);
  });
  if (waitMs > 0) {
    await deleteLoginAttempts(ids);
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      limit: locked ? "locked" : "slowed",
    };
  }
  return { allowed: true, reservation: { ids, pair: pairIndex >= 0 ? rules[pairIndex].key : undefined } };
}

/** Reserves one sign-in attempt of `email` from `ip` (the password is checked only when this allows it). */
export async function reserveSignInAttempt({
  email,
  ip,
}: {
  email: string;
  ip?: string | null;
}): Promise<AttemptCheck> {
  const { maxFailures, globalMaxFailures } = getConfig().loginLimit;
  const rules: Rule[] = [
    { key: pairKey(email, ip), limit: maxFailures, progressive: true },
    { key: emailKey(email), limit: maxFailures * ACCOUNT_FACTOR, exceptCleanPair: true },
    { key: GLOBAL_KEY, limit: globalMaxFailures },
  ];
  if (ip) rules.push({ key: ipKey(ip), limit: maxFailures * IP_FACTOR });
  return reserve(rules);
}

/** Reserves one reset-by-code attempt from `ip` (the code is checked only when this allows it). */
export async function reserveRecoveryAttempt(ip?: string | null): Promise<AttemptCheck> {
  const { maxFailures, globalMaxFailures } = getConfig().loginLimit;
  const rules: Rule[] = [{ key: RECOVERY_GLOBAL_KEY, limit: globalMaxFailures }];
  if (ip) rules.push({ key: recoveryIpKey(ip), limit: maxFailures * IP_FACTOR });
  return reserve(rules);
}

/**
 * The outcome of a reserved attempt: "failure" keeps its records; "success" takes them back and clears the pair's
 * failures (the user proved himself from that address); "void" (the provider could not answer) takes them back.
 */
export async function settleAttempt(reservation: Reservation, outcome: "failure" | "success" | "void"): Promise<void> {
  if (outcome === "failure") return;
  await deleteLoginAttempts(reservation.ids);
  if (outcome === "success" && reservation.pair) await deleteLoginFailures(reservation.pair);
}

/** After a password reset: the failures of the account from the address that reset it no longer count. */
export async function clearLoginFailures(email: string, ip?: string | null): Promise<void> {
  await deleteLoginFailures(pairKey(email, ip));
}

/**
 * Password-reset requests per e-mail share the same allowance and window, so the forgot-password dialog cannot
 * be used to flood a mailbox. Answers false when the request must be dropped (silently: no enumeration). Reserved
 * like an attempt, so parallel requests cannot pass together.
 */
export async function allowResetRequest(email: string): Promise<boolean> {
  const { maxFailures } = getConfig().loginLimit;
  const check = await reserve([{ key: `reset:${emailKey(email)}`, limit: maxFailures }]);
  return check.allowed;
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
