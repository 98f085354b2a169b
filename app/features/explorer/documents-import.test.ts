import { Document, Packer, Paragraph } from "docx";
import PDFDocument from "pdfkit";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { storeUpload } from "#test/uploads";
import { docxBomb, pdfBomb, SST_OPEN, xlsxBomb } from "#test/zip-bombs";
import { applyIndexes } from "~/models/all-indexes.server";
import { EXPLORER_DOCUMENTS, EXPLORER_TERMS, searchExplorer, uploadedDocumentId } from "~/models/explorer.server";
import { parseSearch } from "~/models/explorer-search";
import { findFileById } from "~/models/file-jobs.server";
import type { FileTarget } from "~/models/files.fields";
import { MAX_DOCUMENT_CHARS } from "~/platform/import/document-text.server";
import { documentTitle } from "~/platform/import/documents.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { action as documentAction, loader as documentLoader } from "~/routes/ij.explorer_.$id";
import { getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
useTempDataDir();

const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 10 });

async function upload(originalName: string, content: Buffer | string, target?: FileTarget) {
  // The default uploader as an explorer reader who may upload.
  return storeUpload(originalName, content, { grant: "USER SILVER", target });
}

function pdfBuffer(pages: string[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    pages.forEach((text, i) => {
      if (i > 0) doc.addPage();
      if (text) doc.text(text);
    });
    doc.end();
  });
}

const docxBuffer = (paragraphs: string[]) =>
  Packer.toBuffer(new Document({ sections: [{ children: paragraphs.map((p) => new Paragraph(p)) }] }));

async function titlesFound(text: string, exact = false): Promise<string[]> {
  const query = parseSearch(text, exact);
  if (!query) return [];
  const page = await searchExplorer(query, { page: 1, pageSize: 20 });
  return page.items.map((item) => item.title.map((s) => s.text).join(""));
}

beforeAll(async () => {
  await applyIndexes(await testDb.db());
});

beforeEach(() => {
  currentUser.type = "USER EXPLORER";
});

