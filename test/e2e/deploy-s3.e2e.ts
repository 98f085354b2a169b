import { readFileSync } from "node:fs";
import { MongoClient } from "mongodb";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { jobTexts, messages, uploadScreenTexts } from "~/messages";
import { tempDir } from "../deploy/stack";
import { startS3rverProcess, stopS3rverProcess } from "../s3/s3rver";
import { launchChromium, type RunningApp, type RunningBrowser, startApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * The production build on an S3-compatible store (s3rver, path-style, no object tags) in Chromium: the browser
 * uploads straight to the bucket with presigned URLs and downloads through presigned GETs, with JavaScript and
 * without it. The CSP built from S3_PUBLIC_ENDPOINT must let all of it through: a blocked request shows up as a
 * console error, which fails the test, and a blocked redirect as a missing download.
 */

const BUCKET = "journey-uploads";
// Browsers upload from the portal's origin: the bucket allows PUT and exposes ETag (multipart completion).
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

let s3: { endpoint: string; close: () => Promise<void> };
let app: RunningApp;
let chromium: RunningBrowser;
let dataDir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  const dir = tempDir("portal-e2e-s3rver-");
  const server = await startS3rverProcess(0, dir.dir, BUCKET, [CORS]);
  s3 = {
    endpoint: `http://127.0.0.1:${server.port}`,
    close: async () => {
      await stopS3rverProcess(server.child);
      dir.remove();
    },
  };
  dataDir = tempDir("portal-e2e-s3-data-");
  app = await startApp({
    env: {
      DATA_DIR: dataDir.dir,
      STORAGE: "s3",
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: "1",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    },
  });
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  await app?.stop();
  await s3?.close();
  dataDir?.remove();
});

/** A fresh context (JavaScript on or off) whose console errors (CSP refusals among them) fail the test. */
async function withPage(javaScriptEnabled: boolean, run: (page: Page) => Promise<void>): Promise<void> {
  const context = await chromium.browser.newContext({
    baseURL: app.baseURL,
    locale: "pt-BR",
    acceptDownloads: true,
    javaScriptEnabled,
  });
  const problems: string[] = [];
  try {
    const page = await context.newPage();
    // A CSP refusal is reported on the console even with scripts off.
    page.on(
      "console",
      (message) =>
        message.type() === "error" && problems.push(`console.error: ${message.text()} (${message.location().url})`),
    );
    page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
    await run(page);
  } finally {
    await context.close();
  }
  expect(problems).toEqual([]);
}

const CHANNEL_CSV = "cnpj;description;channel_siop\n11.222.333/0001-81;Loja S3;WHOLESALES\n";
const csv = (name: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(CHANNEL_CSV, "utf8") });

async function fileRecord(app: RunningApp, originalName: string) {
  const client = new MongoClient(app.mongoUri);
  try {
    await client.connect();
    return await client.db(app.databaseName).collection("files").findOne({ originalName });
  } finally {
    await client.close();
  }
}

test("with JavaScript: the browser uploads to the bucket with a presigned PUT and downloads with a presigned GET", () =>
  withPage(true, async (page) => {
    await signIn(page, app.baseURL, "gold@demo.local");
    const csp = (await page.request.get("/captura/manual")).headers()["content-security-policy"];
    expect(csp).toContain(`connect-src 'self' ${s3.endpoint}`);
    expect(csp).toMatch(new RegExp(`form-action 'self'[^;]* ${s3.endpoint.replace(/[.:/]/g, "\\$&")}`));

    await page.goto("/captura/manual");
    const puts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().startsWith(s3.endpoint)) puts.push(request.url());
    });
    await page.getByLabel(uploadScreenTexts.pick, { exact: true }).setInputFiles([csv("canal_s3_js.csv")]);
    await page.locator('tr[data-upload-name="canal_s3_js.csv"]').locator("text=Finalizado").waitFor();
    expect(puts).toHaveLength(1);
    expect(new URL(puts[0]).pathname).toMatch(new RegExp(`^/${BUCKET}/\\d{4}/\\d{2}/`));
    expect(await fileRecord(app, "canal_s3_js.csv")).toMatchObject({ bucket: BUCKET, user: "gold@demo.local" });

    await page.goto("/repo/format");
    await page.getByRole("heading", { level: 1, name: jobTexts.filesTitle }).waitFor();
    const row = page.locator("main table tbody tr").filter({ hasText: "canal_s3_js.csv" });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("button", { name: jobTexts.downloadOf("canal_s3_js.csv") }).click(),
    ]);
    expect(download.url().startsWith(`${s3.endpoint}/${BUCKET}/`)).toBe(true);
    expect(download.suggestedFilename()).toBe("canal_s3_js.csv");
    expect(readFileSync(await download.path(), "utf8")).toBe(CHANNEL_CSV);
  }));

test("without JavaScript: the form streams through the server to the bucket, and the download form redirects to the presigned GET", async () => {
  let cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>> = [];
  await withPage(true, async (page) => {
    await signIn(page, app.baseURL, "gold@demo.local");
    cookies = await page.context().cookies();
  });
  await withPage(false, async (tab) => {
    await tab.context().addCookies(cookies);
    await tab.goto("/captura/manual");
    await tab.getByLabel(uploadScreenTexts.pick, { exact: true }).setInputFiles([csv("canal_s3_sem_js.csv")]);
    await Promise.all([
      tab.waitForURL((url) => url.pathname === "/captura/manual"),
      tab.getByRole("button", { name: uploadScreenTexts.send }).click(),
    ]);
    await tab.getByText(messages.uploaded(["canal_s3_sem_js.csv"])).waitFor();
    expect(await fileRecord(app, "canal_s3_sem_js.csv")).toMatchObject({ bucket: BUCKET });

    await tab.goto("/repo/format");
    const row = tab.locator("main table tbody tr").filter({ hasText: "canal_s3_sem_js.csv" });
    const [download] = await Promise.all([
      tab.waitForEvent("download"),
      row.getByRole("button", { name: jobTexts.downloadOf("canal_s3_sem_js.csv") }).click(),
    ]);
    expect(download.url().startsWith(`${s3.endpoint}/${BUCKET}/`)).toBe(true);
    expect(readFileSync(await download.path(), "utf8")).toBe(CHANNEL_CSV);
  });
});
