import { createHmac } from "node:crypto";
import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createCognitoIdentityProvider,
  type IdentityProvider,
  IdentityProviderError,
  UserExistsError,
} from "~/services/identity.server";
import { useMockServer } from "./mocks";
import { COGNITO_ERRORS, cognitoHandlers, FakeUserPool, TEST_COGNITO } from "./mocks/cognito";

// Fake credentials: the Admin* calls are SigV4-signed; nothing may look up real credentials or metadata.
process.env.AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
process.env.AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
process.env.AWS_EC2_METADATA_DISABLED = "true";
delete process.env.AWS_PROFILE;

const server = useMockServer();
let pool: FakeUserPool;
let provider: IdentityProvider;

let warn: ReturnType<typeof vi.spyOn>;
beforeAll(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});

beforeEach(() => {
  pool = new FakeUserPool();
  server.use(...cognitoHandlers(pool));
  provider = createCognitoIdentityProvider({
    region: TEST_COGNITO.region,
    userPoolId: TEST_COGNITO.userPoolId,
    clientId: TEST_COGNITO.clientId,
  });
});

describe("Cognito provider: sign in", () => {
  it("returns tokens for right credentials, with the documented request shape", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    const result = await provider.signIn(" Ana@Example.com ", "Secret#123");
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") throw new Error("unreachable");
    expect(result.tokens?.accessToken).toMatch(/^access\./);
    expect(result.tokens?.idToken).toMatch(/^id\./);
    const [call] = pool.callsTo("InitiateAuth");
    expect(call.headers["content-type"]).toContain("application/x-amz-json-1.1");
    expect(call.body).toEqual({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: TEST_COGNITO.clientId,
      AuthParameters: { USERNAME: "ana@example.com", PASSWORD: "Secret#123" },
    });
  });

  it("maps NotAuthorizedException and UserNotFoundException to invalid", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    expect(await provider.signIn("ana@example.com", "wrong")).toEqual({ kind: "invalid" });
    expect(await provider.signIn("nobody@example.com", "Secret#123")).toEqual({ kind: "invalid" });
  });

  it("sends SECRET_HASH when the app client has a secret", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    const withSecret = createCognitoIdentityProvider({ ...TEST_COGNITO, clientSecret: "s3cr3t" });
    await withSecret.signIn("ana@example.com", "Secret#123");
    const expected = createHmac("sha256", "s3cr3t").update(`ana@example.com${TEST_COGNITO.clientId}`).digest("base64");
    expect((pool.callsTo("InitiateAuth")[0].body.AuthParameters as Record<string, string>).SECRET_HASH).toBe(expected);
  });
});

describe("Cognito provider: first access (NEW_PASSWORD_REQUIRED)", () => {
  it("returns the challenge session and completes it", async () => {
    pool.addUser("new@example.com", "Temp#1234", "FORCE_CHANGE_PASSWORD");
    const first = await provider.signIn("new@example.com", "Temp#1234");
    expect(first.kind).toBe("newPasswordRequired");
    if (first.kind !== "newPasswordRequired") throw new Error("unreachable");

    const weak = await provider.completeNewPassword("new@example.com", first.challengeSession, "weakpass");
    expect(weak).toEqual({
      kind: "error",
      message: "Password does not conform to policy: Password must have uppercase characters",
    });

    const done = await provider.completeNewPassword("new@example.com", first.challengeSession, "Better#2024");
    expect(done.kind).toBe("ok");
    const call = pool.callsTo("RespondToAuthChallenge").at(-1)!;
    expect(call.body).toMatchObject({
      ChallengeName: "NEW_PASSWORD_REQUIRED",
      ClientId: TEST_COGNITO.clientId,
      Session: first.challengeSession,
      ChallengeResponses: { USERNAME: "new@example.com", NEW_PASSWORD: "Better#2024" },
    });
    expect((await provider.signIn("new@example.com", "Better#2024")).kind).toBe("ok");
  });

  it("treats a used or forged session as invalid", async () => {
    pool.addUser("new@example.com", "Temp#1234", "FORCE_CHANGE_PASSWORD");
    expect(await provider.completeNewPassword("new@example.com", "forged", "Better#2024")).toEqual({ kind: "invalid" });
  });
});

