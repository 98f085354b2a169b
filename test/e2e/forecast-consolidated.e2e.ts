import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { describe } from "vitest";
import { consolidatedTexts } from "~/features/forecast/consolidated/texts";
import { cycleTexts } from "~/features/forecast/cycle/texts";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { gridTexts } from "~/features/forecast/grid-texts";
import { versionTexts } from "~/features/forecast/versions/texts";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS } from "~/models/forecast-cycle.server";
import { ACCOUNTS, insertScenario, PEOPLE } from "../../app/features/forecast/fixtures";
import { withDb } from "./database";
import { expect, test, withoutJavaScript } from "./fixtures";
import { signIn } from "./sign-in";

/**
 * The consolidated forecast as the people who run the forecast use it, with the clock in RF2's edit month (15
 * February of this year): open an area down to an account group, save a version and compare the RF with it, export
 * what the screen shows; with JavaScript and without; at a laptop's width (1366 px) and a phone's (390 px), where the
 * tree and the year's total stay readable; an approval listed under its cost centre after the saved versions, and a
 * comparison with it of that cost centre only. Known data: two cost centres in an area of their own.
 */

const YEAR = new Date().getUTCFullYear();
const RF = `RF2 ${YEAR}`;
const AREA = "Área E2E Consolidado";
const CENTRES = ["CC9101 - Consolidado Um", "CC9102 - Consolidado Dois"];
const [SALARIES, CHARGES, RENT] = ACCOUNTS;
// RF2 YEAR's window starts in Feb YEAR-1; the fixture's cell at window position i holds base + i, so March of YEAR
// (position 13) holds base + 13 in every account.
const MARCH = 13;
const money = (n: number) => n.toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const centreMarch = SALARIES.base + CHARGES.base + RENT.base + 3 * MARCH;
const peopleMarch = SALARIES.base + CHARGES.base + 2 * MARCH;

test.scoped({
  appEnv: { PORTAL_TODAY: `${YEAR}-02-15` },
  appSetup: {
    run: (app) =>
      withDb(app, async (db) => {
        for (const cc of CENTRES) {
          await insertScenario(db, RF, cc);
          await db.collection(FORECAST).updateMany({ cost_center_concat: cc }, { $set: { level_descr: AREA } });
        }
      }),
  },
});

const consolidatedUrl = `/ij/forecast_consolidado?rf=${encodeURIComponent(RF)}`;
const row = (page: Page, label: string) =>
  page
    .locator(".consolidated__tree tbody tr")
    .filter({ has: page.locator("th", { hasText: label }) })
    .first();
/** The text of a row's cell in a column (its data-column id, e.g. "m_2026-03", "total", "d_total"). */
async function cellText(page: Page, label: string, column: string): Promise<string> {
  const index = await page
    .locator(".consolidated__tree thead th")
    .evaluateAll((ths, id) => ths.findIndex((th) => th.getAttribute("data-column") === id), column);
  expect(index, column).toBeGreaterThan(0);
  return (
    await row(page, label)
      .locator(`> :nth-child(${index + 1})`)
      .innerText()
  ).trim();
}
const march = `m_${YEAR}-03`;

/** Opens the area and its first cost centre by their links; the address keeps what is open. */
async function openArea(page: Page) {
  await page.goto(consolidatedUrl);
  await page.getByRole("heading", { level: 1, name: consolidatedTexts.title }).waitFor();
  await page.getByRole("link", { name: consolidatedTexts.open(AREA), exact: true }).click();
  await page.waitForURL((url) => url.searchParams.getAll("abrir").includes(`a|${AREA}`));
  await row(page, CENTRES[0]).waitFor();
  expect(await cellText(page, AREA, march)).toBe(money(2 * centreMarch));
  expect(await cellText(page, CENTRES[0], march)).toBe(money(centreMarch));
  await page.getByRole("link", { name: consolidatedTexts.open(CENTRES[0]), exact: true }).click();
  await row(page, PEOPLE).waitFor();
  expect(await cellText(page, PEOPLE, march)).toBe(money(peopleMarch));
  // Each cost centre links to its review.
  const review = row(page, CENTRES[0]).getByRole("link", { name: CENTRES[0], exact: true });
  expect(await review.getAttribute("href")).toContain("/ij/report_preview_edit_schneider/");
}

