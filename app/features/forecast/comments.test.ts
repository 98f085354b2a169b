import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer, dataHeaders, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { workbookPost } from "#test/uploads";
import { AUDIT_LOG } from "~/models/audit.server";
import { CELL_COMMENTS, CELL_THREADS } from "~/models/cell-comments.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS } from "~/models/forecast-cycle.server";
import { NOTICE_MAIL, NOTICES } from "~/models/notices.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { commentTexts } from "~/platform/comments/texts";
import type { ThreadPage } from "~/platform/comments/threads.server";
import { loader as reviewLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import {
  action as excelAction,
  loader as excelLoader,
} from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios";
import { cellHref } from "~/shared/cell-link";
import { monthKey, monthLabel } from "~/shared/months";
import { readToastFromResponse } from "~/shared/toast.server";
import { ACCOUNTS, assignPreparer, insertScenario } from "./fixtures";
import { commentPath, reviewPath } from "./forecast-filter";
import { parseScenario, scenarioCalendar } from "./release-points";
import { forecastTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Comments on the forecast review's cells, on 15 Feb 2027 (RF2 2027 open): a reader comments and mentions another
 * reader, who gets a notice (and its e-mail) opening the grid on the cell; a mention of someone who may not read the
 * review refuses the comment; the grid marks the cell; the thread folds once resolved; a submitted cost centre is
 * still discussed; the export carries the thread as the cell's note and the thread outlives a round trip.
 */

const testDb = useTestDatabase();
const CC = "CC1001 - Marketing";
const RF = "RF2 2027";
const ACCOUNT = ACCOUNTS[0].account;
const calendar = scenarioCalendar(parseScenario(RF)!);
const MONTH = monthKey(calendar.editMonth);
const params = { rf: RF, cost_center_concat: CC };
const origin = "http://localhost:3000";
let db: Db;
usePortalToday("2027-02-15");

const people = [
  { user: "gold@example.com", name: "Gold User", type: "USER GOLD" },
  { user: "ana.souza@example.com", name: "Ana Souza", type: "SYSTEM ADMIN" },
  { user: "bruno@example.com", name: "Bruno Prata", type: "USER SILVER" },
];

beforeAll(async () => {
  db = await testDb.db();
  await insertScenario(db, RF, CC);
  await db
    .collection(USER_PERMISSIONS)
    .insertMany(people.map((p) => ({ ...p, stores: [], createdAt: new Date("2026-01-01T00:00:00Z") })));
  // A gold user reads (and may be mentioned on) only the cost centres they prepare (the forecast's read rule).
  await assignPreparer(db, "gold@example.com", CC);
});

beforeEach(async () => {
  for (const name of [
    CELL_COMMENTS,
    CELL_THREADS,
    NOTICES,
    NOTICE_MAIL,
    AUDIT_LOG,
    FORECAST_CYCLE,
    FORECAST_CYCLE_EVENTS,
  ])
    await db.collection(name).deleteMany({});
  Object.assign(currentUser, { type: "USER GOLD", email: "gold@example.com", name: "Gold User" });
});

const threadUrl = (account = ACCOUNT, month = MONTH) => `${origin}${commentPath(RF, CC, account, month)}`;

async function thread(account = ACCOUNT, month = MONTH): Promise<ThreadPage> {
  const page = (await loader({ request: new Request(threadUrl(account, month)), params, context: {} } as never)) as {
    kind: "thread";
    thread: ThreadPage;
  };
  return page.thread;
}

const post = (fields: Record<string, string>, url = threadUrl()) =>
  action({
    request: new Request(url, { method: "POST", body: new URLSearchParams(fields) }),
    params,
    context: {},
  } as never);

async function reviewGrid(query = "") {
  const page = (await reviewLoader({
    request: new Request(`${origin}${reviewPath(RF, CC)}${query}`),
    params,
    context: {},
  } as never)) as {
    grid: {
      months: string[];
      groups: { accounts: { account: string; comments?: number[] }[] }[];
      focus?: unknown;
      editable: boolean;
    };
  };
  return page.grid;
}

describe("a comment with a mention", () => {
  it("is kept with the cell, tells the person mentioned with a link to the cell, and is audited", async () => {
    const answer = (await post({
      intent: "comment",
      text: "@Ana Souza a alta de fevereiro\r\né o dissídio.",
    })) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(commentPath(RF, CC, ACCOUNT, MONTH));
    expect((await readToastFromResponse(answer))?.description).toBe(commentTexts.done.addedNotified(1));

    const page = await thread();
    expect(page.comments).toEqual([
      expect.objectContaining({ who: "Gold User", text: "@Ana Souza a alta de fevereiro\né o dissídio." }),
    ]);
    expect(page.label).toBe(`${ACCOUNT} · ${monthLabel(calendar.editMonth)}`);
    // Only the review's readers are offered: not the silver user.
    expect(page.mentionable.map((p) => p.name).sort()).toEqual(["Ana Souza", "Gold User"]);

    const notices = await db.collection(NOTICES).find({}).toArray();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      to: "ana.souza@example.com",
      kind: "comment.mention",
      title: commentTexts.notice.title("Gold User"),
      // The grid opened at the cell (its fragment scrolls to it without JavaScript).
      link: cellHref(reviewPath(RF, CC), ACCOUNT, MONTH),
      links: [{ label: commentTexts.notice.thread, path: commentPath(RF, CC, ACCOUNT, MONTH) }],
    });
    expect(notices[0].body).toContain("a alta de fevereiro");
    expect(await db.collection(NOTICE_MAIL).countDocuments({ to: "ana.souza@example.com" })).toBe(1);

    const audit = await db.collection(AUDIT_LOG).find({ event: "commentAdded" }).toArray();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: expect.objectContaining({ email: "gold@example.com" }),
      object: expect.objectContaining({ kind: "cell" }),
      outcome: "ok",
      details: expect.objectContaining({ mentions: ["ana.souza@example.com"] }),
    });
  });

  it("refuses a mention of someone who may not read the review, and of nobody, storing and telling nothing", async () => {
    for (const [text, token] of [
      ["@bruno veja isto", "bruno"],
      ["@ninguem veja isto", "ninguem"],
    ]) {
      const answer = dataAnswer<{ message: string; text: string }>(await post({ intent: "comment", text }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ ok: false, message: commentTexts.errors.unknown(token), text });
    }
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);
    expect(await db.collection(NOTICES).countDocuments()).toBe(0);
    expect(await db.collection(AUDIT_LOG).countDocuments({ event: "commentAdded" })).toBe(0);
  });

  it("refuses an empty comment and one over 2,000 characters; 2,000 with CRLF line breaks counted once pass", async () => {
    expect(dataAnswer<{ message: string }>(await post({ intent: "comment", text: "  \r\n " })).body.message).toBe(
      commentTexts.errors.empty,
    );
    expect(
      dataAnswer<{ message: string }>(await post({ intent: "comment", text: "x".repeat(2_001) })).body.message,
    ).toBe(commentTexts.errors.tooLong(2_000));
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);
    const lines = `${"y".repeat(999)}\r\n${"z".repeat(1_000)}`;
    expect(((await post({ intent: "comment", text: lines })) as Response).status).toBe(302);
    expect((await db.collection(CELL_COMMENTS).findOne({}))?.text).toHaveLength(2_000);
  });

  it("refuses a cell the review does not have, and a reader of another screen", async () => {
    await expect(thread("9999999 - Outra" as typeof ACCOUNT, MONTH)).rejects.toMatchObject({ init: { status: 404 } });
    await expect(thread(ACCOUNT, "2031-01")).rejects.toMatchObject({ init: { status: 404 } });
    currentUser.type = "USER SILVER";
    await expect(post({ intent: "comment", text: "oi" })).rejects.toMatchObject({ status: 403 });
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);
  });
});

