import crypto from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page, Request as PwRequest, Route } from "playwright-core";
import { expect } from "vitest";
import { jobTexts, messages, uploadScreenTexts } from "~/messages";
import { NAV_LABELS } from "~/navigation";
import { withDb } from "./database";
import { test as base, openCheckedPage, withoutJavaScript } from "./fixtures";
import { signIn } from "./sign-in";

/**
 * Uploads end to end, on the embedded default (local store, in-process worker): upload as a USER BRONZE
 * (progress, a failed transfer retried, a cancelled and a removed file, duplicates refused), the jobs
 * reaching Completed with their counts on /captura/processando (polling, no reload; one that refused rows is Completed
 * with them beside the word), a failed job retried;
 * then as USER GOLD the NOK rows' errors, every job on /jobs/executados and a download from /repo/format;
 * and the plain form upload without JavaScript. Tests run in order and share the app.
 */

/**
 * The worker's browser and a server with a quick worker and this file's upload limit (test/e2e/fixtures.ts), and a
 * watched page that tolerates Chromium's "Failed to load resource" for the requests this file makes fail on purpose
 * (an aborted or refused /api/upload, a download or retry the server refuses with 4xx). Anything else fails the test,
 * as in the shared fixture.
 */
const test = base.extend<{ page: Page }>({
  page: async ({ app, browser }, use) => {
    // /api/upload fails on purpose here (aborted, held, a 500 with COD.3), and so do the refused downloads and retries.
    const checked = await openCheckedPage(browser, app, {
      acceptDownloads: true,
      onPurpose: (url, status) => url.pathname === "/api/upload" || (url.pathname.endsWith(".data") && status < 500),
    });
    await use(checked.page);
    await checked.close();
  },
});
test.scoped({
  appEnv: { WORKER_POLL_MS: "200", WORKER_PROGRESS_MS: "200", UPLOAD_MAX_BYTES: String(4 * 1024 * 1024) },
});

// ---------------------------------------------------------------------------------------------
// Files

/** The app's per-file limit here: above the 3 MB progress file, below the file the server must refuse. */
/** The upload limit of this file's server (UPLOAD_MAX_BYTES above). */
const UPLOAD_LIMIT = 4 * 1024 * 1024;

const PRODUCT_HEADER =
  "sku;material_description;marca;category_sku;categoria_principal_sku;sub_categoria_sku;hero;abcd;plc_local;plc_global;data_validade_sku";
const GOOD_PRODUCT_ROWS = ["E2E001", "E2E002", "E2E003", "E2E004", "E2E005"].map(
  (sku, i) =>
    `${sku};Produto ${i + 1};Marca E2E;Cat;Principal;Sub;${i % 2 ? "non-hero" : "hero"};${"ABCD"[i % 4]};Local;Global;2026-12-31`,
);
/** Line 7: a sku with a dash; line 8: hero neither hero nor non-hero. */
const BAD_PRODUCT_ROWS = [
  "E2E-BAD-1;Produto ruim;Marca E2E;;;;hero;A;;;2026-12-31",
  "E2EBAD2;Produto ruim 2;Marca E2E;;;;talvez;B;;;2026-12-31",
];
const PRODUCT_NAME = "product_master_e2e.csv";
const PRODUCT_CSV = `${[PRODUCT_HEADER, ...GOOD_PRODUCT_ROWS, ...BAD_PRODUCT_ROWS].join("\n")}\n`;
const CHANNEL_NAME = "canal_e2e.csv";
// 11.222.333/0001-81 has valid check digits.
const CHANNEL_CSV = "cnpj;description;channel_siop\n11.222.333/0001-81;Loja E2E;WHOLESALES\n";
const HELD_NAME = "segurado_e2e.csv";
const REGISTRATION_FAILS_NAME = "registro_falha_e2e.csv";
const NOTES_NAME = "notas_sem_layout_e2e.txt";
/** A record the test adds, as a worker that died with it leaves a job (it never goes through the upload). */
const CRASHED_NAME = "caiu_no_meio_e2e.csv";

const csv = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") });

const uploadRow = (page: Page, name: string) => page.locator(`tr[data-upload-name="${name}"]`);
const notices = (page: Page) => page.locator(".upload-panel__notices > *");
const fileInput = (page: Page) => page.getByLabel(uploadScreenTexts.pick, { exact: true });
/** A job list row by its file's full name (the cell's text, or the tooltip of a cut name). */
const jobRow = (page: Page, name: string) =>
  page.locator("main table tbody tr").filter({ has: page.getByText(name, { exact: true }) });

