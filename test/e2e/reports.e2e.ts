import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { jobTexts, messages, reportsTexts as t } from "~/messages";
import { withDb } from "./database";
import { expect, test, withoutJavaScript } from "./fixtures";
import type { RunningApp } from "./harness";
import { signIn, waitForHydration } from "./sign-in";

/**
 * The reports area as its users see it, on the seeded ledger and stored files: the report list (filters in
 * the URL, downloads byte for byte, the online viewer), financial statements (generated once, dimmed cards, a
 * failed generation), the cockpit (comments and files survive a reload), the FP&A report (tabs, row editing
 * with undo, the saved dialog), the fiscal asset modal (observations survive a reload) and the reviews chart.
 */

const storedPath = (app: RunningApp, key: string) => path.join(app.dataDir, "uploads", key);

/** Clicks `trigger` and returns the downloaded bytes. */
async function download(page: Page, trigger: () => Promise<void>): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent("download"), trigger()]);
  return readFileSync((await file.path())!);
}

const lastClosedMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

test("report list: filters in the URL, downloads byte for byte, the online viewer and a failed download", async ({
  page,
  app,
  browser,
}) => {
  const reports = await withDb(app, (db) => db.collection("reports").find({}).sort({ statusChangeDate: -1 }).toArray());
  await signIn(page, app.baseURL, "silver@demo.local");
  await page.goto("/ij/report");
  await page.getByRole("heading", { name: t.reportsTitle }).waitFor();
  // origin defaults to automatico; newest status change first
  const automatico = reports.filter((r) => r.origin === "automatico");
  await expect.poll(() => page.locator("main table tbody tr").count()).toBe(Math.min(20, automatico.length));
  expect(await page.locator("main table tbody tr").first().innerText()).toContain(automatico[0].name);

  // origin manual by the form; the URL holds it
  await page.getByLabel(t.filterOrigin).selectOption("manual");
  await page.getByRole("button", { name: t.filter }).click();
  await page.waitForURL((u) => u.searchParams.get("origin") === "manual");
  const manual = reports.filter((r) => r.origin === "manual");
  await expect.poll(() => page.locator("main table tbody tr").count()).toBe(Math.min(20, manual.length));

  // name: case- and accent-insensitive partial
  const sample = automatico[0];
  const word = (sample.name as string).split(" ")[0];
  await page.goto(`/ij/report?name=${encodeURIComponent(word.toUpperCase())}`);
  const rows = await page.locator("main table tbody tr").allInnerTexts();
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.toLowerCase().includes(word.toLowerCase()))).toBe(true);

  // download of a row = the stored bytes
  await page.goto(`/ij/report?name=${encodeURIComponent(sample.name)}`);
  const bytes = await download(page, () =>
    page
      .getByRole("button", { name: jobTexts.downloadOf(sample.name) })
      .first()
      .click(),
  );
  expect(bytes.equals(readFileSync(storedPath(app, sample.originalFile)))).toBe(true);

  // the viewer of an XLSX, a DOCX and a PDF; "open online" disabled without url
  const byExt = (ext: string) => reports.find((r) => r.url && r.originalFile.endsWith(`.${ext}`))!;
  const withoutUrl = reports.find((r) => !r.url)!;
  await page.goto(`/ij/report?origin=${withoutUrl.origin}&name=${encodeURIComponent(withoutUrl.name)}`);
  const disabledView = page
    .locator("main table tbody tr")
    .filter({ hasText: withoutUrl.name })
    .first()
    .getByRole("button", { name: new RegExp(t.openOnline) });
  expect(await disabledView.isDisabled()).toBe(true);

  const xlsx = byExt("xlsx");
  await page.goto(`/ij/report?origin=${xlsx.origin}&name=${encodeURIComponent(xlsx.name)}`);
  const [viewer] = await Promise.all([
    page.context().waitForEvent("page"),
    page
      .getByRole("link", { name: t.openOnlineOf(xlsx.name) })
      .first()
      .click(),
  ]);
  await viewer.waitForLoadState();
  expect(new URL(viewer.url()).pathname).toBe(`/ij/report/${xlsx._id}/view`);
  await viewer.locator(".viewer-sheet table").first().waitFor();
  expect(await viewer.locator(".viewer-sheet").first().innerText()).toContain("Indicador");
  await viewer.close();

  const docx = byExt("docx");
  await page.goto(`/ij/report/${docx._id}/view`);
  await page.locator("article.viewer-docx h1").waitFor();
  expect(await page.locator("article.viewer-docx table").count()).toBeGreaterThan(0);

  const pdf = byExt("pdf");
  await page.goto(`/ij/report/${pdf._id}/view`);
  const src = await page.locator("iframe.viewer-pdf").getAttribute("src");
  const inline = await page.request.get(src!);
  expect(inline.headers()["content-type"]).toBe("application/pdf");
  expect(Buffer.from(await inline.body()).equals(readFileSync(storedPath(app, pdf.originalFile)))).toBe(true);

  // a file gone from the store: the spec's alert on the page, with and without JavaScript
  const gone = automatico[1] ?? automatico[0];
  unlinkSync(storedPath(app, gone.originalFile));
  await page.goto(`/ij/report?name=${encodeURIComponent(gone.name)}`);
  await page
    .getByRole("button", { name: jobTexts.downloadOf(gone.name) })
    .first()
    .click();
  await page.getByRole("alert").filter({ hasText: messages.downloadFailed }).waitFor();
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "silver@demo.local");
    await plain.goto(`/ij/report?name=${encodeURIComponent(gone.name)}`);
    await plain
      .getByRole("button", { name: jobTexts.downloadOf(gone.name) })
      .first()
      .click();
    await plain.getByRole("alert").filter({ hasText: messages.downloadFailed }).waitFor();
    // and a file that is there downloads without JavaScript too
    await plain.goto(`/ij/report?name=${encodeURIComponent(sample.name)}`);
    const plainBytes = await download(plain, () =>
      plain
        .getByRole("button", { name: jobTexts.downloadOf(sample.name) })
        .first()
        .click(),
    );
    expect(plainBytes.equals(readFileSync(storedPath(app, sample.originalFile)))).toBe(true);
  });
});

