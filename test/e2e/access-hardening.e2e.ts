import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { type Db, MongoClient } from "mongodb";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { messages } from "~/messages";
import { type SamlifyIdp, startSamlifyIdp } from "../sso/samlify-idp";
import { IDP_CERT, SP_CERT, SP_KEY } from "../sso/test-idp";
import { launchChromium, type RunningApp, type RunningBrowser, startApp } from "./harness";
import { DEMO_PASSWORD, signIn } from "./sign-in";

/**
 * Access hardening as people meet it: sessions that end when an admin or a reset changes the account (two browser
 * contexts), sign-in at localhost and 127.0.0.1, behind a proxy that rewrites Host, a cross-origin POST, Back
 * after Logout, a client that spoofs X-Forwarded-For, and SAML single sign-on against a real IdP (samlify) on
 * another site, whose POST to /saml is cross-site as in production.
 */

let chromium: RunningBrowser;
beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
});

/** A fresh context whose console errors (other than expected 4xx loads) fail the test at `check()`. */
async function contextFor(browser: Browser, baseURL: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL, locale: "pt-BR", javaScriptEnabled });
  const problems: string[] = [];
  context.on("page", (page) => watch(page, problems));
  return {
    context,
    newPage: async () => context.newPage(),
    check: () => expect(problems).toEqual([]),
  };
}

function watch(page: Page, problems: string[]) {
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
}

async function database(app: RunningApp): Promise<{ db: Db; close: () => Promise<void> }> {
  const client = await new MongoClient(app.mongoUri).connect();
  return { db: client.db(app.databaseName), close: () => client.close() };
}

async function expectExpiredModal(page: Page) {
  const dialog = page.getByRole("dialog", { name: messages.sessionExpiredTitle });
  await dialog.waitFor();
  expect(await dialog.getByText(messages.sessionExpired).isVisible()).toBe(true);
}

const localhostOf = (app: RunningApp) => app.baseURL.replace("127.0.0.1", "localhost");

