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

type SeededDashboard = { painelId: number; panelLabel: string; panelType: number; charts?: { kind: string; title: string }[] };

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
      }
      kindsSeen.add(chart.kind);
    }
  }
  expect([...kindsSeen].sort()).toEqual(["bar", "kpi", "line", "pie", "table"]);
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
