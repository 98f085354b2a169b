import { type Readable, Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createInflateRaw } from "node:zlib";
import type { CellValue } from "./values";

/**
 * The streaming XLSX reader every spreadsheet import shares (uploads, report packages, the returned exports of the
 * Excel round trips): the first worksheet's rows, within caps on what the file may hold once unpacked.
 *
 * It reads the package itself (the ZIP's central directory, each part inflated with node:zlib and counted against
 * the caps as it comes out of the inflater, the worksheet scanned by a small tokenizer as it inflates) and gives the
 * rows exceljs's streaming WorkbookReader gave before it, 3.4–4.5× faster (bench/xlsx-read). Where
 * exceljs has a quirk that shows in the rows, it is kept on purpose and said so below.
 */

/** One row of a source file: its 1-based line (CSV) or row number (XLSX), and its cells. */
export type SourceRow = { line: number; cells: CellValue[] };

/** The file could not be read as the format its extension claims. */
export class UnreadableFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UnreadableFileError";
  }
}

/** A file refused for its size once unpacked (a decompression bomb, or more than a spreadsheet can hold): status 3. */
export class FileRefusedError extends UnreadableFileError {
  constructor(message: string) {
    super(message);
    this.name = "FileRefusedError";
  }
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/** Why a file is refused, each naming its cap. */
export const refusalMessages = {
  inflated: (bytes: number) => `Arquivo recusado: o conteúdo descompactado passa de ${mb(bytes)} MB.`,
  sharedStringBytes: (bytes: number) =>
    `Arquivo recusado: a tabela de textos da planilha (sharedStrings.xml) passa de ${mb(bytes)} MB descompactada.`,
  sharedStrings: (count: number) =>
    `Arquivo recusado: a planilha passa de ${count.toLocaleString("pt-BR")} textos distintos.`,
  rows: (count: number) => `Arquivo recusado: a planilha passa de ${count.toLocaleString("pt-BR")} linhas.`,
  columns: (count: number) => `Arquivo recusado: a planilha passa de ${count.toLocaleString("pt-BR")} colunas.`,
  token: (bytes: number) => `Arquivo recusado: um texto ou marcação do XML da planilha passa de ${mb(bytes)} MB.`,
  part: (name: string, bytes: number) => `Arquivo recusado: ${name} descompactado passa de ${mb(bytes)} MB.`,
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
 * What an XLSX may hold once unpacked. A 2 MB file can inflate to gigabytes; the reader keeps every shared string
 * in memory and builds each text and tag it parses as one string, so these are counted as the bytes come out of the
 * inflater, and the file is refused (status 3) as soon as one is passed. Rows and columns stop at Excel's own
 * maximum (a file Excel wrote never passes them).
 */
export type XlsxLimits = {
  /** Inflated bytes of every part of the package together. */
  inflatedBytes: number;
  /** Inflated bytes of xl/sharedStrings.xml (held whole in memory). */
  sharedStringBytes: number;
  sharedStrings: number;
  rows: number;
  columns: number;
  /** The longest run of XML without a `<`: bounds every text, tag and attribute the parser builds as one string. */
  tokenBytes: number;
};

export const XLSX_LIMITS: XlsxLimits = {
  inflatedBytes: 1024 * MB,
  sharedStringBytes: 128 * MB,
  sharedStrings: 2_000_000,
  rows: 1_048_576,
  columns: 16_384,
  tokenBytes: 1 * MB,
};

// ---------------------------------------------------------------------------------------------------------------
// The package: a ZIP read through its central directory.

type ZipEntry = { name: string; method: number; compressedSize: number; dataStart: number };

function unreadable(message: string): UnreadableFileError {
  return new UnreadableFileError(`XLSX inválido: ${message}`);
}

/** The entries of the ZIP in `zip`, in the order of its central directory (ZIP64 sizes and offsets included). */
function zipEntries(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw unreadable("o arquivo não é um pacote ZIP.");
  let count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  if ((offset === 0xffffffff || count === 0xffff) && end >= 20 && zip.readUInt32LE(end - 20) === 0x07064b50) {
    const end64 = Number(zip.readBigUInt64LE(end - 12));
    if (end64 + 56 > zip.length || zip.readUInt32LE(end64) !== 0x06064b50) throw unreadable("ZIP64 corrompido.");
    count = Number(zip.readBigUInt64LE(end64 + 32));
    offset = Number(zip.readBigUInt64LE(end64 + 48));
  }
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== 0x02014b50)
      throw unreadable("diretório ZIP corrompido.");
    const flags = zip.readUInt16LE(offset + 8);
    const method = zip.readUInt16LE(offset + 10);
    let compressedSize = zip.readUInt32LE(offset + 20);
    let size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    let local = zip.readUInt32LE(offset + 42);
    const name = zip.toString(flags & 0x800 ? "utf8" : "latin1", offset + 46, offset + 46 + nameLength);
    // ZIP64: the sizes and offset that do not fit in 32 bits are in the extra field 0x0001, in this order.
    for (let at = offset + 46 + nameLength; at + 4 <= offset + 46 + nameLength + extraLength; ) {
      const id = zip.readUInt16LE(at);
      const length = zip.readUInt16LE(at + 2);
      if (id === 1) {
        let field = at + 4;
        if (size === 0xffffffff) (size = Number(zip.readBigUInt64LE(field))), (field += 8);
        if (compressedSize === 0xffffffff) (compressedSize = Number(zip.readBigUInt64LE(field))), (field += 8);
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(field));
      }
      at += 4 + length;
    }
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50)
      throw unreadable(`entrada ${name} corrompida.`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (dataStart + compressedSize > zip.length) throw unreadable(`entrada ${name} truncada.`);
    entries.push({ name, method, compressedSize, dataStart });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Counts every part's inflated bytes against the caps, as they come out of the inflater: the package's total, the
 * shared strings' bytes and the longest run without a "<" (the same counts, messages and order as before).
 */
class InflationCount {
  private total = 0;
  private sharedStringBytes = 0;
  constructor(private readonly limits: XlsxLimits) {}

  /** The inflated chunks of `entry`, each counted before it is given. */
  async *inflate(zip: Buffer, entry: ZipEntry): AsyncGenerator<Buffer> {
    const data = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    const sharedStrings = entry.name === "xl/sharedStrings.xml";
    const run = { value: 0 };
    if (entry.method === 0) {
      for (let at = 0; at < data.length; at += MB) {
        const chunk = data.subarray(at, Math.min(data.length, at + MB));
        this.count(chunk, sharedStrings, run);
        yield chunk;
      }
      return;
    }
    if (entry.method !== 8) throw unreadable(`entrada ${entry.name} com compressão ${entry.method}.`);
    const inflater = createInflateRaw({ chunkSize: 256 * 1024 });
    inflater.end(data);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        this.count(chunk, sharedStrings, run);
        yield chunk;
      }
    } finally {
      inflater.destroy();
    }
  }

  /** The whole inflated part (for the parts held in memory: workbook, relationships, styles, shared strings). */
  async whole(zip: Buffer, entry: ZipEntry): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.inflate(zip, entry)) chunks.push(chunk);
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  /** Only counted (a part not read). */
  async skip(zip: Buffer, entry: ZipEntry): Promise<void> {
    for await (const _chunk of this.inflate(zip, entry));
  }

  private count(bytes: Buffer, sharedStrings: boolean, run: { value: number }): void {
    const { limits } = this;
    this.total += bytes.length;
    if (sharedStrings) this.sharedStringBytes += bytes.length;
    const first = bytes.indexOf(0x3c);
    let longest: number;
    if (first < 0) longest = run.value += bytes.length;
    else {
      const last = bytes.lastIndexOf(0x3c);
      const inside = bytes.length > limits.tokenBytes ? longestRun(bytes.subarray(first + 1, last)) : 0;
      longest = Math.max(run.value + first, inside, bytes.length - 1 - last);
      run.value = bytes.length - 1 - last;
    }
    const error =
      this.total > limits.inflatedBytes
        ? refusalMessages.inflated(limits.inflatedBytes)
        : this.sharedStringBytes > limits.sharedStringBytes
          ? refusalMessages.sharedStringBytes(limits.sharedStringBytes)
          : longest > limits.tokenBytes
            ? refusalMessages.token(limits.tokenBytes)
            : null;
    if (error) throw new FileRefusedError(error);
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

// ---------------------------------------------------------------------------------------------------------------
// XML: a tokenizer for the small parts, and text as an XML parser gives it.

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML text or attribute value as a parser gives it: entities and character references replaced, line ends as \n. */
function xmlText(raw: string): string {
  let text = raw;
  if (text.indexOf("\r") >= 0) text = text.replace(/\r\n?/g, "\n");
  if (text.indexOf("&") < 0) return text;
  return text.replace(ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) =>
    name ? NAMED[name] : String.fromCodePoint(hex ? Number.parseInt(hex, 16) : Number.parseInt(dec as string, 10)),
  );
}

