import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { thrownResponse as thrown } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import {
  completeFirstAccess,
  confirmPasswordReset,
  createUser,
  deleteUser,
  requestPasswordReset,
  setUserTier,
  signInWithPassword,
  UserExistsError,
} from "~/features/access/accounts.server";
import { createAdmin } from "~/features/access/admin-bootstrap.server";
import { completeSsoSignIn, recordSsoRefusal } from "~/features/access/sso-complete.server";
import { applyIndexes } from "~/models/all-indexes.server";
import type { AuditEvent } from "~/models/audit.fields";
import { AUDIT_LOG, type AuditEntry, verifyAuditChain } from "~/models/audit.server";
import {
  recordConfigChanged,
  recordDataEvent,
  recordUploadRefused,
  recordUserChanged,
} from "~/platform/audit/record.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { getSessionState, logout } from "~/platform/auth/session.server";
import { readLatestMail } from "~/services/mail.server";
import { hashPassword } from "~/services/password-hash.server";
import { SsoError } from "~/services/sso/sso.server";
import { runWithClientAddress } from "~/shared/client-address.server";

/**
 * Every access, administration and refusal event the portal records: the entry's actor (user and type at that
 * moment), address, object and outcome, written before the caller answers.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();

const PASSWORD = "Journey#2024";
let passwordHash: string;
const makeUser = userMaker({ prefix: "aud", name: "Auditado", passwordHash: () => passwordHash });

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
  passwordHash = await hashPassword(PASSWORD);
});

afterEach(() => {
  vi.useRealTimers();
});

/** The entries written since `since` (an `n`), oldest first. */
async function entriesAfter(since: number, event?: AuditEvent): Promise<AuditEntry[]> {
  return (await testDb.db())
    .collection<AuditEntry>(AUDIT_LOG)
    .find({ n: { $gt: since }, ...(event ? { event } : {}) }, { projection: { _id: 0 } })
    .sort({ n: 1 })
    .toArray();
}

async function head(): Promise<number> {
  const last = await (await testDb.db()).collection<AuditEntry>(AUDIT_LOG).findOne({}, { sort: { n: -1 } });
  return last?.n ?? 0;
}

function cookieFrom(headers: Headers): string {
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

function requestWith(cookie: string | null, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`http://localhost:3000${path}`, { ...init, headers });
}

async function signIn(email: string, ip = "198.51.100.4") {
  const outcome = await signInWithPassword({ email, password: PASSWORD, ip });
  if (outcome.kind !== "signedIn") throw new Error(`expected signedIn, got ${outcome.kind}`);
  return cookieFrom(outcome.sessionCookieHeaders);
}