describe("explorer documents uploaded through /captura/manual", () => {
  it("extracts a PDF's text (every page) and indexes it where the explorer's search finds it", async () => {
    const { id, key } = await upload(
      "Relatório_de_manutenção.pdf",
      await pdfBuffer(["Manutenção preventiva dos inversores solares.", "Segunda página: turbinas eólicas."]),
    );
    const outcome = await run();
    expect(outcome).toMatchObject({ kind: "done", status: 0 });
    const file = await findFileById(id);
    expect(file).toMatchObject({
      status: 0,
      progress: 100,
      target: "explorer",
      message: expect.stringMatching(/^Documento indexado no Explorer: "Relatório de manutenção"/),
    });
    expect(await titlesFound("inversores")).toEqual(["Relatório de manutenção"]);
    expect(await titlesFound("turbinas eolicas")).toEqual(["Relatório de manutenção"]);
    expect(await titlesFound("manutenções")).toContain("Relatório de manutenção"); // plural finds the singular, as for seeded documents

    const stored = await (await testDb.db())
      .collection(EXPLORER_DOCUMENTS)
      .findOne({ _id: uploadedDocumentId("Relatório_de_manutenção.pdf") });
    expect(stored).toMatchObject({
      title: "Relatório de manutenção",
      source: "Captura manual",
      category: "PDF",
      originalName: "Relatório_de_manutenção.pdf",
      file: { bucket: LOCAL_BUCKET, key, name: "Relatório_de_manutenção.pdf" },
      sourceFileId: id,
      user: "ana@example.com",
    });
    // The same search fields the seed writes
    expect(stored?.searchText).toContain("manutencao preventiva dos inversores solares");
    expect(stored?.words).toEqual(expect.arrayContaining(["inversores", "turbinas"]));
    expect(stored?.stems).toEqual(expect.arrayContaining(["inversor"]));
    expect(
      await (await testDb.db()).collection<{ _id: string }>(EXPLORER_TERMS).findOne({ _id: "inversores" }),
    ).toMatchObject({ n: 1 });
  });

  it("extracts DOCX, XLSX (every sheet), TXT (Latin-1) and CSV documents", async () => {
    await upload(
      "ata.docx",
      await docxBuffer(["Ata da reunião de planejamento.", "Decisão: ampliar o centro de distribuição."]),
    );
    await upload(
      "metas.xlsx",
      await xlsxBuffer([
        ["Filial", "Meta"],
        ["Campinas", 1200],
        ["Sorocaba", new Date(Date.UTC(2025, 0, 31))],
      ]),
      "explorer",
    );
    await upload("nota.txt", Buffer.from("Comunicado sobre a campanha de fidelização.", "latin1"), "explorer");
    await upload("lojas.csv", "loja;cidade\nLoja Centro;Piracicaba\n", "explorer");
    for (let i = 0; i < 4; i++) expect(await run()).toMatchObject({ status: 0 });

    expect(await titlesFound("centro distribuição")).toEqual(["ata"]);
    expect(await titlesFound("Sorocaba")).toEqual(["metas"]);
    expect(await titlesFound("fidelização")).toEqual(["nota"]);
    expect(await titlesFound("Piracicaba")).toEqual(["lojas"]);
    const db = await testDb.db();
    const metas = await db.collection(EXPLORER_DOCUMENTS).findOne({ _id: uploadedDocumentId("metas.xlsx") });
    expect(metas).toMatchObject({ category: "Excel" });
    expect(metas?.body).toContain("Campinas | 1200");
    expect(metas?.body).toContain("Sorocaba | 2025-01-31");
    expect((await db.collection(EXPLORER_DOCUMENTS).findOne({ _id: uploadedDocumentId("nota.txt") }))?.body).toBe(
      "Comunicado sobre a campanha de fidelização.",
    );
  });

  it("replaces the document of a file name uploaded again (same address; the old words are gone)", async () => {
    await upload("circular.txt", "Circular sobre férias coletivas.", "explorer");
    await run();
    await upload("circular.txt", "Circular sobre o novo uniforme.", "explorer");
    const outcome = await run();
    expect(outcome).toMatchObject({
      status: 0,
      message: expect.stringMatching(/^Documento substituído no Explorer: "circular"/),
    });
    expect(await titlesFound("uniforme")).toEqual(["circular"]);
    expect(await titlesFound("coletivas")).toEqual([]);
    const db = await testDb.db();
    expect(await db.collection(EXPLORER_DOCUMENTS).countDocuments({ originalName: "circular.txt" })).toBe(1);
    expect(await db.collection<{ _id: string }>(EXPLORER_TERMS).findOne({ _id: "coletivas" })).toBeNull();
    expect(await db.collection<{ _id: string }>(EXPLORER_TERMS).findOne({ _id: "uniforme" })).toMatchObject({ n: 1 });
  });

  it("keeps the file for download from the document page; a seeded document has none", async () => {
    const { key } = await upload("politica.txt", "Política de viagens corporativas.", "explorer");
    await run();
    const id = uploadedDocumentId("politica.txt").toHexString();
    const page = (await documentLoader({
      request: new Request(`http://localhost/ij/explorer/${id}?search=viagens`),
      params: { id },
      context: {} as never,
    })) as unknown as {
      data: { document: { fileName: string | null; body: Array<{ text: string; match: boolean }> } };
    };
    expect(page.data.document.fileName).toBe("politica.txt");
    expect(page.data.document.body.filter((s) => s.match).map((s) => s.text)).toEqual(["viagens"]);

    const form = new FormData();
    form.append("intent", "download");
    form.append("mode", "fetch");
    const answer = (await documentAction({
      request: new Request(`http://localhost/ij/explorer/${id}`, { method: "POST", body: form }),
      params: { id },
      context: {} as never,
    })) as unknown as {
      data: { ok: boolean; url?: string };
    };
    expect(answer.data).toMatchObject({ ok: true, url: expect.stringMatching(/^\/download\//) });
    expect(getLocalStore().resolve(key)).toBeTruthy();

    const seeded = (
      await (
        await testDb.db()
      )
        .collection(EXPLORER_DOCUMENTS)
        .insertOne({ title: "Sem arquivo", body: "x", source: "Intranet", category: "Vendas", date: new Date() })
    ).insertedId.toHexString();
    const refused = (await documentAction({
      request: new Request(`http://localhost/ij/explorer/${seeded}`, { method: "POST", body: form }),
      params: { id: seeded },
      context: {} as never,
    })) as unknown as {
      data: { ok: boolean; error?: string };
      init?: { status?: number };
    };
    expect(refused.data).toMatchObject({ ok: false, error: "Ocorreu um erro ao fazer o download." });
    expect(refused.init?.status).toBe(404);
  });

  it("ends with status 3 and indexes nothing for a PDF without text, a broken PDF or DOCX", async () => {
    const db = await testDb.db();
    const before = await db.collection(EXPLORER_DOCUMENTS).countDocuments();
    const blank = await upload("digitalizado.pdf", await pdfBuffer([""]));
    await run();
    expect(await findFileById(blank.id)).toMatchObject({
      status: 3,
      progress: 100,
      message: expect.stringMatching(/^Nenhum texto encontrado/),
    });
    const broken = await upload("quebrado.pdf", "isto não é um PDF");
    await run();
    expect(await findFileById(broken.id)).toMatchObject({
      status: 3,
      message: expect.stringMatching(/^Não foi possível ler o documento: PDF inválido/),
    });
    const badDocx = await upload("quebrado.docx", "PK nada");
    await run();
    expect(await findFileById(badDocx.id)).toMatchObject({
      status: 3,
      message: expect.stringMatching(/^Não foi possível ler o documento/),
    });
    expect(await db.collection(EXPLORER_DOCUMENTS).countDocuments()).toBe(before);
  });

  it("cuts a very long text (and says so); without the choice a CSV is still a data spreadsheet", async () => {
    const long = `${"palavra ".repeat(MAX_DOCUMENT_CHARS / 8)}finalzinho`;
    const { id } = await upload("longo.txt", long, "explorer");
    await run();
    expect((await findFileById(id))?.message).toMatch(/O texto foi cortado em 500\.000 caracteres\.$/);
    expect(await titlesFound("finalzinho")).toEqual([]);

    const data = await upload("nomes.csv", "nome;idade\nAna;30\n");
    await run();
    expect(await findFileById(data.id)).toMatchObject({ target: "data", status: 2 });
  });

  it("titles a document by its file name", () => {
    expect(documentTitle("Plano_anual__2026.final.pdf")).toBe("Plano anual 2026.final");
    expect(documentTitle(".pdf")).toBe(".pdf");
  });
});

describe("explorer documents and decompression bombs", () => {
  // Each bomb is a file of a few MB whose parts inflate past a gigabyte: read whole, it would exhaust the heap (a fatal
  // error that ends the process, not an exception).
  const refusedInflated = "Documento recusado: o conteúdo descompactado passa de 100 MB; nada foi indexado.";

  async function refusesThenGoesOn(name: string, bomb: Buffer, target?: FileTarget) {
    const db = await testDb.db();
    const before = await db.collection(EXPLORER_DOCUMENTS).countDocuments();
    const { id } = await upload(name, bomb, target);
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect(await findFileById(id)).toMatchObject({ status: 3, progress: 100, message: refusedInflated });
    expect(await db.collection(EXPLORER_DOCUMENTS).countDocuments()).toBe(before);
    // The process goes on: the next document is read and indexed
    const stem = name.split(".")[0];
    const next = await upload(`depois_${stem}.docx`, await docxBuffer([`Inventário ${stem} conferido.`]));
    expect(await run()).toMatchObject({ status: 0 });
    expect(await findFileById(next.id)).toMatchObject({ status: 0 });
    expect(await titlesFound(stem)).toEqual([`depois ${stem}`]);
  }

  it("refuses a DOCX whose body inflates to hundreds of megabytes", async () => {
    const bomb = await docxBomb(12_000_000); // word/document.xml of 470 MB: 48 million elements once parsed
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    await refusesThenGoesOn("bombadocx.docx", bomb);
  });

  it("refuses an XLSX whose shared strings inflate past a gigabyte", async () => {
    const strings = Buffer.from(`<si><t>${"bomba ".repeat(1_000)}</t></si>`.repeat(170));
    const sst = { name: "xl/sharedStrings.xml", prefix: SST_OPEN, repeat: strings, times: 1_100, suffix: "</sst>" };
    const bomb = await xlsxBomb({ sharedStrings: sst }); // 1.1 GB of shared strings, which exceljs keeps
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    await refusesThenGoesOn("bombaxlsx.xlsx", bomb, "explorer");
  });

  it("refuses a PDF whose content stream inflates past a gigabyte", async () => {
    const bomb = await pdfBomb(1_100); // one string of 1.1 GB, which PDF.js decodes whole and lexes onto the heap
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    await refusesThenGoesOn("bombapdf.pdf", bomb);
  });

  it("stops, at the thread's memory, a PDF bomb the count of zlib streams cannot see (hex-encoded)", async () => {
    const { id } = await upload("bombahex.pdf", await pdfBomb(1_100, { hex: true }));
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect(await findFileById(id)).toMatchObject({
      status: 3,
      message: "Documento recusado: extrair o texto exige mais de 256 MB de memória; nada foi indexado.",
    });
    const next = await upload("depois_bombahex.txt", "Inventário bombahex conferido.", "explorer");
    expect(await run()).toMatchObject({ status: 0 });
    expect(await findFileById(next.id)).toMatchObject({ status: 0 });
  });
});