describe("the grid's side panel", () => {
  it("posts through the same action and rules, answering in place (no redirect) with the toast's cookie", async () => {
    const panel = `${threadUrl()}&painel=1`;
    const done = await post({ intent: "comment", text: "Pelo painel" }, panel);
    expect(dataAnswer(done)).toEqual({ status: 200, body: { ok: true, message: commentTexts.done.added } });
    expect(dataHeaders(done).get("Set-Cookie")).toMatch(/^jp_toast=/);
    expect((await thread()).comments.map((c) => c.text)).toContain("Pelo painel");
    // The same refusals as the thread's page.
    const refused = dataAnswer(await post({ intent: "comment", text: "@Ninguém Aqui veja" }, panel));
    expect(refused).toEqual({
      status: 400,
      body: { ok: false, message: commentTexts.errors.unknown("Ninguém"), text: "@Ninguém Aqui veja" },
    });
  });
});

describe("the people a comment may mention", () => {
  // A second "Ana Souza", and a reader made by the user administration (whose name is the e-mail's part before @).
  const others = [
    { user: "ana.s@example.com", name: "Ana  Souza", type: "SYSTEM ADMIN" },
    { user: "d.lima@example.com", name: "d.lima", type: "SYSTEM ADMIN" },
  ];
  beforeEach(async () => {
    await db
      .collection(USER_PERMISSIONS)
      .insertMany(others.map((p) => ({ ...p, stores: [], createdAt: new Date("2026-01-01T00:00:00Z") })));
  });
  afterEach(async () => {
    await db.collection(USER_PERMISSIONS).deleteMany({ user: { $in: others.map((p) => p.user) } });
  });

  async function threadAs(type: "USER GOLD" | "SYSTEM ADMIN") {
    Object.assign(currentUser, { type, email: "gold@example.com", name: "Gold User" });
    const answer = await loader({ request: new Request(threadUrl()), params, context: {} } as never);
    Object.assign(currentUser, { type: "USER GOLD" });
    return answer as { kind: "thread"; thread: ThreadPage };
  }

  it("shows a preparer names only, never an e-mail nor its part before @; SYSTEM ADMIN also the e-mails", async () => {
    await post({ intent: "comment", text: "Conferir" });
    const asPreparer = await threadAs("USER GOLD");
    const text = JSON.stringify(asPreparer).toLowerCase();
    for (const address of ["example.com", "ana.souza", "ana.s", "d.lima"]) expect(text).not.toContain(address);
    const shown = asPreparer.thread.mentionable;
    expect(shown.map((p) => p.name).sort()).toEqual(["Ana Souza", "Ana Souza", "Gold User", commentTexts.unnamed]);
    expect(new Set(shown.map((p) => p.mention)).size).toBe(4);
    expect(shown.every((p) => !p.email)).toBe(true);

    const asAdmin = (await threadAs("SYSTEM ADMIN")).thread.mentionable;
    expect(asAdmin.map((p) => p.email).sort()).toEqual([
      "ana.s@example.com",
      "ana.souza@example.com",
      "d.lima@example.com",
      "gold@example.com",
    ]);
  });

  it("tells the person a name mentions; two of one name are told apart by a code, not by their e-mail", async () => {
    const ambiguous = dataAnswer<{ message: string }>(await post({ intent: "comment", text: "@Ana Souza veja" }));
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.message).toBe(commentTexts.errors.ambiguous("Ana Souza"));
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);

    // The preparer picks from the list the entries SYSTEM ADMIN would see as ana.s@ and d.lima@.
    const byEmail = new Map((await threadAs("SYSTEM ADMIN")).thread.mentionable.map((p) => [p.email, p.mention]));
    const shown = (await threadAs("USER GOLD")).thread.mentionable.map((p) => p.mention);
    const [anaS, lima] = [byEmail.get("ana.s@example.com"), byEmail.get("d.lima@example.com")];
    expect(shown).toEqual(expect.arrayContaining([anaS, lima]));
    const answer = (await post({ intent: "comment", text: `@${anaS} e @${lima}, confiram.` })) as Response;
    expect(answer.status).toBe(302);
    const told = await db.collection(NOTICES).find({}).toArray();
    expect(told.map((n) => n.to).sort()).toEqual(["ana.s@example.com", "d.lima@example.com"]);
  });
});

