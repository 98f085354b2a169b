import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import PDFDocument from "pdfkit";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import {
  explorerTexts,
  forecastTexts,
  hrTexts,
  jobTexts,
  messages,
  planningTexts,
  reportsTexts as t,
  templateTexts,
  uploadScreenTexts,
  uploadTargetTexts,
} from "~/messages";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { withDb } from "./database";
import { test as base, openCheckedPage } from "./fixtures";
import { signIn, waitForHydration } from "./sign-in";

/**
 * A browser test that starts from --empty: the portal starts with the empty start (the demo accounts and the
 * screens' configuration, no business data); a USER GOLD downloads every template from /captura/manual, fills it with
 * a few consistent rows, uploads it there with an explorer document (a PDF made here), the fiscal item's worksheet and
 * a report package, waits for the jobs, and then sees that data on every spec-001 screen: planning, the forecast
 * review, HR, the cockpit, FP&A, the financial statements, the fiscal asset, the report list, the explorer, and the
 * master-data lists. Tests run in order and share the app (each later one needs the uploads of the second).
 */

const YEAR = 2026;
/** The forecast review's clock: RF2 2026 is in its edit month (its window runs Feb 2025 – Feb 2027). */
const PORTAL_TODAY = `${YEAR}-02-15`;

// A server of the empty start (not the seed), with a quick worker; the worker's browser; a page that accepts downloads.
const test = base.extend<{ page: Page }>({
  page: async ({ app, browser }, use) => {
    const checked = await openCheckedPage(browser, app, { acceptDownloads: true });
    await use(checked.page);
    await checked.close();
  },
});
test.scoped({
  appSeed: "empty",
  appEnv: { PORTAL_TODAY, WORKER_POLL_MS: "200", WORKER_PROGRESS_MS: "200" },
});

const GOLD = "gold@demo.local";

// ---------------------------------------------------------------------------------------------
// The data: one business unit and two months of ledger, one cost centre of RF2 2026, one branch's month of HR,
// two SKUs with their planning quantities, the channel and spend masters, and one fiscal item with its files.

const UNIT = "2236";
const PREVIOUS_MONTH = `${YEAR}-01`;
const MONTH = `${YEAR}-02`;
const RF = `RF2 ${YEAR}`;
const COST_CENTER = "CC7001 - Planejamento Comercial E2E";
const BRAND = "Marca Aurora E2E";
const BRANCH = "9901 - Loja Aurora E2E";
const RESPONSIBLE = "Carla Mendes Aurora";
const WORKSHEET_NAME = "icms_memoria_e2e.xlsx";
const DOCUMENT_NAME = "Parecer_fiscal_ornitorrinco.pdf";
/** A word only the explorer document holds. */
const DOCUMENT_WORD = "ornitorrinco";
const BUNDLE_NAME = "pacote_relatorios_e2e.zip";
const REPORT_NAME = "Relatório Mensal Aurora E2E";
const REPORT_FILE = "relatorio_mensal_aurora.pdf";

type Row = Record<string, string | number>;

