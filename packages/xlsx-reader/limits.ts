/** A cell as the reader gives it: text, number, boolean, date, or nothing. */
export type CellValue = string | number | boolean | Date | null | undefined;

/** One row of a source file: its 1-based line (CSV) or row number (XLSX), and its cells. */
export type SourceRow = { line: number; cells: CellValue[] };

/**
 * What an XLSX may hold, the package and each part once unpacked. A 2 MB file can inflate to gigabytes; these are
 * counted as the bytes come out of the inflater, and the file is refused (status 3) as soon as one is passed. Rows
 * and columns stop at Excel's own maximum (a file Excel wrote never passes them).
 */
export type XlsxLimits = {
  /** The package as sent (the ZIP itself). */
  packageBytes: number;
  /** Entries in the package's directory. */
  zipEntries: number;
  /** Inflated bytes of every part of the package together. */
  inflatedBytes: number;
  /** Inflated bytes of xl/sharedStrings.xml (its strings are held in memory). */
  sharedStringBytes: number;
  sharedStrings: number;
  /** Inflated bytes of xl/styles.xml, xl/workbook.xml and xl/_rels/workbook.xml.rels. */
  stylesBytes: number;
  workbookBytes: number;
  relsBytes: number;
  /** <row> elements, counted (their `r` may repeat or be missing). */
  rows: number;
  columns: number;
  /** The cells the rows hold, empty ones before a row's last value included (a row's cells are a dense array). */
  cells: number;
  /** The longest run of XML without a `<`, and the longest tag or value: bounds every string the parser builds. */
  tokenBytes: number;
};

/** Why a file is refused: which cap (errors.ts words it). */
export type Refusal = {
  kind:
    | "package"
    | "entries"
    | "directory"
    | "duplicate"
    | "overlap"
    | "inflated"
    | "sharedStringBytes"
    | "sharedStrings"
    | "stylesBytes"
    | "workbookBytes"
    | "relsBytes"
    | "rows"
    | "columns"
    | "cells"
    | "token";
  limit: number;
};

/** What the reader did, for tests and the bench: inflated bytes, characters scanned (re-scans included). */
export type ReadStats = { inflatedBytes: number; scannedChars: number; longestCarry: number };

export type ReadOptions = {
  /** Checked between inflated chunks: once aborted, the reading stops with the signal's reason. */
  signal?: AbortSignal;
  stats?: ReadStats;
};

export const MB = 1024 * 1024;

/**
 * What an XLSX may hold (XlsxLimits). The parts the reader keeps in tables (shared strings, styles, the workbook and
 * its relationships) each have a cap of their own, well above what a spreadsheet program writes: a few MB for the
 * workbook's description, its relationships and its styles (Excel keeps at most 64,000 cell formats), 128 MB for the
 * shared strings. Rows and columns are Excel's maximum; 10,000 entries are more parts than a workbook of hundreds of
 * sheets has; 128 million cells are 1,048,576 rows of 122 columns.
 */
export const XLSX_LIMITS: XlsxLimits = {
  packageBytes: 1024 * MB,
  zipEntries: 10_000,
  inflatedBytes: 1024 * MB,
  sharedStringBytes: 128 * MB,
  sharedStrings: 2_000_000,
  stylesBytes: 8 * MB,
  workbookBytes: 4 * MB,
  relsBytes: 2 * MB,
  rows: 1_048_576,
  columns: 16_384,
  cells: 128_000_000,
  tokenBytes: 1 * MB,
};

/** Checked between chunks: an aborted signal stops the reading with its reason. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error("aborted");
}

/** Lets other work run between chunks that came without waiting (a part stored without compression). */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
