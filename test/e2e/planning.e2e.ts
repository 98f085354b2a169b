import { type Db, MongoClient } from "mongodb";
import type { Page } from "playwright-core";
import { afterAll } from "vitest";
import { applyMultiplier } from "~/features/planning/planning";
import { messages, planningTexts } from "~/messages";
import { expect, test, withoutJavaScript } from "./fixtures";
import { signIn, waitForHydration } from "./sign-in";

/**
 * SKU quantity planning and the report preview as their users work ("Done when"): one server for the
 * file; each test works on its own channel so the tests do not see each other's saves.
 */

let client: MongoClient | undefined;
async function database(app: { mongoUri: string; databaseName: string }): Promise<Db> {
  client ??= await new MongoClient(app.mongoUri).connect();
  return client.db(app.databaseName);
}
afterAll(async () => {
  await client?.close();
});

const rows = (page: Page) => page.locator("main table tbody tr");
const quantity = (page: Page, i: number) => rows(page).nth(i).locator("input.planning-quantity");
const banner = (page: Page) => page.locator(".planning__status");
const dialog = (page: Page) => page.getByRole("dialog");

/** Generates from /ij/plan with the channel given, checking the spec's disabled Generate and the To ≥ From rule. */
async function generate(page: Page, channel: string) {
  await page.goto("/ij/plan");
  const button = page.getByRole("button", { name: planningTexts.generateReport });
  await expect.poll(() => button.isDisabled()).toBe(true);
  await page.getByRole("checkbox", { name: channel, exact: true }).check();
  await expect.poll(() => button.isDisabled()).toBe(false);
  await button.click();
  await page.waitForURL((url) => url.pathname === "/ij/plan_edit");
  await banner(page).getByText(messages.reportGenerated).waitFor();
}

test("filter → results: Generate waits for a channel, the filter in the URL and formFilter, dates, banners, paging, server checks", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/ij/plan");
  const button = page.getByRole("button", { name: planningTexts.generateReport });
  await expect.poll(() => button.isDisabled()).toBe(true);
  await page.getByRole("checkbox", { name: "WHOLESALES", exact: true }).check();
  await page.getByRole("checkbox", { name: "FSS", exact: true }).check();
  // To before From is refused in the browser, with the message by the field.
  await page.getByLabel(planningTexts.from, { exact: true }).fill("2027-03-10");
  await page.getByLabel(planningTexts.to, { exact: true }).fill("2027-01-10");
  await button.click();
  await page.getByText(planningTexts.dateOrder).waitFor();
  expect(new URL(page.url()).pathname).toBe("/ij/plan");
  await page.getByLabel(planningTexts.to, { exact: true }).fill("2030-12-30");
  await page.getByLabel(planningTexts.from, { exact: true }).fill("1950-12-30");
  await button.click();
  await page.waitForURL((url) => url.pathname === "/ij/plan_edit");
  const url = new URL(page.url());
  expect(url.searchParams.getAll("chanel")).toEqual(["WHOLESALES", "FSS"]);
  expect(url.searchParams.get("dateStart")).toBe("1950-12-30");

  const db = await database(app);
  const total = await db.collection("planning_quantity").countDocuments({ channel: { $in: ["WHOLESALES", "FSS"] } });
  await banner(page)
    .getByText(`${messages.reportGenerated} ${planningTexts.itemCount(total)}`)
    .waitFor();
  expect(await page.locator(".planning__period").innerText()).toContain("dez. de 1950 – dez. de 2030");
  expect(await rows(page).count()).toBe(20);
  const dates = await rows(page).locator("td:first-child").allInnerTexts();
  expect(dates.every((d) => /^\d{2} [a-zç]{3} \d{4}$/.test(d.trim()))).toBe(true);
  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem("formFilter") ?? "null"));
  expect(stored).toMatchObject({ dateStart: "1950-12-30", dateEnd: "2030-12-30", chanel: ["WHOLESALES", "FSS"] });

  // Newest first, across pages; back and forward.
  const newest = await db
    .collection("planning_quantity")
    .find({ channel: { $in: ["WHOLESALES", "FSS"] } })
    .sort({ creationDate: -1, _id: -1 })
    .limit(21)
    .toArray();
  expect(await rows(page).first().locator("td").nth(2).innerText()).toBe(newest[0].sku);
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((u) => u.searchParams.get("page") === "2");
  await page.getByText(/^21–40 \//).waitFor();
  expect(await rows(page).first().locator("td").nth(2).innerText()).toBe(newest[20].sku);
  await page.goBack();
  await page.getByText(/^1–20 \//).waitFor();
  await page.goForward();
  await page.getByText(/^21–40 \//).waitFor();

  // Back on /ij/plan, the stored filter fills the form.
  await page.goto("/ij/plan");
  await expect.poll(() => page.getByRole("checkbox", { name: "FSS", exact: true }).isChecked()).toBe(true);
  expect(await page.getByLabel(planningTexts.from, { exact: true }).inputValue()).toBe("1950-12-30");
  await page.getByRole("link", { name: planningTexts.reset }).click();
  await expect.poll(() => page.getByRole("checkbox", { name: "FSS", exact: true }).isChecked()).toBe(false);

  // The server checks what the browser would have: no channel, a date out of bounds, an unknown value.
  for (const bad of ["dateStart=2026-01-01", "chanel=FSS&dateEnd=2031-01-01", "chanel=FSS&brand=Nope"]) {
    await page.goto(`/ij/plan_edit?${bad}`);
    await page.waitForURL((u) => u.pathname === "/ij/plan");
    await page.getByText(planningTexts.filterInvalid).waitFor();
  }
  await page.getByText(planningTexts.unknownValue("Brand", "Nope")).waitFor();
  // A filter that matches nothing.
  await page.goto("/ij/plan_edit?chanel=FSS&dateStart=1990-01-01&dateEnd=1990-12-31");
  await banner(page).getByText(messages.noDataFound).waitFor();
  expect(await page.evaluate(() => window.localStorage.getItem("formFilter"))).not.toBeNull();

  // Logout forgets the stored filter: the next person on this browser starts from an empty form.
  await page
    .getByRole("navigation", { name: messages.userMenu })
    .getByRole("button", { name: messages.menuLogout })
    .click();
  await page.waitForURL((u) => u.pathname === "/");
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("formFilter"))).toBeNull();
});

