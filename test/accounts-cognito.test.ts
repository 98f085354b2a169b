import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyIndexes } from "~/models/all-indexes.server";
import { indexes as authRecordIndexes } from "~/models/auth-records.server";
import { countSessionsOfUser, findSession, indexes as sessionIndexes } from "~/models/sessions.server";
import { insertPermissionRecord } from "~/models/user-permissions.server";
import { indexes as userIndexes, USER_PERMISSIONS } from "~/models/users.server";
import { completeFirstAccess, createUser, deleteUser, signInWithPassword, UserExistsError } from "~/services/accounts.server";
import { createCognitoIdentityProvider, setIdentityProviderForTests, type IdentityProvider } from "~/services/identity.server";
import { getSessionState, logout } from "~/session.server";
import { useTestDatabase } from "./db";
import { useMockServer } from "./mocks";
import { cognitoHandlers, FakeUserPool, TEST_COGNITO } from "./mocks/cognito";

process.env.AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
process.env.AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
process.env.AWS_EC2_METADATA_DISABLED = "true";
process.env.LOG_LEVEL = "warn";

const testDb = useTestDatabase();
const server = useMockServer();
let pool: FakeUserPool;
let cognito: IdentityProvider;

beforeAll(async () => {
  await applyIndexes(await testDb.db(), [...userIndexes, ...sessionIndexes, ...authRecordIndexes]);
});
beforeEach(() => {
  pool = new FakeUserPool();
  server.use(...cognitoHandlers(pool));
  cognito = createCognitoIdentityProvider({ region: TEST_COGNITO.region, userPoolId: TEST_COGNITO.userPoolId, clientId: TEST_COGNITO.clientId });
  setIdentityProviderForTests(cognito);
});
afterAll(() => setIdentityProviderForTests(undefined));

const cookieOf = (headers: Headers) => (headers.get("Set-Cookie") ?? "").split(";")[0];
const req = (cookie: string, path = "/") => new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } });

describe("account flows with the Cognito provider", () => {
  it("keeps the provider tokens in the session and signs out globally at logout", async () => {
    pool.addUser("gold@example.com", "Gold#2024");
    await insertPermissionRecord({ user: "gold@example.com", name: "Gold", type: "USER GOLD", stores: [], createdAt: new Date() });
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
    expect(await signInWithPassword({ email: "gold2@example.com", password: "nope", ip: "10.9.0.2" })).toEqual({ kind: "invalid" });
  });

  it("runs first access through RespondToAuthChallenge and asks for a fresh sign-in", async () => {
    pool.addUser("first@example.com", "Temp#1234", "FORCE_CHANGE_PASSWORD");
    await insertPermissionRecord({ user: "first@example.com", name: "First", type: "USER SILVER", stores: [], createdAt: new Date() });
    const outcome = await signInWithPassword({ email: "first@example.com", password: "Temp#1234" });
    if (outcome.kind !== "newPasswordRequired") throw new Error(`expected the challenge, got ${outcome.kind}`);
    expect(await completeFirstAccess({ email: "first@example.com", challenge: outcome.challenge, password: "Silver#2024", confirmPassword: "Silver#2024" })).toEqual({
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

  it("removes the provider user again when the permission record cannot be written", async () => {
    // The record appears between the duplicate check and the insert (another admin's concurrent create).
    const racing: IdentityProvider = {
      ...cognito,
      async adminCreateUser(email) {
        await cognito.adminCreateUser(email);
        await insertPermissionRecord({ user: email, name: "Other", type: "USER GOLD", stores: [], createdAt: new Date() });
      },
    };
    setIdentityProviderForTests(racing);
    await expect(createUser("raced@example.com", "admin@example.com")).rejects.toBeInstanceOf(UserExistsError);
    expect(pool.users.has("raced@example.com")).toBe(false);
    expect(pool.callsTo("AdminDeleteUser")).toHaveLength(1);
  });

  it("deletes the user at Cognito and locally", async () => {
    await createUser("bye@example.com", "admin@example.com");
    expect(await deleteUser("bye@example.com")).toEqual({ kind: "deleted" });
    expect(pool.users.has("bye@example.com")).toBe(false);
    const db = await testDb.db();
    expect(await db.collection(USER_PERMISSIONS).countDocuments({ user: "bye@example.com" })).toBe(0);
  });
});
