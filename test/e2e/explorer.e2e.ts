import { MongoClient } from "mongodb";
import { messages } from "~/messages";
import { EXPLORER_DOCUMENTS, explorerSearchFields } from "~/models/explorer.server";
import { expect, test, withoutJavaScript } from "./fixtures";
import { signIn } from "./sign-in";
import { NAV_LABELS } from "~/access";

/** The explorer as its users see it: search, exact phrase, highlighting, paging with back/forward. */

/** Adds 25 documents about a blue zeppelin (once per test file). */
async function addDocuments(mongoUri: string, databaseName: string) {
  const client = new MongoClient(mongoUri);
  try {
    await client.connect();
    const collection = client.db(databaseName).collection(EXPLORER_DOCUMENTS);
    if (await collection.countDocuments({ words: "zeppelin" })) return;
    const docs = Array.from({ length: 25 }, (_, i) => {
      // every third document has the words "zeppelin azul" in that order
      const title = i % 3 === 0 ? `Zeppelin azul número ${i}` : `Azul e zeppelin ${i}`;
      const body = "Documento de teste do explorer.";
      return {
        title,
        body,
        source: "Teste",
        category: "Testes",
        date: new Date(Date.UTC(2026, 1, 1) + i * 3_600_000),
        ...explorerSearchFields(title, body),
      };
    });
    await collection.insertMany(docs);
  } finally {
    await client.close();
  }
}

const rows = (page: import("playwright-core").Page) => page.locator("main table tbody tr");

test("USER EXPLORER lands on the explorer, searches, pages with the browser buttons and sees the terms highlighted", async ({ page, app }) => {
  await addDocuments(app.mongoUri, app.databaseName);
  await signIn(page, app.baseURL, "explorer@demo.local");
  expect(new URL(page.url()).pathname).toBe("/ij/explorer");
  await page.getByRole("heading", { name: NAV_LABELS.explorer }).waitFor();
  await page.getByText(messages.searchHint).waitFor();

  // Enter submits; punctuation is stripped and case does not matter.
  await page.getByLabel(messages.searchLabel).fill("ZEPPELIN!");
  await page.getByLabel(messages.searchLabel).press("Enter");
  await page.waitForURL((url) => url.searchParams.get("search") === "ZEPPELIN!");
  await page.getByText(messages.searchResultCount(25)).waitFor();
  await expect.poll(() => rows(page).count()).toBe(20);
  const marks = await page.locator("main table mark").allInnerTexts();
  expect(marks.length).toBeGreaterThanOrEqual(20);
  expect(marks.every((m) => m.toLowerCase() === "zeppelin")).toBe(true);
  const firstOfPage1 = await rows(page).first().innerText();

  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "2");
  await expect.poll(() => rows(page).count()).toBe(5);
  await page.goBack();
  await expect.poll(() => rows(page).count()).toBe(20);
  expect(await rows(page).first().innerText()).toBe(firstOfPage1);
  await page.goForward();
  await expect.poll(() => rows(page).count()).toBe(5);

  // Frase Exata: only "zeppelin azul" in that order, highlighted as one run.
  await page.getByLabel(messages.searchLabel).fill("zeppelin azul");
  await page.getByLabel(messages.exactPhrase).check();
  await page.getByRole("button", { name: messages.searchButton }).click();
  await page.waitForURL((url) => url.searchParams.get("exactPh") === "1" && url.searchParams.get("page") === null);
  await page.getByText(messages.searchResultCount(9)).waitFor();
  const phraseMarks = await page.locator("main table mark").allInnerTexts();
  expect(new Set(phraseMarks)).toEqual(new Set(["Zeppelin azul"]));

  // Nothing found.
  await page.getByLabel(messages.searchLabel).fill("xyzzy");
  await page.getByRole("button", { name: messages.searchButton }).click();
  await page.getByRole("cell", { name: messages.noSearchResults }).waitFor();

  // Back returns to the exact-phrase search, its box and checkbox restored.
  await page.goBack();
  await page.getByText(messages.searchResultCount(9)).waitFor();
  expect(await page.getByLabel(messages.searchLabel).inputValue()).toBe("zeppelin azul");
  expect(await page.getByLabel(messages.exactPhrase).isChecked()).toBe(true);
});

test("the explorer searches without JavaScript", async ({ app, browser }) => {
  await addDocuments(app.mongoUri, app.databaseName);
  await withoutJavaScript(browser, app, async (page) => {
    await signIn(page, app.baseURL, "silver@demo.local");
    await page.goto("/ij/explorer");
    await page.getByLabel(messages.searchLabel).fill("zeppelin");
    await page.getByRole("button", { name: messages.searchButton }).click();
    await page.waitForURL((url) => url.searchParams.get("search") === "zeppelin");
    expect(await page.locator("main table tbody tr").count()).toBe(20);
    expect(await page.locator("main table mark").first().innerText()).toMatch(/^zeppelin$/i);
  });
});
