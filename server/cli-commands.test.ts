import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { grantPermission, NON_EXAMPLE_CELL, useTempDataDir } from "#test/upload-fixtures";
import { masterDataTexts } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { FILES } from "~/models/files.server";
import { CHANNEL, PRODUCT_MASTER, PRODUCT_MASTER_NOK } from "~/models/master-data.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import { TEMPLATE_CATALOG } from "../app/platform/import/catalog.server";
import { exportCommand } from "./cli-export";
import { CLI_UPLOADER, importCommand } from "./cli-import";
import { UsageError } from "./cli-support";

/** The operator's import and export commands, called as the CLI calls them, on the embedded server. */

const testDb = useTestDatabase();
useTempDataDir();
let work = "";
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "jp-cli-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});
beforeEach(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  for (const name of [FILES, PRODUCT_MASTER, PRODUCT_MASTER_NOK, CHANNEL]) await db.collection(name).deleteMany({});
});

const PRODUCT_HEADER =
  "sku;material_description;marca;category_sku;categoria_principal_sku;sub_categoria_sku;hero;abcd;plc_local;plc_global;data_validade_sku";
const productLine = (sku: string, hero = "hero") =>
  `${sku};Produto ${sku};Alpha;Cat;Principal;Sub;${hero};A;2-Active;Active;2027-06-01`;

async function writeFile(name: string, content: string): Promise<string> {
  const file = path.join(work, name);
  await fs.writeFile(file, content);
  return file;
}

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => lines.push(line) };
}

describe("portal import <file>", () => {
  it("stores the file, processes it as an upload would, shows progress and ends OK with exit code 0", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => productLine(`SKU${i}`));
    const file = await writeFile("produtos.csv", [PRODUCT_HEADER, ...rows].join("\n"));
    const out = capture();
    const { code, result } = await importCommand([file], out.print, { progressIntervalMs: 20 });
    expect(code).toBe(0);
    expect(result.status).toBe(0);
    expect(out.lines.at(-1)).toBe("OK: 50 linhas OK, 0 NOK");
    expect(out.lines.join("\n")).toMatch(/Registered job [0-9a-f]{24}/);
    const db = await testDb.db();
    expect(await db.collection(PRODUCT_MASTER).countDocuments()).toBe(50);
    const job = await db.collection(FILES).findOne({});
    expect(job).toMatchObject({
      originalName: "produtos.csv",
      user: CLI_UPLOADER,
      status: 0,
      progress: 100,
      message: "50 linhas OK, 0 NOK",
    });
    // The stored copy is what the worker read.
    expect(job!.bucket).toBe("local");
  });

  it("shows the percentage and the rows read while the file is processed", async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => productLine(`P${i}`));
    const file = await writeFile("grande.csv", [PRODUCT_HEADER, ...rows].join("\n"));
    const out = capture();
    const { code } = await importCommand([file], out.print, { progressIntervalMs: 25 });
    expect(code).toBe(0);
    expect(out.lines.some((l) => /^\s*\d{1,2}% · Processando: [\d.]+ linhas lidas$/.test(l))).toBe(true);
    expect(out.lines.at(-1)).toBe("OK: 10.000 linhas OK, 0 NOK");
  });

  it("exits 1 with the NOK count when rows were refused, and with the reason when the file was refused", async () => {
    const file = await writeFile(
      "misto.csv",
      [PRODUCT_HEADER, productLine("A1"), productLine("A2", "talvez")].join("\n"),
    );
    const out = capture();
    await grantPermission(await testDb.db(), "ops@example.com", "USER BRONZE");
    const mixed = await importCommand([file, "--user", "Ops@Example.com"], out.print, { progressIntervalMs: 20 });
    expect(mixed.code).toBe(1);
    expect(out.lines.at(-1)).toBe("NOK: 1 linha OK, 1 NOK");
    const db = await testDb.db();
    expect(await db.collection(PRODUCT_MASTER_NOK).countDocuments()).toBe(1);
    expect(await db.collection(FILES).findOne({ originalName: "misto.csv" })).toMatchObject({
      user: "ops@example.com",
    });

    const unknown = await writeFile("outro.csv", "a;b;c\n1;2;3\n");
    const refused = capture();
    const result = await importCommand([unknown], refused.print, { progressIntervalMs: 20 });
    expect(result.code).toBe(1);
    expect(result.result.status).not.toBe(0);
    expect(refused.lines.at(-1)).toMatch(/^NOK: Layout não reconhecido/);
  });

  it("loads with the rights of --user as the worker finds them, and with the operator's own without it", async () => {
    const info = TEMPLATE_CATALOG.find((t) => t.id === "planning_quantity")!;
    // The template's example row with one value changed (the example itself is ignored by every upload).
    const cell = (name: string, example: string | number) =>
      NON_EXAMPLE_CELL.planning_quantity[name] ?? String(example);
    const csv = [
      info.columns.map((c) => c.name).join(";"),
      info.columns.map((c) => cell(c.name, c.example)).join(";"),
    ].join("\n");
    const file = await writeFile("plano.csv", csv);
    const db = await testDb.db();
    await db.collection(PLANNING_QUANTITY).deleteMany({});
    await grantPermission(db, "bronze@example.com", "USER BRONZE");
    const refused = capture();
    const asBronze = await importCommand([file, "--user", "bronze@example.com"], refused.print, {
      progressIntervalMs: 20,
    });
    expect(asBronze.code).toBe(1);
    expect(refused.lines.at(-1)).toBe("NOK: Você não tem permissão para carregar Planejamento – quantidades");
    expect(await db.collection(PLANNING_QUANTITY).countDocuments()).toBe(0);

    const asOperator = await importCommand([file], capture().print, { progressIntervalMs: 20 });
    expect(asOperator.code).toBe(0);
    expect(await db.collection(PLANNING_QUANTITY).countDocuments()).toBe(1);
  });

  it("refuses bad usage before storing anything", async () => {
    const file = await writeFile("p.csv", `${PRODUCT_HEADER}\n${productLine("X1")}\n`);
    await expect(importCommand([], () => {})).rejects.toThrow(UsageError);
    await expect(importCommand([file, "--user", "not-an-email"], () => {})).rejects.toThrow(
      /--user must be an e-mail address/,
    );
    await expect(importCommand([file, "--target", "nothing"], () => {})).rejects.toThrow(/--target must be one of/);
    await expect(importCommand([file, "--fast"], () => {})).rejects.toThrow(/unknown option --fast/);
    await expect(importCommand([path.join(work, "missing.csv")], () => {})).rejects.toThrow(/no such file/);
    const exe = await writeFile("p.exe", "MZ");
    await expect(importCommand([exe], () => {})).rejects.toThrow(/p\.exe/);
    expect(await (await testDb.db()).collection(FILES).countDocuments()).toBe(0);
  });
});

