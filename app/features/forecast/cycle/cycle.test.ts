import type { AddressInfo } from "node:net";
import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { FORECAST_HEADER, forecastRow, grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { uploadAndProcess, workbookPost } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { AUDIT_LOG, forgetAuditHeads } from "~/models/audit.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import {
  FORECAST_CYCLE,
  FORECAST_CYCLE_EVENTS,
  FORECAST_PREPARERS,
  FORECAST_REMINDERS,
} from "~/models/forecast-cycle.server";
import { NOTICE_MAIL, NOTICES } from "~/models/notices.server";
import { FILE_STATUS_REJECTED } from "~/platform/import/datasets/ingest.server";
import { deliverPendingMail } from "~/platform/notices/mail-dispatch.server";
import { loader as boardLoader } from "~/routes/ij.forecast_status";
import { loader as boardExcelLoader } from "~/routes/ij.forecast_status.excel";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import {
  action as excelAction,
  loader as excelLoader,
} from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel";
import { monthKey, monthLabel } from "~/shared/months";
import { runInRequestScope } from "~/shared/request-scope.server";
import { ACCOUNTS, assignPreparer, dumpForecast, insertScenario } from "../fixtures";
import { changedCells, initialValues } from "../forecast-grid-rules";
import { planPaste, readPastedBlock } from "../grid-paste";
import { applyPercent } from "../mass-change";
import { parseScenario, scenarioCalendar } from "../release-points";
import { sendForecastReminders } from "./reminder.server";
import { cycleAnswerTexts, cycleLockTexts, cycleNoticeTexts } from "./server-texts";
import { cycleTexts, STATE_LABELS } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The forecast cycle as its users meet it, with the clock pinned inside RF2 2027's edit month (Feb 2027): a preparer
 * submits, a reviewer returns or approves, an administrator reopens; every write path of a submitted cost centre is
 * refused with the same message and changes nothing; notices go to the right people.
 */

const testDb = useTestDatabase();
useTempDataDir();
const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";
const RF = "RF2 2027";
const calendar = scenarioCalendar(parseScenario(RF)!);
const EDIT_MONTH = monthKey(calendar.editMonth);
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };
const OTHER_GOLD = { email: "gold2@example.com", name: "Outro Gold", type: "USER GOLD" as const };
const REVIEWER = { email: "admin@example.com", name: "Renata Revisora", type: "SYSTEM ADMIN" as const };
const ADMIN_PREPARER = { email: "admin2@example.com", name: "Admin Preparador", type: "SYSTEM ADMIN" as const };

function as(user: { email: string; name: string; type: "USER GOLD" | "SYSTEM ADMIN" | "USER SILVER" }) {
  currentUser.email = user.email;
  currentUser.name = user.name;
  currentUser.type = user.type;
}

function setToday(day: string) {
  process.env.PORTAL_TODAY = day;
  resetConfigForTests();
}

beforeAll(() => setToday("2027-02-15"));
afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(async () => {
  setToday("2027-02-15");
  db = await testDb.db();
  for (const name of [
    FORECAST,
    FORECAST_HISTORY,
    FORECAST_CYCLE,
    FORECAST_CYCLE_EVENTS,
    FORECAST_PREPARERS,
    FORECAST_REMINDERS,
    NOTICES,
    NOTICE_MAIL,
    AUDIT_LOG,
  ])
    await db.collection(name).deleteMany({});
  forgetAuditHeads();
  await insertScenario(db, RF, MARKETING);
  await insertScenario(db, RF, RETAIL);
  for (const user of [PREPARER, OTHER_GOLD, REVIEWER, ADMIN_PREPARER]) {
    await grantPermission(db, user.email, user.type);
    await db.collection("user_permissions").updateOne({ user: user.email }, { $set: { name: user.name } });
  }
  await db.collection(FORECAST_PREPARERS).insertMany([
    { cost_center_concat: MARKETING, user: PREPARER.email, assigned_at: new Date(), assigned_by: "test" },
    { cost_center_concat: RETAIL, user: ADMIN_PREPARER.email, assigned_at: new Date(), assigned_by: "test" },
  ]);
  as(PREPARER);
});

const url = (path: string) => `http://localhost${path}`;
const args = (request: Request, costCenter = MARKETING) => ({
  request,
  params: { rf: RF, cost_center_concat: costCenter },
  context: {} as never,
});

