import { type Readable, Transform } from "node:stream";
import { FileRefusedError, UnreadableFileError } from "./errors";
import { type OpenedPackage, openXlsxPackage, SPOOL_FROM_BYTES } from "./input";
import { type ReadOptions, type SourceRow, XLSX_LIMITS, type XlsxLimits } from "./limits";
import { readRows } from "./read";

/**
 * The streaming XLSX reader every spreadsheet import of the portal shares (uploads, report packages, the returned
 * exports of the Excel round trips): the first worksheet's rows, within caps on what the file may hold, as sent and
 * once unpacked.
 *
 * The package is read through the ZIP's central directory (zip.ts: entries capped in number, none repeated or
 * overlapping), each part inflated with node:zlib and counted against its cap as it comes out of the inflater
 * (inflate.ts), every part scanned as it inflates by a tokenizer that keeps only the token a chunk cut (xml.ts), so
 * the work grows with the inflated size (bench/xlsx-read/linear.ts); rows.ts builds the rows. It gives the rows
 * exceljs's streaming WorkbookReader gave before it, faster (bench/xlsx-read/run.ts); where exceljs has a quirk that
 * shows in the rows, it is kept on purpose and said so there. worker.ts runs the same reader on a worker thread
 * (worker-entry.ts finds its file).
 */

export {
  FileRefusedError,
  refusalMessage,
  refusalMessages,
  UnreadableFileError,
} from "./errors";
export { bufferInput, type OpenedPackage, openXlsxPackage, SPOOL_FROM_BYTES } from "./input";
export {
  type CellValue,
  type ReadOptions,
  type ReadStats,
  type Refusal,
  type SourceRow,
  XLSX_LIMITS,
  type XlsxLimits,
} from "./limits";
export type { ZipInput } from "./zip";

export type ReadXlsxOptions = ReadOptions & {
  /** Where the package goes to a temporary file (SPOOL_FROM_BYTES; tests set a smaller one). */
  spoolFromBytes?: number;
};

/** `source` passed on as long as it stays within `maxBytes`; past them it fails with FileRefusedError(`message`). */
export function limitBytes(source: Readable | NodeJS.ReadableStream, maxBytes: number, message: string): Readable {
  let bytes = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new FileRefusedError(message) : null, bytes > maxBytes ? undefined : chunk);
    },
  });
  source.on("error", (error: Error) => limited.destroy(error));
  return source.pipe(limited);
}

/**
 * Streams the rows of the first worksheet, within `limits` (XLSX_LIMITS). `options.signal` stops the reading between
 * two inflated chunks (its reason is thrown); any other failure is an UnreadableFileError (FileRefusedError for a
 * cap, naming it).
 */
export async function* readXlsxRows(
  source: Readable,
  limits: XlsxLimits = XLSX_LIMITS,
  options: ReadXlsxOptions = {},
): AsyncGenerator<SourceRow> {
  let input: OpenedPackage | null = null;
  try {
    input = await openXlsxPackage(source, limits, options.spoolFromBytes ?? SPOOL_FROM_BYTES, options.signal);
    yield* readRows(input, limits, options);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`XLSX inválido: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
    await input?.close();
  }
}
