import type { Locator, Page } from "playwright-core";
import { describe } from "vitest";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { forecastTexts, hrTexts } from "~/messages";
import { HR_AUX } from "~/models/hr.server";
import { monthKey, monthOfDate } from "~/shared/months";
import { ACCOUNTS, assignPreparer, insertScenario } from "../../app/features/forecast/fixtures";
import { withDb } from "./database";
import { expect, openCheckedPage, test } from "./fixtures";
import type { RunningApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * The grids at a phone's width (390 px) and a laptop's (1366 px), as a user sees them: a sticky button is never
 * painted over (the element at its centre is the button itself), a pinned column takes at most about 45 % of a
 * phone's width, and a grid that scrolls sideways shows that it does (a scrollbar drawn, not an overlay that appears
 * only while scrolling). Planning, the forecast review, HR and the master-data tables.
 */

const YEAR = new Date().getUTCFullYear();
const OPEN = `RF2 ${YEAR}`;
const CC = "CC9002 - Layout";

test.scoped({
  appEnv: { PORTAL_TODAY: `${YEAR}-02-15` },
  appSetup: {
    // gold@demo.local prepares it: a preparer reads only the cost centres they prepare.
    run: (app) =>
      withDb(app, async (db) => {
        await insertScenario(db, OPEN, CC);
        await assignPreparer(db, "gold@demo.local", CC);
      }),
  },
});

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
];

/** The HR grid of a seeded branch, for the last month with rows. */
async function hrGridPath(app: RunningApp): Promise<string> {
  const latest = await withDb(app, (db) =>
    db
      .collection(HR_AUX)
      .find({}, { projection: { filial_nome: 1, mes_apur: 1 } })
      .sort({ mes_apur: -1 })
      .limit(1)
      .next(),
  );
  const month = monthKey(monthOfDate(latest!.mes_apur as Date));
  return `/ij/rh_edit/${encodeURIComponent(String(latest!.filial_nome))}?mes_inicio=${month}&mes_fim=${month}`;
}

/** Whether the element at the centre of `button` is the button (or inside it): nothing paints over it. */
async function reachable(button: Locator): Promise<boolean> {
  return button.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });
}

/** For a scroll area: does its content overflow sideways, and is a horizontal scrollbar drawn (taking height)? */
async function scrollState(
  area: Locator,
): Promise<{ overflows: boolean; scrollbar: number; rightEdge: number; viewport: number }> {
  return area.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    return {
      overflows: el.scrollWidth > el.clientWidth + 1,
      scrollbar: (el as HTMLElement).offsetHeight - el.clientHeight - borders,
      rightEdge: box.right,
      viewport: window.innerWidth,
    };
  });
}

async function expectScrollAffordance(page: Page, area: Locator, label: string) {
  await area.waitFor();
  const state = await scrollState(area);
  // The area fits the viewport (nothing clipped by an ancestor), and when it scrolls, its scrollbar is drawn.
  expect(state.rightEdge, `${label}: right edge`).toBeLessThanOrEqual(state.viewport + 1);
  if (state.overflows) expect(state.scrollbar, `${label}: a scrollbar is drawn`).toBeGreaterThan(0);
  // It can be reached by keyboard (axe's scrollable-region-focusable).
  expect(await area.getAttribute("tabindex"), `${label}: focusable`).toBe("0");
  // The page itself never scrolls sideways.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
    `${label}: no page overflow`,
  ).toBe(true);
}

