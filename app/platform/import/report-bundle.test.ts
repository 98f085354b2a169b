import { Readable } from "node:stream";
import JSZip from "jszip";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { grantPermission, TEST_UPLOADER, useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { storeUpload } from "#test/uploads";
import { zipOf as bombZip } from "#test/zip-bombs";
import { applyIndexes } from "~/models/all-indexes.server";
import { findFileById, registerFile } from "~/models/file-jobs.server";
import { findReport, listReportsPage, REPORTS, REPORTS_NOK } from "~/models/reports.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import {
  generateStorageKey,
  getLocalStore,
  LOCAL_BUCKET,
  objectUrlPath,
  storedObjectState,
} from "~/services/storage.server";
import { parseCompetencyMonth, parseOrigin } from "./report-bundle.server";

const testDb = useTestDatabase();
useTempDataDir();

const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 10 });

async function upload(originalName: string, content: Buffer | string, user = "carla@example.com") {
  // The reports area's writers (USER GOLD) publish packages.
  return storeUpload(originalName, content, { user, grant: "USER GOLD", target: "reports" });
}

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

const list = (name: string, origin: "automatico" | "manual" = "manual") =>
  listReportsPage({ name, origin, from: null, to: null }, 1);
const month = (y: number, m: number) => new Date(Date.UTC(y, m - 1, 1));

async function readStored(key: string): Promise<string> {
  const { stream } = await getLocalStore().openReadStream(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  await applyIndexes(await testDb.db());
});

