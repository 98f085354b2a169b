import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { MongoClient } from "mongodb";
import type { Page } from "playwright-core";
import { describe } from "vitest";
import { consolidatedTexts } from "~/features/forecast/consolidated/texts";
import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { versionTexts } from "~/features/forecast/versions/texts";
import { jobTexts } from "~/features/uploads-and-jobs/texts";
import { deployTexts, messages } from "~/messages";
import { expect, openCheckedPage, test, withoutJavaScript } from "./fixtures";
import { startApp } from "./harness";
import { artefactPath, WIDTHS } from "./pages";
import { signIn } from "./sign-in";

/**
 * The portal's layout as people open it: the phone folds the side menu behind a Menu button, long tables
 * keep their header row in view, and every error is the portal's own page inside its layout. That no page any demo
 * account can reach overflows at 1366 or 390 px is checked in the same walk as accessibility (walk.e2e.ts).
 */

describe("the phone layout", () => {
  test("folds the side menu behind the header's Menu button, which opens and closes it; a navigation folds it again", async ({
    app,
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto("/jobs/executados");
    const heading = page.getByRole("heading", { level: 1 });
    const menu = page.getByRole("navigation", { name: messages.mainNavigation });
    const toggle = page.getByRole("button", { name: messages.openMenu, exact: true });
    // The page's heading is on the first screen; the menu is folded.
    expect(await menu.isVisible()).toBe(false);
    expect((await heading.boundingBox())?.y ?? 1e9).toBeLessThan(200);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await menu.waitFor({ state: "visible" });
    const close = page.getByRole("button", { name: messages.closeMenu, exact: true });
    expect(await close.getAttribute("aria-expanded")).toBe("true");
    await close.click();
    await menu.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: messages.openMenu, exact: true }).click();
    await menu.getByRole("link", { name: "Repository Master", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/repo/master-data");
    await menu.waitFor({ state: "hidden" });

    // At 1366 px the menu is always shown and there is no Menu button.
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(await menu.isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: messages.openMenu, exact: true }).isVisible()).toBe(false);
    expect(await menu.getByRole("link", { name: messages.closeMenu }).isVisible()).toBe(false);
  });

  test("without JavaScript the Menu button is a link that shows the menu, and its fold link hides it", async ({
    app,
    browser,
    page,
  }) => {
    await signIn(page, app.baseURL, "gold@demo.local");
    const cookies = await page.context().cookies();
    await withoutJavaScript(browser, app, async (plain) => {
      await plain.context().addCookies(cookies);
      await plain.setViewportSize({ width: 390, height: 844 });
      await plain.goto("/repo/format");
      const menu = plain.getByRole("navigation", { name: messages.mainNavigation });
      expect(await menu.isVisible()).toBe(false);
      await plain.getByRole("link", { name: messages.openMenu, exact: true }).click();
      await menu.waitFor({ state: "visible" });
      await menu.getByRole("link", { name: messages.closeMenu }).click();
      await menu.waitFor({ state: "hidden" });
    });
  });
});

describe("long tables keep their header row in view", () => {
  for (const size of WIDTHS) {
    test(`/jobs/executados with 40 rows at ${size.name} px`, async ({ app, page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await signIn(page, app.baseURL, "gold@demo.local");
      await page.goto("/jobs/executados?pageSize=40");
      const box = page.locator("main .data-table__scroll").first();
      const header = box.locator("thead th").first();
      await box.scrollIntoViewIfNeeded();
      // The rows scroll inside the box; the box fits in the window.
      const scrolled = await box.evaluate((element) => {
        element.scrollTop = 600;
        return { top: element.scrollTop, fits: element.getBoundingClientRect().height <= window.innerHeight };
      });
      expect(scrolled.top).toBeGreaterThan(0);
      expect(scrolled.fits).toBe(true);
      const boxTop = (await box.boundingBox())?.y ?? Number.NaN;
      const headerTop = (await header.boundingBox())?.y ?? Number.NaN;
      expect(Math.abs(headerTop - boxTop)).toBeLessThanOrEqual(2);
      // The header row is what is seen at the top of the box, above the rows that went under it.
      const atTop = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest("th")?.textContent ?? null,
        {
          x: ((await header.boundingBox())?.x ?? 0) + 8,
          y: headerTop + 6,
        },
      );
      expect(atTop).toBe(await header.textContent());
      await page.screenshot({ path: artefactPath("layout", size.name, "sticky-header-jobs-executados.png") });
    });
  }
});