test("financial statements: generated once from the ledger, dimmed cards, a failed generation", async ({
  page,
  app,
  browser,
}) => {
  const period = lastClosedMonth();
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/demo_financial");
  expect(await page.getByLabel(t.type).inputValue()).toBe("MONTHLY");
  await page.getByLabel(t.company).selectOption("4664");
  await page.getByLabel(t.period, { exact: true }).fill(period);
  await page.getByRole("button", { name: t.apply }).click();
  await page.waitForURL((u) => u.searchParams.get("company") === "4664" && u.searchParams.get("period") === period);
  const excel = page.getByRole("link", { name: new RegExp(t.excelCard) });
  await excel.waitFor();
  const records = await withDb(app, (db) =>
    db.collection("financial_reports").find({ businessUnitID: "4664" }).toArray(),
  );
  expect(records.map((r) => r.typeDocument).sort()).toEqual(["DOCX", "XLSX"]);

  // Apply again: served from the records, nothing regenerated
  await page.getByRole("button", { name: t.apply }).click();
  await page.waitForLoadState("networkidle");
  const again = await withDb(app, (db) =>
    db.collection("financial_reports").find({ businessUnitID: "4664" }).toArray(),
  );
  expect(again.map((r) => String(r._id)).sort()).toEqual(records.map((r) => String(r._id)).sort());

  // the Excel card opens the viewer in a new tab with the ledger's total assets
  const ledgerRows = await withDb(app, (db) =>
    db
      .collection("ledger")
      .find({ businessUnitID: "4664", month: new Date(`${period}-01T00:00:00Z`) })
      .toArray(),
  );
  const assets = ledgerRows.filter((r) => /^1\./.test(r.account)).reduce((s, r) => s + r.actual, 0);
  const [viewer] = await Promise.all([page.context().waitForEvent("page"), excel.click()]);
  await viewer.locator(".viewer-sheet table").first().waitFor();
  const text = await viewer.locator(".viewer-sheet").first().innerText();
  const cash = ledgerRows.find((r) => r.account === "1.1.01.002")!.actual as number;
  expect(text).toContain(
    cash
      .toFixed(2)
      .replace(".", ",")
      .replace(/\B(?=(\d{3})+(?!\d))/g, "."),
  );
  expect(assets).toBeGreaterThan(0);
  await viewer.close();

  // 4313: the seeded Word record has no document (dimmed), Excel is there
  await page.goto(`/ij/demo_financial?company=4313&type=MONTHLY&period=${period}`);
  await page.locator(".statement-card--disabled").filter({ hasText: t.wordCard }).waitFor();
  expect(await page.getByRole("link", { name: new RegExp(t.excelCard) }).count()).toBe(1);

  // 9311 has no ledger 20 months ago: both dimmed, nothing recorded
  const early = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 20, 1))
    .toISOString()
    .slice(0, 7);
  await page.getByLabel(t.company).selectOption("9311");
  await page.getByLabel(t.period, { exact: true }).fill(early);
  await page.getByRole("button", { name: t.apply }).click();
  await page.getByText(t.statementNoData).waitFor();
  expect(await page.locator(".statement-card--disabled").count()).toBe(2);

  // a store that refuses the write: "Ocorreu um erro." and nothing recorded
  const blocked = path.join(app.dataDir, "uploads", "documents", "financial");
  mkdirSync(blocked, { recursive: true });
  writeFileSync(path.join(blocked, "5454"), "not a folder");
  await page.getByLabel(t.company).selectOption("5454");
  await page.getByLabel(t.period, { exact: true }).fill(period);
  await page.getByRole("button", { name: t.apply }).click();
  await page.getByRole("alert").filter({ hasText: messages.genericError }).waitFor();
  expect(await withDb(app, (db) => db.collection("financial_reports").countDocuments({ businessUnitID: "5454" }))).toBe(
    0,
  );
  rmSync(path.join(blocked, "5454"));

  // without JavaScript: Apply generates and shows the cards; a bad period is refused with its message
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto("/ij/demo_financial");
    await plain.getByLabel(t.company).selectOption("5454");
    await plain.getByLabel(t.type).selectOption("ANNUAL");
    await plain.getByLabel(t.period, { exact: true }).fill(period);
    await plain.getByRole("button", { name: t.apply }).click();
    await plain.waitForURL((u) => u.searchParams.get("type") === "ANNUAL");
    expect(await plain.getByRole("link", { name: new RegExp(t.wordCard) }).count()).toBe(1);
    const response = await plain.request.post("/ij/demo_financial", {
      form: { company: "0000", type: "MONTHLY", period },
      headers: { Origin: app.baseURL },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(t.companyInvalid);
  });
});

