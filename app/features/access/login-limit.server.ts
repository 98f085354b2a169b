import { setTimeout as sleep } from "node:timers/promises";
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
import { addressGroup } from "~/shared/address-group.server";

/**
 * Limits of the sign-in and of the reset by code, counted in MongoDB (`login_attempts`, TTL) so they hold across
 * containers. Every attempt is RESERVED before its comparison (scrypt, code hash): one record per key is inserted
 * first, then the keys are counted with it included, and a refused attempt takes its records back. Parallel requests
 * therefore see each other, and a burst gets no more comparisons than the limits allow. A failure keeps its records
 * for LOGIN_WINDOW_MINUTES; a success (or an attempt the provider could not answer) takes them back.
 *
 * A client address is counted by its group (`addressGroup`): IPv4 as it is, IPv6 by its /64, IPv4-mapped IPv6 as
 * IPv4. No limit that one attacker can fill refuses a user who signs in correctly from an address that has not failed.
 *
 * Sign-in (M = LOGIN_MAX_FAILURES, within the window W = LOGIN_WINDOW_MINUTES):
 * - account AND client address (soft lockout, OWASP ASVS 2.2.1): M failures freely, then each further attempt waits
 *   DELAY_BASE_SECONDS × 2^k after the pair's last failure (k = failures beyond M), never more than W. Failures from
 *   one address never slow the account down on another address.
 * - client address, across accounts: IP_FACTOR × M failures, then refused until the oldest leaves the window.
 * - account, across addresses: ACCOUNT_FACTOR × M failures; beyond them only the addresses that have not failed on
 *   the account within the window are let through, so a spread-out attack slows down while the real user, from his
 *   own address, still signs in.
 * - everyone: past LOGIN_GLOBAL_MAX_FAILURES failures the portal slows down instead of refusing: every attempt waits
 *   GLOBAL_DELAY_MS before its comparison, and an address that has failed within the window (on any account) waits
 *   DELAY_BASE_SECONDS × 2^k after its last failure (k = its failures beyond the first, never more than W). An
 *   address without failures is never refused by it.
 * Reset by code (/recovery/{code}): per client address IP_FACTOR × M attempts, and past LOGIN_GLOBAL_MAX_FAILURES
 * from everyone the same slowing down, within W; on top of the code's own cap of 5 attempts (auth-records.server.ts).
 */

export const IP_FACTOR = 4;
export const ACCOUNT_FACTOR = 4;
export const DELAY_BASE_SECONDS = 30;
/** What every attempt waits before its comparison while the global figure is past its ceiling. */
export const GLOBAL_DELAY_MS = 1000;

const GLOBAL_KEY = "global";
const RECOVERY_GLOBAL_KEY = "recovery:global";
const pairKey = (email: string, ip: string | null | undefined) =>
  `pair:${JSON.stringify([normalizeEmail(email), ip ? addressGroup(ip) : ""])}`;
const recoveryIpKey = (ip: string) => `recovery:${ipKey(ip)}`;

/** An attempt let through: its records, to be kept (failure) or taken back (success) once the comparison is done. */
export type Reservation = { ids: ObjectId[]; pair?: string };
/** Which limit held an attempt back (for the audit trail). */
export type LimitScope = "pair" | "account" | "address" | "global";
/**
 * A refused attempt was `slowed` (a bounded wait: the pair's progressive delay, or an address that failed while the
 * global figure is past its ceiling) or `locked` (a per-address or per-account ceiling). An attempt let through while
 * the global figure is past its ceiling was held `globalDelayMs` before its comparison.
 */
export type AttemptCheck =
  | { allowed: true; reservation: Reservation; globalDelayMs: number }
  | { allowed: false; retryAfterSeconds: number; limit: "slowed" | "locked"; scope: LimitScope };

/**
 * A key counted in the window: `pair` up to `limit` attempts, then one more after each growing delay; `account` and
 * `address` up to `limit`, then refused (`account`: unless this pair has not failed); `global` up to `limit`, then
 * slowed down.
 */
type Rule = { key: string; limit: number; scope: LimitScope };

/** The wait after the `beyond`-th failure past the free allowance: doubling from DELAY_BASE_SECONDS, at most W. */
export function progressiveDelayMs(beyond: number, windowMs: number): number {
  return Math.min(DELAY_BASE_SECONDS * 1000 * 2 ** Math.min(beyond, 30), windowMs);
}

type Seen = Awaited<ReturnType<typeof readLoginAttempts>>;

