import { type Db, MongoClient } from "mongodb";
import type { Locator, Page } from "playwright-core";
import { afterAll } from "vitest";
import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { cycleAnswerTexts, cycleNoticeTexts } from "~/features/forecast/cycle/server-texts";
import { cycleTexts } from "~/features/forecast/cycle/texts";
import { commentPath, reviewPath } from "~/features/forecast/forecast-filter";
import { gridTexts } from "~/features/forecast/grid-texts";
import { preparersTexts } from "~/features/forecast/preparers/texts";
import { profileTexts } from "~/features/forecast/profiles/texts";
import { spreadBaseTexts, spreadSignTexts } from "~/features/forecast/spread-texts";
import { noticeTexts } from "~/features/notices/texts";
import { savedViewTexts } from "~/features/saved-views/texts";
import { auditTexts, forecastTexts, messages } from "~/messages";
import { FORECAST, FORECAST_HISTORY, type ForecastRecord } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { NOTICES } from "~/models/notices.server";
import { commentTexts } from "~/platform/comments/texts";
import { CELL_FRAGMENT } from "~/shared/cell-link";
import { uiTexts } from "~/shared/ui/texts";
import { ACCOUNTS, assignPreparer, dumpForecast, insertScenario, PEOPLE } from "../../app/features/forecast/fixtures";
import { expect, openCheckedPage, test, withoutJavaScript } from "./fixtures";
import { type RunningApp, startApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * The cost-centre forecast review as a finance planner uses it, with the clock pinned (PORTAL_TODAY) to 15 February
 * of this year: RF2 of this year is in its edit month, RF1 of this year (edited last November) is locked. A second
 * server pinned to 1 March shows the same RF2 locked, and its server refuses a save. Known data is added for one cost
 * centre whose name has spaces and accents (URL round trip).
 */

const YEAR = new Date().getUTCFullYear();
const OPEN = `RF2 ${YEAR}`;
const LOCKED = `RF1 ${YEAR}`;
const CC = "CC9001 - Revisão Orçamentária";
const [SALARIES, CHARGES, RENT] = ACCOUNTS;
const m = (month: number, year = YEAR) => `${year}-${String(month).padStart(2, "0")}`;
// RF2 YEAR shows Feb YEAR-1 .. Feb YEAR+1; the fixture's cell at window position i holds base + i.
const stored = (base: number, key: string) =>
  base + (Number(key.slice(0, 4)) - (YEAR - 1)) * 12 + (Number(key.slice(5)) - 2);

// The file's server: the worker's server pinned to 15 February (grid-layout.e2e.ts shares it), with the known data
// added after each reset.
test.scoped({
  appEnv: { PORTAL_TODAY: `${YEAR}-02-15` },
  appSetup: {
    run: (app) =>
      withDb(app, async (db) => {
        await insertScenario(db, OPEN, CC);
        await insertScenario(db, LOCKED, CC);
        // The finance planner prepares it: a preparer reads only the cost centres they prepare.
        await assignPreparer(db, "gold@demo.local", CC);
      }),
  },
});

const clients: MongoClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

async function withDb<T>(app: RunningApp, run: (db: Db) => Promise<T>): Promise<T> {
  const client = new MongoClient(app.mongoUri);
  clients.push(client);
  await client.connect();
  return run(client.db(app.databaseName));
}

async function waitForGrid(page: Page) {
  await page.locator(".forecast-grid__body [role=row]").first().waitFor();
  // And hydrated: until React owns the grid (it marks its DOM nodes), a click reaches the server's HTML, and the
  // update it causes lands on a boundary still hydrating (React error #421, seen once in a full run).
  await page.waitForFunction(() => {
    const row = document.querySelector(".forecast-grid__body [role=row]");
    return row !== null && Object.keys(row).some((key) => key.startsWith("__reactFiber$"));
  });
  // And its keys: the editing code loads once the grid is in the browser (grid-edit-keys.tsx).
  await page.locator(".forecast-grid__scroll[data-keys=ready]").waitFor();
}

/** The grid cell of an account (or group/total row, by its exact label) in a month ("m_YYYY-MM") or total ("y_YYYY") column. */
async function cell(page: Page, label: string, column: string): Promise<Locator> {
  const index = await page
    .locator(".forecast-grid__table [role=columnheader]")
    .evaluateAll((ths, id) => ths.findIndex((th) => th.getAttribute("data-column") === id), column);
  expect(index, column).toBeGreaterThanOrEqual(0);
  const row = page
    .locator(".forecast-grid__body [role=row]")
    .filter({ has: page.locator("[role=rowheader]", { hasText: new RegExp(`^${label}(${forecastTexts.edited})?$`) }) });
  return row.first().locator(`> :nth-child(${index + 1})`);
}

const text = async (page: Page, label: string, column: string) =>
  (await (await cell(page, label, column)).innerText()).trim();

/**
 * Presses a save button and waits for what confirms it: a new "Salvo com sucesso!" toast (the portal's, as an Excel
 * import's), which comes with the reloaded grid; an earlier save's toast still on screen does not count.
 */
async function saveAndConfirm(page: Page, button: Locator) {
  const toasts = page.locator('.toast[data-toast-type="success"]');
  const seen = await toasts.evaluateAll((all) => all.map((t) => (t as HTMLElement).dataset.toastId ?? ""));
  await button.click();
  await page.waitForFunction(
    ({ seen, text }) =>
      [...document.querySelectorAll<HTMLElement>('.toast[data-toast-type="success"]')].some(
        (t) => !seen.includes(t.dataset.toastId ?? "") && (t.textContent ?? "").includes(text),
      ),
    { seen, text: messages.saved },
  );
  expect(await page.getByRole("dialog").count()).toBe(0);
}

async function paste(page: Page, tsv: string) {
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.setData("text/plain", data);
    document.activeElement?.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, tsv);
}

const activeCell = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const col = el?.parentElement ? Array.prototype.indexOf.call(el.parentElement.children, el) : -1;
    return { row: el?.parentElement?.getAttribute("data-row"), col: col < 0 ? null : String(col) };
  });

test("filter: period and searchable cost centre, Generate Review, the path round trip, the breadcrumb back, and the same without JavaScript", async ({
  page,
  app,
  browser,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/report_create_schneider");
  // The portal's "today" is pinned here (PORTAL_TODAY), and the page says so.
  expect(
    await page
      .getByRole("note")
      .filter({ hasText: uiTexts.pinnedToday(`15/02/${YEAR}`) })
      .count(),
  ).toBe(1);
  const generate = page.getByRole("button", { name: forecastTexts.generateReview });
  await expect.poll(() => generate.isDisabled()).toBe(true);
  await page.getByLabel(forecastTexts.period).selectOption(OPEN);
  expect(await generate.isDisabled()).toBe(true);
  await page.getByLabel(forecastTexts.costCenter).fill("revisao orc");
  await expect.poll(() => generate.isDisabled()).toBe(false);
  await generate.click();
  await page.waitForURL(
    (url) =>
      url.pathname ===
      `/ij/report_preview_edit_schneider/RF2%20${YEAR}/CC9001%20-%20Revis%C3%A3o%20Or%C3%A7ament%C3%A1ria`,
  );
  await page.getByRole("heading", { name: `${OPEN} · ${CC}` }).waitFor();
  await waitForGrid(page);

  await page.getByRole("link", { name: forecastTexts.filtering }).click();
  await page.waitForURL(
    (url) => url.pathname === "/ij/report_create_schneider" && url.searchParams.get("cost_center") === CC,
  );
  expect(await page.getByLabel(forecastTexts.period).inputValue()).toBe(OPEN);
  expect(await page.getByLabel(forecastTexts.costCenter).inputValue()).toBe(CC);
  await page.goBack();
  await page.getByRole("heading", { name: `${OPEN} · ${CC}` }).waitFor();

  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto("/ij/report_create_schneider");
    await plain.getByLabel(forecastTexts.period).selectOption(OPEN);
    await plain.getByLabel(forecastTexts.costCenter).fill("CC9001");
    await plain.getByRole("button", { name: forecastTexts.generateReview }).click();
    await plain.waitForURL((url) => url.pathname.startsWith("/ij/report_preview_edit_schneider/"));
    // The grid is there, read-only: values, totals and a notice, but no editing.
    expect(await text(plain, SALARIES.label, `m_${m(3)}`)).toBe("1.013,00");
    // (Chromium driven without JavaScript still parses <noscript> as text; a browser with scripting off shows it.)
    expect(await plain.locator("noscript").first().textContent()).toContain(forecastTexts.noScriptNotice);
    expect(await plain.getByRole("button", { name: new RegExp(messages.pinColumn) }).count()).toBe(0);
    expect(await plain.getByRole("button", { name: forecastTexts.save }).count()).toBe(0);
    // A filter the server cannot resolve stays on the filter with a message.
    await plain.goto("/ij/report_create_schneider");
    await plain.getByLabel(forecastTexts.period).selectOption(OPEN);
    await plain.getByRole("button", { name: forecastTexts.generateReview }).click();
    await plain.getByText(forecastTexts.filterIncomplete).waitFor();
  });
});

