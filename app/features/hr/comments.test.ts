import ExcelJS from "exceljs";
import type { Db, ObjectId } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { workbookPost } from "#test/uploads";
import { applyIndexes } from "~/models/all-indexes.server";
import { CELL_COMMENTS, CELL_THREADS } from "~/models/cell-comments.server";
import { HR_AUX, type HrAuxRecord } from "~/models/hr.server";
import { NOTICES } from "~/models/notices.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { commentTexts } from "~/platform/comments/texts";
import type { ThreadPage } from "~/platform/comments/threads.server";
import { loader as gridLoader } from "~/routes/ij.rh_edit.$filial";
import { action as excelAction, loader as excelLoader } from "~/routes/ij.rh_edit.$filial.excel";
import { action, loader } from "~/routes/ij.rh_edit_.$filial.comentarios";
import { monthOfDate } from "~/shared/months";
import { readToastFromResponse } from "~/shared/toast.server";
import { BRANCH_A, BRANCH_B, insertHrRecords, LAST_MONTH, MONTH_BEFORE, setPermission } from "./fixtures";
import { hrGridPath, hrThreadPath } from "./paths";
import { hrTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Comments on the HR grid's rows (a person's month), held to the grid's branch scope: a person limited to another
 * branch is never offered, cannot be mentioned and cannot open the thread; readers who may not edit still comment;
 * the grid links each row's thread with its count; the export carries the thread as the name cell's note.
 */

const testDb = useTestDatabase();
let db: Db;
let records: Array<HrAuxRecord & { _id: ObjectId }>;
const origin = "http://localhost";

beforeAll(async () => {
  db = await testDb.db();
  await applyIndexes(db);
  records = await insertHrRecords(db);
  await setPermission(db, "gold@example.com", "USER GOLD");
  await setPermission(db, "silver@example.com", "USER SILVER");
  await setPermission(db, "recife@example.com", "USER SILVER", [BRANCH_B]);
  await setPermission(db, "bronze@example.com", "USER BRONZE");
  // People are mentioned by their names (the fixture names each by the e-mail, which is never shown).
  for (const [user, name] of [
    ["gold@example.com", "Gabriela Ouro"],
    ["silver@example.com", "Sérgio Prata"],
    ["recife@example.com", "Rita Recife"],
  ])
    await db.collection(USER_PERMISSIONS).updateOne({ user }, { $set: { name } });
});

beforeEach(async () => {
  for (const name of [CELL_COMMENTS, CELL_THREADS, NOTICES]) await db.collection(name).deleteMany({});
  Object.assign(currentUser, { email: "gold@example.com", name: "Gold", type: "USER GOLD" });
});

const rowOf = (branch: string) => records.find((r) => r.filial_nome === branch)!;
const args = (path: string, filial: string, init?: RequestInit) => ({
  request: new Request(`${origin}${path}`, init),
  params: { filial },
  context: {} as never,
});

async function thread(branch = BRANCH_A, id = String(rowOf(BRANCH_A)._id)): Promise<ThreadPage> {
  return ((await loader(args(hrThreadPath(branch, id), branch))) as { thread: ThreadPage }).thread;
}
const post = (text: string, branch = BRANCH_A, id = String(rowOf(BRANCH_A)._id)) =>
  action(
    args(hrThreadPath(branch, id), branch, { method: "POST", body: new URLSearchParams({ intent: "comment", text }) }),
  );

