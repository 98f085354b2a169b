import { inflateRawSync } from "node:zlib";
import { type Profile, SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { type Cookie, createCookie, createMemorySessionStorage, redirect, type SessionStorage } from "@remix-run/node";
import { type AuthenticateOptions, AuthorizationError, Strategy, type StrategyVerifyCallback } from "remix-auth";
import { type Config, getConfig } from "~/config.server";
import { createSamlRequestCache, recordAssertionUse } from "~/models/saml-requests.server";
import { SsoError, type SsoIdentity, safeReturnPath, toVerifiedEmail } from "./sso.server";

/**
 * SAML 2.0 single sign-on as a remix-auth 3 strategy on @node-saml/node-saml.
 * - GET: starts the sign-in with a signed AuthnRequest (HTTP-Redirect binding: the signature covers
 *   SAMLRequest, RelayState and SigAlg).
 * - POST: the assertion consumer. The assertion must be signed by the configured IdP certificate,
 *   answer an AuthnRequest we sent (InResponseTo, kept in MongoDB) from this very browser (the signed request
 *   cookie set with the redirect to the IdP) and not have been used before. Without the browser binding, a response
 *   the IdP gave an attacker could be posted from a victim's browser and sign the victim in as the attacker.
 */

/** How long the user may take at the IdP between our AuthnRequest and its answer. */
export const SAML_REQUEST_TTL_MS = 30 * 60 * 1000;
/** Tolerated clock difference between the IdP and our containers. */
export const SAML_CLOCK_SKEW_MS = 60 * 1000;
/** The cookie that binds an AuthnRequest to the browser that asked for it (its ID, signed). */
export const SAML_REQUEST_COOKIE = "jp_saml_request";
/** Generous for a signed response with a few attributes; anything bigger is refused unparsed. */
const MAX_SAML_RESPONSE_CHARS = 512 * 1024;

const EMAIL_NAME_ID_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
/** Attribute names IdPs use for the e-mail when the NameID is not one (Entra ID, ADFS, generic). */
const EMAIL_ATTRIBUTES = [
  "email",
  "mail",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
];

export type SamlSettings = {
  entryPoint: string;
  /** Our entity ID, also the audience the assertion must name. */
  issuer: string;
  /** The assertion consumer service URL (`{origin}/saml`). */
  callbackUrl: string;
  /** One or more trusted IdP signing certificates (PEM or bare base64). */
  idpCerts: string[];
  spPrivateKey: string;
  spCert: string;
};

export type SamlVerifyParams = {
  identity: SsoIdentity;
  /** A same-site path carried through the IdP in RelayState, if any. */
  returnTo?: string;
  profile: Profile;
  request: Request;
};

/** Environment values often carry PEM line breaks as the two characters "\n". */
function pemFromEnv(value: string): string {
  return value.replace(/\\n/g, "\n").trim();
}

/** SAML_IDP_CERT may hold several PEM certificates (during an IdP key rollover). */
export function splitCertificates(value: string): string[] {
  const text = pemFromEnv(value);
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  return pems && pems.length > 0 ? pems : [text];
}

export function samlSettingsFrom(config: Config): SamlSettings {
  const { saml } = config.sso;
  if (!saml.idpEntryPoint || !saml.idpCert || !saml.spPrivateKey || !saml.spCert) {
    throw new Error(
      "SAML is not configured: SAML_IDP_ENTRY_POINT, SAML_IDP_CERT, SAML_SP_PRIVATE_KEY and SAML_SP_CERT are required",
    );
  }
  return {
    entryPoint: saml.idpEntryPoint,
    issuer: saml.spEntityId,
    callbackUrl: `${config.origin}/saml`,
    idpCerts: splitCertificates(saml.idpCert),
    spPrivateKey: pemFromEnv(saml.spPrivateKey),
    spCert: pemFromEnv(saml.spCert),
  };
}

/**
 * The IdP answers with a cross-site POST, which carries only a `SameSite=None` cookie, and browsers keep such a
 * cookie only when it is `Secure`. A Secure cookie is stored over https, and over plain http on loopback
 * (localhost, 127.0.0.0/8, [::1]: development, demos, browser tests). On any other plain-http origin a browser would
 * drop it, so there it is Lax without Secure: stored, but not sent with the IdP's POST, so SAML sign-in is refused
 * there (fail closed) rather than left unbound. Production runs behind https.
 */
export function samlRequestCookieSecurity(origin: string): { secure: boolean; sameSite: "none" | "lax" } {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return { secure: false, sameSite: "lax" };
  }
  const host = url.hostname;
  const loopback = host === "localhost" || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
  const keptWhenSecure = url.protocol === "https:" || (url.protocol === "http:" && loopback);
  return keptWhenSecure ? { secure: true, sameSite: "none" } : { secure: false, sameSite: "lax" };
}

