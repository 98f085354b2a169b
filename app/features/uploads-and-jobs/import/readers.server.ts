import { isUtf8 } from "node:buffer";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type ExcelJS from "exceljs";
import { CsvRecordParser, CsvSyntaxError, type CsvRecord } from "./csv";
import type { CellValue } from "./values";

/** One row of a source file: its 1-based line (CSV) or row number (XLSX), and its cells. */
export type SourceRow = { line: number; cells: CellValue[] };

/** The file could not be read as the format its extension claims. */
export class UnreadableFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UnreadableFileError";
  }
}

const SNIFF_BYTES = 64 * 1024;

/** `;` or `,`, whichever appears more often in the first line (`,` on a tie). */
export function sniffDelimiter(firstLine: string): ";" | "," {
  let semicolons = 0;
  let commas = 0;
  for (const ch of firstLine) {
    if (ch === ";") semicolons++;
    else if (ch === ",") commas++;
  }
  return semicolons > commas ? ";" : ",";
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];

function startsWith(buffer: Buffer, bytes: number[]): boolean {
  return bytes.every((b, i) => buffer[i] === b);
}

/**
 * The text encoding of a CSV from its first bytes: a byte-order mark decides (UTF-8, or UTF-16LE as
 * csv-parse's `bom` option read it; looked for only in files of 3 bytes or more, as csv-parse did);
 * otherwise UTF-8 when the sample is valid UTF-8, else Latin-1 (spreadsheet exports from Windows).
 */
export function csvEncodingOf(head: Buffer): { encoding: "utf8" | "latin1" | "utf16le"; bomLength: number } {
  if (head.length >= 3 && startsWith(head, UTF8_BOM)) return { encoding: "utf8", bomLength: 3 };
  if (head.length >= 3 && startsWith(head, UTF16LE_BOM)) return { encoding: "utf16le", bomLength: 2 };
  // A UTF-8 sequence cut at the end of the sample does not count against it.
  const utf8 = [0, 1, 2, 3].some((cut) => cut <= head.length && isUtf8(head.subarray(0, head.length - cut)));
  return { encoding: utf8 ? "utf8" : "latin1", bomLength: 0 };
}

/**
 * Streams CSV rows, a batch per chunk read (no promise per row). The encoding and the delimiter
 * (`;` or `,`) are chosen from the first 64 KB; the rest of the file is decoded and parsed chunk by
 * chunk (app/features/uploads-and-jobs/import/csv.ts) without ever being held whole.
 */
export async function* readCsvBatches(source: AsyncIterable<Buffer | string>): AsyncGenerator<SourceRow[]> {
  const iterator = source[Symbol.asyncIterator]();
  const toBuffer = (chunk: Buffer | string) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  try {
    const head: Buffer[] = [];
    let headBytes = 0;
    let finished = false;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        break;
      }
      const chunk = toBuffer(next.value);
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes >= SNIFF_BYTES) break;
    }
    const headBuffer = Buffer.concat(head);
    const { encoding, bomLength } = csvEncodingOf(headBuffer);
    const decoder = new StringDecoder(encoding);
    const headText = decoder.write(headBuffer.subarray(bomLength));
    const parser = new CsvRecordParser(sniffDelimiter(headText.split(/\r?\n/, 1)[0] ?? ""));
    let batch: CsvRecord[] = [];
    parser.push(headText, batch);
    if (!finished) {
      for (;;) {
        if (batch.length > 0) {
          yield batch;
          batch = [];
        }
        const next = await iterator.next();
        if (next.done) break;
        parser.push(decoder.write(toBuffer(next.value)), batch);
      }
    }
    parser.push(decoder.end(), batch);
    parser.end(batch);
    if (batch.length > 0) yield batch;
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new UnreadableFileError(`CSV inválido: ${error.message}`, { cause: error });
    throw new UnreadableFileError((error as Error).message, { cause: error });
  } finally {
    await iterator.return?.();
  }
}

type ExcelCell = ExcelJS.CellValue;

function toCellValue(value: ExcelCell): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date) return value;
  if (typeof value === "object") {
    if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((r) => r.text).join("");
    if ("result" in value) return toCellValue((value as { result?: ExcelCell }).result as ExcelCell);
    if ("text" in value && typeof (value as { text: unknown }).text === "string") return (value as { text: string }).text;
    if ("error" in value) return String((value as { error: unknown }).error);
  }
  return String(value);
}

/** Streams the rows of the first worksheet with exceljs's streaming reader. */
export async function* readXlsxRows(source: Readable): AsyncGenerator<SourceRow> {
  // Loaded on the first XLSX file: the web process does not carry exceljs (~15 MB) until it is needed.
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.stream.xlsx.WorkbookReader(source, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache", // needed to tell dates from numbers
    hyperlinks: "ignore",
    entries: "emit",
  });
  // exceljs reads a worksheet as soon as the shared strings and relationships are in, and then looks
  // its name up in the workbook part; when the zip stores xl/workbook.xml last (exceljs's own writer
  // may), that part is not read yet. Only the first sheet is read here, so its name is not needed.
  const reader = workbook as unknown as { model?: { sheets?: unknown[] } };
  reader.model ??= { sheets: [] };
  try {
    for await (const worksheet of workbook) {
      for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as ExcelCell[];
        const cells: CellValue[] = [];
        for (let i = 1; i < values.length; i++) cells.push(toCellValue(values[i]));
        yield { line: row.number, cells };
      }
      return; // only the first worksheet
    }
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`XLSX inválido: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
  }
}

/** Groups rows into arrays of up to `size`, so the consumer awaits once per batch. */
export async function* batched<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
