import { MongoClient } from "mongodb";
import type { Page, Route } from "playwright-core";
import { messages, subscriptionTexts } from "~/messages";
import { expect, test } from "./fixtures";
import type { RunningApp } from "./harness";
import { signIn as signInAs, waitForHydration } from "./sign-in";

/** Dashboards on the native provider, as a USER GOLD sees them. */

const signIn = (page: Page, app: RunningApp, email = "gold@demo.local") => signInAs(page, app.baseURL, email);

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

const pathFor = (d: SeededDashboard) =>
  d.panelType === 1 ? `/ij/painel/${d.painelId}` : `/jobs/dashboard/${d.painelId}`;

test("every seeded dashboard draws its charts, of every kind, with screen-reader tables", async ({ page, app }) => {
  const dashboards = await seededDashboards(app.mongoUri, app.databaseName);
  expect(dashboards.length).toBeGreaterThanOrEqual(4);
  const kindsSeen = new Set<string>();
  await signIn(page, app);
  for (const dashboard of dashboards) {
    const response = await page.goto(pathFor(dashboard));
    expect(response?.status(), pathFor(dashboard)).toBe(200);
    await page.getByRole("heading", { level: 1, name: dashboard.panelLabel }).waitFor();
    // Executed-jobs dashboards are full size; the loading overlay is gone once the page has loaded.
    expect(await page.locator("section.dashboard--full").count()).toBe(dashboard.panelType === 2 ? 1 : 0);
    expect(await page.locator(".loading-overlay").count()).toBe(0);
    for (const chart of dashboard.charts ?? []) {
      const card = page.locator("figure.chart-card", {
        has: page.getByRole("heading", { name: chart.title, exact: true }),
      });
      await card.waitFor();
      expect(await card.getAttribute("data-chart-kind")).toBe(chart.kind);
      expect(await card.getByRole("alert").count(), `${chart.title} failed`).toBe(0);
      if (chart.kind === "bar" || chart.kind === "line" || chart.kind === "pie") {
        // The drawing shows marks of its kind: bars, lines or pie slices.
        const mark = { bar: "chart-plot__bar", line: "chart-plot__line", pie: "chart-plot__slice" }[chart.kind];
        await card.locator(`.chart-card__plot svg .${mark}`).first().waitFor();
        // The drawing is hidden from assistive technology; a table carries the same numbers.
        expect(await card.locator("table").count()).toBe(1);
      } else if (chart.kind === "kpi") {
        expect((await card.locator("dd").first().innerText()).trim()).toMatch(/^-?[\d.]+(,\d+)?$/);
      } else {
        expect(await card.locator("table").isVisible()).toBe(true);
        // Headers come from the chart's labels, accents included ("Coleção", "Usuário").
        const headers = (await card.locator("th").allInnerTexts()).map((t) => t.trim());
        const named = Object.values(chart.labels ?? {});
        if (named.length > 0)
          expect(
            headers.every((h) => named.includes(h)),
            `${chart.title}: ${headers.join(", ")}`,
          ).toBe(true);
      }
      kindsSeen.add(chart.kind);
    }
  }
  expect([...kindsSeen].sort()).toEqual(["bar", "kpi", "line", "pie", "table"]);
});

