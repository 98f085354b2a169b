import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { thrownResponse as thrown } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { userMaker } from "#test/users";
import { accessContext, resetConfigForTests } from "~/config.server";
import {
  completeFirstAccess,
  confirmPasswordReset,
  createUser,
  deleteUser,
  listConfiguredUsers,
  listUsersForPermissionGrid,
  requestPasswordReset,
  setUserTier,
  signInVerifiedUser,
  signInWithPassword,
  UserExistsError,
} from "~/features/access/accounts.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { indexes as authRecordIndexes, MAIL_OUTBOX } from "~/models/auth-records.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { countSessionsOfUser, findSession, SESSIONS, indexes as sessionIndexes } from "~/models/sessions.server";
import { USER_PERMISSIONS, indexes as userIndexes } from "~/models/users.server";
import { buildNavigation } from "~/navigation";
import {
  assertSameOrigin,
  getOptionalUser,
  requireRouteAccess,
  requireUser,
  SESSION_EXPIRED_REDIRECT,
} from "~/platform/auth/auth.server";
import { getSessionState, logout, startSession } from "~/platform/auth/session.server";
import { localProviderMessages } from "~/services/identity.server";
import { readLatestMail } from "~/services/mail.server";
import { hashPassword } from "~/services/password-hash.server";
import { runInRequestScope } from "~/shared/request-scope.server";

process.env.LOG_LEVEL = "warn";
const testDb = useTestDatabase();

const PASSWORD = "Journey#2024";
let passwordHash: string;

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db, [...userIndexes, ...sessionIndexes, ...authRecordIndexes]);
  passwordHash = await hashPassword(PASSWORD);
  await db.collection(DASHBOARDS).insertMany([
    { dashboardId: "d-10", panelLabel: "Vendas", panelType: 1, painelId: 10, cliente: "journey" },
    { dashboardId: "d-3", panelLabel: "Estoque", panelType: 1, painelId: 3, cliente: "journey" },
    { dashboardId: "d-1", panelLabel: "Jobs", panelType: 2, painelId: 1, cliente: "journey" },
    { dashboardId: "x-1", panelLabel: "Other tenant", panelType: 1, painelId: 0, cliente: "other" },
  ]);
});

afterEach(() => {
  vi.useRealTimers();
  for (const key of ["FEATURE_PLANNING", "LOGIN_MAX_FAILURES"]) delete process.env[key];
  resetConfigForTests();
});

const makeUser = userMaker({ prefix: "user", name: "User", passwordHash: () => passwordHash });

function cookieFrom(headers: Headers): string {
  const setCookie = headers.get("Set-Cookie") ?? "";
  return setCookie.split(";")[0];
}

function requestWith(cookie: string | null, path = "/ij/painel/3", init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`http://localhost:3000${path}`, { ...init, headers });
}

async function signIn(email: string, password = PASSWORD, ip = "10.0.0.1") {
  const outcome = await signInWithPassword({ email, password, ip });
  if (outcome.kind !== "signedIn") throw new Error(`expected signedIn, got ${outcome.kind}`);
  return { ...outcome, cookie: cookieFrom(outcome.sessionCookieHeaders) };
}

