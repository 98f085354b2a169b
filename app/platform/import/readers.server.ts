import { isUtf8 } from "node:buffer";
import { FileRefusedError, type SourceRow, UnreadableFileError } from "xlsx-reader";
import { type CsvRecord, CsvRecordParser, CsvSyntaxError } from "./csv";

const SNIFF_BYTES = 64 * 1024;

/** The field delimiters a CSV may use (/api/docs lists these, so what it says is what the import reads). */
export const CSV_DELIMITERS = [";", ",", "\t"] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/**
 * The delimiter of a CSV from its first line: a tab when the line has one (Excel's "Texto Unicode" and "Texto
 * (separado por tabulações)"), else `;` or `,`, whichever appears more often (`,` on a tie).
 */
export function sniffDelimiter(firstLine: string): CsvDelimiter {
  let semicolons = 0;
  let commas = 0;
  let tabs = 0;
  for (const ch of firstLine) {
    if (ch === ";") semicolons++;
    else if (ch === ",") commas++;
    else if (ch === "\t") tabs++;
  }
  if (tabs > 0 && tabs >= semicolons && tabs >= commas) return "\t";
  return semicolons > commas ? ";" : ",";
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];

function startsWith(buffer: Buffer, bytes: number[]): boolean {
  return bytes.every((b, i) => buffer[i] === b);
}

/** The encodings a CSV is read in, by their WHATWG labels (what `TextDecoder` takes); /api/docs lists these. */
export const CSV_ENCODINGS = ["utf-8", "windows-1252", "utf-16le"] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/**
 * The text encoding of a CSV from its first bytes: a byte-order mark decides (UTF-8, or UTF-16LE: Excel's "Texto
 * Unicode"; looked for only in files of 3 bytes or more); otherwise UTF-8 when the sample is valid UTF-8, else
 * Windows-1252, what Excel in Portuguese writes for "CSV (separado por vírgulas)". Windows-1252 is not Latin-1: its
 * bytes 0x80–0x9F are the en dash, curly quotes, the euro sign and the like, which Latin-1 reads as control
 * characters; a Latin-1 file decodes the same under it, as the WHATWG encoding standard makes the two one label.
 */
export function csvEncodingOf(head: Buffer): { encoding: CsvEncoding; bomLength: number } {
  if (head.length >= 3 && startsWith(head, UTF8_BOM)) return { encoding: "utf-8", bomLength: 3 };
  if (head.length >= 3 && startsWith(head, UTF16LE_BOM)) return { encoding: "utf-16le", bomLength: 2 };
  // A UTF-8 sequence cut at the end of the sample does not count against it.
  const utf8 = [0, 1, 2, 3].some((cut) => cut <= head.length && isUtf8(head.subarray(0, head.length - cut)));
  return { encoding: utf8 ? "utf-8" : "windows-1252", bomLength: 0 };
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
    // ignoreBOM: the mark was looked at above and is cut off here (a second one would be text).
    const decoder = new TextDecoder(encoding, { ignoreBOM: true });
    const headText = decoder.decode(headBuffer.subarray(bomLength), { stream: true });
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
        parser.push(decoder.decode(toBuffer(next.value), { stream: true }), batch);
      }
    }
    parser.push(decoder.decode(), batch);
    parser.end(batch);
    if (batch.length > 0) yield batch;
  } catch (error) {
    if (error instanceof FileRefusedError) throw error;
    if (error instanceof CsvSyntaxError)
      throw new UnreadableFileError(`CSV inválido: ${error.message}`, { cause: error });
    throw new UnreadableFileError((error as Error).message, { cause: error });
  } finally {
    await iterator.return?.();
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
