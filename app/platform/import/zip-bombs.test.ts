import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FileRefusedError, readXlsxRows, XLSX_LIMITS, type XlsxLimits } from "xlsx-reader";
import { useTestDatabase } from "#test/db";
import { storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { SHEET_CLOSE, SHEET_OPEN, SST_OPEN, xlsxBomb } from "#test/zip-bombs";
import { FILE_STATUS_UNREADABLE, findFileById } from "~/models/file-jobs.server";
import { processNextJob } from "~/platform/import/worker-loop.server";

useTestDatabase();
useTempDataDir();

const MB = 1024 * 1024;
const block = (text: string, bytes = MB) => Buffer.from(text.repeat(Math.ceil(bytes / text.length)).slice(0, bytes));

async function readAll(buffer: Buffer, limits?: XlsxLimits) {
  const rows = [];
  for await (const row of readXlsxRows(Readable.from([buffer]), limits)) rows.push(row);
  return rows;
}

describe("readXlsxRows: decompression bombs", () => {
  it("reads a small workbook as before", async () => {
    expect(await readAll(await xlsxBomb())).toEqual([{ line: 1, cells: ["ok"] }]);
  });

  it("refuses a small file whose shared strings inflate to 256 MB of one text, before holding it", async () => {
    const bomb = await xlsxBomb({
      sharedStrings: {
        name: "",
        prefix: `${SST_OPEN}<si><t>`,
        repeat: block("a"),
        times: 256,
        suffix: "</t></si></sst>",
      },
    });
    expect(bomb.length).toBeLessThan(2 * MB);
    const heap = process.memoryUsage().heapUsed;
    await expect(readAll(bomb)).rejects.toThrow(FileRefusedError);
    await expect(readAll(bomb)).rejects.toThrow(
      "Arquivo recusado: um texto ou marcação do XML da planilha passa de 1 MB.",
    );
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(100 * MB);
  });

  it("refuses a package whose parts inflate past the cap, counted as they come out of the inflater", async () => {
    // 64 MB of a part exceljs does not even parse, against a cap of 32 MB.
    const bomb = await xlsxBomb({ extra: [{ name: "xl/media/filler.bin", repeat: block("<b/>"), times: 64 }] });
    await expect(readAll(bomb, { ...XLSX_LIMITS, inflatedBytes: 32 * MB })).rejects.toThrow(
      "Arquivo recusado: o conteúdo descompactado passa de 32 MB.",
    );
    expect(await readAll(bomb)).toHaveLength(1);
  });

  it("refuses shared strings past their byte cap and past their count", async () => {
    const many = await xlsxBomb({
      sharedStrings: {
        name: "",
        prefix: SST_OPEN,
        repeat: Buffer.from("<si><t>abc</t></si>".repeat(1_000)),
        times: 10,
        suffix: "</sst>",
      },
    });
    await expect(readAll(many, { ...XLSX_LIMITS, sharedStringBytes: (2 * MB) / 32 })).rejects.toThrow(
      "(sharedStrings.xml) passa de 0 MB",
    );
    await expect(readAll(many, { ...XLSX_LIMITS, sharedStrings: 1_000 })).rejects.toThrow(
      "Arquivo recusado: a planilha passa de 1.000 textos distintos.",
    );
    expect(await readAll(many)).toHaveLength(1);
  });

  it("refuses rows and columns past the caps", async () => {
    const wide = await xlsxBomb({
      sheetRows: {
        name: "",
        bytes: Buffer.from(`${SHEET_OPEN}<row r="1"><c r="A1"><v>1</v></c><c r="E1"><v>1</v></c></row>${SHEET_CLOSE}`),
      },
    });
    await expect(readAll(wide, { ...XLSX_LIMITS, columns: 3 })).rejects.toThrow(
      "Arquivo recusado: a planilha passa de 3 colunas.",
    );
    const deep = await xlsxBomb({
      sheetRows: {
        name: "",
        bytes: Buffer.from(`${SHEET_OPEN}<row r="1048577"><c r="A1048577"><v>1</v></c></row>${SHEET_CLOSE}`),
      },
    });
    await expect(readAll(deep)).rejects.toThrow("Arquivo recusado: a planilha passa de 1.048.576 linhas.");
    const fifty = Array.from({ length: 50 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>1</v></c></row>`).join(
      "",
    );
    const rows = await xlsxBomb({ sheetRows: { name: "", bytes: Buffer.from(`${SHEET_OPEN}${fifty}${SHEET_CLOSE}`) } });
    await expect(readAll(rows, { ...XLSX_LIMITS, rows: 20 })).rejects.toThrow("a planilha passa de 20 linhas");
  });
});

describe("worker: a decompression bomb", () => {
  it("ends the job with status 3 and a message naming the cap", async () => {
    const bomb = await xlsxBomb({
      sharedStrings: {
        name: "",
        prefix: `${SST_OPEN}<si><t>`,
        repeat: block("a"),
        times: 256,
        suffix: "</t></si></sst>",
      },
    });
    const { id } = await storeAndRegister("bomba.xlsx", bomb);
    expect(await processNextJob({ name: "test-worker", leaseMs: 60_000 })).toMatchObject({
      kind: "done",
      status: FILE_STATUS_UNREADABLE,
    });
    expect(await findFileById(id)).toMatchObject({
      status: FILE_STATUS_UNREADABLE,
      progress: 100,
      message: "Arquivo recusado: um texto ou marcação do XML da planilha passa de 1 MB.",
    });
  });
});