test("edit month: pin and unpin, keyboard, pt-BR double-click edit with live totals, undo, TSV paste, mass change, save of only the changed cells, history", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  await page.getByText(forecastTexts.openNotice(`02/${YEAR}`, `28/02/${YEAR}`).slice(0, 30)).waitFor();
  const save = page.getByRole("toolbar").getByRole("button", { name: new RegExp(`^${forecastTexts.save}`) });
  await save.waitFor();

  // Pin March: it moves next to the account column and sticks there; unpin puts it back.
  const march = page.locator(`[role=columnheader][data-column="m_${m(3)}"]`);
  await page.getByRole("button", { name: `${messages.pinColumn}: 03/${YEAR}` }).click();
  await expect.poll(() => page.locator("[role=columnheader]").nth(1).getAttribute("data-column")).toBe(`m_${m(3)}`);
  expect(await march.evaluate((th) => [getComputedStyle(th).position, getComputedStyle(th).left])).toEqual([
    "sticky",
    "300px",
  ]);
  await page.getByRole("button", { name: `${messages.unpinColumn}: 03/${YEAR}` }).click();
  await expect
    .poll(() => page.locator("[role=columnheader]").nth(1).getAttribute("data-column"))
    .toBe(`m_${m(2, YEAR - 1)}`);
  expect(
    await page
      .locator("[role=columnheader]")
      .first()
      .evaluate((th) => getComputedStyle(th).position),
  ).toBe("sticky");

  // Keyboard: arrows and Tab move between cells.
  await (await cell(page, SALARIES.label, `m_${m(3)}`)).click();
  const start = await activeCell(page);
  await page.keyboard.press("ArrowRight");
  expect(await activeCell(page)).toEqual({ row: start.row, col: String(Number(start.col) + 1) });
  await page.keyboard.press("ArrowDown");
  expect(await activeCell(page)).toEqual({ row: String(Number(start.row) + 1), col: String(Number(start.col) + 1) });
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("ArrowUp");
  expect(await activeCell(page)).toEqual(start);

  // Double-click, pt-BR number, Enter: the cell, its row flag and every total follow.
  await (await cell(page, SALARIES.label, `m_${m(3)}`)).dblclick();
  const editor = page.getByRole("textbox", { name: `${SALARIES.label}, 03/${YEAR}` });
  await editor.fill("1.234,5");
  await editor.press("Enter");
  expect(await text(page, SALARIES.label, `m_${m(3)}`)).toBe("1.234,50");
  await expect.poll(() => activeCell(page)).toEqual({ row: String(Number(start.row) + 1), col: start.col });
  await page.locator("[role=rowheader]", { hasText: forecastTexts.edited }).first().waitFor();
  expect(await text(page, forecastTexts.groupTotal(PEOPLE), `m_${m(3)}`)).toBe("1.647,50"); // 1.234,50 + 413
  expect(await text(page, forecastTexts.grandTotal, `m_${m(3)}`)).toBe("1.911,00"); // + 263,50
  expect(await text(page, SALARIES.label, `y_${YEAR}`)).toBe("12.419,50"); // Jan..Dec: 12.198 + 221,50
  await page.getByText(forecastTexts.pending(1)).waitFor();

  // Not a number: a message, the editor stays; Escape leaves the value as it was.
  await (await cell(page, CHARGES.label, `m_${m(3)}`)).dblclick();
  await page.getByRole("textbox", { name: `${CHARGES.label}, 03/${YEAR}` }).fill("12a");
  await page.keyboard.press("Enter");
  await page.getByText(forecastTexts.invalidNumber).waitFor();
  await page.keyboard.press("Escape");
  expect(await text(page, CHARGES.label, `m_${m(3)}`)).toBe("413,00");

  // Empty becomes 0; "Desfazer alterações" returns to the loaded rows.
  await (await cell(page, RENT.label, `m_${m(3)}`)).dblclick();
  await page.getByRole("textbox", { name: `${RENT.label}, 03/${YEAR}` }).fill("");
  await page.keyboard.press("Enter");
  expect(await text(page, RENT.label, `m_${m(3)}`)).toBe("0,00");
  await page.getByRole("button", { name: forecastTexts.undoAll }).click();
  expect(await text(page, SALARIES.label, `m_${m(3)}`)).toBe("1.013,00");
  expect(await text(page, RENT.label, `m_${m(3)}`)).toBe("263,50");
  expect(await page.locator("[role=rowheader]", { hasText: forecastTexts.edited }).count()).toBe(0);
  await page.getByText(forecastTexts.noPending).waitFor();

  // Paste a 3 × 2 block from April: the group-total row's two targets are skipped and counted; a text cell refuses all.
  await (await cell(page, SALARIES.label, `m_${m(4)}`)).click();
  await paste(page, "1,5\t2,5\n3\t4\n5\t6\n");
  await page.getByText(forecastTexts.pasted(4, 2, 0)).waitFor();
  expect([await text(page, SALARIES.label, `m_${m(4)}`), await text(page, SALARIES.label, `m_${m(5)}`)]).toEqual([
    "1,50",
    "2,50",
  ]);
  expect([await text(page, CHARGES.label, `m_${m(4)}`), await text(page, CHARGES.label, `m_${m(5)}`)]).toEqual([
    "3,00",
    "4,00",
  ]);
  expect(await text(page, forecastTexts.groupTotal(PEOPLE), `m_${m(4)}`)).toBe("4,50");
  await (await cell(page, RENT.label, `m_${m(4)}`)).click();
  await paste(page, "7\tabc\n");
  await page.getByText(forecastTexts.pasteNotNumber("abc", 1, 2)).waitFor();
  expect(await text(page, RENT.label, `m_${m(4)}`)).toBe("264,50");

  // Mass change of June: +10 % on the detail rows with a value, rounded to cents.
  await page.getByRole("button", { name: forecastTexts.massChangeOf(`06/${YEAR}`) }).click();
  const dialog = page.getByRole("dialog", { name: forecastTexts.massChangeOf(`06/${YEAR}`) });
  await dialog.getByLabel(forecastTexts.percentLabel).fill("10");
  await dialog.getByLabel(messages.increase).check();
  await dialog.getByRole("button", { name: forecastTexts.apply }).click();
  await page.getByText(forecastTexts.massChanged(3)).waitFor();
  expect(await text(page, SALARIES.label, `m_${m(6)}`)).toBe("1.117,60"); // 1.016 × 1,1
  expect(await text(page, RENT.label, `m_${m(6)}`)).toBe("293,15"); // 266,50 × 1,1

  // Save: "Salvando Dados...", the grid reloads, "Salvo com sucesso!"; the database changed in exactly these 7 cells.
  const before = await withDb(app, (db) =>
    db.collection<ForecastRecord>(FORECAST).find({ cost_center_concat: CC }).sort({ _id: 1 }).toArray(),
  );
  await page.route("**/ij/report_preview_edit_schneider/**", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  const saving = page.getByRole("dialog", { name: messages.savingData }).waitFor();
  await saveAndConfirm(page, page.getByRole("button", { name: forecastTexts.saveCount(7) }));
  await saving;
  await page.unroute("**/ij/report_preview_edit_schneider/**");
  const after = await withDb(app, (db) =>
    db.collection<ForecastRecord>(FORECAST).find({ cost_center_concat: CC }).sort({ _id: 1 }).toArray(),
  );
  const changed = after.filter((doc, i) => JSON.stringify(doc) !== JSON.stringify(before[i]));
  expect(
    changed.map((d) => `${d.account_concat.slice(0, 7)} ${d.data_ref.toISOString().slice(0, 7)} ${d.forecast}`).sort(),
  ).toEqual(
    [
      `4101001 ${m(4)} 1.5`,
      `4101001 ${m(5)} 2.5`,
      `4101002 ${m(4)} 3`,
      `4101002 ${m(5)} 4`,
      `4101001 ${m(6)} 1117.6`,
      `4101002 ${m(6)} 457.6`,
      `4201001 ${m(6)} 293.15`,
    ].sort(),
  );
  expect(changed.every((d) => d.edited_by === "gold@demo.local")).toBe(true);
  const entries = await withDb(app, (db) => db.collection(FORECAST_HISTORY).find({ cost_center_concat: CC }).toArray());
  expect(entries).toHaveLength(7);
  expect(entries.every((h) => h.by === "gold@demo.local" && h.name === "Gabriela Ouro")).toBe(true);
  expect(await text(page, SALARIES.label, `m_${m(4)}`)).toBe("1,50");
  await page.getByText(forecastTexts.noPending).waitFor();
  expect(await (await cell(page, SALARIES.label, `m_${m(4)}`)).getAttribute("class")).toContain("has-history");

  // The cell's history: who, when, old and new.
  await (await cell(page, SALARIES.label, `m_${m(4)}`)).click();
  await page.getByRole("button", { name: forecastTexts.history }).click();
  const history = page.getByRole("dialog", { name: forecastTexts.historyTitle(SALARIES.account, `04/${YEAR}`) });
  await history.getByRole("cell", { name: "Gabriela Ouro (gold@demo.local)" }).waitFor();
  expect(await history.locator("tbody td").allInnerTexts()).toEqual([
    expect.stringMatching(/^\d{2} [a-z]{3} \d{2} \d{2}:\d{2}:\d{2}$/),
    "Gabriela Ouro (gold@demo.local)",
    "1.014,00",
    "1,50",
    forecastTexts.restore,
  ]);
  await page.keyboard.press("Escape");

  // Leaving with an unsaved change asks first; staying keeps it.
  await (await cell(page, SALARIES.label, `m_${m(8)}`)).dblclick();
  await page.keyboard.type("8");
  await page.keyboard.press("Enter");
  await page.getByRole("link", { name: forecastTexts.filtering }).click();
  const leave = page.getByRole("dialog", { name: forecastTexts.leaveTitle });
  await leave.getByText(forecastTexts.leavePrompt(1)).waitFor();
  await leave.getByRole("button", { name: forecastTexts.stay }).click();
  expect(new URL(page.url()).pathname).toBe(reviewPath(OPEN, CC));
  expect(await text(page, SALARIES.label, `m_${m(8)}`)).toBe("8,00");
});

