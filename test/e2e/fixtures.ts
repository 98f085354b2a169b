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
    // A document answered with an error status (a 404 page on purpose) is the test's business, not a page error.
    const documents = new Set<string>();
    page.on("response", (response) => {
      if (response.request().resourceType() === "document") documents.add(response.url());
    });
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      if (message.text().startsWith("Failed to load resource") && documents.has(message.location().url)) return;
      problems.push(`console.error: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
    await use(page);
    await context.close();
    if (problems.length > 0) throw new Error(`The page reported errors:\n${problems.join("\n")}`);
  },
});

export { expect } from "vitest";
