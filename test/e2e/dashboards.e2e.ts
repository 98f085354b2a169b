import { MongoClient } from "mongodb";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD } from "~/seed/accounts";
import { messages } from "~/messages";
import { expect, test } from "./fixtures";

/**
 * Dashboards on the native provider, as a USER GOLD sees them.
 * Signs in through the login form; replace `signIn` by the shared fixture once the host work has one.
 */

async function signIn(page: Page, email = "gold@demo.local") {
  await page.goto("/");
  await page.getByLabel(messages.emailLabel).fill(email);
  await page.getByLabel(messages.passwordLabel).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: messages.loginButton }).click();
  await page.waitForURL((url) => url.pathname !== "/");
}

type SeededDashboard = {
  painelId: number;
  panelLabel: string;
  panelType: number;
  charts?: { kind: string; title: string; labels?: Record<string, string> }[];
};

async function seededDashboards(mongoUri: string, databaseName: string): Promise<SeededDashboard[]> {
  const client = new MongoClient(mongoUri);
  try {
    await client.connect();
    return await client
      .db(databaseName)
      .collection<SeededDashboard>("dashboards")
      .find({}, { projection: { _id: 0, painelId: 1, panelLabel: 1, panelType: 1, charts: 1 } })
      .sort({ painelId: 1 })
      .toArray();
  } finally {
    await client.close();
  }
}

const pathFor = (d: SeededDashboard) => (d.panelType === 1 ? `/ij/painel/${d.painelId}` : `/jobs/dashboard/${d.painelId}`);

test("every seeded dashboard draws its charts, of every kind, with screen-reader tables", async ({ page, app }) => {
  const dashboards = await seededDashboards(app.mongoUri, app.databaseName);
  expect(dashboards.length).toBeGreaterThanOrEqual(4);
  const kindsSeen = new Set<string>();
  await signIn(page);
  for (const dashboard of dashboards) {
    const response = await page.goto(pathFor(dashboard));
    expect(response?.status(), pathFor(dashboard)).toBe(200);
    await page.getByRole("heading", { level: 1, name: dashboard.panelLabel }).waitFor();
    // Executed-jobs dashboards are full size; the loading overlay is gone once the page has loaded.
    expect(await page.locator("section.dashboard--full").count()).toBe(dashboard.panelType === 2 ? 1 : 0);
    expect(await page.locator(".loading-overlay").count()).toBe(0);
    for (const chart of dashboard.charts ?? []) {
      const card = page.locator("figure.chart-card", { has: page.getByRole("heading", { name: chart.title, exact: true }) });
      await card.waitFor();
      expect(await card.getAttribute("data-chart-kind")).toBe(chart.kind);
      expect(await card.getByRole("alert").count(), `${chart.title} failed`).toBe(0);
      if (chart.kind === "bar" || chart.kind === "line" || chart.kind === "pie") {
        await card.locator("svg.recharts-surface").first().waitFor();
        // The drawing is hidden from assistive technology; a table carries the same numbers.
        expect(await card.locator("table").count()).toBe(1);
      } else if (chart.kind === "kpi") {
        expect((await card.locator("dd").first().innerText()).trim()).toMatch(/^-?[\d.]+(,\d+)?$/);
      } else {
        expect(await card.locator("table").isVisible()).toBe(true);
        // Headers come from the chart's labels, accents included ("Coleção", "Usuário").
        const headers = (await card.locator("th").allInnerTexts()).map((t) => t.trim());
        const named = Object.values(chart.labels ?? {});
        if (named.length > 0) expect(headers.every((h) => named.includes(h)), `${chart.title}: ${headers.join(", ")}`).toBe(true);
      }
      kindsSeen.add(chart.kind);
    }
  }
  expect([...kindsSeen].sort()).toEqual(["bar", "kpi", "line", "pie", "table"]);
});

