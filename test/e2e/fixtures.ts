import type { Browser, Page } from "playwright-core";
import { test as base } from "vitest";
import { launchChromium, startApp, type RunningApp } from "./harness";

/**
 * Browser-test fixtures. `app` (server + database) and `browser` live for one test file;
 * each test gets a fresh browser context (no cookies) and a page whose relative URLs resolve
 * against the app. A console error or uncaught exception in the page fails the test.
 */
export const test = base.extend<{ app: RunningApp; browser: Browser; page: Page }>({
  app: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const app = await startApp();
      await use(app);
      await app.stop();
    },
    { scope: "file" },
  ],
  browser: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const chromium = await launchChromium();
      await use(chromium.browser);
      await chromium.close();
    },
    { scope: "file" },
  ],
  page: async ({ app, browser }, use) => {
    const context = await browser.newContext({ baseURL: app.baseURL, locale: "pt-BR" });
    const page = await context.newPage();
    const problems: string[] = [];
    // Chromium logs "Failed to load resource" for every non-2xx response. A document or a single-fetch
    // `.data` request answered 4xx on purpose (a 404 page, an action's 400 with the spec's message, the
    // rate limit's 429) is the test's business; any other console error, and any 5xx, fails the test.
    const expected = new Set<string>();
    page.on("response", (response) => {
      const isDocument = response.request().resourceType() === "document";
      const isData = new URL(response.url()).pathname.endsWith(".data");
      if ((isDocument || isData) && response.status() >= 400 && response.status() < 500) expected.add(response.url());
    });
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      if (message.text().startsWith("Failed to load resource") && expected.has(message.location().url)) return;
      problems.push(`console.error: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
    await use(page);
    await context.close();
    if (problems.length > 0) throw new Error(`The page reported errors:\n${problems.join("\n")}`);
  },
});

/** Runs `run` in a fresh browser context with JavaScript off (the forms must work as plain HTML). */
export async function withoutJavaScript(browser: Browser, app: RunningApp, run: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ baseURL: app.baseURL, javaScriptEnabled: false, locale: "pt-BR" });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

export { expect } from "vitest";