test("individual save (unitario), reset, a conflicting save and a row's history", async ({ page, app }) => {
  const db = await database(app);
  await signIn(page, app.baseURL, "gold@demo.local");
  await generate(page, "WHOLESALES");
  const first = await rows(page).first().getAttribute("data-row-id");
  const old = Number(await quantity(page, 0).inputValue());

  // Reset returns to unedited; editing a row disables the group edit.
  await quantity(page, 0).fill("12345");
  await page.getByText(planningTexts.individualMode(1)).waitFor();
  expect(await page.getByRole("button", { name: planningTexts.groupEdit }).isDisabled()).toBe(true);
  // Leaving the page with a typed quantity asks first.
  await page.getByRole("link", { name: messages.next }).click();
  await dialog(page).getByText(planningTexts.discardPrompt).waitFor();
  await dialog(page).getByRole("button", { name: planningTexts.keepEditing }).click();
  expect(new URL(page.url()).searchParams.get("page")).toBeNull();
  expect(await quantity(page, 0).inputValue()).toBe("12345");
  await page.getByRole("link", { name: planningTexts.reset }).click();
  await expect.poll(() => quantity(page, 0).inputValue()).toBe(String(old));
  // A wrong value is marked and cannot be saved.
  const second = await quantity(page, 1).inputValue();
  await quantity(page, 1).fill("-3");
  await rows(page).nth(1).getByText(messages.numberNotValid).waitFor();
  expect(await page.getByRole("button", { name: planningTexts.save }).isDisabled()).toBe(true);
  await quantity(page, 1).fill(second);
  await quantity(page, 0).fill("12345");
  await page.getByRole("button", { name: planningTexts.save }).click();
  await dialog(page).getByText(planningTexts.confirmIndividual(1)).waitFor();
  await dialog(page).getByRole("button", { name: planningTexts.confirm }).click();
  await dialog(page).getByText(messages.editingSaved).waitFor();
  await dialog(page).getByText(planningTexts.savedRows(1)).waitFor();
  await dialog(page).getByRole("link", { name: messages.close }).click();
  await expect.poll(() => dialog(page).count()).toBe(0);
  const saved = await db
    .collection("planning_quantity")
    .findOne({ _id: new (await import("mongodb")).ObjectId(first!) });
  expect(saved).toMatchObject({ valor: 12345, revision: 1, updatedBy: "gold@demo.local" });
  // Newest first: the saved row is on top.
  expect(await rows(page).first().getAttribute("data-row-id")).toBe(first);

  // The row's history: old → new.
  await rows(page).first().getByRole("link", { name: planningTexts.historyColumn }).click();
  await dialog(page)
    .getByText(`${old.toLocaleString("pt-BR")} → 12.345`)
    .waitFor();
  await dialog(page).getByRole("link", { name: messages.close }).click();
  await expect.poll(() => dialog(page).count()).toBe(0);

  // Someone else changes the second row after this page was loaded: its save is refused and named.
  const secondId = await rows(page).nth(1).getAttribute("data-row-id");
  const { ObjectId } = await import("mongodb");
  await db
    .collection("planning_quantity")
    .updateOne({ _id: new ObjectId(secondId!) }, { $set: { valor: 777 }, $inc: { revision: 1 } });
  await quantity(page, 1).fill("1");
  await page.getByRole("button", { name: planningTexts.save }).click();
  await dialog(page).getByRole("button", { name: planningTexts.confirm }).click();
  const alert = page.getByRole("alert").filter({ hasText: planningTexts.conflictIntro });
  await alert.waitFor();
  expect(await alert.innerText()).toContain("(quantidade atual: 777)");
  expect((await db.collection("planning_quantity").findOne({ _id: new ObjectId(secondId!) }))?.valor).toBe(777);
});

