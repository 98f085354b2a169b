import ExcelJS from "exceljs";
import { type Db, ObjectId } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { workbookPost, XLSX_TYPE } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { messages } from "~/messages";
import { PLANNING_HISTORY, PLANNING_QUANTITY, PLANNING_SAVES } from "~/models/planning.server";
import { saveQuantities } from "~/models/planning-queries.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { loader as planEditLoader } from "~/routes/ij.plan_edit";
import { action as excelAction, loader as excelLoader } from "~/routes/ij.plan_edit.excel";
import { resetPlanning } from "./fixtures";
import { parseFilter } from "./planning";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The planning grid's Excel round trip: "Exportar Excel" gives every row of the filter (all pages), the same file
 * edited and sent back applies only the changed quantities, refuses what the screen would refuse and lists the rows
 * someone else changed since the export, with both values.
 */

const testDb = useTestDatabase();
let db: Db;

const FILTER = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=attributes&chanel=WHOLESALES&chanel=FSS";
const args = (request: Request) => ({ request, params: {}, context: {} as never });

async function exported(query = FILTER): Promise<ExcelJS.Workbook> {
  const response = (await excelLoader(args(new Request(`http://localhost/ij/plan_edit/excel?${query}`)))) as Response;
  expect(response.headers.get("Content-Type")).toContain("spreadsheetml");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  return workbook;
}

function headerIndex(sheet: ExcelJS.Worksheet, header: string): number {
  let found = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === header) found = col;
  });
  if (found < 0) throw new Error(`no column ${header}`);
  return found;
}

async function sendBack(workbook: ExcelJS.Workbook, query = FILTER): Promise<Response> {
  const url = `http://localhost/ij/plan_edit/excel?${query}`;
  return responseOf(excelAction(args(await workbookPost(workbook, url, "planejamento.xlsx", XLSX_TYPE))));
}

/** The outcome the screen shows after the import, read through the screen's own loader. */
async function screenReport(location: string) {
  const result = (await planEditLoader(args(new Request(`http://localhost${location}`)))) as {
    excel: { report: { summary: string; href: string | null } | null };
  };
  return result.excel.report;
}

const rowsOf = async () =>
  db
    .collection(PLANNING_QUANTITY)
    .find({}, { projection: { valor: 1, revision: 1 } })
    .sort({ _id: 1 })
    .toArray();

beforeEach(async () => {
  db = await testDb.db();
  await resetPlanning(db);
  currentUser.email = "gold@example.com";
  currentUser.type = "USER GOLD";
});

describe("Exportar Excel on /ij/plan_edit", () => {
  it("writes every row of the filter, all pages, with the screen's columns, real numbers and the hidden id and revision", async () => {
    const sheet = (await exported()).worksheets[0];
    // 6 SKUs × 2 channels × 3 months: more than the screen's page of 20.
    expect(sheet.actualRowCount - 1).toBe(36);
    const quantity = headerIndex(sheet, "Quantity");
    expect(typeof sheet.getRow(2).getCell(quantity).value).toBe("number");
    expect(sheet.getRow(2).getCell(headerIndex(sheet, "Date")).value).toBeInstanceOf(Date);
    const id = headerIndex(sheet, "_id");
    expect(sheet.getColumn(id).hidden).toBe(true);
    expect(sheet.getColumn(headerIndex(sheet, "_rev")).hidden).toBe(true);
    const ids = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 1) ids.add(String(row.getCell(id).value));
    });
    const inFilter = await db.collection(PLANNING_QUANTITY).countDocuments({ channel: { $in: ["WHOLESALES", "FSS"] } });
    expect(ids.size).toBe(inFilter);
  });
});

describe("the dates of Exportar Excel on /ij/plan_edit", () => {
  it("a row's Date is the day the screen shows (the portal's zone), as a date cell dd/mm/yyyy", async () => {
    // 02:04:09 UTC on 21/04 is 23:04:09 on 20/04 in São Paulo: the screen shows "20 abr 2026".
    const newest = await db.collection(PLANNING_QUANTITY).find({}).sort({ creationDate: -1 }).limit(1).next();
    await db
      .collection(PLANNING_QUANTITY)
      .updateOne({ _id: newest!._id }, { $set: { creationDate: new Date("2026-04-21T02:04:09Z") } });
    const sheet = (await exported()).worksheets[0];
    const date = sheet.getRow(2).getCell(headerIndex(sheet, "Date"));
    expect(String(sheet.getRow(2).getCell(headerIndex(sheet, "_id")).value)).toBe(newest!._id.toHexString());
    expect((date.value as Date).toISOString()).toBe("2026-04-20T00:00:00.000Z");
    expect(date.numFmt).toBe("dd/mm/yyyy");
  });
});