/** When the latest attempt under a key other than this one (`own`) was made; an attempt in flight counts (≈ now). */
const latestOther = (seen: Seen, own: ObjectId, now: number) =>
  seen.latest.find((d) => !d._id.equals(own))?.at.getTime() ?? now;

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
  // Failures (and attempts in flight) of this account from this address, and of this address, besides this one.
  const others = (scope: LimitScope) => {
    const i = rules.findIndex((r) => r.scope === scope);
    return i < 0 ? { count: 0, latest: now } : { count: seen[i].count - 1, latest: latestOther(seen[i], ids[i], now) };
  };
  const hasPair = rules.some((r) => r.scope === "pair");
  const pair = others("pair");
  const address = others("address");
  // The longest wait; its scope is a locking limit's when one was hit, else the longest slowing one's.
  const held = { waitMs: 0, locked: false, scope: "pair" as LimitScope };
  const hold = (waitMs: number, scope: LimitScope, locked = false) => {
    if (waitMs <= 0) return;
    if (locked ? !held.locked || waitMs > held.waitMs : !held.locked && waitMs > held.waitMs) held.scope = scope;
    held.locked ||= locked;
    held.waitMs = Math.max(held.waitMs, waitMs);
  };
  let overloaded = false;
  rules.forEach((rule, i) => {
    const { count, oldest } = seen[i];
    if (rule.scope === "pair") {
      // Not the free allowance: one more attempt once the delay after the latest other attempt has passed. An attempt
      // in flight in parallel is such a latest one (at ≈ now), so of a burst at most one passes.
      if (pair.count >= rule.limit)
        hold(pair.latest + progressiveDelayMs(pair.count - rule.limit, windowMs) - now, "pair");
      return;
    }
    if (count <= rule.limit) return;
    if (rule.scope === "global") {
      // Slowed, never locked: a clean address passes; one that has failed waits after its latest attempt.
      overloaded = true;
      if (address.count > 0) hold(address.latest + progressiveDelayMs(address.count - 1, windowMs) - now, "global");
      return;
    }
    // Past the account's ceiling an address that has not failed on the account is still let through.
    if (rule.scope === "account" && hasPair && pair.count === 0) return;
    hold(Math.max((oldest?.getTime() ?? now) + windowMs - now, 1000), rule.scope, true);
  });
  if (held.waitMs > 0) {
    await deleteLoginAttempts(ids);
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil(held.waitMs / 1000)),
      limit: held.locked ? "locked" : "slowed",
      scope: held.scope,
    };
  }
  // Past the global ceiling every comparison comes after a bounded wait: a guesser's pace, not the user's access.
  if (overloaded) await sleep(GLOBAL_DELAY_MS);
  return {
    allowed: true,
    reservation: { ids, pair: rules.find((r) => r.scope === "pair")?.key },
    globalDelayMs: overloaded ? GLOBAL_DELAY_MS : 0,
  };
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
    { key: pairKey(email, ip), limit: maxFailures, scope: "pair" },
    { key: emailKey(email), limit: maxFailures * ACCOUNT_FACTOR, scope: "account" },
    { key: GLOBAL_KEY, limit: globalMaxFailures, scope: "global" },
  ];
  if (ip) rules.push({ key: ipKey(ip), limit: maxFailures * IP_FACTOR, scope: "address" });
  return reserve(rules);
}

/** Reserves one reset-by-code attempt from `ip` (the code is checked only when this allows it). */
export function reserveRecoveryAttempt(ip?: string | null): Promise<AttemptCheck> {
  return reservePerAddress(RECOVERY_GLOBAL_KEY, recoveryIpKey, ip);
}

/** IP_FACTOR × LOGIN_MAX_FAILURES per client address, and slowed past LOGIN_GLOBAL_MAX_FAILURES from everyone. */
function reservePerAddress(globalKey: string, addressKey: (ip: string) => string, ip?: string | null) {
  const { maxFailures, globalMaxFailures } = getConfig().loginLimit;
  const rules: Rule[] = [{ key: globalKey, limit: globalMaxFailures, scope: "global" }];
  if (ip) rules.push({ key: addressKey(ip), limit: maxFailures * IP_FACTOR, scope: "address" });
  return reserve(rules);
}

const API_GLOBAL_KEY = "api:global";
const apiIpKey = (ip: string) => `api:${ipKey(ip)}`;

/**
 * Counts one failed API token check from `ip` (a token that names no token of its kind), made AFTER the lookup. A
 * token is 32 random bytes looked up by its SHA-256: nothing to guess, so no comparison needs holding back, and only
 * failures are counted. A valid token is never held back, neither by its own pace nor by the failures of others
 * behind the same address (a NAT). The failure is reserved like an attempt (inserted, then counted with it included,
 * so parallel failures see each other): the same allowance per client address as a reset by code, and the same
 * slowing down past LOGIN_GLOBAL_MAX_FAILURES from everyone. Allowed: the failure stays counted (the caller answers
 * 401); refused: it is taken back (429), so an address keeps at most its allowance of records, each gone with the
 * window (TTL).
 */
export function countApiTokenFailure(ip?: string | null): Promise<AttemptCheck> {
  return reservePerAddress(API_GLOBAL_KEY, apiIpKey, ip);
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
  const check = await reserve([{ key: `reset:${emailKey(email)}`, limit: maxFailures, scope: "account" }]);
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