test("+10% on the whole filter (lote): preview, Number is not valid, save, rows beyond page 1 multiplied, history", async ({
  page,
  app,
}) => {
  const db = await database(app);
  const before = await db.collection("planning_quantity").find({ channel: "FSS" }).sort({ _id: 1 }).toArray();
  expect(before.length).toBeGreaterThan(40);
  await signIn(page, app.baseURL, "gold@demo.local");
  await generate(page, "FSS");
  const shown = Number(await quantity(page, 0).inputValue());

  await page.getByRole("link", { name: planningTexts.groupEdit }).click();
  const percent = dialog(page).getByLabel(planningTexts.percentLabel);
  expect(await percent.inputValue()).toBe("10");
  // Typed into once the dialog's own code has replaced its plain-markup stand-in (typing into the stand-in races it).
  await page.locator(".page-dialog--static").waitFor({ state: "detached" });
  await percent.fill("1000001");
  await dialog(page).getByText(messages.numberNotValid).waitFor();
  // The button follows the field's state once React has rendered it.
  await expect.poll(() => dialog(page).getByRole("button", { name: planningTexts.apply }).isDisabled()).toBe(true);
  await percent.fill("10");
  expect(await dialog(page).getByLabel(planningTexts.increase).isChecked()).toBe(true);
  await dialog(page).getByRole("button", { name: planningTexts.apply }).click();
  await page.waitForURL((u) => u.searchParams.get("percent") === "10" && u.searchParams.get("op") === "increase");
  // Batch mode: read-only inputs with the values multiplied.
  await expect.poll(() => quantity(page, 0).inputValue()).toBe(String(applyMultiplier(shown, 110)));
  expect(await quantity(page, 0).getAttribute("readonly")).not.toBeNull();
  await page.getByText(planningTexts.batchMode("+10% (×1,1)", before.length)).waitFor();

  await page.getByRole("button", { name: planningTexts.save }).click();
  await dialog(page).getByText(planningTexts.confirmBatch("+10% (×1,1)", before.length)).waitFor();
  await dialog(page).getByRole("button", { name: planningTexts.confirm }).click();
  await dialog(page).getByText(planningTexts.savedBatch("+10% (×1,1)", before.length)).waitFor();
  await dialog(page).getByRole("link", { name: messages.close }).click();
  expect(new URL(page.url()).searchParams.get("percent")).toBeNull();

  const after = await db.collection("planning_quantity").find({ channel: "FSS" }).sort({ _id: 1 }).toArray();
  expect(after.map((r) => r.valor)).toEqual(before.map((r) => applyMultiplier(r.valor, 110)));
  expect(await db.collection("planning_quantity_saves").countDocuments({ mode: "lote" })).toBe(1);

  // The last page too, and its rows' history names the batch with the row's old and new quantity.
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((u) => u.searchParams.get("page") === "2");
  await page.getByText(/^21–40 \//).waitFor();
  const laterId = await rows(page).nth(3).getAttribute("data-row-id");
  const laterRow = before.find((r) => String(r._id) === laterId)!;
  await rows(page).nth(3).getByRole("link", { name: planningTexts.historyColumn }).click();
  await dialog(page).locator("tbody").waitFor();
  await expect
    .poll(() => dialog(page).innerText())
    .toContain(
      planningTexts.historyBatchRowChange(
        "+10% (×1,1)",
        laterRow.valor.toLocaleString("pt-BR"),
        applyMultiplier(laterRow.valor, 110).toLocaleString("pt-BR"),
      ),
    );
});

test("USER SILVER reads /ij/report_preview (page index from 0) but cannot save: read-only, and refused by the server", async ({
  page,
  app,
}) => {
  const db = await database(app);
  await signIn(page, app.baseURL, "silver@demo.local");
  await page.goto("/ij/report_create");
  expect(await page.getByRole("checkbox", { name: "FSS", exact: true }).count()).toBe(0);
  await page.getByRole("checkbox", { name: "hero", exact: true }).check();
  await page.getByRole("button", { name: planningTexts.generateReport }).click();
  await page.waitForURL((u) => u.pathname === "/ij/report_preview");
  await banner(page).getByText(messages.reportGenerated).waitFor();
  await page.getByText(planningTexts.readOnlyNote).waitFor();
  expect(await page.locator("input.planning-quantity").count()).toBe(0);
  expect(await page.getByRole("button", { name: planningTexts.save }).count()).toBe(0);
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((u) => u.searchParams.get("page") === "1");
  await expect.poll(() => page.locator(".data-table__pager [aria-current=page]").innerText()).toMatch(/^2 \//);

  const target = await db.collection("planning_quantity").findOne({ hero: "hero" });
  const before = await db.collection("planning_quantity").find({}).sort({ _id: 1 }).toArray();
  const url = new URL(page.url());
  const forms: Record<string, string>[] = [
    {
      intent: "unitario",
      confirmed: "1",
      "rows[0].id": String(target!._id),
      "rows[0].revision": String(target!.revision),
      "rows[0].loaded": String(target!.valor),
      "rows[0].valor": "1",
    },
    { intent: "lote", confirmed: "1", percent: "50", op: "increase", loadedAt: new Date().toISOString() },
  ];
  for (const form of forms) {
    const response = await page.request.post(`${url.pathname}${url.search}`, {
      form,
      headers: { Origin: app.baseURL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
  }
  expect(await db.collection("planning_quantity").find({}).sort({ _id: 1 }).toArray()).toEqual(before);
  // The planning screens are not SILVER's at all.
  const plan = await page.request.get("/ij/plan_edit?chanel=FSS", { maxRedirects: 0 });
  expect(plan.status()).toBe(403);
});

test("without JavaScript: filter → edit → confirm → saved, and the group edit", async ({ browser, app }) => {
  const db = await database(app);
  await withoutJavaScript(browser, app, async (page) => {
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto("/ij/plan");
    await page.getByRole("checkbox", { name: "ONLINE_PARTNERS", exact: true }).check();
    await page.getByRole("radio", { name: planningTexts.skuModeAttributes }).check();
    await page.getByRole("button", { name: planningTexts.generateReport }).click();
    await page.waitForURL((u) => u.pathname === "/ij/plan_edit");
    await banner(page).getByText(messages.reportGenerated).waitFor();

    const id = await rows(page).first().getAttribute("data-row-id");
    await quantity(page, 0).fill("4321");
    await page.getByRole("button", { name: planningTexts.save }).click();
    await page.getByText(planningTexts.confirmIndividual(1)).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: planningTexts.confirm }).click();
    await page.getByRole("dialog").getByText(messages.editingSaved).waitFor();
    const { ObjectId } = await import("mongodb");
    expect((await db.collection("planning_quantity").findOne({ _id: new ObjectId(id!) }))?.valor).toBe(4321);
    await page.getByRole("dialog").getByRole("link", { name: messages.close }).click();
    expect(new URL(page.url()).searchParams.get("saved")).toBeNull();
    const results = page.url();

    // Group edit without JavaScript: the dialog is a GET form; a wrong percentage comes back with the message.
    await page.getByRole("link", { name: planningTexts.groupEdit }).click();
    await page.getByLabel(planningTexts.percentLabel).fill("150");
    await page.getByLabel(planningTexts.decrease).check();
    await page.getByRole("button", { name: planningTexts.apply }).click();
    await page.getByText(planningTexts.decreaseTooLarge).waitFor();

    // "Distribuir" on a row: its SKU in its channel over the filter's months, previewed, then saved whole.
    await page.goto(results);
    const spreadRow = await rows(page).nth(1).getAttribute("data-row-id");
    await rows(page).nth(1).getByRole("link", { name: planningTexts.spreadColumn }).click();
    await page.getByLabel(planningTexts.spreadTotal).fill("1.201");
    await page.getByRole("button", { name: planningTexts.spreadPreview }).click();
    const previewed = page.locator(".spread__preview tbody tr");
    await previewed.first().waitFor();
    const months = await previewed.count();
    await page.getByRole("button", { name: planningTexts.spreadConfirm }).click();
    await page.waitForURL((u) => u.pathname === "/ij/plan_edit");
    await page.getByText(planningTexts.spreadSaved(months)).waitFor();
    const row = await db.collection("planning_quantity").findOne({ _id: new ObjectId(spreadRow!) });
    const pair = await db.collection("planning_quantity").find({ sku: row?.sku, channel: row?.channel }).toArray();
    const spread = await db.collection("planning_quantity_history").find({ via: "spread" }).toArray();
    expect(spread).toHaveLength(months);
    const ids = new Set(spread.map((h) => String(h.rowId)));
    expect(pair.filter((r) => ids.has(String(r._id))).reduce((sum, r) => sum + r.valor, 0)).toBe(1201);
  });
});

/**
 * A saved group edit replayed by Back (or by the same form sent again) is not applied twice. Each test takes
 * one brand and one month of BRANDSITE (a channel the other tests leave alone), the two tests different brands.
 */
async function brandMonthFilter(db: Db, skip: number): Promise<{ query: string; match: Record<string, unknown> }> {
  const [group] = await db
    .collection("planning_quantity")
    .aggregate<{ _id: { marca: string; dateRef: Date }; n: number }>([
      { $match: { channel: "BRANDSITE" } },
      { $group: { _id: { marca: "$marca", dateRef: "$dateRef" }, n: { $sum: 1 } } },
      { $match: { n: { $gte: 2, $lte: 20 } } },
      { $sort: { n: -1, "_id.marca": 1, "_id.dateRef": 1 } },
      { $skip: skip },
      { $limit: 1 },
    ])
    .toArray();
  expect(group, "a brand and month of BRANDSITE with 2 to 20 rows (one page)").toBeDefined();
  const { marca, dateRef } = group._id;
  const month = dateRef.toISOString().slice(0, 7);
  const last = new Date(Date.UTC(dateRef.getUTCFullYear(), dateRef.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  const params = new URLSearchParams({
    dateStart: `${month}-01`,
    dateEnd: last,
    skuMode: "attributes",
    brand: marca,
    chanel: "BRANDSITE",
  });
  return { query: params.toString(), match: { channel: "BRANDSITE", marca, dateRef } };
}

const valuesOf = async (db: Db, match: Record<string, unknown>) =>
  (await db.collection("planning_quantity").find(match).sort({ _id: 1 }).toArray()).map((r) => ({
    id: String(r._id),
    valor: r.valor as number,
  }));

test("a saved group edit is applied once: Back shows the saved grid, a replay is refused, inputs only hold numbers, each row keeps old → new", async ({
  page,
  app,
}) => {
  const db = await database(app);
  const { query, match } = await brandMonthFilter(db, 0);
  const before = await valuesOf(db, match);
  const parseWarnings: string[] = [];
  page.on("console", (message) => {
    if (/cannot be parsed|out of range/i.test(message.text())) parseWarnings.push(message.text());
  });
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(`/ij/plan_edit?${query}`);
  // A deep link says nothing of generating: the filter's total quantity shows the page is loaded.
  await banner(page)
    .getByText(`${planningTexts.totalQuantity}: ${before.reduce((sum, r) => sum + r.valor, 0).toLocaleString("pt-BR")}`)
    .waitFor();

  await page.getByRole("link", { name: planningTexts.groupEdit }).click();
  await dialog(page).getByRole("button", { name: planningTexts.apply }).click();
  await page.waitForURL((u) => u.searchParams.get("percent") === "10" && u.searchParams.get("op") === "increase");
  const previewUrl = page.url();
  await page.getByText(planningTexts.batchMode("+10% (×1,1)", before.length)).waitFor();

  // Back and Forward between the preview and the normal grid: the quantity inputs hold quantities, never a record id.
  const numbersOnly = async () => {
    const values = await page
      .locator("input.planning-quantity")
      .evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).value, i.getAttribute("value")]));
    expect(values.length).toBe(before.length);
    for (const [value, attribute] of values) {
      expect(value).toMatch(/^\d+$/);
      expect(attribute ?? "").toMatch(/^\d*$/);
    }
  };
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.get("percent") === null);
  await expect.poll(() => page.getByText(planningTexts.batchMode("+10% (×1,1)", before.length)).count()).toBe(0);
  await numbersOnly();
  await page.goForward();
  await page.waitForURL((u) => u.searchParams.get("percent") === "10");
  await expect.poll(() => quantity(page, 0).getAttribute("readonly")).not.toBeNull();
  await numbersOnly();
  expect(parseWarnings).toEqual([]);

  // Salvar → Confirmar: ×1.1 once.
  await page.getByRole("button", { name: planningTexts.save }).click();
  await dialog(page).getByRole("button", { name: planningTexts.confirm }).click();
  await dialog(page).getByText(planningTexts.savedBatch("+10% (×1,1)", before.length)).waitFor();
  const once = before.map((r) => ({ id: r.id, valor: applyMultiplier(r.valor, 110) }));
  expect(await valuesOf(db, match)).toEqual(once);

  // Back shows the saved grid, not the preview again.
  await page.goBack();
  await page.waitForURL((u) => u.searchParams.get("percent") === null && u.searchParams.get("saved") === null);
  await expect.poll(() => page.getByRole("button", { name: planningTexts.save }).isDisabled()).toBe(true);
  await numbersOnly();
  const shown = await page
    .locator("input.planning-quantity")
    .evaluateAll((inputs) => inputs.map((i) => Number((i as HTMLInputElement).value)));
  expect([...shown].sort((a, b) => a - b)).toEqual(once.map((r) => r.valor).sort((a, b) => a - b));
  expect(parseWarnings).toEqual([]);

  // The preview's address opened again shows the saved grid; its form sent again (as a reload of it would) is refused.
  await page.goto(previewUrl);
  await banner(page).getByText(planningTexts.totalQuantity).waitFor();
  expect(await page.locator("input.planning-quantity[readonly]").count()).toBe(0);
  expect(await page.getByText(planningTexts.batchMode("+10% (×1,1)", before.length)).count()).toBe(0);
  const preview = new URL(previewUrl);
  const replay = await page.request.post(`${preview.pathname}${preview.search}`, {
    form: {
      intent: "lote",
      percent: "10",
      op: "increase",
      loadedAt: new Date().toISOString(),
      batchId: preview.searchParams.get("batchId") ?? "",
      confirmed: "1",
    },
    headers: { Origin: app.baseURL },
    maxRedirects: 0,
  });
  expect(replay.status()).toBe(409);
  expect(await replay.text()).toContain(planningTexts.batchStale);
  expect(await valuesOf(db, match)).toEqual(once);

  // Every row keeps its value before and after the batch.
  await page.goto(`/ij/plan_edit?${query}`);
  await rows(page).first().getByRole("link", { name: planningTexts.historyColumn }).click();
  const id = await rows(page).first().getAttribute("data-row-id");
  const row = before.find((r) => r.id === id)!;
  await dialog(page)
    .getByText(
      planningTexts.historyBatchRowChange(
        "+10% (×1,1)",
        row.valor.toLocaleString("pt-BR"),
        applyMultiplier(row.valor, 110).toLocaleString("pt-BR"),
      ),
    )
    .waitFor();
  expect(await dialog(page).getByText("não registrado").count()).toBe(0);
});

