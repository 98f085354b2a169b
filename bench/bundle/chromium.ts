/**
 * The JS a person's browser fetches: the production build on the embedded database with the browser tests' demo seed
 * (test/e2e/harness.ts), Debian's Chromium at 1366×768, a fresh browser context per page (nothing cached), signed in
 * as the page's demo account. Every page of bench/load/pages.ts, a few more screens, and the login screen (`/`)
 * signed out, each loaded fully (the load event, then no request for 500 ms, 2.5 s more for work the page defers to
 * an idle moment, then quiet again). For each page: the gzip bytes (level 9) of every script it fetched, what was
 * transferred for them (the server's Brotli), the manifest figure of its route (bench/bundle/manifest.ts) and the
 * budget (110 kB; a native dashboard 140 kB; 1 kB = 1,000 bytes). Exits 1 when a page is over its budget.
 *
 *   npm run build && npx tsx bench/bundle/chromium.ts [--only painel,plan_edit] [--files]
 *
 * `--files` lists each page's scripts beyond its manifest figure (chunks loaded by dynamic import).
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { MongoClient } from "mongodb";
import type { Browser } from "playwright-core";
import { launchChromium, startApp } from "../../test/e2e/harness";
import { type Account, PAGES, type Page, pagesNamed, signIn, spec001Pages } from "../load/pages";
import { budgetOf, kB, readClientBuild, routeFiles } from "./manifest";

const { values: args } = parseArgs({ options: { only: { type: "string" }, files: { type: "boolean" } } });

/** Screens bench/load/pages.ts does not list (it measures server time on data pages). */
const MORE_PAGES: Page[] = [
  { name: "/captura/manual", path: "/captura/manual", as: "gold" },
  { name: "/captura/automacao", path: "/captura/automacao", as: "gold" },
  { name: "/ij/plan", path: "/ij/plan", as: "gold" },
  { name: "/ij/report_create", path: "/ij/report_create", as: "gold" },
  { name: "/ij/report/reviews", path: "/ij/report/reviews", as: "gold" },
  { name: "/ij/rh", path: "/ij/rh", as: "gold" },
  { name: "/user/settings", path: "/user/settings", as: "gold" },
  { name: "/user/notices", path: "/user/notices", as: "gold" },
  { name: "/user/subscriptions", path: "/user/subscriptions", as: "gold" },
];
const SIGNED_OUT = "signed out";
const LOGIN: Omit<Page, "as"> & { as: Account | typeof SIGNED_OUT } = {
  name: "/ (login, signed out)",
  path: "/",
  as: SIGNED_OUT,
};
type Target = typeof LOGIN;

type Fetched = { url: string; gzip: number; transfer: number };
type Measured = { page: Target; status: number; routeId: string; scripts: Fetched[] };

/** One full load of `page` in a fresh context: every same-origin script it fetched. */
async function measurePage(browser: Browser, base: string, page: Target, cookie: string | undefined) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  if (cookie) {
    const [name, ...value] = cookie.split("=");
    await context.addCookies([{ name, value: value.join("="), url: base }]);
  }
  const tab = await context.newPage();
  const reads: Promise<Fetched | undefined>[] = [];
  tab.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin !== new URL(base).origin || !url.pathname.endsWith(".js")) return;
    reads.push(
      (async () => {
        const body = await response.body().catch(() => undefined);
        if (!body) return undefined;
        const sizes = await response.request().sizes();
        return { url: url.pathname, gzip: gzipSync(body, { level: 9 }).length, transfer: sizes.responseBodySize };
      })(),
    );
  });
  const response = await tab.goto(base + page.path, { waitUntil: "load" });
  await tab.waitForLoadState("networkidle");
  await tab.waitForTimeout(2_500);
  await tab.waitForLoadState("networkidle");
  const routeId = await tab.evaluate(
    () =>
      (
        window as unknown as { __remixRouter?: { state: { matches: { route: { id: string } }[] } } }
      ).__remixRouter?.state.matches.at(-1)?.route.id ?? "",
  );
  const scripts = (await Promise.all(reads)).filter((s): s is Fetched => s !== undefined);
  await context.close();
  const unique = new Map(scripts.map((s) => [s.url, s]));
  return { page, status: response?.status() ?? 0, routeId, scripts: [...unique.values()] } satisfies Measured;
}

async function main() {
  const build = readClientBuild();
  if (!build) throw new Error("run `npm run build` first");
  const app = await startApp();
  const chromium = await launchChromium();
  try {
    const client = await new MongoClient(app.mongoUri).connect();
    // The audit screen is measured on the entries the seed wrote: the server-time bench's million are not needed.
    const dataPages = await spec001Pages(client.db(app.databaseName), { auditEntries: 0 });
    await client.close();
    const pages: Target[] = [
      LOGIN,
      ...pagesNamed(
        [...PAGES, ...dataPages, ...MORE_PAGES].filter((p) => p.path !== "/healthz"),
        args.only,
        [],
      ),
    ];
    const cookies = new Map<Account, string>();
    for (const account of new Set(pages.map((p) => p.as)))
      if (account !== SIGNED_OUT) cookies.set(account, await signIn(app.baseURL, account));
    console.log(
      `# bench/bundle/chromium — ${new Date().toISOString()}, ${chromium.browser.version()}, 1366×768, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
    );
    console.log("| page | status | scripts | fetched JS gzip kB | transferred kB | manifest kB | budget kB | ratio |");
    console.log("|---|---|---|---|---|---|---|---|");
    let over = 0;
    for (const page of pages) {
      const m = await measurePage(
        chromium.browser,
        app.baseURL,
        page,
        page.as === SIGNED_OUT ? undefined : cookies.get(page.as),
      );
      const gzip = m.scripts.reduce((s, f) => s + f.gzip, 0);
      const transfer = m.scripts.reduce((s, f) => s + f.transfer, 0);
      const manifest = m.routeId ? routeFiles(build.manifest, m.routeId) : new Set<string>();
      const manifestBytes = [...manifest].reduce((s, f) => s + build.gzipped(f), 0);
      const budget = budgetOf(m.routeId);
      if (gzip > budget) over++;
      console.log(
        `| ${page.name} | ${m.status} | ${m.scripts.length} | ${kB(gzip)} | ${kB(transfer)} | ${kB(manifestBytes)} | ${kB(budget)} | ${(gzip / budget).toFixed(2)}${gzip > budget ? " ✗" : ""} |`,
      );
      if (args.files) {
        const beyond = m.scripts.filter((s) => !manifest.has(s.url));
        for (const s of beyond)
          console.log(`|   beyond the manifest: ${s.url} | | | ${kB(s.gzip)} | ${kB(s.transfer)} | | | |`);
      }
    }
    console.log(over === 0 ? `all ${pages.length} pages within budget` : `${over} page(s) over budget`);
    process.exitCode = over === 0 ? 0 : 1;
  } finally {
    await chromium.close();
    await app.stop();
  }
}

await main();
