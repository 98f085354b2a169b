import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import {
  CHANNEL,
  CHANNEL_NOK,
  MASTER_DATA_COLLECTIONS,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import {
  columnsOf,
  findCatalogueEntry,
  formatCell,
  getBasePage,
  listMasterDataCollections,
  MASTER_DATA_PAGE_SIZE,
  nokBasesOfFiles,
  pageParam,
} from "~/models/master-data-queries.server";

const testDb = useTestDatabase();

async function expectStatus(promise: Promise<unknown> | (() => unknown), status: number) {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(status);
    return;
  }
  throw new Error(`expected a ${status} Response to be thrown`);
}

describe("master-data queries", () => {
  it("lists the catalogue in dropdown order and leaves out names outside the allowed list", async () => {
    const db = await testDb.db();
    await db.collection(MASTER_DATA_COLLECTIONS).insertMany([
      {
        collection_name: PRODUCT_MASTER_NOK,
        label_name: "Produto NOK",
        collection_ok: 0,
        fields: [{ sku: "SKU" }],
        order: 2,
      },
      { collection_name: PRODUCT_MASTER, label_name: "Produto", collection_ok: 1, fields: [{ sku: "SKU" }], order: 1 },
      { collection_name: "users", label_name: "Usuários", collection_ok: 1, fields: [{ user: "User" }], order: 0 },
    ]);
    const list = await listMasterDataCollections();
    expect(list.map((c) => c.collection_name)).toEqual([PRODUCT_MASTER, PRODUCT_MASTER_NOK]);
    expect(list[1].collection_ok).toBe(0);
    expect(findCatalogueEntry(list, PRODUCT_MASTER).label_name).toBe("Produto");
    await expectStatus(() => findCatalogueEntry(list, "users"), 404);
    await expectStatus(() => findCatalogueEntry(list, CHANNEL), 404);
  });

  it("pages 20 rows newest first with skip = (page - 1) * 20, counts the whole base, and answers the last page past the end", async () => {
    const db = await testDb.db();
    const rows = Array.from({ length: 45 }, (_, i) => ({
      sku: `SKU-${String(i).padStart(3, "0")}`,
      marca: "A",
      urlPath: "seed",
    }));
    await db.collection(PRODUCT_MASTER).insertMany(rows);
    const first = await getBasePage(PRODUCT_MASTER, 1);
    expect(first.count).toBe(45);
    expect(first.pageSize).toBe(MASTER_DATA_PAGE_SIZE);
    expect(first.rows).toHaveLength(20);
    expect(first.rows[0].cells.sku).toBe("SKU-044");
    expect(first.rows[0].id).toMatch(/^[0-9a-f]{24}$/);
    const third = await getBasePage(PRODUCT_MASTER, 3, [{ key: "sku", header: "SKU" }]);
    expect(third.rows.map((r) => r.cells.sku)).toEqual(["SKU-004", "SKU-003", "SKU-002", "SKU-001", "SKU-000"]);
    expect(third.rows[0].cells).toEqual({ sku: "SKU-004" });
    const beyond = await getBasePage(PRODUCT_MASTER, 9);
    expect(beyond.page).toBe(3);
    expect(beyond.rows.map((r) => r.cells.sku)).toEqual(["SKU-004", "SKU-003", "SKU-002", "SKU-001", "SKU-000"]);
    expect(beyond.count).toBe(45);
  });

  it("finds the NOK base holding each file's rejected rows", async () => {
    const db = await testDb.db();
    await db.collection(PRODUCT_MASTER_NOK).insertOne({ sku: "X", urlPath: "2030/05/a.csv" });
    await db.collection(CHANNEL_NOK).insertOne({ urlPath: "2030/05/b.csv" });
    const found = await nokBasesOfFiles(["2030/05/a.csv", "2030/05/b.csv", "2030/05/c.csv"]);
    expect(Object.fromEntries(found)).toEqual({ "2030/05/a.csv": PRODUCT_MASTER_NOK, "2030/05/b.csv": CHANNEL_NOK });
    expect((await nokBasesOfFiles([])).size).toBe(0);
  });

  it("answers an empty base with no rows and a zero count", async () => {
    const page = await getBasePage(CHANNEL, 1);
    expect(page).toMatchObject({ rows: [], count: 0, page: 1 });
  });

  it("refuses a collection outside the list with a 404 before reading anything", async () => {
    const db = await testDb.db();
    await db.collection("users").insertOne({ user: "secret@example.com" });
    await expectStatus(getBasePage("users", 1), 404);
    await expectStatus(getBasePage("product_master; drop", 1), 404);
    await expectStatus(getBasePage("__proto__", 1), 404);
  });

  it("reads the catalogue fields as columns and skips malformed ones", () => {
    expect(
      columnsOf([
        { sku: "SKU" },
        { data_validade_sku: "Global Forecast End Date" },
        { a: "1", b: "2" },
        { $where: "x" },
      ]),
    ).toEqual([
      { key: "sku", header: "SKU" },
      { key: "data_validade_sku", header: "Global Forecast End Date" },
    ]);
  });

  it("formats cells and page numbers", () => {
    expect(formatCell(new Date(Date.UTC(2024, 0, 31)))).toBe("31/01/2024");
    // A timestamp in the portal's zone (America/Sao_Paulo, UTC−3); a midnight-UTC date is a calendar day.
    expect(formatCell(new Date(Date.UTC(2024, 0, 31, 13, 5, 9)))).toBe("31 jan 24 10:05:09");
    expect(formatCell(null)).toBe("");
    expect(formatCell(12)).toBe("12");
    expect(pageParam.parse("3")).toBe(3);
    expect(pageParam.parse("0")).toBe(1);
    expect(pageParam.parse("-2")).toBe(1);
    expect(pageParam.parse("abc")).toBe(1);
    expect(pageParam.parse("1e3")).toBe(1);
    expect(pageParam.parse("2.5")).toBe(1);
    expect(pageParam.parse("")).toBe(1);
    expect(pageParam.parse(undefined)).toBe(1);
  });
});
