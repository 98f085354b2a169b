import { timingSafeEqual } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { confirmPasswordReset, requestPasswordReset, signInWithPassword } from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG } from "~/models/audit.server";
import {
  indexes as authRecordIndexes,
  consumeResetCode,
  hashResetCode,
  LOGIN_ATTEMPTS,
  storeResetCode,
} from "~/models/auth-records.server";
import { insertLocalUser } from "~/models/local-users.server";
import { insertPermissionRecord } from "~/models/user-permissions.server";
import { indexes as userIndexes } from "~/models/users.server";
import * as recovery from "~/routes/recovery.$code";
import { localProviderMessages } from "~/services/identity.server";
import { readLatestMail } from "~/services/mail.server";
import { hashPassword, verifyPassword } from "~/services/password-hash.server";

/**
 * The sign-in and recovery limits under bursts of parallel requests: every attempt is reserved before its
 * comparison, so a burst gets no more comparisons than the limit allows; and an attacker's failures do not lock the
 * real user out for good.
 */

// Count the real comparisons: the password hash verifications and the reset-code hash comparisons.
vi.mock("~/services/password-hash.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/services/password-hash.server")>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});
vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>();
  return { ...original, default: original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const PASSWORD = "Journey#2024";
const NEW_PASSWORD = "Reset#2024";
let passwordHash: string;

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db, [...userIndexes, ...authRecordIndexes]);
  passwordHash = await hashPassword(PASSWORD);
});

// Each test starts with no attempts on record (the global limits count every test's).
beforeEach(async () => {
  await (await testDb.db()).collection(LOGIN_ATTEMPTS).deleteMany({});
});

afterEach(() => {
  vi.useRealTimers();
  for (const key of ["LOGIN_MAX_FAILURES", "LOGIN_GLOBAL_MAX_FAILURES"]) delete process.env[key];
  resetConfigForTests();
});

let counter = 0;
async function makeAdmin() {
  const email = `admin${++counter}@example.com`;
  await insertLocalUser({ email, passwordHash, mustChangePassword: false, createdAt: new Date() });
  await insertPermissionRecord({
    user: email,
    name: `Admin ${counter}`,
    type: "SYSTEM ADMIN",
    stores: [],
    createdAt: new Date(),
  });
  return email;
}

async function codeOf(email: string): Promise<string> {
  const mail = await readLatestMail(email);
  return /código: (\S+)/.exec(mail!.text)![1];
}