test("an executed-jobs dashboard shows the loading overlay while its loader runs, also coming from another section", async ({ page, app }) => {
  const dashboards = await seededDashboards(app.mongoUri, app.databaseName);
  const intelligent = dashboards.find((d) => d.panelType === 1);
  const jobs = dashboards.filter((d) => d.panelType === 2);
  if (!intelligent || jobs.length < 2) throw new Error("the seed has an Intelligent Journey dashboard and two executed-jobs dashboards");
  await signIn(page);
  await page.goto(pathFor(intelligent));
  await page.getByRole("heading", { level: 1, name: intelligent.panelLabel }).waitFor();
  const overlay = page.getByRole("status").filter({ hasText: messages.dashboardLoading });
  expect(await overlay.count()).toBe(0);

  // From an /ij dashboard (no /jobs layout on screen yet), then from one executed-jobs dashboard to the next.
  for (const [from, target] of [[intelligent, jobs[0]], [jobs[0], jobs[1]]] as const) {
    // The loader's data request (prefetch or navigation) waits until the test has seen the overlay.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let requested!: () => void;
    const seen = new Promise<void>((resolve) => (requested = resolve));
    const isTargetData = (url: URL) => url.pathname === `${pathFor(target)}.data`;
    await page.route(isTargetData, async (route) => {
      requested();
      await gate;
      await route.continue();
    });
    await page.getByRole("navigation", { name: messages.mainNavigation }).getByRole("link", { name: target.panelLabel, exact: true }).click();
    await seen;
    await overlay.waitFor({ state: "visible" });
    // Still the previous page underneath, announced as busy loading the next.
    expect(new URL(page.url()).pathname).toBe(pathFor(from));
    release();
    await page.waitForURL(`**${pathFor(target)}`);
    await page.getByRole("heading", { level: 1, name: target.panelLabel }).waitFor();
    await overlay.waitFor({ state: "detached" });
    await page.unroute(isTargetData);
  }
});

test("the dashboard reloads when the id changes, also with back and forward", async ({ page, app }) => {
  const intelligent = (await seededDashboards(app.mongoUri, app.databaseName)).filter((d) => d.panelType === 1);
  const [first, second] = intelligent;
  await signIn(page);
  await page.goto(pathFor(first));
  await page.getByRole("heading", { level: 1, name: first.panelLabel }).waitFor();
  // Client-side navigation: through the side menu when it lists the dashboard, else through the router.
  const menuLink = page.getByRole("link", { name: second.panelLabel, exact: true });
  if ((await menuLink.count()) > 0) await menuLink.first().click();
  else await page.evaluate((to) => (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(to), pathFor(second));
  await page.waitForURL(`**${pathFor(second)}`);
  await page.getByRole("heading", { level: 1, name: second.panelLabel }).waitFor();
  await page.goBack();
  await page.getByRole("heading", { level: 1, name: first.panelLabel }).waitFor();
  expect(new URL(page.url()).pathname).toBe(pathFor(first));
  await page.goForward();
  await page.getByRole("heading", { level: 1, name: second.panelLabel }).waitFor();
});

test("an unknown id is 404 and a dashboard of the other kind is 403", async ({ page, app }) => {
  const dashboards = await seededDashboards(app.mongoUri, app.databaseName);
  const jobs = dashboards.find((d) => d.panelType === 2);
  const intelligent = dashboards.find((d) => d.panelType === 1);
  if (!jobs || !intelligent) throw new Error("the seed has both kinds of dashboards");
  await signIn(page);
  expect((await page.goto("/ij/painel/9999"))?.status()).toBe(404);
  expect((await page.goto("/ij/painel/nao-existe"))?.status()).toBe(404);
  expect((await page.goto(`/ij/painel/${jobs.painelId}`))?.status()).toBe(403);
  expect((await page.goto(`/jobs/dashboard/${intelligent.painelId}`))?.status()).toBe(403);
  await page.getByRole("heading", { name: messages.forbiddenTitle }).waitFor();
});

test("a type without dashboards gets 403", async ({ page, app }) => {
  const [first] = await seededDashboards(app.mongoUri, app.databaseName);
  await signIn(page, "silver@demo.local");
  expect((await page.goto(pathFor(first)))?.status()).toBe(403);
});