describe("report packages uploaded through /captura/manual", () => {
  it("applies a good package: each row becomes a report whose file is stored, listed and downloadable", async () => {
    const manifest = [
      "name;origin;dateRef;file",
      "Sell-out Pacote;manual;2025-03;arquivos/sellout.pdf",
      "Estoque Pacote;automático;04/2025;arquivos/estoque.xlsx",
      "Notas Pacote;;2025-05-15;notas.txt",
    ].join("\n");
    const { id } = await upload(
      "pacote.zip",
      await zipOf({
        "relatorios.csv": manifest,
        "arquivos/sellout.pdf": "%PDF-1.4 sellout",
        "arquivos/estoque.xlsx": "xlsx bytes",
        "notas.txt": "notas",
      }),
    );
    const outcome = await run();
    expect(outcome).toMatchObject({ kind: "done", status: 0, message: "3 relatórios incluídos, 0 substituídos" });
    expect(await findFileById(id)).toMatchObject({ target: "reports", status: 0, progress: 100 });

    const manual = await list("pacote");
    expect(manual.items.map((r) => [r.name, r.originalName, r.user, r.hasUrl])).toEqual(
      expect.arrayContaining([
        ["Sell-out Pacote", "sellout.pdf", "carla@example.com", true],
        ["Notas Pacote", "notas.txt", "carla@example.com", false], // TXT: download only (the viewer opens PDF, XLSX, DOCX)
      ]),
    );
    expect(manual.total).toBe(2);
    const automatic = await list("estoque pacote", "automatico");
    expect(automatic.items).toHaveLength(1);
    expect(automatic.items[0]).toMatchObject({ name: "Estoque Pacote", dateRef: month(2025, 4) });

    const record = await findReport(manual.items.find((r) => r.name === "Sell-out Pacote")!.id);
    expect(record).toMatchObject({
      dateRef: month(2025, 3),
      bucket: LOCAL_BUCKET,
      nameKey: "sell-out pacote",
      sourceFileId: id,
      url: objectUrlPath(LOCAL_BUCKET, record!.originalFile),
    });
    expect(record!.originalFile).toMatch(/^documents\/reports\/[0-9a-f]{24}\/1-[0-9a-f-]{36}\.pdf$/);
    expect(record!.createdDate).toEqual(record!.statusChangeDate);
    expect(await readStored(record!.originalFile)).toBe("%PDF-1.4 sellout");
    expect(await (await testDb.db()).collection(REPORTS_NOK).countDocuments({ sourceFileId: id })).toBe(0);
  });

  it("replaces an entry of the same name, origin and month (its old file removed); reads an XLSX manifest in a folder", async () => {
    const first = await upload(
      "v1.zip",
      await zipOf({
        "relatorios.csv": "name,dateRef,file\nMargem Pacote,2025-06,margem.pdf\n",
        "margem.pdf": "versao 1",
      }),
    );
    await run();
    const before = await findReport((await list("margem pacote")).items[0].id);
    const manifest = await xlsxBuffer([
      ["Name", "DATEREF", "File", "origin"],
      ["Margem Pacote", new Date(Date.UTC(2025, 5, 1)), "margem.pdf", "Manual"],
      ["Ruptura Pacote", "2025-07", "sub/ruptura.docx", "manual"],
    ]);
    await upload(
      "v2.zip",
      await zipOf({
        "pacote/relatorios.xlsx": manifest,
        "pacote/margem.pdf": "versao 2",
        "pacote/sub/ruptura.docx": "docx",
      }),
      "dora@example.com",
    );
    expect(await run()).toMatchObject({ status: 0, message: "1 relatório incluído, 1 substituído" });

    const after = await list("margem pacote");
    expect(after.total).toBe(1);
    const record = await findReport(after.items[0].id);
    expect(record).toMatchObject({ _id: before!._id, user: "dora@example.com", createdDate: before!.createdDate });
    expect(record!.statusChangeDate.getTime()).toBeGreaterThanOrEqual(before!.statusChangeDate.getTime());
    expect(await readStored(record!.originalFile)).toBe("versao 2");
    expect(await storedObjectState(LOCAL_BUCKET, before!.originalFile)).toBe("missing");
    expect((await list("ruptura")).items[0]).toMatchObject({ originalName: "ruptura.docx", hasUrl: true });
    expect(first.id).toBeDefined();
  });

  it("refuses a package with broken rows: nothing applied, each refused row in reports_nok with its line and Error", async () => {
    const db = await testDb.db();
    const count = await db.collection(REPORTS).countDocuments();
    const manifest = [
      "name;origin;dateRef;file",
      "Bom Quebrado;manual;2025-01;ok.pdf",
      ";talvez;13/2025;ok.exe",
      "Fora Quebrado;manual;2031-01;ok.pdf",
      "Bom Quebrado;manual;2025-01-20;ok.pdf",
    ].join("\n");
    const { id } = await upload("quebrado.zip", await zipOf({ "relatorios.csv": manifest, "ok.pdf": "pdf" }));
    const outcome = await run();
    expect(outcome).toMatchObject({ status: 3, okRows: 0, nokRows: 3 });
    const file = await findFileById(id);
    expect(file?.message).toMatch(
      /^Pacote recusado, nada foi aplicado: 3 de 4 linhas com erro\. Linha 3: Coluna name: valor "" inválido; campo obrigatório/,
    );
    expect(await db.collection(REPORTS).countDocuments()).toBe(count);
    const nok = await db.collection(REPORTS_NOK).find({ sourceFileId: id }).sort({ _lineNumber: 1 }).toArray();
    expect(nok.map((r) => r._lineNumber)).toEqual([3, 4, 5]);
    expect(nok[0]).toMatchObject({
      name: "",
      origin: "talvez",
      dateRef: "13/2025",
      file: "ok.exe",
      urlPath: objectUrlPath(LOCAL_BUCKET, (await findFileById(id))!.originalFile),
    });
    expect(String(nok[0].Error).split(" | ")).toEqual([
      'Coluna name: valor "" inválido; campo obrigatório',
      'Coluna origin: valor "talvez" inválido; esperado automatico ou manual (vazio: manual)',
      'Coluna dateRef: valor "13/2025" inválido; esperado um mês de competência entre 12/1950 e 12/2030 (AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)',
      'Coluna file: valor "ok.exe" inválido; formato de arquivo não aceito; esperado pdf, xlsx, xls, docx, csv, txt',
    ]);
    expect(nok[1].Error).toMatch(/^Coluna dateRef: valor "2031-01" inválido/);
    expect(nok[2].Error).toBe(
      'Coluna name: valor "Bom Quebrado" inválido; mesmo nome, origem e competência da linha 2',
    );
    expect((await list("bom quebrado")).total).toBe(0);
    // Nothing was stored for the package
    expect(await db.collection(REPORTS).countDocuments({ sourceFileId: id })).toBe(0);
  });

  it("refuses a package whose manifest names a missing file", async () => {
    const db = await testDb.db();
    const count = await db.collection(REPORTS).countDocuments();
    const { id } = await upload(
      "faltando.zip",
      await zipOf({
        "relatorios.csv": "name;dateRef;file\nPresente Falta;2025-02;a.pdf\nAusente Falta;2025-02;b.pdf\n",
        "a.pdf": "a",
      }),
    );
    expect(await run()).toMatchObject({ status: 3 });
    expect((await findFileById(id))?.message).toContain(
      'Linha 3: Coluna file: valor "b.pdf" inválido; arquivo não encontrado no pacote',
    );
    expect(await db.collection(REPORTS).countDocuments()).toBe(count);
    expect((await list("falta")).total).toBe(0);
  });

  it("ends empty, manifest-less, column-less and non-ZIP packages with a readable message", async () => {
    const empty = await upload("vazio.zip", await zipOf({ "relatorios.csv": "name;origin;dateRef;file\n" }));
    await run();
    expect(await findFileById(empty.id)).toMatchObject({
      status: 2,
      message: expect.stringMatching(/^Manifesto vazio/),
    });
    const none = await upload("sem.zip", await zipOf({ "leia-me.txt": "x" }));
    await run();
    expect(await findFileById(none.id)).toMatchObject({
      status: 2,
      message: expect.stringMatching(/^Pacote sem manifesto/),
    });
    const columns = await upload("colunas.zip", await zipOf({ "relatorios.csv": "nome;mes\nA;2025-01\n" }));
    await run();
    expect(await findFileById(columns.id)).toMatchObject({
      status: 2,
      message: expect.stringMatching(/^Manifesto sem as colunas name, dateRef, file/),
    });
    const notZip = await upload("falso.zip", "isto não é um zip");
    await run();
    expect(await findFileById(notZip.id)).toMatchObject({
      status: 3,
      message: expect.stringMatching(/^O pacote de relatórios deve ser um arquivo ZIP/),
    });
  });

  it("reads competency months and origins as people write them", () => {
    expect(parseCompetencyMonth("2025-03")).toEqual(month(2025, 3));
    expect(parseCompetencyMonth("3/2025")).toEqual(month(2025, 3));
    expect(parseCompetencyMonth("15/03/2025")).toEqual(month(2025, 3));
    expect(parseCompetencyMonth(new Date(Date.UTC(2025, 2, 31)))).toEqual(month(2025, 3));
    expect(parseCompetencyMonth("1950-12")).toEqual(month(1950, 12));
    for (const bad of ["2025-13", "00/2025", "1950-11", "2031-01", "março", ""])
      expect(parseCompetencyMonth(bad)).toBeNull();
    expect(parseOrigin("Automático")).toBe("automatico");
    expect(parseOrigin(" ")).toBe("manual");
    expect(parseOrigin("auto")).toBeNull();
  });
});