const wrongCode = (i: number) => `W${String(i).padStart(25, "0")}`;
function kinds(outcomes: Array<{ kind: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
  return counts;
}

describe("sign-in under a burst", () => {
  it("50 parallel wrong passwords get at most LOGIN_MAX_FAILURES hash verifications; the right one after is refused", async () => {
    const email = await makeAdmin();
    vi.mocked(verifyPassword).mockClear();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signInWithPassword({ email, password: `Wrong#${i}`, ip: "198.51.100.7" })),
    );
    expect(vi.mocked(verifyPassword).mock.calls.length).toBeLessThanOrEqual(5);
    expect(kinds(outcomes).invalid ?? 0).toBeLessThanOrEqual(5);
    expect(outcomes.every((o) => o.kind === "invalid" || o.kind === "rateLimited")).toBe(true);
    // Whatever the burst left of the allowance, the burst and the tries after it together get at most 5 comparisons.
    for (let i = 0; i < 10; i++) await signInWithPassword({ email, password: `Later#${i}`, ip: "198.51.100.7" });
    expect(vi.mocked(verifyPassword).mock.calls.length).toBeLessThanOrEqual(5);
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "198.51.100.7" })).kind).toBe("rateLimited");
    expect(vi.mocked(verifyPassword).mock.calls.length).toBeLessThanOrEqual(5);
  });

  it("does not lock the real user, on his address, out because of failures from an attacker's address", async () => {
    const email = await makeAdmin();
    for (let i = 0; i < 6; i++) await signInWithPassword({ email, password: `Wrong#${i}`, ip: "203.0.113.66" });
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => signInWithPassword({ email, password: `Burst#${i}`, ip: "203.0.113.66" })),
    );
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "203.0.113.66" })).kind).toBe("rateLimited");
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "192.0.2.10" })).kind).toBe("signedIn");
  });

  it("slows one address down on one account by a growing delay, bounded by the window, not for good", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00Z"));
    const email = await makeAdmin();
    const ip = "192.0.2.20";
    for (let i = 0; i < 5; i++)
      expect((await signInWithPassword({ email, password: `Wrong#${i}`, ip })).kind).toBe("invalid");
    const first = await signInWithPassword({ email, password: PASSWORD, ip });
    expect(first).toMatchObject({ kind: "rateLimited" });
    const firstWait = first.kind === "rateLimited" ? first.retryAfterSeconds : 0;
    expect(firstWait).toBeGreaterThan(0);
    vi.setSystemTime(new Date(Date.now() + firstWait * 1000));
    // After the delay one more guess is let through; a wrong one makes the next delay longer.
    expect((await signInWithPassword({ email, password: "Wrong#x", ip })).kind).toBe("invalid");
    const second = await signInWithPassword({ email, password: PASSWORD, ip });
    expect(second.kind).toBe("rateLimited");
    expect(second.kind === "rateLimited" && second.retryAfterSeconds).toBeGreaterThan(firstWait);
    // Never longer than the window (15 minutes): the real user gets in after a bounded delay.
    vi.setSystemTime(new Date(Date.now() + 15 * 60_000 + 1000));
    expect((await signInWithPassword({ email, password: PASSWORD, ip })).kind).toBe("signedIn");
  });

  it("has a per-address limit across accounts", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    resetConfigForTests();
    const email = await makeAdmin();
    // Per address: 4 × LOGIN_MAX_FAILURES failures across any accounts.
    for (let i = 0; i < 8; i++)
      await signInWithPassword({ email: `spray${i}@example.com`, password: "Wrong#1", ip: "198.51.100.30" });
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "198.51.100.30" })).kind).toBe("rateLimited");
    // The same address written as IPv4-mapped IPv6 (a dual-stack socket's view) is the same address.
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "::ffff:198.51.100.30" })).kind).toBe(
      "rateLimited",
    );
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "198.51.100.31" })).kind).toBe("signedIn");
  });
});

/** The audit entries of `event` for `email`, oldest first. */
async function auditOf(email: string, event: string) {
  const db = await testDb.db();
  return db
    .collection<{ outcome: string; ip: string | null; details: Record<string, unknown> }>(AUDIT_LOG)
    .find({ event, "object.id": email })
    .sort({ n: 1 })
    .toArray();
}

