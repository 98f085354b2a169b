/**
 * The exceljs-based XLSX reader as it was before the portal read XLSX itself (a copy of the portal's reader at that
 * time, its readXlsxRows renamed): the reference the new reader is compared with in reader.test.ts and timed against
 * in the portal's bench/xlsx-read/run.ts. Not used by the app.
 */
import { PassThrough, type Readable } from "node:stream";
import type ExcelJS from "exceljs";
import { FileRefusedError, refusalMessages, UnreadableFileError } from "../errors";
import { type CellValue, type SourceRow, XLSX_LIMITS, type XlsxLimits } from "../limits";

/**
 * The streaming XLSX reader every spreadsheet import shares (uploads, report packages, the returned exports of the
 * Excel round trips): the first worksheet's rows, within caps on what the file may hold once unpacked.
 */

type ExcelCell = ExcelJS.CellValue;

function toCellValue(value: ExcelCell): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date)
    return value;
  if (typeof value === "object") {
    if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((r) => r.text).join("");
    if ("result" in value) return toCellValue((value as { result?: ExcelCell }).result as ExcelCell);
    if ("text" in value && typeof (value as { text: unknown }).text === "string")
      return (value as { text: string }).text;
    if ("error" in value) return String((value as { error: unknown }).error);
  }
  return String(value);
}

type ZipEntryStream = PassThrough & { path?: string };

/**
 * Counts what exceljs's unzipper hands each part of the package: `zip` is its parse stream, whose readable side
 * pushes one stream per entry; each entry's pushes are the inflated bytes. Past a cap, the entry ends where it is
 * (a reader waiting on it finishes) and `refuse` is called once; nothing more is passed on.
 */
function watchInflation(zip: PassThrough, limits: XlsxLimits, refuse: (error: FileRefusedError) => void): void {
  let total = 0;
  let sharedStringBytes = 0;
  let refused = false;
  const zipPush = zip.push;
  zip.push = (entry: unknown, encoding?: BufferEncoding) => {
    if (entry && typeof entry === "object") watchEntry(entry as ZipEntryStream);
    return zipPush.call(zip, entry, encoding);
  };
  function watchEntry(entry: ZipEntryStream) {
    const push = entry.push;
    const sharedStrings = entry.path === "xl/sharedStrings.xml";
    let run = 0; // bytes since the last "<"
    entry.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (chunk === null) return push.call(entry, null);
      if (refused) return false;
      const bytes = chunk as Buffer;
      total += bytes.length;
      if (sharedStrings) sharedStringBytes += bytes.length;
      const first = bytes.indexOf(0x3c);
      let longest: number;
      if (first < 0) longest = run += bytes.length;
      else {
        const last = bytes.lastIndexOf(0x3c);
        const inside = bytes.length > limits.tokenBytes ? longestRun(bytes.subarray(first + 1, last)) : 0;
        longest = Math.max(run + first, inside, bytes.length - 1 - last);
        run = bytes.length - 1 - last;
      }
      const error =
        total > limits.inflatedBytes
          ? refusalMessages.inflated(limits.inflatedBytes)
          : sharedStringBytes > limits.sharedStringBytes
            ? refusalMessages.sharedStringBytes(limits.sharedStringBytes)
            : longest > limits.tokenBytes
              ? refusalMessages.token(limits.tokenBytes)
              : null;
      if (error) {
        refused = true;
        push.call(entry, null);
        refuse(new FileRefusedError(error));
        return false;
      }
      return push.call(entry, bytes, encoding);
    };
  }
}

/** The longest run without a "<" in `bytes` (looked for only in chunks longer than the cap itself). */
function longestRun(bytes: Buffer): number {
  let longest = 0;
  let from = 0;
  for (let at = bytes.indexOf(0x3c); at >= 0; at = bytes.indexOf(0x3c, from)) {
    longest = Math.max(longest, at - from);
    from = at + 1;
  }
  return Math.max(longest, bytes.length - from);
}

/** Streams the rows of the first worksheet with exceljs's streaming reader, within `limits` (XLSX_LIMITS). */
export async function* readXlsxRowsExceljs(
  source: Readable,
  limits: XlsxLimits = XLSX_LIMITS,
): AsyncGenerator<SourceRow> {
  // Loaded on the first XLSX file: the web process does not carry exceljs until it is needed.
  const { default: Excel } = await import("exceljs");
  // The reader pipes its input into the unzipper: that pipe is where the unzipper's parse stream is seen.
  let refusal: FileRefusedError | null = null;
  let onRefusal: (error: FileRefusedError) => void = () => undefined;
  const refused = new Promise<never>((_, reject) => (onRefusal = reject));
  refused.catch(() => undefined);
  const refuse = (error: FileRefusedError) => {
    if (refusal) return;
    refusal = error;
    input.unpipe();
    source.unpipe(input);
    onRefusal(error);
  };
  const input = new PassThrough();
  source.on("error", (error) => input.destroy(error));
  const pipe = input.pipe.bind(input);
  input.pipe = <T extends NodeJS.WritableStream>(zip: T, options?: { end?: boolean }) => {
    watchInflation(zip as unknown as PassThrough, limits, refuse);
    return pipe(zip, options);
  };
  source.pipe(input);
  /** The reader's next step, or the refusal if it comes first (the reader may be waiting on a part that never ends). */
  const step = <T>(next: Promise<T>): Promise<T> => {
    next.catch(() => undefined);
    return Promise.race([next, refused]);
  };
  const workbook = new Excel.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache", // needed to tell dates from numbers
    hyperlinks: "ignore",
    entries: "emit",
  });
  // exceljs reads a worksheet as soon as the shared strings and relationships are in, and then looks
  // its name up in the workbook part; when the zip stores xl/workbook.xml last (exceljs's own writer
  // may), that part is not read yet. Only the first sheet is read here, so its name is not needed.
  const reader = workbook as unknown as { model?: { sheets?: unknown[] }; sharedStrings?: unknown[] };
  reader.model ??= { sheets: [] };
  // The shared strings are counted as exceljs adds them (it sets the array when the part starts).
  let sharedStrings: unknown[] | undefined;
  Object.defineProperty(reader, "sharedStrings", {
    configurable: true,
    get: () => sharedStrings,
    set(value: unknown[]) {
      sharedStrings = value;
      const push = value.push;
      value.push = (...items: unknown[]) => {
        if (value.length + items.length > limits.sharedStrings) {
          refuse(new FileRefusedError(refusalMessages.sharedStrings(limits.sharedStrings)));
          return value.length;
        }
        return push.apply(value, items);
      };
    },
  });
  const sheets = workbook[Symbol.asyncIterator]();
  try {
    const first = await step(sheets.next());
    if (first.done) return;
    const rows = (first.value as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
    for (;;) {
      const next = await step(rows.next());
      if (next.done) break;
      const row = next.value;
      if (row.number > limits.rows) throw new FileRefusedError(refusalMessages.rows(limits.rows));
      const values = row.values as ExcelCell[];
      if (values.length - 1 > limits.columns) throw new FileRefusedError(refusalMessages.columns(limits.columns));
      const cells: CellValue[] = [];
      for (let i = 1; i < values.length; i++) cells.push(toCellValue(values[i]));
      yield { line: row.number, cells };
    }
    // only the first worksheet
  } catch (error) {
    if (refusal) throw refusal;
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`XLSX inválido: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
    input.destroy();
  }
}
