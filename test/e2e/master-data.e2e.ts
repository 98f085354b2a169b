import crypto from "node:crypto";
import { ObjectId } from "mongodb";
import type { Page } from "playwright-core";
import { jobTexts, masterDataTexts, messages } from "~/messages";
import { withDb } from "./database";
import { expect, test, withoutJavaScript } from "./fixtures";
import { signIn } from "./sign-in";

/** The master-data screens as a USER GOLD uses them. */

const GOLD = "gold@demo.local";

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
const headers = async (page: Page) => (await page.locator("main table thead th").allInnerTexts()).map((t) => t.trim());
const firstCell = async (page: Page) =>
  (await page.locator("main table tbody tr").first().locator("td").first().innerText()).trim();
const fieldHeaders = (entry: { [key: string]: unknown }) =>
  (entry.fields as Record<string, string>[]).map((f) => Object.values(f)[0]);

test("Base Ok / Base NOK, the collection dropdown and paging with the browser buttons", async ({ page, app }) => {
  // At least three pages of product master, whatever the seed scale.
  const catalogue = await withDb(app, async (db) => {
    const count = await db.collection("product_master").countDocuments();
    if (count < 45) {
      await db.collection("product_master").insertMany(
        Array.from({ length: 45 - count }, (_, i) => ({
          sku: `E2E-${i}`,
          material_description: "Teste",
          marca: "E2E",
          urlPath: "e2e.csv",
          sourceFileId: null,
        })),
      );
    }
    return db
      .collection("master_data_collections")
      .find({}, { projection: { _id: 0 } })
      .sort({ order: 1 })
      .toArray();
  });
  const okCollections = catalogue.filter((c) => c.collection_ok === 1);
  const nokCollections = catalogue.filter((c) => c.collection_ok !== 1);

  await signIn(page, app.baseURL, GOLD);
  await page.goto("/repo/master-data");
  // The first collection loads by itself.
  expect(await page.getByLabel(messages.baseOk).isChecked()).toBe(true);
  const select = page.locator("#master-data-collection");
  expect(await select.inputValue()).toBe(okCollections[0].collection_name);
  await expect.poll(() => headers(page)).toEqual(fieldHeaders(okCollections[0]));
  expect(await page.locator("main table tbody tr").count()).toBe(20);

  // Page forward twice, then back and forward with the browser.
  const page1 = await firstCell(page);
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "2");
  await page.getByText(/^21–40 \//).waitFor();
  const page2 = await firstCell(page);
  expect(page2).not.toBe(page1);
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "3");
  await page.getByText(/^41–/).waitFor();
  await page.goBack();
  await page.getByText(/^21–40 \//).waitFor();
  expect(param(page, "page")).toBe("2");
  expect(await firstCell(page)).toBe(page2);
  await page.goBack();
  await page.getByText(/^1–20 \//).waitFor();
  await page.goForward();
  await page.getByText(/^21–40 \//).waitFor();
  await page.getByRole("link", { name: messages.previous }).click();
  await page.getByText(/^1–20 \//).waitFor();

  // Another collection of Base Ok: its own columns, from page 1.
  expect(okCollections.length).toBeGreaterThanOrEqual(2);
  await select.selectOption(okCollections[1].collection_name);
  await page.waitForURL((url) => url.searchParams.get("collection") === okCollections[1].collection_name);
  expect(param(page, "page")).toBeNull();
  await expect
    .poll(() => headers(page), { message: okCollections[1].label_name })
    .toEqual(fieldHeaders(okCollections[1]));

  // Base NOK: the dropdown lists the discarded bases only, the first preselected.
  await page.getByLabel(messages.baseNok).check();
  await page.waitForURL((url) => url.searchParams.get("base") === "nok");
  await page.waitForFunction(
    (name) => (document.querySelector("#master-data-collection") as HTMLSelectElement | null)?.value === name,
    nokCollections[0].collection_name,
  );
  const nokOptions = await select
    .locator("option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(nokOptions).toEqual(nokCollections.map((c) => c.collection_name));
  await expect
    .poll(() => headers(page), { message: nokCollections[0].label_name })
    .toEqual(fieldHeaders(nokCollections[0]));

  // Another collection of that base (the seed guarantees at least two).
  expect(nokCollections.length).toBeGreaterThanOrEqual(2);
  await select.selectOption(nokCollections[1].collection_name);
  await page.waitForURL((url) => url.searchParams.get("collection") === nokCollections[1].collection_name);
  await expect
    .poll(() => headers(page), { message: nokCollections[1].label_name })
    .toEqual(fieldHeaders(nokCollections[1]));

  // Back to Base Ok: its first collection loads again, not the one chosen before.
  await page.getByLabel(messages.baseOk).check();
  await page.waitForURL((url) => url.searchParams.get("base") === "ok");
  expect(await page.getByLabel(messages.baseOk).isChecked()).toBe(true);
  await page.waitForFunction(
    (name) => (document.querySelector("#master-data-collection") as HTMLSelectElement | null)?.value === name,
    okCollections[0].collection_name,
  );
  await expect
    .poll(() => headers(page), { message: okCollections[0].label_name })
    .toEqual(fieldHeaders(okCollections[0]));
  await page.getByText(/^1–20 \//).waitFor();
  expect(await firstCell(page)).toBe(page1);
});

test("an empty base shows No data found", async ({ page, app }) => {
  await withDb(app, (db) => db.collection("channel_nok").deleteMany({}));
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/repo/master-data/canal?tab=channel_nok");
  await page.getByRole("cell", { name: messages.noDataFound }).waitFor();
  await page.goto("/repo/master-data?base=nok&collection=channel_nok");
  await page.getByRole("cell", { name: messages.noDataFound }).waitFor();
});

const titles = async (page: Page) =>
  page.locator("main table thead th .column-label").evaluateAll((spans) => spans.map((e) => e.getAttribute("title")));

test("the top tabs Product, Channel, Planning and every inner tab show labelled columns (the field name as tooltip), each tab in the URL", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/repo/master-data");
  const sections = page.getByRole("navigation", { name: "Repository Master", exact: true });
  expect((await sections.getByRole("link").allInnerTexts()).map((t) => t.trim())).toEqual([
    "Product",
    "Channel",
    "Planning",
  ]);
  await sections.getByRole("link", { name: "Channel", exact: true }).click();
  await page.waitForURL("**/repo/master-data/canal");
  await expect.poll(() => headers(page)).toEqual(["CNPJ", "Descrição", "Canal SIOP", "Arquivo"]);
  expect(await titles(page)).toEqual(["cnpj", "description", "channel_siop", "urlPath"]);
  await page.getByRole("link", { name: "Channel NOK", exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("tab") === "channel_nok");
  await expect.poll(() => headers(page)).toEqual(["Arquivo", "Data", "Erro"]);
  expect(await titles(page)).toEqual(["urlPath", "creationDate", "Error"]);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll("main table thead th").length === 4);

  await sections.getByRole("link", { name: "Planning", exact: true }).click();
  await page.waitForURL("**/repo/master-data/planejamento");
  // The address changes a moment before the new page is drawn.
  await expect
    .poll(() => sections.getByRole("link", { name: "Planning", exact: true }).getAttribute("aria-current"))
    .toBe("page");
  const inner = page.getByRole("navigation", { name: "Planejamento", exact: true });
  expect((await inner.getByRole("link").allInnerTexts()).map((t) => t.trim())).toEqual([
    "Quantity",
    "Quantity NOK",
    "Spend",
    "Spend NOK",
  ]);
  const expectations: [string, string, string[], string[]][] = [
    [
      "Quantity",
      "quantity",
      [
        "SKU",
        "Descrição do material",
        "Brand",
        "Category",
        "Major Category",
        "Subcategoria",
        "Hero",
        "ABCD",
        "PLC Local",
        "PLC Global",
        "Global Forecast End Date",
        "Arquivo",
      ],
      [
        "sku",
        "material_description",
        "marca",
        "category_sku",
        "categoria_principal_sku",
        "sub_categoria_sku",
        "hero",
        "abcd",
        "plc_local",
        "plc_global",
        "data_validade_sku",
        "urlPath",
      ],
    ],
    [
      "Quantity NOK",
      "quantity_nok",
      ["SKU", "Linha", "Arquivo", "Data", "Erro"],
      ["sku", "_lineNumber", "urlPath", "timeStamp", "Error"],
    ],
    ["Spend", "spend", ["Channel", "Brand", "Versão", "Arquivo"], ["channel", "marca", "yearMonthDay", "urlPath"]],
    [
      "Spend NOK",
      "spend_nok",
      ["Channel", "Brand", "Versão", "Linha", "Arquivo", "Data", "Erro"],
      ["channel", "marca", "yearMonthDay", "_lineNumber", "urlPath", "timeStamp", "Error"],
    ],
  ];
  for (const [label, id, columns, fields] of expectations) {
    await inner.getByRole("link", { name: label, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("tab") === id);
    await expect.poll(() => headers(page), { message: label }).toEqual(columns);
    expect(await titles(page)).toEqual(fields);
    expect(await inner.getByRole("link", { name: label, exact: true }).getAttribute("aria-current")).toBe("page");
  }
  // Back and forward walk the inner tabs.
  await page.goBack();
  await page.waitForURL((url) => url.searchParams.get("tab") === "spend");
  await expect.poll(() => headers(page)).toEqual(["Channel", "Brand", "Versão", "Arquivo"]);
  // The field name shows as the header's tooltip.
  const header = page.locator("main table thead th .column-label", { hasText: "Versão" });
  expect(await header.getAttribute("title")).toBe("yearMonthDay");
});

test("a page past the end shows the last page on every master-data table", async ({ page, app }) => {
  await signIn(page, app.baseURL, GOLD);
  for (const address of [
    "/repo/master-data?page=999",
    "/repo/master-data/canal?tab=channel&page=999",
    "/repo/master-data/planejamento?tab=quantity&page=999",
  ]) {
    await page.goto(address);
    const range = (await page.locator(".data-table__range").innerText()).trim();
    const [, to, total] = /^\d+–(\d+) \/ (\d+)$/.exec(range) ?? [];
    expect(Number(total), address).toBeGreaterThan(0);
    expect(to, address).toBe(total);
    expect(await page.locator("main table tbody tr").count(), address).toBeGreaterThan(0);
    expect(await page.getByRole("cell", { name: messages.noDataFound }).count(), address).toBe(0);
  }
});

test("Canal pages forward and back with the browser buttons, keeping the tab and the page in the URL", async ({
  page,
  app,
}) => {
  // At least three pages of channels, whatever the seed scale.
  await withDb(app, async (db) => {
    const count = await db.collection("channel").countDocuments();
    if (count < 45) {
      await db.collection("channel").insertMany(
        Array.from({ length: 45 - count }, (_, i) => ({
          cnpj: `E2E-${String(i).padStart(3, "0")}`,
          description: "Teste",
          channel_siop: "FSS",
          urlPath: "e2e.csv",
          sourceFileId: null,
        })),
      );
    }
  });
  await signIn(page, app.baseURL, GOLD);
  await page.goto("/repo/master-data/canal?tab=channel");
  await page.getByText(/^1–20 \//).waitFor();
  const page1 = await firstCell(page);

  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "2");
  await page.getByText(/^21–40 \//).waitFor();
  expect(param(page, "tab")).toBe("channel");
  const page2 = await firstCell(page);
  expect(page2).not.toBe(page1);
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "3");
  await page.getByText(/^41–/).waitFor();
  const page3 = await firstCell(page);

  await page.goBack();
  await page.getByText(/^21–40 \//).waitFor();
  expect(param(page, "page")).toBe("2");
  expect(await firstCell(page)).toBe(page2);
  await page.goBack();
  await page.getByText(/^1–20 \//).waitFor();
  expect(param(page, "page")).toBeNull();
  expect(await firstCell(page)).toBe(page1);
  await page.goForward();
  await page.getByText(/^21–40 \//).waitFor();
  expect(await firstCell(page)).toBe(page2);
  await page.goForward();
  await page.getByText(/^41–/).waitFor();
  expect(param(page, "tab")).toBe("channel");
  expect(await firstCell(page)).toBe(page3);
  // The same page from a bookmark.
  await page.goto("/repo/master-data/canal?tab=channel&page=2");
  expect(await firstCell(page)).toBe(page2);
});

test("a collection outside the list answers 404", async ({ page, app }) => {
  await signIn(page, app.baseURL, GOLD);
  expect((await page.goto("/repo/master-data?collection=users"))?.status()).toBe(404);
  expect((await page.goto("/repo/master-data?collection=sessions&base=ok"))?.status()).toBe(404);
  await page.getByRole("heading", { name: messages.notFoundTitle }).waitFor();
});

test("rejected rows: newest first, narrowed to one file from the job list's link or the file filter, with and without JavaScript", async ({
  page,
  app,
  browser,
}) => {
  // A file just processed whose lines 2-4 were rejected, written as the worker writes them (the newest import).
  const name = "rejeitadas_e2e.csv";
  const key = `2030/05/${crypto.randomUUID()}.csv`;
  await withDb(app, async (db) => {
    const fileId = new ObjectId();
    const now = new Date();
    await db.collection("files").insertOne({
      _id: fileId,
      originalName: name,
      originalFile: key,
      bucket: "local",
      user: "bronze@demo.local",
      clientName: "journey",
      statusChangeDate: now,
      createdAt: now,
      status: 0,
      progress: 100,
      message: "2 linhas OK, 3 NOK",
      agent: "worker@e2e",
      leaseUntil: null,
      attempts: 1,
    });
    await db.collection("product_master_nok").insertMany(
      [2, 3, 4].map((line) => ({
        sku: `REJ-${line}`,
        _lineNumber: line,
        urlPath: key,
        timeStamp: now,
        Error: `Coluna sku: valor "REJ-${line}" inválido`,
        sourceFileId: fileId,
      })),
    );
  });
  const skus = async (p: Page) =>
    (await p.locator("main table tbody tr td:first-child").allInnerTexts()).map((t) => t.trim());

  await signIn(page, app.baseURL, GOLD);
  // The whole NOK base, newest first: the file just uploaded is on page 1.
  await page.goto("/repo/master-data?base=nok&collection=product_master_nok");
  expect((await skus(page)).slice(0, 3)).toEqual(["REJ-4", "REJ-3", "REJ-2"]);

  // The job list links the file to its rejected rows, in the file's line order.
  await page.goto("/jobs/executados");
  await page.getByRole("link", { name: jobTexts.nokRowsOf(name) }).click();
  await page.waitForURL((url) => url.pathname === "/repo/master-data" && url.searchParams.get("file") === key);
  expect(new URL(page.url()).searchParams.get("base")).toBe("nok");
  expect(new URL(page.url()).searchParams.get("collection")).toBe("product_master_nok");
  await expect.poll(() => skus(page)).toEqual(["REJ-2", "REJ-3", "REJ-4"]);
  await page.getByText(masterDataTexts.masterDataFilteredBy(key)).waitFor();
  expect(await page.getByLabel(masterDataTexts.masterDataFileFilter).inputValue()).toBe(key);
  // Clearing the filter shows the whole base again, newest first.
  await page.getByRole("link", { name: masterDataTexts.masterDataClearFilter }).click();
  await page.waitForURL((url) => !url.searchParams.has("file"));
  await expect.poll(async () => (await skus(page)).slice(0, 3)).toEqual(["REJ-4", "REJ-3", "REJ-2"]);
  // An Arquivo cell names the file as it was uploaded, its storage key as the tooltip, and narrows the table to it.
  const named = page.locator("main table tbody").getByRole("link", { name, exact: true }).first();
  expect(await named.getAttribute("title")).toBe(key);
  expect(await named.getAttribute("href")).toMatch(/^\/download\//);
  await page
    .locator("main table tbody")
    .getByRole("link", { name: masterDataTexts.masterDataFilterByFile(name) })
    .first()
    .click();
  await page.waitForURL((url) => url.searchParams.get("file") === name);
  await expect.poll(() => skus(page)).toEqual(["REJ-2", "REJ-3", "REJ-4"]);

  // Without JavaScript the filter is a plain GET form, on the planejamento tab as well.
  const cookies = await page.context().cookies();
  await withoutJavaScript(browser, app, async (plain) => {
    await plain.context().addCookies(cookies);
    await plain.goto("/repo/master-data/planejamento?tab=quantity_nok");
    await plain.getByLabel(masterDataTexts.masterDataFileFilter).fill(key);
    await plain.getByRole("button", { name: masterDataTexts.masterDataFilter }).click();
    await plain.waitForURL(
      (url) => url.searchParams.get("file") === key && url.searchParams.get("tab") === "quantity_nok",
    );
    expect(await skus(plain)).toEqual(["REJ-2", "REJ-3", "REJ-4"]);
  });

  // Its uploader, who may not open the repository, gets its refused rows as a download instead.
  await page.context().clearCookies();
  await signIn(page, app.baseURL, "bronze@demo.local");
  await page.goto("/captura/processando");
  await page
    .locator("main table tbody tr")
    .filter({ has: page.getByText(name, { exact: true }) })
    .waitFor();
  const own = page.getByRole("link", { name: jobTexts.nokRowsDownloadOf(name), exact: true });
  expect(await own.count()).toBe(1);
  expect(await own.getAttribute("href")).toMatch(/^\/captura\/processando\/nok\/[0-9a-f]{24}$/);
});