test("without JavaScript: a saved group edit is applied once; the preview opened again or its confirmation sent again is refused", async ({
  browser,
  app,
}) => {
  const db = await database(app);
  const { query, match } = await brandMonthFilter(db, 1);
  const before = await valuesOf(db, match);
  await withoutJavaScript(browser, app, async (page) => {
    await signIn(page, app.baseURL, "gold@demo.local");
    await page.goto(`/ij/plan_edit?${query}`);
    await banner(page).getByText(planningTexts.totalQuantity).waitFor();
    await page.getByRole("link", { name: planningTexts.groupEdit }).click();
    await page.getByRole("button", { name: planningTexts.apply }).click();
    await page.waitForURL((u) => u.searchParams.get("percent") === "10");
    const previewUrl = page.url();
    await page.getByRole("button", { name: planningTexts.save }).click();
    await page.getByText(planningTexts.confirmBatch("+10% (×1,1)", before.length)).waitFor();
    const fields = await page
      .getByRole("dialog")
      .locator("form input[type=hidden]")
      .evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value]));
    await page.getByRole("dialog").getByRole("button", { name: planningTexts.confirm }).click();
    await page.getByRole("dialog").getByText(messages.editingSaved).waitFor();
    const once = before.map((r) => ({ id: r.id, valor: applyMultiplier(r.valor, 110) }));
    expect(await valuesOf(db, match)).toEqual(once);

    // The preview's address again (what Back asks for): the saved grid, no preview to save twice.
    await page.goto(previewUrl);
    await banner(page).getByText(planningTexts.totalQuantity).waitFor();
    expect(await page.locator("input.planning-quantity[readonly]").count()).toBe(0);
    expect(await page.getByText(planningTexts.batchMode("+10% (×1,1)", before.length)).count()).toBe(0);

    // The confirmation sent again, as it was and as a reloaded preview would send it: refused, nothing changes.
    const preview = new URL(previewUrl);
    for (const loadedAt of [null, new Date().toISOString()]) {
      const form = Object.fromEntries(fields.map(([k, v]) => [k, k === "loadedAt" && loadedAt ? loadedAt : v]));
      const replay = await page.request.post(`${preview.pathname}${preview.search}`, {
        form,
        headers: { Origin: app.baseURL },
        maxRedirects: 0,
      });
      expect(replay.status()).toBe(409);
      expect(await replay.text()).toContain(planningTexts.batchStale);
    }
    expect(await valuesOf(db, match)).toEqual(once);
  });
});