/** Each template's rows by column name (every column of the downloaded header must be here). */
const ROWS: Record<string, Row[]> = {
  product: [
    {
      sku: "AUR0001",
      material_description: "Batom Aurora Rubi",
      marca: BRAND,
      category_sku: "Lips",
      categoria_principal_sku: "Makeup",
      sub_categoria_sku: "Batom",
      hero: "hero",
      abcd: "A",
      plc_local: "3-Released",
      plc_global: "3-Released",
      data_validade_sku: "2027-12-31",
    },
    {
      sku: "AUR0002",
      material_description: "Base Aurora Areia",
      marca: BRAND,
      category_sku: "Face",
      categoria_principal_sku: "Makeup",
      sub_categoria_sku: "Base",
      hero: "non-hero",
      abcd: "B",
      plc_local: "3-Released",
      plc_global: "3-Released",
      data_validade_sku: "2027-12-31",
    },
  ],
  channel: [{ cnpj: "11.222.333/0001-81", description: "Loja Parceira Aurora", channel_siop: "ONLINE_PARTNERS" }],
  spend: [{ channel: "WHOLESALES", marca: BRAND, yearMonthDay: "20260301" }],
  planning_quantity: [
    {
      dateRef: `${YEAR}-03`,
      sku: "AUR0001",
      channel: "WHOLESALES",
      valor: 1200,
      material_description: "Batom Aurora Rubi",
      marca: BRAND,
      hero: "hero",
      abcd: "A",
      plc_localsku: "3-Released",
      category_sku: "Lips",
      categoria_principal_sku: "Makeup",
      sub_categoria_sku: "Batom",
    },
    {
      dateRef: `${YEAR}-04`,
      sku: "AUR0002",
      channel: "WHOLESALES",
      valor: 845,
      material_description: "Base Aurora Areia",
      marca: BRAND,
      hero: "non-hero",
      abcd: "B",
      plc_localsku: "3-Released",
      category_sku: "Face",
      categoria_principal_sku: "Makeup",
      sub_categoria_sku: "Base",
    },
  ],
  forecast: [
    // January 2026 is an actuals column of RF2 2026 (its anchor is 2 January); March is a forecast column.
    {
      rf: RF,
      cost_center_concat: COST_CENTER,
      cost_center: "CC7001",
      level_descr: "Comercial",
      group_level_2: "Despesas com Pessoal",
      data_ref: PREVIOUS_MONTH,
      account_concat: "4101001 - Salários Aurora",
      acc_description: "Salários Aurora",
      value: 1500,
      forecast: 1500,
    },
    {
      rf: RF,
      cost_center_concat: COST_CENTER,
      cost_center: "CC7001",
      level_descr: "Comercial",
      group_level_2: "Despesas com Pessoal",
      data_ref: `${YEAR}-03`,
      account_concat: "4101001 - Salários Aurora",
      acc_description: "Salários Aurora",
      value: 0,
      forecast: 1800.5,
    },
    {
      rf: RF,
      cost_center_concat: COST_CENTER,
      cost_center: "CC7001",
      level_descr: "Comercial",
      group_level_2: "Despesas Gerais",
      data_ref: `${YEAR}-03`,
      account_concat: "4201001 - Aluguel Aurora",
      acc_description: "",
      value: 0,
      forecast: 720,
    },
  ],
  ledger: [
    ...[PREVIOUS_MONTH, MONTH].flatMap((month, i) => [
      {
        businessUnitID: UNIT,
        month,
        account: "1.1.01.001",
        category1: "Current Assets",
        category2: "Cash and Equivalents",
        category3: "Caixa Aurora",
        working_capital: "não",
        fiscal: "não",
        actual: [1_000_000, 1_250_000][i],
        priorYear: 900_000,
        forecast: 1_200_000,
      },
      {
        businessUnitID: UNIT,
        month,
        account: "1.1.04.001",
        category1: "Current Assets",
        category2: "Recoverable Taxes",
        category3: "ICMS a Recuperar Aurora",
        working_capital: "não",
        fiscal: "sim",
        actual: [300_000, 350_000.5][i],
        priorYear: 280_000,
        forecast: 340_000,
      },
      {
        businessUnitID: UNIT,
        month,
        account: "2.1.01.001",
        category1: "Current Liabilities",
        category2: "Suppliers",
        category3: "Fornecedores Aurora",
        working_capital: "sim",
        fiscal: "não",
        actual: [400_000, 420_000][i],
        priorYear: 390_000,
        forecast: 410_000,
      },
    ]),
  ],
  hr_aux: [
    {
      marca_cod: "01",
      marca_desc: BRAND,
      filial_cod: "9901",
      filial_nome: BRANCH,
      mes_apur: MONTH,
      matricula: "100231",
      nome: "Ana Souza Aurora",
      cpf: "529.982.247-25",
      cargo_cod: "101",
      cargo_nome: "Consultora de Vendas",
      datas_afastamento: "",
      vendas_adicionais: "1.250,50",
      dias_media: "21,5",
      result_qtde_servico: 35,
      result_desafio_mensal: "98,4",
      vendas_servicos: "830,00",
      comentario: "Meta batida",
    },
    {
      marca_cod: "01",
      marca_desc: BRAND,
      filial_cod: "9901",
      filial_nome: BRANCH,
      mes_apur: MONTH,
      matricula: "100232",
      nome: "Bruno Lima Aurora",
      cpf: "11144477735",
      cargo_cod: "102",
      cargo_nome: "Gerente de Loja",
      datas_afastamento: "03/02/2026 a 07/02/2026",
      vendas_adicionais: 310,
      dias_media: 18,
      result_qtde_servico: 12,
      result_desafio_mensal: "87,0",
      vendas_servicos: "0",
      comentario: "",
    },
  ],
  fpa_responsibles: [
    {
      businessUnitID: UNIT,
      country: "Brasil",
      functionalArea: "Controladoria",
      personResponsible: RESPONSIBLE,
      userResponsible: "Rafael Costa Aurora",
      costCenter: "CC223601 - Controladoria",
    },
  ],
  fiscal_items: [
    {
      businessUnitID: UNIT,
      year: YEAR,
      account: "1.1.04.001",
      description: "ICMS a recuperar Aurora",
      value: "350.000,50",
      worksheet_file: WORKSHEET_NAME,
      document_file: DOCUMENT_NAME,
    },
  ],
};
const TEMPLATE_IDS = [
  "product",
  "channel",
  "spend",
  "planning_quantity",
  "forecast",
  "ledger",
  "hr_aux",
  "fpa_responsibles",
  "fiscal_items",
];
const uploadName = (id: string) => `${id}_empty_start.xlsx`;

