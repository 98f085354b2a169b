import fs from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import mammoth from "mammoth";
import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import {
  ensureStatements,
  StatementGenerationError,
} from "~/features/reports-and-financial/documents-statements.server";
import { documentSink } from "~/features/reports-and-financial/documents-store.server";
import { FINANCIAL_REPORTS } from "~/models/financial.server";
import type { LedgerRow } from "~/models/ledger.server";
import { getLocalStore } from "~/services/storage.server";
import { LAST_CLOSED, ptBr, seedLedger } from "./test-helpers";

const testDb = useTestDatabase();
const data = useTempDataDir();
let db: Db;
let ledger: LedgerRow[];

beforeAll(async () => {
  db = await testDb.db();
  ({ ledger } = await seedLedger(db));
});

const rowsOf = (unit: string, month: Date) =>
  ledger.filter((r) => r.businessUnitID === unit && r.month.getTime() === month.getTime());

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const e of getLocalStore().list()) keys.push(e.key);
  return keys;
}

describe("financial statements from the ledger", () => {
  it("generates Word and Excel holding the ledger's figures for the unit and month, stores and records them", async () => {
    const key = { businessUnitID: "4664" as const, type: "MONTHLY" as const, dateRef: LAST_CLOSED };
    const result = await ensureStatements(key, "gold@example.com");
    expect(result.kind).toBe("generated");
    if (result.kind === "no-data") throw new Error("unreachable");
    expect(result.records.map((r) => r.typeDocument).sort()).toEqual(["DOCX", "XLSX"]);
    const month = rowsOf("4664", LAST_CLOSED);
    const inventories = month.find((r) => r.account === "1.1.03.001")!;
    const otherUnit = rowsOf("2236", LAST_CLOSED).find((r) => r.account === "1.1.03.001")!;

    // Excel, parsed back: the account's row carries its actual and prior-year balances as numbers.
    const xlsx = result.records.find((r) => r.typeDocument === "XLSX")!;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await fs.readFile(path.join(data.dir, "uploads", xlsx.originalFile))) as unknown as ArrayBuffer,
    );
    const sheet = workbook.worksheets[0];
    const values: unknown[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    const line = values.find((v) => typeof v[0] === "string" && v[0].includes("1.1.03.001"))!;
    expect(line.slice(1, 3)).toEqual([inventories.actual, inventories.priorYear]);
    expect(values.flat()).not.toContain(otherUnit.actual);
    const assets = month.filter((r) => r.account.startsWith("1.")).reduce((s, r) => s + r.actual, 0);
    const totals = values
      .filter((v) => v[0] === "Current Assets" || v[0] === "No-current Assets")
      .reduce((s, v) => s + Number(v[1]), 0);
    expect(totals).toBeCloseTo(assets, 2);
    expect(values.flat()).toContain("Company: 4664");

    // Word, parsed back: the same figures, pt-BR formatted.
    const docx = result.records.find((r) => r.typeDocument === "DOCX")!;
    const text = (
      await mammoth.extractRawText({ buffer: await fs.readFile(path.join(data.dir, "uploads", docx.originalFile)) })
    ).value;
    expect(text).toContain("Company: 4664");
    expect(text).toContain(ptBr(inventories.actual));
    expect(text).toContain(ptBr(inventories.priorYear));
    expect(text).toContain(
      `Period: ${String(LAST_CLOSED.getUTCMonth() + 1).padStart(2, "0")}/${LAST_CLOSED.getUTCFullYear()}`,
    );
  });

  it("serves the recorded statements the next time without regenerating", async () => {
    const key = { businessUnitID: "4664" as const, type: "MONTHLY" as const, dateRef: LAST_CLOSED };
    const before = await storedKeys();
    const first = await db.collection(FINANCIAL_REPORTS).find({ businessUnitID: "4664" }).toArray();
    const again = await ensureStatements(key, "someone@example.com", {
      render: {
        xlsx: () => Promise.reject(new Error("must not render")),
        docx: () => Promise.reject(new Error("must not render")),
      },
    });
    expect(again.kind).toBe("found");
    expect(await storedKeys()).toEqual(before);
    expect(
      (await db.collection(FINANCIAL_REPORTS).find({ businessUnitID: "4664" }).toArray()).map((r) => String(r._id)),
    ).toEqual(first.map((r) => String(r._id)));
  });

  it("an annual statement shows the year's latest closed month", async () => {
    const year = LAST_CLOSED.getUTCFullYear();
    const result = await ensureStatements(
      { businessUnitID: "2236", type: "ANNUAL", dateRef: new Date(Date.UTC(year, 0, 1)) },
      "gold@example.com",
    );
    if (result.kind === "no-data") throw new Error("expected documents");
    const docx = result.records.find((r) => r.typeDocument === "DOCX")!;
    const text = (
      await mammoth.extractRawText({ buffer: await fs.readFile(path.join(data.dir, "uploads", docx.originalFile)) })
    ).value;
    const cash = rowsOf("2236", LAST_CLOSED).find((r) => r.account === "1.1.01.002")!;
    expect(text).toContain(`Period: ${year}`);
    expect(text).toContain(ptBr(cash.actual));
  });

  it("has nothing for a period without ledger rows, and writes nothing", async () => {
    const before = await db.collection(FINANCIAL_REPORTS).countDocuments();
    const early = new Date(Date.UTC(LAST_CLOSED.getUTCFullYear() - 1, LAST_CLOSED.getUTCMonth() - 6, 1)); // before 9311's ledger
    expect(
      await ensureStatements({ businessUnitID: "9311", type: "MONTHLY", dateRef: early }, "gold@example.com"),
    ).toEqual({ kind: "no-data" });
    expect(await db.collection(FINANCIAL_REPORTS).countDocuments()).toBe(before);
  });

  it("a failure while generating or storing removes what was stored and records nothing", async () => {
    const key = { businessUnitID: "5454" as const, type: "MONTHLY" as const, dateRef: LAST_CLOSED };
    const before = await storedKeys();
    const real = await documentSink();
    let puts = 0;
    const failingSecond = {
      ...real,
      put: async (k: string, b: Buffer, c: string) =>
        ++puts === 2 ? Promise.reject(new Error("disk full")) : real.put(k, b, c),
    };
    await expect(ensureStatements(key, "gold@example.com", { sink: failingSecond })).rejects.toBeInstanceOf(
      StatementGenerationError,
    );
    await expect(
      ensureStatements(key, "gold@example.com", {
        render: {
          xlsx: () => Promise.reject(new Error("boom")),
          docx: (await import("~/features/reports-and-financial/documents-render.server")).renderDocx,
        },
      }),
    ).rejects.toBeInstanceOf(StatementGenerationError);
    expect(await db.collection(FINANCIAL_REPORTS).countDocuments({ businessUnitID: "5454" })).toBe(0);
    expect(await storedKeys()).toEqual(before);
  });
});