test("cockpit: filter, balance-sheet table, expandable rows, comments and files that survive a reload", async ({
  page,
  app,
  browser,
}) => {
  const period = lastClosedMonth();
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/cockpit");
  await waitForHydration(page);
  await page.getByLabel(t.period, { exact: true }).fill(period);
  // No business unit: the portal's own message under the field, not the browser's bubble; the page stays.
  await page.getByRole("button", { name: t.generateReport }).click();
  await page.locator("#cockpit-unit-error").filter({ hasText: t.unitRequired }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/ij/cockpit");
  expect(await page.getByLabel(t.businessUnit).getAttribute("aria-invalid")).toBe("true");
  await page.getByLabel(t.businessUnit).selectOption("2236");
  // The category lists follow the report: working capital has no cash.
  await page.getByLabel(t.report).selectOption("WORKING_CAPITAL");
  await page.getByLabel(t.category1).selectOption("Current Assets");
  expect(await page.getByLabel(t.category2).locator("option").allInnerTexts()).not.toContain("Cash and Equivalents");
  await page.getByLabel(t.report).selectOption("BALANCE_SHEET");
  await page.getByLabel(t.category1).selectOption("Current Assets");
  expect(await page.getByLabel(t.category2).locator("option").allInnerTexts()).toContain("Cash and Equivalents");
  // Category 2 lists only what lies under Current Assets
  const category2 = await page.getByLabel(t.category2).locator("option").allInnerTexts();
  expect(category2).toContain("Inventories");
  expect(category2).not.toContain("Suppliers");
  await page.getByRole("button", { name: t.generateReport }).click();
  await page.waitForURL(
    (u) => u.pathname === "/ij/cockpit_preview" && u.searchParams.get("category1") === "Current Assets",
  );
  await page.getByRole("columnheader", { name: t.difAmount }).waitFor();
  const head = await page.locator("main table thead th").allInnerTexts();
  expect(head.slice(3)).toEqual([t.difAmount, t.difPercent, t.comments, t.files]);
  const account = page.locator('tr[data-row-key="1.1.03.001"]');
  expect(await account.isVisible()).toBe(true);
  await page.getByRole("button", { name: t.collapse("Inventories") }).click();
  expect(await account.isVisible()).toBe(false);
  await page.getByRole("button", { name: t.expand("Inventories") }).click();
  expect(await account.isVisible()).toBe(true);

  // a comment and a file on the Inventories account
  await account.locator("a", { hasText: t.rowDetails }).click();
  await page.getByLabel(t.commentLabel, { exact: true }).fill("Estoque alto por antecipação de compras");
  await page.getByRole("button", { name: t.saveComment }).click();
  await page.locator('tr[data-row-key="1.1.03.001"]').getByText("Estoque alto por antecipação de compras").waitFor();
  await page
    .getByLabel(t.attachFile, { exact: true })
    .setInputFiles({ name: "apoio.csv", mimeType: "text/csv", buffer: Buffer.from("a;b\n1;2\n") });
  await page.getByRole("button", { name: t.upload }).click();
  await page
    .locator('tr[data-row-key="1.1.03.001"]')
    .getByRole("button", { name: jobTexts.downloadOf("apoio.csv") })
    .waitFor();
  await page.reload();
  expect(await page.locator('tr[data-row-key="1.1.03.001"]').innerText()).toContain(
    "Estoque alto por antecipação de compras",
  );
  const bytes = await download(page, () =>
    page
      .locator('tr[data-row-key="1.1.03.001"]')
      .getByRole("button", { name: jobTexts.downloadOf("apoio.csv") })
      .click(),
  );
  expect(bytes.toString()).toBe("a;b\n1;2\n");
  // a refused format changes nothing
  await page
    .getByLabel(t.attachFile, { exact: true })
    .setInputFiles({ name: "script.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
  await page.getByRole("button", { name: t.upload }).click();
  await page.getByRole("alert").filter({ hasText: "Envie um arquivo" }).waitFor();
  expect(await withDb(app, (db) => db.collection("cockpit_files").countDocuments())).toBe(1);

  // without JavaScript: Generate report and a comment
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "sysadmin@demo.local");
    await plain.goto("/ij/cockpit");
    await plain.getByLabel(t.period, { exact: true }).fill(period);
    await plain.getByLabel(t.businessUnit).selectOption("4313");
    await plain.getByLabel(t.report).selectOption("WORKING_CAPITAL");
    await plain.getByRole("button", { name: t.generateReport }).click();
    await plain.waitForURL((u) => u.pathname === "/ij/cockpit_preview");
    expect(await plain.locator('tr[data-row-key="1.1.01.001"]').count()).toBe(0); // cash is not working capital
    await plain.locator('tr[data-row-key="2.1.01.001"]').locator("a", { hasText: t.rowDetails }).click();
    await plain.getByLabel(t.commentLabel, { exact: true }).fill("Fornecedores renegociados");
    await plain.getByRole("button", { name: t.saveComment }).click();
    await plain.locator('tr[data-row-key="2.1.01.001"]').getByText("Fornecedores renegociados").waitFor();
  });
});