async function page(costCenter = MARKETING, query = "") {
  const result = await loader(args(new Request(url(`${reviewPath(RF, costCenter)}${query}`)), costCenter));
  return dataAnswer<Extract<BodyOf<typeof loader>, { found: true }>>(result).body;
}

/**
 * Sends a cycle action's form as the current user (a submission confirmed, as its dialog sends it): the redirect's
 * location, or the refusal's status and message.
 */
async function cycle(intent: string, comment = "", costCenter = MARKETING, confirm = true) {
  const request = new Request(url(reviewPath(RF, costCenter)), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" },
    body: new URLSearchParams({ intent, comment, ...(confirm ? { confirm: "1" } : {}) }).toString(),
  });
  try {
    const result = await action(args(request, costCenter));
    if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
    const { status, body } = dataAnswer<{ cycleError?: string; cycleConfirm?: { count: number; question: string } }>(
      result,
    );
    return body.cycleConfirm ? { status, confirm: body.cycleConfirm } : { status, message: body.cycleError };
  } catch (error) {
    if (error instanceof Response) return { status: error.status };
    throw error;
  }
}

async function save(changes: unknown[], costCenter = MARKETING) {
  const request = new Request(url(reviewPath(RF, costCenter)), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost" },
    body: JSON.stringify({ intent: "save", changes }),
  });
  return dataAnswer(await action(args(request, costCenter)));
}

const frozenMessage = (state: "submitted" | "approved", costCenter = MARKETING) =>
  cycleTexts.frozen(costCenter, RF, STATE_LABELS[state]);

async function noticesTo(email: string) {
  return db.collection(NOTICES).find({ to: email }).sort({ created_at: 1 }).toArray();
}

describe("submitting", () => {
  it("starts Em preparação; only an assigned preparer may submit, and the submission freezes the grid and tells the reviewers", async () => {
    const before = await page();
    expect(before.cycle.shown.label).toBe("Em preparação");
    expect(before.cycle.actions).toEqual(["submit"]);
    expect(before.grid.editable).toBe(true);

    // Another gold user does not even read it (the forecast's read rule); a reviewer reads it but does not prepare it.
    as(OTHER_GOLD);
    expect(await cycle("submit")).toEqual({ status: 403 });
    as(REVIEWER);
    expect((await page()).cycle.actions).toEqual([]);
    expect(await cycle("submit")).toEqual({ status: 403, message: cycleAnswerTexts.refused.notPreparer });

    as(PREPARER);
    const sent = await cycle("submit", "Pronto para revisão");
    expect(sent).toEqual({ status: 302, location: `${reviewPath(RF, MARKETING)}?ciclo=submit` });
    const after = await page(MARKETING, "?ciclo=submit");
    expect(after.cycleDone).toBe(cycleAnswerTexts.done.submit);
    expect(after.cycle.shown.label).toBe("Enviado");
    expect(after.grid.editable).toBe(false);
    expect(after.excel.canImport).toBe(false);
    expect(after.cycle.timeline).toEqual([
      expect.objectContaining({ from: "Em preparação", to: "Enviado", comment: "Pronto para revisão" }),
    ]);
    expect(after.cycle.timeline[0].who).toContain(PREPARER.email);

    // The reviewers (SYSTEM ADMIN by default) hear of it; the preparer of another cost centre is a reviewer too.
    const notices = await noticesTo(REVIEWER.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: "forecast.submitted", link: reviewPath(RF, MARKETING) });
    // The preparer's comment travels with the notice (and its e-mail).
    expect(notices[0].body).toContain("Comentário: Pronto para revisão");
    expect(await noticesTo(PREPARER.email)).toHaveLength(0);
    expect(await db.collection(NOTICE_MAIL).countDocuments({ to: REVIEWER.email })).toBe(1);

    // Sending it again is refused with the state it found.
    expect(await cycle("submit")).toEqual({
      status: 409,
      message: cycleAnswerTexts.refused.wrongState("enviar", "Enviado"),
    });
  });

  it("asks first, naming the cells changed since the last submission; nothing changes until it is confirmed", async () => {
    const edit = async (value: number, account = 0) => {
      const grid = (await page()).grid;
      const original = initialValues(grid.groups);
      const edited = original.map((row) => [...row]);
      edited[account][grid.months.indexOf(EDIT_MONTH)] = value;
      expect((await save(changedCells(grid.groups, grid.months, original, edited))).body).toMatchObject({ ok: true });
    };
    await edit(101);
    await edit(102);
    await edit(103, 1);
    // Two cells, one of them changed twice.
    expect((await page()).cycle.changedSinceSubmission).toBe(2);
    const asked = await cycle("submit", "Pronto", MARKETING, false);
    expect(asked).toEqual({
      status: 200,
      confirm: { count: 2, question: cycleTexts.submitQuestion(2), comment: "Pronto" },
    });
    expect(cycleTexts.submitQuestion(2)).toBe(
      "Enviar para revisão? 2 células mudaram desde o último envio. Depois de enviado, o forecast só muda se você retirar o envio ou se um revisor devolver.",
    );
    expect((await page()).cycle.shown.label).toBe("Em preparação");
    expect(await db.collection(FORECAST_CYCLE_EVENTS).countDocuments({})).toBe(0);
    expect((await cycle("submit", "Pronto")).status).toBe(302);

    // Withdrawn and changed once more: one cell since that submission.
    expect((await cycle("withdraw")).status).toBe(302);
    await edit(104);
    expect((await page()).cycle.changedSinceSubmission).toBe(1);
    expect(cycleTexts.submitQuestion(1)).toContain("1 célula mudou desde o último envio");
  });

  it("is refused outside the edit month, where what was not submitted shows as Não enviado", async () => {
    setToday("2027-03-02");
    const closed = await page();
    expect(closed.cycle.shown.label).toBe("Não enviado");
    expect(await cycle("submit")).toEqual({
      status: 403,
      message: cycleAnswerTexts.refused.notInEditMonth(monthLabel(calendar.editMonth)),
    });
  });
});

