import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { xlsxBomb, zipOf } from "#test/zip-bombs";
import { renderXlsx } from "~/features/reports-and-financial/documents-render.server";
import { DocumentTooLargeError } from "~/features/reports-and-financial/documents-store.server";
import { docxToHtml, xlsxToSheets } from "~/features/reports-and-financial/documents-viewer.server";
import { viewerPageData } from "~/features/reports-and-financial/viewer.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { sweepOrphanUploads } from "~/models/file-jobs.server";
import { buildFpaReport } from "~/models/fpa.server";
import type { LedgerAccount, LedgerRow } from "~/models/ledger.server";
import { parseBrazilianNumber } from "~/models/reports.fields";
import { seedDatabase } from "~/seed/index.server";
import { reportsTexts } from "./texts";

const DOCX_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const DOCX_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOCX_OPEN = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`;
const DOCX_CLOSE = `</w:body></w:document>`;

import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { generateStorageKey, getLocalStore } from "~/services/storage.server";

const testDb = useTestDatabase();
const data = useTempDataDir();
let db: Db;

beforeAll(async () => {
  db = await testDb.db();
  await applyIndexes(db);
  await seedDatabase(db, {
    scale: 0.01,
    referenceDate: new Date("2026-03-01T00:00:00Z"),
    tenantId: "acme",
    bucket: "local",
  });
});

const exists = (key: string) =>
  fs.stat(path.join(data.dir, "uploads", key)).then(
    (s) => s.size > 0,
    () => false,
  );

describe("seeded records have their bytes in the store", () => {
  it("every repository file, report, statement document with a url and fiscal file", async () => {
    const keys: string[] = [];
    for (const f of await db.collection("files").find().toArray()) keys.push(f.originalFile);
    for (const r of await db.collection("reports").find().toArray()) keys.push(r.originalFile);
    for (const s of await db
      .collection("financial_reports")
      .find({ url: { $exists: true } })
      .toArray())
      keys.push(s.originalFile);
    for (const i of await db.collection("fiscal_items").find().toArray()) keys.push(i.worksheet.key, i.document.key);
    expect(keys.length).toBeGreaterThan(80);
    const missing = [];
    for (const key of keys) if (!(await exists(key))) missing.push(key);
    expect(missing).toEqual([]);
    // each format is real: a PDF starts with %PDF-, Office files are zip packages
    const pdf = (await db.collection("reports").findOne({ originalFile: /\.pdf$/ }))!;
    expect((await fs.readFile(path.join(data.dir, "uploads", pdf.originalFile))).subarray(0, 5).toString()).toBe(
      "%PDF-",
    );
    const docx = (await db.collection("reports").findOne({ originalFile: /\.docx$/ }))!;
    expect((await fs.readFile(path.join(data.dir, "uploads", docx.originalFile))).subarray(0, 2).toString()).toBe("PK");
  });

  it("the upload sweeper leaves the portal's own documents alone and still sweeps orphan uploads", async () => {
    const store = getLocalStore();
    const orphan = generateStorageKey("lost.csv");
    await store.putStream(orphan, Readable.from([Buffer.from("x")]), { maxBytes: 10 });
    const report = (await db.collection("reports").findOne())!;
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    await fs.utimes(store.resolve(orphan), old, old);
    await fs.utimes(store.resolve(report.originalFile), old, old);
    const removed = await sweepOrphanUploads();
    expect(removed).toContain(orphan);
    expect(await exists(report.originalFile)).toBe(true);
  });
});

describe("the online viewer's conversions", () => {
  it("reads an XLSX as rows of display text (pt-BR numbers)", async () => {
    const bytes = await renderXlsx({
      title: "Teste",
      lines: ["linha"],
      tables: [
        {
          title: "Plan",
          columns: ["Conta", "Valor"],
          rows: [
            ["Caixa", 1234.5],
            ["Banco", 10],
          ],
        },
      ],
      createdAt: new Date("2026-01-01T00:00:00Z"),
      author: "t",
    });
    const [sheet] = await xlsxToSheets(bytes);
    expect(sheet.name).toBe("Plan");
    expect(sheet.rows).toContainEqual(["Caixa", "1.234,50"]);
    expect(sheet.rows).toContainEqual(["Banco", "10"]);
    expect(sheet.truncated).toBe(false);
  });

  it("shows an XLSX date cell as the day it names, not the evening before in the portal's zone", async () => {
    const workbook = new (await import("exceljs")).default.Workbook();
    workbook.addWorksheet("Datas").addRow(["Vencimento", new Date(Date.UTC(2026, 2, 1))]);
    const [sheet] = await xlsxToSheets(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(sheet.rows).toContainEqual(["Vencimento", "01/03/2026"]);
  });

  it("turns a DOCX into HTML whose links cannot run script", async () => {
    const docx = await import("docx");
    const document = new docx.Document({
      sections: [
        {
          children: [
            new docx.Paragraph({ children: [new docx.TextRun("Relatório <b>mensal</b>")] }),
            new docx.Paragraph({
              children: [
                new docx.ExternalHyperlink({ link: "javascript:alert(1)", children: [new docx.TextRun("perigo")] }),
              ],
            }),
            new docx.Paragraph({
              children: [
                new docx.ExternalHyperlink({ link: "https://example.com/a", children: [new docx.TextRun("site")] }),
              ],
            }),
          ],
        },
      ],
    });
    const html = await docxToHtml(await docx.Packer.toBuffer(document));
    expect(html).toContain("Relatório &lt;b&gt;mensal&lt;/b&gt;");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://example.com/a"');
  });
});

describe("the online viewer and decompression bombs", () => {
  const docxBomb = (paragraphs: number) =>
    zipOf([
      { name: "[Content_Types].xml", bytes: Buffer.from(DOCX_TYPES) },
      { name: "_rels/.rels", bytes: Buffer.from(DOCX_RELS) },
      {
        name: "word/document.xml",
        prefix: DOCX_OPEN,
        repeat: Buffer.from("<w:p><w:r><w:t>bomba</w:t></w:r></w:p>".repeat(1_000)),
        times: paragraphs / 1_000,
        suffix: DOCX_CLOSE,
      },
    ]);

  it("refuses, on its thread, a small XLSX that inflates past the viewer's cap", async () => {
    const bomb = await xlsxBomb({
      extra: [{ name: "xl/media/filler.bin", repeat: Buffer.alloc(1024 * 1024, "a"), times: 256 }],
    });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await expect(xlsxToSheets(bomb)).rejects.toThrow(DocumentTooLargeError);
  });

  it("ends the thread, not the process, when a document needs more memory than the thread has", async () => {
    const rss = process.memoryUsage.rss();
    await expect(docxToHtml(await docxBomb(400_000), { heapMb: 32 })).rejects.toThrow(DocumentTooLargeError);
    expect(await docxToHtml(await docxBomb(1_000))).toContain("<p>bomba</p>");
    expect(process.memoryUsage.rss() - rss).toBeLessThan(400 * 1024 * 1024);
  });

  it("says on the viewer page that the file is too large to preview (no 500)", async () => {
    const key = generateStorageKey("bomba.xlsx");
    const bomb = await xlsxBomb({
      extra: [{ name: "xl/media/filler.bin", repeat: Buffer.alloc(1024 * 1024, "a"), times: 256 }],
    });
    await getLocalStore().putStream(key, Readable.from([bomb]), { maxBytes: 1e9 });
    const page = await viewerPageData({
      _id: "r1",
      bucket: "local",
      originalFile: key,
      originalName: "bomba.xlsx",
      url: "/x",
    });
    expect(page).toMatchObject({ content: null, error: reportsTexts.viewerTooLarge });
  });
});

describe("rules with numbers", () => {
  it("reads Brazilian numbers: dot thousands, comma decimals, 2 decimals; empty is 0", () => {
    expect(parseBrazilianNumber("1.234.567,89")).toBe(1234567.89);
    expect(parseBrazilianNumber("-10")).toBe(-10);
    expect(parseBrazilianNumber("1234,555")).toBe(1234.56);
    expect(parseBrazilianNumber("")).toBe(0);
    expect(parseBrazilianNumber("1,234.56")).toBeNull();
    expect(parseBrazilianNumber("12abc")).toBeNull();
    // A point that cannot group thousands is a decimal point, on every entry (docs/decisions.md "Texts and language").
    expect(parseBrazilianNumber("1.23")).toBe(1.23);
    expect(parseBrazilianNumber("1.23.4")).toBeNull();
    expect(parseBrazilianNumber("(1.234,50)")).toBe(-1234.5);
  });

  it("FP&A variances: year to date and month against prior year, previous month and forecast", () => {
    const accounts: LedgerAccount[] = [
      {
        _id: "1.1",
        description: "1.1 - Caixa",
        category1: "Current Assets",
        category2: "Cash",
        category3: "Caixa",
        workingCapital: false,
        fiscal: false,
        order: 1,
      },
      {
        _id: "1.2",
        description: "1.2 - Banco",
        category1: "Current Assets",
        category2: "Cash",
        category3: "Banco",
        workingCapital: false,
        fiscal: false,
        order: 2,
      },
    ];
    const jan = new Date(Date.UTC(2026, 0, 1));
    const feb = new Date(Date.UTC(2026, 1, 1));
    const row = (account: string, month: Date, actual: number, priorYear: number, forecast: number): LedgerRow => ({
      businessUnitID: "2236",
      account,
      month,
      actual,
      priorYear,
      forecast,
    });
    const ytd = [
      row("1.1", jan, 100, 90, 110),
      row("1.2", jan, 50, 40, 50),
      row("1.1", feb, 120, 100, 100),
      row("1.2", feb, 60, 70, 0),
    ];
    const report = buildFpaReport(accounts, feb, ytd.slice(2), ytd.slice(0, 2), ytd);
    const caixa = report.variances.find((r) => r.id === "1.1")!;
    expect(caixa).toMatchObject({ priorY: 220 - 190, rfY: 220 - 210, priorM: 20, rfM: 20, actualRF: 20 });
    const banco = report.variances.find((r) => r.id === "1.2")!;
    expect(banco.actualRF).toBeNull(); // forecast 0
    const cash = report.variances.find((r) => r.id === "c2:Current Assets/Cash")!;
    expect(cash).toMatchObject({ type: "step", priorM: 30, rfM: 80, actualRF: 80 });
    const current = report.current.find((r) => r.id === "c1:Current Assets")!;
    expect(current).toMatchObject({ type: "step", parentId: null, actual: 180, priorY: 170, priorM: 150, rf_n: 100 });
    expect(report.current.find((r) => r.id === "1.2")).toMatchObject({
      type: "row",
      parentId: "c2:Current Assets/Cash",
    });
  });
});