test("conflict: a cell saved by someone else since the grid loaded is refused and shown, then resolved", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const key = m(9);
  const filter = {
    rf: OPEN,
    cost_center_concat: CC,
    account_concat: CHARGES.account,
    data_ref: new Date(`${key}-01T00:00:00Z`),
  };
  await withDb(app, (db) =>
    db
      .collection<ForecastRecord>(FORECAST)
      .updateOne(filter, { $set: { forecast: 999, edited_by: "sysadmin@demo.local", edited_at: new Date() } }),
  );
  const before = await withDb(app, dumpForecast);

  await (await cell(page, CHARGES.label, `m_${key}`)).dblclick();
  await page.keyboard.type("5");
  await page.keyboard.press("Enter");
  await (await cell(page, SALARIES.label, `m_${key}`)).dblclick();
  await page.keyboard.type("6");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: forecastTexts.saveCount(2) }).click();
  await page.getByText(forecastTexts.conflicts(1)).waitFor();
  expect(await (await cell(page, CHARGES.label, `m_${key}`)).getAttribute("class")).toContain("is-conflict");
  await page
    .getByText(/Alterada por sysadmin@demo\.local em .*; valor atual 999,00\./)
    .first()
    .waitFor();
  expect(await withDb(app, dumpForecast)).toEqual(before);

  // Take the stored value: the other edit is kept and saves alone.
  await page.getByRole("button", { name: forecastTexts.useCurrent }).click();
  expect(await text(page, CHARGES.label, `m_${key}`)).toBe("999,00");
  await saveAndConfirm(page, page.getByRole("button", { name: forecastTexts.saveCount(1) }));
  const stored9 = await withDb(app, (db) => db.collection<ForecastRecord>(FORECAST).findOne({ ...filter }));
  expect(stored9?.forecast).toBe(999);
  const salaries = await withDb(app, (db) =>
    db.collection<ForecastRecord>(FORECAST).findOne({ ...filter, account_concat: SALARIES.account }),
  );
  expect(salaries?.forecast).toBe(6);
});

test("locked: outside its edit month the grid cannot change and the server refuses a forged save", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  // RF1 of this year was edited last November: locked on 15 February.
  await page.goto(reviewPath(LOCKED, CC));
  await waitForGrid(page);
  await page.getByText(forecastTexts.lockedNotice(`11/${YEAR - 1}`, "closed")).waitFor();
  expect(await page.getByRole("button", { name: new RegExp(`^${forecastTexts.save}`) }).count()).toBe(0);
  await (await cell(page, SALARIES.label, `m_${m(3)}`)).dblclick();
  expect(await page.locator(".forecast-grid__input").count()).toBe(0);

  const before = await withDb(app, dumpForecast);
  const post = (rf: string, changes: unknown[]) =>
    page.evaluate(
      async ([url, body]) => {
        const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        return { status: response.status, text: await response.text() };
      },
      [`${reviewPath(rf, CC)}.data`, JSON.stringify({ intent: "save", changes })] as const,
    );
  const locked = await post(LOCKED, [{ account: SALARIES.account, month: m(3), old: 1000 + 16, value: 1 }]);
  expect(locked.status).toBe(409);
  expect(locked.text).toContain(forecastTexts.lockedRefused(LOCKED, `11/${YEAR - 1}`));
  const actuals = await post(OPEN, [{ account: SALARIES.account, month: m(1), old: stored(1000, m(1)), value: 1 }]);
  expect(actuals.status).toBe(400);
  expect(actuals.text).toContain(forecastTexts.columnRefused(`01/${YEAR}`));
  const group = await post(OPEN, [{ account: PEOPLE, month: m(7), old: 0, value: 1 }]);
  expect(group.status).toBe(400);
  expect(await withDb(app, dumpForecast)).toEqual(before);

  // Each variance column beside the month it compares (the form's GET, as a bookmark keeps it).
  await page.goto(`${reviewPath(LOCKED, CC)}?cols=rf`);
  await waitForGrid(page);
  const order = await page
    .locator('[role="columnheader"][data-column]')
    .evaluateAll((all) => all.map((h) => h.getAttribute("data-column")));
  const at = order.indexOf(`m_${m(3)}`);
  expect(order.slice(at, at + 3)).toEqual([`m_${m(3)}`, `vr_abs_${m(3)}`, `vr_pct_${m(3)}`]);

  // The same RF2 on 1 March (the day after its edit month), on a server of its own: locked, and saving is refused.
  const march = await startApp({ env: { PORTAL_TODAY: `${YEAR}-03-01` } });
  try {
    await withDb(march, async (db) => {
      await insertScenario(db, OPEN, CC);
      await assignPreparer(db, "gold@demo.local", CC);
    });
    const marchPage = await page
      .context()
      .browser()!
      .newContext({ baseURL: march.baseURL, locale: "pt-BR" })
      .then((c) => c.newPage());
    await signIn(marchPage, march.baseURL, "gold@demo.local");
    await marchPage.goto(reviewPath(OPEN, CC));
    await marchPage.getByText(forecastTexts.lockedNotice(`02/${YEAR}`, "closed")).waitFor();
    expect(await marchPage.getByRole("button", { name: new RegExp(`^${forecastTexts.save}`) }).count()).toBe(0);
    const refused = await marchPage.evaluate(
      async ([url, body]) =>
        (await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body })).status,
      [
        `${reviewPath(OPEN, CC)}.data`,
        JSON.stringify({
          intent: "save",
          changes: [{ account: SALARIES.account, month: m(3), old: stored(1000, m(3)), value: 1 }],
        }),
      ] as const,
    );
    expect(refused).toBe(409);
    await marchPage.context().close();
  } finally {
    await march.stop();
  }
});