describe("Cognito provider: forgot password", () => {
  it("requests a code and confirms it; CodeMismatch and InvalidPassword give the provider's message", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    expect(await provider.forgotPassword("ana@example.com")).toEqual({ kind: "ok" });
    expect(pool.callsTo("ForgotPassword")[0].body).toEqual({
      ClientId: TEST_COGNITO.clientId,
      Username: "ana@example.com",
    });
    const code = pool.users.get("ana@example.com")!.resetCode!;

    expect(
      await provider.confirmForgotPassword("ana@example.com", "000000" === code ? "111111" : "000000", "Newpass#1"),
    ).toEqual({
      kind: "error",
      message: "Invalid verification code provided, please try again.",
    });
    expect(await provider.confirmForgotPassword("ana@example.com", code, "short")).toEqual({
      kind: "error",
      message: "Password does not conform to policy: Password must have uppercase characters",
    });
    expect(await provider.confirmForgotPassword("ana@example.com", code, "Newpass#1")).toEqual({ kind: "ok" });
    expect(pool.callsTo("ConfirmForgotPassword").at(-1)!.body).toEqual({
      ClientId: TEST_COGNITO.clientId,
      Username: "ana@example.com",
      ConfirmationCode: code,
      Password: "Newpass#1",
    });
    expect(await provider.confirmForgotPassword("ana@example.com", code, "Newpass#2")).toEqual({
      kind: "error",
      message: "Invalid code provided, please request a code again.",
    });
    expect((await provider.signIn("ana@example.com", "Newpass#1")).kind).toBe("ok");
  });

  it("answers an unknown e-mail like a known one", async () => {
    expect(await provider.forgotPassword("nobody@example.com")).toEqual({ kind: "ok" });
  });
});

describe("Cognito provider: administration and sign-out", () => {
  it("creates a user with e-mail delivery; a duplicate is UserExistsError (UsernameExistsException)", async () => {
    await provider.adminCreateUser("Bia@Example.com");
    const call = pool.callsTo("AdminCreateUser")[0];
    expect(call.body).toEqual({
      UserPoolId: TEST_COGNITO.userPoolId,
      Username: "bia@example.com",
      UserAttributes: [
        { Name: "email", Value: "bia@example.com" },
        { Name: "email_verified", Value: "true" },
      ],
      DesiredDeliveryMediums: ["EMAIL"],
    });
    expect(call.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//);
    await expect(provider.adminCreateUser("bia@example.com")).rejects.toBeInstanceOf(UserExistsError);
  });

  it("deletes a user, and an unknown user is not an error", async () => {
    pool.addUser("bia@example.com", "Secret#123");
    await provider.adminDeleteUser("bia@example.com");
    expect(pool.users.has("bia@example.com")).toBe(false);
    await expect(provider.adminDeleteUser("bia@example.com")).resolves.toBeUndefined();
  });

  it("signs out globally with the access token, and never throws", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    const signedIn = await provider.signIn("ana@example.com", "Secret#123");
    if (signedIn.kind !== "ok") throw new Error("expected ok");
    await provider.signOut(signedIn.tokens);
    expect(pool.callsTo("GlobalSignOut")[0].body).toEqual({ AccessToken: signedIn.tokens!.accessToken });
    expect(pool.accessTokens.size).toBe(0);
    await expect(provider.signOut(signedIn.tokens)).resolves.toBeUndefined();
    await expect(provider.signOut(undefined)).resolves.toBeUndefined();
  });
});

/** The provider's answer when the call throws: the IdentityProviderError's reason, or the error's name. */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof IdentityProviderError) return error.reason;
  if (error instanceof Error) return error.name;
  throw new Error("expected the call to fail");
}

