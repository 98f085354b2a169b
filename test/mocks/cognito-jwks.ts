import crypto from "node:crypto";
import { HttpResponse, http } from "msw";

/**
 * The public JWKS of Cognito user pools, as served at
 * https://cognito-idp.{region}.amazonaws.com/{userPoolId}/.well-known/jwks.json,
 * plus a signing key and a JWT signer so tests can issue ID tokens the way Cognito does (RS256).
 */

const published = new Map<string, object[]>();

/** Makes a pool's JWKS answer with these public keys (replacing earlier ones). */
export function publishJwks(region: string, userPoolId: string, keys: object[]) {
  published.set(`${region}/${userPoolId}`, keys);
}

const JWKS_URL = /^https:\/\/cognito-idp\.([a-z0-9-]+)\.amazonaws\.com\/([A-Za-z0-9_-]+)\/\.well-known\/jwks\.json$/;

export const cognitoJwksHandlers = [
  http.get(JWKS_URL, ({ request }) => {
    const [, region, userPoolId] = JWKS_URL.exec(request.url) ?? [];
    const keys = published.get(`${region}/${userPoolId}`);
    if (!keys) {
      // What Cognito answers for a pool that does not exist.
      return HttpResponse.json({ message: `User pool ${userPoolId} does not exist.` }, { status: 404 });
    }
    return HttpResponse.json({ keys });
  }),
];

export type TestSigningKey = { kid: string; privateKey: crypto.KeyObject; jwk: object };

/** A fresh RSA key pair and its public JWK as Cognito publishes it (kid, alg RS256, use sig). */
export function createTestSigningKey(kid = crypto.randomUUID()): TestSigningKey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
  return { kid, privateKey, jwk };
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

/** A compact RS256 JWT signed with the given key. */
export function signJwt(key: Pick<TestSigningKey, "kid" | "privateKey">, payload: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: "RS256", kid: key.kid, typ: "JWT" }));
  const body = base64url(JSON.stringify(payload));
  const signature = crypto.createSign("RSA-SHA256").update(`${header}.${body}`).sign(key.privateKey);
  return `${header}.${body}.${base64url(signature)}`;
}

/** The claims of a Cognito ID token for a federated user; override any of them. */
export function cognitoIdTokenClaims(options: {
  region: string;
  userPoolId: string;
  clientId: string;
  email: string;
  nonce?: string;
  lifetimeSeconds?: number;
  overrides?: Record<string, unknown>;
}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: crypto.randomUUID(),
    aud: options.clientId,
    email: options.email,
    // As the pool's attribute mapping for the IdP must set it: the portal refuses an unverified e-mail.
    email_verified: true,
    token_use: "id",
    auth_time: now,
    iss: `https://cognito-idp.${options.region}.amazonaws.com/${options.userPoolId}`,
    "cognito:username": `corp_${options.email}`,
    identities: [
      {
        providerName: "corp",
        providerType: "SAML",
        userId: options.email,
        primary: "true",
        dateCreated: String(now * 1000),
      },
    ],
    iat: now,
    exp: now + (options.lifetimeSeconds ?? 3600),
    ...(options.nonce ? { nonce: options.nonce } : {}),
    ...options.overrides,
  };
}
