import type { StringDecoder as Decoder } from "node:string_decoder";
import type { createInflateRaw as CreateInflateRaw, inflateRawSync as InflateRawSync } from "node:zlib";
import type { CellValue } from "./values";

/**
 * The XLSX reader itself: the package read through its ZIP central directory, each part inflated with node:zlib and
 * counted against its caps as it comes out of the inflater, and every part scanned as it inflates by one tokenizer
 * that keeps only the token a chunk cut in two, never what came before it. So the work and the memory grow with the
 * inflated size, not with its square.
 *
 * Everything the reader runs is inside `xlsxReaderCore`, which reaches nothing outside itself but its argument: the
 * same function runs here and, as its own source text, on the bounded thread (xlsx-thread.server.ts), where the
 * errors it makes are named copies of xlsx-reader.server.ts's classes. Keep it that way: no import, no module-level
 * value, no class field (a bundler may lower it to a helper of its module) inside the function.
 */

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

/** Why a file is refused: which cap (xlsx-reader.server.ts words it). */
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

/** The package's bytes: in memory (`bytes`), or read from a file by position. */
export type ZipInput = { size: number; bytes?: Buffer; read(position: number, length: number): Promise<Buffer> };

/** What the reader did, for tests and the bench: inflated bytes, characters scanned (re-scans included). */
export type ReadStats = { inflatedBytes: number; scannedChars: number; longestCarry: number };

export type ReadOptions = {
  /** Checked between inflated chunks: once aborted, the reading stops with the signal's reason. */
  signal?: AbortSignal;
  stats?: ReadStats;
};

export type CoreEnv = {
  createInflateRaw: typeof CreateInflateRaw;
  inflateRawSync: typeof InflateRawSync;
  StringDecoder: typeof Decoder;
  /** The error of a file that is not a readable XLSX (the message is complete). */
  unreadable(message: string): Error;
  refused(refusal: Refusal): Error;
  /** Lets other work run between chunks that came without waiting (a part stored without compression). */
  breathe(): Promise<void>;
};

type ZipEntry = {
  name: string;
  /** The name's bytes as the directory has them (the local header must have the same). */
  rawName: Buffer;
  method: number;
  compressedSize: number;
  local: number;
  dataStart: number;
};

/** A tokenizer's listener: positions are into `xml`, valid during the call only. */
type Visitor = {
  done: boolean;
  text(xml: string, from: number, to: number): void;
  /** `<name attributes>`: the name is xml[nameStart, nameEnd); the attributes end at `end` (the ">", or "/>"). */
  open(xml: string, nameStart: number, nameEnd: number, end: number, selfClosing: boolean): void;
  close(xml: string, nameStart: number, nameEnd: number): void;
};

type XmlHandler = {
  open(name: string, attributes: Record<string, string>, selfClosing: boolean): void;
  text?(text: string): void;
  close(name: string): void;
};