describe("grids at 390 and 1366 px", () => {
  for (const size of WIDTHS) {
    test(`${size.width} px: sticky buttons are never covered, pinned columns stay narrow on a phone, scrolling shows`, async ({
      app,
      page,
    }) => {
      await page.setViewportSize(size);
      await signIn(page, app.baseURL, "gold@demo.local");

      // HR: the save bar above the pinned names, whatever the grid's scroll.
      await page.goto(await hrGridPath(app));
      const grid = page.locator(".hr-grid");
      await expectScrollAffordance(page, grid, "HR grid");
      const names = page.locator(".hr-grid__name").first();
      if (size.width === 390) {
        const width = await names.evaluate((el) => el.getBoundingClientRect().width);
        expect(width).toBeLessThanOrEqual(size.width * 0.45 + 1);
      }
      const save = page.getByRole("button", { name: hrTexts.save, exact: true });
      const discard = page.getByRole("button", { name: hrTexts.discard, exact: true });
      for (const position of [0, 0.5, 1]) {
        // The page scrolled so that grid rows (pinned names among them) pass under the sticky bar.
        await page.evaluate(
          (at) => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) * at),
          position,
        );
        await grid.evaluate((el) => (el.scrollLeft = el.scrollWidth));
        for (const button of [save, discard]) {
          await button.scrollIntoViewIfNeeded();
          expect(await reachable(button), `HR ${await button.textContent()} at ${position}`).toBe(true);
        }
      }

      // The forecast review: the pinned account column leaves room for the months on a phone.
      await page.goto(reviewPath(OPEN, CC));
      const forecast = page.locator(".forecast-grid__scroll");
      await expectScrollAffordance(page, forecast, "forecast grid");
      if (size.width === 390) {
        const pinned = await page
          .locator(".forecast-grid__table .is-pinned")
          .first()
          .evaluate((el) => el.getBoundingClientRect().width);
        expect(pinned).toBeLessThanOrEqual(size.width * 0.45 + 1);
      }

      // Planning: the filter's quantities.
      await page.goto("/ij/plan_edit?chanel=WHOLESALES&dateStart=2000-01-01&dateEnd=2030-12-30");
      await expectScrollAffordance(page, page.locator(".data-table__scroll").first(), "planning grid");

      // Master data: a base with many columns.
      await page.goto("/repo/master-data/planejamento?tab=quantity");
      await expectScrollAffordance(page, page.locator(".data-table__scroll").first(), "master data");
    });
  }
});

test("phone with a touch screen: the forecast grid starts near the top, and a double-tapped cell opens clear of the pinned column", async ({
  app,
  browser,
}) => {
  const { page, close } = await openCheckedPage(browser, app, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  try {
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto(reviewPath(OPEN, CC));
    const scroller = page.locator(".forecast-grid__scroll");
    await page.waitForFunction(() => {
      const row = document.querySelector(".forecast-grid__body [role=row]");
      return row !== null && Object.keys(row).some((key) => key.startsWith("__reactFiber$"));
    });
    // And its keys and editor, loaded once the grid is in the browser (grid-edit-keys.tsx).
    await page.locator(".forecast-grid__scroll[data-keys=ready]").waitFor();
    // The keyboard help and the Excel tools are folded away (closed, but one tap opens them).
    await expect.poll(() => page.getByText(forecastTexts.keyboardHelp).isVisible()).toBe(false);
    expect(await page.getByText(forecastTexts.moreOptions).isVisible()).toBe(true);
    // Under the header, the preparer's cycle line (state, actions), the edit notice and the folded tools: the grid
    // still starts within the first screen, with its first rows visible.
    const top = await scroller.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    expect(top).toBeLessThan(720);

    // A forecast cell half under the pinned "Conta" column, double-tapped: its editor is fully beside the column.
    const index = await page
      .locator("[role=columnheader]")
      .evaluateAll((ths, id) => ths.findIndex((th) => th.getAttribute("data-column") === id), `m_${YEAR}-06`);
    const row = page
      .locator(".forecast-grid__body [role=row]")
      .filter({ has: page.locator("[role=rowheader]", { hasText: ACCOUNTS[0].label }) })
      .first();
    const target = row.locator(`> :nth-child(${index + 1})`);
    await scroller.evaluate((el, i) => {
      const rowEl = el.querySelector(".forecast-grid__body [role=row]")!;
      const pinned = (rowEl.children[0] as HTMLElement).getBoundingClientRect().width;
      const cellEl = rowEl.children[i] as HTMLElement;
      el.scrollLeft = cellEl.offsetLeft - pinned + cellEl.offsetWidth / 2;
    }, index);
    await target.dispatchEvent("dblclick");
    const editor = page.locator(".forecast-grid__input");
    await editor.waitFor();
    await expect
      .poll(async () => {
        const pinnedRight = await row.locator("[role=rowheader]").evaluate((el) => el.getBoundingClientRect().right);
        const left = await editor.evaluate((el) => el.getBoundingClientRect().left);
        return left >= pinnedRight - 1;
      })
      .toBe(true);
    await page.keyboard.press("Escape");
  } finally {
    await close();
  }
});