/** The downloaded templates, by id (filled by the first test). */
const downloaded = new Map<string, Buffer>();

function pdf(lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 50 });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    for (const line of lines) doc.text(line);
    doc.end();
  });
}

/** The template's first sheet with its example row replaced by `rows`; the column sheet stays as downloaded. */
async function fillTemplate(id: string, rows: Row[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(downloaded.get(id)! as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map((v) => String(v ?? ""));
  expect(header.slice().sort(), `columns of ${id}`).toEqual(Object.keys(rows[0]).sort());
  sheet.spliceRows(2, sheet.rowCount - 1);
  for (const row of rows) sheet.addRow(header.map((name) => row[name]));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const fileInput = (page: Page) => page.getByLabel(uploadScreenTexts.pick, { exact: true });
const uploadRow = (page: Page, name: string) => page.locator(`tr[data-upload-name="${name}"]`);
const jobRow = (page: Page, name: string) =>
  page.locator("main table tbody tr").filter({ has: page.getByText(name, { exact: true }) });
const xlsxFile = (name: string, buffer: Buffer) => ({
  name,
  mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  buffer,
});

/** Picks `files` with the "Tipo de carga" `target` and waits until each has gone up. */
async function upload(
  page: Page,
  target: keyof typeof uploadTargetTexts.options,
  files: Array<{ name: string; mimeType: string; buffer: Buffer }>,
) {
  await page.getByRole("radio", { name: uploadTargetTexts.options[target].label }).check();
  await fileInput(page).setInputFiles(files);
  for (const file of files)
    await uploadRow(page, file.name).getByText(uploadScreenTexts.stateFinished).waitFor({ timeout: 20_000 });
}

/** Clicks `trigger` and returns the downloaded bytes. */
async function download(page: Page, trigger: () => Promise<void>): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent("download"), trigger()]);
  return readFileSync((await file.path())!);
}

const rowTexts = async (rows: Locator) => (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, " ").trim());

// ---------------------------------------------------------------------------------------------

