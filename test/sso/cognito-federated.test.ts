import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { messages } from "~/messages";
import { startFederatedSignIn, verifyFederatedSignIn } from "~/services/sso/cognito-federated.server";
import { getSsoEntry, SsoError } from "~/services/sso/sso.server";
import {
  cognitoIdTokenClaims,
  cognitoJwksHandlers,
  createTestSigningKey,
  publishJwks,
  signJwt,
} from "../mocks/cognito-jwks";
import { useMockServer } from "../mocks/index";

const REGION = "sa-east-1";
const USER_POOL_ID = `${REGION}_TestPool1`;
const CLIENT_ID = "4example0client0id0abcdefg";
const DOMAIN = "https://acme-test.auth.sa-east-1.amazoncognito.com";
const ORIGIN = "https://portal.test";

const server = useMockServer();
const poolKey = createTestSigningKey();
/** Same kid, different key: what a forged token looks like to the verifier. */
const forgerKey = { kid: poolKey.kid, privateKey: createTestSigningKey().privateKey };

beforeAll(() => {
  vi.stubEnv("NODE_ENV", "test");
  vi.stubEnv("APP_ORIGIN", ORIGIN);
  vi.stubEnv("COMPANY_NAME", "Acme");
  vi.stubEnv("SSO_MODE", "cognito-federated");
  vi.stubEnv("COGNITO_USER_POOL_ID", USER_POOL_ID);
  vi.stubEnv("COGNITO_CLIENT_ID", CLIENT_ID);
  vi.stubEnv("COGNITO_DOMAIN", DOMAIN);
  vi.stubEnv("COGNITO_IDP_NAME", "AcmeCorp");
  resetConfigForTests();
  publishJwks(REGION, USER_POOL_ID, [poolKey.jwk]);
});
beforeEach(() => {
  server.use(...cognitoJwksHandlers);
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

/** Begins a sign-in as the login button does: the hosted UI address and this browser's cookie. */
async function begin() {
  const { url, setCookie } = await startFederatedSignIn();
  const nonce = new URL(url).searchParams.get("nonce")!;
  return { url, nonce, cookieHeader: setCookie.split(";")[0] };
}

const claims = (
  nonce: string,
  overrides: Parameters<typeof cognitoIdTokenClaims>[0]["overrides"] = {},
  lifetimeSeconds = 3600,
) =>
  cognitoIdTokenClaims({
    region: REGION,
    userPoolId: USER_POOL_ID,
    clientId: CLIENT_ID,
    email: "Ana@Acme.test",
    nonce,
    overrides,
    lifetimeSeconds,
  });

async function refusal(promise: Promise<unknown>): Promise<SsoError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsoError);
  return error as SsoError;
}