test("a save sent again is refused: a mass change, then a paste back, then the first save's request replayed", async ({
  page,
  app,
  browser,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const key = m(10);
  const bodies: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.endsWith(".data"))
      bodies.push(request.postData() ?? "");
  });
  const saveAndClose = async (count: number) => {
    await saveAndConfirm(page, page.getByRole("button", { name: forecastTexts.saveCount(count) }));
    await page.getByText(forecastTexts.noPending).waitFor();
  };

  // +10 % on October: the three accounts change once.
  await page.getByRole("button", { name: forecastTexts.massChangeOf(`10/${YEAR}`) }).click();
  const mass = page.getByRole("dialog", { name: forecastTexts.massChangeOf(`10/${YEAR}`) });
  await mass.getByLabel(forecastTexts.percentLabel).fill("10");
  await mass.getByLabel(messages.increase).check();
  await mass.getByRole("button", { name: forecastTexts.apply }).click();
  await page.getByText(forecastTexts.massChanged(3)).waitFor();
  await saveAndClose(3);
  expect(bodies).toHaveLength(1);
  const first = bodies[0];
  expect(await text(page, SALARIES.label, `m_${key}`)).toBe("1.122,00");

  // The same request again: refused, nothing changes.
  const replay = (body: string) =>
    page.evaluate(
      async ([url, data]) => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: data,
        });
        return { status: response.status, text: await response.text() };
      },
      [`${reviewPath(OPEN, CC)}.data`, body] as const,
    );
  let before = await withDb(app, dumpForecast);
  const again = await replay(first);
  expect(again.status).toBe(409);
  expect(again.text).toContain(forecastTexts.conflicts(3));
  expect(await withDb(app, dumpForecast)).toEqual(before);

  // The old values pasted back and saved: the cells hold what the first save found, but not the state it was made on.
  await (await cell(page, SALARIES.label, `m_${key}`)).click();
  await paste(page, "1.020\n420\n0\n0\n270,5\n");
  await page.getByText(forecastTexts.pasted(3, 2, 0)).waitFor();
  await saveAndClose(3);
  expect(await text(page, SALARIES.label, `m_${key}`)).toBe("1.020,00");
  before = await withDb(app, dumpForecast);
  const late = await replay(first);
  expect(late.status).toBe(409);
  expect(late.text).toContain(forecastTexts.conflicts(3));
  expect(await withDb(app, dumpForecast)).toEqual(before);

  // Without JavaScript the grid is read-only; the same request sent from that browser is refused too.
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto(reviewPath(OPEN, CC));
    expect(await text(plain, SALARIES.label, `m_${key}`)).toBe("1.020,00");
    const response = await plain.request.post(`${reviewPath(OPEN, CC)}.data`, {
      data: first,
      headers: { "Content-Type": "application/json", Origin: app.baseURL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(409);
    expect(await response.text()).toContain(forecastTexts.conflicts(3));
  });
  expect(await withDb(app, dumpForecast)).toEqual(before);
});

test("Desfazer última only with something to undo; Salvar keeps the scroll and the focused cell; Restaurar an earlier value", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const key = m(11);
  const toolbar = page.getByRole("toolbar");
  const undoLast = toolbar.getByRole("button", { name: forecastTexts.undoLast });

  // Nothing to undo: disabled; an edit enables it, undoing it disables it again.
  await expect.poll(() => undoLast.isDisabled()).toBe(true);
  await (await cell(page, SALARIES.label, `m_${key}`)).dblclick();
  await page.keyboard.type("7");
  await page.keyboard.press("Enter");
  expect(await text(page, SALARIES.label, `m_${key}`)).toBe("7,00");
  expect(await undoLast.isDisabled()).toBe(false);
  await undoLast.click();
  expect(await text(page, SALARIES.label, `m_${key}`)).toBe("1.021,00");
  expect(await undoLast.isDisabled()).toBe(true);

  // An edit far to the right, then Salvar: after the reload the grid is where it was, the same cell focused.
  await (await cell(page, SALARIES.label, `m_${key}`)).dblclick();
  await page.keyboard.type("7");
  await page.keyboard.press("Enter");
  const scroller = page.locator(".forecast-grid__scroll");
  const scrolled = await scroller.evaluate((el) => el.scrollLeft);
  expect(scrolled).toBeGreaterThan(300);
  // Enter moves the focus on the next animation frame.
  await expect.poll(() => activeCell(page).then((f) => f.row)).toBeTruthy();
  const focused = await activeCell(page);
  await saveAndConfirm(page, toolbar.getByRole("button", { name: forecastTexts.saveCount(1) }));
  await page.getByText(forecastTexts.noPending).waitFor();
  await expect
    .poll(() => cell(page, SALARIES.label, `m_${key}`).then((c) => c.getAttribute("class")))
    .toContain("has-history");
  expect(Math.abs((await scroller.evaluate((el) => el.scrollLeft)) - scrolled)).toBeLessThanOrEqual(1);
  await expect.poll(() => activeCell(page)).toEqual(focused);
  expect(await undoLast.isDisabled()).toBe(true);

  // The cell's history offers its earlier value; Restaurar is an ordinary edit, saved through the same path.
  await (await cell(page, SALARIES.label, `m_${key}`)).click();
  await toolbar.getByRole("button", { name: forecastTexts.history }).click();
  const history = page.getByRole("dialog", { name: forecastTexts.historyTitle(SALARIES.account, `11/${YEAR}`) });
  await history.getByRole("button", { name: forecastTexts.restoreOf("1.021,00") }).click();
  await history.waitFor({ state: "detached" });
  expect(await text(page, SALARIES.label, `m_${key}`)).toBe("1.021,00");
  await page.getByText(forecastTexts.pending(1)).waitFor();
  expect(await undoLast.isDisabled()).toBe(false);
  await saveAndConfirm(page, toolbar.getByRole("button", { name: forecastTexts.saveCount(1) }));
  const filter = {
    rf: OPEN,
    cost_center_concat: CC,
    account_concat: SALARIES.account,
    data_ref: new Date(`${key}-01T00:00:00Z`),
  };
  expect((await withDb(app, (db) => db.collection<ForecastRecord>(FORECAST).findOne(filter)))?.forecast).toBe(1021);
  const entries = await withDb(app, (db) =>
    db
      .collection(FORECAST_HISTORY)
      .find({ cost_center_concat: CC, account_concat: SALARIES.account, data_ref: filter.data_ref })
      .toArray(),
  );
  expect(entries.map((e) => [e.old, e.new]).sort()).toEqual(
    [
      [1021, 7],
      [7, 1021],
    ].sort(),
  );
});

