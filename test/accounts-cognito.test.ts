import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import type { ActionFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import {
  completeFirstAccess,
  createUser,
  deleteUser,
  signInWithPassword,
  UserExistsError,
} from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { indexes as authRecordIndexes } from "~/models/auth-records.server";
import { countSessionsOfUser, findSession, indexes as sessionIndexes } from "~/models/sessions.server";
import { insertPermissionRecord } from "~/models/user-permissions.server";
import { USER_PERMISSIONS, indexes as userIndexes } from "~/models/users.server";
import { getSessionState, logout } from "~/platform/auth/session.server";
import * as login from "~/routes/_index";
import {
  createCognitoIdentityProvider,
  type IdentityProvider,
  setIdentityProviderForTests,
} from "~/services/identity.server";
import { useTestDatabase } from "./db";
import { useMockServer } from "./mocks";
import { COGNITO_ERRORS, cognitoHandlers, FakeUserPool, TEST_COGNITO } from "./mocks/cognito";

process.env.AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
process.env.AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
process.env.AWS_EC2_METADATA_DISABLED = "true";
process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";

const testDb = useTestDatabase();
const server = useMockServer();
let pool: FakeUserPool;
let cognito: IdentityProvider;

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db(), [...userIndexes, ...sessionIndexes, ...authRecordIndexes]);
});
beforeEach(() => {
  pool = new FakeUserPool();
  server.use(...cognitoHandlers(pool));
  cognito = createCognitoIdentityProvider({
    region: TEST_COGNITO.region,
    userPoolId: TEST_COGNITO.userPoolId,
    clientId: TEST_COGNITO.clientId,
  });
  setIdentityProviderForTests(cognito);
});
afterAll(() => setIdentityProviderForTests(undefined));

const cookieOf = (headers: Headers) => (headers.get("Set-Cookie") ?? "").split(";")[0];
const req = (cookie: string, path = "/") =>
  new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } });

describe("account flows with the Cognito provider", () => {
  it("keeps the provider tokens in the session and signs out globally at logout", async () => {
    pool.addUser("gold@example.com", "Gold#2024");
    await insertPermissionRecord({
      user: "gold@example.com",
      name: "Gold",
      type: "USER GOLD",
      stores: [],
      createdAt: new Date(),
    });
    const outcome = await signInWithPassword({ email: "gold@example.com", password: "Gold#2024", ip: "10.9.0.1" });
    if (outcome.kind !== "signedIn") throw new Error(`expected signedIn, got ${outcome.kind}`);
    const cookie = cookieOf(outcome.sessionCookieHeaders);
    const state = await getSessionState(req(cookie));
    if (state.kind !== "active") throw new Error("expected an active session");
    const stored = (await findSession(state.session._id))?.providerTokens;
    expect(stored?.accessToken).toMatch(/^access\./);
    expect(stored?.idToken).toMatch(/^id\./);
    expect(stored && "refreshToken" in stored).toBe(false);

    await logout(req(cookie, "/logout"));
    expect(pool.callsTo("GlobalSignOut")).toHaveLength(1);
    expect(await countSessionsOfUser("gold@example.com")).toBe(0);
  });

  it("answers invalid for Cognito's NotAuthorizedException", async () => {
    pool.addUser("gold2@example.com", "Gold#2024");
    expect(await signInWithPassword({ email: "gold2@example.com", password: "nope", ip: "10.9.0.2" })).toEqual({
      kind: "invalid",
    });
  });

  it("runs first access through RespondToAuthChallenge and asks for a fresh sign-in", async () => {
    pool.addUser("first@example.com", "Temp#1234", "FORCE_CHANGE_PASSWORD");
    await insertPermissionRecord({
      user: "first@example.com",
      name: "First",
      type: "USER SILVER",
      stores: [],
      createdAt: new Date(),
    });
    const outcome = await signInWithPassword({ email: "first@example.com", password: "Temp#1234" });
    if (outcome.kind !== "newPasswordRequired") throw new Error(`expected the challenge, got ${outcome.kind}`);
    expect(
      await completeFirstAccess({
        email: "first@example.com",
        challenge: outcome.challenge,
        password: "Silver#2024",
        confirmPassword: "Silver#2024",
      }),
    ).toEqual({
      kind: "ok",
    });
    // Cognito's tokens from the challenge are revoked: the user signs in again, as the spec says.
    expect(pool.callsTo("GlobalSignOut")).toHaveLength(1);
    const again = await signInWithPassword({ email: "first@example.com", password: "Silver#2024" });
    expect(again.kind).toBe("signedIn");
  });

  it("creates the Cognito user and the record; UsernameExistsException becomes UserExistsError", async () => {
    await createUser("new@example.com", "admin@example.com");
    expect(pool.users.get("new@example.com")?.status).toBe("FORCE_CHANGE_PASSWORD");
    const db = await testDb.db();
    expect(await db.collection(USER_PERMISSIONS).countDocuments({ user: "new@example.com" })).toBe(1);

    pool.addUser("only-in-pool@example.com", "Pool#2024");
    await expect(createUser("only-in-pool@example.com", "admin@example.com")).rejects.toBeInstanceOf(UserExistsError);
    expect(await db.collection(USER_PERMISSIONS).countDocuments({ user: "only-in-pool@example.com" })).toBe(0);
  });

  it("decides a race on the permission record before Cognito is asked", async () => {
    // A second admin creates the same user while Cognito is still creating the first one.
    let concurrent: Promise<unknown> | undefined;
    const slow: IdentityProvider = {
      ...cognito,
      async adminCreateUser(email) {
        concurrent ??= createUser(email, "other.admin@example.com").then(
          () => "created",
          (error: unknown) => error,
        );
        await concurrent;
        await cognito.adminCreateUser(email);
      },
    };
    setIdentityProviderForTests(slow);
    expect(await createUser("raced@example.com", "admin@example.com")).toEqual({
      kind: "created",
      email: "raced@example.com",
    });
    expect(await concurrent).toBeInstanceOf(UserExistsError);
    expect(pool.callsTo("AdminCreateUser")).toHaveLength(1);
    const db = await testDb.db();
    expect(await db.collection(USER_PERMISSIONS).find({ user: "raced@example.com" }).toArray()).toMatchObject([
      { createdBy: "admin@example.com" },
    ]);
  });

  it("deletes the user at Cognito and locally", async () => {
    await createUser("bye@example.com", "admin@example.com");
    expect(await deleteUser("bye@example.com")).toEqual({ kind: "deleted" });
    expect(pool.users.has("bye@example.com")).toBe(false);
    const db = await testDb.db();
    expect(await db.collection(USER_PERMISSIONS).countDocuments({ user: "bye@example.com" })).toBe(0);
  });
});