describe("one attacker cannot lock everyone out", () => {
  it("a flood from one IPv6 /64 is limited as one address, and another address signs in", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    process.env.LOGIN_GLOBAL_MAX_FAILURES = "12";
    resetConfigForTests();
    const email = await makeAdmin();
    // 40 failures, each from its own address inside 2001:db8:7:1::/64, each on another account.
    const flood: string[] = [];
    for (let i = 0; i < 40; i++) {
      const ip = `2001:db8:7:1:${((i * 7919) % 0x10000).toString(16)}::${(i + 1).toString(16)}`;
      flood.push((await signInWithPassword({ email: `flood${i}@example.com`, password: "Wrong#1", ip })).kind);
    }
    // The /64 is one address: 4 × LOGIN_MAX_FAILURES failures, then refused; its other addresses too.
    expect(flood.filter((k) => k === "invalid").length).toBe(8);
    expect(flood.slice(8).every((k) => k === "rateLimited")).toBe(true);
    const sameNet = await signInWithPassword({ email, password: PASSWORD, ip: "2001:0db8:0007:0001:ffff:1:2:3" });
    expect(sameNet.kind).toBe("rateLimited");
    // Another /64 and an IPv4 address sign in with the right password.
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "2001:db8:7:2::1" })).kind).toBe("signedIn");
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "192.0.2.77" })).kind).toBe("signedIn");
  });

  it("past the global ceiling a correct sign-in from a clean address succeeds, slowed; an address that failed waits", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-02T10:00:00Z"));
    process.env.LOGIN_MAX_FAILURES = "2";
    process.env.LOGIN_GLOBAL_MAX_FAILURES = "12";
    resetConfigForTests();
    const email = await makeAdmin();
    // 14 failures from 14 addresses (a spread-out attack): the global figure is past its ceiling of 12.
    for (let i = 0; i < 14; i++)
      await signInWithPassword({ email: `spread${i}@example.com`, password: "Wrong#1", ip: `198.51.100.${100 + i}` });
    const clean = await signInWithPassword({ email, password: PASSWORD, ip: "192.0.2.88" });
    expect(clean.kind).toBe("signedIn");
    // The sign-in was slowed, and the audit trail says so.
    const [ok] = (await auditOf(email, "signIn")).filter((e) => e.outcome === "ok");
    expect(ok.details.globalDelayMs).toBeGreaterThan(0);
    // An address that failed within the window waits before its next attempt (a bounded wait, not a lock)…
    const waited = await signInWithPassword({ email, password: PASSWORD, ip: "198.51.100.100" });
    expect(waited).toMatchObject({ kind: "rateLimited" });
    const wait = waited.kind === "rateLimited" ? waited.retryAfterSeconds : 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    const refused = (await auditOf(email, "signIn")).filter((e) => e.outcome === "refused");
    expect(refused.map((e) => e.details.reason)).toEqual(["slowed"]);
    // …and then gets through.
    vi.setSystemTime(new Date(Date.now() + wait * 1000));
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "198.51.100.100" })).kind).toBe("signedIn");
  });
});