test("cycle: two cost centres submitted; one approved, one returned, corrected and approved; notices in the portal and the outbox; the board", async ({
  page,
  app,
  browser,
}) => {
  const FIRST = "CC9101 - Ciclo Aprovado";
  const SECOND = "CC9102 - Ciclo Devolvido";
  await withDb(app, async (db) => {
    await insertScenario(db, OPEN, FIRST);
    await insertScenario(db, OPEN, SECOND);
    await db.collection(FORECAST_PREPARERS).insertMany(
      [FIRST, SECOND].map((cost_center_concat) => ({
        cost_center_concat,
        user: "gold@demo.local",
        assigned_at: new Date(),
        assigned_by: "e2e",
      })),
    );
  });
  const state = (p: Page) => p.getByTestId("cycle-state");
  const act = async (p: Page, action: string, comment = "") => {
    const form = p.locator(`form.forecast-cycle__form--${action}`);
    if (comment) {
      // Submitting and approving fold their optional comment away.
      const fold = form.locator("summary");
      if ((await fold.count()) > 0) await fold.click();
      await form.locator("textarea").fill(comment);
    }
    const button = form.getByRole("button", { name: cycleTexts.actions[action as "submit"] });
    if (action === "submit") {
      // A submission is asked first, naming the cells changed since the last one.
      await button.click();
      const question = p.getByRole("region", { name: /desde o último envio/ });
      await question.waitFor();
      await Promise.all([
        p.waitForURL((url) => url.searchParams.get("ciclo") === action),
        question.getByRole("button", { name: cycleTexts.submitConfirm }).click(),
      ]);
    } else await Promise.all([p.waitForURL((url) => url.searchParams.get("ciclo") === action), button.click()]);
    // The URL changes first; the page shows the outcome once the reloaded data has rendered.
    await p.getByText(cycleAnswerTexts.done[action as "submit"]).waitFor();
  };

  // The preparer finds their cost centres on the review's filter, each with its state, and opens one from there.
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/report_create_schneider");
  const mine = page.getByRole("region", { name: boardTexts.mineTitle });
  for (const cc of [FIRST, SECOND])
    expect(await mine.getByRole("row", { name: new RegExp(cc) }).innerText()).toContain("Em preparação");
  await mine.getByRole("link", { name: FIRST }).click();
  await page.waitForURL((url) => url.pathname === reviewPath(OPEN, FIRST));
  // The side menu keeps the review marked as the current page there.
  const reviewEntry = page
    .getByRole("navigation", { name: messages.mainNavigation })
    .getByRole("link", { name: "Revisão do forecast" });
  expect(await reviewEntry.getAttribute("aria-current")).toBe("page");

  // The preparer submits both in the edit month: the grids lock.
  for (const cc of [FIRST, SECOND]) {
    await page.goto(reviewPath(OPEN, cc));
    await waitForGrid(page);
    expect(await state(page).innerText()).toBe("Em preparação");
    await act(page, "submit", `Pronto: ${cc}`);
    expect(await state(page).innerText()).toBe("Enviado");
    if (cc === FIRST) {
      // Taken back before any decision, and sent again.
      await act(page, "withdraw");
      expect(await state(page).innerText()).toBe("Em preparação");
      await act(page, "submit", `Pronto: ${cc}`);
    }
    expect(await page.getByRole("button", { name: new RegExp(`^${forecastTexts.save}`) }).count()).toBe(0);
    await (await cell(page, SALARIES.label, `m_${m(3)}`)).dblclick();
    expect(await page.locator(".forecast-grid__input").count()).toBe(0);
  }

  // The reviewer sees the notices in the header and the list, approves the first and returns the second.
  const reviewer = await openCheckedPage(browser, app);
  try {
    const r = reviewer.page;
    await signIn(r, app.baseURL, "sysadmin@demo.local");
    // Two submissions, the first one's withdrawal and its second submission.
    await r.getByRole("link", { name: noticeTexts.headerNoticesAria(4) }).waitFor();
    await r.goto("/user/notices");
    for (const cc of [FIRST, SECOND]) await r.getByText(cycleNoticeTexts.submittedTitle(cc, OPEN)).first().waitFor();
    await r.getByText(cycleNoticeTexts.withdrawnTitle(FIRST, OPEN)).waitFor();
    await r.goto(reviewPath(OPEN, FIRST));
    await act(r, "approve");
    expect(await state(r).innerText()).toBe("Aprovado");
    await r.goto(reviewPath(OPEN, SECOND));
    // Returning without the comment is stopped by the form; the server refuses it too (unit tests).
    await act(r, "return", "Revise os salários de março");
    expect(await state(r).innerText()).toBe("Devolvido");
    await r.locator(".forecast-cycle__timeline > summary").getByText("Revise os salários de março").waitFor();
  } finally {
    await reviewer.close();
  }

  // The preparer is told in the portal and by e-mail (the outbox), corrects the returned one and submits it again.
  await page.goto("/user/notices");
  await page.getByText(cycleNoticeTexts.returnedTitle(SECOND, OPEN)).waitFor();
  await page.getByText(cycleNoticeTexts.approvedTitle(FIRST, OPEN)).waitFor();
  await expect
    .poll(
      () =>
        withDb(app, (db) =>
          db.collection("mail_outbox").countDocuments({
            to: "gold@demo.local",
            subject: cycleNoticeTexts.returnedTitle(SECOND, OPEN),
          }),
        ),
      { timeout: 60_000, interval: 1_000 },
    )
    .toBe(1);
  await page.goto(reviewPath(OPEN, SECOND));
  await waitForGrid(page);
  expect(await state(page).innerText()).toBe("Devolvido");
  await (await cell(page, SALARIES.label, `m_${m(3)}`)).dblclick();
  await page.keyboard.type("1234,5");
  await page.keyboard.press("Enter");
  await saveAndConfirm(page, page.getByRole("toolbar").getByRole("button", { name: forecastTexts.saveCount(1) }));
  await act(page, "submit", "Corrigido");
  expect(await state(page).innerText()).toBe("Enviado");
  // Withdrawn and sent again at once: what changed is still measured from the return, not from that submission.
  await act(page, "withdraw");
  await act(page, "submit", "Corrigido de novo");
  // What changed since the return: the one cell, old → new, and the page says since when.
  await page.getByRole("link", { name: cycleTexts.changesLink }).click();
  await page.getByRole("heading", { level: 1, name: new RegExp(cycleTexts.changesLink) }).waitFor();
  expect(await page.getByRole("row", { name: new RegExp(SALARIES.label) }).innerText()).toContain("1.234,50");
  expect(await page.getByTestId("changes-since").innerText()).toMatch(
    /^Mudanças desde a devolução de \d{2}\/\d{2}\/\d{4} por .+, até o último envio, de \d{2}\/\d{2}\/\d{4}\.$/,
  );

  // Without JavaScript the reviewer approves it, and the board shows both approved.
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "sysadmin@demo.local");
    await plain.goto(reviewPath(OPEN, SECOND));
    // The reviewer sees on the grid the cell changed since the return, marked as a change to review.
    const marked = await plain
      .locator(".forecast-grid__cell.is-since")
      .evaluateAll((all) =>
        all.map((c) => [
          c.closest('[role="row"]')?.querySelector('[role="rowheader"]')?.textContent ?? "",
          c.textContent,
          c.getAttribute("title"),
        ]),
      );
    expect(marked).toEqual([[expect.stringContaining(SALARIES.label), "1.234,50", forecastTexts.sinceMarker]]);
    await plain
      .locator("form.forecast-cycle__form--approve")
      .getByRole("button", { name: cycleTexts.actions.approve })
      .click();
    await plain.waitForURL((url) => url.searchParams.get("ciclo") === "approve");
    expect(await plain.getByTestId("cycle-state").innerText()).toBe("Aprovado");
    expect(await plain.locator(".forecast-cycle__events li").count()).toBe(6);
    expect(await plain.locator(".forecast-cycle__timeline > summary").innerText()).toContain("(6)");
    await plain.goto(`/ij/forecast_status?rf=${encodeURIComponent(OPEN)}&estado=approved`);
    for (const cc of [FIRST, SECOND]) await plain.getByRole("link", { name: cc }).waitFor();
    // The board's breadcrumb is a row of links, not a numbered list.
    expect(await plain.locator(".forecast-breadcrumb ol").evaluate((e) => getComputedStyle(e).listStyleType)).toBe(
      "none",
    );

    // The preparers' screen: each add form chooses among the people who may prepare; a refusal reads whole at 1366 px.
    await plain.goto(`/ij/forecast_preparers?q=${encodeURIComponent("CC9101")}`);
    const add = plain.getByRole("combobox", { name: preparersTexts.emailLabel(FIRST) });
    const people = await plain
      .locator(`datalist#${await add.getAttribute("list")} option`)
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(people).toContain("gold@demo.local");
    expect(people).not.toContain("silver@demo.local");
    const stranger = "alguem.que.nao.esta.no.portal@fornecedor-externo.example.com";
    await add.fill(stranger);
    await plain
      .getByRole("row", { name: new RegExp(FIRST) })
      .getByRole("button", { name: preparersTexts.addButton })
      .click();
    const refusal = plain.getByRole("alert").filter({ hasText: preparersTexts.refused.notUser(stranger) });
    await refusal.waitFor();
    const region = plain.getByRole("region", { name: preparersTexts.tableCaption });
    const [box, within] = [await refusal.boundingBox(), await region.boundingBox()];
    expect(box && within && box.x + box.width <= within.x + within.width).toBe(true);
  });
  const cell1234 = await withDb(app, (db) =>
    db.collection<ForecastRecord>(FORECAST).findOne({
      rf: OPEN,
      cost_center_concat: SECOND,
      account_concat: SALARIES.account,
      data_ref: new Date(`${m(3)}-01T00:00:00Z`),
    }),
  );
  expect(cell1234?.forecast).toBe(1234.5);
});

