import { StringDecoder } from "node:string_decoder";
import { unreadable } from "./errors";
import { type Count, inflate, SHARED_STRINGS, STYLES, WORKBOOK, WORKBOOK_RELS } from "./inflate";
import { checkAborted, type ReadOptions, type SourceRow, type XlsxLimits } from "./limits";
import { SheetVisitor, sharedStringsHandler } from "./rows";
import { dateStylesHandler, partPath, relationshipHandler, type WorkbookFacts, workbookHandler } from "./workbook";
import { handlerVisitor, type Visitor, type XmlHandler, XmlTokenizer } from "./xml";
import { type ZipEntry, type ZipInput, zipEntries } from "./zip";

/**
 * The package, part by part: the workbook's parts first (which sheet, the date system, the date styles, the shared
 * strings), every other part inflated only to be counted, then the first worksheet's rows as they inflate.
 */

/** Text is decoded and scanned in pieces of at most this many bytes: a string past V8's regular object size
 * (128 KB) is allocated and collected several times slower. */
const PIECE = 64 * 1024;
const SHEET_PART = /xl\/worksheets\/sheet\d+[.]xml/;

type Reading = { input: ZipInput; limits: XlsxLimits; options: ReadOptions; count: Count };

/**
 * Feeds an inflated chunk to `tokens`, decoded in pieces of PIECE bytes or of as many as it carries: a token longer
 * than a piece is scanned again each time it doubles, not once a piece.
 */
function feedChunk(tokens: XmlTokenizer, decoder: StringDecoder, chunk: Buffer, visitor: Visitor): void {
  for (let at = 0; at < chunk.length && !visitor.done; ) {
    const size = Math.max(PIECE, tokens.carried);
    tokens.feed(decoder.write(chunk.subarray(at, at + size)), false);
    at += size;
  }
}

/** Inflates `entry` into `visitor` (past its end only counted); "XML truncado." when it ends inside a token. */
async function scanPart(reading: Reading, entry: ZipEntry, visitor: Visitor): Promise<void> {
  const decoder = new StringDecoder("utf8");
  const tokens = new XmlTokenizer(visitor, reading.limits, reading.count.stats);
  for await (const chunk of inflate(reading.input, entry, reading.count, reading.limits, reading.options)) {
    feedChunk(tokens, decoder, chunk, visitor);
  }
  if (!visitor.done) tokens.feed(decoder.end(), true);
  if (!visitor.done && tokens.cut) throw unreadable("XML truncado.");
}

/** Only counted (a part not read). */
async function skipPart(reading: Reading, entry: ZipEntry): Promise<void> {
  for await (const _chunk of inflate(reading.input, entry, reading.count, reading.limits, reading.options));
}

/** What the rows depend on, read from the workbook's parts; the first worksheet's part (null if there is none). */
type Tables = {
  part: string | null;
  date1904: boolean;
  dateStyles: (boolean | null)[];
  sharedStrings: (string | null)[];
};

async function readTables(reading: Reading, entries: ZipEntry[]): Promise<Tables> {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const scan = async (name: string, handler: XmlHandler) => {
    const entry = byName.get(name);
    if (entry) await scanPart(reading, entry, handlerVisitor(handler));
  };
  // The first sheet: workbook.xml's first <sheet>, through its relationship; and the date system.
  const facts: WorkbookFacts = { rId: null, date1904: false };
  await scan(WORKBOOK, workbookHandler(facts));
  const found: { target: string | null } = { target: null };
  await scan(WORKBOOK_RELS, relationshipHandler(facts.rId, found));
  let part = found.target === null ? null : partPath(found.target);
  // Without the workbook's own pointer, the first worksheet part in the package (exceljs's choice).
  if (part === null || !byName.has(part)) part = entries.find((entry) => SHEET_PART.test(entry.name))?.name ?? null;
  const dateStyles: (boolean | null)[] = [];
  await scan(STYLES, dateStylesHandler(dateStyles));
  const sharedStrings: (string | null)[] = [];
  await scan(SHARED_STRINGS, sharedStringsHandler(sharedStrings, reading.limits));
  return { part, date1904: facts.date1904, dateStyles, sharedStrings };
}

/** Streams the rows of the first worksheet of the package in `input`, within `limits`. */
export async function* readRows(
  input: ZipInput,
  limits: XlsxLimits,
  options: ReadOptions = {},
): AsyncGenerator<SourceRow> {
  const stats = options.stats ?? { inflatedBytes: 0, scannedChars: 0, longestCarry: 0 };
  const reading: Reading = { input, limits, options, count: { total: 0, stats } };
  checkAborted(options.signal);
  const entries = await zipEntries(input, limits);
  const tables = await readTables(reading, entries);
  // Every other part is inflated too, only to be counted: the caps hold for the whole package.
  const read = new Set([WORKBOOK, WORKBOOK_RELS, STYLES, SHARED_STRINGS]);
  for (const entry of entries) if (!read.has(entry.name) && entry.name !== tables.part) await skipPart(reading, entry);
  if (tables.part === null) return;
  const entry = entries.find((candidate) => candidate.name === tables.part) as ZipEntry;
  // The worksheet's rows, given as each inflated chunk completes them; the part is counted to its end.
  const out: SourceRow[] = [];
  const { sharedStrings, dateStyles, date1904 } = tables;
  const sheet = new SheetVisitor({ sharedStrings, dateStyles, date1904, limits }, out);
  const decoder = new StringDecoder("utf8");
  const tokens = new XmlTokenizer(sheet, limits, stats);
  for await (const chunk of inflate(input, entry, reading.count, limits, options)) {
    if (sheet.done) continue; // counted to the end, like every part
    feedChunk(tokens, decoder, chunk, sheet);
    for (let i = 0; i < out.length; i++) yield out[i];
    out.length = 0;
  }
  if (!sheet.done) tokens.feed(decoder.end(), true);
  for (let i = 0; i < out.length; i++) yield out[i];
  if (!sheet.done && sheet.started && (sheet.inRow || tokens.cut)) throw unreadable("XML truncado.");
}