describe("access events", () => {
  it("sign-in succeeded, and failed with the reason, with the address the request came from", async () => {
    const email = await makeUser("USER GOLD");
    const since = await head();
    await signIn(email);
    expect(await signInWithPassword({ email, password: "Wrong#2024", ip: "198.51.100.5" })).toEqual({
      kind: "invalid",
    });
    const [ok, failed] = await entriesAfter(since, "signIn");
    expect(ok).toMatchObject({
      actor: { email, name: "Auditado 1", type: "USER GOLD" },
      ip: "198.51.100.4",
      object: { kind: "user", id: email },
      outcome: "ok",
      details: { method: "password" },
    });
    expect(failed).toMatchObject({
      actor: { email, type: "USER GOLD" },
      ip: "198.51.100.5",
      outcome: "failed",
      details: { method: "password", reason: "invalidCredentials" },
    });
    expect(JSON.stringify(failed)).not.toContain("Wrong#2024");
  });

  it("sign-in slowed after the allowed failures, and refused for a user without a type", async () => {
    process.env.LOGIN_MAX_FAILURES = "2";
    resetConfigForTests();
    try {
      const email = await makeUser("USER SILVER");
      const since = await head();
      for (let i = 0; i < 3; i++) await signInWithPassword({ email, password: "Wrong#2024", ip: "198.51.100.9" });
      const entries = await entriesAfter(since, "signIn");
      expect(entries.map((e) => [e.outcome, e.details.reason])).toEqual([
        ["failed", "invalidCredentials"],
        ["failed", "invalidCredentials"],
        ["refused", "slowed"],
      ]);
      expect(entries[2].details.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      delete process.env.LOGIN_MAX_FAILURES;
      resetConfigForTests();
    }
    const typeless = await makeUser("");
    const since = await head();
    expect((await signInWithPassword({ email: typeless, password: PASSWORD })).kind).toBe("noType");
    expect(await entriesAfter(since, "signIn")).toMatchObject([
      { actor: { email: typeless, type: null }, outcome: "refused", details: { reason: "noType" } },
    ]);
  });

  it("sign-out, and a session that expired", async () => {
    const email = await makeUser("USER BRONZE");
    const cookie = await signIn(email);
    let since = await head();
    await logout(requestWith(cookie, "/logout", { method: "POST" }));
    expect(await entriesAfter(since, "signOut")).toMatchObject([
      { actor: { email, type: "USER BRONZE" }, object: { kind: "session", id: email }, outcome: "ok" },
    ]);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T08:00:00Z"));
    const second = await signIn(email);
    since = await head();
    vi.setSystemTime(new Date("2026-03-04T09:00:00Z"));
    expect((await getSessionState(requestWith(second, "/captura/manual"))).kind).toBe("expired");
    expect((await getSessionState(requestWith(second, "/captura/manual"))).kind).toBe("expired");
    const expired = await entriesAfter(since, "sessionExpired");
    expect(expired).toMatchObject([{ actor: { email }, outcome: "ok", details: { reason: "idleTimeout" } }]);
    expect(expired[0].at.toISOString()).toBe("2026-03-04T09:00:00.000Z");
    // The session id (the cookie's value) is never written.
    const sessionId = decodeURIComponent(second.split("=")[1]);
    expect(JSON.stringify(await entriesAfter(0))).not.toContain(sessionId.slice(0, 20));
  });

  it("first access and password set, reset asked and reset done, without the passwords or the code", async () => {
    const admin = await makeUser("USER ADMIN");
    const email = "primeiro.acesso@example.com";
    await createUser(email, admin);
    const temporary = /Senha temporária: (\S+)/.exec((await readLatestMail(email))!.text)![1];
    let since = await head();
    const first = await signInWithPassword({ email, password: temporary });
    if (first.kind !== "newPasswordRequired") throw new Error("expected the first-access challenge");
    expect(
      await completeFirstAccess({
        email,
        challenge: first.challenge,
        password: "Better#2024",
        confirmPassword: "Better#2024",
      }),
    ).toEqual({ kind: "ok" });
    expect((await entriesAfter(since)).map((e) => [e.event, e.outcome])).toEqual([
      ["firstAccess", "ok"],
      ["passwordSet", "ok"],
    ]);
    expect(await entriesAfter(since, "passwordSet")).toMatchObject([
      { actor: { email, type: "USER BRONZE" }, object: { kind: "user", id: email } },
    ]);

    since = await head();
    expect(await requestPasswordReset({ email })).toEqual({ kind: "sent" });
    const code = /código: (\S+)/.exec((await readLatestMail(email))!.text)![1];
    expect(
      await confirmPasswordReset({
        email,
        code,
        password: "Reset#2024",
        confirmPassword: "Reset#2024",
        ip: "192.0.2.10",
      }),
    ).toEqual({ kind: "ok" });
    const written = await entriesAfter(since);
    expect(written.map((e) => [e.event, e.outcome])).toEqual([
      ["passwordResetRequested", "ok"],
      ["passwordReset", "ok"],
    ]);
    expect(written[1]).toMatchObject({ actor: { email }, ip: "192.0.2.10" });
    const text = JSON.stringify(await entriesAfter(0));
    for (const secret of [temporary, "Better#2024", "Reset#2024", code, first.challenge.slice(0, 16)]) {
      expect(text).not.toContain(secret);
    }
  });

  it("single sign-on: completed with SAML or Cognito, and refused before the user is known", async () => {
    const email = await makeUser("USER GOLD");
    const since = await head();
    const saml = await completeSsoSignIn(requestWith(null, "/saml", { method: "POST" }), { email }, undefined, "saml");
    expect("response" in saml).toBe(true);
    await completeSsoSignIn(requestWith(null, "/saml", { method: "POST" }), { email }, undefined, "cognito-federated");
    await recordSsoRefusal("saml", new SsoError("signatureInvalid"));
    expect((await entriesAfter(since, "signIn")).map((e) => [e.actor.email, e.outcome, e.details])).toEqual([
      [email, "ok", { method: "saml" }],
      [email, "ok", { method: "cognito-federated" }],
      [null, "failed", { method: "saml", reason: "signatureInvalid" }],
    ]);
  });
});

describe("administration events", () => {
  it("user created, refused as a duplicate, deleted, and re-tiered (before → after), by whom", async () => {
    const adminEmail = await makeUser("USER ADMIN");
    const admin = { email: adminEmail, name: "Admin", type: "USER ADMIN" };
    const since = await head();
    expect(await createUser("Novo@Example.com", adminEmail, admin)).toEqual({
      kind: "created",
      email: "novo@example.com",
    });
    await expect(createUser("novo@example.com", adminEmail, admin)).rejects.toBeInstanceOf(UserExistsError);
    const permissionAdmin = await makeUser("USER PERMISS");
    expect(await setUserTier("novo@example.com", "USER GOLD", permissionAdmin)).toEqual({ kind: "saved" });
    expect(await deleteUser("novo@example.com", admin)).toEqual({ kind: "deleted" });
    const written = await entriesAfter(since);
    expect(written.map((e) => [e.event, e.outcome, e.actor.email, e.object?.id])).toEqual([
      ["userCreated", "ok", adminEmail, "novo@example.com"],
      ["userCreated", "failed", adminEmail, "novo@example.com"],
      ["userChanged", "ok", permissionAdmin, "novo@example.com"],
      ["userDeleted", "ok", adminEmail, "novo@example.com"],
    ]);
    expect(written[0]).toMatchObject({ actor: { type: "USER ADMIN" }, details: { type: "USER BRONZE" } });
    expect(written[1].details).toEqual({ reason: "exists" });
    expect(written[2]).toMatchObject({
      actor: { type: "USER PERMISS" },
      details: { before: { type: "USER BRONZE" }, after: { type: "USER GOLD" } },
    });
  });

  it("refused administration is written too", async () => {
    const protectedAdmin = await makeUser("SYSTEM ADMIN");
    const since = await head();
    expect(await deleteUser(protectedAdmin, { email: "ua@example.com", type: "USER ADMIN" })).toEqual({
      kind: "protectedUser",
    });
    expect(await entriesAfter(since)).toMatchObject([
      { event: "userDeleted", outcome: "refused", details: { reason: "protectedUser", type: "SYSTEM ADMIN" } },
    ]);
  });

  it("the operator's create-admin, and the API for flags, branches, stores and configuration", async () => {
    const since = await head();
    expect((await createAdmin("root@example.com")).kind).toBe("created");
    const actor = { email: "root@example.com", name: "Root", type: "SYSTEM ADMIN" };
    await recordUserChanged(
      actor,
      "loja@example.com",
      { type: "USER SILVER", flags: ["planning"], branches: ["0101"], stores: ["A"] },
      { type: "USER SILVER", flags: ["planning", "report"], branches: ["0101"], stores: ["A", "B"] },
    );
    // Nothing changed: nothing written.
    expect(await recordUserChanged(actor, "loja@example.com", { stores: ["A"] }, { stores: ["A"] })).toBeNull();
    await recordConfigChanged(actor, { id: "noticeMail", label: "Avisos por e-mail" }, false, true);
    await recordUploadRefused(actor, { fileName: "plano.xlsx", dataset: "planning", reason: "noRights" });
    await recordDataEvent(actor, "dataExported", { dataset: "forecast", details: { rows: 12 } });
    const written = await entriesAfter(since);
    expect(written.map((e) => e.event)).toEqual([
      "userCreated",
      "userChanged",
      "configChanged",
      "uploadRefused",
      "dataExported",
    ]);
    expect(written[4]).toMatchObject({
      dataset: "forecast",
      object: { kind: "dataset", id: "forecast" },
      outcome: "ok",
    });
    expect(written[0]).toMatchObject({ actor: { email: "cli" }, object: { id: "root@example.com" } });
    expect(written[1].details).toEqual({
      before: { flags: ["planning"], stores: ["A"] },
      after: { flags: ["planning", "report"], stores: ["A", "B"] },
    });
    expect(written[2]).toMatchObject({
      object: { kind: "configuration", id: "noticeMail" },
      details: { before: false },
    });
    expect(written[3]).toMatchObject({ dataset: "planning", outcome: "refused", object: { kind: "file" } });
  });
});

describe("refusals of the route guard", () => {
  it("every 403 is written, with who, which screen and from where", async () => {
    const gold = await makeUser("USER GOLD");
    const cookie = await signIn(gold);
    const since = await head();
    const response = await runWithClientAddress("203.0.113.50", () =>
      thrown(requireRouteAccess("routes/user.config", requestWith(cookie, "/USER/config?x=1"))),
    );
    expect(response.status).toBe(403);
    const crossSite = await thrown(
      requireRouteAccess(
        "routes/ij.plan",
        requestWith(cookie, "/ij/plan", { method: "POST", headers: { Origin: "https://evil.example" } }),
      ),
    );
    expect(crossSite.status).toBe(403);
    expect(await entriesAfter(since)).toMatchObject([
      {
        event: "accessRefused",
        actor: { email: gold, type: "USER GOLD" },
        ip: "203.0.113.50",
        object: { kind: "screen", id: "routes/user.config", label: "/USER/config" },
        outcome: "refused",
        details: { reason: "notAllowed" },
      },
      {
        event: "accessRefused",
        actor: { email: null },
        object: { id: "routes/ij.plan" },
        details: { reason: "crossOrigin", origin: "https://evil.example" },
      },
    ]);
    // Allowed requests write nothing.
    await requireRouteAccess("routes/ij", requestWith(cookie, "/ij/plan"));
    expect(await entriesAfter(since)).toHaveLength(2);
    expect(await verifyAuditChain()).toMatchObject({ ok: true });
  });
});
