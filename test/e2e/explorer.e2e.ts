import { MongoClient } from "mongodb";
import type { Page } from "playwright-core";
import { explorerTexts, messages } from "~/messages";
import { addExplorerDocuments, EXPLORER_DOCUMENTS } from "~/models/explorer.server";
import { SEARCH_MAX_WORDS } from "~/models/explorer-search";
import { NAV_LABELS } from "~/navigation";
import { expect, test, withoutJavaScript } from "./fixtures";
import type { RunningApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * The explorer as its users see it: the box focused on arrival, Enter searches, relevance ranking (a title hit
 * above a text hit), plural and accent matching, the start of the last word, snippets with the words marked,
 * facets in the URL, opening a hit and coming back to the same page, notices for what was not searched, paging
 * with back/forward, the exact phrase, and all of it without JavaScript.
 */

/** 25 documents about a blue zeppelin and three about an airship's maintenance (once per test file). */
async function addDocuments(app: RunningApp) {
  const client = new MongoClient(app.mongoUri);
  try {
    await client.connect();
    const db = client.db(app.databaseName);
    if (await db.collection(EXPLORER_DOCUMENTS).countDocuments({ words: "zeppelin" })) return;
    const at = (hours: number) => new Date(Date.UTC(2026, 1, 1) + hours * 3_600_000);
    await addExplorerDocuments(
      [
        ...Array.from({ length: 25 }, (_, i) => ({
          // every third document has the words "zeppelin azul" in that order
          title: i % 3 === 0 ? `Zeppelin azul número ${i}` : `Azul e zeppelin ${i}`,
          body: "Documento de teste do explorer.",
          source: "Teste",
          category: "Testes",
          date: at(i),
        })),
        {
          title: "Manutenção do dirigível",
          body: "Checklist da equipe.",
          source: "Teste",
          category: "Hangar",
          date: at(100),
        },
        {
          title: "Manutenções programadas do dirigível",
          body: "Calendário do trimestre.",
          source: "Oficina",
          category: "Hangar",
          date: at(101),
        },
        {
          title: "Relatório do hangar",
          body: "A manutenção do dirigível foi concluída sem atrasos.",
          source: "Teste",
          category: "Hangar",
          date: at(200),
        },
      ],
      db,
    );
  } finally {
    await client.close();
  }
}

const rows = (page: Page) => page.locator("main table tbody tr");
const rowTitles = async (page: Page) =>
  (await page.locator("main table tbody .explorer-hit__title").allInnerTexts()).map((t) => t.trim());
const box = (page: Page) => page.getByLabel(messages.searchLabel);
async function search(page: Page, text: string) {
  await box(page).fill(text);
  await box(page).press("Enter");
  await page.waitForURL((url) => url.searchParams.get("search") === text);
}

test("USER EXPLORER lands on the explorer, searches, ranks, finds plurals and word starts, narrows by facets and opens a hit", async ({
  page,
  app,
}) => {
  await addDocuments(app);
  await signIn(page, app.baseURL, "explorer@demo.local");
  expect(new URL(page.url()).pathname).toBe("/ij/explorer");
  await page.getByRole("heading", { name: NAV_LABELS.explorer }).waitFor();
  await page.getByText(messages.searchHint).waitFor();
  // The box has the focus on arrival.
  // Chromium focuses an autofocus field at its next rendering step, which may come after the load event.
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("explorer-search");

  // Enter submits; punctuation is stripped and case does not matter.
  await search(page, "ZEPPELIN!");
  await page.getByText(messages.searchResultCount(25), { exact: false }).waitFor();
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

  // Frase Exata: only "zeppelin azul" in that order, marked as one run.
  await box(page).fill("zeppelin azul");
  await page.getByLabel(messages.exactPhrase).check();
  await page.getByRole("button", { name: messages.searchButton }).click();
  await page.waitForURL((url) => url.searchParams.get("exactPh") === "1");
  await page.getByText(messages.searchResultCount(9), { exact: false }).waitFor();
  expect(new Set(await page.locator("main table mark").allInnerTexts())).toEqual(new Set(["Zeppelin azul"]));
  await page.getByLabel(messages.exactPhrase).uncheck();

  // Singular finds the plural, no accents needed; the title hits rank above the text hit; the snippet marks the word.
  await search(page, "manutencao dirigivel");
  await expect.poll(() => rows(page).count()).toBe(3);
  const ranked = await rowTitles(page);
  expect(ranked.slice(0, 2).sort()).toEqual(["Manutenção do dirigível", "Manutenções programadas do dirigível"]);
  expect(ranked[2]).toBe("Relatório do hangar");
  expect(await rows(page).nth(2).locator(".explorer-hit__body mark").allInnerTexts()).toEqual([
    "manutenção",
    "dirigível",
  ]);
  expect(await rows(page).locator(".explorer-hit__title mark").allInnerTexts()).toContain("Manutenções");
  // "do" is too common for the text index: the page says so.
  await search(page, "manutenção do dirigível");
  await page.getByText(explorerTexts.commonWordsIgnored(["do"])).waitFor();

  // The start of the last word, as one types it.
  await search(page, "hangar manut");
  await expect.poll(() => rowTitles(page)).toEqual(["Relatório do hangar"]);
  await search(page, "dirigível manut");
  await expect.poll(() => rows(page).count()).toBe(3);

  // Facets from the data, held in the URL.
  await page
    .getByRole("navigation", { name: explorerTexts.facetsTitle })
    .getByRole("link", { name: "Oficina (1)" })
    .click();
  await page.waitForURL((url) => url.searchParams.get("source") === "Oficina");
  await expect.poll(() => rowTitles(page)).toEqual(["Manutenções programadas do dirigível"]);
  await page
    .getByRole("link", { name: explorerTexts.removeFacet(explorerTexts.facetLabels.source, "Oficina") })
    .click();
  await page.waitForURL((url) => !url.searchParams.has("source"));
  await expect.poll(() => rows(page).count()).toBe(3);

  // Open a hit: the whole text, the words marked, and back to the same result page.
  const resultsUrl = page.url();
  await page.getByRole("link", { name: "Relatório do hangar" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/ij/explorer/"));
  await page.getByRole("heading", { level: 1, name: "Relatório do hangar" }).waitFor();
  expect(await page.locator(".explorer-doc__body").innerText()).toBe(
    "A manutenção do dirigível foi concluída sem atrasos.",
  );
  expect(await page.locator(".explorer-doc__body mark").allInnerTexts()).toEqual(["manutenção", "dirigível"]);
  await page.getByRole("link", { name: explorerTexts.backToResults }).click();
  await page.waitForURL((url) => url.href === resultsUrl);
  await expect.poll(() => rows(page).count()).toBe(3);

  // A query longer than the limit says which words were left out.
  const words = Array.from({ length: SEARCH_MAX_WORDS + 2 }, (_, i) => (i === 0 ? "zeppelin" : `w${i}`));
  await search(page, words.join(" "));
  await page.getByText(explorerTexts.wordsDropped(SEARCH_MAX_WORDS, words.slice(SEARCH_MAX_WORDS))).waitFor();
  await page.getByRole("cell", { name: messages.noSearchResults }).waitFor();
});

test("the explorer searches, narrows and opens a hit without JavaScript", async ({ app, browser }) => {
  await addDocuments(app);
  await withoutJavaScript(browser, app, async (page) => {
    await signIn(page, app.baseURL, "silver@demo.local");
    await page.goto("/ij/explorer");
    // Chromium focuses an autofocus field at its next rendering step, which may come after the load event.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("explorer-search");
    await box(page).fill("manutenções dirigível");
    await page.getByRole("button", { name: messages.searchButton }).click();
    await page.waitForURL((url) => url.searchParams.get("search") === "manutenções dirigível");
    expect(await rows(page).count()).toBe(3);
    await page.getByRole("link", { name: "Hangar (3)" }).click();
    await page.waitForURL((url) => url.searchParams.get("category") === "Hangar");
    await page.getByRole("link", { name: "Manutenção do dirigível" }).click();
    await page.getByRole("heading", { level: 1, name: "Manutenção do dirigível" }).waitFor();
    expect(await page.locator("h1 mark").allInnerTexts()).toEqual(["Manutenção", "dirigível"]);
    await page.getByRole("link", { name: explorerTexts.backToResults }).click();
    await page.waitForURL((url) => url.pathname === "/ij/explorer" && url.searchParams.get("category") === "Hangar");
  });
});
