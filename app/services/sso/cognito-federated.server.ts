import { CognitoJwtVerifier } from "aws-jwt-verify";
import type { Fetcher } from "aws-jwt-verify/https";
import { SimpleJwksCache } from "aws-jwt-verify/jwk";
import { type Config, getConfig } from "~/config.server";
import { messages } from "~/messages";
import { signedCookie } from "~/shared/signed-cookie.server";
import { SsoError, type SsoIdentity, toVerifiedEmail } from "./sso.server";

/**
 * Federated sign-in through the Cognito hosted UI (implicit grant): Cognito sends the browser back
 * to /saml with `id_token` and `expires_in` in the address fragment; the page posts them here.
 * The token is verified against the user pool's JWKS (signature, issuer, token_use=id, audience =
 * our app client, expiry) and must carry the nonce this browser received when the sign-in began,
 * so a token obtained elsewhere cannot be replayed into another browser, and its e-mail must be verified
 * (email_verified true).
 */

/** expires_in beyond a day is not something Cognito issues; refuse rather than trust it. */
const MAX_EXPIRES_IN_SECONDS = 24 * 60 * 60;
const MAX_TOKEN_CHARS = 16 * 1024;
/** How long the user may take at the hosted UI and the federated IdP. */
export const FEDERATED_NONCE_TTL_SECONDS = 10 * 60;
export const FEDERATED_NONCE_COOKIE = "jp_sso_nonce";

type CognitoSettings = {
  region: string;
  userPoolId: string;
  clientId: string;
  domain: string;
  identityProviderName?: string;
};

function cognitoSettings(config: Config): CognitoSettings {
  const { userPoolId, clientId, domain, identityProviderName } = config.identity.cognito;
  if (!userPoolId || !clientId || !domain) {
    throw new Error(
      "Federated sign-in is not configured: COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID and COGNITO_DOMAIN are required",
    );
  }
  // The user pool ID starts with its region ("us-east-1_AbC"); AWS_REGION is the fallback.
  const region = /^([a-z]{2}(?:-[a-z]+)+-\d)_/.exec(userPoolId)?.[1] ?? config.awsRegion;
  return { region, userPoolId, clientId, domain: domain.replace(/\/$/, ""), identityProviderName };
}

// The hosted UI returns with a top-level GET and our page posts same-origin: Lax is enough.
function nonceCookie() {
  return signedCookie(FEDERATED_NONCE_COOKIE, FEDERATED_NONCE_TTL_SECONDS, "/saml");
}

/**
 * The hosted UI address that starts the federated sign-in, and the Set-Cookie header binding it
 * to this browser.
 */
export async function startFederatedSignIn(): Promise<{ url: string; setCookie: string }> {
  const config = getConfig();
  const settings = cognitoSettings(config);
  const nonce = crypto.randomUUID();
  const url = new URL(`${settings.domain}/oauth2/authorize`);
  if (settings.identityProviderName) url.searchParams.set("identity_provider", settings.identityProviderName);
  url.searchParams.set("response_type", "token");
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("redirect_uri", `${config.origin}/saml`);
  url.searchParams.set("scope", "openid email");
  url.searchParams.set("nonce", nonce);
  return { url: url.toString(), setCookie: await nonceCookie().serialize(nonce) };
}

/** The Set-Cookie header that forgets the nonce once it was used (or refused). */
export async function clearFederatedNonce(): Promise<string> {
  return nonceCookie().serialize("", { maxAge: 0 });
}

let cached: { key: string; verifier: ReturnType<typeof createVerifier> } | undefined;

/**
 * The JWKS is fetched with the platform's fetch (with a timeout) instead of the library's
 * node:https helper: one HTTP stack for every outbound call, which msw also sees in tests.
 */
const jwksFetcher: Fetcher = {
  async fetch(uri) {
    const response = await fetch(uri, { signal: AbortSignal.timeout(5000), headers: { accept: "application/json" } });
    if (response.status !== 200) throw new Error(`JWKS fetch from ${uri} answered ${response.status}`);
    return response.arrayBuffer();
  },
};

function createVerifier(settings: CognitoSettings) {
  return CognitoJwtVerifier.create(
    { userPoolId: settings.userPoolId, tokenUse: "id", clientId: settings.clientId },
    { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher }) },
  );
}

/** One verifier per pool and client, so the JWKS is fetched once and kept (and refreshed on an unknown kid). */
function getVerifier(settings: CognitoSettings) {
  const key = `${settings.userPoolId}|${settings.clientId}`;
  if (cached?.key !== key) cached = { key, verifier: createVerifier(settings) };
  return cached.verifier;
}

export type FederatedPost = { idToken: unknown; expiresIn: unknown; cookieHeader: string | null };

/**
 * Verifies what the /saml page posted. Returns the identity, bounded by the token's own expiry and
 * by expires_in; throws SsoError when anything is missing, malformed or not valid.
 */
export async function verifyFederatedSignIn({ idToken, expiresIn, cookieHeader }: FederatedPost): Promise<SsoIdentity> {
  const config = getConfig();
  const settings = cognitoSettings(config);

  if (typeof idToken !== "string" || idToken.length === 0) throw new SsoError("no id_token posted");
  if (idToken.length > MAX_TOKEN_CHARS) throw new SsoError("id_token too large");
  const seconds = typeof expiresIn === "string" && /^\d{1,6}$/.test(expiresIn) ? Number(expiresIn) : NaN;
  if (!(seconds > 0 && seconds <= MAX_EXPIRES_IN_SECONDS)) throw new SsoError("expires_in missing or out of range");

  let payload: Awaited<ReturnType<ReturnType<typeof createVerifier>["verify"]>>;
  try {
    payload = await getVerifier(settings).verify(idToken);
  } catch (error) {
    throw new SsoError("id_token not valid", { cause: error });
  }

  const expected = await nonceCookie().parse(cookieHeader);
  if (typeof expected !== "string" || expected.length === 0)
    throw new SsoError("no sign-in in progress in this browser (nonce cookie missing)");
  if (payload.nonce !== expected) throw new SsoError("id_token nonce does not match this browser's sign-in");

  const email = toVerifiedEmail(payload.email);
  if (!email) throw new SsoError("id_token has no usable email claim");
  // The e-mail is the account: one the identity provider has not verified could be anyone's. Cognito writes
  // attributes mapped from a federated IdP as text, so "true" counts as true.
  const emailVerified: unknown = payload.email_verified;
  if (emailVerified !== true && emailVerified !== "true") {
    throw new SsoError("id_token email_verified is not true", { userMessage: messages.ssoEmailNotVerified });
  }

  const tokenEnd = payload.exp * 1000;
  const postedEnd = Date.now() + seconds * 1000;
  return { email, sessionNotOnOrAfter: new Date(Math.min(tokenEnd, postedEnd)) };
}