describe("Cognito throttling and refused parameters reach the user as messages, never as a 500", () => {
  const ORIGIN = "http://localhost:3000";
  const loginPost = (fields: Record<string, string>) =>
    ({
      request: new Request(`${ORIGIN}/`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: { clientIp: "10.9.9.9" },
    }) as unknown as ActionFunctionArgs;
  const answer = (value: unknown) => {
    const v = value as { data: unknown; init?: { status?: number } };
    return { status: v.init?.status ?? 200, body: v.data };
  };

  beforeEach(() => {
    // One attempt: the SDK's own retries of a throttled call (with back-off) are not what these tests are about.
    setIdentityProviderForTests(
      createCognitoIdentityProvider({
        ...TEST_COGNITO,
        client: new CognitoIdentityProviderClient({ region: TEST_COGNITO.region, maxAttempts: 1 }),
      }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });

  it("sign-in: a throttled Cognito gives the try-again message (503) and counts no failure", async () => {
    pool.addUser("busy@example.com", "Busy#2024");
    await insertPermissionRecord({
      user: "busy@example.com",
      name: "Busy",
      type: "USER SILVER",
      stores: [],
      createdAt: new Date(),
    });
    pool.failWith("InitiateAuth", COGNITO_ERRORS.tooManyRequests);
    expect(await signInWithPassword({ email: "busy@example.com", password: "Busy#2024", ip: "10.9.1.1" })).toEqual({
      kind: "providerBusy",
    });
    expect(answer(await login.action(loginPost({ email: "busy@example.com", password: "Busy#2024" })))).toMatchObject({
      status: 503,
      body: {
        intent: "signIn",
        result: { error: { "": [messages.identityBusy] }, initialValue: { email: "busy@example.com" } },
      },
    });
    // More throttled attempts than the failure limit (5) do not lock the account.
    for (let i = 0; i < 5; i++)
      await signInWithPassword({ email: "busy@example.com", password: "Busy#2024", ip: "10.9.1.1" });
    pool.clearFailures();
    expect((await signInWithPassword({ email: "busy@example.com", password: "Busy#2024", ip: "10.9.1.1" })).kind).toBe(
      "signedIn",
    );
  });

  it("sign-in: InvalidParameterException and an e-mail longer than Cognito's 128 characters are wrong credentials", async () => {
    pool.addUser("param@example.com", "Param#2024");
    pool.failWith("InitiateAuth", COGNITO_ERRORS.authFlowNotEnabled);
    expect(answer(await login.action(loginPost({ email: "param@example.com", password: "Param#2024" })))).toMatchObject(
      {
        status: 400,
        body: {
          intent: "signIn",
          result: { error: { "": [messages.incorrectCredentials] }, initialValue: { email: "param@example.com" } },
        },
      },
    );
    pool.clearFailures();
    const long = `${"l".repeat(130)}@example.com`;
    expect(answer(await login.action(loginPost({ email: long, password: "Param#2024" }))).body).toMatchObject({
      intent: "signIn",
      result: { error: { "": [messages.incorrectCredentials] }, initialValue: { email: long } },
    });
    expect(
      pool.callsTo("InitiateAuth").some((c) => (c.body.AuthParameters as { USERNAME: string }).USERNAME === long),
    ).toBe(false);
  });

  it("first access: throttled shows the try-again message on the form; a challenge over 2048 characters is refused (400)", async () => {
    pool.addUser("first.busy@example.com", "Temp#1234", "FORCE_CHANGE_PASSWORD");
    await insertPermissionRecord({
      user: "first.busy@example.com",
      name: "First",
      type: "USER BRONZE",
      stores: [],
      createdAt: new Date(),
    });
    const started = await signInWithPassword({ email: "first.busy@example.com", password: "Temp#1234" });
    if (started.kind !== "newPasswordRequired") throw new Error(`expected the challenge, got ${started.kind}`);
    const fields = {
      intent: "newPassword",
      email: "first.busy@example.com",
      password: "Bronze#2024",
      confirmPassword: "Bronze#2024",
    };

    pool.failWith("RespondToAuthChallenge", COGNITO_ERRORS.tooManyRequests);
    expect(answer(await login.action(loginPost({ ...fields, challenge: started.challenge })))).toMatchObject({
      status: 400,
      body: {
        intent: "newPassword",
        step: "form",
        email: "first.busy@example.com",
        challenge: started.challenge,
        result: { error: { "": [messages.identityBusy] } },
      },
    });
    pool.clearFailures();

    const calls = pool.callsTo("RespondToAuthChallenge").length;
    // Back to the login form, with the invalid-form notice and nothing refilled.
    expect(answer(await login.action(loginPost({ ...fields, challenge: "s".repeat(2049) })))).toEqual({
      status: 400,
      body: { intent: "signIn", result: { status: "error", error: { "": [messages.invalidForm] } } },
    });
    expect(pool.callsTo("RespondToAuthChallenge")).toHaveLength(calls);
    expect(answer(await login.action(loginPost({ ...fields, challenge: started.challenge })))).toEqual({
      status: 200,
      body: { intent: "newPassword", step: "done" },
    });
  });

  it("create: throttling, an e-mail Cognito refuses and a failed delivery keep nothing, and a retry then succeeds", async () => {
    const db = await testDb.db();
    const records = (email: string) => db.collection(USER_PERMISSIONS).countDocuments({ user: email });

    pool.failWith("AdminCreateUser", COGNITO_ERRORS.tooManyRequests);
    expect(await createUser("later@example.com", "admin@example.com")).toEqual({
      kind: "failed",
      message: messages.createUserBusy,
    });
    pool.failWith("AdminCreateUser", COGNITO_ERRORS.invalidEmail);
    expect(await createUser("later@example.com", "admin@example.com")).toEqual({
      kind: "invalidInput",
      errors: { email: [messages.invalidEmail] },
    });
    pool.failWith("AdminCreateUser", { ...COGNITO_ERRORS.codeDelivery, afterApplying: true });
    expect(await createUser("later@example.com", "admin@example.com")).toEqual({
      kind: "failed",
      message: messages.createUserMailFailed,
    });
    expect(await records("later@example.com")).toBe(0);
    expect(pool.users.has("later@example.com")).toBe(false);

    // Longer than Cognito's 128 characters: refused before Cognito is asked.
    const long = `${"c".repeat(120)}@example.com`;
    expect(await createUser(long, "admin@example.com")).toEqual({
      kind: "invalidInput",
      errors: { email: [messages.invalidEmail] },
    });
    expect(await records(long)).toBe(0);
    expect(pool.callsTo("AdminCreateUser").some((c) => c.body.Username === long)).toBe(false);

    pool.clearFailures();
    expect(await createUser("later@example.com", "admin@example.com")).toEqual({
      kind: "created",
      email: "later@example.com",
    });
    expect(await records("later@example.com")).toBe(1);
    expect(pool.users.get("later@example.com")?.status).toBe("FORCE_CHANGE_PASSWORD");
  });
});