describe("signInWithPassword", () => {
  it("signs SYSTEM ADMIN and USER GOLD in to the tenant's first dashboard", async () => {
    const admin = await signIn(await makeUser("SYSTEM ADMIN"));
    expect(admin.redirectTo).toBe("/ij/painel/3");
    const gold = await signIn(await makeUser("USER GOLD"));
    expect(gold.redirectTo).toBe("/ij/painel/3");
  });

  it("sends the other types to their landing", async () => {
    expect((await signIn(await makeUser("USER ADMIN"))).redirectTo).toBe("/user/config/");
    expect((await signIn(await makeUser("USER EXPLORER"))).redirectTo).toBe("/ij/explorer");
    expect((await signIn(await makeUser("USER BRONZE"))).redirectTo).toBe("/captura/manual");
    expect((await signIn(await makeUser("USER SILVER"))).redirectTo).toBe("/captura/manual");
    expect((await signIn(await makeUser("USER PERMISS"))).redirectTo).toBe("/user/permission");
  });

  it("sets a signed, httpOnly, SameSite=Lax session cookie holding a new id at every sign-in", async () => {
    const email = await makeUser("USER GOLD");
    const first = await signIn(email);
    const setCookie = first.sessionCookieHeaders.get("Set-Cookie")!;
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const second = await signIn(email);
    expect(second.cookie).not.toBe(first.cookie);
    const state = await getSessionState(requestWith(second.cookie));
    expect(state.kind).toBe("active");
    if (state.kind === "active") {
      expect(state.session._id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(state.session.email).toBe(email);
    }
  });

  it("replaces the session of the request that signs in", async () => {
    const email = await makeUser("USER GOLD");
    const first = await signIn(email);
    const outcome = await signInWithPassword({ email, password: PASSWORD, request: requestWith(first.cookie) });
    expect(outcome.kind).toBe("signedIn");
    expect((await getSessionState(requestWith(first.cookie))).kind).toBe("expired");
  });

  it("answers invalid for a wrong password or an unknown e-mail", async () => {
    const email = await makeUser("USER GOLD");
    expect(await signInWithPassword({ email, password: "Wrong#2024", ip: "10.0.0.2" })).toEqual({ kind: "invalid" });
    expect(await signInWithPassword({ email: "nobody@example.com", password: PASSWORD, ip: "10.0.0.2" })).toEqual({
      kind: "invalid",
    });
    expect(await signInWithPassword({ email: "", password: "", ip: "10.0.0.2" })).toEqual({ kind: "invalid" });
  });

  it("answers noType, without a session, for an empty type or a missing record", async () => {
    const empty = await makeUser("");
    expect(await signInWithPassword({ email: empty, password: PASSWORD })).toEqual({ kind: "noType" });
    const noRecord = await makeUser("", { withRecord: false });
    expect(await signInWithPassword({ email: noRecord, password: PASSWORD })).toEqual({ kind: "noType" });
    expect(await countSessionsOfUser(empty)).toBe(0);
  });
});

describe("signInVerifiedUser (SSO) and the navigation", () => {
  it("starts a session for a proven identity, or answers noType", async () => {
    const gold = await makeUser("USER GOLD", {});
    const outcome = await signInVerifiedUser(gold.toUpperCase());
    expect(outcome.kind).toBe("signedIn");
    if (outcome.kind === "signedIn") {
      expect(outcome.redirectTo).toBe("/ij/painel/3");
      expect((await getSessionState(requestWith(cookieFrom(outcome.sessionCookieHeaders)))).kind).toBe("active");
    }
    expect(await signInVerifiedUser("unknown@example.com")).toEqual({ kind: "noType" });
  });

  it("builds the navigation from the tenant's dashboards only, read with the session", async () => {
    const outcome = await signInVerifiedUser(await makeUser("USER GOLD", {}));
    if (outcome.kind !== "signedIn") throw new Error(outcome.kind);
    const state = await getSessionState(requestWith(cookieFrom(outcome.sessionCookieHeaders)));
    if (state.kind !== "active") throw new Error(state.kind);
    const nav = buildNavigation("USER GOLD", state.view.dashboards, accessContext());
    expect(nav.sideNav[0].items.slice(0, 2)).toEqual([
      { label: "Estoque", to: "/ij/painel/3" },
      { label: "Vendas", to: "/ij/painel/10" },
    ]);
    expect(nav.sideNav.find((g) => g.id === "executedJobs")?.items[0]).toEqual({
      label: "Jobs",
      to: "/jobs/dashboard/1",
    });
    expect(JSON.stringify(nav)).not.toContain("Other tenant");
  });
});

describe("rate limit of failed sign-ins", () => {
  it("slows an e-mail down on one address after LOGIN_MAX_FAILURES failures, even with the right password, not on another", async () => {
    process.env.LOGIN_MAX_FAILURES = "3";
    resetConfigForTests();
    const email = await makeUser("USER GOLD");
    for (let i = 0; i < 3; i++) {
      expect((await signInWithPassword({ email, password: "Wrong#1", ip: "10.1.0.1" })).kind).toBe("invalid");
    }
    const blocked = await signInWithPassword({ email, password: PASSWORD, ip: "10.1.0.1" });
    expect(blocked.kind).toBe("rateLimited");
    if (blocked.kind === "rateLimited") expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    // Failures from one address do not lock the account out on another (docs/access.md, the sign-in limits).
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "10.1.1.1" })).kind).toBe("signedIn");
  });

  it("lets the e-mail in again once the window has passed", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    resetConfigForTests();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00Z"));
    const email = await makeUser("USER GOLD");
    await signInWithPassword({ email, password: "Wrong#1", ip: "10.2.0.1" });
    await signInWithPassword({ email, password: "Wrong#1", ip: "10.2.0.1" });
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "10.2.0.1" })).kind).toBe("rateLimited");
    vi.setSystemTime(new Date("2026-03-01T10:16:00Z"));
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "10.2.0.1" })).kind).toBe("signedIn");
  });

  it("blocks an IP that fails across many e-mails", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    resetConfigForTests();
    for (let i = 0; i < 8; i++) {
      await signInWithPassword({ email: `spray${i}@example.com`, password: "Wrong#1", ip: "10.3.0.1" });
    }
    const email = await makeUser("USER GOLD");
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "10.3.0.1" })).kind).toBe("rateLimited");
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "10.3.0.2" })).kind).toBe("signedIn");
  });

  it("clears the e-mail's failures after a successful sign-in", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    resetConfigForTests();
    const email = await makeUser("USER GOLD");
    await signInWithPassword({ email, password: "Wrong#1", ip: "10.4.0.1" });
    await signIn(email, PASSWORD, "10.4.0.2");
    await signInWithPassword({ email, password: "Wrong#1", ip: "10.4.0.3" });
    expect((await signInWithPassword({ email, password: PASSWORD, ip: "10.4.0.4" })).kind).toBe("signedIn");
  });
});