describe("one portal, default configuration (APP_ORIGIN unset: localhost)", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ env: { APP_ORIGIN: "" } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  test("signs in at localhost and at 127.0.0.1 alike, with and without JavaScript", async () => {
    for (const base of [localhostOf(app), app.baseURL]) {
      for (const javaScriptEnabled of [true, false]) {
        const { context, newPage, check } = await contextFor(chromium.browser, base, javaScriptEnabled);
        const page = await newPage();
        await page.goto("/");
        await page.getByLabel(messages.emailLabel, { exact: true }).fill("silver@demo.local");
        await page.getByLabel(messages.passwordLabel, { exact: true }).fill(DEMO_PASSWORD);
        await page.getByRole("button", { name: messages.loginButton, exact: true }).click();
        await page.waitForURL((url) => url.pathname === "/captura/manual");
        expect(await page.getByRole("heading", { level: 1 }).count()).toBeGreaterThan(0);
        expect(await page.locator("body").textContent()).not.toContain(messages.serverErrorTitle);
        check();
        await context.close();
      }
    }
  });

  test("a form posted from another site gets a 403 page in Portuguese, never a 500, and changes nothing", async () => {
    const { db, close } = await database(app);
    try {
      const before = await db.collection("user_permissions").countDocuments();
      for (const target of ["/?index", "/user/config", "/user/config.data", "/saml"]) {
        const response = await fetch(`${app.baseURL}${target}`, {
          method: "POST",
          headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
          body: "intent=create&email=x%40evil.example",
          redirect: "manual",
        });
        expect(response.status, target).toBe(403);
        expect(response.headers.get("content-type")).toMatch(/^text\/html/);
        const page = await response.text();
        expect(page).toContain('lang="pt-BR"');
        expect(page).toContain(messages.crossOriginRefused);
      }
      expect(await db.collection("user_permissions").countDocuments()).toBe(before);
    } finally {
      await close();
    }
  });

  test("an invalid Host and a legacy ?_data request answer 400 pages, not 500", async () => {
    const raw = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = new net.Socket();
        let text = "";
        socket.connect(Number(new URL(app.baseURL).port), "127.0.0.1", () => socket.write(head));
        socket.on("data", (c: Buffer) => (text += c.toString("latin1")));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
    expect(await raw("GET /home HTTP/1.1\r\nHost: bad host!\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    const legacy = await fetch(`${app.baseURL}/captura/automacao?_data=routes%2Fcaptura.automacao`);
    expect(legacy.status).toBe(400);
    expect(await legacy.text()).toContain(messages.legacyDataRequest);
  });

  test("Back after Logout shows the sign-in page, not the page that was open", async () => {
    const { context, newPage, check } = await contextFor(chromium.browser, app.baseURL);
    const page = await newPage();
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto("/repo/format");
    await page.getByRole("table").first().waitFor();
    const protectedPage = await page.request.get("/repo/format");
    expect(protectedPage.headers()["cache-control"]).toBe("private, no-store");
    await page
      .getByRole("navigation", { name: messages.userMenu })
      .getByRole("button", { name: messages.menuLogout })
      .click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goBack();
    await page.waitForLoadState();
    // The browser asked the server again (nothing stored) and got sent to sign in.
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByLabel(messages.emailLabel, { exact: true }).waitFor();
    expect(await page.getByRole("table").count()).toBe(0);
    check();
    await context.close();
  });

  test("an admin's tier change and a password reset end the user's other sessions at once (two contexts)", async () => {
    // Context A: the user. Context B: the permission admin, then an anonymous reset by code.
    const a = await contextFor(chromium.browser, app.baseURL);
    const b = await contextFor(chromium.browser, app.baseURL);
    const user = await a.newPage();
    await signIn(user, app.baseURL, "explorer@demo.local");
    expect(new URL(user.url()).pathname).toBe("/ij/explorer");

    const admin = await b.newPage();
    await signIn(admin, app.baseURL, "permiss@demo.local");
    const { db, close } = await database(app);
    try {
      const rank = (
        await db
          .collection("user_permissions")
          .find({}, { projection: { user: 1 } })
          .sort({ user: 1 })
          .toArray()
      ).findIndex((r) => r.user === "explorer@demo.local");
      await admin.goto(`/user/permission?page=${Math.floor(rank / 20) + 1}`);
      const row = admin
        .getByRole("row")
        .filter({ has: admin.getByRole("cell", { name: "explorer@demo.local", exact: true }) });
      await row.getByRole("button", { name: "Padrão", exact: true }).click();
      await admin
        .getByRole("dialog", { name: messages.permissionConfirmTitle })
        .getByRole("button", { name: messages.confirm })
        .click();
      await admin.getByRole("status").filter({ hasText: messages.permissionAssigned }).waitFor();

      // The user's next request: the session is gone, the modal asks to sign in again.
      await user.goto("/ij/explorer");
      await expectExpiredModal(user);
      // Signing in again gives the new tier's landing.
      await signIn(user, app.baseURL, "explorer@demo.local");
      expect(new URL(user.url()).pathname).toBe("/captura/manual");

      // A reset by code from another browser (not signed in) ends this session too.
      const c = await contextFor(chromium.browser, app.baseURL);
      const resetter = await c.newPage();
      await resetter.goto("/?forgot=1");
      const dialog = resetter.getByRole("dialog", { name: messages.forgotPasswordTitle });
      await dialog.getByLabel(messages.registrationEmailLabel).fill("explorer@demo.local");
      await dialog.getByRole("button", { name: messages.send }).click();
      await resetter.getByText(messages.recoveryEmailSent).waitFor();
      const [mail] = await db
        .collection("mail_outbox")
        .find({ to: "explorer@demo.local" })
        .sort({ createdAt: -1 })
        .limit(1)
        .toArray();
      const code = /código: ([0-9A-HJKMNP-TV-Z]{26})/.exec(String(mail?.text))?.[1];
      await resetter.goto(`/recovery/${code}`);
      await resetter.getByLabel(messages.emailLabel, { exact: true }).fill("explorer@demo.local");
      await resetter.getByLabel(messages.newPasswordLabel, { exact: true }).fill("Trocada#2026");
      await resetter.getByLabel(messages.confirmPasswordLabel, { exact: true }).fill("Trocada#2026");
      await resetter.getByRole("button", { name: messages.resetPassword }).click();
      await resetter.getByRole("dialog").getByText(messages.passwordAccepted).waitFor();
      c.check();
      await c.context.close();

      await user.goto("/captura/manual");
      await expectExpiredModal(user);
      await signIn(user, app.baseURL, "explorer@demo.local", "Trocada#2026");
      expect(new URL(user.url()).pathname).toBe("/captura/manual");
    } finally {
      await close();
    }
    a.check();
    b.check();
    await a.context.close();
    await b.context.close();
  });

  test("a client that writes X-Forwarded-For itself cannot escape the sign-in limit (TRUST_PROXY unset)", async () => {
    const attempt = (forwardedFor: string) =>
      fetch(`${app.baseURL}/?index`, {
        method: "POST",
        headers: {
          Origin: app.baseURL,
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-For": forwardedFor,
        },
        body: new URLSearchParams({ intent: "signIn", email: "gold@demo.local", password: "errada-1234" }),
        redirect: "manual",
      });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await attempt(`198.51.100.${i + 1}`);
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      await response.text();
    }
    // LOGIN_MAX_FAILURES is 5: the sixth attempt is refused whatever address the client claims.
    expect(statuses.slice(0, 5).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    // Even the right password now waits: the limit is per account as well as per address.
    const blocked = await fetch(`${app.baseURL}/?index`, {
      method: "POST",
      headers: {
        Origin: app.baseURL,
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-For": "203.0.113.9",
      },
      body: new URLSearchParams({ intent: "signIn", email: "gold@demo.local", password: DEMO_PASSWORD }),
      redirect: "manual",
    });
    expect(blocked.status).toBe(429);
  });
});

/** A reverse proxy that rewrites Host to the app's internal address, as a load balancer does. */
async function hostRewritingProxy(target: URL, options: { forwardHeaders: boolean }) {
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
    if (options.forwardHeaders) {
      headers["x-forwarded-host"] = req.headers.host;
      headers["x-forwarded-proto"] = "http";
      headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("behind a proxy that rewrites Host", () => {
  test("with TRUST_PROXY=1 the forwarded host is the portal's origin: sign-in and forms work; without trust they are refused with 403, not 500", async () => {
    for (const trust of ["1", "0"]) {
      const app = await startApp({ env: { APP_ORIGIN: "", TRUST_PROXY: trust } });
      const proxy = await hostRewritingProxy(new URL(app.baseURL), { forwardHeaders: true });
      try {
        const { context, newPage } = await contextFor(chromium.browser, proxy.origin);
        const page = await newPage();
        await page.goto("/");
        await page.getByLabel(messages.emailLabel, { exact: true }).fill("gold@demo.local");
        await page.getByLabel(messages.passwordLabel, { exact: true }).fill(DEMO_PASSWORD);
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === "POST"),
          page.getByRole("button", { name: messages.loginButton, exact: true }).click(),
        ]);
        if (trust === "1") {
          await page.waitForURL((url) => url.pathname !== "/");
          expect(new URL(page.url()).origin).toBe(proxy.origin);
          await page.getByRole("navigation", { name: messages.userMenu }).waitFor();
        } else {
          expect(response.status()).toBe(403);
        }
        await context.close();
      } finally {
        await proxy.close();
        await app.stop();
      }
    }
  });
});