export function samlRequestCookie(config: Config): Cookie {
  return createCookie(SAML_REQUEST_COOKIE, {
    path: "/saml",
    httpOnly: true,
    ...samlRequestCookieSecurity(config.origin),
    secrets: [config.session.secret],
    // As long as the request ID itself is honoured.
    maxAge: SAML_REQUEST_TTL_MS / 1000,
  });
}

/** The ID of the AuthnRequest inside an HTTP-Redirect URL we built (SAMLRequest: deflated, base64). */
export function authnRequestIdOf(url: string): string {
  const encoded = new URL(url).searchParams.get("SAMLRequest") ?? "";
  const xml = inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
  const id = /<(?:\w+:)?AuthnRequest\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error("the AuthnRequest has no ID");
  return id;
}

export function createSaml(settings: SamlSettings): SAML {
  return new SAML({
    entryPoint: settings.entryPoint,
    issuer: settings.issuer,
    audience: settings.issuer,
    callbackUrl: settings.callbackUrl,
    // The IdP certificate is configuration, read once; nothing is fetched per request.
    idpCert: settings.idpCerts.length === 1 ? settings.idpCerts[0] : settings.idpCerts,
    privateKey: settings.spPrivateKey,
    publicCert: settings.spCert,
    // The same key pair decrypts assertions an IdP chooses to encrypt to our metadata's certificate.
    decryptionPvk: settings.spPrivateKey,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    // Many IdPs sign only the assertion; the assertion signature is what we require.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // Let the IdP choose how the user authenticates (MFA, passwordless…): an exact
    // PasswordProtectedTransport request makes some IdPs refuse stronger methods.
    disableRequestedAuthnContext: true,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    cacheProvider: createSamlRequestCache(SAML_REQUEST_TTL_MS),
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
  });
}

type XmlJsNode = { $?: Record<string, string | undefined>; [child: string]: unknown };

function firstChild(node: XmlJsNode | undefined, name: string): XmlJsNode | undefined {
  const children = node?.[name];
  return Array.isArray(children) ? (children[0] as XmlJsNode | undefined) : undefined;
}

function parseInstant(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The facts of the validated assertion we need beyond node-saml's profile. */
function assertionFacts(profile: Profile) {
  const parsed = profile.getAssertion?.() as { Assertion?: XmlJsNode } | undefined;
  const assertion = parsed?.Assertion;
  const id = assertion?.$?.ID;
  const conditionsEnd = parseInstant(firstChild(assertion, "Conditions")?.$?.NotOnOrAfter);
  const confirmationEnds = ((firstChild(assertion, "Subject")?.SubjectConfirmation as XmlJsNode[] | undefined) ?? [])
    .map((c) => parseInstant(firstChild(c, "SubjectConfirmationData")?.$?.NotOnOrAfter))
    .filter((d): d is Date => d !== undefined);
  const sessionEnd = parseInstant(firstChild(assertion, "AuthnStatement")?.$?.SessionNotOnOrAfter);
  const ends = [conditionsEnd, ...confirmationEnds].filter((d): d is Date => d !== undefined);
  const validUntil = ends.length > 0 ? new Date(Math.max(...ends.map((d) => d.getTime()))) : undefined;
  return { id, validUntil, sessionEnd };
}

/** The e-mail of the signed-in user: an emailAddress NameID, else an e-mail attribute. */
export function emailFromProfile(profile: Profile): string | null {
  if (profile.nameIDFormat === EMAIL_NAME_ID_FORMAT) {
    const fromNameId = toVerifiedEmail(profile.nameID);
    if (fromNameId) return fromNameId;
  }
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const name of EMAIL_ATTRIBUTES) {
    const found = toVerifiedEmail(attributes[name] ?? profile[name]);
    if (found) return found;
  }
  return null;
}

export class SamlStrategy<User> extends Strategy<User, SamlVerifyParams> {
  name = "saml";

  constructor(
    public readonly saml: SAML,
    verify: StrategyVerifyCallback<User, SamlVerifyParams>,
    /** Binds each AuthnRequest to the browser that started it (samlRequestCookie). */
    private readonly requestCookie: Cookie,
  ) {
    super(verify);
  }

  async authenticate(request: Request, sessionStorage: SessionStorage, options: AuthenticateOptions): Promise<User> {
    if (request.method === "GET" || request.method === "HEAD") {
      const returnTo = safeReturnPath(new URL(request.url).searchParams.get("redirectTo"));
      // Only characters every URL encoder writes alike, so an IdP that verifies the signature over
      // the raw query string sees exactly the octets we signed.
      const relayState = returnTo && /^[A-Za-z0-9/_.=&%?-]+$/.test(returnTo) ? returnTo : "/";
      const url = await this.authorizeUrl(relayState);
      throw redirect(url, {
        headers: {
          "Set-Cookie": await this.requestCookie.serialize(authnRequestIdOf(url)),
          "Cache-Control": "no-store",
        },
      });
    }
    let identity: SsoIdentity;
    let profile: Profile;
    let returnTo: string | undefined;
    try {
      ({ identity, profile, returnTo } = await this.consume(request));
    } catch (error) {
      // A refusal is the user's answer; anything else (database down…) is a server fault, a 500.
      if (!(error instanceof SsoError)) throw error;
      return this.failure(error.message, request, sessionStorage, options, error);
    }
    const user = await this.verify({ identity, profile, returnTo, request });
    return this.success(user, request, sessionStorage, options);
  }