test("comments: Shift+F2 opens the cell's thread beside the grid, @ suggests the review's readers, the mention opens the grid on the cell; the same without JavaScript", async ({
  page,
  app,
  browser,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const key = m(11);
  await (await cell(page, SALARIES.label, `m_${key}`)).click();
  const focused = await activeCell(page);
  await page.keyboard.press("Shift+F2");
  // The thread opens beside the grid (its own page is for a browser without JavaScript).
  const panel = page.getByRole("dialog", { name: commentTexts.titleOf(`${SALARIES.account} · 11/${YEAR}`) });
  await panel.waitFor();
  expect(new URL(page.url()).pathname).toBe(reviewPath(OPEN, CC));

  // "@son" offers the system administrator (a reader of the review) by name, accents aside, and never her e-mail (a
  // preparer does not see addresses); the pick completes the name.
  const box = panel.getByLabel(commentTexts.newComment);
  await box.pressSequentially("Conferir com @son");
  const suggestion = panel.getByRole("button", { name: /Sônia Administradora/ });
  expect(await suggestion.textContent()).not.toContain("sysadmin");
  await suggestion.click();
  await box.pressSequentially("o dissídio de novembro.");
  expect(await box.inputValue()).toBe("Conferir com @Sônia Administradora o dissídio de novembro.");
  await panel.getByRole("button", { name: commentTexts.submit }).click();
  await page.getByText(commentTexts.done.addedNotified(1)).waitFor();
  await panel
    .locator(".cell-thread__text", { hasText: "Conferir com @Sônia Administradora o dissídio de novembro." })
    .waitFor();
  expect(await box.inputValue()).toBe("");

  // The administrator's notice opens the grid on that cell, marked as commented.
  const notice = await withDb(app, (db) =>
    db.collection(NOTICES).findOne({ to: "sysadmin@demo.local", kind: "comment.mention" }),
  );
  await page.goto(String(notice?.link));
  await waitForGrid(page);
  await expect.poll(() => activeCell(page)).toEqual(focused);
  expect(await (await cell(page, SALARIES.label, `m_${key}`)).getAttribute("class")).toContain("has-comment");

  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "sysadmin@demo.local");
    await plain.goto(reviewPath(OPEN, CC));
    await plain.getByRole("link", { name: forecastTexts.commentsOfReview }).click();
    // The review's commented cell is listed; another cell's thread opens from the picker.
    await plain.getByRole("link", { name: `${SALARIES.account} · 11/${YEAR}` }).waitFor();
    await plain.getByLabel(commentTexts.pickAccount).selectOption(RENT.account);
    await plain.getByLabel(commentTexts.pickMonth).selectOption(key);
    await plain.getByRole("button", { name: commentTexts.openCell }).click();
    await plain.getByText(commentTexts.empty).waitFor();
    // SYSTEM ADMIN sees addresses: the list of who may be mentioned names Gabriela Ouro with her e-mail.
    await plain.getByText(commentTexts.mentionable).click();
    await plain.getByText("gold@demo.local").waitFor();
    await plain.getByLabel(commentTexts.newComment).fill("@Gabriela Ouro aluguel reajustado");
    await plain.getByRole("button", { name: commentTexts.submit }).click();
    await plain.locator(".cell-thread__text", { hasText: "@Gabriela Ouro aluguel reajustado" }).waitFor();
    await plain.getByRole("button", { name: commentTexts.resolve }).click();
    await plain.getByText(commentTexts.folded(1)).waitFor();
  });
});

test("Distribuir total in the grid: two accounts from the dialog's server preview, one undo step, saved as distributed", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const toolbar = page.getByRole("toolbar");
  await (await cell(page, SALARIES.label, `m_${m(11)}`)).click();
  await toolbar.getByRole("button", { name: forecastTexts.spreadTitle }).click();
  const dialog = page.getByRole("dialog", { name: forecastTexts.spreadTitle });
  // The active row's account is chosen; a second one is added.
  expect(await dialog.getByRole("checkbox", { name: SALARIES.account }).isChecked()).toBe(true);
  await dialog.getByRole("checkbox", { name: CHARGES.account }).check();
  await dialog.getByLabel(forecastTexts.spreadTotal).fill("1.300,00");
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  const rows = dialog.locator("tbody tr");
  await rows.first().waitFor();
  const cells = await rows.count();
  expect(cells % 2).toBe(0);
  await dialog.getByRole("button", { name: forecastTexts.apply }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByText(forecastTexts.spreadApplied(cells)).waitFor();
  await page.getByText(forecastTexts.pending(cells)).waitFor();

  // One undo step takes the whole spread back.
  await toolbar.getByRole("button", { name: forecastTexts.undoLast }).click();
  await page.getByText(forecastTexts.noPending).waitFor();
  expect(await toolbar.getByRole("button", { name: forecastTexts.undoLast }).isDisabled()).toBe(true);

  // Again, then saved: every cell's history says distributed.
  await (await cell(page, SALARIES.label, `m_${m(11)}`)).click();
  await toolbar.getByRole("button", { name: forecastTexts.spreadTitle }).click();
  await dialog.getByRole("checkbox", { name: CHARGES.account }).check();
  await dialog.getByLabel(forecastTexts.spreadTotal).fill("1.300,00");
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  await rows.first().waitFor();
  await dialog.getByRole("button", { name: forecastTexts.apply }).click();
  await dialog.waitFor({ state: "detached" });
  await saveAndConfirm(page, toolbar.getByRole("button", { name: forecastTexts.saveCount(cells) }));
  const history = await withDb(app, (db) =>
    db.collection(FORECAST_HISTORY).find({ rf: OPEN, cost_center_concat: CC, via: "spread" }).toArray(),
  );
  expect(history).toHaveLength(cells);
  const total = (account: string) =>
    Math.round(history.filter((h) => h.account_concat === account).reduce((sum, h) => sum + h.new * 100, 0));
  expect([total(SALARIES.account), total(CHARGES.account)]).toEqual([130_000, 130_000]);
});