describe("withdrawing a submission", () => {
  it("a preparer takes back a submission no reviewer has decided on: on the timeline, the reviewers told, the grid open", async () => {
    expect((await cycle("submit", "Pronto")).status).toBe(302);
    as(OTHER_GOLD);
    expect(await cycle("withdraw")).toEqual({ status: 403 });
    as(REVIEWER);
    expect(await cycle("withdraw")).toEqual({ status: 403, message: cycleAnswerTexts.refused.withdrawNotPreparer });
    as(PREPARER);
    expect((await page()).cycle.actions).toEqual(["withdraw"]);
    expect(await cycle("withdraw", "Faltou uma linha")).toEqual({
      status: 302,
      location: `${reviewPath(RF, MARKETING)}?ciclo=withdraw`,
    });
    const after = await page(MARKETING, "?ciclo=withdraw");
    expect(after.cycleDone).toBe(cycleAnswerTexts.done.withdraw);
    expect(after.cycle.shown.label).toBe("Em preparação");
    expect(after.grid.editable).toBe(true);
    expect(after.cycle.timeline.at(-1)).toMatchObject({
      from: "Enviado",
      to: "Em preparação",
      action: cycleTexts.actionVerbs.withdraw,
      comment: "Faltou uma linha",
    });
    const told = (await noticesTo(REVIEWER.email)).map((n) => n.kind);
    expect(told).toEqual(["forecast.submitted", "forecast.withdrawn"]);
    expect((await noticesTo(REVIEWER.email)).at(-1)?.body).toContain("Comentário: Faltou uma linha");
  });

  it("is refused once a reviewer has decided, and outside the edit month", async () => {
    expect((await cycle("submit")).status).toBe(302);
    as(REVIEWER);
    expect((await cycle("approve")).status).toBe(302);
    as(PREPARER);
    expect(await cycle("withdraw")).toEqual({
      status: 409,
      message: cycleAnswerTexts.refused.wrongState("retirar o envio", "Aprovado"),
    });
    as(ADMIN_PREPARER);
    expect((await cycle("submit", "", RETAIL)).status).toBe(302);
    setToday("2027-03-02");
    expect(await cycle("withdraw", "", RETAIL)).toEqual({
      status: 403,
      message: cycleAnswerTexts.refused.withdrawNotInEditMonth(monthLabel(calendar.editMonth)),
    });
  });
});