describe("the thread on the grid", () => {
  it("marks the commented cell, opens the grid on the cell a link names, and folds once resolved", async () => {
    await post({ intent: "comment", text: "Conferir" });
    const grid = await reviewGrid(`?${new URLSearchParams({ conta: ACCOUNT, mes: MONTH })}`);
    const at = grid.months.indexOf(MONTH);
    const line = grid.groups.flatMap((g) => g.accounts).findIndex((a) => a.account === ACCOUNT);
    expect(grid.groups.flatMap((g) => g.accounts)[line].comments).toEqual([at]);
    expect(grid.focus).toEqual({ line, month: at, history: false });
    expect(grid.groups.flatMap((g) => g.accounts)[1].comments).toBeUndefined();
    // The link of a thread and of an audit entry: ?celula=, with the cell's history when asked.
    expect((await reviewGrid(cellHref("", ACCOUNT, MONTH, { history: true }))).focus).toEqual({
      line,
      month: at,
      history: true,
    });
    expect((await reviewGrid(cellHref("", "9999 - Nenhuma", MONTH))).focus).toBeUndefined();
    expect((await reviewGrid(cellHref("", ACCOUNT, "1990-01"))).focus).toBeUndefined();

    expect(((await post({ intent: "resolve" })) as Response).status).toBe(302);
    expect((await thread()).resolved).toMatchObject({ by: "Gold User" });
    expect(await db.collection(AUDIT_LOG).countDocuments({ event: "commentResolved" })).toBe(1);
    // A new comment opens it again.
    await post({ intent: "comment", text: "Reaberto" });
    expect((await thread()).resolved).toBeNull();
    expect((await thread()).total).toBe(2);
  });

  it("counts two first comments of a cell sent at once on one thread", async () => {
    const answers = await Promise.all([
      post({ intent: "comment", text: "Um" }),
      post({ intent: "comment", text: "Dois" }),
    ]);
    expect(answers.map((a) => (a as Response).status)).toEqual([302, 302]);
    expect(await db.collection(CELL_THREADS).find({}).toArray()).toEqual([expect.objectContaining({ comments: 2 })]);
    expect((await thread()).comments.map((c) => c.text).sort()).toEqual(["Dois", "Um"]);
  });

  it("lists the review's commented cells, each opening its thread", async () => {
    await post({ intent: "comment", text: "Um" });
    const list = (await loader({
      request: new Request(`${origin}${commentPath(RF, CC)}`),
      params,
      context: {},
    } as never)) as { kind: "list"; rows: { href: string; comments: number; resolved: boolean }[] };
    expect(list.rows).toEqual([
      expect.objectContaining({ href: commentPath(RF, CC, ACCOUNT, MONTH), comments: 1, resolved: false }),
    ]);
  });

  it("takes comments on a submitted cost centre, whose figures stay frozen", async () => {
    await db.collection(FORECAST_CYCLE).insertOne({
      rf: RF,
      cost_center_concat: CC,
      state: "submitted",
      changed_at: new Date("2027-02-10T12:00:00Z"),
      changed_by: "gold@example.com",
      changed_by_name: "Gold User",
      submitted_by: "gold@example.com",
      submitted_at: new Date("2027-02-10T12:00:00Z"),
    });
    await db.collection(FORECAST_CYCLE_EVENTS).insertOne({
      rf: RF,
      cost_center_concat: CC,
      action: "submit",
      from: "preparing",
      to: "submitted",
      at: new Date("2027-02-10T12:00:00Z"),
      by: "gold@example.com",
      name: "Gold User",
      comment: "",
    });
    expect((await reviewGrid()).editable).toBe(false);
    expect(((await post({ intent: "comment", text: "Revisar março" })) as Response).status).toBe(302);
    expect((await thread()).comments).toHaveLength(1);
  });
});

