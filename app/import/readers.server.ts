import { isUtf8 } from "node:buffer";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import ExcelJS from "exceljs";
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

/**
 * Streams CSV rows. The delimiter (`;` or `,`) is chosen from the header line; the rest of the
 * file goes through csv-parse without ever being held whole.
 */
export async function* readCsvRows(source: AsyncIterable<Buffer>): AsyncGenerator<SourceRow> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let finished = false;
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      finished = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    head.push(chunk);
    headBytes += chunk.length;
    if (headBytes >= SNIFF_BYTES) break;
  }
  const headBuffer = Buffer.concat(head);
  // Spreadsheet exports from Windows are often Latin-1: judge by the first 64 KB (a UTF-8
  // sequence cut at the end of the sample does not count against it).
  const encoding: "utf8" | "latin1" = [0, 1, 2, 3].some((cut) => cut <= headBuffer.length && isUtf8(headBuffer.subarray(0, headBuffer.length - cut))) ? "utf8" : "latin1";
  const headText = headBuffer.toString(encoding);
  const delimiter = sniffDelimiter(headText.split(/\r?\n/, 1)[0] ?? "");

  const feed = Readable.from(
    (async function* () {
      yield* head;
      if (finished) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
    { objectMode: false },
  );
  const parser = parse({ delimiter, encoding, bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const piping = pipeline(feed, parser);
  piping.catch(() => undefined); // errors surface through the parser's iterator below
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { line: item.info.lines, cells: item.record };
    }
  } catch (error) {
    throw new UnreadableFileError(`CSV inválido: ${(error as Error).message}`, { cause: error });
  } finally {
    feed.destroy();
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
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(source, {
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