test("FP&A report: Filtering / Report, tabs in the URL, row editing with undo and the saved dialog", async ({
  page,
  app,
  browser,
}) => {
  const period = lastClosedMonth();
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/report_save");
  await page.getByLabel(t.company).selectOption("2236");
  await page.getByLabel(t.period, { exact: true }).fill(period);
  await page.getByRole("button", { name: t.generateReport }).click();
  await page.waitForURL((u) => u.searchParams.get("company") === "2236");
  const responsible = await withDb(app, (db) => db.collection("fpa_responsibles").findOne({ _id: "2236" as never }));
  await page.getByText(responsible!.personResponsible).waitFor();
  expect(await page.locator(".tree-table--600").evaluate((el) => el.getBoundingClientRect().height)).toBe(600);
  expect(await page.locator("tr.tree-row--step").count()).toBeGreaterThan(0);

  const row = () => page.locator('tr[data-row-key="1.1.03.001"]');
  await row().getByRole("link", { name: t.fpaEdit }).click();
  await row().getByRole("textbox").fill("999,99");
  await row().getByRole("link", { name: t.fpaUndo }).click();
  await expect.poll(() => row().getByRole("textbox").count()).toBe(0);
  expect(await row().innerText()).not.toContain("999,99");

  await row().getByRole("link", { name: t.fpaEdit }).click();
  await row().getByRole("textbox").fill("1.234.567,89");
  await row().getByRole("button", { name: t.fpaSave }).click();
  await page.getByRole("dialog", { name: messages.editingSaved }).waitFor();
  await page.getByRole("dialog").getByRole("link", { name: messages.close }).click();
  await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
  await page.reload();
  expect(await row().innerText()).toContain("1.234.567,89");

  // Variances tab: in the URL, back returns to Current
  await page.getByRole("link", { name: t.tabVariances }).click();
  await page.waitForURL((u) => u.searchParams.get("tab") === "variances");
  // The URL changes before React renders the new tab: wait for its table, then read its whole header.
  await page.locator("main table thead th", { hasText: "rfY" }).waitFor();
  expect(await page.locator("main table thead th").allInnerTexts()).toEqual([
    "acc_description",
    "priorY",
    "rfY",
    "priorM",
    "rfM",
    "actualRF",
  ]);
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.get("tab") !== "variances");

  // a report reader without the planners' tier reads only; without JavaScript the edit and dialog work too
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "silver@demo.local");
    await plain.goto(`/ij/report_save?company=2236&period=${period}`);
    await plain.getByText(t.fpaReadOnly).waitFor();
    expect(await plain.getByRole("link", { name: t.fpaEdit }).count()).toBe(0);
    const refused = await plain.request.post(`/ij/report_save?company=2236&period=${period}`, {
      form: { intent: "save", company: "2236", period, account: "1.1.03.001", rf_n: "1" },
      headers: { Origin: app.baseURL },
    });
    expect(refused.status()).toBe(403);
  });
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto(`/ij/report_save?company=2236&period=${period}&edit=1.1.03.002`);
    await plain.getByRole("textbox").fill("42");
    await plain.getByRole("button", { name: t.fpaSave }).click();
    await plain.getByRole("dialog", { name: messages.editingSaved }).waitFor();
  });
});

