import { MongoClient } from "mongodb";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD } from "~/seed/accounts";
import { messages } from "~/messages";
import { expect, test } from "./fixtures";

/**
 * The master-data screens as a USER GOLD uses them.
 * Signs in through the login form; replace `signIn` by the shared fixture once the host work has one.
 */

async function signIn(page: Page, email = "gold@demo.local") {
  await page.goto("/");
  await page.getByLabel(messages.emailLabel).fill(email);
  await page.getByLabel(messages.passwordLabel).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: messages.loginButton }).click();
  await page.waitForURL((url) => url.pathname !== "/");
}

async function withDb<T>(app: { mongoUri: string; databaseName: string }, work: (db: ReturnType<MongoClient["db"]>) => Promise<T>): Promise<T> {
  const client = new MongoClient(app.mongoUri);
  try {
    await client.connect();
    return await work(client.db(app.databaseName));
  } finally {
    await client.close();
  }
}

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);
const headers = async (page: Page) => (await page.locator("main table thead th").allInnerTexts()).map((t) => t.trim());
const firstCell = async (page: Page) => (await page.locator("main table tbody tr").first().locator("td").first().innerText()).trim();
const fieldHeaders = (entry: { [key: string]: unknown }) => (entry.fields as Record<string, string>[]).map((f) => Object.values(f)[0]);

