import crypto from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ObjectId } from "mongodb";
import type { Page } from "playwright-core";
import { jobTexts, messages } from "~/messages";
import { noticeDeliveryTexts } from "~/platform/notices/texts";
import { signDownloadToken } from "~/services/storage/signed-link.server";
import { withDb } from "./database";
import { expect, openCheckedPage, test, withoutJavaScript } from "./fixtures";
import type { RunningApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * The job lists and the file repository as a user meets them: times in pt-BR on the 24-hour clock
 * in the portal's zone whatever the browser's, and a download that fails after its link was issued ending on
 * the page it came from with the spec's alert, with and without JavaScript.
 */

/** 2030-05-02 00:13:27 UTC: 1 May 2030, 21:13:27 in São Paulo, 09:13 on 2 May in Tokyo. */
const LATE_EVENING = new Date(Date.UTC(2030, 4, 2, 0, 13, 27));

/** A file record (the newest of all, so on page 1) whose bytes are in the local store. */
async function storedFile(
  app: RunningApp,
  name: string,
  statusChangeDate = LATE_EVENING,
): Promise<{ id: ObjectId; key: string; diskPath: string }> {
  const key = `2030/05/${crypto.randomUUID()}.csv`;
  const diskPath = path.join(app.dataDir, "uploads", key);
  mkdirSync(path.dirname(diskPath), { recursive: true });
  writeFileSync(diskPath, "a;b\n1;2\n");
  const { insertedId } = await withDb(app, (db) =>
    db.collection("files").insertOne({
      originalName: name,
      originalFile: key,
      bucket: "local",
      user: "bronze@demo.local",
      clientName: "journey",
      statusChangeDate,
      createdAt: statusChangeDate,
      status: 0,
      progress: 100,
      message: "5 linhas OK, 0 NOK",
      agent: "worker@e2e",
      leaseUntil: null,
      attempts: 1,
    }),
  );
  return { id: insertedId, key, diskPath };
}

const rowOf = (page: Page, name: string) =>
  page.locator("main table tbody tr").filter({ has: page.locator(`text=${name}`) });

test("times are pt-BR on the 24-hour clock in the portal's zone, whatever the browser's zone, on both lists", async ({
  app,
  browser,
}) => {
  await storedFile(app, "horario_e2e.csv");
  // A browser in Tokyo: a page that formatted in the browser's zone would show 09:13 on 2 May (and mismatch the server's HTML).
  const checked = await openCheckedPage(browser, app, { timezoneId: "Asia/Tokyo" });
  const { page } = checked;
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/jobs/executados");
  const job = rowOf(page, "horario_e2e.csv");
  expect(await job.locator(".job-date").innerText()).toBe("01 mai 30 21:13:27");
  await page.goto("/repo/format");
  const file = rowOf(page, "horario_e2e.csv");
  expect(await file.locator(".job-date").innerText()).toBe("1 mai 2030 21:13");
  // No 12-hour clock, no English month anywhere on the page's dates.
  for (const text of await page.locator("main .job-date").allInnerTexts())
    expect(text).toMatch(/^\d{1,2} (jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez) \d{4} \d{1,2}:\d{2}$/);
  await checked.close();
});

test("a download whose file is gone when the link is followed comes back to the list with the alert, with JavaScript", async ({
  app,
  page,
}) => {
  const { diskPath } = await storedFile(app, "some_depois_e2e.csv");
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/repo/format?pageSize=40");
  // The link is issued (the file is there), then the file disappears before the browser follows it.
  await page.route("**/download/**", async (route) => {
    rmSync(diskPath, { force: true });
    await route.continue();
  });
  await rowOf(page, "some_depois_e2e.csv")
    .getByRole("button", { name: jobTexts.downloadOf("some_depois_e2e.csv") })
    .click();
  await page.getByRole("alert").filter({ hasText: messages.downloadFailed }).waitFor();
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/repo/format?pageSize=40");
  await page.getByRole("heading", { level: 1, name: jobTexts.filesTitle }).waitFor();
  expect(await page.locator("main table tbody tr").count()).toBe(40);
  await page.unroute("**/download/**");

  // A link that expired before it was followed (5 minutes): the same.
  const expired = signDownloadToken(
    {
      bucket: "local",
      key: "2030/05/00000000-0000-0000-0000-000000000000.csv",
      filename: "x.csv",
      expiresAt: Date.now() - 1000,
    },
    app.sessionSecret,
  );
  await page.goto("/repo/format?page=2");
  expect(await page.getByRole("alert").count()).toBe(0);
  await page.evaluate((href) => window.location.assign(href), `/download/${expired}`);
  await page.getByRole("alert").filter({ hasText: messages.downloadFailed }).waitFor();
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/repo/format?page=2");
});

test("without JavaScript the same failure comes back to the list with the alert", async ({ app, browser, page }) => {
  const { diskPath } = await storedFile(app, "sem_js_some_e2e.csv");
  await signIn(page, app.baseURL, "gold@demo.local");
  const cookies = await page.context().cookies();
  await withoutJavaScript(browser, app, async (plain) => {
    await plain.context().addCookies(cookies);
    await plain.goto("/repo/format?pageSize=40");
    // The form post issues the link (a redirect the browser follows at once); the file disappears in between.
    await plain.route("**/repo/format?*", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      expect(response.headers().location).toMatch(/^\/download\//);
      rmSync(diskPath, { force: true });
      await route.fulfill({ response });
    });
    await rowOf(plain, "sem_js_some_e2e.csv")
      .getByRole("button", { name: jobTexts.downloadOf("sem_js_some_e2e.csv") })
      .click();
    await plain.getByRole("alert").filter({ hasText: messages.downloadFailed }).waitFor();
    expect(new URL(plain.url()).pathname + new URL(plain.url()).search).toBe("/repo/format?pageSize=40");
    expect(await plain.locator("main table tbody tr").count()).toBe(40);
  });
});

test("a refused job says so in words, and on a phone (390 px) the file name comes first with its state in view", async ({
  app,
  browser,
}) => {
  const { id } = await storedFile(app, "recusado_fone_e2e.csv", new Date(Date.UTC(2030, 4, 3)));
  await withDb(app, (db) =>
    db.collection("files").updateOne(
      { _id: id },
      {
        $set: {
          status: 2,
          retryable: false,
          message: "Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo.",
        },
      },
    ),
  );
  const checked = await openCheckedPage(browser, app, { viewport: { width: 390, height: 844 } });
  const { page } = checked;
  await signIn(page, app.baseURL, "gold@demo.local");
  await page.goto("/jobs/executados");
  const row = rowOf(page, "recusado_fone_e2e.csv");
  await row.waitFor();
  // The state in words, not "Completed" beside a red icon; no Retry for a refusal.
  expect(await row.locator(".job-state").innerText()).toBe(jobTexts.stateRefused);
  expect(await row.getByRole("button", { name: new RegExp(jobTexts.retry) }).count()).toBe(0);
  // The columns: the file name first, its state next.
  expect((await page.locator("main table thead th").allInnerTexts()).slice(0, 2)).toEqual([
    jobTexts.columnName,
    jobTexts.columnState,
  ]);
  const cells = row.locator("td");
  const name = await cells.nth(0).boundingBox();
  const state = await cells.nth(1).boundingBox();
  const box = await page.locator("main .data-table__scroll").first().boundingBox();
  expect(await cells.nth(0).innerText()).toContain("recusado_fone_");
  // Both on the phone's first screen, without scrolling sideways.
  expect(name!.x).toBeLessThanOrEqual(box!.x + 2);
  expect(state!.x + state!.width).toBeLessThanOrEqual(390);
  // Scrolled sideways to the message and the agent, the file name stays at the left edge.
  await page
    .locator("main .data-table__scroll")
    .first()
    .evaluate((element) => (element.scrollLeft = 500));
  const scrolled = await cells.nth(0).boundingBox();
  expect(Math.abs(scrolled!.x - box!.x)).toBeLessThanOrEqual(2);
  expect(
    await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest("td")?.textContent ?? "", {
      x: scrolled!.x + 8,
      y: scrolled!.y + scrolled!.height / 2,
    }),
  ).toContain("recusado_fone_");
  await checked.close();
});