test("an executed-jobs dashboard shows the loading overlay while its loader runs, also coming from another section", async ({
  page,
  app,
}) => {
  const dashboards = await seededDashboards(app.mongoUri, app.databaseName);
  const intelligent = dashboards.find((d) => d.panelType === 1);
  const jobs = dashboards.filter((d) => d.panelType === 2);
  if (!intelligent || jobs.length < 2)
    throw new Error("the seed has an Intelligent Journey dashboard and two executed-jobs dashboards");
  await signIn(page, app);
  await page.goto(pathFor(intelligent));
  await page.getByRole("heading", { level: 1, name: intelligent.panelLabel }).waitFor();
  const overlay = page.getByRole("status").filter({ hasText: messages.dashboardLoading });
  expect(await overlay.count()).toBe(0);

  // From an /ij dashboard (no /jobs layout on screen yet), then from one executed-jobs dashboard to the next.
  for (const [from, target] of [
    [intelligent, jobs[0]],
    [jobs[0], jobs[1]],
  ] as const) {
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
    await page
      .getByRole("navigation", { name: messages.mainNavigation })
      .getByRole("link", { name: target.panelLabel, exact: true })
      .click();
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
  await signIn(page, app);
  await page.goto(pathFor(first));
  await page.getByRole("heading", { level: 1, name: first.panelLabel }).waitFor();
  // Client-side navigation: through the side menu when it lists the dashboard, else through the router.
  const menuLink = page.getByRole("link", { name: second.panelLabel, exact: true });
  if ((await menuLink.count()) > 0) await menuLink.first().click();
  else {
    await page.waitForFunction(() => !!(window as unknown as { __remixRouter?: unknown }).__remixRouter);
    await page.evaluate(
      (to) =>
        (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(
          to,
        ),
      pathFor(second),
    );
  }
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
  await signIn(page, app);
  expect((await page.goto("/ij/painel/9999"))?.status()).toBe(404);
  expect((await page.goto("/ij/painel/nao-existe"))?.status()).toBe(404);
  expect((await page.goto(`/ij/painel/${jobs.painelId}`))?.status()).toBe(403);
  expect((await page.goto(`/jobs/dashboard/${intelligent.painelId}`))?.status()).toBe(403);
  await page.getByRole("heading", { name: messages.forbiddenTitle }).waitFor();
});

test("a type without dashboards gets 403", async ({ page, app }) => {
  const [first] = await seededDashboards(app.mongoUri, app.databaseName);
  await signIn(page, app, "silver@demo.local");
  expect((await page.goto(pathFor(first)))?.status()).toBe(403);
});

/** Holds the `.data` request of `path` until `release()`; `requested` resolves when the browser has asked. */
async function holdData(page: Page, path: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let requested!: () => void;
  const asked = new Promise<void>((resolve) => (requested = resolve));
  const matches = (url: URL) => url.pathname === `${path}.data`;
  // Every held request (a hover's prefetch and the navigation's own) goes on before the route is removed.
  const held: Array<Promise<void>> = [];
  const handler = async (route: Route) => {
    requested();
    const going = gate.then(() => route.continue());
    held.push(going);
    await going;
  };
  await page.route(matches, handler);
  return {
    asked,
    release: async () => {
      release();
      await Promise.all(held);
      await page.unroute(matches, handler);
    },
  };
}

test("switching Intelligent Journey dashboards, or going back, shows the loading state at once and never the previous figures under the new name", async ({
  page,
  app,
}) => {
  const [first, second] = (await seededDashboards(app.mongoUri, app.databaseName)).filter((d) => d.panelType === 1);
  await signIn(page, app);
  await page.goto(pathFor(first));
  await page.getByRole("heading", { level: 1, name: first.panelLabel }).waitFor();
  const overlay = page.getByRole("status").filter({ hasText: messages.dashboardLoading });
  const firstCard = page.locator("figure.chart-card").first();
  await firstCard.waitFor();
  /** What a person sees at the middle of the first dashboard's first card: the overlay covers it completely. */
  const seenAtFirstCard = async () => {
    const box = await firstCard.boundingBox();
    return page.evaluate(
      ({ x, y }) => {
        const element = document.elementFromPoint(x, y);
        return element?.closest(".route-loading-overlay")
          ? "overlay"
          : element?.closest("figure.chart-card")
            ? "previous figures"
            : "other";
      },
      { x: (box?.x ?? 0) + (box?.width ?? 0) / 2, y: (box?.y ?? 0) + (box?.height ?? 0) / 2 },
    );
  };

  for (const [target, go] of [
    [
      second,
      () =>
        page
          .getByRole("navigation", { name: messages.mainNavigation })
          .getByRole("link", { name: second.panelLabel, exact: true })
          .click(),
    ],
    [first, () => page.goBack()],
    [second, () => page.goForward()],
  ] as const) {
    const held = await holdData(page, pathFor(target));
    await go();
    await held.asked;
    await overlay.waitFor({ state: "visible" });
    expect(await seenAtFirstCard()).toBe("overlay");
    await held.release();
    await page.getByRole("heading", { level: 1, name: target.panelLabel }).waitFor();
    await overlay.waitFor({ state: "detached" });
  }
});

test("Assinar on a native dashboard turns into Cancelar assinatura at once, and back, without a reload", async ({
  page,
  app,
}) => {
  const [first] = (await seededDashboards(app.mongoUri, app.databaseName)).filter((d) => d.panelType === 1);
  await signIn(page, app);
  await page.goto(pathFor(first));
  await waitForHydration(page);
  const subscribe = page.getByRole("button", { name: subscriptionTexts.subscribeDashboard, exact: true });
  const unsubscribe = page.getByRole("button", {
    name: `${subscriptionTexts.unsubscribe}: ${subscriptionTexts.subscribeDashboard}`,
    exact: true,
  });
  await subscribe.click();
  await unsubscribe.waitFor();
  expect(new URL(page.url()).pathname).toBe(pathFor(first));
  await unsubscribe.click();
  await subscribe.waitFor();
});