describe("Cognito federated sign-in", () => {
  it("offers the company's button on the login page", () => {
    expect(getSsoEntry()).toEqual({ label: "Acme Entrar", href: "/saml/login" });
  });

  it("sends the browser to the hosted UI for the configured identity provider, implicit grant, back to /saml", async () => {
    const { url, nonce, cookieHeader } = await begin();
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${DOMAIN}/oauth2/authorize`);
    expect(parsed.searchParams.get("identity_provider")).toBe("AcmeCorp");
    expect(parsed.searchParams.get("response_type")).toBe("token");
    expect(parsed.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(parsed.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/saml`);
    expect(parsed.search).toContain("scope=openid+email");
    expect(nonce).toMatch(/^[0-9a-f-]{36}$/);
    expect(cookieHeader).toMatch(/^jp_sso_nonce=/);
  });

  it("accepts a valid ID token and bounds the session by expires_in", async () => {
    const { nonce, cookieHeader } = await begin();
    const before = Date.now();
    const identity = await verifyFederatedSignIn({
      idToken: signJwt(poolKey, claims(nonce)),
      expiresIn: "1800",
      cookieHeader,
    });
    expect(identity.email).toBe("ana@acme.test");
    const end = identity.sessionNotOnOrAfter!.getTime();
    expect(end).toBeGreaterThanOrEqual(before + 1800_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 1800_000);
  });

  it("never lets expires_in outlive the token itself", async () => {
    const { nonce, cookieHeader } = await begin();
    const token = claims(nonce, {}, 600);
    const identity = await verifyFederatedSignIn({ idToken: signJwt(poolKey, token), expiresIn: "3600", cookieHeader });
    expect(identity.sessionNotOnOrAfter!.getTime()).toBe((token.exp as number) * 1000);
  });

  it("refuses an expired token", async () => {
    const { nonce, cookieHeader } = await begin();
    const now = Math.floor(Date.now() / 1000);
    const error = await refusal(
      verifyFederatedSignIn({
        idToken: signJwt(poolKey, claims(nonce, { iat: now - 7200, auth_time: now - 7200, exp: now - 3600 })),
        expiresIn: "3600",
        cookieHeader,
      }),
    );
    expect(error.message).toBe("Não foi possível entrar com o login corporativo. Tente novamente.");
    expect(String(error.cause)).toMatch(/expired/i);
  });

  it("refuses a token issued to another app client (wrong audience)", async () => {
    const { nonce, cookieHeader } = await begin();
    const error = await refusal(
      verifyFederatedSignIn({
        idToken: signJwt(poolKey, claims(nonce, { aud: "another-client" })),
        expiresIn: "3600",
        cookieHeader,
      }),
    );
    expect(String(error.cause)).toMatch(/client id|audience/i);
  });

  it("refuses a token whose signature does not verify with the pool's keys", async () => {
    const { nonce, cookieHeader } = await begin();
    const error = await refusal(
      verifyFederatedSignIn({ idToken: signJwt(forgerKey, claims(nonce)), expiresIn: "3600", cookieHeader }),
    );
    expect(String(error.cause)).toMatch(/signature/i);
  });

  it("refuses an access token where an ID token is expected", async () => {
    const { nonce, cookieHeader } = await begin();
    await refusal(
      verifyFederatedSignIn({
        idToken: signJwt(poolKey, claims(nonce, { token_use: "access" })),
        expiresIn: "3600",
        cookieHeader,
      }),
    );
  });

  it("refuses a token from another browser's sign-in (nonce mismatch) or with no sign-in started", async () => {
    const mine = await begin();
    const theirs = await begin();
    const token = signJwt(poolKey, claims(theirs.nonce));
    expect(
      (await refusal(verifyFederatedSignIn({ idToken: token, expiresIn: "3600", cookieHeader: mine.cookieHeader })))
        .reason,
    ).toMatch(/nonce/);
    expect(
      (await refusal(verifyFederatedSignIn({ idToken: token, expiresIn: "3600", cookieHeader: null }))).reason,
    ).toMatch(/nonce/);
    // A cookie forged without the session secret is not accepted either.
    const forgedCookie = `jp_sso_nonce=${Buffer.from(JSON.stringify(theirs.nonce)).toString("base64")}`;
    expect(
      (await refusal(verifyFederatedSignIn({ idToken: token, expiresIn: "3600", cookieHeader: forgedCookie }))).reason,
    ).toMatch(/nonce/);
  });

  it("refuses missing or malformed input without calling anything", async () => {
    const { nonce, cookieHeader } = await begin();
    const token = signJwt(poolKey, claims(nonce));
    expect((await refusal(verifyFederatedSignIn({ idToken: "", expiresIn: "3600", cookieHeader }))).reason).toMatch(
      /no id_token/,
    );
    expect((await refusal(verifyFederatedSignIn({ idToken: token, expiresIn: "-5", cookieHeader }))).reason).toMatch(
      /expires_in/,
    );
    expect(
      (await refusal(verifyFederatedSignIn({ idToken: token, expiresIn: "999999", cookieHeader }))).reason,
    ).toMatch(/expires_in/);
    expect(
      (await refusal(verifyFederatedSignIn({ idToken: "a.b.c", expiresIn: "3600", cookieHeader }))).reason,
    ).toMatch(/not valid/);
  });

  it("refuses a token whose e-mail the identity provider has not verified, with a message saying so", async () => {
    for (const emailVerified of [false, "false", undefined, 1, "yes"]) {
      const { nonce, cookieHeader } = await begin();
      const error = await refusal(
        verifyFederatedSignIn({
          idToken: signJwt(poolKey, claims(nonce, { email_verified: emailVerified })),
          expiresIn: "3600",
          cookieHeader,
        }),
      );
      expect(error.reason, String(emailVerified)).toMatch(/email_verified/);
      expect(error.message).toBe(messages.ssoEmailNotVerified);
      expect(error.message).toMatch(/e-mail.*não.*verificado/i);
    }
    // Cognito writes mapped attributes as text: "true" is as good as true.
    for (const emailVerified of [true, "true"]) {
      const { nonce, cookieHeader } = await begin();
      const identity = await verifyFederatedSignIn({
        idToken: signJwt(poolKey, claims(nonce, { email_verified: emailVerified })),
        expiresIn: "3600",
        cookieHeader,
      });
      expect(identity.email).toBe("ana@acme.test");
    }
  });

  it("refuses a token without an e-mail", async () => {
    const { nonce, cookieHeader } = await begin();
    const error = await refusal(
      verifyFederatedSignIn({
        idToken: signJwt(poolKey, claims(nonce, { email: undefined })),
        expiresIn: "3600",
        cookieHeader,
      }),
    );
    expect(error.reason).toMatch(/email/);
  });
});