test("jobs that tell: Tentar novamente todos confirms the count and shows the batch; its end is one summary, in the portal and by e-mail, listing each file", async ({
  app,
  browser,
}) => {
  // Two of Bruna's jobs that failed in a way a retry may get past; their bytes are a layout no template knows.
  const names = ["lote_falhou_1.csv", "lote_falhou_2.csv"];
  for (const name of names) {
    const { id } = await storedFile(app, name, new Date());
    await withDb(app, (db) =>
      db
        .collection("files")
        .updateOne(
          { _id: id },
          { $set: { status: 3, retryable: true, message: "Processamento interrompido: o worker parou" } },
        ),
    );
  }
  const { page, close } = await openCheckedPage(browser, app);
  try {
    await signIn(page, app.baseURL, "bronze@demo.local");
    await page.goto("/captura/processando");
    await page.getByRole("button", { name: jobTexts.retryAll }).click();
    const dialog = page.getByRole("dialog");
    const question = (await dialog.getByRole("heading").first().innerText()).trim();
    const count = Number(/Tentar novamente (\d+) trabalhos? com falha\?/.exec(question)?.[1]);
    expect(count).toBeGreaterThanOrEqual(2);
    await dialog.getByRole("button", { name: jobTexts.retryAllConfirm }).click();
    await page.waitForURL((url) => url.searchParams.has("lote"));
    // The list follows the batch until every job of it has ended again (refused: no template knows the layout).
    await page
      .getByText(new RegExp(`Tentar novamente todos: ${count} de ${count} concluídos`))
      .waitFor({ timeout: 60_000 });

    // The batch's end is one summary, in the portal and by e-mail through the outbox, listing each file and how it
    // ended; no file of the batch has a notice or an e-mail of its own.
    const title = noticeDeliveryTexts.retryBatchTitle(count);
    await page.goto("/user/notices");
    await page.getByText(title).first().waitFor();
    const mails = () =>
      withDb(app, (db) =>
        db
          .collection<{ subject: string; text: string }>("mail_outbox")
          .find({ to: "bronze@demo.local", subject: { $regex: "lote_falhou_|^Tentar novamente todos" } })
          .toArray(),
      );
    await expect
      .poll(async () => (await mails()).map((m) => m.subject), { timeout: 60_000, interval: 1_000 })
      .toEqual([title]);
    const [summary] = await mails();
    for (const name of names) expect(summary.text).toContain(`- ${name}: `);
  } finally {
    await close();
  }
});
