import ExcelJS from "exceljs";
import { type Db, ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetPlanning } from "~/features/planning/fixtures";
import { parseFilter } from "~/features/planning/planning";
import { excelTexts } from "~/messages";
import { findFileById } from "~/models/file-jobs.server";
import { PLANNING_HISTORY, PLANNING_QUANTITY } from "~/models/planning.server";
import { saveQuantities } from "~/models/planning-queries.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { roundTripByExportName } from "~/round-trips.server";
import { storeAndRegister, useTempDataDir } from "./upload-fixtures";

/**
 * An edited "Exportar Excel" file sent through /captura/manual instead of its screen: the worker recognises the
 * export by its hidden columns and applies it with the screen's own rules, for the uploader, who must be allowed to
 * save on that screen; the job's message is the screen's outcome and where its list is.
 */

const testDb = useTestDatabase();
useTempDataDir();
let db: Db;

const FILTER = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=attributes&chanel=WHOLESALES&chanel=FSS";
const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 });
const quantities = async () =>
  db
    .collection(PLANNING_QUANTITY)
    .find({}, { projection: { valor: 1 } })
    .sort({ _id: 1 })
    .toArray();

async function exportedWorkbook(): Promise<ExcelJS.Workbook> {
  // The planning screen's export of FILTER, found as the worker finds its way back: in app/round-trips.server.ts.
  const exported = await roundTripByExportName("planning")!.exportXlsx(new URLSearchParams(FILTER));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await exported.arrayBuffer()) as unknown as ArrayBuffer);
  return workbook;
}

function column(sheet: ExcelJS.Worksheet, header: string): number {
  let found = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === header) found = col;
  });
  if (found < 0) throw new Error(`no column ${header}`);
  return found;
}

beforeEach(async () => {
  db = await testDb.db();
  await resetPlanning(db);
  await db.collection(USER_PERMISSIONS).deleteMany({});
  await db.collection(USER_PERMISSIONS).insertMany([
    { user: "gold@example.com", name: "Gold", type: "USER GOLD", stores: [], createdAt: new Date() },
    { user: "bronze@example.com", name: "Bronze", type: "USER BRONZE", stores: [], createdAt: new Date() },
  ]);
});

describe("an edited export uploaded through /captura/manual", () => {
  it("applies the changed quantities as the screen would, lists the row changed meanwhile as a conflict, and says where the list is", async () => {
    const workbook = await exportedWorkbook();
    const sheet = workbook.worksheets[0];
    const quantity = column(sheet, "Quantity");
    const idColumn = column(sheet, "_id");
    const ids = [2, 3, 4].map((n) => String(sheet.getRow(n).getCell(idColumn).value));
    [2, 3, 4].forEach((n, i) => {
      sheet.getRow(n).getCell(quantity).value = 6_000 + i;
    });
    const parsed = parseFilter(new URLSearchParams(FILTER), "plan");
    if (!parsed.ok) throw new Error("filter");
    await saveQuantities({
      user: "silver@example.com",
      screen: "plan_edit",
      filter: parsed.filter,
      edits: [{ id: new ObjectId(ids[2]), revision: 0, valor: 555 }],
    });
    const before = await quantities();

    const { id } = await storeAndRegister(
      "planejamento_editado.xlsx",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "gold@example.com",
    );
    expect(await run()).toMatchObject({ kind: "done", status: 0 });
    const job = await findFileById(id);
    expect(job?.message).toContain("2 alterados, 1 conflito, 0 recusados");
    expect(job?.message).toMatch(/\/ij\/plan_edit\?.*excel=[0-9a-f]{24}/);

    const after = await quantities();
    const changed = after.filter((row, i) => row.valor !== before[i].valor).map((row) => String(row._id));
    expect(changed.sort()).toEqual([ids[0], ids[1]].sort());
    const history = await db.collection(PLANNING_HISTORY).find({ via: "excel" }).toArray();
    expect(history.map((h) => String(h.rowId)).sort()).toEqual([ids[0], ids[1]].sort());
  });

  it("refuses the file of a screen the uploader may not save on, and changes nothing", async () => {
    const workbook = await exportedWorkbook();
    const sheet = workbook.worksheets[0];
    sheet.getRow(2).getCell(column(sheet, "Quantity")).value = 9_999;
    const before = await quantities();
    const { id } = await storeAndRegister(
      "planejamento_bronze.xlsx",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "bronze@example.com",
    );
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect((await findFileById(id))?.message).toBe(excelTexts.excelUploadNotAllowed);
    expect(await quantities()).toEqual(before);
  });
});