/** Saves a version (SYSTEM ADMIN) and compares the live RF with it from the versions' list. */
async function saveAndCompare(page: Page, name: string) {
  await page.goto(consolidatedUrl);
  await page.locator("summary", { hasText: consolidatedTexts.saveTitle }).click();
  await page.getByLabel(consolidatedTexts.saveName).fill(name);
  await page.getByRole("button", { name: consolidatedTexts.saveButton, exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/ij/forecast_versoes");
  const listed = page.locator("tr", { hasText: name });
  await listed.waitFor();
  await listed.getByRole("link", { name: versionTexts.compare }).click();
  await page.waitForURL((url) => (url.searchParams.get("vs") ?? "").startsWith("v:"));
  await page.getByRole("link", { name: consolidatedTexts.open(AREA), exact: true }).click();
  await row(page, CENTRES[0]).waitFor();
  // Nothing changed since: the difference is zero at every level shown.
  expect(await cellText(page, AREA, "d_total")).toBe("0,00");
  expect(await cellText(page, consolidatedTexts.company, "d_total")).toBe("0,00");
  expect(await cellText(page, CENTRES[0], "p_total")).toBe("0,0%");
}

/** Downloads the export of the view on screen and checks it holds the same rows, collapsible. */
async function exportMatchesScreen(page: Page) {
  const shown = (await page.locator(".consolidated__tree tbody th").allInnerTexts()).map((t) =>
    t.replace(/^[▸▾]\s*/, ""),
  );
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: consolidatedTexts.export }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(consolidatedTexts.excelFile(RF));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync((await file.path())!) as unknown as ArrayBuffer);
  const rows: { label: string; level: number; hidden: boolean }[] = [];
  workbook.worksheets[0].eachRow((r, n) => {
    if (n > 1) rows.push({ label: String(r.getCell(2).value).trim(), level: r.outlineLevel ?? 0, hidden: r.hidden });
  });
  const visible = rows.filter((r) => !r.hidden).map((r) => r.label);
  for (const label of [AREA, CENTRES[0]]) expect(visible).toContain(label);
  expect(visible.length).toBe(shown.length);
  expect(rows.some((r) => r.hidden && r.level === 4)).toBe(true);
}