test("fiscal asset: the Ativo Fiscal modal with two years, observations that survive a reload, item files", async ({
  page,
  app,
  browser,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/fiscal?company=2236");
  await page.getByRole("link", { name: t.openFiscal }).click();
  const dialog = page.getByRole("dialog", { name: t.fiscalTitle });
  await dialog.waitFor();
  const years = await dialog.locator("thead th").allInnerTexts();
  const year = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).getUTCFullYear();
  expect(years.slice(1)).toEqual([String(year), String(year - 1)]);
  await dialog.getByLabel(t.observations).fill("Créditos de ICMS em homologação");
  await dialog.getByRole("link", { name: t.cancel }).click();
  await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
  expect(await page.getByTestId("fiscal-observation").innerText()).not.toContain("homologação");
  await page.getByRole("link", { name: t.openFiscal }).click();
  await page.getByRole("dialog").getByLabel(t.observations).fill("Créditos de ICMS em homologação");
  await page.getByRole("dialog").getByRole("button", { name: t.confirm }).click();
  await page.getByTestId("fiscal-observation").filter({ hasText: "Créditos de ICMS em homologação" }).waitFor();
  await page.reload();
  expect(await page.getByTestId("fiscal-observation").innerText()).toBe("Créditos de ICMS em homologação");

  const item = await withDb(app, (db) => db.collection("fiscal_items").findOne({ businessUnitID: "2236" }));
  const bytes = await download(page, () =>
    page.getByRole("button", { name: `${t.columnWorksheet}: ${item!.worksheet.name}` }).click(),
  );
  expect(bytes.equals(readFileSync(storedPath(app, item!.worksheet.key)))).toBe(true);
  const doc = await download(page, () =>
    page.getByRole("button", { name: `${t.columnDocument}: ${item!.document.name}` }).click(),
  );
  expect(doc.subarray(0, 5).toString()).toBe("%PDF-");

  // without JavaScript the modal is part of the page and Confirm is a plain form post
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "sysadmin@demo.local");
    await plain.goto("/ij/fiscal?company=4313&modal=1");
    await plain.getByRole("dialog", { name: t.fiscalTitle }).getByLabel(t.observations).fill("Sem pendências");
    await plain.getByRole("button", { name: t.confirm }).click();
    await plain.waitForURL((u) => u.searchParams.get("modal") === null);
    expect(await plain.getByTestId("fiscal-observation").innerText()).toBe("Sem pendências");
  });
});