test("Distribuir total in the grid: a negative total on an expense is a reversal, previewed only once confirmed and within the account's closed months", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const toolbar = page.getByRole("toolbar");
  await (await cell(page, RENT.label, `m_${m(11)}`)).click();
  await toolbar.getByRole("button", { name: forecastTexts.spreadTitle }).click();
  const dialog = page.getByRole("dialog", { name: forecastTexts.spreadTitle });
  await dialog.getByText(spreadSignTexts.totalHint).waitFor();
  const apply = dialog.getByRole("button", { name: forecastTexts.apply });
  const rows = dialog.locator("tbody tr");

  await dialog.getByLabel(forecastTexts.spreadTotal).fill("-1.000,00");
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  await dialog.getByText(spreadSignTexts.unconfirmed([RENT.account])).waitFor();
  expect(await rows.count()).toBe(0);
  expect(await apply.isDisabled()).toBe(true);

  // Confirmed, −5.000.000,00 is still more than the account holds; −1.000,00 is spread.
  await dialog.getByRole("checkbox", { name: spreadSignTexts.confirm }).check();
  await dialog.getByLabel(forecastTexts.spreadTotal).fill("-5.000.000,00");
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  await dialog.getByText(`O estorno em ${RENT.account} passa`).waitFor();
  expect(await apply.isDisabled()).toBe(true);
  await dialog.getByLabel(forecastTexts.spreadTotal).fill("-1.000,00");
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  await rows.first().waitFor();
  await dialog.getByText(spreadSignTexts.confirmedNote([RENT.account])).waitFor();
  const cells = await rows.count();
  await apply.click();
  await dialog.waitFor({ state: "detached" });
  await page.getByText(forecastTexts.pending(cells)).waitFor();
});

/** "Salvar visão" under "Visões desta tela", then the view opened from /user/visoes. */
async function saveAndReopen(page: Page, name: string) {
  await page.getByText(savedViewTexts.summary).click();
  await page.getByLabel(savedViewTexts.nameLabel).fill(name);
  await page.getByRole("button", { name: savedViewTexts.save }).click();
  await page.getByText(savedViewTexts.saved(name)).waitFor();
  await page.goto("/user/visoes");
  await page.getByRole("link", { name: savedViewTexts.openLabel(name) }).click();
}

test("saved views: the filter's choices and the grid's difference columns are saved and restored from /user/visoes", async ({
  page,
  app,
  browser,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");

  // The filter: its choices reach the address as they are made, and the view keeps them.
  await page.goto("/ij/report_create_schneider");
  await page.getByLabel(forecastTexts.period).selectOption(OPEN);
  await page.getByLabel(forecastTexts.costCenter).fill(CC);
  await page.waitForURL((url) => url.searchParams.get("rf") === OPEN && url.searchParams.get("cost_center") === CC);
  await saveAndReopen(page, "Minha revisão");
  await page.waitForURL((url) => url.pathname === "/ij/report_create_schneider" && url.searchParams.has("rf"));
  expect(await page.getByLabel(forecastTexts.period).inputValue()).toBe(OPEN);
  expect(await page.getByLabel(forecastTexts.costCenter).inputValue()).toBe(CC);

  // The grid with a difference column: the view reopens the same cost centre with the column.
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  await page.getByText(gridTexts.variance.legend).click();
  await page.getByRole("checkbox", { name: gridTexts.variance.groupRf }).check();
  await page.getByRole("button", { name: gridTexts.variance.show }).click();
  await page.waitForURL((url) => url.searchParams.get("cols") === "rf");
  await waitForGrid(page);
  await saveAndReopen(page, "Revisão com Δ RF");
  await page.waitForURL((url) => url.pathname === reviewPath(OPEN, CC) && url.searchParams.get("cols") === "rf");
  await waitForGrid(page);
  expect(await page.locator(`[role="columnheader"][data-column="vr_abs_${m(3)}"]`).count()).toBe(1);
  expect(await page.getByRole("checkbox", { name: gridTexts.variance.groupRf }).isChecked()).toBe(true);

  // Without JavaScript, "Aplicar escolhas" writes the choices in the address, and the view keeps them.
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto("/ij/report_create_schneider");
    await plain.getByLabel(forecastTexts.period).selectOption(OPEN);
    await plain.getByLabel(forecastTexts.costCenter).fill(CC);
    await plain.getByRole("button", { name: forecastTexts.applyChoices }).click();
    await plain.waitForURL((url) => url.searchParams.get("cost_center") === CC);
    await saveAndReopen(plain, "Sem JavaScript");
    await plain.waitForURL((url) => url.pathname === "/ij/report_create_schneider" && url.searchParams.has("rf"));
    expect(await plain.getByLabel(forecastTexts.period).inputValue()).toBe(OPEN);
    expect(await plain.getByLabel(forecastTexts.costCenter).inputValue()).toBe(CC);
  });
});

test("Distribuir total with a base: the previous RF where it has months, the rest evenly and named; a seasonality profile kept by SYSTEM ADMIN without JavaScript", async ({
  page,
  app,
  browser,
}) => {
  // SYSTEM ADMIN (a reviewer) keeps the profile, on its screen without JavaScript: December weighs 2,5, every other
  // month 1.
  const PROFILE = "E2E — Dezembro forte";
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "sysadmin@demo.local");
    await plain.goto("/ij/forecast_perfis_sazonalidade");
    await plain.getByLabel(profileTexts.nameLabel).fill(PROFILE);
    await plain.getByLabel("Dezembro", { exact: true }).fill("2,5");
    await plain.getByRole("button", { name: profileTexts.save }).click();
    await plain.getByText(profileTexts.created(PROFILE)).waitFor();
    expect(await plain.getByRole("row", { name: new RegExp(PROFILE) }).innerText()).toContain("2,5");
  });

  // The preparer: RF1 (the previous RF) ends in December, so of RF2's open months (02/YEAR–02/YEAR+1) it has no
  // figure for 01 and 02/YEAR+1, which are spread evenly and named; the others follow RF1.
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const toolbar = page.getByRole("toolbar");
  await (await cell(page, SALARIES.label, `m_${m(11)}`)).click();
  await toolbar.getByRole("button", { name: forecastTexts.spreadTitle }).click();
  const dialog = page.getByRole("dialog", { name: forecastTexts.spreadTitle });
  const rows = dialog.locator("tbody tr");
  await dialog.getByLabel(forecastTexts.spreadTotal).fill("1.300,00");
  await dialog.getByRole("radio", { name: forecastTexts.spreadModes.rf_anterior }).check();
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  await dialog.getByText(spreadBaseTexts.unbased([`01/${YEAR + 1}`, `02/${YEAR + 1}`])).waitFor();
  expect(await rows.count()).toBe(13);
  // 1.300,00 / 13 in each month without a base.
  expect(await rows.filter({ hasText: `01/${YEAR + 1}` }).innerText()).toContain("100,00");

  // The stored profile, picked from its list: 1.595,00 over weights summing 14,5 (110,00 a unit; not the 100,00 an
  // earlier test of this file saved in every month, so each of the 13 cells changes).
  await dialog.getByRole("radio", { name: forecastTexts.spreadModes.perfil }).check();
  await dialog.getByRole("combobox", { name: spreadBaseTexts.profileLabel }).selectOption({ label: PROFILE });
  await dialog.getByLabel(forecastTexts.spreadTotal).fill("1.595,00");
  await dialog.getByRole("button", { name: forecastTexts.spreadPreview }).click();
  await rows
    .filter({ hasText: `12/${YEAR}` })
    .filter({ hasText: "275,00" })
    .waitFor();
  expect(await rows.filter({ hasText: `11/${YEAR}` }).innerText()).toContain("110,00");
  expect(await dialog.getByText(spreadBaseTexts.unbased([`01/${YEAR + 1}`, `02/${YEAR + 1}`])).count()).toBe(0);
  await dialog.getByRole("button", { name: forecastTexts.apply }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByText(forecastTexts.pending(13)).waitFor();
});