export function xlsxReaderCore(env: CoreEnv) {
  const MB = 1024 * 1024;
  // Text is decoded and scanned in pieces of at most this many bytes: a string past V8's regular object size
  // (128 KB) is allocated and collected several times slower.
  const PIECE = 64 * 1024;
  const SMALL = 1024 * 1024;
  const SHARED_STRINGS = "xl/sharedStrings.xml";
  const STYLES = "xl/styles.xml";
  const WORKBOOK = "xl/workbook.xml";
  const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";
  const SHEET_PART = /xl\/worksheets\/sheet\d+[.]xml/;

  const unreadable = (message: string) => env.unreadable(`XLSX inválido: ${message}`);
  const refuse = (kind: Refusal["kind"], limit: number) => env.refused({ kind, limit });
  const checkAborted = (signal: AbortSignal | undefined) => {
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
  };

  // -------------------------------------------------------------------------------------------------------------
  // The package: a ZIP read through its central directory, each entry where the directory says, none overlapping.

  /** The entries of the ZIP, in the order of its central directory (ZIP64 sizes and offsets included). */
  async function zipEntries(input: ZipInput, limits: XlsxLimits): Promise<ZipEntry[]> {
    const size = input.size;
    const tailStart = Math.max(0, size - 22 - 0xffff - 20);
    const tail = await input.read(tailStart, size - tailStart);
    let end = -1;
    for (let at = size - 22; at >= Math.max(0, size - 22 - 0xffff); at--) {
      if (tail.readUInt32LE(at - tailStart) === 0x06054b50) {
        end = at;
        break;
      }
    }
    if (end < 0) throw unreadable("o arquivo não é um pacote ZIP.");
    let count = tail.readUInt16LE(end - tailStart + 10);
    let offset = tail.readUInt32LE(end - tailStart + 16);
    let directoryEnd = end;
    const locator = end - 20 - tailStart;
    if ((offset === 0xffffffff || count === 0xffff) && locator >= 0 && tail.readUInt32LE(locator) === 0x07064b50) {
      const end64 = Number(tail.readBigUInt64LE(locator + 8));
      if (end64 + 56 > size) throw unreadable("ZIP64 corrompido.");
      const record = await input.read(end64, 56);
      if (record.readUInt32LE(0) !== 0x06064b50) throw unreadable("ZIP64 corrompido.");
      count = Number(record.readBigUInt64LE(32));
      offset = Number(record.readBigUInt64LE(48));
      directoryEnd = end64;
    }
    if (count > limits.zipEntries) throw refuse("entries", limits.zipEntries);
    if (offset > directoryEnd) throw unreadable("diretório ZIP corrompido.");
    // Names, extra fields and comments are up to 64 KB each: the directory is bounded by the entries' count.
    const directoryCap = limits.zipEntries * 1024;
    if (directoryEnd - offset > directoryCap) throw refuse("directory", directoryCap);
    const directory = await input.read(offset, directoryEnd - offset);
    const entries: ZipEntry[] = [];
    const names = new Set<string>();
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50)
        throw unreadable("diretório ZIP corrompido.");
      const flags = directory.readUInt16LE(at + 8);
      const method = directory.readUInt16LE(at + 10);
      let compressedSize = directory.readUInt32LE(at + 20);
      let size32 = directory.readUInt32LE(at + 24);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      let local = directory.readUInt32LE(at + 42);
      const nameAt = at + 46;
      if (nameAt + nameLength + extraLength + commentLength > directory.length)
        throw unreadable("diretório ZIP corrompido.");
      const name = directory.toString(flags & 0x800 ? "utf8" : "latin1", nameAt, nameAt + nameLength);
      // ZIP64: the sizes and offset that do not fit in 32 bits are in the extra field 0x0001, in this order.
      const extraEnd = nameAt + nameLength + extraLength;
      for (let field = nameAt + nameLength; field + 4 <= extraEnd; ) {
        const id = directory.readUInt16LE(field);
        const length = directory.readUInt16LE(field + 2);
        if (id === 1) {
          let value = field + 4;
          const next = () => {
            if (value + 8 > Math.min(extraEnd, field + 4 + length)) throw unreadable("ZIP64 corrompido.");
            const read = Number(directory.readBigUInt64LE(value));
            value += 8;
            return read;
          };
          if (size32 === 0xffffffff) size32 = next();
          if (compressedSize === 0xffffffff) compressedSize = next();
          if (local === 0xffffffff) local = next();
        }
        field += 4 + length;
      }
      if (names.has(name)) throw refuse("duplicate", 0);
      names.add(name);
      entries.push({
        name,
        rawName: directory.subarray(nameAt, nameAt + nameLength),
        method,
        compressedSize,
        local,
        dataStart: 0,
      });
      at = extraEnd + commentLength;
      if (i % 1024 === 1023) await env.breathe();
    }
    await locateData(input, entries, offset);
    return entries;
  }

  /** Where each entry's data starts (past its local header, whose name must be the directory's), none overlapping. */
  async function locateData(input: ZipInput, entries: ZipEntry[], directoryStart: number) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      const label = entry.name.slice(0, 100);
      if (entry.local + 30 + entry.rawName.length > directoryStart) throw unreadable(`entrada ${label} corrompida.`);
      const header = await input.read(entry.local, 30 + entry.rawName.length);
      const nameLength = header.readUInt16LE(26);
      if (
        header.readUInt32LE(0) !== 0x04034b50 ||
        nameLength !== entry.rawName.length ||
        !header.subarray(30).equals(entry.rawName)
      )
        throw unreadable(`entrada ${label} corrompida.`);
      entry.dataStart = entry.local + 30 + nameLength + header.readUInt16LE(28);
      if (entry.dataStart + entry.compressedSize > directoryStart) throw unreadable(`entrada ${label} truncada.`);
      if (i % 1024 === 1023) await env.breathe();
    }
    // Two entries sharing bytes (a file read one way by one reader and another way by another): refused.
    const byStart = [...entries].sort((a, b) => a.local - b.local);
    for (let i = 1; i < byStart.length; i++) {
      const before = byStart[i - 1];
      if (byStart[i].local < before.dataStart + before.compressedSize) throw refuse("overlap", 0);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Inflating, counted against the caps as the bytes come out of the inflater.

  type Count = { total: number; stats: ReadStats };

  /** The cap of a part read whole into the reader's tables, if it has one of its own. */
  function partCap(name: string, limits: XlsxLimits): { kind: Refusal["kind"]; limit: number } | null {
    if (name === SHARED_STRINGS) return { kind: "sharedStringBytes", limit: limits.sharedStringBytes };
    if (name === STYLES) return { kind: "stylesBytes", limit: limits.stylesBytes };
    if (name === WORKBOOK) return { kind: "workbookBytes", limit: limits.workbookBytes };
    if (name === WORKBOOK_RELS) return { kind: "relsBytes", limit: limits.relsBytes };
    return null;
  }

  /** The inflated chunks of `entry`, each counted before it is given. */
  async function* inflate(
    input: ZipInput,
    entry: ZipEntry,
    count: Count,
    limits: XlsxLimits,
    options: ReadOptions,
  ): AsyncGenerator<Buffer> {
    const cap = partCap(entry.name, limits);
    const part = { bytes: 0, run: 0 };
    const counted = (chunk: Buffer) => {
      countChunk(chunk, count, part, cap, limits);
      return chunk;
    };
    if (entry.method === 0) {
      for (let at = 0; at < entry.compressedSize; at += MB) {
        checkAborted(options.signal);
        yield counted(await input.read(entry.dataStart + at, Math.min(MB, entry.compressedSize - at)));
        await env.breathe();
      }
      return;
    }
    if (entry.method !== 8) throw unreadable(`entrada ${entry.name} com compressão ${entry.method}.`);
    const small = smallPart(input, entry);
    if (small) {
      checkAborted(options.signal);
      yield counted(small);
      return;
    }
    const inflater = env.createInflateRaw({ chunkSize: 256 * 1024 });
    if (input.bytes) inflater.end(input.bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize));
    else void pump(input, entry, inflater);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        checkAborted(options.signal);
        yield counted(chunk);
      }
    } finally {
      inflater.destroy();
    }
  }

  /**
   * A small part (most of a package's) inflated at once, which costs a tenth of a stream's setup: at most SMALL bytes
   * of output, so the event loop waits a millisecond at most. Null for a larger part, or one that fails (the stream
   * then inflates it, and reports its error).
   */
  function smallPart(input: ZipInput, entry: ZipEntry): Buffer | null {
    if (!input.bytes || entry.compressedSize > SMALL / 16) return null;
    try {
      const data = input.bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
      return env.inflateRawSync(data, { maxOutputLength: SMALL });
    } catch {
      return null;
    }
  }

  /** Feeds the entry's compressed bytes from a file to the inflater, a MB at a time, as it takes them. */
  async function pump(input: ZipInput, entry: ZipEntry, inflater: ReturnType<typeof CreateInflateRaw>) {
    try {
      for (let at = 0; at < entry.compressedSize && !inflater.destroyed; at += MB) {
        const slice = await input.read(entry.dataStart + at, Math.min(MB, entry.compressedSize - at));
        if (inflater.destroyed) return;
        if (!inflater.write(slice))
          await new Promise<void>((resolve) => {
            const go = () => {
              inflater.off("drain", go);
              inflater.off("close", go);
              resolve();
            };
            inflater.on("drain", go);
            inflater.on("close", go);
          });
      }
      if (!inflater.destroyed) inflater.end();
    } catch (error) {
      inflater.destroy(error as Error);
    }
  }

  function countChunk(
    bytes: Buffer,
    count: Count,
    part: { bytes: number; run: number },
    cap: { kind: Refusal["kind"]; limit: number } | null,
    limits: XlsxLimits,
  ): void {
    count.total += bytes.length;
    count.stats.inflatedBytes = count.total;
    part.bytes += bytes.length;
    const first = bytes.indexOf(0x3c);
    let longest: number;
    if (first < 0) longest = part.run += bytes.length;
    else {
      const last = bytes.lastIndexOf(0x3c);
      const inside = bytes.length > limits.tokenBytes ? longestRun(bytes.subarray(first + 1, last)) : 0;
      longest = Math.max(part.run + first, inside, bytes.length - 1 - last);
      part.run = bytes.length - 1 - last;
    }
    if (count.total > limits.inflatedBytes) throw refuse("inflated", limits.inflatedBytes);
    if (cap && part.bytes > cap.limit) throw refuse(cap.kind, cap.limit);
    if (longest > limits.tokenBytes) throw refuse("token", limits.tokenBytes);
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

  // -------------------------------------------------------------------------------------------------------------
  // XML: one streaming tokenizer, and text as an XML parser gives it.

  const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;
  const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

  /** XML text or attribute value as a parser gives it: entities and character references replaced, line ends as \n. */
  function xmlText(raw: string): string {
    let text = raw;
    if (text.indexOf("\r") >= 0) text = text.replace(/\r\n?/g, "\n");
    if (text.indexOf("&") < 0) return text;
    return text.replace(ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (name) return NAMED[name];
      const code = hex ? Number.parseInt(hex, 16) : Number.parseInt(dec as string, 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
    });
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

  const isNameEnd = (code: number) =>
    code === 32 || code === 47 || code === 62 || code === 9 || code === 10 || code === 13;

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

  /**
   * Tokens of a part fed in pieces: each complete tag and text goes to `visitor` as it is found; a token cut by the
   * piece's end (a tag, the text before the next tag) is kept and completed by the next piece. Comments, CDATA,
   * processing instructions and declarations are skipped as they stream, keeping only their last two characters.
   * What is kept is at most `tokenBytes` characters: past it the file is refused.
   */
  function tokenizer(visitor: Visitor, limits: XlsxLimits, stats: ReadStats) {
    let carry = "";
    let skip = ""; // the end of the comment, CDATA, instruction or declaration being skipped
    return {
      /** The characters kept from the last piece (a token it cut). */
      get carried(): number {
        return carry.length;
      },
      /** Whether the part ended inside a token (a truncated tag or comment). */
      get cut(): boolean {
        return skip !== "" || carry.charCodeAt(0) === 60;
      },
      feed(piece: string, last: boolean): void {
        const xml = carry.length > 0 ? carry + piece : piece;
        carry = "";
        stats.scannedChars += xml.length;
        const length = xml.length;
        let at = 0;
        while (at < length && !visitor.done) {
          if (skip !== "") {
            const end = xml.indexOf(skip, at);
            if (end < 0) {
              at = Math.max(at, length - (skip.length - 1));
              break;
            }
            at = end + skip.length;
            skip = "";
            continue;
          }
          const lt = xml.indexOf("<", at);
          if (lt < 0) break; // text to the end: kept until its tag comes
          if (lt > at) visitor.text(xml, at, lt);
          at = lt;
          const next = xml.charCodeAt(lt + 1);
          if (next === 33 /* ! */ || next === 63 /* ? */) {
            if (lt + 9 > length && !last) break; // "<!--" and "<![CDATA[" are told apart by what follows
            skip =
              next === 63 ? "?>" : xml.startsWith("<!--", lt) ? "-->" : xml.startsWith("<![CDATA[", lt) ? "]]>" : ">";
            at = lt + 2;
          } else if (next === 47 /* / */) {
            const end = xml.indexOf(">", lt + 2);
            if (end < 0) break;
            visitor.close(xml, lt + 2, end);
            at = end + 1;
          } else {
            const end = tagEnd(xml, lt);
            if (end < 0) break;
            let nameEnd = lt + 1;
            while (nameEnd < end && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
            visitor.open(xml, lt + 1, nameEnd, end, xml.charCodeAt(end - 1) === 47);
            at = end + 1;
          }
        }
        if (at < length && !visitor.done) carry = xml.slice(at);
        if (carry.length > stats.longestCarry) stats.longestCarry = carry.length;
        if (carry.length > limits.tokenBytes) throw refuse("token", limits.tokenBytes);
      },
    };
  }

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

  /** A tokenizer's listener for a handler of names and attribute maps (the small parts). */
  function handlerVisitor(handler: XmlHandler): Visitor {
    return {
      done: false,
      text(xml, from, to) {
        if (handler.text) handler.text(xmlText(xml.slice(from, to)));
      },
      open(xml, nameStart, nameEnd, end, selfClosing) {
        const name = xml.slice(nameStart, nameEnd);
        handler.open(name, attributesOf(xml, nameEnd, selfClosing ? end - 1 : end), selfClosing);
        if (selfClosing) handler.close(name);
      },
      close(xml, nameStart, nameEnd) {
        handler.close(xml.slice(nameStart, nameEnd).trim());
      },
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // The workbook's parts.

  /** The number formats exceljs knows by id (ECMA-376's built-in ones) that are dates: 14–22 and 45–47. */
  const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

  /** A date format as exceljs decides it: y, m, d, h, M, s or b outside [brackets] and "quotes". */
  function isDateFormat(code: string): boolean {
    return /[ymdhMsb]/.test(withoutGroups(withoutGroups(code, "[", "]"), '"', '"'));
  }

  /**
   * `text` without each run from `open` to the next `close` (what `replace(/\[[^\]]*]/g, "")` does, in one pass: the
   * expression tries every `open` against the rest of the text, which is quadratic when no `close` follows).
   */
  function withoutGroups(text: string, open: string, close: string): string {
    let kept = "";
    let from = 0;
    for (;;) {
      const start = text.indexOf(open, from);
      if (start < 0) break;
      const end = text.indexOf(close, start + 1);
      if (end < 0) break;
      kept += text.slice(from, start);
      from = end + 1;
    }
    return kept + text.slice(from);
  }

  /** For each cell style (cellXfs) index, whether it shows a date; null where the style has no number format. */
  function dateStylesHandler(styles: (boolean | null)[]): XmlHandler {
    const custom = new Map<number, string>();
    let inCellXfs = false;
    return {
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
    };
  }

  /**
   * The shared strings, as exceljs reads them: a plain item is its text (null if none), a rich one the join of its
   * runs. Like exceljs, each <t> starts the text anew (a phonetic <rPh><t> after a plain <t> replaces it).
   */
  function sharedStringsHandler(strings: (string | null)[], limits: XlsxLimits): XmlHandler {
    let text: string | null = null;
    let runs: string[] = [];
    return {
      open(name) {
        if (name === "si") {
          runs = [];
          text = null;
        } else if (name === "t") text = null;
      },
      text(value) {
        text = text ? text + value : value;
      },
      close(name) {
        if (name === "r") {
          runs.push(text ?? "");
          text = null;
        } else if (name === "si") {
          if (strings.length + 1 > limits.sharedStrings) throw refuse("sharedStrings", limits.sharedStrings);
          strings.push(runs.length ? runs.join("") : text);
          runs = [];
          text = null;
        }
      },
    };
  }

  /** The part's path a relationship's target names, from xl/. */
  function partPath(target: string): string {
    const path = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
    const parts: string[] = [];
    for (const segment of path.split("/")) {
      if (segment === "..") parts.pop();
      else if (segment !== "." && segment !== "") parts.push(segment);
    }
    return parts.join("/");
  }

  // -------------------------------------------------------------------------------------------------------------
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
      if (col > 0x7fffffff) break;
    }
    return col;
  }

  /** An Excel serial date as exceljs turns it into a Date (days since 1899-12-30, or 1904-01-01 with date1904). */
  function excelDate(serial: number, date1904: boolean): Date {
    return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
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
   * The rows of the worksheet's <sheetData>, as exceljs's WorksheetReader builds them, into `out` as their </row>
   * comes: a row per <row> (its number from r, or the one after the row before when r is missing), each cell at the
   * column of its reference; a cell counts when it has a value (<v>, <is>/<t>, or a formula, even without a cached
   * result); the row's cells run to its last counted cell, missing ones null. What comes before <sheetData> is
   * tokenized and passed over; at </sheetData> the visitor is done.
   */
  function sheetVisitor(context: SheetContext, out: SourceRow[]) {
    const { sharedStrings, dateStyles, date1904, limits } = context;
    let started = false;
    let rows = 0;
    let cellCount = 0; // the cells of the rows given, as dense arrays
    let cells: CellValue[] | null = null;
    let line = 0;
    let rowDate = false;
    // the cell being read
    let inCell = false;
    let ref = "";
    let type: string | undefined;
    let style = 0;
    let formula = false;
    let value: string | null = null; // the text of the current <v>/<t>/<is>, null before one
    let reading = 0; // 0: text goes nowhere, 1: into value, 2: into a formula (not kept)

    const endRow = () => {
      if (!cells) return;
      cellCount += cells.length;
      if (cellCount > limits.cells) throw refuse("cells", limits.cells);
      out.push({ line, cells });
      cells = null;
    };

    const visitor = {
      done: false,
      /** Whether <sheetData> was opened (an unfinished tag before it is no error, as before). */
      get started(): boolean {
        return started;
      },
      /** Whether a <row> is open. */
      get inRow(): boolean {
        return cells !== null;
      },
      text(xml: string, from: number, to: number) {
        if (!inCell || reading !== 1) return;
        value += xmlText(xml.slice(from, to));
        if ((value as string).length > limits.tokenBytes) throw refuse("token", limits.tokenBytes);
      },
      close(xml: string, from: number, end: number) {
        if (!started) return;
        const length = end - from;
        const c1 = xml.charCodeAt(from);
        if (length === 1 && c1 === 99 /* c */) {
          if (inCell && cells) {
            const cellValue = cellValueOf(type, style, formula, value, rowDate);
            if (cellValue !== undefined) {
              const col = columnOf(ref);
              if (col === 0) throw unreadable(`referência de célula inválida: ${ref.slice(0, 20)}.`);
              if (col > limits.columns) throw refuse("columns", limits.columns);
              while (cells.length < col) cells.push(null);
              cells[col - 1] = cellValue;
            }
          }
          inCell = false;
          reading = 0;
        } else if (length === 3 && xml.startsWith("row", from)) {
          endRow();
        } else if (length === 9 && xml.startsWith("sheetData", from)) {
          visitor.done = true;
        }
        // </v>, </t>, </is>, </f>: exceljs keeps adding text to the last <v>/<t>/<f> until another starts (only
        // whitespace): kept.
      },
      open(xml: string, nameStart: number, nameEnd: number, end: number, selfClosing: boolean) {
        const nameLength = nameEnd - nameStart;
        const c1 = xml.charCodeAt(nameStart);
        if (!started) {
          if (nameLength === 9 && xml.startsWith("sheetData", nameStart)) {
            if (selfClosing) visitor.done = true;
            else started = true;
          }
          return;
        }
        if (nameLength === 1 && c1 === 99 /* c */) {
          if (!cells) return;
          const tag = xml.slice(nameEnd, selfClosing ? end - 1 : end);
          ref = attribute(tag, "r") ?? "";
          type = attribute(tag, "t");
          const s = attribute(tag, "s");
          style = s === undefined ? 0 : Number.parseInt(s, 10);
          formula = false;
          value = null;
          reading = 0;
          inCell = !selfClosing; // a self-closing cell has no value: nothing to add
        } else if (nameLength === 1 && c1 === 118 /* v */) {
          if (!inCell) return;
          value = "";
          reading = 1;
        } else if (nameLength === 1 && c1 === 102 /* f */) {
          if (!inCell) return;
          formula = true;
          reading = 2;
        } else if ((nameLength === 1 && c1 === 116) /* t */ || (nameLength === 2 && xml.startsWith("is", nameStart))) {
          if (!inCell) return;
          value = "";
          reading = 1;
        } else if (nameLength === 3 && xml.startsWith("row", nameStart)) {
          endRow(); // a row not closed before the next one
          // Rows are counted as they come: a repeated or missing r gets no row past the cap.
          if (++rows > limits.rows) throw refuse("rows", limits.rows);
          const tag = xml.slice(nameEnd, selfClosing ? end - 1 : end);
          const r = Number.parseInt(attribute(tag, "r") as string, 10);
          line = r > 0 ? r : line + 1;
          if (line > limits.rows) throw refuse("rows", limits.rows);
          const s = attribute(tag, "s");
          const rowStyle = s === undefined ? undefined : dateStyles[Number.parseInt(s, 10)];
          rowDate = rowStyle === true;
          cells = [];
          if (selfClosing) endRow();
        } else if (nameLength === 9 && xml.startsWith("sheetData", nameStart) && selfClosing) {
          visitor.done = true;
        }
      },
    };
    return visitor;

    function cellValueOf(
      t: string | undefined,
      s: number,
      f: boolean,
      v: string | null,
      inheritedDate: boolean,
    ): CellValue | undefined {
      if (f) {
        // A formula: its cached result as the spreadsheet shows it, never a date; none cached is an empty cell.
        // (exceljs kept a result only when it was truthy, so a formula showing 0, "" or an error, or not yet
        // calculated, read as "[object Object]".) A formula without text (a shared formula's other cells) reads
        // the same way.
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

  // -------------------------------------------------------------------------------------------------------------
  // The package, part by part.

  type Reading = {
    input: ZipInput;
    limits: XlsxLimits;
    options: ReadOptions;
    count: Count;
  };

  /**
   * Feeds an inflated chunk to `tokens`, decoded in pieces of PIECE bytes or of as many as it carries: a token longer
   * than a piece is scanned again each time it doubles, not once a piece.
   */
  function feedChunk(
    tokens: ReturnType<typeof tokenizer>,
    decoder: InstanceType<CoreEnv["StringDecoder"]>,
    chunk: Buffer,
    visitor: Visitor,
  ): void {
    for (let at = 0; at < chunk.length && !visitor.done; ) {
      const size = Math.max(PIECE, tokens.carried);
      tokens.feed(decoder.write(chunk.subarray(at, at + size)), false);
      at += size;
    }
  }

  /** Inflates `entry` into `visitor` (past its end only counted); "XML truncado." when it ends inside a token. */
  async function scanPart(reading: Reading, entry: ZipEntry, visitor: Visitor): Promise<void> {
    const decoder = new env.StringDecoder("utf8");
    const tokens = tokenizer(visitor, reading.limits, reading.count.stats);
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

  /** Streams the rows of the first worksheet of the package in `input`, within `limits`. */
  async function* readRows(input: ZipInput, limits: XlsxLimits, options: ReadOptions = {}): AsyncGenerator<SourceRow> {
    const stats = options.stats ?? { inflatedBytes: 0, scannedChars: 0, longestCarry: 0 };
    const reading: Reading = { input, limits, options, count: { total: 0, stats } };
    checkAborted(options.signal);
    const entries = await zipEntries(input, limits);
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    const scan = async (name: string, handler: XmlHandler) => {
      const entry = byName.get(name);
      if (entry) await scanPart(reading, entry, handlerVisitor(handler));
    };

    // The first sheet: workbook.xml's first <sheet>, through its relationship; and the date system.
    let rId: string | null = null;
    let date1904 = false;
    await scan(WORKBOOK, {
      open(name, attributes) {
        if (name === "workbookPr") date1904 = attributes.date1904 === "1";
        else if (name === "sheet" && rId === null) rId = attributes["r:id"] ?? null;
      },
      close() {},
    });
    let target: string | null = null;
    await scan(WORKBOOK_RELS, {
      open(name, attributes) {
        if (name === "Relationship" && rId !== null && attributes.Id === rId && target === null)
          target = attributes.Target ?? null;
      },
      close() {},
    });
    let part = target === null ? null : partPath(target);
    // Without the workbook's own pointer, the first worksheet part in the package (exceljs's choice).
    if (part === null || !byName.has(part)) part = entries.find((entry) => SHEET_PART.test(entry.name))?.name ?? null;

    const dateStyles: (boolean | null)[] = [];
    await scan(STYLES, dateStylesHandler(dateStyles));
    const sharedStrings: (string | null)[] = [];
    await scan(SHARED_STRINGS, sharedStringsHandler(sharedStrings, limits));
    // Every other part is inflated too, only to be counted: the caps hold for the whole package.
    const read = new Set([WORKBOOK, WORKBOOK_RELS, STYLES, SHARED_STRINGS]);
    for (const entry of entries) if (!read.has(entry.name) && entry.name !== part) await skipPart(reading, entry);
    if (part === null) return;

    const out: SourceRow[] = [];
    const sheet = sheetVisitor({ sharedStrings, dateStyles, date1904, limits }, out);
    const decoder = new env.StringDecoder("utf8");
    const tokens = tokenizer(sheet, limits, stats);
    for await (const chunk of inflate(input, byName.get(part) as ZipEntry, reading.count, limits, options)) {
      if (sheet.done) continue; // counted to the end, like every part
      feedChunk(tokens, decoder, chunk, sheet);
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
    }
    if (!sheet.done) tokens.feed(decoder.end(), true);
    for (let i = 0; i < out.length; i++) yield out[i];
    if (!sheet.done && sheet.started && (sheet.inRow || tokens.cut)) throw unreadable("XML truncado.");
  }

  return { readRows, zipEntries };
}
