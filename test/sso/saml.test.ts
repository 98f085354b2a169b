import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { closeDb, getDb } from "~/db.server";
import { indexes, SAML_ASSERTIONS, SAML_REQUESTS } from "~/models/saml-requests.server";
import {
  authenticateSaml,
  getSamlMetadata,
  getSamlStrategy,
  SAML_REQUEST_COOKIE,
  SAML_REQUEST_TTL_MS,
  samlRequestCookieSecurity,
} from "~/services/sso/saml.server";
import { getSsoEntry, SsoError } from "~/services/sso/sso.server";
import { useTestDatabase } from "../db";
import {
  encryptAssertion,
  IDP_CERT,
  IDP_SSO_URL,
  issueResponse,
  OTHER_IDP_CERT,
  OTHER_IDP_KEY,
  postToAcs,
  receiveAuthnRequest,
  SP_CERT,
  SP_KEY,
  toSamlResponse,
} from "./test-idp";

useTestDatabase();

const ORIGIN = "https://portal.test";
const ACS = `${ORIGIN}/saml`;
const SP_ENTITY_ID = `${ORIGIN}/saml/metadata`;

beforeAll(async () => {
  vi.stubEnv("NODE_ENV", "test");
  vi.stubEnv("APP_ORIGIN", ORIGIN);
  vi.stubEnv("COMPANY_NAME", "Acme");
  vi.stubEnv("SSO_MODE", "saml");
  vi.stubEnv("SAML_IDP_ENTRY_POINT", IDP_SSO_URL);
  vi.stubEnv("SAML_IDP_CERT", IDP_CERT);
  // As an .env file would carry it: one line, "\n" escaped.
  vi.stubEnv("SAML_SP_PRIVATE_KEY", SP_KEY.replace(/\n/g, "\\n"));
  vi.stubEnv("SAML_SP_CERT", SP_CERT);
  resetConfigForTests();
  const db = await getDb();
  for (const index of indexes) await db.collection(index.collection).createIndex(index.key, index.options);
});

afterAll(async () => {
  await closeDb();
  vi.unstubAllEnvs();
  resetConfigForTests();
});

