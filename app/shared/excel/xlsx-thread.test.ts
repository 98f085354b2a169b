import { existsSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { readXlsxRows, type SourceRow } from "xlsx-reader";
import { SHEET_CLOSE, SHEET_OPEN, xlsxBomb } from "#test/zip-bombs";
import { streamFromBoundedThread } from "~/shared/bounded-thread.server";
import { type ExcelColumn, readReturnedFile, xlsxDownload } from "./round-trip.server";
import { readXlsxRowsOnThread } from "./xlsx-thread.server";

/**
 * The reads made while someone waits on a request run on the reader's bounded thread: an edited export sent back is
 * read there (the web process's event loop turns meanwhile), a refused file ends with its cap's message, the thread
 * gives what the reader gives (a package in memory or spooled to a file), and it stops when its signal is aborted.
 */

vi.mock("~/shared/bounded-thread.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/shared/bounded-thread.server")>();
  return { ...real, streamFromBoundedThread: vi.fn(real.streamFromBoundedThread) };
});

const MB = 1024 * 1024;

type Row = { id: string; name: string; quantity: number };
const COLUMNS: ExcelColumn<Row>[] = [
  { key: "name", header: "Nome", kind: "text", value: (r) => r.name },
  { key: "quantity", header: "Quantidade", kind: "integer", editable: true, value: (r) => r.quantity },
];

async function exportOf(rows: Row[]): Promise<Buffer> {
  const response = xlsxDownload(
    {
      dataset: "teste",
      scope: { filial: "1" },
      sheetName: "Teste",
      fileName: "teste.xlsx",
      columns: COLUMNS,
      idOf: (r) => r.id,
      revisionOf: () => "1",
    },
    (async function* () {
      yield rows;
    })(),
  );
  return Buffer.from(await response.arrayBuffer());
}

async function all(rows: AsyncGenerator<SourceRow>): Promise<SourceRow[]> {
  const read: SourceRow[] = [];
  for await (const row of rows) read.push(row);
  return read;
}

describe("an edited export sent back", () => {
  it("is read on the bounded thread, the event loop turning while it is read", async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({
      id: `${i}`.padStart(24, "0"),
      name: `linha ${i}`,
      quantity: i,
    }));
    const file = await exportOf(rows);
    vi.mocked(streamFromBoundedThread).mockClear();
    let settled = false;
    const reading = readReturnedFile(Readable.from([file]), "teste", COLUMNS as ExcelColumn<never>[], 10_000).finally(
      () => (settled = true),
    );
    const turnedWhileReading = await new Promise<boolean>((resolve) => setImmediate(() => resolve(!settled)));
    const read = await reading;
    expect(turnedWhileReading).toBe(true);
    expect(streamFromBoundedThread).toHaveBeenCalledTimes(1);
    expect(read).toMatchObject({ ok: true, dataset: "teste" });
    expect(read.ok && read.rows.length).toBe(2_000);
    expect(read.ok && read.rows[1999].cells.get("quantity")).toBe(1999);
  });

  it("past a cap, ends with the cap's message", async () => {
    const file = await xlsxBomb({
      extra: [
        {
          name: "xl/styles.xml",
          prefix: "<styleSheet><cellXfs>",
          repeat: Buffer.from('<xf numFmtId="14"/>'.repeat(50_000)),
          times: 10,
          suffix: "</cellXfs></styleSheet>",
        },
      ],
    });
    expect(await readReturnedFile(Readable.from([file]), "teste", COLUMNS as ExcelColumn<never>[], 10_000)).toEqual({
      ok: false,
      message: "Arquivo recusado: os estilos da planilha (styles.xml) passam de 8 MB descompactados.",
    });
  });
});

describe("readXlsxRowsOnThread", () => {
  it("runs the reader's worker module, a file of its own, no source text", async () => {
    vi.mocked(streamFromBoundedThread).mockClear();
    expect(await all(readXlsxRowsOnThread(await exportOf([{ id: "1", name: "a", quantity: 1 }])))).toHaveLength(2);
    const [options] = vi.mocked(streamFromBoundedThread).mock.calls[0];
    expect(options).not.toHaveProperty("body");
    expect("entry" in options && existsSync(options.entry)).toBe(true);
  });

  it("gives the reader's rows, from a package in memory and from one spooled to a temporary file", async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ id: `${i}`, name: `nome ção ${i}`, quantity: i / 3 }));
    const file = await exportOf(rows);
    const expected = await all(readXlsxRows(Readable.from([file])));
    expect(expected).toHaveLength(3_001);
    expect(await all(readXlsxRowsOnThread(file))).toEqual(expected);
    expect(await all(readXlsxRowsOnThread(Readable.from([file]), { spoolFromBytes: 4096 }))).toEqual(expected);
  });

  it("fails with the reader's own errors", async () => {
    await expect(all(readXlsxRowsOnThread(Buffer.from("a;b\n1;2\n")))).rejects.toMatchObject({
      name: "UnreadableFileError",
      message: "XLSX inválido: o arquivo não é um pacote ZIP.",
    });
    const many = await xlsxBomb({
      sheetRows: {
        name: "",
        bytes: Buffer.from(`${SHEET_OPEN}${'<row r="1"><c r="A1"><v>1</v></c></row>'.repeat(30)}${SHEET_CLOSE}`),
      },
    });
    await expect(
      all(readXlsxRowsOnThread(many, { limits: { ...(await import("xlsx-reader")).XLSX_LIMITS, rows: 20 } })),
    ).rejects.toMatchObject({
      name: "FileRefusedError",
      message: "Arquivo recusado: a planilha passa de 20 linhas.",
    });
  });

  it("ends the thread when its signal is aborted, with the signal's reason", async () => {
    const file = await xlsxBomb({
      sheetRows: {
        name: "",
        prefix: SHEET_OPEN,
        repeat: Buffer.from("<x/>".repeat(262_144)),
        times: 512,
        suffix: SHEET_CLOSE,
      },
    });
    expect(file.length).toBeLessThan(4 * MB);
    const stop = new AbortController();
    const reading = all(readXlsxRowsOnThread(file, { signal: stop.signal }));
    setImmediate(() => stop.abort(new Error("pedido cancelado")));
    await expect(reading).rejects.toThrow("pedido cancelado");
  });
});