/**
 * exceljs decodes the five named entities once more in inline and formula strings (`utils.xmlDecode`): "&amp;lt;"
 * in the file reads as "<". Kept, so that such cells read as before.
 */
function decodeAgain(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(/&([a-z]*);/g, (entity, name: string) =>
    name === "lt" || name === "gt" || name === "amp" || name === "apos" || name === "quot" ? NAMED[name] : entity,
  );
}

type XmlHandler = {
  open(name: string, attributes: Record<string, string>, selfClosing: boolean): void;
  text?(text: string): void;
  close(name: string): void;
};

/** The attributes of the tag whose name ends at `from` and which ends at `end` (the index of its ">"). */
function attributesOf(xml: string, from: number, end: number): Record<string, string> {
  const attributes: Record<string, string> = {};
  let at = from;
  while (at < end) {
    const eq = xml.indexOf("=", at);
    if (eq < 0 || eq >= end) break;
    const name = xml.slice(at, eq).trim();
    let q = eq + 1;
    while (q < end && xml.charCodeAt(q) !== 34 && xml.charCodeAt(q) !== 39) q++;
    if (q >= end) break;
    const close = xml.indexOf(xml[q], q + 1);
    if (close < 0) break;
    attributes[name] = xmlText(xml.slice(q + 1, close));
    at = close + 1;
  }
  return attributes;
}