test("Base Ok / Base NOK, the collection dropdown and paging with the browser buttons", async ({ page, app }) => {
  // At least three pages of product master, whatever the seed scale.
  const catalogue = await withDb(app, async (db) => {
    const count = await db.collection("product_master").countDocuments();
    if (count < 45) {
      await db.collection("product_master").insertMany(
        Array.from({ length: 45 - count }, (_, i) => ({ sku: `E2E-${i}`, material_description: "Teste", marca: "E2E", urlPath: "e2e.csv", sourceFileId: null })),
      );
    }
    return db.collection("master_data_collections").find({}, { projection: { _id: 0 } }).sort({ order: 1 }).toArray();
  });
  const okCollections = catalogue.filter((c) => c.collection_ok === 1);
  const nokCollections = catalogue.filter((c) => c.collection_ok !== 1);

  await signIn(page);
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
  await expect.poll(() => headers(page), { message: okCollections[1].label_name }).toEqual(fieldHeaders(okCollections[1]));

  // Base NOK: the dropdown lists the discarded bases only, the first preselected.
  await page.getByLabel(messages.baseNok).check();
  await page.waitForURL((url) => url.searchParams.get("base") === "nok");
  await page.waitForFunction((name) => (document.querySelector("#master-data-collection") as HTMLSelectElement | null)?.value === name, nokCollections[0].collection_name);
  const nokOptions = await select.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(nokOptions).toEqual(nokCollections.map((c) => c.collection_name));
  await expect.poll(() => headers(page), { message: nokCollections[0].label_name }).toEqual(fieldHeaders(nokCollections[0]));

  // Another collection of that base (the seed guarantees at least two).
  expect(nokCollections.length).toBeGreaterThanOrEqual(2);
  await select.selectOption(nokCollections[1].collection_name);
  await page.waitForURL((url) => url.searchParams.get("collection") === nokCollections[1].collection_name);
  await expect.poll(() => headers(page), { message: nokCollections[1].label_name }).toEqual(fieldHeaders(nokCollections[1]));

  // Back to Base Ok: its first collection loads again, not the one chosen before.
  await page.getByLabel(messages.baseOk).check();
  await page.waitForURL((url) => url.searchParams.get("base") === "ok");
  expect(await page.getByLabel(messages.baseOk).isChecked()).toBe(true);
  await page.waitForFunction((name) => (document.querySelector("#master-data-collection") as HTMLSelectElement | null)?.value === name, okCollections[0].collection_name);
  await expect.poll(() => headers(page), { message: okCollections[0].label_name }).toEqual(fieldHeaders(okCollections[0]));
  await page.getByText(/^1–20 \//).waitFor();
  expect(await firstCell(page)).toBe(page1);
});

test("an empty base shows No data found", async ({ page, app }) => {
  await withDb(app, (db) => db.collection("channel_nok").deleteMany({}));
  await signIn(page);
  await page.goto("/repo/master-data/canal?tab=channel_nok");
  await page.getByRole("cell", { name: messages.noDataFound }).waitFor();
  await page.goto("/repo/master-data?base=nok&collection=channel_nok");
  await page.getByRole("cell", { name: messages.noDataFound }).waitFor();
});

test("every tab of canal and planejamento shows its columns, with the tab in the URL", async ({ page }) => {
  await signIn(page);
  await page.goto("/repo/master-data");
  const sections = page.getByRole("navigation", { name: "Repository Master", exact: true });
  await sections.getByRole("link", { name: "Canal", exact: true }).click();
  await page.waitForURL("**/repo/master-data/canal");
  await expect.poll(() => headers(page)).toEqual(["cnpj", "description", "channel_siop", "urlPath"]);
  await page.getByRole("link", { name: "Channel NOK", exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("tab") === "channel_nok");
  await expect.poll(() => headers(page)).toEqual(["urlPath", "creationDate", "Error"]);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll("main table thead th").length === 4);

  await sections.getByRole("link", { name: "Planejamento", exact: true }).click();
  await page.waitForURL("**/repo/master-data/planejamento");
  const expectations: [string, string, string[]][] = [
    ["Product", "Quantity", ["sku", "material_description", "marca", "category_sku", "categoria_principal_sku", "sub_categoria_sku", "hero", "abcd", "plc_local", "plc_global", "Global Forecast End Date", "urlPath"]],
    ["Product", "Quantity NOK", ["sku", "_lineNumber", "urlPath", "timeStamp", "Error"]],
    ["Channel", "Channel", ["cnpj", "description", "channel_siop", "urlPath"]],
    ["Channel", "Channel NOK", ["urlPath", "creationDate", "Error"]],
    ["Planning", "Spend", ["channel", "marca", "yearMonthDay", "urlPath"]],
    ["Planning", "Spend NOK", ["channel", "marca", "yearMonthDay", "_lineNumber", "urlPath", "timeStamp", "Error"]],
  ];
  for (const [top, inner, columns] of expectations) {
    await page.getByRole("navigation", { name: "Planejamento", exact: true }).getByRole("link", { name: top, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("top") === top.toLowerCase());
    await page.getByRole("navigation", { name: top, exact: true }).getByRole("link", { name: inner, exact: true }).click();
    await page.waitForFunction((n) => document.querySelectorAll("main table thead th").length === n, columns.length);
    await expect.poll(() => headers(page), { message: `${top} / ${inner}` }).toEqual(columns);
    expect(await page.getByRole("navigation", { name: top, exact: true }).getByRole("link", { name: inner, exact: true }).getAttribute("aria-current")).toBe("page");
  }
});

test("Canal pages forward and back with the browser buttons, keeping the tab and the page in the URL", async ({ page, app }) => {
  // At least three pages of channels, whatever the seed scale.
  await withDb(app, async (db) => {
    const count = await db.collection("channel").countDocuments();
    if (count < 45) {
      await db.collection("channel").insertMany(
        Array.from({ length: 45 - count }, (_, i) => ({ cnpj: `E2E-${String(i).padStart(3, "0")}`, description: "Teste", channel_siop: "FSS", urlPath: "e2e.csv", sourceFileId: null })),
      );
    }
  });
  await signIn(page);
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

test("a collection outside the list answers 404", async ({ page }) => {
  await signIn(page);
  expect((await page.goto("/repo/master-data?collection=users"))?.status()).toBe(404);
  expect((await page.goto("/repo/master-data?collection=sessions&base=ok"))?.status()).toBe(404);
  await page.getByRole("heading", { name: messages.notFoundTitle }).waitFor();
});
