import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { closeDb, getDb } from "~/db.server";
import { messages } from "~/messages";
import { indexes } from "~/models/saml-requests.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { action as samlAction } from "~/routes/saml";
import { loader as loginLoader } from "~/routes/saml.login";
import { loader as metadataLoader } from "~/routes/saml.metadata";
import { useTestDatabase } from "../db";
import { type SamlifyIdp, startSamlifyIdp } from "./samlify-idp";
import { IDP_CERT, SP_CERT, SP_KEY } from "./test-idp";

useTestDatabase();

/**
 * SAML sign-in against the samlify IdP over HTTP, as two browsers do it, each with its own cookie jar: a response
 * the IdP issued to one browser's sign-in is refused when another browser posts it (login CSRF: the attacker signs in
 * at the IdP, keeps the SAMLResponse and makes the victim's browser post it to /saml).
 */

const ORIGIN = "https://portal.test";
const ACS = `${ORIGIN}/saml`;
const args = (request: Request) => ({ request, params: {}, context: { cspNonce: "test", requestId: "test" } });

/** A browser's cookies for the portal: what Set-Cookie stored, sent back as one Cookie header. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response | Headers) {
    const headers = response instanceof Response ? response.headers : response;
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  header(): string | null {
    return this.cookies.size === 0 ? null : [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

const decodeHtml = (text: string) => text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
const hiddenField = (html: string, name: string) => {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!found) throw new Error(`no ${name} field in: ${html.slice(0, 300)}`);
  return decodeHtml(found[1]);
};

let idp: SamlifyIdp;
let metadataServer: http.Server;

beforeAll(async () => {
  idp = await startSamlifyIdp();
  vi.stubEnv("NODE_ENV", "test");
  vi.stubEnv("APP_ORIGIN", ORIGIN);
  vi.stubEnv("COMPANY_NAME", "Acme");
  vi.stubEnv("SSO_MODE", "saml");
  vi.stubEnv("SAML_IDP_ENTRY_POINT", idp.entryPoint);
  vi.stubEnv("SAML_IDP_CERT", IDP_CERT);
  vi.stubEnv("SAML_SP_PRIVATE_KEY", SP_KEY);
  vi.stubEnv("SAML_SP_CERT", SP_CERT);
  resetConfigForTests();
  // The IdP reads our SP metadata (signing certificate, assertion consumer) from /saml/metadata.
  metadataServer = http.createServer((_req, res) => {
    void (async () => {
      const response = await metadataLoader(args(new Request(`${ORIGIN}/saml/metadata`)));
      res.writeHead(response.status, { "Content-Type": response.headers.get("Content-Type") ?? "application/xml" });
      res.end(await response.text());
    })();
  });
  await new Promise<void>((resolve) => metadataServer.listen(0, "127.0.0.1", resolve));
  idp.setSpMetadataUrl(`http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/saml/metadata`);

  const db = await getDb();
  for (const index of indexes) await db.collection(index.collection).createIndex(index.key, index.options);
  await db.collection(USER_PERMISSIONS).insertMany([
    { user: "attacker@acme.test", name: "Attacker", type: "USER ADMIN", stores: [], createdAt: new Date() },
    { user: "victim@acme.test", name: "Victim", type: "USER ADMIN", stores: [], createdAt: new Date() },
  ]);
});

afterAll(async () => {
  await closeDb();
  await new Promise<void>((resolve) => metadataServer?.close(() => resolve()));
  await idp?.stop();
  vi.unstubAllEnvs();
  resetConfigForTests();
});

/** The SSO button in `jar`'s browser, then the IdP's login as `email`: the SAMLResponse the IdP auto-posts. */
async function signInAtIdp(jar: CookieJar, email: string): Promise<{ SAMLResponse: string; RelayState: string }> {
  const start = new Request(`${ORIGIN}/saml/login`, { headers: jar.header() ? { Cookie: jar.header()! } : {} });
  const redirect = await loginLoader(args(start)).then(
    () => {
      throw new Error("expected the redirect to the IdP");
    },
    (thrown: unknown) => thrown as Response,
  );
  expect(redirect.status).toBe(302);
  jar.store(redirect);
  const loginPage = await fetch(redirect.headers.get("Location")!);
  expect(loginPage.status).toBe(200);
  const sid = hiddenField(await loginPage.text(), "sid");
  const posted = await fetch(`${idp.origin}/sso/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sid, email }).toString(),
  });
  const page = await posted.text();
  expect(page).toContain(`action="${ACS}"`);
  return { SAMLResponse: hiddenField(page, "SAMLResponse"), RelayState: hiddenField(page, "RelayState") };
}

/** The IdP's auto-posting page submitted by `jar`'s browser (a cross-site POST: the IdP's Origin). */
async function postFrom(jar: CookieJar, fields: Record<string, string>) {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: idp.origin });
  if (jar.header()) headers.set("Cookie", jar.header()!);
  const post = new Request(ACS, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
  const result = await samlAction(args(post));
  if (result instanceof Response) {
    jar.store(result);
    return { status: result.status, location: result.headers.get("Location"), body: null as unknown };
  }
  const { data: body, init } = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } };
  jar.store(new Headers(init?.headers));
  return { status: init?.status ?? 200, location: null, body };
}

describe("SAML with the samlify IdP, two browsers", () => {
  it("signs in the browser that started the sign-in", async () => {
    const browser = new CookieJar();
    const response = await signInAtIdp(browser, "victim@acme.test");
    expect(idp.requests.at(-1)?.signatureVerified).toBe(true);
    const outcome = await postFrom(browser, response);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/user/config/");
    expect(browser.has("__session")).toBe(true);
    expect(browser.has("jp_saml_request")).toBe(false);
  });

  it("refuses the attacker's response when the victim's browser posts it, and signs no one in there", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const attackerBrowser = new CookieJar();
    const victimBrowser = new CookieJar();
    // 1-2. The attacker starts /saml/login and signs in at the IdP, keeping the SAMLResponse.
    const kept = await signInAtIdp(attackerBrowser, "attacker@acme.test");

    // 3. The victim's browser posts it: without any sign-in of its own, and with one in progress.
    const noSignIn = await postFrom(victimBrowser, kept);
    expect(noSignIn.status).toBe(401);
    expect(noSignIn.body).toEqual({ error: messages.ssoFailed });
    expect(victimBrowser.has("__session")).toBe(false);

    const kept2 = await signInAtIdp(attackerBrowser, "attacker@acme.test");
    await signInAtIdp(victimBrowser, "victim@acme.test");
    const duringOwnSignIn = await postFrom(victimBrowser, kept2);
    expect(duringOwnSignIn.status).toBe(401);
    expect(duringOwnSignIn.body).toEqual({ error: messages.ssoFailed });
    expect(victimBrowser.has("__session")).toBe(false);
    const logged = warn.mock.calls.map((call) => String(call[0]));
    expect(logged).toEqual([
      expect.stringContaining("[sso:saml] sign-in refused (no sign-in in progress in this browser"),
      expect.stringContaining("[sso:saml] sign-in refused (response answers a sign-in started in another browser"),
    ]);
    warn.mockRestore();
  });
});