describe("report packages: decompression bombs", () => {
  // Loaded by an uploader the upload rights admit (a report package needs upload rights).
  const upload = async (name: string, content: Buffer) => {
    await grantPermission(await testDb.db(), TEST_UPLOADER, "SYSTEM ADMIN");
    const key = generateStorageKey(name);
    await getLocalStore().putStream(key, Readable.from([content]), { maxBytes: 1e9 });
    const id = await registerFile({
      originalName: name,
      key,
      bucket: LOCAL_BUCKET,
      user: TEST_UPLOADER,
      target: "reports",
    });
    return { id, key };
  };

  it("refuses a manifest that inflates to hundreds of MB, reading no more of it than the cap (status 3)", async () => {
    // 300 MB of 4 KB lines: fewer rows than the row cap within the first 16 MB.
    const lines = Buffer.from(`Bomba;manual;2025-03;${"a".repeat(4_096 - 22)}\n`.repeat(256));
    const bomb = await bombZip([
      { name: "relatorios.csv", prefix: "name;origin;dateRef;file\n", repeat: lines, times: 300 },
    ]);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const { id } = await upload("bomba.zip", bomb);
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect(await findFileById(id)).toMatchObject({
      status: 3,
      progress: 100,
      message: "Arquivo recusado: relatorios.csv descompactado passa de 16 MB.",
    });
  });

  it("refuses a manifest of more rows than the cap", async () => {
    const line = Buffer.from("Linha;manual;2025-03;a.pdf\n");
    const bomb = await bombZip([
      { name: "relatorios.csv", prefix: "name;origin;dateRef;file\n", repeat: line, times: 20_000 },
    ]);
    const { id } = await upload("linhas.zip", bomb);
    await run();
    expect(await findFileById(id)).toMatchObject({
      status: 3,
      message: "Arquivo recusado: a planilha passa de 10.000 linhas.",
    });
  });
});