test("reviews: the grade distribution chart and the reviews by grade", async ({ page, app }) => {
  const fives = await withDb(app, (db) => db.collection("product_reviews").countDocuments({ nota: 5 }));
  await signIn(page, app.baseURL, "silver@demo.local");
  await page.goto("/ij/report");
  await page.getByRole("link", { name: t.reviewsLink }).click();
  await page.getByRole("figure", { name: t.reviewsChart }).waitFor();
  await page.locator(".chart-card__plot svg .chart-plot__bar").first().waitFor();
  await page.getByLabel(t.reviewsGradeFilter, { exact: true }).selectOption("5");
  await page.waitForURL((u) => u.searchParams.get("nota") === "5");
  await expect.poll(() => page.locator("main .data-table tbody tr").count()).toBe(Math.min(20, fives));
  // no cockpit or fiscal link for a report reader outside the finance tiers
  await page.goto("/ij/report");
  expect(await page.getByRole("link", { name: t.cockpitLink }).count()).toBe(0);
  expect(await page.getByRole("link", { name: t.fpaLink }).count()).toBe(1);
  // the quantity report's filter (not in the side menu) is reached from here; the forecast review is finance's
  expect(await page.getByRole("link", { name: t.forecastReviewLink }).count()).toBe(0);
  await page.getByRole("link", { name: t.quantityReportLink }).click();
  await page.waitForURL((u) => u.pathname === "/ij/report_create");
});

test("report list at 1366 px: the actions column is in view without scrolling sideways", async ({ page, app }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.baseURL, "silver@demo.local");
  await page.goto("/ij/report");
  const area = page.locator("main .data-table__scroll").first();
  await area.locator("tbody tr").first().waitFor();
  const state = await area.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    right: el.getBoundingClientRect().right,
  }));
  expect(state.scrollWidth).toBeLessThanOrEqual(state.clientWidth + 1);
  const header = await page.getByRole("columnheader", { name: t.columnActions }).boundingBox();
  expect(header!.x + header!.width).toBeLessThanOrEqual(state.right + 1);
  const buttons = area.locator(".report-actions > *");
  expect(await buttons.count()).toBeGreaterThan(1);
  for (const button of await buttons.all()) {
    const right = await button.evaluate((el) => el.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(state.right + 1);
  }
});