describe("user creation and first access", () => {
  it("creates a BRONZE user whose temporary password (by e-mail) leads to the new-password flow", async () => {
    const email = "First.Access@Example.com";
    expect(await createUser(email, "admin@example.com")).toEqual({
      kind: "created",
      email: "first.access@example.com",
    });
    const mail = await readLatestMail("first.access@example.com");
    expect(mail?.subject).toContain("seu acesso");
    const temporary = /Senha temporária: (\S+)/.exec(mail!.text)![1];

    const first = await signInWithPassword({ email, password: temporary });
    expect(first.kind).toBe("newPasswordRequired");
    if (first.kind !== "newPasswordRequired") throw new Error("unreachable");

    const mismatch = await completeFirstAccess({
      email,
      challenge: first.challenge,
      password: "Better#2024",
      confirmPassword: "Better#2025",
    });
    expect(mismatch).toEqual({
      kind: "invalidInput",
      errors: { confirmPassword: ["Por favor verifique se as senhas correspondem."] },
    });
    const weak = await completeFirstAccess({
      email,
      challenge: first.challenge,
      password: "weak",
      confirmPassword: "weak",
    });
    expect(weak.kind).toBe("invalidInput");

    const forged = `${first.challenge.split(".")[0]}.AAAA`;
    expect(
      await completeFirstAccess({ email, challenge: forged, password: "Better#2024", confirmPassword: "Better#2024" }),
    ).toEqual({
      kind: "challengeExpired",
    });
    expect(
      await completeFirstAccess({
        email: "user1@example.com",
        challenge: first.challenge,
        password: "Better#2024",
        confirmPassword: "Better#2024",
      }),
    ).toEqual({ kind: "challengeExpired" });

    // A session the account somehow still holds (e.g. opened before an admin forced a new password) ends with the change.
    const { headers } = await startSession("first.access@example.com");
    expect(await countSessionsOfUser("first.access@example.com")).toBe(1);
    expect(
      await completeFirstAccess({
        email,
        challenge: first.challenge,
        password: "Better#2024",
        confirmPassword: "Better#2024",
      }),
    ).toEqual({
      kind: "ok",
    });
    expect(await countSessionsOfUser("first.access@example.com")).toBe(0);
    expect((await thrown(requireUser(requestWith(cookieFrom(headers))))).headers.get("Location")).toBe(
      SESSION_EXPIRED_REDIRECT,
    );
    // Single use: the challenge is bound to the temporary password.
    expect(
      await completeFirstAccess({
        email,
        challenge: first.challenge,
        password: "Other#20245",
        confirmPassword: "Other#20245",
      }),
    ).toEqual({
      kind: "challengeExpired",
    });
    expect((await signInWithPassword({ email, password: temporary })).kind).toBe("invalid");
    const after = await signIn(email, "Better#2024");
    expect(after.redirectTo).toBe("/captura/manual");
  });

  it("expires the first-access challenge after 5 minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-02T10:00:00Z"));
    const email = "late@example.com";
    await createUser(email, "admin@example.com");
    const temporary = /Senha temporária: (\S+)/.exec((await readLatestMail(email))!.text)![1];
    const first = await signInWithPassword({ email, password: temporary });
    if (first.kind !== "newPasswordRequired") throw new Error("expected the challenge");
    vi.setSystemTime(new Date("2026-03-02T10:05:01Z"));
    expect(
      await completeFirstAccess({
        email,
        challenge: first.challenge,
        password: "Better#2024",
        confirmPassword: "Better#2024",
      }),
    ).toEqual({
      kind: "challengeExpired",
    });
  });

  it("refuses a duplicate, and of two parallel creates exactly one succeeds", async () => {
    await createUser("dup@example.com", "admin@example.com");
    await expect(createUser("DUP@example.com", "admin@example.com")).rejects.toBeInstanceOf(UserExistsError);

    const results = await Promise.allSettled([
      createUser("race@example.com", "a@example.com"),
      createUser("race@example.com", "b@example.com"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect(rejected[0].reason).toBeInstanceOf(UserExistsError);
    const db = await testDb.db();
    expect(await db.collection(USER_PERMISSIONS).countDocuments({ user: "race@example.com" })).toBe(1);
    expect(await db.collection("local_users").countDocuments({ email: "race@example.com" })).toBe(1);
  });

  it("rejects an invalid e-mail with a field error", async () => {
    const outcome = await createUser("not-an-email", "admin@example.com");
    expect(outcome.kind).toBe("invalidInput");
  });

  it("records who created the user and when", async () => {
    await createUser("audit@example.com", "Admin@Example.com");
    const db = await testDb.db();
    const record = await db.collection(USER_PERMISSIONS).findOne({ user: "audit@example.com" });
    expect(record).toMatchObject({ type: "USER BRONZE", createdBy: "admin@example.com", stores: [] });
    expect(record?.createdAt).toBeInstanceOf(Date);
  });
});

describe("forgot password and reset by code", () => {
  const wrongCodeFor = (code: string) => (code === "0".repeat(26) ? "1".repeat(26) : "0".repeat(26));
  const codeOf = async (email: string) => {
    const mail = await readLatestMail(email);
    const code = /código: (\S+)/.exec(mail!.text)![1];
    expect(mail!.text).toContain(`http://localhost:3000/recovery/${code}`);
    return code;
  };

  it("e-mails a code and a link; the code resets the password once and ends the sessions of the old one", async () => {
    const email = await makeUser("USER SILVER");
    const before = (await signIn(email)).cookie;
    expect(await requestPasswordReset({ email })).toEqual({ kind: "sent" });
    const code = await codeOf(email);
    const wrong = wrongCodeFor(code);
    expect(
      await confirmPasswordReset({ email, code: wrong, password: "Reset#2024", confirmPassword: "Reset#2024" }),
    ).toEqual({
      kind: "error",
      message: localProviderMessages.codeMismatch,
    });
    expect(
      await confirmPasswordReset({ email, code, password: "Reset#2024", confirmPassword: "Reset#2025" }),
    ).toMatchObject({
      kind: "invalidInput",
    });
    expect((await requireUser(requestWith(before))).email).toBe(email);
    // Typed back in lower case and in groups, it is the same code.
    const typed = code.toLowerCase().replace(/(.{5})/g, "$1 ");
    expect(
      await confirmPasswordReset({ email, code: typed, password: "Reset#2024", confirmPassword: "Reset#2024" }),
    ).toEqual({ kind: "ok" });
    expect(await countSessionsOfUser(email)).toBe(0);
    expect((await thrown(requireUser(requestWith(before)))).headers.get("Location")).toBe(SESSION_EXPIRED_REDIRECT);
    expect(await confirmPasswordReset({ email, code, password: "Again#2024", confirmPassword: "Again#2024" })).toEqual({
      kind: "error",
      message: localProviderMessages.codeExpired,
    });
    expect((await signIn(email, "Reset#2024")).redirectTo).toBe("/captura/manual");
  });

  it("stores the code hashed, and a new request replaces the older code", async () => {
    const email = await makeUser("USER SILVER");
    await requestPasswordReset({ email });
    const oldCode = await codeOf(email);
    const db = await testDb.db();
    const stored = await db.collection("password_reset_codes").findOne({ _id: email as never });
    expect(JSON.stringify(stored)).not.toContain(oldCode);
    await requestPasswordReset({ email });
    const newCode = await codeOf(email);
    if (newCode !== oldCode) {
      expect(
        (await confirmPasswordReset({ email, code: oldCode, password: "Reset#2024", confirmPassword: "Reset#2024" }))
          .kind,
      ).toBe("error");
    }
    expect(
      (await confirmPasswordReset({ email, code: newCode, password: "Reset#2024", confirmPassword: "Reset#2024" }))
        .kind,
    ).toBe("ok");
  });

  it("expires the code after 1 hour", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-03T08:00:00Z"));
    const email = await makeUser("USER SILVER");
    await requestPasswordReset({ email });
    const code = await codeOf(email);
    vi.setSystemTime(new Date("2026-03-03T09:00:01Z"));
    expect(await confirmPasswordReset({ email, code, password: "Reset#2024", confirmPassword: "Reset#2024" })).toEqual({
      kind: "error",
      message: localProviderMessages.codeExpired,
    });
  });

  it("throws the code away after too many wrong tries", async () => {
    const email = await makeUser("USER SILVER");
    await requestPasswordReset({ email });
    const code = await codeOf(email);
    const wrong = wrongCodeFor(code);
    for (let i = 0; i < 5; i++)
      await confirmPasswordReset({ email, code: wrong, password: "Reset#2024", confirmPassword: "Reset#2024" });
    expect(
      (await confirmPasswordReset({ email, code, password: "Reset#2024", confirmPassword: "Reset#2024" })).kind,
    ).toBe("error");
  });

  it("answers an unknown e-mail the same way and sends nothing", async () => {
    expect(await requestPasswordReset({ email: "ghost@example.com" })).toEqual({ kind: "sent" });
    expect(await readLatestMail("ghost@example.com")).toBeNull();
    const db = await testDb.db();
    expect(await db.collection(MAIL_OUTBOX).countDocuments({ to: "ghost@example.com" })).toBe(0);
  });

  it("drops reset requests beyond the allowance per e-mail, answering the same", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    resetConfigForTests();
    const email = await makeUser("USER SILVER");
    const db = await testDb.db();
    for (let i = 0; i < 4; i++) expect(await requestPasswordReset({ email })).toEqual({ kind: "sent" });
    expect(await db.collection(MAIL_OUTBOX).countDocuments({ to: email })).toBe(2);
  });

  it("requires a valid e-mail", async () => {
    expect((await requestPasswordReset({ email: "" })).kind).toBe("invalidInput");
  });
});