/** Where a column sits (its header and every cell of the page) against the window and the table's scroll box, px. */
async function columnPlace(page: Page, name: string) {
  const header = page.locator("main .data-table__scroll thead th").filter({ hasText: new RegExp(`^${name}$`) });
  return header.first().evaluate((th) => {
    const table = th.closest("table");
    const index = Array.from(th.parentElement?.children ?? []).indexOf(th);
    const cells = [th, ...Array.from(table?.querySelectorAll(`tbody tr > :nth-child(${index + 1})`) ?? [])];
    const box = th.closest(".data-table__scroll")?.getBoundingClientRect();
    const right = Math.max(...cells.map((c) => c.getBoundingClientRect().right));
    const visibleRight = Math.min(window.innerWidth, box?.right ?? window.innerWidth);
    return {
      left: Math.round(th.getBoundingClientRect().left),
      right: Math.round(right),
      visibleRight: Math.round(visibleRight),
    };
  });
}

describe("the columns people read are in view without scrolling sideways", () => {
  test("at 1366 px the processing list's Mensagem column and the versions' actions; on a phone the status board's Situação", async ({
    app,
    page,
  }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto("/captura/processando");
    await page.locator("main .data-table__scroll tbody tr").first().waitFor();
    const message = await columnPlace(page, jobTexts.columnMessage);
    expect(message.right, JSON.stringify(message)).toBeLessThanOrEqual(message.visibleRight);
    // The file names stay cut at 15 characters (and "..."), as the spec has them.
    const names = await page
      .locator("main .job-name")
      .evaluateAll((all) => all.map((e) => (e.querySelector(".tooltip-anchor__text") ?? e).textContent ?? ""));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => n.length > 15 + "...".length)).toEqual([]);

    // The versions' list: a version saved from the consolidated view lists its actions whole, in view.
    await page.context().clearCookies();
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    await page.goto("/ij/forecast_consolidado");
    await page.locator("summary", { hasText: consolidatedTexts.saveTitle }).click();
    await page.getByLabel(consolidatedTexts.saveName).fill("Versão com um nome bem comprido para a lista");
    await page.getByRole("button", { name: consolidatedTexts.saveButton, exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/ij/forecast_versoes");
    const listed = page.locator("tr", { hasText: "Versão com um nome bem comprido" });
    for (const name of [versionTexts.open, versionTexts.compare, versionTexts.export]) {
      const action = listed.getByRole("link", { name, exact: true });
      const place = await action.evaluate((link) => {
        const box = link.closest(".data-table__scroll")?.getBoundingClientRect();
        const own = link.getBoundingClientRect();
        return { right: Math.round(own.right), visibleRight: Math.round(Math.min(window.innerWidth, box?.right ?? 0)) };
      });
      expect(place.right, `${name} ${JSON.stringify(place)}`).toBeLessThanOrEqual(place.visibleRight);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await page.context().clearCookies();
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    await page.goto("/ij/forecast_status");
    await page.locator("main .data-table__scroll tbody tr").first().waitFor();
    const state = await columnPlace(page, boardTexts.state);
    expect(state.right, JSON.stringify(state)).toBeLessThanOrEqual(state.visibleRight);
  });
});

describe("error pages are the portal's own, inside its layout", () => {
  test("404: branded with the tenant's name, theme and menus, at any unknown address, with no console error; favicon.ico exists", async ({
    app,
    page,
  }) => {
    const favicon = await page.request.get(`${app.baseURL}/favicon.ico`);
    expect(favicon.status()).toBe(200);
    expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));

    // Signed out: the brand and the theme, no menus.
    const anonymous = await page.goto("/nao-existe");
    expect(anonymous?.status()).toBe(404);
    await page.getByRole("heading", { name: messages.notFoundTitle }).waitFor();
    expect((await page.locator(".shell__brand").innerText()).trim()).toBe("Journey Portal");
    expect(await page.locator("head style").first().innerHTML()).toContain("--color-primary:");
    expect(await page.locator('head link[rel="icon"]').count()).toBeGreaterThan(0);

    await signIn(page, app.baseURL, "gold@demo.local");
    for (const address of ["/nao-existe", "/home/x", "/ij/nao-existe", "/repo/format/x", "/jobs/a/b/c"]) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(404);
      await page.getByRole("heading", { name: messages.notFoundTitle }).waitFor();
      expect((await page.locator(".shell__brand").innerText()).trim(), address).toBe("Journey Portal");
      expect(await page.getByRole("navigation", { name: messages.userMenu }).isVisible(), address).toBe(true);
      expect(await page.getByRole("navigation", { name: messages.mainNavigation }).isVisible(), address).toBe(true);
      // Hydrated without a mismatch (the fixture fails on any console error): the page's links are the router's.
      await page.waitForFunction(() =>
        Object.keys(document.querySelector(".error-page a") ?? {}).some((k) => k.startsWith("__reactFiber$")),
      );
    }
    // A client-side navigation to an unknown address shows the same page.
    await page.goto("/repo/format");
    // Hydration runs in a transition after the load event: wait for the router before using it.
    await page.waitForFunction(() => !!(window as unknown as { __remixRouter?: unknown }).__remixRouter);
    await page.evaluate(() =>
      (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(
        "/sem/pagina",
      ),
    );
    await page.getByRole("heading", { name: messages.notFoundTitle }).waitFor();
    expect(await page.getByRole("navigation", { name: messages.mainNavigation }).isVisible()).toBe(true);
  });

  test("503: when the database is gone the error page is still the portal's, with its brand and theme", async ({
    browser,
  }) => {
    const app = await startApp({ seed: false, dbTimeoutMs: 1_500 });
    try {
      // A signed-in USER GOLD, written straight into the database (this app has no seed).
      const client = await new MongoClient(app.mongoUri).connect();
      const id = crypto.randomBytes(24).toString("base64url");
      const now = new Date();
      try {
        const db = client.db(app.databaseName);
        await db
          .collection("user_permissions")
          .insertOne({ user: "ouro@e2e.local", name: "Ouro", type: "USER GOLD", stores: [], createdAt: now });
        await db.collection("sessions").insertOne({
          _id: id as never,
          email: "ouro@e2e.local",
          createdAt: now,
          lastSeenAt: now,
          idleExpiresAt: new Date(now.getTime() + 3_600_000),
          absoluteExpiresAt: new Date(now.getTime() + 3_600_000),
        });
      } finally {
        await client.close();
      }
      const cookie = (
        await createCookie("__session", {
          secrets: [app.sessionSecret],
          httpOnly: true,
          sameSite: "lax",
          path: "/",
        }).serialize(id)
      ).split(";")[0];
      const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
      // The 503 document is the test's purpose; its "Failed to load resource" is expected.
      const checked = await openCheckedPage(browser, app, {
        onPurpose: (_url, status, request) => request.resourceType === "document" && status === 503,
      });
      try {
        await checked.page.context().addCookies([{ name, value, url: app.baseURL }]);
        expect((await checked.page.goto("/repo/format"))?.status()).toBe(200);
        await app.stopDatabase();
        const response = await checked.page.goto("/repo/format");
        // The request that meets the failure renders the portal's boundary (503, Retry-After), not a bare 500.
        expect(response?.status()).toBe(503);
        await checked.page.getByRole("heading", { name: deployTexts.unavailableTitle }).waitFor();
        expect(await checked.page.getByText(deployTexts.unavailable).isVisible()).toBe(true);
        expect((await checked.page.locator(".shell__brand").innerText()).trim()).toBe("Journey Portal");
        expect(await checked.page.locator("head style").first().innerHTML()).toContain("--color-primary:");
        await checked.page.screenshot({ path: artefactPath("layout", "1366", "error-500.png") });
      } finally {
        await checked.close();
      }
    } finally {
      await app.stop();
    }
  });
});