describe("portal export <dataset> [filter]", () => {
  const channels = [
    {
      cnpj: "11222333000181",
      description: "Loja; Centro",
      channel_siop: "WHOLESALES",
      urlPath: "a.csv",
      sourceFileId: null,
    },
    { cnpj: "11444777000161", description: "Loja Sul", channel_siop: "FSS", urlPath: "a.csv", sourceFileId: null },
    { cnpj: "45723174000110", description: "Loja Norte", channel_siop: "FSS", urlPath: "b.csv", sourceFileId: null },
  ];

  it("writes the rows of the filter as XLSX with the hidden id and revision, or as CSV by the file's extension", async () => {
    await (await testDb.db()).collection(CHANNEL).insertMany(channels.map((c) => ({ ...c })));
    const xlsx = path.join(work, "canais.xlsx");
    const notes = capture();
    await exportCommand(["channel", "file=a.csv", "--out", xlsx], { note: notes.print, stdout: process.stdout });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx);
    const sheet = workbook.worksheets[0];
    expect(sheet.actualRowCount - 1).toBe(2);
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(expect.arrayContaining([masterDataTexts.masterDataFields.cnpj, "_id", "_rev"]));
    expect(notes.lines.at(-1)).toMatch(/^Exported channel \(file=a\.csv\) as XLSX to .*canais\.xlsx/);

    const csv = path.join(work, "canais.csv");
    await exportCommand(["channel", "--out", csv], { note: () => {}, stdout: process.stdout });
    const text = await fs.readFile(csv, "utf8");
    const lines = text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(["CNPJ", "Descrição", "Canal SIOP", "Arquivo"].join(";"));
    expect(lines).toHaveLength(4);
    expect(text).toContain('"Loja; Centro"');
    expect(text).not.toContain("_id");
  });

  it("writes text a spreadsheet would run as a formula as text in the CSV, and numbers as numbers", async () => {
    await (await testDb.db()).collection(CHANNEL).insertMany([
      {
        cnpj: "1",
        description: '=HYPERLINK("http://evil.test","x")',
        channel_siop: "+55 11 5555",
        urlPath: "f.csv",
        sourceFileId: null,
      },
      {
        cnpj: "2",
        description: "@SUM(A1:A9)",
        channel_siop: "-2+3+cmd|' /C calc'!A0",
        urlPath: "f.csv",
        sourceFileId: null,
      },
      { cnpj: "3", description: -1234.5, channel_siop: "-1.234,56", urlPath: "f.csv", sourceFileId: null },
      { cnpj: "4", description: "- item", channel_siop: "\t=1+1", urlPath: "f.csv", sourceFileId: null },
    ]);
    const csv = path.join(work, "formulas.csv");
    await exportCommand(["channel", "--out", csv], { note: () => {}, stdout: process.stdout });
    const lines = (await fs.readFile(csv, "utf8"))
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n")
      .slice(1)
      .sort();
    expect(lines).toEqual([
      `1;"'=HYPERLINK(""http://evil.test"",""x"")";'+55 11 5555;f.csv`,
      "2;'@SUM(A1:A9);'-2+3+cmd|' /C calc'!A0;f.csv",
      // A plain negative number stays a number, as in the NOK CSV (numeric cells are never escaped: app/shared/csv.ts).
      "3;-1234.5;-1.234,56;f.csv",
      "4;'- item;'\t=1+1;f.csv",
    ]);
  });

  it("writes to stdout when no --out is given", async () => {
    await (await testDb.db()).collection(CHANNEL).insertMany(channels.map((c) => ({ ...c })));
    const chunks: Buffer[] = [];
    const stdout = new Writable({
      write(chunk, _enc, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    const notes = capture();
    await exportCommand(["channel", "--format", "csv"], { note: notes.print, stdout });
    expect(Buffer.concat(chunks).toString("utf8")).toContain("11444777000161;Loja Sul;FSS;a.csv");
    expect(notes.lines.at(-1)).toMatch(/to stdout/);
  });

  it("exports planning with the screen's filter fields, and refuses a bad dataset, field or filter with a clear message", async () => {
    const out = path.join(work, "plan.xlsx");
    await exportCommand(["planning", "chanel=ONLINE_PARTNERS&dateStart=2026-01-01", "--out", out], {
      note: () => {},
      stdout: process.stdout,
    });
    expect((await fs.stat(out)).size).toBeGreaterThan(0);
    const io = { note: () => {}, stdout: process.stdout };
    await expect(exportCommand(["nothing"], io)).rejects.toThrow(/the dataset must be one of planning, forecast, hr/);
    await expect(exportCommand(["planning", "color=red", "--out", out], io)).rejects.toThrow(
      /unknown filter field "color" for planning/,
    );
    await expect(exportCommand(["planning", "dateStart=2026-01-01", "--out", out], io)).rejects.toThrow(
      /invalid planning filter: chanel/,
    );
    await expect(exportCommand(["planning", "chanel=TV", "--out", out], io)).rejects.toThrow(/invalid planning filter/);
    await expect(exportCommand(["forecast", "rf=RF9-2026", "--out", out], io)).rejects.toThrow(
      /invalid forecast filter: cost_center_concat/,
    );
    await expect(exportCommand(["hr", "filial=Nenhuma", "--out", out], io)).rejects.toThrow(
      /invalid hr filter: no branch "Nenhuma"/,
    );
    await expect(exportCommand(["hr", "filial=X", "mes_inicio=2026-13", "--out", out], io)).rejects.toThrow(
      /invalid hr filter/,
    );
    await expect(exportCommand(["channel", "file=a.csv", "file=b.csv", "--out", out], io)).rejects.toThrow(
      /given more than once/,
    );
    await expect(exportCommand(["channel", "--out", path.join(work, "x.pdf")], io)).rejects.toThrow(
      /--out must name a \.xlsx or \.csv file/,
    );
    await expect(exportCommand(["channel", "--out", out, "--format", "csv"], io)).rejects.toThrow(/does not match/);
    await expect(
      exportCommand(["channel"], {
        note: () => {},
        stdout: Object.assign(new Writable({ write: (_c, _e, d) => d() }), { isTTY: true }),
      }),
    ).rejects.toThrow(/not written to a terminal/);
  });
});