describe("sessions: idle and absolute timeouts", () => {
  it("expires after 30 idle minutes; activity slides the idle deadline", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T08:00:00Z"));
    const { cookie } = await signIn(await makeUser("USER GOLD"));
    vi.setSystemTime(new Date("2026-03-04T08:25:00Z"));
    expect((await getSessionState(requestWith(cookie))).kind).toBe("active");
    vi.setSystemTime(new Date("2026-03-04T08:50:00Z"));
    expect((await getSessionState(requestWith(cookie))).kind).toBe("active");
    vi.setSystemTime(new Date("2026-03-04T09:20:01Z"));
    expect((await getSessionState(requestWith(cookie))).kind).toBe("expired");
    // The expired record is gone: the next request sees "expired" too, not a revived session.
    expect((await getSessionState(requestWith(cookie))).kind).toBe("expired");
  });

  it("writes the idle deadline at most once a minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T08:00:00Z"));
    const { cookie } = await signIn(await makeUser("USER GOLD"));
    const state = await getSessionState(requestWith(cookie));
    if (state.kind !== "active") throw new Error("expected active");
    vi.setSystemTime(new Date("2026-03-04T08:00:30Z"));
    await getSessionState(requestWith(cookie));
    expect((await findSession(state.session._id))?.lastSeenAt.toISOString()).toBe("2026-03-04T08:00:00.000Z");
    vi.setSystemTime(new Date("2026-03-04T08:01:30Z"));
    await getSessionState(requestWith(cookie));
    expect((await findSession(state.session._id))?.idleExpiresAt.toISOString()).toBe("2026-03-04T08:31:30.000Z");
  });

  it("expires after 12 hours even when used all the time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-03-05T06:00:00Z").getTime();
    vi.setSystemTime(start);
    const { cookie } = await signIn(await makeUser("USER GOLD"));
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      vi.setSystemTime(start + minutes * 60_000);
      expect((await getSessionState(requestWith(cookie))).kind, `after ${minutes} min`).toBe("active");
    }
    vi.setSystemTime(start + 12 * 3_600_000);
    expect((await getSessionState(requestWith(cookie))).kind).toBe("expired");
  });

  it("tells anonymous (no cookie, or a tampered one) from expired", async () => {
    expect((await getSessionState(requestWith(null))).kind).toBe("anonymous");
    const { cookie } = await signIn(await makeUser("USER GOLD"));
    expect((await getSessionState(requestWith(`${cookie.slice(0, -2)}xx`))).kind).toBe("anonymous");
  });
});