describe("Cognito provider: throttling, refused parameters and Cognito's limits", () => {
  // One attempt: the SDK's own retries of a throttled call (with back-off) are not what these tests are about.
  let once: IdentityProvider;
  beforeEach(() => {
    once = createCognitoIdentityProvider({
      ...TEST_COGNITO,
      client: new CognitoIdentityProviderClient({ region: TEST_COGNITO.region, maxAttempts: 1 }),
    });
    warn.mockClear();
  });

  it("sign in: TooManyRequestsException and LimitExceededException are throttled, not thrown", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    pool.failWith("InitiateAuth", COGNITO_ERRORS.tooManyRequests);
    expect(await once.signIn("ana@example.com", "Secret#123")).toEqual({ kind: "throttled" });
    pool.failWith("InitiateAuth", COGNITO_ERRORS.limitExceeded);
    expect(await once.signIn("ana@example.com", "Secret#123")).toEqual({ kind: "throttled" });
    pool.clearFailures();
    expect((await once.signIn("ana@example.com", "Secret#123")).kind).toBe("ok");
  });

  it("sign in: InvalidParameterException answers invalid and logs the refusal for operations", async () => {
    pool.addUser("ana@example.com", "Secret#123");
    pool.failWith("InitiateAuth", COGNITO_ERRORS.authFlowNotEnabled);
    expect(await once.signIn("ana@example.com", "Secret#123")).toEqual({ kind: "invalid" });
    const line = JSON.parse(String(warn.mock.calls.at(-1)?.[0]));
    expect(line).toMatchObject({
      msg: "cognito.invalidParameter",
      operation: "InitiateAuth",
      error: "InvalidParameterException",
    });
    expect(line.detail).toContain("USER_PASSWORD_AUTH flow not enabled");
  });

  it("sign in: a user name longer than Cognito's 128 characters is invalid without asking Cognito", async () => {
    const long = `${"a".repeat(128 - "@example.com".length + 1)}@example.com`;
    expect(long).toHaveLength(129);
    expect(await once.signIn(long, "Secret#123")).toEqual({ kind: "invalid" });
    expect(pool.callsTo("InitiateAuth")).toHaveLength(0);
  });

  it("first access: throttled, a refused parameter and a session outside 20-2048 characters", async () => {
    pool.addUser("new@example.com", "Temp#1234", "FORCE_CHANGE_PASSWORD");
    const first = await once.signIn("new@example.com", "Temp#1234");
    if (first.kind !== "newPasswordRequired") throw new Error("expected the challenge");

    pool.failWith("RespondToAuthChallenge", COGNITO_ERRORS.tooManyRequests);
    expect(await once.completeNewPassword("new@example.com", first.challengeSession, "Better#2024")).toEqual({
      kind: "throttled",
    });
    pool.failWith("RespondToAuthChallenge", COGNITO_ERRORS.missingAttribute);
    expect(await once.completeNewPassword("new@example.com", first.challengeSession, "Better#2024")).toEqual({
      kind: "invalid",
    });
    pool.clearFailures();
    const calls = pool.callsTo("RespondToAuthChallenge").length;
    expect(await once.completeNewPassword("new@example.com", "x".repeat(2049), "Better#2024")).toEqual({
      kind: "invalid",
    });
    expect(await once.completeNewPassword("new@example.com", "x".repeat(19), "Better#2024")).toEqual({
      kind: "invalid",
    });
    expect(pool.callsTo("RespondToAuthChallenge")).toHaveLength(calls);
    // The challenge itself was not used up by the refusals.
    expect((await once.completeNewPassword("new@example.com", first.challengeSession, "Better#2024")).kind).toBe("ok");
  });

  it("create: throttling, a refused e-mail and a too-long name fail with a reason, keeping nothing", async () => {
    pool.failWith("AdminCreateUser", COGNITO_ERRORS.tooManyRequests);
    expect(await failureOf(once.adminCreateUser("bia@example.com"))).toBe("throttled");
    pool.failWith("AdminCreateUser", COGNITO_ERRORS.limitExceeded);
    expect(await failureOf(once.adminCreateUser("bia@example.com"))).toBe("throttled");
    pool.failWith("AdminCreateUser", COGNITO_ERRORS.invalidEmail);
    expect(await failureOf(once.adminCreateUser("bia@example.com"))).toBe("invalidInput");
    expect(pool.users.size).toBe(0);
    pool.clearFailures();

    const calls = pool.callsTo("AdminCreateUser").length;
    expect(await failureOf(once.adminCreateUser(`${"b".repeat(120)}@example.com`))).toBe("invalidInput");
    expect(pool.callsTo("AdminCreateUser")).toHaveLength(calls);
  });

  it("create: when Cognito cannot deliver the temporary password, the user it kept is deleted", async () => {
    pool.failWith("AdminCreateUser", { ...COGNITO_ERRORS.codeDelivery, afterApplying: true });
    expect(await failureOf(once.adminCreateUser("bia@example.com"))).toBe("mailFailed");
    expect(pool.callsTo("AdminDeleteUser").at(-1)?.body).toEqual({
      UserPoolId: TEST_COGNITO.userPoolId,
      Username: "bia@example.com",
    });
    expect(pool.users.has("bia@example.com")).toBe(false);
  });
});