describe("comments in the Excel round trip", () => {
  const excelUrl = `${origin}${reviewPath(RF, CC)}/excel`;
  const excelArgs = (request: Request) => ({ request, params, context: {} as never });

  it("exports the thread as the cell's note, and the thread outlives the file sent back", async () => {
    await post({ intent: "comment", text: "@Ana Souza confirmar" });
    const response = (await excelLoader(excelArgs(new Request(excelUrl)))) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    let monthColumn = -1;
    let accountColumn = -1;
    sheet.getRow(1).eachCell((cell, col) => {
      if (cell.value === monthLabel(calendar.editMonth)) monthColumn = col;
      if (cell.value === forecastTexts.accountColumn) accountColumn = col;
    });
    let row = -1;
    for (let n = 3; n <= sheet.rowCount; n++) if (sheet.getRow(n).getCell(accountColumn).value === ACCOUNT) row = n;
    const note = sheet.getRow(row).getCell(monthColumn).note;
    const noteText = typeof note === "string" ? note : note?.texts?.map((t) => t.text).join("");
    expect(noteText).toContain("Gold User");
    expect(noteText).toContain("@Ana Souza confirmar");
    // Another cell has none.
    expect(sheet.getRow(row + 1).getCell(monthColumn).note).toBeUndefined();

    // The file sent back with the commented cell changed: saved, and the thread is still the cell's.
    sheet.getRow(row).getCell(monthColumn).value = 4321;
    const answer = await responseOf(excelAction(excelArgs(await workbookPost(workbook, excelUrl, "forecast.xlsx"))));
    expect(answer.status).toBe(302);
    expect((await thread()).comments.map((c) => c.text)).toEqual(["@Ana Souza confirmar"]);
    const grid = await reviewGrid();
    const line = grid.groups.flatMap((g) => g.accounts).find((a) => a.account === ACCOUNT);
    expect(line?.comments).toEqual([grid.months.indexOf(MONTH)]);
  });
});