describe("requireUser / requireRouteAccess", () => {
  it("redirects anonymous visits to / and expired sessions to /?expired=1, clearing the cookie", async () => {
    const anonymous = await thrown(requireUser(requestWith(null)));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/");

    const { cookie } = await signIn(await makeUser("USER GOLD"));
    await logout(requestWith(cookie, "/logout", { method: "POST" }));
    const expired = await thrown(requireUser(requestWith(cookie)));
    expect(expired.headers.get("Location")).toBe(SESSION_EXPIRED_REDIRECT);
    expect(SESSION_EXPIRED_REDIRECT).toBe("/?expired=1");
    expect(expired.headers.get("Set-Cookie")).toMatch(/^__session=;.*Max-Age=0/);
  });

  it("ends every session of a user whose tier an admin changes: the next request goes to sign-in", async () => {
    const email = await makeUser("USER SILVER");
    const first = (await signIn(email)).cookie;
    const second = (await signIn(email, PASSWORD, "10.0.0.2")).cookie;
    expect((await requireUser(requestWith(first))).type).toBe("USER SILVER");
    expect(await setUserTier(email, "USER GOLD", "perm@example.com")).toEqual({ kind: "saved" });
    for (const cookie of [first, second]) {
      expect((await thrown(requireUser(requestWith(cookie)))).headers.get("Location")).toBe(SESSION_EXPIRED_REDIRECT);
    }
    expect(await countSessionsOfUser(email)).toBe(0);
    // Signing in again gives the new tier.
    expect((await requireUser(requestWith((await signIn(email)).cookie))).type).toBe("USER GOLD");
  });

  it("ends the session when the type is emptied", async () => {
    const email = await makeUser("USER SILVER");
    const { cookie } = await signIn(email);
    const db = await testDb.db();
    await db.collection(USER_PERMISSIONS).updateOne({ user: email }, { $set: { type: "" } });
    const response = await thrown(requireUser(requestWith(cookie)));
    expect(response.headers.get("Location")).toBe(SESSION_EXPIRED_REDIRECT);
    expect(await countSessionsOfUser(email)).toBe(0);
  });

  it("answers 403 by type and by feature flag, from the route id whatever the URL says", async () => {
    const gold = (await signIn(await makeUser("USER GOLD"))).cookie;
    const bronze = (await signIn(await makeUser("USER BRONZE"))).cookie;
    const admin = (await signIn(await makeUser("USER ADMIN"))).cookie;

    expect((await requireRouteAccess("routes/ij.plan", requestWith(gold, "/ij/plan"))).type).toBe("USER GOLD");
    expect((await requireRouteAccess("routes/captura.manual", requestWith(bronze, "/captura/manual"))).type).toBe(
      "USER BRONZE",
    );
    expect((await requireRouteAccess("routes/user.config", requestWith(admin, "/user/config/"))).type).toBe(
      "USER ADMIN",
    );

    const denied = await thrown(requireRouteAccess("routes/ij.plan", requestWith(bronze, "/ij/plan")));
    expect(denied.status).toBe(403);
    expect(denied.statusText).toBe("Forbidden");
    expect((await thrown(requireRouteAccess("routes/ij.painel.$id", requestWith(admin, "/ij/painel/3")))).status).toBe(
      403,
    );
    // The spelling of the URL plays no part: the route's own rule decides.
    expect((await thrown(requireRouteAccess("routes/user.config", requestWith(bronze, "/USER/Config/")))).status).toBe(
      403,
    );
    expect((await thrown(requireRouteAccess("routes/user.config", requestWith(gold, "/%75ser/config")))).status).toBe(
      403,
    );

    process.env.FEATURE_PLANNING = "0";
    resetConfigForTests();
    expect((await thrown(requireRouteAccess("routes/ij.plan_edit", requestWith(gold, "/ij/plan_edit")))).status).toBe(
      403,
    );
    expect((await requireRouteAccess("routes/ij.explorer", requestWith(gold, "/ij/explorer"))).type).toBe("USER GOLD");
  });

  it("refuses a state-changing request from another origin before reading the session", async () => {
    const gold = (await signIn(await makeUser("USER GOLD"))).cookie;
    const post = (origin: string) => requestWith(gold, "/ij/plan", { method: "POST", headers: { Origin: origin } });
    expect((await thrown(requireRouteAccess("routes/ij.plan", post("https://evil.example")))).status).toBe(403);
    expect((await requireRouteAccess("routes/ij.plan", post("http://localhost:3000"))).type).toBe("USER GOLD");
  });

  it("is not for public routes", async () => {
    await expect(requireRouteAccess("routes/_index", requestWith(null, "/"))).rejects.toThrow(/public/);
  });

  it("reads the session and the permission record once per page request, in one command, however many loaders ask, and afresh in the next", async () => {
    const email = await makeUser("USER GOLD");
    const { cookie } = await signIn(email);
    const db = await testDb.db();
    const page = () =>
      runInRequestScope(() =>
        Promise.all([
          getOptionalUser(requestWith(cookie, "/ij/plan")),
          requireRouteAccess("routes/ij", requestWith(cookie, "/ij/plan")),
          requireRouteAccess("routes/ij.plan", requestWith(cookie, "/ij/plan")),
        ]),
      );
    const { result, plans } = await recordQueryPlans(db, page);
    expect(result?.map((user) => user?.type)).toEqual(["USER GOLD", "USER GOLD", "USER GOLD"]);
    // One command: the session with the user's record, unread notices and the menus' dashboards ($lookup).
    expect(plans.map((p) => p.ns.split(".").pop())).toEqual([SESSIONS]);
    // The next request is a new scope: a tier changed in between ends the session there.
    await setUserTier(email, "USER SILVER", "perm@example.com");
    expect((await thrown(page())).headers.get("Location")).toMatch(/^\/\?expired=1/);
  });
});