/** The first month column wholly in view beside the pinned columns of the grid's scroll area. */
const firstVisibleMonth = (page: Page) =>
  page.locator(".forecast-grid__scroll").evaluate((box) => {
    const heads = [...box.querySelectorAll<HTMLElement>("[role=columnheader]")];
    const pinnedRight = Math.max(
      box.getBoundingClientRect().left,
      ...heads.filter((h) => h.classList.contains("is-pinned")).map((h) => h.getBoundingClientRect().right),
    );
    const months = heads.filter((h) => h.dataset.column?.startsWith("m_") && !h.classList.contains("is-pinned"));
    return months.find((h) => h.getBoundingClientRect().left >= pinnedRight - 1)?.dataset.column ?? null;
  });

/** Whether the cell is wholly inside the grid's scroll area, clear of the pinned column, and on screen. */
const inView = (target: Locator) =>
  target.evaluate((el) => {
    const box = el.closest(".forecast-grid__scroll")!.getBoundingClientRect();
    const pinned = el.parentElement!.querySelector(".is-pinned")!.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return (
      r.left >= pinned.right - 1 &&
      r.right <= box.right + 1 &&
      r.top >= box.top &&
      r.bottom <= box.bottom + 1 &&
      r.top >= 0 &&
      r.bottom <= window.innerHeight
    );
  });

for (const size of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
])
  test(`${size.width} px: the grid opens at its first editable month, the actual months a scroll to the left`, async ({
    app,
    browser,
  }) => {
    const { page, close } = await openCheckedPage(browser, app, { viewport: size });
    try {
      await signIn(page, app.baseURL, "gold@demo.local");
      await page.goto(reviewPath(OPEN, CC));
      await waitForGrid(page);
      // RF2 is edited in February: its first forecast month; the twelve actual months before it are off to the left.
      expect(await firstVisibleMonth(page)).toBe(`m_${m(2)}`);
      expect(await page.locator(".forecast-grid__scroll").evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

test("an audit entry's cell: Abrir opens the grid at that cell with its history", async ({ page, app, browser }) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const target = await cell(page, SALARIES.label, `m_${m(5)}`);
  await target.dblclick();
  await page.keyboard.type("4321,09");
  await page.keyboard.press("Enter");
  await saveAndConfirm(page, page.getByRole("button", { name: forecastTexts.saveCount(1) }));

  const admin = await openCheckedPage(browser, app, { viewport: { width: 1366, height: 768 } });
  try {
    const audit = admin.page;
    await signIn(audit, app.baseURL, "sysadmin@demo.local");
    await audit.goto(`/user/audit?evento=dataEdited&objeto=${encodeURIComponent(CC)}`);
    await audit
      .locator(".audit-table tbody tr")
      .first()
      .getByRole("link", { name: /^Ver a entrada/ })
      .click();
    // "Conta 4101001 — Salários e Ordenados, mai/YY: … → 4.321,09", and Abrir beside it.
    const change = new RegExp(
      `^${auditTexts.detailOpen}: Conta 4101001 — Salários e Ordenados, mai/${String(YEAR).slice(2)}: .* → 4\\.321,09$`,
    );
    await audit.getByRole("link", { name: change }).click();
    await audit.waitForURL((url) => url.searchParams.get("historico") === "1" && url.hash === `#${CELL_FRAGMENT}`);
    await waitForGrid(audit);
    const history = audit.getByRole("dialog", { name: forecastTexts.historyTitle(SALARIES.account, `05/${YEAR}`) });
    await history.getByRole("cell", { name: "4.321,09" }).waitFor();
    // Closed, the focus is on the cell, which is in view.
    await audit.keyboard.press("Escape");
    await history.waitFor({ state: "detached" });
    const opened = await cell(audit, SALARIES.label, `m_${m(5)}`);
    expect(await opened.getAttribute("id")).toBe(CELL_FRAGMENT);
    await expect.poll(() => opened.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await inView(opened)).toBe(true);
  } finally {
    await admin.close();
  }
});

test("a cell's comments open beside the grid: posted there, the grid keeps its unsaved changes; Escape returns to the cell", async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(reviewPath(OPEN, CC));
  await waitForGrid(page);
  const review = page.url();
  // An unsaved change elsewhere.
  await (await cell(page, CHARGES.label, `m_${m(6)}`)).dblclick();
  await page.keyboard.type("77");
  await page.keyboard.press("Enter");
  await page.getByText(forecastTexts.pending(1)).waitFor();

  const target = await cell(page, RENT.label, `m_${m(4)}`);
  await target.click();
  await page.getByRole("button", { name: gridTexts.comments, exact: true }).click();
  const panel = page.getByRole("dialog", { name: commentTexts.titleOf(`${RENT.account} · 04/${YEAR}`) });
  await panel.getByLabel(commentTexts.newComment).waitFor();
  // Beside the grid, not over it; the focus in the panel; still the review's address.
  const [grid, side] = await Promise.all([page.locator(".forecast-grid__scroll").boundingBox(), panel.boundingBox()]);
  expect(side!.x).toBeGreaterThanOrEqual(grid!.x + grid!.width - 1);
  await expect.poll(() => panel.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  expect(page.url()).toBe(review);

  await panel.getByLabel(commentTexts.newComment).fill("Reajuste do aluguel em abril.");
  await panel.getByRole("button", { name: commentTexts.submit }).click();
  await panel.locator(".cell-thread__text", { hasText: "Reajuste do aluguel em abril." }).waitFor();
  expect(await target.getAttribute("class")).toContain("has-comment");
  // The grid was not reloaded: the unsaved change is still there.
  await page.getByText(forecastTexts.pending(1)).waitFor();
  expect(page.url()).toBe(review);

  await panel.getByLabel(commentTexts.newComment).focus();
  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "detached" });
  await expect.poll(() => target.evaluate((el) => el === document.activeElement)).toBe(true);
});

test("without JavaScript, a cell's thread goes back to the grid at that cell, after posting too", async ({
  app,
  browser,
}) => {
  await withoutJavaScript(browser, app, async (plain) => {
    await plain.setViewportSize({ width: 390, height: 844 });
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto(commentPath(OPEN, CC, CHARGES.account, m(12)));
    await plain.getByLabel(commentTexts.newComment).fill("Encargos de dezembro conferidos.");
    await plain.getByRole("button", { name: commentTexts.submit }).click();
    await plain.locator(".cell-thread__text", { hasText: "Encargos de dezembro conferidos." }).waitFor();
    await plain.getByRole("link", { name: commentTexts.openInGrid }).click();
    await plain.waitForURL((url) => url.hash === `#${CELL_FRAGMENT}` && url.searchParams.has("celula"));
    const back = await cell(plain, CHARGES.label, `m_${m(12)}`);
    expect(await back.getAttribute("id")).toBe(CELL_FRAGMENT);
    // The browser scrolled the page and the grid to it (the link's fragment).
    await expect.poll(() => inView(back)).toBe(true);
  });
});
