import { ObjectId } from "mongodb";
import type { Page } from "playwright-core";
import { defaultMonth } from "~/features/hr/month-range";
import { hrTexts, messages } from "~/messages";
import { HR_AUX, HR_AUX_CHANGES } from "~/models/hr.server";
import { addMonths, monthKey, monthLabel, monthOfDate, monthStartDate } from "~/shared/months";
import { withDb } from "./database";
import { expect, test, withoutJavaScript } from "./fixtures";
import type { RunningApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * "Auxiliar Padrão" as its users see it: an editor picks a branch and a month range, edits figures (pt-BR,
 * checked, confirmed) and a comment (counter, 255 at most); a reader sees the same grid read-only and the
 * server refuses their save; the CPF is masked in every byte the browser receives; without JavaScript too.
 */

const LAST = defaultMonth(new Date(), false);
const BEFORE = addMonths(LAST, -1);
/** The months as the inputs and the URL hold them ("YYYY-MM"). */
const LAST_MONTH = monthKey(LAST);
const MONTH_BEFORE = monthKey(BEFORE);

/** The seeded branches (two at the e2e scale), by name. */
const branchesOf = (app: RunningApp) =>
  withDb(app, async (db) =>
    ((await db.collection(HR_AUX).distinct("filial_nome")) as string[]).sort((a, b) => a.localeCompare(b, "pt-BR")),
  );

/** Every CPF of a branch, as stored and as usually written. */
async function rawCpfsOf(app: RunningApp, filial: string): Promise<string[]> {
  const cpfs = (await withDb(app, (db) => db.collection(HR_AUX).distinct("cpf", { filial_nome: filial }))) as string[];
  expect(cpfs.length).toBeGreaterThan(3);
  return cpfs.flatMap((c) => [c, `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`]);
}

const gridRows = (page: Page) => page.locator(".hr-grid tbody tr");
const figureInput = (page: Page, rowId: string, field: string) =>
  page.locator(`tr[data-row-id="${rowId}"] [data-field="${field}"] input`);

test("an editor picks a branch and months, edits figures and a comment; the CPF never reaches the browser unmasked", async ({
  page,
  app,
}) => {
  const [, branch] = await branchesOf(app);
  const cpfs = await rawCpfsOf(app, branch);
  await signIn(page, app.baseURL, "gold@demo.local");
  await page
    .getByRole("navigation", { name: messages.mainNavigation })
    .getByRole("link", { name: hrTexts.title })
    .click();
  await page.waitForURL((url) => url.pathname === "/ij/rh");

  // Branch picker: searchable, Generate Review only with a choice; months default to the previous calendar month.
  const generate = page.getByRole("button", { name: hrTexts.generateReview });
  await expect.poll(() => generate.isDisabled()).toBe(true);
  expect(await page.getByLabel(hrTexts.monthFrom, { exact: true }).inputValue()).toBe(LAST_MONTH);
  expect(await page.getByLabel(hrTexts.monthTo, { exact: true }).inputValue()).toBe(LAST_MONTH);
  await page.getByLabel(hrTexts.branchSearchLabel).fill(branch.split(" - ")[1].toUpperCase());
  await expect.poll(() => page.getByRole("radio").count()).toBe(1);
  await page.getByRole("radio", { name: branch }).check();
  expect(await generate.isDisabled()).toBe(false);
  await page.getByLabel(hrTexts.monthFrom, { exact: true }).fill(MONTH_BEFORE);
  await generate.click();
  await page.waitForURL(
    (url) => url.pathname.startsWith("/ij/rh_edit/") && url.searchParams.get("mes_inicio") === MONTH_BEFORE,
  );
  expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/ij/rh_edit/${branch}`);
  expect(new URL(page.url()).searchParams.get("mes_fim")).toBe(LAST_MONTH);

  // The grid: both months, sorted by month then name; people of the branch beside it.
  const expectedRows = await withDb(app, (db) =>
    db
      .collection(HR_AUX)
      .find({
        filial_nome: branch,
        mes_apur: { $gte: monthStartDate(BEFORE), $lt: monthStartDate(addMonths(LAST, 1)) },
      })
      .sort({ mes_apur: 1, nome: 1, _id: 1 })
      .project({ nome: 1, mes_apur: 1 })
      .toArray(),
  );
  await expect.poll(() => gridRows(page).count()).toBe(expectedRows.length);
  expect(await page.locator(".hr-grid tbody th").allInnerTexts()).toEqual(expectedRows.map((r) => r.nome));
  expect(await page.locator(".hr-people li").count()).toBe(expectedRows.length / 2);
  const cpfCells = await page.locator(".hr-grid__cpf").allInnerTexts();
  expect(cpfCells.every((c) => /^\*\*\*\.\d{3}\.\d{3}-\*\*$/.test(c))).toBe(true);

  // Not in the HTML, not in the single-fetch data of this page or of the picker.
  const html = await page.content();
  const url = new URL(page.url());
  const dataPayload = await (await page.request.get(`${url.pathname}.data${url.search}`)).text();
  const rawPage = await (await page.request.get(`${url.pathname}${url.search}`)).text();
  for (const cpf of cpfs) {
    expect(html).not.toContain(cpf);
    expect(rawPage).not.toContain(cpf);
    expect(dataPayload).not.toContain(cpf);
  }
  expect(dataPayload).toContain("***.");

  // A figure: pt-BR input, checked as typed, confirmed, saved, reloaded, recorded.
  const rowId = String(expectedRows[expectedRows.length - 1]._id);
  const input = figureInput(page, rowId, "vendas_adicionais");
  await input.fill("12,5,0");
  await page.locator(`tr[data-row-id="${rowId}"]`).getByText(hrTexts.invalidNumber).waitFor();
  await input.fill("-3");
  await page.locator(`tr[data-row-id="${rowId}"]`).getByText(hrTexts.negativeNumber).waitFor();
  await input.fill("1.234,5");
  await page.getByText(hrTexts.changedCount(1)).waitFor();
  await page.getByRole("button", { name: hrTexts.save, exact: true }).click();
  const confirm = page.getByRole("dialog", { name: hrTexts.confirmTitle });
  await confirm.getByText(/→ 1\.234,50$/).waitFor();
  await confirm.getByRole("button", { name: messages.confirm }).click();
  await page.getByText(messages.saved).first().waitFor();
  await expect.poll(() => figureInput(page, rowId, "vendas_adicionais").inputValue()).toBe("1.234,50");
  const saved = await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) }));
  expect(saved?.vendas_adicionais).toBe(1234.5);
  const change = await withDb(app, (db) =>
    db.collection(HR_AUX_CHANGES).findOne({ record_id: new ObjectId(rowId), field: "vendas_adicionais" }),
  );
  expect(change).toMatchObject({ new: 1234.5, user: "gold@demo.local" });

  // The comment dialog: live counter, at most 255, Cancel closes, Save sends and reloads.
  const row = page.locator(`tr[data-row-id="${rowId}"]`);
  await row.getByRole("link", { name: hrTexts.editComment }).click();
  const dialog = page.getByRole("dialog", { name: hrTexts.commentTitle });
  const box = dialog.getByLabel(hrTexts.commentLabel);
  await box.fill("Meta batida");
  await dialog.getByText(hrTexts.commentCounter(11, 255)).waitFor();
  await dialog.getByRole("link", { name: hrTexts.cancel }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  expect(new URL(page.url()).searchParams.get("comentario")).toBeNull();

  await row.getByRole("link", { name: hrTexts.editComment }).click();
  await box.fill("x".repeat(300));
  expect((await box.inputValue()).length).toBe(255);
  await dialog.getByText(hrTexts.commentCounter(255, 255)).waitFor();
  const comment = `Loja em reforma. ${"y".repeat(238)}`;
  await box.fill(comment);
  await dialog.getByRole("button", { name: hrTexts.saveComment }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => row.locator(".hr-grid__comment-text").innerText()).toBe(comment);
  // What the user typed in the grid before survives a comment save only if unsaved: here it was saved.
  expect(await figureInput(page, rowId, "vendas_adicionais").inputValue()).toBe("1.234,50");

  // A reversed range is refused with a message, not rows.
  await page.getByLabel(hrTexts.monthFrom, { exact: true }).fill(LAST_MONTH);
  await page.getByLabel(hrTexts.monthTo, { exact: true }).fill(MONTH_BEFORE);
  await page.getByRole("button", { name: hrTexts.applyMonths }).click();
  await page.getByText(hrTexts.monthReversed).waitFor();
  expect(await gridRows(page).count()).toBe(0);
  // The breadcrumb goes back to the picker with the branch still chosen.
  await page.getByRole("link", { name: hrTexts.filtering }).click();
  await page.waitForURL((u) => u.pathname === "/ij/rh");
  expect(await page.getByRole("radio", { name: branch }).isChecked()).toBe(true);
});

test("a reader sees the grid read-only, limited to their branch, and the server refuses their save", async ({
  page,
  app,
}) => {
  const [first, second] = await branchesOf(app);
  await withDb(app, (db) =>
    db.collection("user_permissions").updateOne({ user: "silver@demo.local" }, { $set: { stores: [first] } }),
  );
  await signIn(page, app.baseURL, "silver@demo.local");
  await page.goto("/ij/rh");
  await page.getByText(hrTexts.scopedNote(1)).waitFor();
  expect(await page.getByRole("radio").count()).toBe(1);
  await page.getByRole("radio", { name: first }).check();
  await page.getByRole("button", { name: hrTexts.generateReview }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/ij/rh_edit/"));
  await page.getByText(hrTexts.readOnly).waitFor();
  const inputs = page.locator(".hr-grid input");
  expect(await inputs.count()).toBeGreaterThan(0);
  expect(await page.locator(".hr-grid input:not([disabled])").count()).toBe(0);
  expect(await page.getByRole("button", { name: hrTexts.save, exact: true }).count()).toBe(0);
  expect(await page.getByRole("link", { name: hrTexts.editComment }).count()).toBe(0);

  // A save forged from the reader's session: 403, nothing changed.
  const rowId = (await gridRows(page).first().getAttribute("data-row-id"))!;
  const before = await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) }));
  const url = new URL(page.url());
  const forged = await page.request.post(`${url.pathname}${url.search}`, {
    form: { intent: "save", confirmed: "1", [`vendas_adicionais.${rowId}`]: "1,00" },
    headers: { Origin: new URL(app.baseURL).origin },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  const comment = await page.request.post(`${url.pathname}${url.search}`, {
    form: { intent: "comment", id: rowId, comentario: "forjado" },
    headers: { Origin: new URL(app.baseURL).origin },
    maxRedirects: 0,
  });
  expect(comment.status()).toBe(403);
  expect(await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) }))).toEqual(before);

  // The other branch answers like one that does not exist.
  const other = await page.goto(`/ij/rh_edit/${encodeURIComponent(second)}`);
  expect(other?.status()).toBe(404);
  await page.getByText(hrTexts.branchNotFound(second)).waitFor();
});

test("without JavaScript an editor filters branches, saves a figure through the confirmation and edits a comment", async ({
  app,
  browser,
}) => {
  const [branch] = await branchesOf(app);
  await withoutJavaScript(browser, app, async (page) => {
    await signIn(page, app.baseURL, "sysadmin@demo.local");
    await page.goto("/ij/rh");
    await page.getByLabel(hrTexts.branchSearchLabel).fill("paulista");
    await page.getByRole("button", { name: hrTexts.branchFilter }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === "paulista");
    await page.getByRole("radio", { name: branch }).check();
    await page.getByRole("button", { name: hrTexts.generateReview }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/ij/rh_edit/"));
    expect(new URL(page.url()).searchParams.get("mes_inicio")).toBe(LAST_MONTH);
    await page
      .getByText(`${monthLabel(LAST)}`, { exact: false })
      .first()
      .waitFor();

    const rowId = (await gridRows(page).first().getAttribute("data-row-id"))!;
    await figureInput(page, rowId, "result_qtde_servico").fill("1.500");
    await page.getByRole("button", { name: hrTexts.save, exact: true }).click();
    const confirm = page.getByRole("dialog", { name: hrTexts.confirmTitle });
    await confirm.getByText(/→ 1\.500$/).waitFor();
    expect(await confirm.locator("li").count()).toBe(1);
    await confirm.getByRole("button", { name: messages.confirm }).click();
    await page.getByText(messages.saved).first().waitFor();
    expect(
      (await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) })))?.result_qtde_servico,
    ).toBe(1500);

    await page.locator(`tr[data-row-id="${rowId}"]`).getByRole("link", { name: hrTexts.editComment }).click();
    const dialog = page.getByRole("dialog", { name: hrTexts.commentTitle });
    await dialog.getByLabel(hrTexts.commentLabel).fill("Sem JavaScript");
    await dialog.getByRole("button", { name: hrTexts.saveComment }).click();
    await page.getByText(messages.saved).first().waitFor();
    expect((await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) })))?.comentario).toBe(
      "Sem JavaScript",
    );
  });
});

test("a save sent again after it succeeded is refused with the conflict message and changes nothing, with and without JavaScript", async ({
  page,
  app,
  browser,
}) => {
  const [branch] = await branchesOf(app);
  const path = `/ij/rh_edit/${encodeURIComponent(branch)}?mes_inicio=${LAST_MONTH}&mes_fim=${LAST_MONTH}`;
  const snapshot = () =>
    withDb(app, async (db) =>
      JSON.stringify([
        await db.collection(HR_AUX).find({ filial_nome: branch }).sort({ _id: 1 }).toArray(),
        await db.collection(HR_AUX_CHANGES).countDocuments(),
      ]),
    );
  const bodies: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/ij/rh_edit/"))
      bodies.push(request.postData() ?? "");
  });
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto(path);
  const rowId = (await gridRows(page).nth(1).getAttribute("data-row-id"))!;
  await figureInput(page, rowId, "vendas_servicos").fill("4.321");
  await page.getByRole("button", { name: hrTexts.save, exact: true }).click();
  await page
    .getByRole("dialog", { name: hrTexts.confirmTitle })
    .getByRole("button", { name: messages.confirm })
    .click();
  await page.getByText(messages.saved).first().waitFor();
  expect(
    (await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) })))?.vendas_servicos,
  ).toBe(4321);
  expect(bodies).toHaveLength(1);

  // The same request again (the browser's own single-fetch POST): 409 with the conflict message, nothing written.
  let before = await snapshot();
  const url = new URL(page.url());
  const replayed = await page.evaluate(
    async ([target, body]) => {
      const response = await fetch(target, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
      return { status: response.status, text: await response.text() };
    },
    [`${url.pathname}.data${url.search}`, bodies[0]] as const,
  );
  expect(replayed.status).toBe(409);
  expect(replayed.text).toContain(hrTexts.conflict(1));
  expect(await snapshot()).toBe(before);

  // Without JavaScript: the confirmation's form, sent again after it saved.
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "gold@demo.local");
    await plain.goto(path);
    await figureInput(plain, rowId, "dias_media").fill("7,5");
    await plain.getByRole("button", { name: hrTexts.save, exact: true }).click();
    const confirm = plain.getByRole("dialog", { name: hrTexts.confirmTitle });
    await confirm.getByText(/→ 7,5$/).waitFor();
    const fields = await confirm
      .locator("form input[type=hidden]")
      .evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value]));
    await confirm.getByRole("button", { name: messages.confirm }).click();
    await plain.getByText(messages.saved).first().waitFor();
    expect((await withDb(app, (db) => db.collection(HR_AUX).findOne({ _id: new ObjectId(rowId) })))?.dias_media).toBe(
      7.5,
    );
    before = await snapshot();
    const again = await plain.request.post(path, {
      form: Object.fromEntries(fields),
      headers: { Origin: app.baseURL },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain(hrTexts.conflict(1));
    expect(await snapshot()).toBe(before);
  });
});

test("at 1366 px the people of the branch sit below the grid, and every column scrolls into view, uncovered", async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app.baseURL, "gold@demo.local");
  const latest = await withDb(app, (db) =>
    db
      .collection(HR_AUX)
      .find({}, { projection: { filial_nome: 1, mes_apur: 1 } })
      .sort({ mes_apur: -1 })
      .limit(1)
      .next(),
  );
  const month = monthKey(monthOfDate(latest!.mes_apur as Date));
  await page.goto(
    `/ij/rh_edit/${encodeURIComponent(String(latest!.filial_nome))}?mes_inicio=${month}&mes_fim=${month}`,
  );
  const grid = page.locator(".hr-grid");
  await grid.waitFor();
  const [gridBox, peopleBox, layoutBox] = await Promise.all([
    grid.boundingBox(),
    page.locator(".hr-people").boundingBox(),
    page.locator(".hr-layout").boundingBox(),
  ]);
  // The grid takes the layout's whole width; the panel is below it, never beside it.
  expect(gridBox!.width).toBeGreaterThanOrEqual(layoutBox!.width - 2);
  expect(peopleBox!.y).toBeGreaterThanOrEqual(gridBox!.y + gridBox!.height - 1);
  const headers = grid.locator("thead th");
  const count = await headers.count();
  expect(count).toBe(11);
  for (let i = 0; i < count; i++) {
    const seen = await headers.nth(i).evaluate((el) => {
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      const box = el.getBoundingClientRect();
      const area = el.closest(".hr-grid")!.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return {
        inside: box.left >= area.left - 1 && box.right <= area.right + 1,
        uncovered: !!hit && (hit === el || el.contains(hit)),
        text: el.textContent,
      };
    });
    expect(seen, `column ${seen.text}`).toMatchObject({ inside: true, uncovered: true });
  }
});
