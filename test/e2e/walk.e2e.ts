import { writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe } from "vitest";
import { type Finding, scan, unlabelledControls } from "./axe";
import { expect, test } from "./fixtures";
import { ACCOUNTS, artefactPath, SIGNED_OUT_PAGES, slug, WIDTHS, walkAccount } from "./pages";

/**
 * Every page each of the nine demo accounts can reach (its menus plus the pages no menu links to,
 * test/e2e/pages.ts), as the account meets it, opened once and checked for both:
 * - accessibility: an axe-core scan of WCAG 2.1 A and AA at 1366 px finds no serious or critical violation, and
 *   every visible form control has an accessible name (each scan's full findings, any impact, go to
 *   test-artefacts/a11y/); a path several accounts reach is scanned once, by the first (see `scanned`);
 * - layout: at 1366 px and on a 390 px phone nothing overflows the window (a full-page screenshot of a page that does
 *   is kept in test-artefacts/layout/).
 * The phone menu, the sticky table headers and the error pages: layout.e2e.ts; the dialogs' focus: a11y.e2e.ts.
 */

/** What sticks out past the window's right edge (none: the page never scrolls sideways). */
async function overflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number; offenders: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const offenders: string[] = [];
    if (root.scrollWidth > root.clientWidth) {
      for (const element of Array.from(document.body.querySelectorAll("*"))) {
        const box = element.getBoundingClientRect();
        if (box.right > root.clientWidth + 1 && box.width > 0) {
          // Only the outermost offender of each branch (its children stick out with it).
          if (!offenders.some((o) => element.parentElement?.closest(o))) {
            const id = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${element.classList.length ? `.${[...element.classList].join(".")}` : ""}`;
            offenders.push(id);
          }
        }
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders: offenders.slice(0, 5) };
  });
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  // Drawn charts appear once their code has loaded; the screenshot should show them.
  if ((await page.locator("figure.chart-card .chart-card__plot").count()) === 0) return;
  await page
    .locator("figure.chart-card .chart-card__plot svg")
    .first()
    .waitFor({ timeout: 3_000 })
    .catch(() => undefined);
}

type Results = { blocking: Finding[]; findings: Finding[]; unlabelled: string[]; overflows: string[] };

/**
 * The paths the file's axe scan has covered. A page's markup differs between accounts only in what the account may
 * do there (its menus are the same on every page, scanned on each account's first page), and a scan is most of a
 * page's cost: each path is scanned once, by the first account that meets it; every account's visit still checks the
 * layout and the controls' names.
 */
const scanned = new Set<string>();

/** Both checks on the page as it is now, `who` naming the screenshots' folder; the scan runs at 1366 px. */
async function check(page: Page, who: string, label: string, results: Results, first: boolean): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await settle(page);
    const { scrollWidth, clientWidth, offenders } = await overflow(page);
    if (scrollWidth > clientWidth) {
      results.overflows.push(`${label} at ${size.name} px: ${scrollWidth} > ${clientWidth} (${offenders.join(", ")})`);
      // The page as it overflowed, for whoever reads the failure.
      await page.screenshot({ path: artefactPath("layout", size.name, who, `${slug(label)}.png`), fullPage: true });
    }
    if (size === WIDTHS[0]) {
      if (first || !scanned.has(label)) results.blocking.push(...(await scan(page, label, results.findings)));
      scanned.add(label);
      results.unlabelled.push(...(await unlabelledControls(page, label)));
    }
  }
  await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
}

const fresh = (): Results => ({ blocking: [], findings: [], unlabelled: [], overflows: [] });

function expectClean(results: Results): void {
  expect(results.blocking).toEqual([]);
  expect(results.unlabelled).toEqual([]);
  expect(results.overflows).toEqual([]);
}

describe("every page any account can reach: no serious or critical axe violation, no overflow at 1366 or 390 px", () => {
  for (const { account, name } of ACCOUNTS) {
    test(`${name}`, async ({ app, page }) => {
      await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
      const results = fresh();
      let first = true;
      const visited = await walkAccount(page, app, account, async (path) => {
        await check(page, name, path, results, first);
        first = false;
      });
      writeFileSync(
        artefactPath("a11y", `${name}.json`),
        JSON.stringify({ visited, findings: results.findings }, null, 2),
      );
      expect(visited.length).toBeGreaterThan(0);
      expectClean(results);
    }, 300_000);
  }

  test("signed out: the login screen's states (forgot password, session expired), recovery, /home and the 404 page", async ({
    page,
  }) => {
    await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
    const results = fresh();
    for (const path of SIGNED_OUT_PAGES) {
      await page.goto(path);
      await page.locator("main").waitFor();
      await check(page, "signed-out", path, results, true);
    }
    writeFileSync(
      artefactPath("a11y", "signed-out.json"),
      JSON.stringify({ visited: SIGNED_OUT_PAGES, findings: results.findings }, null, 2),
    );
    expectClean(results);
  });
});
