import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { workbookPost } from "#test/uploads";
import { hrGridPath } from "~/features/hr/paths";
import { applyIndexes } from "~/models/all-indexes.server";
import { HR_AUX, HR_AUX_CHANGES, saveComment } from "~/models/hr.server";
import { loader as gridLoader } from "~/routes/ij.rh_edit.$filial";
import { action as excelAction, loader as excelLoader } from "~/routes/ij.rh_edit.$filial.excel";
import { BRANCH_A, insertHrRecords, LAST_MONTH, MONTH_BEFORE, RAW_CPFS, setPermission } from "./fixtures";
import { hrTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The HR grid's Excel round trip: the branch's rows of the range with the CPF masked, and an edited export that
 * applies only changed figures and comments, with the grid's limits, and lists the rows changed since the export.
 */

const testDb = useTestDatabase();
let db: Db;
const RANGE = { from: MONTH_BEFORE, to: LAST_MONTH };
const excelPath = () => hrGridPath(BRANCH_A, RANGE).replace("?", "/excel?");
const args = (request: Request) => ({ request, params: { filial: BRANCH_A }, context: {} as never });

async function exported(): Promise<ExcelJS.Worksheet> {
  const response = (await excelLoader(args(new Request(`http://localhost${excelPath()}`)))) as Response;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  return workbook.worksheets[0];
}

const columnOf = (sheet: ExcelJS.Worksheet, header: string) => {
  let found = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === header) found = col;
  });
  return found;
};

async function sendBack(sheet: ExcelJS.Worksheet): Promise<Response> {
  return responseOf(excelAction(args(await workbookPost(sheet.workbook, `http://localhost${excelPath()}`, "rh.xlsx"))));
}

async function reportAfter(response: Response) {
  const location = response.headers.get("Location")!;
  const result = (await gridLoader(args(new Request(`http://localhost${location}`)))) as unknown as {
    data: { excel: { report: { summary: string; href: string | null } } };
  };
  return result.data.excel.report;
}

const snapshot = async () =>
  JSON.stringify([
    await db.collection(HR_AUX).find({}).sort({ _id: 1 }).toArray(),
    await db.collection(HR_AUX_CHANGES).countDocuments(),
  ]);

beforeEach(async () => {
  db = await testDb.db();
  await applyIndexes(db);
  await db.collection(HR_AUX).deleteMany({});
  await db.collection(HR_AUX_CHANGES).deleteMany({});
  await insertHrRecords(db);
  await setPermission(db, "gold@example.com", "USER GOLD");
  currentUser.email = "gold@example.com";
  currentUser.type = "USER GOLD";
});

describe("Exportar Excel on /ij/rh_edit/{filial}", () => {
  it("writes the branch's rows of the range with figures as numbers, the month as a date and the CPF masked", async () => {
    const sheet = await exported();
    const rows = await db.collection(HR_AUX).countDocuments({ filial_nome: BRANCH_A });
    expect(sheet.actualRowCount - 1).toBe(rows);
    const cpf = columnOf(sheet, hrTexts.columns.cpf);
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      expect(String(row.getCell(cpf).value)).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
      expect(RAW_CPFS).not.toContain(String(row.getCell(cpf).value));
    });
    expect(typeof sheet.getRow(2).getCell(columnOf(sheet, hrTexts.columns.vendas_adicionais)).value).toBe("number");
    expect(sheet.getRow(2).getCell(columnOf(sheet, hrTexts.columns.mes_apur)).value).toBeInstanceOf(Date);
  });
});

describe("an edited HR export sent back", () => {
  it("applies two changes, lists the row changed meanwhile as a conflict, and records the changes via Excel", async () => {
    const sheet = await exported();
    const sales = columnOf(sheet, hrTexts.columns.vendas_adicionais);
    const comment = columnOf(sheet, hrTexts.columns.comentario);
    const id = columnOf(sheet, "_id");
    sheet.getRow(2).getCell(sales).value = 1234.56;
    sheet.getRow(3).getCell(comment).value = "Revisado na planilha";
    sheet.getRow(4).getCell(sales).value = 99;
    // Someone else changes the third row's comment on the screen after the export.
    await saveComment(BRANCH_A, String(sheet.getRow(4).getCell(id).value), "Mudou na tela", "silver@example.com");

    const report = await reportAfter(await sendBack(sheet));
    expect(report.summary).toBe("2 alterados, 1 conflito, 0 recusados");
    const changes = await db.collection(HR_AUX_CHANGES).find({ via: "excel" }).toArray();
    expect(changes.map((c) => c.field).sort()).toEqual(["comentario", "vendas_adicionais"]);
    expect(changes.every((c) => c.user === "gold@example.com")).toBe(true);
    expect(decodeURIComponent(report.href!)).toContain("99");
  });

  it("refuses a comment of 256 characters, a negative figure and too many decimals, and changes nothing", async () => {
    const sheet = await exported();
    sheet.getRow(2).getCell(columnOf(sheet, hrTexts.columns.comentario)).value = "x".repeat(256);
    sheet.getRow(3).getCell(columnOf(sheet, hrTexts.columns.vendas_adicionais)).value = -1;
    sheet.getRow(4).getCell(columnOf(sheet, hrTexts.columns.dias_media)).value = 1.234;
    const before = await snapshot();
    const report = await reportAfter(await sendBack(sheet));
    expect(report.summary).toBe("0 alterados, 0 conflitos, 3 recusados");
    const list = decodeURIComponent(report.href!);
    expect(list).toContain(hrTexts.commentTooLong(255));
    expect(list).toContain(hrTexts.negativeNumber);
    expect(await snapshot()).toBe(before);
  });

  it("a reader of the grid who may not edit gets 403 and nothing changes", async () => {
    const sheet = await exported();
    await setPermission(db, "silver@example.com", "USER SILVER");
    currentUser.email = "silver@example.com";
    currentUser.type = "USER SILVER";
    sheet.getRow(2).getCell(columnOf(sheet, hrTexts.columns.vendas_adicionais)).value = 1;
    const before = await snapshot();
    expect((await sendBack(sheet)).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});