  /** The IdP address with a signed AuthnRequest; RelayState carries the return path. */
  authorizeUrl(relayState: string): Promise<string> {
    return this.saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** Validates a posted SAMLResponse; throws SsoError when it must be refused. */
  async consume(request: Request): Promise<{ identity: SsoIdentity; profile: Profile; returnTo?: string }> {
    const form = await request.formData().catch(() => null);
    const samlResponse = form?.get("SAMLResponse");
    if (typeof samlResponse !== "string" || samlResponse.length === 0)
      throw new SsoError("no SAMLResponse in the form");
    if (samlResponse.length > MAX_SAML_RESPONSE_CHARS) throw new SsoError("SAMLResponse too large");
    // Checked before the response is even parsed: a browser that started no sign-in accepts none.
    const expectedRequestId = await this.requestCookie.parse(request.headers.get("Cookie"));
    if (typeof expectedRequestId !== "string" || expectedRequestId.length === 0) {
      throw new SsoError("no sign-in in progress in this browser (request cookie missing)");
    }

    let result: Awaited<ReturnType<SAML["validatePostResponseAsync"]>>;
    try {
      result = await this.saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    } catch (error) {
      throw new SsoError("assertion not valid", { cause: error });
    }
    const profile = result.profile;
    if (!profile || result.loggedOut) throw new SsoError("response carries no sign-in");
    // node-saml checked InResponseTo against the shared cache (and consumed it); it must also be this browser's.
    if (profile.inResponseTo !== expectedRequestId) {
      throw new SsoError("response answers a sign-in started in another browser (InResponseTo is not this browser's)");
    }

    const email = emailFromProfile(profile);
    if (!email) throw new SsoError("assertion has no usable e-mail (NameID emailAddress or email attribute)");

    const facts = assertionFacts(profile);
    if (!facts.id) throw new SsoError("assertion has no ID");
    const keepUntil = new Date((facts.validUntil?.getTime() ?? Date.now() + SAML_REQUEST_TTL_MS) + SAML_CLOCK_SKEW_MS);
    if (!(await recordAssertionUse(facts.id, email, keepUntil))) throw new SsoError("assertion already used (replay)");

    return {
      identity: { email, ...(facts.sessionEnd ? { sessionNotOnOrAfter: facts.sessionEnd } : {}) },
      profile,
      returnTo: safeReturnPath(form?.get("RelayState")),
    };
  }

  /** SP metadata for the IdP administrator: entity ID, ACS URL, our signing and encryption certificate. */
  metadata(spCert: string): string {
    return this.saml.generateServiceProviderMetadata(spCert, spCert);
  }
}

let cached: { config: Config; strategy: SamlStrategy<SamlVerifyParams> } | undefined;

/**
 * The configured strategy, built once per configuration. Its verify callback returns the verified
 * parameters unchanged: the route completes the sign-in like the password login does.
 */
export function getSamlStrategy(): SamlStrategy<SamlVerifyParams> {
  const config = getConfig();
  if (cached?.config !== config) {
    const saml = createSaml(samlSettingsFrom(config));
    const strategy = new SamlStrategy(saml, async (params) => params, samlRequestCookie(config));
    cached = { config, strategy };
  }
  return cached.strategy;
}

export function getSamlMetadata(): string {
  const config = getConfig();
  return getSamlStrategy().metadata(samlSettingsFrom(config).spCert);
}

/** The Set-Cookie header that forgets this browser's request once a response was handled (accepted or refused). */
export async function clearSamlRequest(): Promise<string> {
  return samlRequestCookie(getConfig()).serialize("", { maxAge: 0 });
}

/**
 * Our sessions live in MongoDB (app/platform/auth/session.server.ts), not in remix-auth's session storage: the
 * strategy runs without success/failure redirects, so this storage is never written.
 */
const unusedSessionStorage = createMemorySessionStorage({
  cookie: { name: "jp_saml_unused", secrets: [crypto.randomUUID()], httpOnly: true, sameSite: "lax" },
});

/**
 * GET: throws the redirect to the IdP. POST: returns the verified identity or throws SsoError.
 */
export async function authenticateSaml(request: Request): Promise<SamlVerifyParams> {
  try {
    return await getSamlStrategy().authenticate(request, unusedSessionStorage, {
      name: "saml",
      sessionKey: "user",
      sessionErrorKey: "auth:error",
      sessionStrategyKey: "strategy",
      throwOnError: true,
    });
  } catch (error) {
    if (error instanceof AuthorizationError) {
      throw error.cause instanceof SsoError ? error.cause : new SsoError(error.message, { cause: error.cause });
    }
    throw error;
  }
}