describe("an edited export sent back", () => {
  it("applies two changed quantities, reports the row changed meanwhile as a conflict with both values, and records history via Excel", async () => {
    const workbook = await exported();
    const sheet = workbook.worksheets[0];
    const quantity = headerIndex(sheet, "Quantity");
    const idColumn = headerIndex(sheet, "_id");
    const edited = [2, 3, 4].map((n) => ({
      row: sheet.getRow(n),
      id: String(sheet.getRow(n).getCell(idColumn).value),
    }));
    for (const [i, e] of edited.entries()) e.row.getCell(quantity).value = 5_000 + i;

    // Meanwhile, someone else saves the third row on the screen.
    const filter = parseFilter(new URLSearchParams(FILTER), "plan");
    if (!filter.ok) throw new Error("filter");
    await saveQuantities({
      user: "silver@example.com",
      screen: "plan_edit",
      filter: filter.filter,
      edits: [{ id: new ObjectId(edited[2].id), revision: 0, valor: 777 }],
    });
    const before = await rowsOf();

    const response = await sendBack(workbook);
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(new URL(location, "http://x").searchParams.get("excel")).toMatch(/^[0-9a-f]{24}$/);
    const report = await screenReport(location);
    expect(report?.summary).toBe("2 alterados, 1 conflito, 0 recusados");
    const list = decodeURIComponent(report!.href!.split(",").slice(1).join(","));
    expect(list).toContain("Conflito");
    expect(list).toContain("5.002"); // the file's value
    expect(list).toContain("777"); // the value saved meanwhile

    const after = await rowsOf();
    const changed = after.filter((row, i) => row.valor !== before[i].valor).map((row) => String(row._id));
    expect(changed.sort()).toEqual([edited[0].id, edited[1].id].sort());
    expect((await db.collection(PLANNING_QUANTITY).findOne({ _id: new ObjectId(edited[2].id) }))?.valor).toBe(777);
    const history = await db.collection(PLANNING_HISTORY).find({ via: "excel" }).toArray();
    expect(history.map((h) => String(h.rowId)).sort()).toEqual([edited[0].id, edited[1].id].sort());
    expect(history.every((h) => h.user === "gold@example.com")).toBe(true);
    expect(await db.collection(PLANNING_SAVES).countDocuments({ via: "excel" })).toBe(1);
  });

  it("refuses a negative quantity, a decimal one and a text, and changes nothing", async () => {
    const workbook = await exported();
    const sheet = workbook.worksheets[0];
    const quantity = headerIndex(sheet, "Quantity");
    sheet.getRow(2).getCell(quantity).value = -5;
    sheet.getRow(3).getCell(quantity).value = 10.5;
    sheet.getRow(4).getCell(quantity).value = "muitos";
    const before = await rowsOf();
    const response = await sendBack(workbook);
    const report = await screenReport(response.headers.get("Location")!);
    expect(report?.summary).toBe("0 alterados, 0 conflitos, 3 recusados");
    expect(decodeURIComponent(report!.href!)).toContain(messages.numberNotValid);
    expect(await rowsOf()).toEqual(before);
  });

  it("refuses a file that is not an export of this screen, with a message, and changes nothing", async () => {
    const other = new ExcelJS.Workbook();
    other.addWorksheet("x").addRow(["sku", "valor"]);
    const before = await rowsOf();
    const response = await sendBack(other);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://x");
    expect(location.pathname).toBe("/ij/plan_edit");
    expect(location.searchParams.has("excel")).toBe(false);
    expect(await rowsOf()).toEqual(before);
  });

  it("lets only the screen's users send a file back (another type gets 403)", async () => {
    currentUser.email = "silver@example.com";
    currentUser.type = "USER SILVER";
    const response = await sendBack(await exportedAsGold());
    expect(response.status).toBe(403);
  });
});

async function exportedAsGold(): Promise<ExcelJS.Workbook> {
  const who = { ...currentUser };
  currentUser.type = "USER GOLD";
  const workbook = await exported();
  Object.assign(currentUser, who);
  return workbook;
}

describe("a large edited export sent back (past EXCEL_IMPORT_INLINE_MAX_BYTES)", () => {
  useTempDataDir();
  beforeEach(() => {
    vi.stubEnv("EXCEL_IMPORT_INLINE_MAX_BYTES", "1000");
    resetConfigForTests();
    return () => {
      vi.unstubAllEnvs();
      resetConfigForTests();
    };
  });

  it("returns at once to the screen, which follows the job and then shows the report as after a small file", async () => {
    await grantPermission(db, "gold@example.com", "USER GOLD");
    const workbook = await exported();
    const sheet = workbook.worksheets[0];
    const quantity = headerIndex(sheet, "Quantity");
    const id = String(sheet.getRow(2).getCell(headerIndex(sheet, "_id")).value);
    sheet.getRow(2).getCell(quantity).value = 4321;

    const response = await sendBack(workbook);
    expect(response.status).toBe(302);
    const following = response.headers.get("Location")!;
    const job = new URL(following, "http://x").searchParams.get("excelJob");
    expect(job).toMatch(/^[0-9a-f]{24}$/);
    // Nothing is applied in the request.
    expect((await db.collection(PLANNING_QUANTITY).findOne({ _id: new ObjectId(id) }))?.valor).not.toBe(4321);
    const waiting = (await planEditLoader(args(new Request(`http://localhost${following}`)))) as {
      excel: { job: { running: boolean; message: string } | null };
    };
    expect(waiting.excel.job).toEqual({ running: true, progress: 0, message: "Importando o arquivo Excel… 0%" });

    // Another user cannot follow it.
    currentUser.email = "other.gold@example.com";
    const stranger = (await planEditLoader(args(new Request(`http://localhost${following}`)))) as {
      excel: { job: unknown; report: unknown };
    };
    expect(stranger.excel).toMatchObject({ job: null, report: null });
    currentUser.email = "gold@example.com";

    await processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 });
    const done = await responseOf(planEditLoader(args(new Request(`http://localhost${following}`))));
    expect(done.status).toBe(302);
    const reportAt = done.headers.get("Location")!;
    expect(new URL(reportAt, "http://x").searchParams.get("excel")).toMatch(/^[0-9a-f]{24}$/);
    expect((await screenReport(reportAt))?.summary).toBe("1 alterado, 0 conflitos, 0 recusados");
    expect((await db.collection(PLANNING_QUANTITY).findOne({ _id: new ObjectId(id) }))?.valor).toBe(4321);
  });
});