/** Starts a sign-in the way the login button does and returns what the IdP receives. */
async function startSignIn(redirectTo?: string) {
  const url = new URL(`${ORIGIN}/saml/login`);
  if (redirectTo) url.searchParams.set("redirectTo", redirectTo);
  const thrown = await authenticateSaml(new Request(url)).then(
    () => {
      throw new Error("expected a redirect");
    },
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  expect(location.startsWith(`${IDP_SSO_URL}?`)).toBe(true);
  // The request cookie of the browser that started it: name=value, as that browser sends it back.
  const cookie =
    response.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${SAML_REQUEST_COOKIE}=`))
      ?.split(";")[0] ?? null;
  return { ...receiveAuthnRequest(location), cookie, setCookie: response.headers.getSetCookie() };
}

async function refusal(request: Request): Promise<SsoError> {
  const error = await authenticateSaml(request).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsoError);
  return error as SsoError;
}

describe("SAML sign-in", () => {
  it("offers the company's button on the login page", () => {
    expect(getSsoEntry()).toEqual({ label: "Acme Entrar", href: "/saml/login" });
  });

  it("sends a signed AuthnRequest whose signature covers SAMLRequest, RelayState and SigAlg", async () => {
    const received = await startSignIn("/ij/painel/3");
    expect(received.signatureValid).toBe(true);
    expect(received.sigAlg).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    expect(received.relayState).toBe("/ij/painel/3");
    expect(received.issuer).toBe(SP_ENTITY_ID);
    expect(received.acsUrl).toBe(ACS);
    expect(received.xml).toContain("urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress");
    // The request is remembered in the shared database, so any container can accept the answer.
    const db = await getDb();
    expect(await db.collection(SAML_REQUESTS).countDocuments({ _id: received.id as never })).toBe(1);

    // Changing the RelayState breaks the signature: it is part of the signed octets.
    const url = await getSamlStrategy().authorizeUrl("/a");
    expect(receiveAuthnRequest(url).signatureValid).toBe(true);
    expect(receiveAuthnRequest(url.replace("RelayState=%2Fa", "RelayState=%2Fb")).signatureValid).toBe(false);
  });

  it("never sends an off-site return path through the IdP", async () => {
    expect((await startSignIn("//evil.test/x")).relayState).toBe("/");
    expect((await startSignIn("https://evil.test/")).relayState).toBe("/");
  });

  it("signs in with a valid signed response to an outstanding request and returns the e-mail", async () => {
    const request = await startSignIn("/user/config");
    const sessionEnd = new Date(Date.now() + 60 * 60 * 1000);
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "Ana.Souza@Acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
      sessionNotOnOrAfter: sessionEnd,
    });
    const result = await authenticateSaml(
      postToAcs(ACS, { SAMLResponse: samlResponse, RelayState: request.relayState! }, request.cookie),
    );
    expect(result.identity.email).toBe("ana.souza@acme.test");
    expect(result.identity.sessionNotOnOrAfter?.toISOString()).toBe(sessionEnd.toISOString());
    expect(result.returnTo).toBe("/user/config");
    // The request ID answered once is gone.
    const db = await getDb();
    expect(await db.collection(SAML_REQUESTS).countDocuments({ _id: request.id as never })).toBe(0);
  });

  it("accepts a signed assertion the IdP encrypted to the SP certificate", async () => {
    const request = await startSignIn();
    const { xml } = issueResponse({
      inResponseTo: request.id,
      email: "enc@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    const encrypted = await encryptAssertion(xml);
    expect(encrypted).toContain("EncryptedAssertion");
    expect(encrypted).not.toContain("enc@acme.test");
    const result = await authenticateSaml(postToAcs(ACS, { SAMLResponse: toSamlResponse(encrypted) }, request.cookie));
    expect(result.identity.email).toBe("enc@acme.test");
  });

  it("reads the e-mail from an email attribute when the NameID is not an e-mail", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "opaque-id-123",
      nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      attributes: { email: "bruno@acme.test" },
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    const result = await authenticateSaml(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    expect(result.identity.email).toBe("bruno@acme.test");
  });

  it("refuses a response without any e-mail", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "opaque-id-123",
      nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    expect(error.message).toBe("Não foi possível entrar com o login corporativo. Tente novamente.");
    expect(error.reason).toMatch(/no usable e-mail/);
  });

  it("refuses the same response posted a second time", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "carla@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    await expect(
      authenticateSaml(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie)),
    ).resolves.toMatchObject({
      identity: { email: "carla@acme.test" },
    });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    expect(error.reason).toMatch(/assertion not valid/);
    expect(String((error.cause as Error).message)).toMatch(/InResponseTo is not valid/);
  });

  it("refuses a used assertion even if its request were still outstanding", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "cris@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    await authenticateSaml(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    // Put the answered request back, as a second container racing on it could have seen it:
    // the assertion ID record alone must stop the replay.
    const db = await getDb();
    await db.collection(SAML_REQUESTS).insertOne({
      _id: request.id as never,
      value: new Date().toISOString(),
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    expect(error.reason).toMatch(/already used/);
  });

  it("accepts a response only once even when two copies arrive at the same time", async () => {
    const request = await startSignIn();
    const { samlResponse, assertionId } = issueResponse({
      inResponseTo: request.id,
      email: "davi@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    const outcomes = await Promise.allSettled([
      authenticateSaml(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie)),
      authenticateSaml(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie)),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(rejected?.reason).toBeInstanceOf(SsoError);
    const db = await getDb();
    const used = await db.collection(SAML_ASSERTIONS).findOne({ _id: assertionId as never });
    expect(used).toMatchObject({ email: "davi@acme.test" });
    expect((used!.expiresAt as Date).getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses an unsolicited response (unknown InResponseTo)", async () => {
    // Posted by a browser that did start a sign-in, so the refusal is the IdP answer's own.
    const { cookie } = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: "_never-requested-by-us",
      email: "eva@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, cookie));
    expect(String((error.cause as Error).message)).toMatch(/InResponseTo is not valid/);
  });

  it("refuses an IdP-initiated response that answers no request", async () => {
    const { cookie } = await startSignIn();
    const { samlResponse } = issueResponse({ email: "eva@acme.test", audience: SP_ENTITY_ID, acsUrl: ACS });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, cookie));
    expect(String((error.cause as Error).message)).toMatch(/InResponseTo is missing/);
  });

  it("refuses a response whose signed assertion was altered", async () => {
    const request = await startSignIn();
    const { xml } = issueResponse({
      inResponseTo: request.id,
      email: "fabio@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    });
    const tampered = xml.replace("fabio@acme.test</saml:NameID>", "admin@acme.test</saml:NameID>");
    expect(tampered).not.toBe(xml);
    const error = await refusal(postToAcs(ACS, { SAMLResponse: toSamlResponse(tampered) }, request.cookie));
    expect(String((error.cause as Error).message)).toMatch(/Invalid signature/);
  });

  it("refuses a response signed by a key the portal does not trust", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "gabi@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
      signingKey: OTHER_IDP_KEY,
      signingCert: OTHER_IDP_CERT,
    });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    expect(String((error.cause as Error).message)).toMatch(/Invalid signature/);
  });

  it("refuses an assertion meant for another service provider", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "hugo@acme.test",
      audience: "https://other-sp.test/metadata",
      acsUrl: ACS,
    });
    const error = await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
    expect(String((error.cause as Error).message)).toMatch(/audience mismatch/);
  });

  it("refuses an expired assertion", async () => {
    const request = await startSignIn();
    const { samlResponse } = issueResponse({
      inResponseTo: request.id,
      email: "iris@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
      validForMs: -5 * 60_000,
    });
    await refusal(postToAcs(ACS, { SAMLResponse: samlResponse }, request.cookie));
  });

  it("answers garbage and empty posts with a refusal, not a crash", async () => {
    const { cookie } = await startSignIn();
    expect((await refusal(postToAcs(ACS, {}, cookie))).reason).toMatch(/no SAMLResponse/);
    expect((await refusal(postToAcs(ACS, { SAMLResponse: "not base64 xml <<<" }, cookie))).reason).toMatch(/not valid/);
    expect((await refusal(postToAcs(ACS, { SAMLResponse: toSamlResponse("<a>") }, cookie))).reason).toMatch(
      /not valid/,
    );
  });

  it("binds the request to the browser with a short-lived, signed, HttpOnly, SameSite=None; Secure cookie on /saml", async () => {
    const request = await startSignIn();
    const header = request.setCookie.find((c) => c.startsWith(`${SAML_REQUEST_COOKIE}=`));
    expect(header).toBeDefined();
    const attributes = header!.split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["path=/saml", "httponly", "secure", "samesite=none"]));
    const maxAge = Number(attributes.find((a) => a.startsWith("max-age="))?.slice("max-age=".length));
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(SAML_REQUEST_TTL_MS / 1000);
    // Signed: the value is not the bare request ID.
    expect(request.cookie).not.toContain(request.id);
  });

  it("refuses a response obtained in one browser when another browser posts it (login CSRF)", async () => {
    // The attacker starts a sign-in in their browser and signs in at the IdP; the victim's browser has a sign-in
    // of its own in progress (or none) when the attacker makes it post the attacker's response.
    const attacker = await startSignIn();
    const victim = await startSignIn();
    const forAttacker = () =>
      issueResponse({ inResponseTo: attacker.id, email: "attacker@acme.test", audience: SP_ENTITY_ID, acsUrl: ACS })
        .samlResponse;

    const inVictimsBrowser = await refusal(postToAcs(ACS, { SAMLResponse: forAttacker() }, victim.cookie));
    expect(inVictimsBrowser.reason).toMatch(/another browser/);
    expect(inVictimsBrowser.message).toBe("Não foi possível entrar com o login corporativo. Tente novamente.");

    const attacker2 = await startSignIn();
    const withoutCookie = await refusal(
      postToAcs(ACS, {
        SAMLResponse: issueResponse({
          inResponseTo: attacker2.id,
          email: "attacker@acme.test",
          audience: SP_ENTITY_ID,
          acsUrl: ACS,
        }).samlResponse,
      }),
    );
    expect(withoutCookie.reason).toMatch(/no sign-in in progress in this browser/);

    // A cookie made without the session secret (the bare request ID, base64 as Remix encodes values) is not accepted.
    const attacker3 = await startSignIn();
    const forged = `${SAML_REQUEST_COOKIE}=${Buffer.from(JSON.stringify(attacker3.id)).toString("base64")}`;
    const withForgedCookie = await refusal(
      postToAcs(
        ACS,
        {
          SAMLResponse: issueResponse({
            inResponseTo: attacker3.id,
            email: "attacker@acme.test",
            audience: SP_ENTITY_ID,
            acsUrl: ACS,
          }).samlResponse,
        },
        forged,
      ),
    );
    expect(withForgedCookie.reason).toMatch(/no sign-in in progress in this browser/);

    // The victim's own sign-in still completes in the victim's browser.
    const own = issueResponse({
      inResponseTo: victim.id,
      email: "victim@acme.test",
      audience: SP_ENTITY_ID,
      acsUrl: ACS,
    }).samlResponse;
    await expect(authenticateSaml(postToAcs(ACS, { SAMLResponse: own }, victim.cookie))).resolves.toMatchObject({
      identity: { email: "victim@acme.test" },
    });
  });

  it("marks the cookie Secure with SameSite=None where browsers keep it (https, loopback), else Lax without Secure", () => {
    expect(samlRequestCookieSecurity("https://portal.example.com")).toEqual({ secure: true, sameSite: "none" });
    expect(samlRequestCookieSecurity("http://localhost:3000")).toEqual({ secure: true, sameSite: "none" });
    expect(samlRequestCookieSecurity("http://127.0.0.1:3000")).toEqual({ secure: true, sameSite: "none" });
    expect(samlRequestCookieSecurity("http://[::1]:3000")).toEqual({ secure: true, sameSite: "none" });
    expect(samlRequestCookieSecurity("http://10.0.0.5:3000")).toEqual({ secure: false, sameSite: "lax" });
    expect(samlRequestCookieSecurity("http://localhost.evil.test")).toEqual({ secure: false, sameSite: "lax" });
  });

  it("serves SP metadata with the entity ID, the assertion consumer and the signing certificate", () => {
    const xml = getSamlMetadata();
    expect(xml).toContain(`entityID="${SP_ENTITY_ID}"`);
    expect(xml).toContain(`Location="${ACS}"`);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('use="signing"');
    expect(xml).toContain('use="encryption"');
    const certBody = SP_CERT.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
    expect(xml.replace(/\s+/g, "")).toContain(certBody);
  });
});