describe("reset codes under a burst", () => {
  it("carry at least 128 bits", async () => {
    const email = await makeAdmin();
    await requestPasswordReset({ email });
    const code = await codeOf(email);
    // Crockford base32: 5 bits a character.
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{26,}$/);
    expect((await readLatestMail(email))!.text).toContain(`http://localhost:3000/recovery/${code}`);
  });

  it("200 parallel wrong codes lead to at most 5 comparisons, and the right code is refused after them", async () => {
    const email = await makeAdmin();
    const secret = "a-secret-for-the-model-test";
    await storeResetCode(email, hashResetCode(email, "RIGHT", secret), new Date(), 60);
    vi.mocked(timingSafeEqual).mockClear();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        consumeResetCode(email, hashResetCode(email, wrongCode(i), secret), new Date()),
      ),
    );
    expect(vi.mocked(timingSafeEqual).mock.calls.length).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r === "mismatch").length).toBeLessThanOrEqual(5);
    expect(await consumeResetCode(email, hashResetCode(email, "RIGHT", secret), new Date())).toBe("expired");
  });

  it("a correct code within the allowance resets, and is used once", async () => {
    const email = await makeAdmin();
    const secret = "a-secret-for-the-model-test";
    await storeResetCode(email, hashResetCode(email, "RIGHT", secret), new Date(), 60);
    for (let i = 0; i < 4; i++)
      expect(await consumeResetCode(email, hashResetCode(email, wrongCode(i), secret), new Date())).toBe("mismatch");
    const both = await Promise.all(
      [1, 2].map(() => consumeResetCode(email, hashResetCode(email, "RIGHT", secret), new Date())),
    );
    expect(both.sort()).toEqual(["expired", "ok"]);
  });

  it("200 parallel POSTs to /recovery with wrong codes: no 500, at most 5 comparisons, the right code refused after", async () => {
    const email = await makeAdmin();
    await requestPasswordReset({ email });
    const code = await codeOf(email);
    vi.mocked(timingSafeEqual).mockClear();
    const post = (c: string, ip: string) =>
      recovery.action({
        request: new Request("http://localhost:3000/recovery/x", {
          method: "POST",
          headers: { Origin: "http://localhost:3000", "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email, code: c, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
        }),
        params: { code: "x" },
        context: { clientIp: ip },
      } as unknown as ActionFunctionArgs) as Promise<{
        data: { result?: { error?: Record<string, string[]> } };
        init: { status: number };
      }>;
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(wrongCode(i), `203.0.113.${i % 50}`)));
    expect(vi.mocked(timingSafeEqual).mock.calls.length).toBeLessThanOrEqual(5);
    expect(answers.every((a) => a.init.status === 400 || a.init.status === 429)).toBe(true);
    const notices = answers.map((a) => a.data.result?.error?.[""]?.[0]);
    for (const [i, a] of answers.entries())
      if (a.init.status === 429) expect(notices[i]).toBe(messages.tooManyRecoveryAttempts);
    expect(notices.filter((n) => n === localProviderMessages.codeMismatch).length).toBeLessThanOrEqual(5);
    const right = await post(code, "192.0.2.99");
    expect(right.data.result?.error?.[""]).toEqual([localProviderMessages.codeExpired]);
    expect((await signInWithPassword({ email, password: NEW_PASSWORD, ip: "192.0.2.99" })).kind).toBe("invalid");
  });

  it("/recovery has a per-address and a global limit, answered in Portuguese with 429", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    process.env.LOGIN_GLOBAL_MAX_FAILURES = "12";
    resetConfigForTests();
    const tries = (ip: string, n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          confirmPasswordReset({
            email: `nobody${i}@example.com`,
            code: wrongCode(i),
            password: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
            ip,
          }),
        ),
      );
    // Per address: 4 × LOGIN_MAX_FAILURES attempts; the rest are refused before the provider is asked.
    const burst = await tries("198.51.100.60", 20);
    expect(burst.filter((o) => o.kind !== "rateLimited").length).toBeLessThanOrEqual(8);
    const sequence: string[] = [];
    for (let i = 0; i < 10; i++) sequence.push((await tries("198.51.100.60", 1))[0].kind);
    expect(
      burst.filter((o) => o.kind !== "rateLimited").length + sequence.filter((k) => k !== "rateLimited").length,
    ).toBe(8);
    expect(sequence.at(-1)).toBe("rateLimited");
    for (let i = 0; i < 4; i++) expect((await tries("198.51.100.61", 1))[0].kind).toBe("error");
    // Past the global ceiling (12 attempts from anywhere) an address that has tried waits; a clean one is let through.
    expect((await tries("198.51.100.61", 1))[0]).toMatchObject({ kind: "rateLimited" });
    expect((await tries("198.51.100.62", 1))[0]).toMatchObject({ kind: "error" });
  });

  it("past the global ceiling a correct code from a clean address resets the password; the /64 of a flood waits", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    process.env.LOGIN_GLOBAL_MAX_FAILURES = "12";
    resetConfigForTests();
    const email = await makeAdmin();
    const attempt = (ip: string, code = wrongCode(7)) =>
      confirmPasswordReset({ email, code, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ip });
    // 14 wrong codes from 14 addresses of one /64: limited together (4 × LOGIN_MAX_FAILURES).
    const flood: string[] = [];
    for (let i = 0; i < 14; i++) flood.push((await attempt(`2001:db8:9:9::${(i + 1).toString(16)}`)).kind);
    expect(flood.filter((k) => k !== "rateLimited").length).toBe(8);
    // 6 more from other addresses: the global figure passes 12.
    for (let i = 0; i < 6; i++) expect((await attempt(`198.51.100.${170 + i}`)).kind).toBe("error");
    await requestPasswordReset({ email });
    const code = await codeOf(email);
    expect(await attempt("192.0.2.99", code)).toEqual({ kind: "ok" });
    expect((await signInWithPassword({ email, password: NEW_PASSWORD, ip: "192.0.2.99" })).kind).toBe("signedIn");
    const [reset] = (await auditOf(email, "passwordReset")).filter((e) => e.outcome === "ok");
    expect(reset.details.globalDelayMs).toBeGreaterThan(0);
  });
});