describe("a comment on an HR row", () => {
  it("offers and notifies only people who may see the branch; a reader who may not edit comments too", async () => {
    const row = rowOf(BRANCH_A);
    const page = await thread();
    expect(page.mentionable.map((p) => p.name).sort()).toEqual(["Gabriela Ouro", "Sérgio Prata"]);
    expect(page.label).toContain(row.nome);

    currentUser.email = "silver@example.com";
    currentUser.type = "USER SILVER";
    const answer = (await post("@Gabriela Ouro confira as vendas")) as Response;
    expect((await readToastFromResponse(answer))?.description).toBe(commentTexts.done.addedNotified(1));
    const notice = await db.collection(NOTICES).findOne({ to: "gold@example.com" });
    const month = monthOfDate(row.mes_apur);
    expect(notice?.link).toBe(`${hrGridPath(BRANCH_A, { from: month, to: month })}#r-${String(row._id)}`);
  });

  it("refuses a mention of someone limited to another branch, storing and telling nothing", async () => {
    const answer = dataAnswer<{ message: string }>(await post("@Rita Recife olhe isto"));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(commentTexts.errors.unknown("Rita"));
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);
    expect(await db.collection(NOTICES).countDocuments()).toBe(0);
  });

  it("answers a branch outside the user's scope, and a row of another branch, like ones that do not exist", async () => {
    await post("Ok");
    currentUser.email = "recife@example.com";
    currentUser.type = "USER SILVER";
    await expect(thread()).rejects.toMatchObject({ init: { status: 404 } });
    await expect(loader(args(hrThreadPath(BRANCH_A), BRANCH_A))).rejects.toMatchObject({ init: { status: 404 } });
    await expect(post("Vi")).rejects.toMatchObject({ init: { status: 404 } });
    // Their own branch, with the other branch's row id: no such row there.
    await expect(thread(BRANCH_B, String(rowOf(BRANCH_A)._id))).rejects.toMatchObject({ init: { status: 404 } });
    // A type that does not read the grid.
    currentUser.email = "bronze@example.com";
    currentUser.type = "USER BRONZE";
    await expect(thread()).rejects.toMatchObject({ status: 403 });
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(1);
  });
});

describe("the thread on the grid and in its export", () => {
  it("links each row to its thread with its count, and the export carries it as the name cell's note", async () => {
    await post("Meta revista");
    const range = { from: MONTH_BEFORE, to: LAST_MONTH };
    const grid = (await gridLoader(args(hrGridPath(BRANCH_A, range), BRANCH_A))) as unknown as {
      data: { threads: Record<string, { comments: number; resolved: boolean }> };
    };
    expect(grid.data.threads).toEqual({ [String(rowOf(BRANCH_A)._id)]: { comments: 1, resolved: false } });

    const excelPath = hrGridPath(BRANCH_A, range).replace("?", "/excel?");
    const response = (await excelLoader(args(excelPath, BRANCH_A))) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    let nameColumn = -1;
    let idColumn = -1;
    sheet.getRow(1).eachCell((cell, col) => {
      if (cell.value === hrTexts.columns.nome) nameColumn = col;
      if (cell.value === "_id") idColumn = col;
    });
    const notes = new Map<string, string>();
    for (let n = 2; n <= sheet.rowCount; n++) {
      const note = sheet.getRow(n).getCell(nameColumn).note;
      const text = typeof note === "string" ? note : note?.texts?.map((t) => t.text).join("");
      if (text) notes.set(String(sheet.getRow(n).getCell(idColumn).value), text);
    }
    expect([...notes.keys()]).toEqual([String(rowOf(BRANCH_A)._id)]);
    expect(notes.get(String(rowOf(BRANCH_A)._id))).toContain("Gold");
    expect(notes.get(String(rowOf(BRANCH_A)._id))).toContain("Meta revista");

    // Sent back with the row's figure changed: the row is saved and keeps its thread.
    let figureColumn = -1;
    sheet.getRow(1).eachCell((cell, col) => {
      if (cell.value === hrTexts.columns.vendas_adicionais) figureColumn = col;
    });
    for (let n = 2; n <= sheet.rowCount; n++)
      if (String(sheet.getRow(n).getCell(idColumn).value) === String(rowOf(BRANCH_A)._id))
        sheet.getRow(n).getCell(figureColumn).value = 77;
    const back = await responseOf(excelAction(await workbookArgs(workbook, excelPath)));
    expect(back.status).toBe(302);
    expect((await db.collection(HR_AUX).findOne({ _id: rowOf(BRANCH_A)._id }))?.vendas_adicionais).toBe(77);
    expect((await thread()).comments.map((c) => c.text)).toEqual(["Meta revista"]);
  });
});

async function workbookArgs(workbook: ExcelJS.Workbook, path: string) {
  return {
    request: await workbookPost(workbook, `${origin}${path}`, "rh.xlsx"),
    params: { filial: BRANCH_A },
    context: {} as never,
  };
}