describe("SAML single sign-on against a real IdP on another site", () => {
  let app: RunningApp;
  let idp: SamlifyIdp;
  let base: string;
  beforeAll(async () => {
    idp = await startSamlifyIdp();
    app = await startApp({
      env: {
        APP_ORIGIN: "",
        SSO_MODE: "saml",
        SAML_IDP_ENTRY_POINT: idp.entryPoint,
        SAML_IDP_CERT: IDP_CERT,
        SAML_SP_PRIVATE_KEY: SP_KEY,
        SAML_SP_CERT: SP_CERT,
      },
    });
    base = localhostOf(app);
    idp.setSpMetadataUrl(`${base}/saml/metadata`);
  });
  afterAll(async () => {
    await app?.stop();
    await idp?.stop();
  });

  async function signInAtIdp(page: Page, email: string) {
    await page.goto("/");
    await page.getByRole("link", { name: messages.ssoButton("Journey") }).click();
    await page.waitForURL((url) => url.origin === idp.origin);
    await page.getByLabel("IdP e-mail").fill(email);
    await page.getByRole("button", { name: "Sign in at the IdP" }).click();
  }

  test("the IdP's cross-site POST to /saml signs the user in and lands on the type's page; replays and altered responses get a clear page", async () => {
    const { context, newPage, check } = await contextFor(chromium.browser, base);
    const page = await newPage();
    const posts: Array<{ url: string; status: number }> = [];
    page.on("response", (r) => {
      if (r.request().method() === "POST") posts.push({ url: r.url(), status: r.status() });
    });
    await signInAtIdp(page, "gold@demo.local");
    await page.waitForURL((url) => url.origin === base && url.pathname.startsWith("/ij/painel/"));
    await page.getByRole("navigation", { name: messages.userMenu }).waitFor();
    expect(idp.requests.at(-1)?.signatureVerified).toBe(true);
    expect(posts.find((p) => p.url === `${base}/saml`)?.status).toBe(302);

    // The same response again (replay), one altered after signing, one without signatures: refused with the SSO
    // message, never a 500.
    for (const attack of ["/replay", "/tampered", "/unsigned"]) {
      const attacker = await context.newPage();
      const [answer] = await Promise.all([
        attacker.waitForResponse((r) => r.url() === `${base}/saml`),
        attacker.goto(`${idp.origin}${attack}`),
      ]);
      expect(answer.status(), attack).toBe(401);
      await attacker.getByText(messages.ssoFailed).waitFor();
      await attacker.close();
    }
    check();
    await context.close();
  });

  test("an account without a type gets CONTATE SEU ADMIN after the IdP, and no session", async () => {
    const { context, newPage } = await contextFor(chromium.browser, base);
    const page = await newPage();
    await signInAtIdp(page, "notype@demo.local");
    await page.getByText(messages.contactAdmin).waitFor();
    await page.goto("/captura/manual");
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
  });
});