/** The end (">") of the tag that starts at `lt`, past quoted attribute values; -1 if the text ends first. */
function tagEnd(xml: string, lt: number): number {
  for (let at = lt + 1; at < xml.length; at++) {
    const code = xml.charCodeAt(at);
    if (code === 62 /* > */) return at;
    if (code === 34 /* " */ || code === 39 /* ' */) {
      at = xml.indexOf(code === 34 ? '"' : "'", at + 1);
      if (at < 0) return -1;
    }
  }
  return -1;
}

const isNameEnd = (code: number) =>
  code === 32 || code === 47 || code === 62 || code === 9 || code === 10 || code === 13;

/** Every tag and text of `xml` in order, as an XML parser reports them (comments, CDATA and instructions left out). */
function scanXml(xml: string, handler: XmlHandler): void {
  let at = 0;
  for (;;) {
    const lt = xml.indexOf("<", at);
    if (lt < 0) break;
    if (lt > at && handler.text) handler.text(xmlText(xml.slice(at, lt)));
    const next = xml.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      const close = xml.startsWith("<!--", lt) ? "-->" : xml.startsWith("<![CDATA[", lt) ? "]]>" : ">";
      const end = xml.indexOf(close, lt + 2);
      if (end < 0) throw unreadable("XML truncado.");
      at = end + close.length;
    } else if (next === 63 /* ? */) {
      const end = xml.indexOf("?>", lt + 2);
      if (end < 0) throw unreadable("XML truncado.");
      at = end + 2;
    } else if (next === 47 /* / */) {
      const end = xml.indexOf(">", lt + 2);
      if (end < 0) throw unreadable("XML truncado.");
      handler.close(xml.slice(lt + 2, end).trim());
      at = end + 1;
    } else {
      const end = tagEnd(xml, lt);
      if (end < 0) throw unreadable("XML truncado.");
      let nameEnd = lt + 1;
      while (nameEnd < end && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
      const name = xml.slice(lt + 1, nameEnd);
      const selfClosing = xml.charCodeAt(end - 1) === 47;
      handler.open(name, attributesOf(xml, nameEnd, selfClosing ? end - 1 : end), selfClosing);
      if (selfClosing) handler.close(name);
      at = end + 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The workbook's parts.

/** The number formats exceljs knows by id (ECMA-376's built-in ones) that are dates: 14–22 and 45–47. */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** A date format as exceljs decides it: y, m, d, h, M, s or b outside [brackets] and "quotes". */
function isDateFormat(code: string): boolean {
  return /[ymdhMsb]+/.test(code.replace(/\[[^\]]*]/g, "").replace(/"[^"]*"/g, ""));
}

/** For each cell style (cellXfs) index, whether it shows a date; null where the style has no number format. */
function dateStyles(xml: string): (boolean | null)[] {
  const custom = new Map<number, string>();
  const styles: (boolean | null)[] = [];
  let inCellXfs = false;
  scanXml(xml, {
    open(name, attributes) {
      if (name === "numFmt" && attributes.numFmtId !== undefined && attributes.formatCode !== undefined)
        custom.set(Number.parseInt(attributes.numFmtId, 10), attributes.formatCode.replace(/[\\](.)/g, "$1"));
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number.parseInt(attributes.numFmtId, 10);
        if (!id) styles.push(null);
        else {
          const code = custom.get(id);
          styles.push(code ? isDateFormat(code) : BUILT_IN_DATE_FORMATS.has(id) ? true : null);
        }
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return styles;
}

/**
 * The shared strings, as exceljs reads them: a plain item is its text (null if none), a rich one the join of its
 * runs. Like exceljs, each <t> starts the text anew (a phonetic <rPh><t> after a plain <t> replaces it).
 */
function sharedStringsOf(xml: string, limits: XlsxLimits): (string | null)[] {
  const strings: (string | null)[] = [];
  let text: string | null = null;
  let runs: string[] = [];
  scanXml(xml, {
    open(name) {
      if (name === "si") (runs = []), (text = null);
      else if (name === "t") text = null;
    },
    text(value) {
      text = text ? text + value : value;
    },
    close(name) {
      if (name === "r") {
        runs.push(text ?? "");
        text = null;
      } else if (name === "si") {
        if (strings.length + 1 > limits.sharedStrings)
          throw new FileRefusedError(refusalMessages.sharedStrings(limits.sharedStrings));
        strings.push(runs.length ? runs.join("") : text);
        runs = [];
        text = null;
      }
    },
  });
  return strings;
}

/** The first sheet of the workbook (workbook.xml's first <sheet>, through its relationship), and date1904. */
function firstSheet(workbook: string | null, rels: string | null): { part: string | null; date1904: boolean } {
  let rId: string | null = null;
  let date1904 = false;
  if (workbook !== null)
    scanXml(workbook, {
      open(name, attributes) {
        if (name === "workbookPr") date1904 = attributes.date1904 === "1";
        else if (name === "sheet" && rId === null) rId = attributes["r:id"] ?? null;
      },
      close() {},
    });
  let target: string | null = null;
  if (rels !== null && rId !== null)
    scanXml(rels, {
      open(name, attributes) {
        if (name === "Relationship" && attributes.Id === rId && target === null) target = attributes.Target ?? null;
      },
      close() {},
    });
  if (target === null) return { part: null, date1904 };
  const path = (target as string).startsWith("/") ? (target as string).slice(1) : `xl/${target}`;
  const parts: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return { part: parts.join("/"), date1904 };
}

// ---------------------------------------------------------------------------------------------------------------
// The worksheet.

type SheetContext = {
  sharedStrings: (string | null)[];
  dateStyles: (boolean | null)[];
  date1904: boolean;
  limits: XlsxLimits;
};

/** The column number of a cell reference ("AB12" → 28); 0 if it does not start with a letter A–Z. */
function columnOf(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    col = col * 26 + code - 64;
  }
  return col;
}

/** An Excel serial date as exceljs turns it into a Date (days since 1899-12-30, or 1904-01-01 with date1904). */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

/** Where the last complete <row> element of `xml` ends (a following "<row" starts), or 0 if none is. */
function lastRowStart(xml: string): number {
  for (let at = xml.lastIndexOf("<row"); at > 0; at = xml.lastIndexOf("<row", at - 1)) {
    const code = xml.charCodeAt(at + 4);
    if (isNameEnd(code) && code !== 47) return at;
  }
  return 0;
}

/** The value of attribute `name` in the tag text `tag` (between the name and ">"), undefined if absent. */
function attribute(tag: string, name: string): string | undefined {
  let at = 0;
  for (;;) {
    at = tag.indexOf(name, at);
    if (at < 0) return undefined;
    const before = tag.charCodeAt(at - 1);
    let eq = at + name.length;
    while (tag.charCodeAt(eq) === 32) eq++;
    if ((before === 32 || before === 9 || before === 10 || before === 13) && tag.charCodeAt(eq) === 61) {
      let q = eq + 1;
      while (tag.charCodeAt(q) === 32) q++;
      const quote = tag[q];
      const end = tag.indexOf(quote, q + 1);
      const raw = tag.slice(q + 1, end);
      return raw.indexOf("&") >= 0 || raw.indexOf("\r") >= 0 ? xmlText(raw) : raw;
    }
    at += name.length;
  }
}

/**
 * The rows of a run of complete <row> elements (the sheet part from <sheetData> on, cut between rows), as exceljs's
 * WorksheetReader builds them: a row per <row> (its number from r), each cell at the column of its reference; a cell
 * counts when it has a value (<v>, <is>/<t>, or a formula, even without a cached result); the row's cells run to its
 * last counted cell, missing ones null.
 */
function* sheetRows(xml: string, context: SheetContext, state: { done: boolean }): Generator<SourceRow> {
  const { sharedStrings, dateStyles, date1904, limits } = context;
  let at = 0;
  let cells: CellValue[] | null = null;
  let line = 0;
  let rowDate = false;
  // the cell being read
  let inCell = false;
  let ref = "";
  let type: string | undefined;
  let style = 0;
  let formula = false;
  let formulaText = 0; // the length of the formula's text
  let value: string | null = null; // the text of the current <v>/<t>/<is>, null before one
  let reading = 0; // 0: text goes nowhere, 1: into value, 2: into a formula
  for (;;) {
    const lt = xml.indexOf("<", at);
    if (lt < 0) break;
    if (lt > at && inCell && reading !== 0) {
      if (reading === 1) value += xmlText(xml.slice(at, lt));
      else formulaText += lt - at;
    }
    const next = xml.charCodeAt(lt + 1);
    if (next === 47 /* / */) {
      const end = xml.indexOf(">", lt + 2);
      if (end < 0) throw unreadable("XML truncado.");
      const name = xml.slice(lt + 2, end);
      at = end + 1;
      if (name === "c") {
        if (inCell && cells) {
          const cellValue = cellValueOf(type, style, formula, formulaText > 0, value, rowDate);
          if (cellValue !== undefined) {
            const col = columnOf(ref);
            if (col === 0) throw unreadable(`referência de célula inválida: ${ref}.`);
            if (col > limits.columns) throw new FileRefusedError(refusalMessages.columns(limits.columns));
            while (cells.length < col) cells.push(null);
            cells[col - 1] = cellValue;
          }
        }
        inCell = false;
        reading = 0;
      } else if (name === "row") {
        if (cells) {
          yield { line, cells };
          cells = null;
        }
      } else if (name === "v" || name === "t" || name === "is" || name === "f") {
        // exceljs keeps adding text to the last <v>/<t>/<f> until another starts: kept (it is only whitespace).
      } else if (name === "sheetData") {
        state.done = true;
        return;
      }
      continue;
    }
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      const close =
        next === 63 ? "?>" : xml.startsWith("<!--", lt) ? "-->" : xml.startsWith("<![CDATA[", lt) ? "]]>" : ">";
      const end = xml.indexOf(close, lt + 2);
      if (end < 0) throw unreadable("XML truncado.");
      at = end + close.length;
      continue;
    }
    const end = tagEnd(xml, lt);
    if (end < 0) throw unreadable("XML truncado.");
    let nameEnd = lt + 1;
    while (nameEnd < end && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
    const selfClosing = xml.charCodeAt(end - 1) === 47;
    const nameLength = nameEnd - lt - 1;
    at = end + 1;
    const c1 = xml.charCodeAt(lt + 1);
    if (nameLength === 1 && c1 === 99 /* c */) {
      if (!cells) continue;
      const tag = xml.slice(nameEnd, selfClosing ? end - 1 : end);
      ref = attribute(tag, "r") ?? "";
      type = attribute(tag, "t");
      const s = attribute(tag, "s");
      style = s === undefined ? 0 : Number.parseInt(s, 10);
      formula = false;
      formulaText = 0;
      value = null;
      reading = 0;
      inCell = true;
      if (selfClosing) {
        // a cell without a value: nothing to add
        inCell = false;
      }
    } else if (nameLength === 1 && c1 === 118 /* v */) {
      if (!inCell) continue;
      value = "";
      reading = 1;
    } else if (nameLength === 1 && c1 === 102 /* f */) {
      if (!inCell) continue;
      formula = true;
      reading = 2;
    } else if ((nameLength === 1 && c1 === 116) /* t */ || (nameLength === 2 && xml.startsWith("is", lt + 1))) {
      if (!inCell) continue;
      value = "";
      reading = 1;
    } else if (nameLength === 3 && xml.startsWith("row", lt + 1)) {
      const tag = xml.slice(nameEnd, selfClosing ? end - 1 : end);
      line = Number.parseInt(attribute(tag, "r") as string, 10);
      if (line > limits.rows) throw new FileRefusedError(refusalMessages.rows(limits.rows));
      const s = attribute(tag, "s");
      const rowStyle = s === undefined ? undefined : dateStyles[Number.parseInt(s, 10)];
      rowDate = rowStyle === true;
      cells = [];
      if (selfClosing) {
        yield { line, cells };
        cells = null;
      }
    } else if (nameLength === 9 && xml.startsWith("sheetData", lt + 1) && selfClosing) {
      state.done = true;
      return;
    }
  }
  if (cells) throw unreadable("XML truncado.");

  function cellValueOf(
    t: string | undefined,
    s: number,
    f: boolean,
    fText: boolean,
    v: string | null,
    inheritedDate: boolean,
  ): CellValue | undefined {
    if (f) {
      // A formula: its cached result as the spreadsheet shows it, never a date; none cached is an empty cell. (exceljs
      // kept a result only when it was truthy, so a formula showing 0, "" or an error, or not yet calculated, read as
      // "[object Object]".) A formula without text (a shared formula's other cells) reads the same way.
      void fText;
      if (v === null) return undefined;
      if (t === "str") return decodeAgain(v);
      if (t === "e") return v;
      const result = Number.parseFloat(v);
      return Number.isNaN(result) ? v : result;
    }
    if (v === null) return undefined;
    switch (t) {
      case "s": {
        const shared = sharedStrings[Number.parseInt(v, 10)];
        return shared === null || shared === undefined ? undefined : shared;
      }
      case "inlineStr":
      case "str":
        return decodeAgain(v);
      case "e":
        return v;
      case "b":
        return Number.parseInt(v, 10) !== 0;
      default: {
        const styleDate = s ? dateStyles[s] : undefined;
        const isDate = styleDate === undefined ? inheritedDate : styleDate === true;
        return isDate ? excelDate(Number.parseFloat(v), date1904) : Number.parseFloat(v);
      }
    }
  }
}

/** The whole source, within the package cap (a file is read whole: uploads and returned files are stored files). */
async function readAll(source: Readable, limits: XlsxLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (bytes > limits.inflatedBytes) throw new FileRefusedError(refusalMessages.inflated(limits.inflatedBytes));
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

const SHEET_PART = /xl\/worksheets\/sheet\d+[.]xml/;

async function* readRows(source: Readable, limits: XlsxLimits): AsyncGenerator<SourceRow> {
  const zip = await readAll(source, limits);
  const entries = zipEntries(zip);
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const inflation = new InflationCount(limits);
  const text = async (name: string) => {
    const entry = byName.get(name);
    return entry ? (await inflation.whole(zip, entry)).toString("utf8") : null;
  };
  const workbookXml = await text("xl/workbook.xml");
  const relsXml = await text("xl/_rels/workbook.xml.rels");
  let { part, date1904 } = firstSheet(workbookXml, relsXml);
  // Without the workbook's own pointer, the first worksheet part in the package (exceljs's choice).
  if (part === null || !byName.has(part)) part = entries.find((entry) => SHEET_PART.test(entry.name))?.name ?? null;
  const stylesXml = await text("xl/styles.xml");
  const styles = stylesXml === null ? [] : dateStyles(stylesXml);
  const sharedXml = await text("xl/sharedStrings.xml");
  const sharedStrings = sharedXml === null ? [] : sharedStringsOf(sharedXml, limits);
  // Every other part is inflated too, only to be counted: the caps hold for the whole package.
  const read = new Set(["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml", "xl/sharedStrings.xml"]);
  for (const entry of entries) if (!read.has(entry.name) && entry.name !== part) await inflation.skip(zip, entry);
  if (part === null) return;
  const context: SheetContext = { sharedStrings, dateStyles: styles, date1904, limits };
  const decoder = new StringDecoder("utf8");
  const state = { done: false };
  let pending = "";
  let started = false;
  for await (const chunk of inflation.inflate(zip, byName.get(part) as ZipEntry)) {
    if (state.done) continue; // counted to the end, like every part
    pending += decoder.write(chunk);
    if (!started) {
      const at = pending.indexOf("<sheetData");
      if (at < 0) continue;
      started = true;
      pending = pending.slice(at);
    }
    const cut = lastRowStart(pending);
    if (cut === 0) continue;
    yield* sheetRows(pending.slice(0, cut), context, state);
    pending = pending.slice(cut);
  }
  pending += decoder.end();
  if (started && !state.done) yield* sheetRows(pending, context, state);
}

/** Streams the rows of the first worksheet, within `limits` (XLSX_LIMITS). */
export async function* readXlsxRows(source: Readable, limits: XlsxLimits = XLSX_LIMITS): AsyncGenerator<SourceRow> {
  try {
    yield* readRows(source, limits);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`XLSX inválido: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
  }
}
