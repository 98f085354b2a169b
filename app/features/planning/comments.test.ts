import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { workbookPost, XLSX_TYPE } from "#test/uploads";
import { CELL_COMMENTS, CELL_THREADS } from "~/models/cell-comments.server";
import { NOTICES } from "~/models/notices.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { commentTexts } from "~/platform/comments/texts";
import type { ThreadPage } from "~/platform/comments/threads.server";
import { loader as planEditLoader } from "~/routes/ij.plan_edit";
import { action as excelAction, loader as excelLoader } from "~/routes/ij.plan_edit.excel";
import { action, loader } from "~/routes/ij.plan_edit_.comentarios";
import { loader as reportLoader } from "~/routes/ij.report_preview";
import { resetPlanning } from "./fixtures";
import { planningThreadPath } from "./row-paths";
import { planningTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Comments on the planning grid's rows: kept with the row's SKU, channel and month; the grid links each row's thread
 * (the report preview does not); a mention tells a reader of the grid with a link that filters the grid to the row,
 * and refuses anyone else; the export carries the thread as the quantity cell's note, and the thread outlives the
 * file sent back.
 */

const testDb = useTestDatabase();
let db: Db;
const FILTER = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=attributes&chanel=WHOLESALES&chanel=FSS";
const origin = "http://localhost";
const args = (path: string, init?: RequestInit) => ({
  request: new Request(`${origin}${path}`, init),
  params: {},
  context: {} as never,
});
type Row = { id: string; valor: number; label: string };
type GridView = { rows: Row[]; threads: Record<string, { comments: number; resolved: boolean }> | null };

beforeAll(async () => {
  db = await testDb.db();
  await db.collection(USER_PERMISSIONS).insertMany([
    { user: "gold@example.com", name: "Gold", type: "USER GOLD", stores: [], createdAt: new Date() },
    { user: "planner@example.com", name: "Paula Planner", type: "USER GOLD", stores: [], createdAt: new Date() },
    { user: "silver@example.com", name: "Silver", type: "USER SILVER", stores: [], createdAt: new Date() },
  ]);
});

beforeEach(async () => {
  await resetPlanning(db);
  for (const name of [CELL_COMMENTS, CELL_THREADS, NOTICES]) await db.collection(name).deleteMany({});
  Object.assign(currentUser, { email: "gold@example.com", name: "Gold", type: "USER GOLD" });
});

const grid = async (query = FILTER) => (await planEditLoader(args(`/ij/plan_edit?${query}`))) as unknown as GridView;
const post = (id: string, text: string) =>
  action(args(planningThreadPath(id), { method: "POST", body: new URLSearchParams({ intent: "comment", text }) }));

describe("a comment on a planning row", () => {
  it("marks the row on the plan grid, and tells a reader mentioned with a link that filters the grid to the row", async () => {
    const [row, other] = (await grid()).rows;
    const answer = (await post(row.id, "@Paula Planner revisar a quantidade")) as Response;
    expect(answer.headers.get("Location")).toBe(planningThreadPath(row.id));
    const page = ((await loader(args(planningThreadPath(row.id)))) as { thread: ThreadPage }).thread;
    expect(page.comments.map((c) => c.text)).toEqual(["@Paula Planner revisar a quantidade"]);
    // "Gold" is gold@'s part before @, never shown as a name.
    expect(page.mentionable.map((p) => p.name).sort()).toEqual(["Paula Planner", commentTexts.unnamed]);

    const after = await grid();
    expect(after.threads).toEqual({ [row.id]: { comments: 1, resolved: false } });
    expect(after.threads?.[other.id]).toBeUndefined();
    // The report preview shows the same rows without threads.
    const report = (await reportLoader(args(`/ij/report_preview?${FILTER}`))) as unknown as GridView;
    expect(report.threads).toBeNull();

    const notice = await db.collection(NOTICES).findOne({ to: "planner@example.com" });
    expect(notice?.title).toBe(commentTexts.notice.title("Gold"));
    const [path, anchor] = String(notice?.link).split("#");
    expect(anchor).toBe(`p-${row.id}`);
    expect((await grid(path.split("?")[1])).rows.map((r) => r.id)).toEqual([row.id]);
  });

  it("refuses a mention of someone who may not read the grid, and a reader of another screen", async () => {
    const [row] = (await grid()).rows;
    const refused = dataAnswer<{ message: string }>(await post(row.id, "@silver veja"));
    expect(refused.body.message).toBe(commentTexts.errors.unknown("silver"));
    currentUser.type = "USER SILVER";
    await expect(post(row.id, "oi")).rejects.toMatchObject({ status: 403 });
    currentUser.type = "USER GOLD";
    await expect(loader(args(planningThreadPath("0123456789abcdef01234567")))).rejects.toMatchObject({
      init: { status: 404 },
    });
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);
  });
});

describe("comments in the planning export", () => {
  it("dates each comment of the note as the thread page does: the portal's date and time", async () => {
    const [row] = (await grid()).rows;
    await post(row.id, "Conferir com o comercial");
    // 05:04:09 UTC is 02:04:09 in São Paulo.
    await db.collection(CELL_COMMENTS).updateMany({}, { $set: { created_at: new Date("2026-11-29T05:04:09Z") } });
    const page = ((await loader(args(planningThreadPath(row.id)))) as { thread: ThreadPage }).thread;
    expect(page.comments.map((c) => c.when)).toEqual(["29 nov 26 02:04:09"]);
    const response = (await excelLoader(args(`/ij/plan_edit/excel?${FILTER}`))) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const notes: string[] = [];
    workbook.worksheets[0].eachRow((line) =>
      line.eachCell((cell) => {
        const note = cell.note;
        const text = typeof note === "string" ? note : note?.texts?.map((t) => t.text).join("");
        if (text) notes.push(text);
      }),
    );
    expect(notes).toEqual(["Gold (29 nov 26 02:04:09): Conferir com o comercial"]);
  });

  it("carries the thread as the quantity cell's note, and the thread outlives the file sent back", async () => {
    const [row] = (await grid()).rows;
    await post(row.id, "Conferir com o comercial");
    const response = (await excelLoader(args(`/ij/plan_edit/excel?${FILTER}`))) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const column = (header: string) => {
      let found = -1;
      sheet.getRow(1).eachCell((cell, col) => {
        if (cell.value === header) found = col;
      });
      return found;
    };
    const quantity = column(planningTexts.columns.quantity);
    const id = column("_id");
    const noted: string[] = [];
    let line = -1;
    for (let n = 2; n <= sheet.rowCount; n++) {
      const note = sheet.getRow(n).getCell(quantity).note;
      const text = typeof note === "string" ? note : note?.texts?.map((t) => t.text).join("");
      if (text) noted.push(text);
      if (sheet.getRow(n).getCell(id).value === row.id) line = n;
    }
    expect(noted).toHaveLength(1);
    expect(noted[0]).toContain("Conferir com o comercial");
    expect(sheet.getRow(line).getCell(quantity).note).toBeDefined();

    sheet.getRow(line).getCell(quantity).value = row.valor + 5;
    const back = await responseOf(
      excelAction({
        request: await workbookPost(workbook, `${origin}/ij/plan_edit/excel?${FILTER}`, "planejamento.xlsx", XLSX_TYPE),
        params: {},
        context: {} as never,
      }),
    );
    expect(back.status).toBe(302);
    expect((await grid()).threads?.[row.id]).toEqual({ comments: 1, resolved: false });
    expect((await grid()).rows.find((r) => r.id === row.id)?.valor).toBe(row.valor + 5);
  });
});