async function cellTexts(row: Locator): Promise<string[]> {
  return (await row.locator("td").allInnerTexts()).map((t) => t.trim());
}

/** Drops files on the drop zone the way a browser does (a DataTransfer with File objects). */
async function dropFiles(page: Page, files: Array<{ name: string; text: string }>) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: "text/csv" }));
    return dt;
  }, files);
  const zone = page.getByTestId("upload-dropzone");
  await zone.dispatchEvent("dragenter", { dataTransfer: transfer });
  await zone.dispatchEvent("dragover", { dataTransfer: transfer });
  await zone.dispatchEvent("drop", { dataTransfer: transfer });
}

const bodyNames = (request: PwRequest) => request.postDataBuffer()?.toString("latin1") ?? "";

// ---------------------------------------------------------------------------------------------

test("a USER BRONZE uploads: progress, a failed transfer retried, cancel and remove, duplicates refused, jobs completed", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "bronze@demo.local");
  await page.goto("/captura/manual");
  await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toBe("Captura manual");

  // The network as this test wants it: the first product upload fails in transit, one upload hangs
  // until it is removed, one is answered with the server's registration failure.
  let productAttempts = 0;
  let heldRoute: Route | null = null;
  const heldAborted = new Promise<void>((resolve) =>
    page.on("requestfailed", (request) => {
      if (bodyNames(request).includes(`filename="${HELD_NAME}"`)) resolve();
    }),
  );
  await page.route("**/api/upload", async (route) => {
    const body = bodyNames(route.request());
    if (body.includes(`filename="${PRODUCT_NAME}"`) && productAttempts++ === 0) return route.abort("failed");
    if (body.includes(`filename="${HELD_NAME}"`)) {
      heldRoute = route; // never answered: the upload stays active until it is removed
      return;
    }
    if (body.includes(`filename="${REGISTRATION_FAILS_NAME}"`)) {
      return route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ ok: false, code: "COD.3", message: messages.uploadRegistrationFailed }),
      });
    }
    return route.continue();
  });

  // Two files picked together: the product master's transfer fails (COD.2), the channel file goes up.
  await fileInput(page).setInputFiles([csv(PRODUCT_NAME, PRODUCT_CSV), csv(CHANNEL_NAME, CHANNEL_CSV)]);
  await uploadRow(page, CHANNEL_NAME).locator("text=Finalizado").waitFor();
  await uploadRow(page, PRODUCT_NAME).locator("text=Erro").first().waitFor();
  expect(await cellTexts(uploadRow(page, CHANNEL_NAME))).toEqual(expect.arrayContaining(["100%"]));
  expect(await uploadRow(page, CHANNEL_NAME).locator(".upload-state").innerText()).toBe(
    uploadScreenTexts.stateFinished,
  );
  await expect(page.getByRole("alert").filter({ hasText: messages.uploadFailed }).first().isVisible()).resolves.toBe(
    true,
  );
  await page
    .getByRole("status")
    .filter({ hasText: messages.uploaded([CHANNEL_NAME]) })
    .waitFor();

  // Retry resets progress and error and sends it again.
  await page.getByRole("button", { name: uploadScreenTexts.retryOf(PRODUCT_NAME) }).click();
  await uploadRow(page, PRODUCT_NAME).locator("text=Finalizado").waitFor();
  expect(productAttempts).toBe(2);
  expect(await uploadRow(page, PRODUCT_NAME).innerText()).not.toContain(messages.uploadFailed);
  expect(await cellTexts(uploadRow(page, PRODUCT_NAME))).toEqual(expect.arrayContaining(["100%"]));

  // A name already in the list is not added again, whether picked or dropped.
  await dropFiles(page, [{ name: PRODUCT_NAME, text: PRODUCT_CSV }]);
  await page.getByText(uploadScreenTexts.duplicates([PRODUCT_NAME])).waitFor();
  expect(await uploadRow(page, PRODUCT_NAME).count()).toBe(1);

  // Removing a file that is still being sent cancels its request.
  await dropFiles(page, [{ name: HELD_NAME, text: PRODUCT_CSV }]);
  await uploadRow(page, HELD_NAME).locator("text=Ativo").waitFor();
  await expect.poll(() => heldRoute !== null).toBe(true);
  await page.getByRole("button", { name: uploadScreenTexts.removeOf(HELD_NAME) }).click();
  await heldAborted;
  expect(await uploadRow(page, HELD_NAME).count()).toBe(0);

  // A registration failure is COD.3; that file is removed from the list.
  await fileInput(page).setInputFiles([csv(REGISTRATION_FAILS_NAME, CHANNEL_CSV)]);
  await page.getByRole("alert").filter({ hasText: messages.uploadRegistrationFailed }).first().waitFor();
  const shownAt = Date.now();
  await expect(uploadRow(page, REGISTRATION_FAILS_NAME).innerText()).resolves.toContain(
    messages.uploadRegistrationFailed,
  );
  await page.getByRole("button", { name: uploadScreenTexts.removeOf(REGISTRATION_FAILS_NAME) }).click();
  expect(await uploadRow(page, REGISTRATION_FAILS_NAME).count()).toBe(0);

  // Every message hides by itself after 5 seconds (the COD.3 one was the last shown).
  expect(await notices(page).count()).toBeGreaterThan(0);
  await expect.poll(() => notices(page).count(), { timeout: 9_000, interval: 100 }).toBe(0);
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(4_000);
  await page.unroute("**/api/upload");

  // Progress of a bigger file on a slow link: the percentage and the estimate move before it finishes.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 512 * 1024,
  });
  const notes = Buffer.alloc(3 * 1024 * 1024, "uma linha de texto sem o cabeçalho de nenhum modelo\n");
  await fileInput(page).setInputFiles([{ name: NOTES_NAME, mimeType: "text/plain", buffer: notes }]);
  const seen = await page.waitForFunction(
    (name) => {
      const row = document.querySelector(`tr[data-upload-name="${name}"]`);
      const percent = Number.parseInt(row?.querySelector(".upload-table__percent")?.textContent ?? "", 10);
      const eta = row?.querySelector(".upload-table__eta")?.textContent ?? "";
      return percent > 0 && percent < 99 && /\d+ (s|min)/.test(eta) ? { percent, eta } : null;
    },
    NOTES_NAME,
    { timeout: 20_000, polling: 50 },
  );
  expect((await seen.jsonValue())?.percent).toBeGreaterThan(0);
  await uploadRow(page, NOTES_NAME).locator("text=Finalizado").waitFor({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // The list follows each sent file's job. A file without a layout is refused in words, with the job's
  // message; the accepted ones stay Finalizado with their counts (colour alone is not a status).
  await uploadRow(page, NOTES_NAME)
    .locator(".upload-state", { hasText: jobTexts.stateRefused })
    .waitFor({ timeout: 30_000 });
  expect(await uploadRow(page, NOTES_NAME).getAttribute("data-job")).toBe("refused");
  expect(await uploadRow(page, NOTES_NAME).locator(".upload-table__job").innerText()).toMatch(
    /^Layout não reconhecido/,
  );
  await uploadRow(page, CHANNEL_NAME)
    .locator(".upload-table__job", { hasText: "1 linha OK, 0 NOK" })
    .waitFor({ timeout: 30_000 });
  expect(await uploadRow(page, CHANNEL_NAME).locator(".upload-state").innerText()).toBe(
    uploadScreenTexts.stateFinished,
  );
  // The product file's job refused two rows: it ended as the others did (Finalizado), its refused rows beside it.
  await uploadRow(page, PRODUCT_NAME)
    .locator(".upload-state__refused", { hasText: jobTexts.refusedRows(2) })
    .waitFor({ timeout: 30_000 });
  expect(await uploadRow(page, PRODUCT_NAME).getAttribute("data-job")).toBe("partial");
  expect(await uploadRow(page, PRODUCT_NAME).locator(".upload-state").innerText()).toBe(
    uploadScreenTexts.stateFinished,
  );

  // Three files were registered (the cancelled one and the refused registration never reached the database).
  const registered = await withDb(app, (db) =>
    db
      .collection("files")
      .find({ user: "bronze@demo.local", originalName: { $regex: /_e2e\./ } })
      .project({ originalName: 1 })
      .toArray(),
  );
  expect(registered.map((f) => f.originalName).sort()).toEqual([CHANNEL_NAME, NOTES_NAME, PRODUCT_NAME].sort());

  // The job list follows the worker without a full reload.
  await page.getByRole("link", { name: NAV_LABELS.processing, exact: true }).first().click();
  await page.waitForURL((url) => url.pathname === "/captura/processando");
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  // Ended with two rows refused: the spec's Completed all the same, with the refused rows beside the word.
  const productState = jobRow(page, PRODUCT_NAME).locator(".job-state");
  await productState.getByText(messages.jobCompleted, { exact: true }).waitFor({ timeout: 30_000 });
  expect(await productState.locator(".job-state__refused").innerText()).toBe(jobTexts.refusedRows(2));
  expect(await page.getByText("Concluído com recusas").count()).toBe(0);
  await jobRow(page, CHANNEL_NAME).getByText(messages.jobCompleted, { exact: true }).waitFor({ timeout: 30_000 });
  expect(await jobRow(page, CHANNEL_NAME).locator(".job-state__refused").count()).toBe(0);
  // A refused file's state says so in words, not "Completed" with a red icon.
  await jobRow(page, NOTES_NAME).getByText(jobTexts.stateRefused, { exact: true }).waitFor({ timeout: 30_000 });
  expect(await jobRow(page, NOTES_NAME).getByText(messages.jobCompleted, { exact: true }).count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // The counts, the truncated name with its full text, the icons with their text alternatives.
  const product = jobRow(page, PRODUCT_NAME);
  expect(await product.innerText()).toContain("5 linhas OK, 2 NOK");
  expect(await product.locator(".job-name .tooltip-anchor__text").innerText()).toBe("product_master_...");
  expect(await product.getByRole("img", { name: jobTexts.iconPartial }).count()).toBe(1);
  expect(await jobRow(page, CHANNEL_NAME).getByRole("img", { name: jobTexts.iconSuccess }).count()).toBe(1);
  expect(await jobRow(page, CHANNEL_NAME).innerText()).toContain("1 linha OK, 0 NOK");
  // The uploader, who may not open /repo/master-data, downloads the product file's NOK rows.
  const productId = String(
    (await withDb(app, (db) => db.collection("files").findOne({ originalName: PRODUCT_NAME })))?._id,
  );
  const nokLink = product.getByRole("link", { name: jobTexts.nokRowsDownloadOf(PRODUCT_NAME) });
  expect(await nokLink.getAttribute("href")).toBe(`/captura/processando/nok/${productId}`);
  // What to do about the job is in view at 1366 px, without scrolling the table sideways.
  await page.setViewportSize({ width: 1366, height: 768 });
  const linkBox = await nokLink.boundingBox();
  expect(linkBox!.x + linkBox!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  const [nokDownload] = await Promise.all([page.waitForEvent("download"), nokLink.click()]);
  const nokCsv = readFileSync(await nokDownload.path(), "utf8");
  expect(nokCsv).toContain("7;E2E-BAD-1;Produto ruim;Marca E2E");
  expect(nokCsv).toContain("8;E2EBAD2;");
  expect(await jobRow(page, CHANNEL_NAME).locator(".job-name").innerText()).toBe(CHANNEL_NAME);

  // The layout-less text file was refused: error icon, its long message cut to 42 + dots with a tooltip, and no
  // Retry (the same file would be refused again).
  const notesRow = jobRow(page, NOTES_NAME);
  expect(await notesRow.getByRole("img", { name: jobTexts.iconError }).count()).toBe(1);
  expect(await notesRow.getByRole("button", { name: `${jobTexts.retry}: ${NOTES_NAME}` }).count()).toBe(0);
  const fullMessage = (await withDb(app, (db) => db.collection("files").findOne({ originalName: NOTES_NAME })))
    ?.message as string;
  expect(fullMessage.length).toBeGreaterThan(45);
  const cutMessage = notesRow.locator(".job-message .tooltip-anchor__text");
  expect(await cutMessage.innerText()).toBe(`${Array.from(fullMessage).slice(0, 42).join("")}...`);
  const tooltipId = await cutMessage.getAttribute("aria-describedby");
  const tooltip = page.locator(`[id="${tooltipId}"]`);
  expect(await tooltip.getAttribute("role")).toBe("tooltip");
  expect(await tooltip.isVisible()).toBe(false);
  await cutMessage.focus();
  await tooltip.waitFor({ state: "visible" });
  expect(await tooltip.innerText()).toBe(fullMessage);

  // A job given up after its worker died says Falhou and offers Retry: the owner sends it back, and the worker
  // (alive now) imports it. A stored channel file whose job record is as a crash leaves it.
  const crashKey = `2030/05/${crypto.randomUUID()}.csv`;
  mkdirSync(path.dirname(path.join(app.dataDir, "uploads", crashKey)), { recursive: true });
  writeFileSync(path.join(app.dataDir, "uploads", crashKey), CHANNEL_CSV.replace("Loja E2E", "Loja E2E refeita"));
  await withDb(app, (db) =>
    db.collection("files").insertOne({
      originalName: CRASHED_NAME,
      originalFile: crashKey,
      bucket: "local",
      user: "bronze@demo.local",
      clientName: "journey",
      statusChangeDate: new Date(),
      createdAt: new Date(),
      status: 3,
      progress: 100,
      retryable: true,
      message:
        "Processamento interrompido: a tentativa anterior não terminou (o processamento pode ter caído com este arquivo).",
      agent: "worker@e2e",
      leaseUntil: null,
      attempts: 2,
    }),
  );
  // The list polls only while a job runs: a reload shows the record.
  await page.reload();
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const crashedRow = jobRow(page, CRASHED_NAME);
  await crashedRow.getByText(jobTexts.stateFailed, { exact: true }).waitFor({ timeout: 10_000 });
  await crashedRow.getByRole("button", { name: `${jobTexts.retry}: ${CRASHED_NAME}` }).click();
  await page.getByText(jobTexts.retryQueued).waitFor();
  await expect
    .poll(
      async () => {
        const now = await withDb(app, (db) => db.collection("files").findOne({ originalName: CRASHED_NAME }));
        return now && now.retryCount === 1 && now.progress === 100 ? now.message : null;
      },
      { timeout: 30_000 },
    )
    .toBe("1 linha OK, 0 NOK");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // Only this user's jobs are listed here, newest status change first.
  const users = await withDb(app, (db) => db.collection("files").distinct("user", {}));
  expect(users.length).toBeGreaterThan(1);
  expect(await page.locator("main table thead th").allInnerTexts()).not.toContain(jobTexts.columnUser);
  const own = await withDb(app, (db) => db.collection("files").countDocuments({ user: "bronze@demo.local" }));
  await page.getByText(new RegExp(`^1–${Math.min(20, own)} / ${own}$`)).waitFor();
  // With the suite's other files beside it on two cores, it comes close to the default budget (60 s).
}, 180_000);

test("a USER GOLD sees every job, the NOK rows' errors and downloads from /repo/format", async ({ page, app }) => {
  await signIn(page, app.baseURL, "gold@demo.local");

  // /jobs/executados: everyone's jobs with the user column; bad paging parameters fall back to 1 and 20.
  const response = await page.goto("/jobs/executados?page=abc&pageSize=33");
  expect(response?.status()).toBe(200);
  const total = await withDb(app, (db) => db.collection("files").countDocuments());
  await page.getByText(new RegExp(`^1–20 / ${total}$`)).waitFor();
  expect(await page.locator("main table tbody tr").count()).toBe(20);
  expect(await page.locator("main table thead th").allInnerTexts()).toContain(jobTexts.columnUser);
  await page.getByLabel(messages.itemsPerPage).selectOption("40");
  await page.waitForURL((url) => url.searchParams.get("pageSize") === "40");
  await page.getByText(new RegExp(`^1–${Math.min(40, total)} / ${total}$`)).waitFor();
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "2" && url.searchParams.get("pageSize") === "40");
  await page.getByText(/^41–/).waitFor();
  // The newest are on page 1: the bronze uploads are there, and gold may not retry bronze's failed job.
  await page.goto("/jobs/executados");
  const notesRow = jobRow(page, NOTES_NAME);
  await notesRow.waitFor();
  expect(await notesRow.innerText()).toContain("bronze@demo.local");
  expect(await notesRow.getByRole("button", { name: new RegExp(jobTexts.retry) }).count()).toBe(0);
  // Both lists say the same of a job that refused rows: Completed, its refused rows beside it.
  const productState = jobRow(page, PRODUCT_NAME).locator(".job-state");
  expect(await productState.getByText(messages.jobCompleted, { exact: true }).count()).toBe(1);
  expect(await productState.locator(".job-state__refused").innerText()).toBe(jobTexts.refusedRows(2));

  // The product master's NOK rows carry the line, the column, the value and the rule; newest first, on page 1.
  await page.goto("/repo/master-data/planejamento?tab=quantity_nok");
  const badRow = page.locator("main table tbody tr").filter({ hasText: "E2E-BAD-1" });
  await badRow.waitFor();
  expect(await badRow.innerText()).toMatch(/7[\s\S]*Coluna sku: valor "E2E-BAD-1" inválido/);
  const heroRow = page.locator("main table tbody tr").filter({ hasText: "E2EBAD2" });
  expect(await heroRow.innerText()).toMatch(/8[\s\S]*Coluna hero: valor "talvez" inválido/);

  // /repo/format: download the uploaded product master under its original name.
  await page.goto("/repo/format");
  await page.getByRole("heading", { level: 1, name: jobTexts.filesTitle }).waitFor();
  const productRow = page.locator("main table tbody tr").filter({ hasText: PRODUCT_NAME });
  expect(await productRow.innerText()).toContain("bronze@demo.local");
  expect(await productRow.innerText()).toMatch(
    /\d{1,2} (jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez) \d{4} \d{1,2}:\d{2}/,
  );
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    productRow.getByRole("button", { name: jobTexts.downloadOf(PRODUCT_NAME) }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(PRODUCT_NAME);
  const saved = await download.path();
  expect(readFileSync(saved, "utf8")).toBe(PRODUCT_CSV);
  expect(new URL(page.url()).pathname).toBe("/repo/format");

  // A seeded record whose bytes are not in the store: the spec's download error.
  const seeded = await withDb(app, (db) =>
    db
      .collection("files")
      .find({ originalName: { $not: /_e2e\./ } })
      .sort({ statusChangeDate: -1, _id: -1 })
      .limit(1)
      .next(),
  );
  // Its bytes removed from the store (the next file's reset puts them back).
  rmSync(path.join(app.dataDir, "uploads", String(seeded?.originalFile)), { force: true });
  const seededRow = page
    .locator(`main table tbody tr`)
    .filter({ hasText: seeded?.originalName as string })
    .first();
  await seededRow.getByRole("button", { name: jobTexts.downloadOf(seeded?.originalName as string) }).click();
  await page.getByRole("alert").filter({ hasText: messages.downloadFailed }).waitFor();
});

test("without JavaScript the plain form uploads and comes back with a message; /captura/automacao is a heading", async ({
  page,
  app,
  browser,
}) => {
  await signIn(page, app.baseURL, "silver@demo.local");
  await page.goto("/captura/automacao");
  expect((await page.locator("main h1").allInnerTexts()).map((t) => t.trim())).toEqual(["Captura automática"]);
  expect(await page.locator("main table, main form, main p").count()).toBe(0);
  const cookies = await page.context().cookies();
  await withoutJavaScript(browser, app, async (plain) => {
    await plain.context().addCookies(cookies);
    await plain.goto("/captura/manual");
    await plain.getByLabel(uploadScreenTexts.pick, { exact: true }).setInputFiles([csv("sem_js_e2e.csv", CHANNEL_CSV)]);
    await Promise.all([
      plain.waitForURL((url) => url.pathname === "/captura/manual"),
      plain.getByRole("button", { name: uploadScreenTexts.send }).click(),
    ]);
    const success = plain.getByText(messages.uploaded(["sem_js_e2e.csv"]));
    await success.waitFor();
    const file = await withDb(app, (db) => db.collection("files").findOne({ originalName: "sem_js_e2e.csv" }));
    expect(file).toMatchObject({ user: "silver@demo.local", bucket: "local" });
    // The message hides by itself after 5 s without JavaScript: CSS hides it, nothing removes it.
    await success.waitFor({ state: "hidden", timeout: 10_000 });
    expect(await success.count()).toBe(1);

    // Several files in one post, together over one file's limit is fine: each file is checked on its own.
    const several = ["sem_js_1_e2e.csv", "sem_js_2_e2e.csv", "sem_js_3_e2e.csv"].map((name) => csv(name, CHANNEL_CSV));
    await plain.getByLabel(uploadScreenTexts.pick, { exact: true }).setInputFiles(several);
    await Promise.all([
      plain.waitForURL((url) => url.pathname === "/captura/manual"),
      plain.getByRole("button", { name: uploadScreenTexts.send }).click(),
    ]);
    await plain.getByText(messages.uploaded(several.map((f) => f.name))).waitFor();
    expect(
      await withDb(app, (db) =>
        db.collection("files").countDocuments({ originalName: { $in: several.map((f) => f.name) } }),
      ),
    ).toBe(3);

    // A refused extension comes back with COD.2, which hides after 5 s as well.
    await plain
      .getByLabel(uploadScreenTexts.pick, { exact: true })
      .setInputFiles([{ name: "imagem.png", mimeType: "image/png", buffer: Buffer.from("png") }]);
    await Promise.all([
      plain.waitForURL((url) => url.searchParams.get("error") === "COD.2"),
      plain.getByRole("button", { name: uploadScreenTexts.send }).click(),
    ]);
    const failure = plain.getByText(messages.uploadFailed);
    await failure.waitFor();
    await failure.waitFor({ state: "hidden", timeout: 10_000 });
    expect(await failure.count()).toBe(1);
  });
});

test("the server's own refusals reach the user: COD.2 when the store refuses the bytes, COD.3 when the registration is refused, with and without JavaScript", async ({
  page,
  app,
  browser,
}) => {
  const tooBig = {
    name: "grande_demais_e2e.csv",
    mimeType: "text/csv",
    buffer: Buffer.alloc(UPLOAD_LIMIT + 512 * 1024, "a;b\n"),
  };
  const refusedName = "registro_recusado_e2e.csv";
  // The database refuses any new registration of this name (a unique index over a record that already has it; descending,
  // since the portal's own index on originalName is ascending):
  // the bytes arrive, the registration fails, exactly what COD.3 reports.
  await withDb(app, async (db) => {
    await db.collection("files").insertOne({
      originalName: refusedName,
      originalFile: "2020/01/00000000-0000-4000-8000-000000000000.csv",
      bucket: "local",
      user: "x@demo.local",
      statusChangeDate: new Date(0),
      createdAt: new Date(0),
      status: 0,
      progress: 100,
      message: "",
      agent: "",
      leaseUntil: null,
      attempts: 0,
    });
    await db
      .collection("files")
      .createIndex(
        { originalName: -1 },
        { name: "e2e_refuse_registration", unique: true, partialFilterExpression: { originalName: refusedName } },
      );
  });
  try {
    await signIn(page, app.baseURL, "silver@demo.local");
    await page.goto("/captura/manual");
    await fileInput(page).setInputFiles([tooBig]);
    await uploadRow(page, tooBig.name).locator("text=Erro").first().waitFor();
    expect(await uploadRow(page, tooBig.name).innerText()).toContain(messages.uploadFailed);
    await page.getByRole("alert").filter({ hasText: messages.uploadFailed }).first().waitFor();

    await fileInput(page).setInputFiles([csv(refusedName, CHANNEL_CSV)]);
    await uploadRow(page, refusedName).locator("text=Erro").first().waitFor();
    expect(await uploadRow(page, refusedName).innerText()).toContain(messages.uploadRegistrationFailed);
    await page.getByRole("alert").filter({ hasText: messages.uploadRegistrationFailed }).first().waitFor();

    const cookies = await page.context().cookies();
    await withoutJavaScript(browser, app, async (plain) => {
      await plain.context().addCookies(cookies);
      await plain.goto("/captura/manual");
      await plain.getByLabel(uploadScreenTexts.pick, { exact: true }).setInputFiles([tooBig]);
      await Promise.all([
        plain.waitForURL((url) => url.searchParams.get("error") === "COD.2"),
        plain.getByRole("button", { name: uploadScreenTexts.send }).click(),
      ]);
      await plain.getByRole("alert").filter({ hasText: messages.uploadFailed }).waitFor();

      await plain.getByLabel(uploadScreenTexts.pick, { exact: true }).setInputFiles([csv(refusedName, CHANNEL_CSV)]);
      await Promise.all([
        plain.waitForURL((url) => url.searchParams.get("error") === "COD.3"),
        plain.getByRole("button", { name: uploadScreenTexts.send }).click(),
      ]);
      await plain.getByRole("alert").filter({ hasText: messages.uploadRegistrationFailed }).waitFor();
    });
    // Neither refused file became a job.
    expect(
      await withDb(app, (db) =>
        db.collection("files").countDocuments({ originalName: { $in: [tooBig.name, refusedName] } }),
      ),
    ).toBe(1);
  } finally {
    await withDb(app, (db) => db.collection("files").dropIndex("e2e_refuse_registration"));
  }
  // With the suite's other files beside it on two cores, it has run past the default budget (60 s).
}, 180_000);
