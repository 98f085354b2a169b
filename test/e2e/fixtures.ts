import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { test as base } from "vitest";
import { launchChromium, type RunningApp, type RunningBrowser } from "./harness";
import { type SharedApp, startSharedApp } from "./shared-app";

/**
 * Browser-test fixtures (`test` below). Each test gets a fresh browser context (no cookies) and a page whose relative URLs resolve
 * against the app. A console error, a React hydration warning or an uncaught exception in any page a test
 * opens — through the fixture, `withoutJavaScript` or `openCheckedPage` — fails the test.
 */

/** Answers that a test provokes on purpose (its "Failed to load resource" is then not an error). */
export type OnPurpose = (url: URL, status: number, request: { resourceType: string; failed: boolean }) => boolean;

/**
 * Chromium logs "Failed to load resource" for every non-2xx response. A document or a single-fetch `.data`
 * request answered 4xx on purpose (a 404 page, an action's 400 with the spec's message, the rate limit's 429)
 * is the test's business; any other console error, and any 5xx, is a failure.
 */
const expectedByDefault: OnPurpose = (url, status, request) =>
  !request.failed &&
  status >= 400 &&
  status < 500 &&
  (request.resourceType === "document" || url.pathname.endsWith(".data"));

/** Collects what the page reports; `problems` is read after the test. */
function watch(page: Page, onPurpose: OnPurpose | undefined, problems: string[]): void {
  const expected = new Set<string>();
  const allowed = (url: string, status: number, resourceType: string, failed: boolean) => {
    const parsed = new URL(url);
    return (
      expectedByDefault(parsed, status, { resourceType, failed }) ||
      (onPurpose?.(parsed, status, { resourceType, failed }) ?? false)
    );
  };
  page.on("response", (response) => {
    if (allowed(response.url(), response.status(), response.request().resourceType(), false))
      expected.add(response.url());
  });
  page.on("requestfailed", (request) => {
    if (allowed(request.url(), 0, request.resourceType(), true)) expected.add(request.url());
  });
  page.on("console", (message) => {
    // React reports hydration mismatches as console errors (and warnings in development builds).
    const hydration = /hydrat|did not match|Minified React error #4(18|19|22|23|25)/i.test(message.text());
    if (message.type() !== "error" && !hydration) return;
    if (message.text().startsWith("Failed to load resource") && expected.has(message.location().url)) return;
    problems.push(`console.${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
}

export type CheckedPage = { page: Page; close: () => Promise<void> };

/**
 * A page in a fresh context on `app`, watched for console errors; `close()` closes the context and throws what
 * the page reported.
 */
export async function openCheckedPage(
  browser: Browser,
  app: Pick<RunningApp, "baseURL">,
  options: BrowserContextOptions & { onPurpose?: OnPurpose } = {},
): Promise<CheckedPage> {
  const { onPurpose, ...contextOptions } = options;
  const context = await browser.newContext({ baseURL: app.baseURL, locale: "pt-BR", ...contextOptions });
  const page = await context.newPage();
  const problems: string[] = [];
  watch(page, onPurpose, problems);
  return {
    page,
    close: async () => {
      await context.close();
      if (problems.length > 0) throw new Error(`The page reported errors:\n${problems.join("\n")}`);
    },
  };
}

/** The shared page fixture over `app` and `browser` (files that need their own app declare these again). */
export const pageFixture = async (
  { app, browser }: { app: RunningApp; browser: Browser },
  use: (page: Page) => Promise<void>,
) => {
  const checked = await openCheckedPage(browser, app);
  await use(checked.page);
  await checked.close();
};

/** What a file adds to its server's seeded data before its tests (known figures), run after each reset. */
export type AppSetup = { run?: (app: RunningApp) => Promise<void> };
/** The data a server starts with: the demo seed, or the empty start (`npm run demo -- --empty`). */
export type AppSeed = "demo" | "empty";

/**
 * What a worker process holds across its files: one seeded server per set of settings and one Chromium, started when
 * a file first asks. (A file fixture cannot take a worker fixture's value in this Vitest, so they live in the module,
 * which the browser-test config keeps for the worker's life, and the `workerTeardown` fixture stops them.)
 */
const workerServers = new Map<string, Promise<SharedApp>>();
let workerBrowser: Promise<RunningBrowser> | undefined;

function sharedServer(env: Record<string, string>, seed: AppSeed): Promise<SharedApp> {
  const key = JSON.stringify([seed, Object.entries(env).sort()]);
  let started = workerServers.get(key);
  if (!started) {
    started = startSharedApp(env, seed);
    workerServers.set(key, started);
  }
  return started;
}

/**
 * The fixtures. Per worker (the browser-test config runs its files in a few long-lived workers): one Chromium, and
 * one seeded server per set of settings (`appEnv`, empty by default). Per file: `app`, that server put back to the
 * seeded state (test/e2e/shared-app.ts), then `appSetup.run` if the file adds data. A file that needs other settings
 * or the empty start names them with `test.scoped({ appEnv: { ... }, appSeed: "empty" })` (Vitest keeps the first
 * definition of a file fixture that `extend` redefines: `scoped` is the way to change one); files with the same
 * settings share their server too.
 */
export const test = base.extend<{
  app: RunningApp;
  appEnv: Record<string, string>;
  appSetup: AppSetup;
  appSeed: AppSeed;
  browser: Browser;
  page: Page;
  workerTeardown: undefined;
}>({
  workerTeardown: [
    async ({}, use) => {
      await use(undefined);
      for (const started of workerServers.values()) await (await started).stop();
      workerServers.clear();
      await (await workerBrowser)?.close();
      workerBrowser = undefined;
    },
    { scope: "worker", auto: true },
  ],
  appEnv: [{}, { scope: "file" }],
  appSetup: [{}, { scope: "file" }],
  appSeed: ["demo", { scope: "file" }],
  app: [
    async ({ appEnv, appSetup, appSeed }, use) => {
      const shared = await sharedServer(appEnv, appSeed);
      await shared.reset();
      await appSetup.run?.(shared.app);
      await use(shared.app);
    },
    { scope: "file" },
  ],
  browser: [
    async ({}, use) => {
      workerBrowser ??= launchChromium();
      await use((await workerBrowser).browser);
    },
    { scope: "file" },
  ],
  page: pageFixture,
});

/** Runs `run` in a fresh, watched browser context with JavaScript off (the forms must work as plain HTML). */
export async function withoutJavaScript(
  browser: Browser,
  app: Pick<RunningApp, "baseURL">,
  run: (page: Page) => Promise<void>,
  options: { onPurpose?: OnPurpose } = {},
): Promise<void> {
  const checked = await openCheckedPage(browser, app, { javaScriptEnabled: false, ...options });
  try {
    await run(checked.page);
  } catch (error) {
    await checked.close().catch(() => undefined); // the test's own failure is the one to report
    throw error;
  }
  await checked.close();
}

export { expect } from "vitest";