test("the empty start: signed in, the screens have no data, and /captura/manual offers the nine templates for download", async ({
  page,
  app,
}) => {
  const counts = await withDb(app, async (db) => ({
    users: await db.collection("user_permissions").countDocuments(),
    files: await db.collection("files").countDocuments(),
    ledger: await db.collection("ledger").countDocuments(),
    forecast: await db.collection("forecast").countDocuments(),
    products: await db.collection("product_master").countDocuments(),
  }));
  expect(counts).toMatchObject({ files: 0, ledger: 0, forecast: 0, products: 0 });
  expect(counts.users).toBeGreaterThan(0);

  await signIn(page, app.baseURL, GOLD);
  // Nothing to show yet.
  await page.goto("/ij/report_create_schneider");
  await page.getByText(forecastTexts.noScenarios).waitFor();
  await page.goto(`/ij/fiscal?company=${UNIT}`);
  await page.getByRole("region", { name: t.itemsTitle }).getByText(messages.noDataFound).waitFor();
  await page.goto("/ij/explorer?search=relatorio");
  expect(await page.locator("main table tbody .explorer-hit__title").count()).toBe(0);

  // The templates, downloaded from the page's links as a user does.
  await page.goto("/captura/manual");
  await page.getByRole("heading", { name: templateTexts.title }).waitFor();
  const listed = await page
    .locator("tr[data-template]")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-template")));
  expect(listed).toEqual(TEMPLATE_IDS);
  for (const id of TEMPLATE_IDS) {
    const row = page.locator(`tr[data-template="${id}"]`);
    const label = (await row.locator("th").innerText()).trim();
    const link = row.getByRole("link", { name: templateTexts.downloadOf(label) });
    const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(file.suggestedFilename()).toBe(`modelo_${id}.xlsx`);
    const bytes = readFileSync((await file.path())!);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    // Sheet 1: header and one example row; sheet 2: one line per column.
    expect(workbook.worksheets.map((s) => s.name)).toEqual([templateTexts.sheetData, templateTexts.sheetColumns]);
    const header = (workbook.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    expect(workbook.worksheets[0].actualRowCount).toBe(2);
    const explained = workbook.worksheets[1].getColumn(1).values.slice(2).map(String);
    expect(explained.slice(0, header.length)).toEqual(header);
    downloaded.set(id, bytes);
  }
});

test("every template filled and uploaded through /captura/manual with the documents and the report package; every job completes", async ({
  page,
  app,
}) => {
  expect([...downloaded.keys()]).toEqual(TEMPLATE_IDS);
  const [documentPdf, reportPdf] = await Promise.all([
    pdf([
      "Parecer fiscal da unidade 2236",
      `Créditos de ICMS em homologação; o ${DOCUMENT_WORD} do inventário foi conferido.`,
    ]),
    pdf(["Relatório mensal Aurora", "Vendas e despesas de fevereiro."]),
  ]);
  const worksheet = new ExcelJS.Workbook();
  worksheet.addWorksheet("Memória").addRows([
    ["Conta", "Descrição", "Valor"],
    ["1.1.04.001", "ICMS a recuperar Aurora", 350000.5],
  ]);
  const worksheetBytes = Buffer.from(await worksheet.xlsx.writeBuffer());
  const bundle = new JSZip();
  bundle.file("relatorios.csv", `name;origin;dateRef;file\n${REPORT_NAME};manual;${MONTH};${REPORT_FILE}\n`);
  bundle.file(REPORT_FILE, reportPdf);
  const bundleBytes = await bundle.generateAsync({ type: "nodebuffer" });
  const filled = await Promise.all(
    TEMPLATE_IDS.map(async (id) => xlsxFile(uploadName(id), await fillTemplate(id, ROWS[id]))),
  );

  // The planner prepares the forecast's cost centre (as SYSTEM ADMIN assigns it on /ij/forecast_preparers): a preparer
  // writes, by upload too, and reads only the cost centres they prepare.
  await withDb(app, (db) =>
    db
      .collection(FORECAST_PREPARERS)
      .insertOne({ cost_center_concat: COST_CENTER, user: GOLD, assigned_at: new Date(), assigned_by: "e2e" }),
  );
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/captura/manual");
  await waitForHydration(page);
  // The fiscal item's worksheet and document first (the fiscal template names them), as explorer documents.
  await upload(page, "explorer", [
    { name: DOCUMENT_NAME, mimeType: "application/pdf", buffer: documentPdf },
    xlsxFile(WORKSHEET_NAME, worksheetBytes),
  ]);
  await upload(page, "reports", [{ name: BUNDLE_NAME, mimeType: "application/zip", buffer: bundleBytes }]);
  await upload(page, "data", filled);

  const names = [DOCUMENT_NAME, WORKSHEET_NAME, BUNDLE_NAME, ...filled.map((f) => f.name)];
  await expect
    .poll(
      async () =>
        withDb(app, (db) =>
          db.collection("files").countDocuments({ user: GOLD, originalName: { $in: names }, progress: 100 }),
        ),
      { timeout: 90_000, interval: 500 },
    )
    .toBe(names.length);
  const outcomes = await withDb(app, (db) =>
    db.collection("files").find({ user: GOLD }).project({ _id: 0, originalName: 1, status: 1, message: 1 }).toArray(),
  );
  expect(
    outcomes.filter((o) => o.status !== 0),
    "jobs that did not end well",
  ).toEqual([]);

  // /captura/processando: every job Completed, with what it did.
  await page.goto("/captura/processando");
  for (const name of names) {
    const row = jobRow(page, name);
    await row.getByText(messages.jobCompleted, { exact: true }).waitFor();
    expect(await row.getByRole("img", { name: jobTexts.iconSuccess }).count(), name).toBe(1);
  }
  const messageOf = (name: string) => String(outcomes.find((o) => o.originalName === name)?.message);
  for (const id of TEMPLATE_IDS)
    expect(messageOf(uploadName(id)), id).toMatch(new RegExp(`${ROWS[id].length} linhas? OK, 0 NOK`));
  expect(messageOf(DOCUMENT_NAME)).toMatch(/^Documento indexado no Explorer: "Parecer fiscal ornitorrinco"/);
  expect(messageOf(BUNDLE_NAME)).toBe("1 relatório incluído, 0 substituídos");
});

test("planning: the filter offers the uploaded brand and the quantities are listed", async ({ page, app }) => {
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/ij/plan");
  await page.getByRole("checkbox", { name: "WHOLESALES", exact: true }).check();
  await page.getByRole("checkbox", { name: BRAND, exact: true }).check();
  await page.getByLabel(planningTexts.from, { exact: true }).fill(`${YEAR}-01-01`);
  await page.getByLabel(planningTexts.to, { exact: true }).fill(`${YEAR}-12-31`);
  await page.getByRole("button", { name: planningTexts.generateReport }).click();
  await page.waitForURL((url) => url.pathname === "/ij/plan_edit");
  await page
    .locator(".planning__status")
    .getByText(`${messages.reportGenerated} ${planningTexts.itemCount(2)}`)
    .waitFor();
  const rows = page.locator("main table tbody tr");
  expect(await rows.count()).toBe(2);
  const ruby = rows.filter({ hasText: "AUR0001" });
  expect(await ruby.innerText()).toContain("Batom Aurora Rubi");
  expect(await ruby.locator("input.planning-quantity").inputValue()).toBe("1200");
  expect(await rows.filter({ hasText: "AUR0002" }).locator("input.planning-quantity").inputValue()).toBe("845");
});

test("forecast review: the uploaded scenario and cost centre, actuals and forecasts in their months", async ({
  page,
  app,
}) => {
  // The planner prepares the cost centre (assigned before the upload): a preparer reads only the cost centres they
  // prepare.
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/ij/report_create_schneider");
  await page.getByLabel(forecastTexts.period).selectOption(RF);
  await page.getByLabel(forecastTexts.costCenter).fill("planejamento comercial");
  await page.getByRole("button", { name: forecastTexts.generateReview }).click();
  await page.waitForURL(
    (url) =>
      url.pathname === `/ij/report_preview_edit_schneider/${encodeURIComponent(RF)}/${encodeURIComponent(COST_CENTER)}`,
  );
  await page.getByRole("heading", { name: `${RF} · ${COST_CENTER}` }).waitFor();
  await page.locator(".forecast-grid__body [role=row]").first().waitFor();

  const cell = async (label: string, month: string) => {
    const index = await page
      .locator(".forecast-grid__table [role=columnheader]")
      .evaluateAll((headers, id) => headers.findIndex((h) => h.getAttribute("data-column") === id), `m_${month}`);
    expect(index, month).toBeGreaterThanOrEqual(0);
    const row = page.locator(".forecast-grid__body [role=row]").filter({
      has: page.locator("[role=rowheader]", { hasText: new RegExp(`^${label}(${forecastTexts.edited})?$`) }),
    });
    // Its text as the DOM holds it: a row below the fold is not rendered (`content-visibility: auto`), so its
    // innerText is empty.
    return (
      (await row
        .first()
        .locator(`> :nth-child(${index + 1})`)
        .textContent()) ?? ""
    ).trim();
  };
  expect(await cell("Salários Aurora", PREVIOUS_MONTH)).toBe("1.500,00");
  expect(await cell("Salários Aurora", `${YEAR}-03`)).toBe("1.800,50");
  // An empty acc_description is the text after " - " in account_concat.
  expect(await cell("Aluguel Aurora", `${YEAR}-03`)).toBe("720,00");
  const groups = await page.locator(".forecast-grid__body [role=rowheader]").allTextContents();
  expect(groups.join("|")).toContain("Despesas com Pessoal");
  expect(groups.join("|")).toContain("Despesas Gerais");
});

test("HR: the uploaded branch in the picker, its people with masked CPFs and their figures", async ({ page, app }) => {
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/ij/rh");
  await page.getByLabel(hrTexts.branchSearchLabel).fill("aurora");
  await expect.poll(() => page.getByRole("radio").count()).toBe(1);
  await page.getByRole("radio", { name: BRANCH }).check();
  await page.getByLabel(hrTexts.monthFrom, { exact: true }).fill(MONTH);
  await page.getByLabel(hrTexts.monthTo, { exact: true }).fill(MONTH);
  await page.getByRole("button", { name: hrTexts.generateReview }).click();
  await page.waitForURL(
    (url) => url.pathname.startsWith("/ij/rh_edit/") && url.searchParams.get("mes_inicio") === MONTH,
  );
  expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/ij/rh_edit/${BRANCH}`);
  await expect.poll(() => page.locator(".hr-grid tbody tr").count()).toBe(2);
  expect(await page.locator(".hr-grid tbody th").allInnerTexts()).toEqual(["Ana Souza Aurora", "Bruno Lima Aurora"]);
  expect(await page.locator(".hr-grid__cpf").allInnerTexts()).toEqual(["***.982.247-**", "***.444.777-**"]);
  const ana = page.locator(".hr-grid tbody tr").filter({ hasText: "Ana Souza Aurora" });
  expect(await ana.locator('[data-field="vendas_adicionais"] input').inputValue()).toBe("1.250,50");
  expect(await ana.locator('[data-field="vendas_servicos"] input').inputValue()).toBe("830,00");
  // The branch's people beside the grid: registration and role.
  const people = await rowTexts(page.locator(".hr-people li"));
  expect(people).toHaveLength(2);
  expect(people.find((p) => p.includes("Ana Souza Aurora"))).toMatch(/100231.*Consultora de Vendas/);
  expect(await page.content()).not.toContain("52998224725");
});

test("ledger screens: cockpit, FP&A with its responsible, the financial statement and the fiscal asset with its item files", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, GOLD);

  // Cockpit: February beside January for the unit.
  await page.goto("/ij/cockpit");
  await page.getByLabel(t.period, { exact: true }).fill(MONTH);
  await page.getByLabel(t.businessUnit).selectOption(UNIT);
  await page.getByRole("button", { name: t.generateReport }).click();
  await page.waitForURL((url) => url.pathname === "/ij/cockpit_preview");
  const cash = page.locator('tr[data-row-key="1.1.01.001"]');
  await cash.waitFor();
  const cashText = (await cash.innerText()).replace(/\s+/g, " ");
  expect(cashText).toContain("Caixa Aurora");
  expect(cashText).toMatch(/1\.000\.000,00.*1\.250\.000,00.*250\.000,00/);
  expect((await page.locator('tr[data-row-key="2.1.01.001"]').innerText()).replace(/\s+/g, " ")).toMatch(
    /400\.000,00.*420\.000,00/,
  );

  // FP&A: the responsibles' header and the month's figures.
  await page.goto("/ij/report_save");
  await page.getByLabel(t.company).selectOption(UNIT);
  await page.getByLabel(t.period, { exact: true }).fill(MONTH);
  await page.getByRole("button", { name: t.generateReport }).click();
  await page.waitForURL((url) => url.searchParams.get("company") === UNIT && url.searchParams.get("period") === MONTH);
  await page.getByText(RESPONSIBLE).waitFor();
  await page.getByText("Rafael Costa Aurora").waitFor();
  expect((await page.locator('tr[data-row-key="1.1.01.001"]').innerText()).replace(/\s+/g, " ")).toMatch(
    /900\.000,00.*1\.000\.000,00.*1\.250\.000,00.*1\.200\.000,00/,
  );

  // Financial statement: generated from the uploaded ledger; the Excel card opens it.
  await page.goto("/ij/demo_financial");
  await page.getByLabel(t.company).selectOption(UNIT);
  await page.getByLabel(t.period, { exact: true }).fill(MONTH);
  await page.getByRole("button", { name: t.apply }).click();
  await page.waitForURL((url) => url.searchParams.get("company") === UNIT && url.searchParams.get("period") === MONTH);
  const excel = page.getByRole("link", { name: new RegExp(t.excelCard) });
  await excel.waitFor();
  expect(await page.getByRole("link", { name: new RegExp(t.wordCard) }).count()).toBe(1);
  const [viewer] = await Promise.all([page.context().waitForEvent("page"), excel.click()]);
  await viewer.locator(".viewer-sheet table").first().waitFor();
  const sheet = await viewer.locator(".viewer-sheet").first().innerText();
  // The month beside the same month a year earlier (the ledger's priorYear); the viewer shows whole amounts without ",00".
  expect(sheet).toMatch(/1\.1\.01\.001 - Caixa Aurora\s+1\.250\.000(,00)?\s+900\.000(,00)?\s/);
  expect(sheet).toMatch(/1\.1\.04\.001 - ICMS a Recuperar Aurora\s+350\.000,50\s+280\.000(,00)?\s/);
  expect(sheet).toMatch(/Current Assets\s+1\.600\.000,50\s/);
  await viewer.close();

  // Fiscal asset: the fiscal account in the modal, the item with its worksheet and document from the repository.
  await page.goto(`/ij/fiscal?company=${UNIT}`);
  const items = page.getByRole("region", { name: t.itemsTitle });
  const item = items.locator("tbody tr").filter({ hasText: "ICMS a recuperar Aurora" });
  await item.waitFor();
  expect((await item.innerText()).replace(/\s+/g, " ")).toMatch(new RegExp(`${YEAR}.*350\\.000,50`));
  const document = await download(page, () =>
    item.getByRole("button", { name: `${t.columnDocument}: ${DOCUMENT_NAME}` }).click(),
  );
  expect(document.subarray(0, 5).toString()).toBe("%PDF-");
  const worksheet = await download(page, () =>
    item.getByRole("button", { name: `${t.columnWorksheet}: ${WORKSHEET_NAME}` }).click(),
  );
  expect(worksheet.subarray(0, 2).toString()).toBe("PK");
  await page.getByRole("link", { name: t.openFiscal }).click();
  const dialog = page.getByRole("dialog", { name: t.fiscalTitle });
  await dialog.waitFor();
  expect((await dialog.locator("thead th").allInnerTexts()).slice(1)).toEqual([String(YEAR), String(YEAR - 1)]);
  const fiscalRows = await rowTexts(dialog.locator("tbody tr"));
  // Only the account marked fiscal, at February and (before the ledger starts) its prior-year figure.
  expect(fiscalRows.find((r) => r.includes("ICMS a Recuperar Aurora"))).toMatch(/350\.000,50.*280\.000,00/);
  expect(fiscalRows.some((r) => r.includes("Caixa Aurora"))).toBe(false);
});

test("the report package's report in /ij/report and the PDF in the explorer, both downloadable", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/ij/report?origin=manual");
  await page.getByRole("heading", { name: t.reportsTitle }).waitFor();
  const report = page.locator("main table tbody tr").filter({ hasText: REPORT_NAME });
  await report.waitFor();
  expect(await report.innerText()).toContain(GOLD);
  expect(await report.getByRole("link", { name: t.openOnlineOf(REPORT_NAME) }).count()).toBe(1);
  const bytes = await download(page, () =>
    report.getByRole("button", { name: jobTexts.downloadOf(REPORT_NAME) }).click(),
  );
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");

  await page.goto("/ij/explorer");
  const box = page.getByLabel(messages.searchLabel);
  await box.fill(DOCUMENT_WORD);
  await box.press("Enter");
  await page.waitForURL((url) => url.searchParams.get("search") === DOCUMENT_WORD);
  await page.getByText(messages.searchResultCount(1), { exact: false }).waitFor();
  const hit = page.locator("main table tbody .explorer-hit__title");
  expect((await hit.innerText()).trim()).toBe("Parecer fiscal ornitorrinco");
  await page.locator("main table tbody tr").first().getByRole("link").first().click();
  await page.waitForURL((url) => url.pathname.startsWith("/ij/explorer/"));
  await page.getByRole("heading", { level: 1, name: "Parecer fiscal ornitorrinco" }).waitFor();
  expect(await page.locator(".explorer-doc__body").innerText()).toContain("Créditos de ICMS em homologação");
  const original = await download(page, () =>
    page.getByRole("button", { name: explorerTexts.downloadFileOf(DOCUMENT_NAME) }).click(),
  );
  expect(original.subarray(0, 5).toString()).toBe("%PDF-");
});

test("master data: the uploaded products, channel and spend in /repo/master-data", async ({ page, app }) => {
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/repo/master-data");
  const rows = page.locator("main table tbody tr");
  await expect.poll(() => rows.count()).toBe(2);
  const products = await rowTexts(rows);
  expect(products.some((r) => r.includes("AUR0001") && r.includes("Batom Aurora Rubi") && r.includes(BRAND))).toBe(
    true,
  );
  expect(products.some((r) => r.includes("AUR0002"))).toBe(true);

  await page.goto("/repo/master-data/canal");
  await rows.filter({ hasText: "Loja Parceira Aurora" }).waitFor();
  expect(await rows.filter({ hasText: "Loja Parceira Aurora" }).innerText()).toContain("ONLINE_PARTNERS");

  await page.goto("/repo/master-data/planejamento?tab=spend");
  await rows.filter({ hasText: BRAND }).waitFor();
  expect(await rows.filter({ hasText: BRAND }).innerText()).toContain("WHOLESALES");
});
