import ExcelJS from "exceljs";
import { type Db, ObjectId } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { workbookPost } from "#test/uploads";
import { excelTexts } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { EXCEL_IMPORTS } from "~/models/excel-imports.server";
import {
  CHANNEL,
  MASTER_DATA_COLLECTIONS,
  MASTER_DATA_HISTORY,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { saveMasterDataEdits } from "~/models/master-data-edits.server";
import { loader as channelExcelLoader } from "~/routes/repo.master-data.canal.excel";
import { loader as productExcelLoader } from "~/routes/repo.master-data.excel";
import { loader as planningLoader } from "~/routes/repo.master-data.planejamento";
import {
  action as planningExcelAction,
  loader as planningExcelLoader,
} from "~/routes/repo.master-data.planejamento.excel";
import { masterDataTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The master-data lists' Excel round trip: every row of the filter (all pages) with the screen's columns, and an edited
 * export sent back that applies only the changed cells with the import template's rules, refuses rows changed since
 * the export (both values) and records each change "via Excel".
 */

const testDb = useTestDatabase();
let db: Db;
const args = (request: Request) => ({ request, params: {}, context: {} as never });
const f = masterDataTexts.masterDataFields;

const VALID_CNPJS = ["11222333000181", "11444777000161", "45723174000110"];

function product(i: number, urlPath = "2030/01/products.csv") {
  return {
    _id: new ObjectId(`${"6".padEnd(16, "0")}${i.toString(16).padStart(8, "0")}`),
    sku: `SKU${String(i).padStart(4, "0")}`,
    material_description: `Produto ${i}`,
    marca: "Alpha",
    category_sku: "Cat",
    categoria_principal_sku: "Principal",
    sub_categoria_sku: "Sub",
    hero: i % 2 === 0 ? "hero" : "non-hero",
    abcd: "A",
    plc_local: "2-Active",
    plc_global: "Active",
    data_validade_sku: new Date(Date.UTC(2027, i % 12, 1)),
    urlPath,
    sourceFileId: null,
    creationDate: new Date("2030-01-05T10:00:00Z"),
  };
}

async function workbookOf(response: Response): Promise<ExcelJS.Worksheet> {
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

/** The sheet row of the record `id` (the hidden _id column). */
const rowOf = (sheet: ExcelJS.Worksheet, id: ObjectId) => {
  const idColumn = columnOf(sheet, "_id");
  let found = -1;
  sheet.eachRow((row, n) => {
    if (row.getCell(idColumn).value === id.toHexString()) found = n;
  });
  return sheet.getRow(found);
};

const QUANTITY = "/repo/master-data/planejamento/excel?tab=quantity";

async function exportQuantity(): Promise<ExcelJS.Worksheet> {
  return workbookOf((await planningExcelLoader(args(new Request(`http://localhost${QUANTITY}`)))) as Response);
}

async function sendBack(sheet: ExcelJS.Worksheet, path = QUANTITY): Promise<Response> {
  return responseOf(
    planningExcelAction(args(await workbookPost(sheet.workbook, `http://localhost${path}`, "produtos.xlsx"))),
  );
}

async function reportAfter(response: Response) {
  const location = response.headers.get("Location")!;
  expect(location).toMatch(/^\/repo\/master-data\/planejamento\?/);
  const data = await planningLoader(args(new Request(`http://localhost${location}`)));
  return data.excel.report;
}

beforeEach(async () => {
  db = await testDb.db();
  await applyIndexes(db);
  for (const name of [PRODUCT_MASTER, PRODUCT_MASTER_NOK, CHANNEL, MASTER_DATA_HISTORY, EXCEL_IMPORTS])
    await db.collection(name).deleteMany({});
  currentUser.email = "gold@example.com";
  currentUser.type = "USER GOLD";
});

describe("Exportar Excel on the master-data lists", () => {
  it("writes every row of the filter, all pages, with the screen's columns, dates as dates and the hidden id and revision", async () => {
    await db
      .collection(PRODUCT_MASTER)
      .insertMany([
        ...Array.from({ length: 45 }, (_, i) => product(i + 1)),
        ...Array.from({ length: 5 }, (_, i) => product(100 + i, "2030/02/other.csv")),
      ]);
    const sheet = await exportQuantity();
    expect(sheet.actualRowCount - 1).toBe(50);
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers.slice(0, 12)).toEqual([
      f.sku,
      f.material_description,
      f.marca,
      f.category_sku,
      f.categoria_principal_sku,
      f.sub_categoria_sku,
      f.hero,
      f.abcd,
      f.plc_local,
      f.plc_global,
      f.data_validade_sku,
      f.urlPath,
    ]);
    expect(headers).toEqual(expect.arrayContaining(["_id", "_rev", "_orig"]));
    const row = rowOf(sheet, product(7)._id);
    expect(row.getCell(columnOf(sheet, f.sku)).value).toBe("SKU0007");
    expect(row.getCell(columnOf(sheet, f.data_validade_sku)).value).toEqual(new Date(Date.UTC(2027, 7, 1)));
    expect(sheet.getColumn(columnOf(sheet, "_id")).hidden).toBe(true);
    expect(sheet.getColumn(columnOf(sheet, "_rev")).hidden).toBe(true);

    // Narrowed to one file: exactly its rows, in its line order.
    const narrowed = await workbookOf(
      (await planningExcelLoader(
        args(new Request(`http://localhost${QUANTITY}&file=2030%2F02%2Fother.csv`)),
      )) as Response,
    );
    expect(narrowed.actualRowCount - 1).toBe(5);
    expect(narrowed.getRow(2).getCell(1).value).toBe("SKU0100");
  });

  it("exports the channel list of the Channel tab", async () => {
    await db.collection(CHANNEL).insertMany(
      VALID_CNPJS.map((cnpj, i) => ({
        cnpj,
        description: `Loja ${i}`,
        channel_siop: "WHOLESALES",
        urlPath: "c.csv",
        sourceFileId: null,
      })),
    );
    const sheet = await workbookOf(
      (await channelExcelLoader(
        args(new Request("http://localhost/repo/master-data/canal/excel?tab=channel")),
      )) as Response,
    );
    expect(sheet.actualRowCount - 1).toBe(3);
    expect(columnOf(sheet, f.cnpj)).toBe(1);
  });
});

describe("Exportar Excel on /repo/master-data (the catalogue's collections)", () => {
  it("exports the chosen collection with the catalogue's columns; a collection outside the catalogue is a 404", async () => {
    await db.collection(MASTER_DATA_COLLECTIONS).deleteMany({});
    await db.collection(MASTER_DATA_COLLECTIONS).insertMany([
      {
        collection_name: PRODUCT_MASTER,
        label_name: "Product",
        collection_ok: 1,
        order: 1,
        fields: [{ sku: "SKU" }, { data_validade_sku: "Fim" }],
      },
      {
        collection_name: CHANNEL,
        label_name: "Channel",
        collection_ok: 1,
        order: 2,
        fields: [{ cnpj: "CNPJ" }, { channel_siop: "SIOP" }],
      },
    ]);
    await db.collection(CHANNEL).insertMany(
      VALID_CNPJS.map((cnpj) => ({
        cnpj,
        description: "x",
        channel_siop: "FSS",
        urlPath: "c.csv",
        sourceFileId: null,
      })),
    );
    const sheet = await workbookOf(
      (await productExcelLoader(
        args(new Request("http://localhost/repo/master-data/excel?base=ok&collection=channel")),
      )) as Response,
    );
    expect((sheet.getRow(1).values as unknown[]).slice(1, 3)).toEqual(["CNPJ", "SIOP"]);
    expect(sheet.actualRowCount - 1).toBe(3);
    const unknown = await productExcelLoader(
      args(new Request("http://localhost/repo/master-data/excel?collection=users")),
    ).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Response);
    expect((unknown as Response).status).toBe(404);
  });
});

describe("An edited export sent back", () => {
  it("applies two edits, refuses the row changed since the export with both values, records history via Excel, changes nothing else", async () => {
    await db.collection(PRODUCT_MASTER).insertMany(Array.from({ length: 30 }, (_, i) => product(i + 1)));
    const sheet = await exportQuantity();
    const [a, b, c] = [product(3), product(12), product(25)];
    rowOf(sheet, a._id).getCell(columnOf(sheet, f.material_description)).value = "Produto três editado";
    rowOf(sheet, b._id).getCell(columnOf(sheet, f.data_validade_sku)).value = new Date(Date.UTC(2029, 0, 1));
    rowOf(sheet, c._id).getCell(columnOf(sheet, f.marca)).value = "Beta";

    // Meanwhile, in another session, someone changes row c.
    await saveMasterDataEdits(
      PRODUCT_MASTER,
      [{ id: c._id, fields: [{ field: "marca", old: "Alpha", value: "Gama" }] }],
      "other@example.com",
      new Date(),
      "excel",
    );
    const before = await db
      .collection(PRODUCT_MASTER)
      .find({ _id: { $nin: [a._id, b._id] } })
      .sort({ _id: 1 })
      .toArray();

    const response = await sendBack(sheet);
    expect(response.status).toBe(302);
    const report = await reportAfter(response);
    expect(report?.summary).toBe(excelTexts.excelSummary(2, 1, 0));
    const csv = decodeURIComponent(report!.href!.replace(/^data:text\/csv;charset=utf-8,/, ""));
    expect(csv).toContain("Beta");
    expect(csv).toContain("Gama");
    expect(csv).toContain("other@example.com");

    expect(await db.collection(PRODUCT_MASTER).findOne({ _id: a._id })).toMatchObject({
      material_description: "Produto três editado",
      updatedBy: "gold@example.com",
    });
    expect(await db.collection(PRODUCT_MASTER).findOne({ _id: b._id })).toMatchObject({
      data_validade_sku: new Date(Date.UTC(2029, 0, 1)),
    });
    expect(
      await db
        .collection(PRODUCT_MASTER)
        .find({ _id: { $nin: [a._id, b._id] } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual(before);

    const history = await db
      .collection(MASTER_DATA_HISTORY)
      .find({ user: "gold@example.com" })
      .sort({ field: 1 })
      .toArray();
    expect(history.map((h) => [String(h.rowId), h.field, h.old, h.new, h.via])).toEqual([
      [String(b._id), "data_validade_sku", b.data_validade_sku, new Date(Date.UTC(2029, 0, 1)), "excel"],
      [String(a._id), "material_description", "Produto 3", "Produto três editado", "excel"],
    ]);
  });

  it("refuses a value the import template refuses, and a changed locked column; nothing changes", async () => {
    await db.collection(PRODUCT_MASTER).insertMany(Array.from({ length: 5 }, (_, i) => product(i + 1)));
    const sheet = await exportQuantity();
    rowOf(sheet, product(2)._id).getCell(columnOf(sheet, f.hero)).value = "talvez";
    rowOf(sheet, product(3)._id).getCell(columnOf(sheet, f.sku)).value = "SKU 3!";
    rowOf(sheet, product(4)._id).getCell(columnOf(sheet, f.urlPath)).value = "outro.csv";
    const before = await db.collection(PRODUCT_MASTER).find().sort({ _id: 1 }).toArray();

    const report = await reportAfter(await sendBack(sheet));
    expect(report?.summary).toBe(excelTexts.excelSummary(0, 0, 3));
    const csv = decodeURIComponent(report!.href!.replace(/^data:text\/csv;charset=utf-8,/, ""));
    expect(csv).toContain("hero ou non-hero");
    expect(csv).toContain("apenas letras e dígitos");
    expect(csv).toContain(masterDataTexts.masterDataExcelLockedColumn(f.urlPath));
    expect(await db.collection(PRODUCT_MASTER).find().sort({ _id: 1 }).toArray()).toEqual(before);
    expect(await db.collection(MASTER_DATA_HISTORY).countDocuments()).toBe(0);
  });

  it("normalizes as an upload would (hero in capitals is the stored hero: no change)", async () => {
    await db.collection(PRODUCT_MASTER).insertMany([product(2)]);
    const sheet = await exportQuantity();
    rowOf(sheet, product(2)._id).getCell(columnOf(sheet, f.hero)).value = "HERO";
    const report = await reportAfter(await sendBack(sheet));
    expect(report?.summary).toBe(excelTexts.excelSummary(0, 0, 0));
  });

  it("takes nothing back on a NOK tab, and a file of another tab is refused", async () => {
    await db.collection(PRODUCT_MASTER_NOK).insertOne({
      sku: "X",
      _lineNumber: 2,
      urlPath: "n.csv",
      timeStamp: new Date(),
      Error: "erro",
      sourceFileId: null,
    });
    await db.collection(PRODUCT_MASTER).insertMany([product(1)]);
    const nok = await workbookOf(
      (await planningExcelLoader(
        args(new Request("http://localhost/repo/master-data/planejamento/excel?tab=quantity_nok")),
      )) as Response,
    );
    expect(nok.actualRowCount - 1).toBe(1);
    const refusedNok = await sendBack(nok, "/repo/master-data/planejamento/excel?tab=quantity_nok");
    expect(refusedNok.status).toBe(302);
    expect(refusedNok.headers.get("Location")).not.toContain("excel=");

    const sheet = await exportQuantity();
    const otherTab = await sendBack(sheet, "/repo/master-data/planejamento/excel?tab=spend");
    expect(otherTab.headers.get("Location")).toMatch(/tab=spend/);
    expect(otherTab.headers.get("Location")).not.toContain("excel=");
  });

  it("writes a moment as the screen shows it (the portal's date and time), a day as a date cell", async () => {
    // 05:04:09 UTC is 02:04:09 in São Paulo.
    await db.collection(PRODUCT_MASTER_NOK).insertOne({
      sku: "X",
      _lineNumber: 2,
      urlPath: "n.csv",
      timeStamp: new Date("2026-11-29T05:04:09Z"),
      Error: "erro",
      sourceFileId: null,
    });
    const nok = await workbookOf(
      (await planningExcelLoader(
        args(new Request("http://localhost/repo/master-data/planejamento/excel?tab=quantity_nok")),
      )) as Response,
    );
    const screen = await planningLoader(
      args(new Request("http://localhost/repo/master-data/planejamento?tab=quantity_nok")),
    );
    expect(JSON.stringify(screen)).toContain("29 nov 26 02:04:09");
    expect(nok.getRow(2).getCell(columnOf(nok, f.timeStamp)).value).toBe("29 nov 26 02:04:09");

    await db.collection(PRODUCT_MASTER).insertMany([product(7)]);
    const valid = await exportQuantity();
    const validity = rowOf(valid, product(7)._id).getCell(columnOf(valid, f.data_validade_sku));
    expect(validity.value).toEqual(new Date(Date.UTC(2027, 7, 1)));
    expect(validity.numFmt).toBe("dd/mm/yyyy");
  });

  it("offers the export on the screen, and the import only on the valid bases", async () => {
    await db.collection(PRODUCT_MASTER).insertMany([product(1)]);
    const data = await planningLoader(
      args(new Request("http://localhost/repo/master-data/planejamento?tab=quantity&file=x.csv")),
    );
    expect(data.excel.exportHref).toBe("/repo/master-data/planejamento/excel?tab=quantity&file=x.csv");
    expect(data.excel.canImport).toBe(true);
    const nok = await planningLoader(
      args(new Request("http://localhost/repo/master-data/planejamento?tab=quantity_nok")),
    );
    expect(nok.excel.canImport).toBe(false);
  });
});