describe("logout", () => {
  it("deletes the session and returns to / clearing the cookie", async () => {
    const email = await makeUser("USER GOLD");
    const { cookie } = await signIn(email);
    const response = await logout(requestWith(cookie, "/logout", { method: "POST" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__session=;/);
    expect(await countSessionsOfUser(email)).toBe(0);
  });

  it("after Sair, a protected page sends the browser to the sign-in page, not to the session-expired notice; a new sign-in forgets it", async () => {
    const email = await makeUser("USER GOLD");
    const { cookie } = await signIn(email);
    const response = await logout(requestWith(cookie, "/logout", { method: "POST" }));
    const marker = response.headers.getSetCookie().find((c) => c.startsWith("jp_signed_out=1"));
    expect(marker).toBeDefined();
    const afterLogout = marker!.split(";")[0];
    const location = (
      await thrown(requireRouteAccess("routes/ij.plan", requestWith(afterLogout, "/ij/plan")))
    ).headers.get("Location");
    expect(location).toBe("/?redirectTo=%2Fij%2Fplan");
    // Without the marker (a session that ended on its own, or a first visit) the notice stays (spec 000 §2).
    expect(
      (await thrown(requireRouteAccess("routes/ij.plan", requestWith(null, "/ij/plan")))).headers.get("Location"),
    ).toBe("/?expired=1&redirectTo=%2Fij%2Fplan");
    const again = await signIn(email);
    expect(again.sessionCookieHeaders.getSetCookie().some((c) => /^jp_signed_out=;.*Max-Age=0/.test(c))).toBe(true);
  });
});

describe("user administration", () => {
  it("deleteUser removes the provider account, the record and the user's sessions", async () => {
    const email = await makeUser("USER EXPLORER");
    const { cookie } = await signIn(email);
    await signIn(email);
    expect(await countSessionsOfUser(email)).toBe(2);
    expect(await deleteUser(email)).toEqual({ kind: "deleted" });
    expect(await countSessionsOfUser(email)).toBe(0);
    expect((await thrown(requireUser(requestWith(cookie)))).headers.get("Location")).toBe(SESSION_EXPIRED_REDIRECT);
    expect(await signInWithPassword({ email, password: PASSWORD })).toEqual({ kind: "invalid" });
    expect(await deleteUser(email)).toEqual({ kind: "notFound" });
  });

  it("refuses to delete or re-tier administrative accounts", async () => {
    const admin = await makeUser("SYSTEM ADMIN");
    expect(await deleteUser(admin)).toEqual({ kind: "protectedUser" });
    expect(await setUserTier(admin, "USER BRONZE", "perm@example.com")).toEqual({ kind: "protectedUser" });
  });

  it("setUserTier accepts only the four tiers and only known users, and records who and when", async () => {
    const email = await makeUser("USER BRONZE");
    expect(await setUserTier(email, "SYSTEM ADMIN", "perm@example.com")).toEqual({ kind: "invalidTier" });
    expect(await setUserTier(email, "USER PLATINUM", "perm@example.com")).toEqual({ kind: "invalidTier" });
    expect(await setUserTier(email, { $ne: null }, "perm@example.com")).toEqual({ kind: "invalidTier" });
    expect(await setUserTier("ghost@example.com", "USER GOLD", "perm@example.com")).toEqual({ kind: "unknownUser" });
    expect(await setUserTier(email, "USER SILVER", "Perm@Example.com")).toEqual({ kind: "saved" });
    const db = await testDb.db();
    const record = await db.collection(USER_PERMISSIONS).findOne({ user: email });
    expect(record).toMatchObject({ type: "USER SILVER", updatedBy: "perm@example.com" });
    expect(record?.updatedAt).toBeInstanceOf(Date);
    // A user without a type is not on the grid (spec 000 §6 lists the four tiers), so it cannot be changed there.
    const empty = await makeUser("");
    expect(await setUserTier(empty, "USER EXPLORER", "perm@example.com")).toEqual({ kind: "unknownUser" });
  });

  it("lists configured users (four tiers, sorted by user) and the permission grid, one page at a time", async () => {
    for (let i = 0; i < 25; i++) await makeUser("USER SILVER");
    const first = await listConfiguredUsers();
    expect(first).toMatchObject({ page: 1, pageSize: 20 });
    expect(first.rows).toHaveLength(20);
    expect(first.total).toBeGreaterThanOrEqual(25);
    expect(first.rowCount).toBe(first.total);
    expect(first.rows.every((u) => ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"].includes(u.type))).toBe(
      true,
    );
    expect(first.rows[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      user: expect.any(String),
      name: expect.any(String),
      type: expect.any(String),
      createdAt: expect.any(Date),
    });

    // The pages, read one after the other, are the whole list sorted by user, each user once.
    const all = await allPages(listConfiguredUsers);
    expect(all).toHaveLength(first.total);
    expect(all).toEqual([...all].sort());
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 20)).toEqual(first.rows.map((u) => u.user));
    const second = await listConfiguredUsers({ page: 2, pageSize: 20 });
    expect(second.rows.map((u) => u.user)).toEqual(all.slice(20, 40));
    expect((await listConfiguredUsers({ pageSize: 40 })).rows.map((u) => u.user)).toEqual(all.slice(0, 40));

    // A page past the end answers the last page; an unknown page size the default.
    const lastPage = Math.ceil(first.total / 20);
    const past = await listConfiguredUsers({ page: lastPage + 5 });
    expect(past.page).toBe(lastPage);
    expect(past.rows.map((u) => u.user)).toEqual(all.slice((lastPage - 1) * 20));
    expect((await listConfiguredUsers({ pageSize: 30 })).pageSize).toBe(20);

    const grid = await allPagesOf(listUsersForPermissionGrid);
    expect(grid.some((u) => u.type === "SYSTEM ADMIN" || u.type === "USER ADMIN" || u.type === "USER PERMISS")).toBe(
      false,
    );
    expect(grid.every((u) => ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"].includes(u.type))).toBe(true);
    const empty = await makeUser("");
    expect((await allPages(listUsersForPermissionGrid)).includes(empty)).toBe(false);
    expect((await allPages(listConfiguredUsers)).includes(empty)).toBe(false);
  });
});

/** Every row of a paged user list, read page by page (40 at a time). */
async function allPagesOf<Row>(
  list: (paging: { page: number; pageSize: number }) => Promise<{ rows: Row[]; rowCount: number }>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const result = await list({ page, pageSize: 40 });
    rows.push(...result.rows);
    if (page * 40 >= result.rowCount) return rows;
  }
}

async function allPages(
  list: (paging: { page: number; pageSize: number }) => Promise<{ rows: Array<{ user: string }>; rowCount: number }>,
): Promise<string[]> {
  return (await allPagesOf(list)).map((u) => u.user);
}

describe("assertSameOrigin", () => {
  const post = (headers: Record<string, string>) =>
    new Request("http://localhost:3000/user/config", { method: "POST", headers });
  const status = (fn: () => void) => {
    try {
      fn();
      return 200;
    } catch (error) {
      return (error as Response).status;
    }
  };

  it("lets GET through and same-origin POSTs, and refuses the rest with 403", () => {
    expect(status(() => assertSameOrigin(new Request("http://localhost:3000/user/config")))).toBe(200);
    expect(status(() => assertSameOrigin(post({ Origin: "http://localhost:3000" })))).toBe(200);
    expect(status(() => assertSameOrigin(post({ Referer: "http://localhost:3000/user/config" })))).toBe(200);
    expect(status(() => assertSameOrigin(post({ Origin: "https://evil.example" })))).toBe(403);
    expect(status(() => assertSameOrigin(post({ Origin: "null" })))).toBe(403);
    expect(status(() => assertSameOrigin(post({ Referer: "https://evil.example/x" })))).toBe(403);
    expect(status(() => assertSameOrigin(post({})))).toBe(403);
  });
});