describe("every write path of a submitted cost centre refuses, with the same message, and changes nothing", () => {
  const month = (offset: number) => monthKey(calendar.editMonth + offset);
  const stored = async (account: string, key: string) =>
    (await db.collection(FORECAST).findOne({
      rf: RF,
      cost_center_concat: MARKETING,
      account_concat: account,
      data_ref: new Date(`${key}-01T00:00:00Z`),
    }))!;

  beforeEach(async () => {
    expect((await cycle("submit")).status).toBe(302);
  });

  it("the grid save, a paste, a mass change and an undo (each sent as the grid sends it)", async () => {
    const grid = (await page()).grid;
    const original = initialValues(grid.groups);
    const before = await dumpForecast(db);
    const forecastIndex = grid.months.indexOf(EDIT_MONTH);

    // A typed cell.
    const typed = original.map((row) => [...row]);
    typed[0][forecastIndex] = 123.45;
    // A paste of two cells from Excel, laid from the edit month's cell of the first account.
    const pasted = original.map((row) => [...row]);
    const block = readPastedBlock("1.000,00\t2.000,00");
    if (!block.ok) throw new Error("paste");
    const plan = planPaste(
      block.values,
      { row: 0, column: forecastIndex },
      { rows: 1, columns: grid.months.length },
      () => true,
    );
    for (const target of plan.targets) pasted[target.row][target.column] = target.value;
    // A mass change of +10% on the column.
    const massed = original.map((row) =>
      row.map((v, i) => (i === forecastIndex && v ? applyPercent(v, 10, "increase") : v)),
    );
    // An undo: the stored value put back over a value saved by the preparer in between is still a change of the cell.
    const stamp = grid.groups[0].accounts[0].stamps[forecastIndex];
    const undone = [
      { account: ACCOUNTS[0].account, month: EDIT_MONTH, old: 999, value: original[0][forecastIndex], at: stamp },
    ];

    const changed = (values: (number | null)[][]) => changedCells(grid.groups, grid.months, original, values);
    for (const changes of [changed(typed), changed(pasted), changed(massed), undone]) {
      expect(changes.length).toBeGreaterThan(0);
      const reply = await save(changes);
      expect(reply).toEqual({ status: 409, body: { ok: false, message: frozenMessage("submitted") } });
    }
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("the Excel round trip: its changed rows are reported as refused", async () => {
    const excelPath = `${reviewPath(RF, MARKETING)}/excel`;
    const response = (await excelLoader(args(new Request(url(excelPath))))) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    let column = -1;
    sheet.getRow(1).eachCell((cell, col) => {
      if (cell.value === monthLabel(calendar.editMonth)) column = col;
    });
    sheet.getRow(3).getCell(column).value = 4321; // row 2 marks the months Real or Forecast
    const before = await dumpForecast(db);
    const sent = await responseOf(excelAction(args(await workbookPost(workbook, url(excelPath), "forecast.xlsx"))));
    const location = sent.headers.get("Location")!;
    const report = (await page(MARKETING, location.slice(location.indexOf("?")))).excel.report!;
    expect(report.summary).toBe("0 alterados, 0 conflitos, 1 recusado");
    expect(decodeURIComponent(report.href!)).toContain(frozenMessage("submitted"));
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("the forecast template upload: the file is refused whole, naming the cost centres", async () => {
    await grantPermission(db, PREPARER.email, "USER GOLD");
    // A preparer of both (an upload writes only the cost centres its uploader prepares): only the cycle refuses.
    await assignPreparer(db, PREPARER.email, RETAIL);
    const before = await dumpForecast(db);
    const csv = [
      FORECAST_HEADER.join(";"),
      forecastRow({
        rf: RF,
        cost_center_concat: RETAIL,
        cost_center: "CC1002",
        data_ref: month(0),
        forecast: "5,00",
      }).join(";"),
      forecastRow({ rf: RF, cost_center_concat: MARKETING, data_ref: month(0), forecast: "6,00" }).join(";"),
    ].join("\n");
    const { outcome, file } = await uploadAndProcess("forecast.csv", csv, { user: PREPARER.email });
    expect(outcome).toMatchObject({ kind: "done", status: FILE_STATUS_REJECTED });
    expect(file?.message).toBe(cycleLockTexts.lockedUpload([{ costCenter: MARKETING, rf: RF, reason: "Enviado" }]));
    expect(await dumpForecast(db)).toEqual(before);
    // The cost centre still in preparation takes the same kind of file.
    const open = [
      FORECAST_HEADER.join(";"),
      forecastRow({
        rf: RF,
        cost_center_concat: RETAIL,
        cost_center: "CC1002",
        data_ref: month(0),
        forecast: "5,00",
      }).join(";"),
    ].join("\n");
    expect((await uploadAndProcess("retail.csv", open, { user: PREPARER.email })).outcome).toMatchObject({ status: 0 });
    expect((await stored(ACCOUNTS[0].account, month(0))).forecast).not.toBe(5);
  });
});

describe("reviewing", () => {
  beforeEach(async () => {
    expect((await cycle("submit")).status).toBe(302);
  });

  it("a reviewer returns with a mandatory comment; the preparer is told, corrects, submits again; the reviewer approves", async () => {
    as(OTHER_GOLD);
    expect(await cycle("approve")).toEqual({ status: 403 });
    as(PREPARER);
    expect(await cycle("approve")).toEqual({ status: 403, message: cycleAnswerTexts.refused.notReviewer });

    as(REVIEWER);
    expect((await page()).cycle.actions).toEqual(["approve", "return"]);
    expect(await cycle("return", "   ")).toEqual({ status: 400, message: cycleTexts.commentRequired });
    expect(await cycle("return", "Revise a linha de salários")).toMatchObject({ status: 302 });
    const returned = await page();
    expect(returned.cycle.shown.label).toBe("Devolvido");
    expect(returned.grid.editable).toBe(true);
    const told = await noticesTo(PREPARER.email);
    expect(told.map((n) => n.kind)).toEqual(["forecast.returned"]);
    expect(told[0].body).toContain("Revise a linha de salários");

    as(PREPARER);
    const grid = (await page()).grid;
    const original = initialValues(grid.groups);
    const edited = original.map((row) => [...row]);
    edited[0][grid.months.indexOf(EDIT_MONTH)] = 777;
    expect((await save(changedCells(grid.groups, grid.months, original, edited))).body).toEqual({ ok: true, saved: 1 });
    expect((await cycle("submit", "Salários corrigidos")).status).toBe(302);
    // A submission after a return says so: the reviewer knows it is the corrected one.
    const resent = (await noticesTo(REVIEWER.email)).filter((n) => n.kind === "forecast.submitted").at(-1)!;
    expect(resent.title).toBe(cycleNoticeTexts.resubmittedTitle(MARKETING, RF));
    expect(resent.body).toContain("depois da devolução");
    expect(resent.body).toContain("Comentário: Salários corrigidos");
    expect(await db.collection(NOTICE_MAIL).findOne({ to: REVIEWER.email, title: resent.title })).not.toBeNull();

    as(REVIEWER);
    expect((await cycle("approve", "Conferido com o realizado")).status).toBe(302);
    const approved = await page();
    expect(approved.cycle.shown.label).toBe("Aprovado");
    expect(approved.cycle.actions).toEqual(["reopen"]);
    expect(approved.cycle.timeline.map((e: { to: string }) => e.to)).toEqual([
      "Enviado",
      "Devolvido",
      "Enviado",
      "Aprovado",
    ]);
    expect((await noticesTo(PREPARER.email)).map((n) => n.kind)).toEqual(["forecast.returned", "forecast.approved"]);
    expect((await noticesTo(PREPARER.email)).at(-1)!.body).toContain("Comentário: Conferido com o realizado");
    // Approved: even an administrator's save is refused.
    const after = await page();
    const values = initialValues(after.grid.groups);
    const changed = values.map((row) => [...row]);
    changed[1][after.grid.months.indexOf(EDIT_MONTH)] = 1;
    expect((await save(changedCells(after.grid.groups, after.grid.months, values, changed))).body).toEqual({
      ok: false,
      message: frozenMessage("approved"),
    });
  });

  it("a reviewer never decides on a cost centre they prepare", async () => {
    as(ADMIN_PREPARER);
    expect((await cycle("submit", "", RETAIL)).status).toBe(302);
    // As its preparer they may only take the submission back, never decide on it.
    expect((await page(RETAIL)).cycle.actions).toEqual(["withdraw"]);
    expect(await cycle("approve", "", RETAIL)).toEqual({
      status: 403,
      message: cycleAnswerTexts.refused.ownCostCenter,
    });
    // Nor is the submission sent to them.
    expect((await noticesTo(ADMIN_PREPARER.email)).filter((n) => n.kind === "forecast.submitted")).toEqual([
      expect.objectContaining({ link: reviewPath(RF, MARKETING) }),
    ]);
  });

  it("two reviewers deciding at once: one decision is kept, the other is refused with the state it found", async () => {
    as(REVIEWER);
    const answers = await Promise.all([cycle("approve"), cycle("return", "Não")]);
    expect(answers.map((a) => a.status).sort()).toEqual([302, 409]);
    expect(await db.collection(FORECAST_CYCLE_EVENTS).countDocuments({ cost_center_concat: MARKETING })).toBe(2);
  });
});

describe("reopening", () => {
  it("only an administrator, only with a written reason; it is recorded and both preparer and reviewers are told", async () => {
    expect((await cycle("submit")).status).toBe(302);
    as(REVIEWER);
    expect((await cycle("approve")).status).toBe(302);

    as(PREPARER);
    expect(await cycle("reopen", "Quero mudar")).toEqual({ status: 403, message: cycleAnswerTexts.refused.notAdmin });
    as(ADMIN_PREPARER);
    expect(await cycle("reopen", "")).toEqual({ status: 400, message: cycleTexts.commentRequired });
    expect((await cycle("reopen", "Nova premissa de inflação")).status).toBe(302);
    const reopened = await page();
    expect(reopened.cycle.shown.label).toBe("Em preparação");
    expect(reopened.cycle.timeline.at(-1)).toMatchObject({
      from: "Aprovado",
      to: "Em preparação",
      comment: "Nova premissa de inflação",
    });
    expect((await noticesTo(PREPARER.email)).map((n) => n.kind)).toContain("forecast.reopened");
    expect((await noticesTo(REVIEWER.email)).map((n) => n.kind)).toContain("forecast.reopened");

    // Every decision is in the audit trail with its actor, cost centre and outcome; so is the refused reopening.
    const decisions = await db
      .collection(AUDIT_LOG)
      .find({ event: "decision", "object.id": MARKETING }, { sort: { n: 1 } })
      .toArray();
    expect(decisions.map((d) => [d.actor.email, d.actor.type, d.details.action, d.outcome])).toEqual([
      [PREPARER.email, "USER GOLD", "submit", "ok"],
      [REVIEWER.email, "SYSTEM ADMIN", "approve", "ok"],
      [PREPARER.email, "USER GOLD", "reopen", "refused"],
      [ADMIN_PREPARER.email, "SYSTEM ADMIN", "reopen", "ok"],
    ]);
    expect(decisions[3].details).toMatchObject({
      from: "approved",
      to: "preparing",
      comment: "Nova premissa de inflação",
    });
  });
});

describe("notices by e-mail through a real SMTP relay", () => {
  it("the reviewers' notice of a submission reaches the relay (MAIL=smtp)", async () => {
    const received: { to: string[]; data: string }[] = [];
    const relay = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    process.env.MAIL = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${(relay.server.address() as AddressInfo).port}`;
    resetConfigForTests();
    try {
      expect((await cycle("submit", "Pronto")).status).toBe(302);
      // Both SYSTEM ADMIN accounts review Marketing (the second prepares only Retail).
      expect(await deliverPendingMail()).toMatchObject({ sent: 2, failed: 0 });
      expect(received.flatMap((m) => m.to).sort()).toEqual([ADMIN_PREPARER.email, REVIEWER.email].sort());
      // The subject and body are encoded (accents): the message names the cost centre; quoted-printable may wrap lines.
      for (const mail of received) expect(mail.data.replace(/=\r?\n/g, "")).toContain("CC1001");
    } finally {
      delete process.env.MAIL;
      delete process.env.SMTP_URL;
      resetConfigForTests();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});

describe("the daily reminder", () => {
  it("in the last 3 days of the edit month, tells each preparer once a day what is not yet submitted", async () => {
    expect(await sendForecastReminders(new Date(), { year: 2027, month: 2, day: 25 })).toBe(0);
    expect((await cycle("submit", "", MARKETING)).status).toBe(302);
    const day = { year: 2027, month: 2, day: 26 };
    expect(await sendForecastReminders(new Date(), day)).toBe(1);
    expect(await sendForecastReminders(new Date(), day)).toBe(0);
    const notices = (await noticesTo(ADMIN_PREPARER.email)).filter((n) => n.kind === "forecast.reminder");
    expect(notices).toHaveLength(1);
    expect(notices[0].body).toContain(RETAIL);
    expect(notices[0].body).not.toContain(MARKETING);
    expect((await noticesTo(PREPARER.email)).filter((n) => n.kind === "forecast.reminder")).toHaveLength(0);
    expect(await sendForecastReminders(new Date(), { year: 2027, month: 2, day: 28 })).toBe(1);
  });
});

describe("the status board", () => {
  const board = async (query = "") =>
    dataAnswer<BodyOf<typeof boardLoader>>(await boardLoader(args(new Request(url(`/ij/forecast_status${query}`)))))
      .body;

  it("lists each cost centre with state, preparer and days left; counts and % per state; filters by state", async () => {
    expect((await cycle("submit")).status).toBe(302);
    as(REVIEWER);
    const all = (await board(`?rf=${encodeURIComponent(RF)}`)).board;
    expect(all.rf).toBe(RF);
    expect(all.total).toBe(2);
    expect(all.rows.map((r) => [r.cost_center_concat, r.stateLabel, r.preparers, r.daysLeft])).toEqual([
      [MARKETING, "Enviado", PREPARER.email, 13],
      [RETAIL, "Em preparação", ADMIN_PREPARER.email, 13],
    ]);
    expect(all.counts.find((c) => c.code === "submitted")).toMatchObject({ count: 1, percent: "50%" });
    expect(all.counts.find((c) => c.code === "approved")).toMatchObject({ count: 0, percent: "0%" });
    const submitted = (await board(`?rf=${encodeURIComponent(RF)}&estado=submitted`)).board;
    expect(submitted.rows.map((r) => r.cost_center_concat)).toEqual([MARKETING]);
    expect(submitted.filtered).toBe(1);

    const response = (await boardExcelLoader(
      args(new Request(url(`/ij/forecast_status/excel?rf=${encodeURIComponent(RF)}`))),
    )) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].getRow(2).getCell(3).value).toBe("Enviado");
    expect(workbook.worksheets[0].actualRowCount).toBe(3);
  });

  it("reads the RF's records in one command with the scenarios' state; another RF than the one asked for is read after", async () => {
    as(REVIEWER);
    const rf = `?rf=${encodeURIComponent(RF)}`;
    const first = (await board(rf)).board;
    // Once the RF's cost centres are known (kept per data state), a board is the count and one aggregate.
    const again = await recordQueryPlans(db, () => runInRequestScope(() => board(rf)));
    expect(again.result?.board).toEqual(first);
    expect(again.plans.filter((p) => "aggregate" in p.command)).toHaveLength(1);
    // An RF that has no records: the board of the one shown instead, the same as asking for it.
    const instead = (await board("?rf=RF3%202099")).board;
    expect(instead.rf).not.toBe("RF3 2099");
    expect(instead.rows).toEqual((await board(`?rf=${encodeURIComponent(instead.rf!)}`)).board.rows);
  });

  it("pages on the server, 20 rows a page, and filters by level", async () => {
    for (let i = 0; i < 23; i++) {
      const records = (await import("../fixtures")).scenarioRecords(RF, `CC2${String(i).padStart(3, "0")} - Extra`, [
        ACCOUNTS[0],
      ]);
      await db.collection(FORECAST).insertMany(records.map((r) => ({ ...r, level_descr: i % 2 ? "Ímpar" : "Par" })));
    }
    as(REVIEWER);
    const first = (await board(`?rf=${encodeURIComponent(RF)}`)).board;
    expect([first.total, first.rows.length, first.page]).toEqual([25, 20, 1]);
    const second = (await board(`?rf=${encodeURIComponent(RF)}&page=2`)).board;
    expect(second.rows.length).toBe(5);
    const beyond = (await board(`?rf=${encodeURIComponent(RF)}&page=99`)).board;
    expect(beyond.page).toBe(2);
    const odd = (await board(`?rf=${encodeURIComponent(RF)}&nivel=${encodeURIComponent("Ímpar")}`)).board;
    expect(odd.filtered).toBe(11);
    expect(odd.levels).toEqual(["Comercial", "Ímpar", "Par"]);
  });

  it("is for reviewers and administrators only", async () => {
    as(OTHER_GOLD);
    await expect(boardLoader(args(new Request(url("/ij/forecast_status"))))).rejects.toMatchObject({ status: 403 });
  });
});