describe("the consolidated forecast", () => {
  test("with JavaScript at 1366 px: open an area, save a version and compare with it, export the view", async ({
    page,
    app,
  }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    await openArea(page);
    // Back returns to the view before the last toggle.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.getAll("abrir").length === 1);
    // The URL changes first; the rows follow when the view's data is back.
    await expect.poll(() => row(page, PEOPLE).count()).toBe(0);
    await saveAndCompare(page, "E2E com JavaScript");
    await exportMatchesScreen(page);
  });

  test("without JavaScript: the same links, forms and export", async ({ browser, app }) => {
    await withoutJavaScript(browser, app, async (plain) => {
      await plain.setViewportSize({ width: 1366, height: 768 });
      await signIn(plain, app.baseURL, "sysadmin@demo.local");
      await openArea(plain);
      await saveAndCompare(plain, "E2E sem JavaScript");
      // The GET form: compare with the actuals instead, every month's difference shown.
      await plain.getByLabel(consolidatedTexts.compare).selectOption("realizado");
      await plain.getByLabel(consolidatedTexts.columnMonths).check();
      await plain.getByRole("button", { name: consolidatedTexts.apply, exact: true }).click();
      await plain.waitForURL((url) => url.searchParams.get("vs") === "realizado");
      await plain.locator(`.consolidated__tree thead th[data-column="d_${YEAR}-01"]`).waitFor();
      await exportMatchesScreen(plain);
    });
  });

  test("on a phone (390 px): the tree and the year's total are readable, the table scrolls inside the page", async ({
    page,
    app,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    await openArea(page);
    const scroller = page.locator(".consolidated__scroll").first();
    const layout = await scroller.evaluate((el) => ({
      right: el.getBoundingClientRect().right,
      viewport: window.innerWidth,
      page: document.documentElement.scrollWidth,
      focusable: el.getAttribute("tabindex"),
    }));
    expect(layout.right).toBeLessThanOrEqual(layout.viewport + 1);
    expect(layout.page).toBeLessThanOrEqual(layout.viewport + 1);
    expect(layout.focusable).toBe("0");
    // The label column stays in place and takes at most about half the phone's width.
    const label = row(page, CENTRES[0]).locator("th");
    expect(await label.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(390 * 0.5);
    // The year's total, scrolled into view, is next to the still visible label.
    const total = page.locator('.consolidated__tree thead th[data-column="total"]');
    await total.scrollIntoViewIfNeeded();
    expect(await cellText(page, AREA, "total")).toMatch(/^\d{1,3}(\.\d{3})*,\d{2}$/);
    const [labelBox, totalBox] = await Promise.all([label.boundingBox(), total.boundingBox()]);
    expect(labelBox!.x).toBeGreaterThanOrEqual(0);
    expect(totalBox!.x + totalBox!.width).toBeLessThanOrEqual(390 + 1);
    // The cycle's summary below the tree.
    await page.getByRole("heading", { level: 2, name: consolidatedTexts.cycleTitle }).scrollIntoViewIfNeeded();
  });

  test("an approval is listed under its cost centre after the saved versions; comparing with it compares that cost centre only", async ({
    page,
    app,
  }) => {
    const [approved, other] = CENTRES;
    // The first cost centre sent for review by its preparer (recorded as the cycle records a submission).
    await withDb(app, async (db) => {
      const at = new Date();
      const by = "gold@demo.local";
      await db.collection(FORECAST_CYCLE).insertOne({
        ...{ rf: RF, cost_center_concat: approved, state: "submitted", changed_at: at, changed_by: by },
        ...{ changed_by_name: "Gold", submitted_by: by, submitted_at: at, preparers_at_submission: [] },
      });
      await db.collection(FORECAST_CYCLE_EVENTS).insertOne({
        ...{ rf: RF, cost_center_concat: approved, action: "submit", from: "preparing", to: "submitted" },
        ...{ at, by, name: "Gold", comment: "" },
      });
    });
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    await page.goto(reviewPath(RF, approved));
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get("ciclo") === "approve"),
      page
        .locator("form.forecast-cycle__form--approve")
        .getByRole("button", { name: cycleTexts.actions.approve })
        .click(),
    ]);
    // A version saved after the approval still comes first; the approval is in its own section, under its cost centre.
    await page.goto(consolidatedUrl);
    await page.locator("summary", { hasText: consolidatedTexts.saveTitle }).click();
    await page.getByLabel(consolidatedTexts.saveName).fill("E2E depois da aprovação");
    await page.getByRole("button", { name: consolidatedTexts.saveButton, exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/ij/forecast_versoes");
    // The address changes before the list is drawn: its sections' headings are waited for, then read.
    await page.locator("section.versions h2").nth(1).waitFor();
    expect(await page.locator("section.versions h2").allInnerTexts()).toEqual([
      versionTexts.companyTitle,
      versionTexts.approvalsTitle,
    ]);
    const saved = page.getByRole("region", { name: versionTexts.companyTitle });
    await saved.getByRole("row", { name: /E2E depois da aprovação/ }).waitFor();
    expect(await saved.getByText(versionTexts.approvalName(RF, approved)).count()).toBe(0);
    const approvals = page.getByRole("region", { name: versionTexts.approvalsTitle });
    const listed = approvals.getByRole("row", { name: new RegExp(versionTexts.approvalName(RF, approved)) });
    expect(await listed.locator("th").innerText()).toBe(approved);
    expect(await listed.getByRole("link", { name: versionTexts.compareInReview }).getAttribute("href")).toContain(
      `${reviewPath(RF, approved)}?versao=`,
    );
    // Compared with it: that cost centre only, and the screen says so.
    await listed.getByRole("link", { name: versionTexts.compare, exact: true }).click();
    await page.waitForURL((url) => (url.searchParams.get("vs") ?? "").startsWith("v:"));
    await page.getByText(versionTexts.restrictedCompare([approved])).waitFor();
    const company = versionTexts.restrictedCompany([approved]);
    expect(await cellText(page, company, "d_total")).toBe("0,00");
    await page.getByRole("link", { name: consolidatedTexts.open(AREA), exact: true }).click();
    await page.waitForURL((url) => url.searchParams.getAll("abrir").includes(`a|${AREA}`));
    await page.locator(".consolidated__tree").getByRole("link", { name: approved, exact: true }).waitFor();
    expect(await row(page, other).count()).toBe(0);
    expect(await cellText(page, AREA, "d_total")).toBe("0,00");
  });

  test("a preparer (USER GOLD) sees only the cost centres they prepare, and is told so", async ({ page, app }) => {
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto(consolidatedUrl);
    await page.getByText(/^Você vê somente os centros de custo que prepara/).waitFor();
    expect(await page.getByRole("link", { name: consolidatedTexts.open(AREA) }).count()).toBe(0);
    expect(await page.locator("summary", { hasText: consolidatedTexts.saveTitle }).count()).toBe(0);
  });

  test("comparisons reconcile: the review grid's year against the previous RF over the months both hold, and vs Realizado of a year without actuals", async ({
    page,
    app,
  }) => {
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    // The demo's RF1 of this year against RF4 of last year, whose window ends in August: 8 of the year's 12 months.
    const rf1 = `RF1 ${YEAR}`;
    const cc = await withDb(app, async (db) => {
      const centres = await db.collection(FORECAST).distinct("cost_center_concat", { rf: `RF4 ${YEAR - 1}` });
      const [first] = await db
        .collection(FORECAST)
        .distinct("cost_center_concat", { rf: rf1, cost_center_concat: { $in: centres } });
      return first as string;
    });
    await page.goto(`${reviewPath(rf1, cc)}?cols=total`);
    await page.locator(".forecast-grid__body [role=row]").first().waitFor();
    const yy = String(YEAR).slice(2);
    const header = (id: string) => page.locator(`[role=columnheader][data-column="${id}"] .forecast-grid__head-text`);
    expect(await header(`y_${YEAR}`).innerText()).toBe(gridTexts.variance.wholeYear(YEAR));
    expect(await header(`vt_cur_${YEAR}`).innerText()).toBe(`Total ${YEAR} (jan–ago/${yy}, 8 de 12 meses)`);
    expect(await header(`vt_prev_${YEAR}`).innerText()).toBe(
      `Total ${YEAR} RF4 ${YEAR - 1} (jan–ago/${yy}, 8 de 12 meses)`,
    );
    const grand = page
      .locator(".forecast-grid__body [role=row]")
      .filter({ has: page.getByRole("rowheader", { name: gridTexts.grandTotal, exact: true }) });
    const ids = await page
      .locator(".forecast-grid__table [role=columnheader]")
      .evaluateAll((all) => all.map((h) => h.getAttribute("data-column")));
    const shown = async (id: string) => (await grand.locator("> *").nth(ids.indexOf(id)).innerText()).trim();
    const cents = (text: string) =>
      Math.round(Number(text.replace(/\./g, "").replace(",", ".").replace("%", "")) * 100);
    const [current, previous, abs, pct] = await Promise.all(
      ["vt_cur", "vt_prev", "vt_abs", "vt_pct"].map((id) => shown(`${id}_${YEAR}`)),
    );
    expect(cents(abs), `${current} − ${previous}`).toBe(cents(current) - cents(previous));
    const expectedPct = Math.round((Math.abs(cents(abs)) * 1000) / Math.abs(cents(previous))) / 10;
    expect(cents(pct) / 100).toBe(Math.sign(cents(abs)) * expectedPct);

    // The consolidated view of next year's RF1 against the actuals: there are none yet, and it says so.
    const next = `RF1 ${YEAR + 1}`;
    await page.goto(`/ij/forecast_consolidado?rf=${encodeURIComponent(next)}&vs=realizado`);
    await page.getByText(consolidatedTexts.noActuals(YEAR + 1)).waitFor();
    const link = page.getByRole("link", { name: /^Comparar com o realizado de \d{4}$/ });
    const lastYear = Number((await link.innerText()).slice(-4));
    expect(lastYear).toBeLessThan(YEAR + 1);
    await link.click();
    await page.waitForURL((url) => url.searchParams.get("vs") === `realizado:${lastYear}`);
    await page.getByText(consolidatedTexts.actualsOfYear(lastYear, YEAR + 1)).waitFor();
    const compared = await page.locator('.consolidated__tree thead th[data-column="b_total"]').innerText();
    expect(compared).toMatch(new RegExp(`^Total ${lastYear} Realizado`));
    // The company's Δ is the difference of the two totals shown beside it.
    const company = consolidatedTexts.company;
    const aColumn = (await page.locator('.consolidated__tree thead th[data-column="a_total"]').count())
      ? "a_total"
      : "total";
    const [a, b, d] = await Promise.all([aColumn, "b_total", "d_total"].map((id) => cellText(page, company, id)));
    expect(cents(d), `${a} − ${b}`).toBe(cents(a) - cents(b));
  });
});