test("Report generated successfully answers Generate report only, with and without JavaScript; the filter's total quantity shows", async ({
  page,
  app,
  browser,
}) => {
  const db = await database(app);
  const [fss] = await db
    .collection("planning_quantity")
    .aggregate<{ total: number; n: number }>([
      { $match: { channel: "FSS" } },
      { $group: { _id: null, total: { $sum: "$valor" }, n: { $sum: 1 } } },
    ])
    .toArray();
  const generatedText = `${messages.reportGenerated} ${planningTexts.itemCount(fss.n)}`;
  const quantityText = `${planningTexts.totalQuantity}: ${fss.total.toLocaleString("pt-BR")}`;
  const generateFss = async (p: Page, scripts = true) => {
    await p.goto("/ij/plan");
    // The stored filter is restored on hydration: the checkbox is checked after it, not before.
    if (scripts) await waitForHydration(p);
    await p.getByRole("checkbox", { name: "FSS", exact: true }).check();
    await p.getByLabel(planningTexts.from, { exact: true }).fill("1950-12-30");
    await p.getByLabel(planningTexts.to, { exact: true }).fill("2030-12-30");
    await p.getByRole("button", { name: planningTexts.generateReport }).click();
    await p.waitForURL((url) => url.pathname === "/ij/plan_edit");
  };
  const says = (p: Page) => banner(p).getByText(messages.reportGenerated).count();

  await signIn(page, app.baseURL, "gold@demo.local");
  await generateFss(page);
  await banner(page).getByText(generatedText).waitFor();
  await banner(page).getByText(quantityText).waitFor();
  expect(new URL(page.url()).searchParams.has("generated")).toBe(false);
  // A reload, a deep link and another page of the same results say nothing; the total stays.
  await page.reload();
  await banner(page).getByText(quantityText).waitFor();
  expect(await says(page)).toBe(0);
  const address = page.url();
  await page.goto("/ij/plan");
  await page.goto(address);
  await banner(page).getByText(quantityText).waitFor();
  expect(await says(page)).toBe(0);
  await generateFss(page);
  await banner(page).getByText(generatedText).waitFor();
  expect(fss.n).toBeGreaterThan(20);
  await page.getByRole("link", { name: messages.next }).click();
  await page.waitForURL((url) => url.searchParams.get("page") === "2");
  await banner(page).getByText(quantityText).waitFor();
  await expect.poll(() => says(page)).toBe(0); // the next page renders after its URL

  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await generateFss(plain, false);
    await banner(plain).getByText(generatedText).waitFor();
    await banner(plain).getByText(quantityText).waitFor();
    await plain.reload();
    await banner(plain).getByText(quantityText).waitFor();
    expect(await says(plain)).toBe(0);
  });
});
