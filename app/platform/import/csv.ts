/**
 * The worker's CSV record parser: RFC 4180 quoting, fed text chunk by chunk, with the physical line
 * number each record ends on. It replaces csv-parse in the import, which spent much of its time per row on its
 * `info` bookkeeping; this parser slices fields straight out of the decoded text.
 *
 * It splits records exactly as csv-parse did with the options the worker used (`relax_column_count`,
 * `skip_empty_lines`, no trimming, `"` as quote and escape):
 * - the record delimiter is the first line break found outside quotes (`\r\n`, `\n` or `\r`) and stays
 *   that for the whole file; other line breaks outside quotes are field text, as csv-parse keeps them;
 * - a field that starts with `"` is quoted: delimiters and line breaks inside it are text, `""` is one `"`;
 *   after its closing quote only a delimiter, the record delimiter or the end of the file may follow;
 * - a `"` inside an unquoted field, text after a closing quote and a quote still open at the end are errors;
 * - a line with nothing on it yields no record (a line with only delimiters or spaces does).
 *
 * Line numbers count `\r\n`, `\n` and a lone `\r` as one line break each, wherever they are, so a record
 * with a quoted multi-line cell is numbered like an editor would. csv-parse counted a `\r\n` inside quotes
 * as two lines (app/features/uploads-and-jobs/csv-reader.test.ts compares both).
 */

/** One record: the 1-based physical line it ends on, and its fields. */
export type CsvRecord = { line: number; cells: string[] };

/** The text is not valid CSV; the message is in Portuguese and names the line. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

/**
 * A record longer than this (in characters) stops the import: no template accepts a value near that
 * size, and an unclosed quote would otherwise buffer the rest of a multi-gigabyte file in memory.
 */
export const MAX_RECORD_CHARS = 1 << 20;

const QUOTE = 34;
const CR = 13;
const LF = 10;

// Parser states.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote was read inside a quoted field: the next character says whether it closed the field. */
const QUOTE_SEEN = 3;

// Record delimiters.
const RD_UNKNOWN = 0;
const RD_LF = 1;
const RD_CRLF = 2;
const RD_CR = 3;

/** What a parser between runs holds instead of the caller's array. */
const NO_RECORDS: CsvRecord[] = [];

function describeChar(code: number): string {
  if (code === CR) return "\\r";
  if (code === LF) return "\\n";
  return String.fromCharCode(code);
}

export class CsvRecordParser {
  private readonly delimiter: number;
  private state = FIELD_START;
  private rd = RD_UNKNOWN;
  /** Fields of the record being read. */
  private fields: string[] = [];
  /** The current field's text read from earlier chunks (unescaped when quoted). */
  private piece = "";
  /** Characters of the current record read from earlier chunks. */
  private recordChars = 0;
  /** Physical line of the next unread character. */
  private line = 1;
  /** The character before the unread text (0 at the start). */
  private prevChar = 0;
  /** Unread text kept for the next chunk: a final `\r` that is a line break on its own or the start of `\r\n`. */
  private carry = "";
  /** Line where the open quoted field started (for the "quote not closed" message). */
  private quoteLine = 1;
  private ended = false;
  // The run in progress (see run): its text, whether it ends the file, where its records go, and positions in it.
  private text = "";
  private final = false;
  private out: CsvRecord[] = NO_RECORDS;
  /** The next unread character. */
  private pos = 0;
  /** Where the current field's text starts. */
  private segStart = 0;
  /** Where the current record starts. */
  private recordStart = 0;

  constructor(delimiter: string) {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\r" || delimiter === "\n")
      throw new Error(`unsupported delimiter ${JSON.stringify(delimiter)}`);
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Reads the next part of the text; the records it completes are appended to `out`. */
  push(text: string, out: CsvRecord[]): void {
    if (this.ended) throw new Error("push after end");
    const s = this.carry.length > 0 ? this.carry + text : text;
    this.carry = "";
    this.run(s, false, out);
  }

  /** The end of the text: the last record (if any) is appended to `out`. */
  end(out: CsvRecord[]): void {
    if (this.ended) return;
    const s = this.carry;
    this.carry = "";
    this.run(s, true, out);
    this.ended = true;
  }

  /** Length of the record delimiter at `j` (a CR or LF): 0 when it is field text, -1 when the next chunk decides. */
  private delimiterAt(s: string, j: number, final: boolean): number {
    const c = s.charCodeAt(j);
    switch (this.rd) {
      case RD_LF:
        return c === LF ? 1 : 0;
      case RD_CR:
        return c === CR ? 1 : 0;
      case RD_CRLF:
        if (c !== CR) return 0;
        if (j + 1 < s.length) return s.charCodeAt(j + 1) === LF ? 2 : 0;
        return final ? 0 : -1;
      default:
        if (c === LF) {
          this.rd = RD_LF;
          return 1;
        }
        if (j + 1 < s.length) {
          this.rd = s.charCodeAt(j + 1) === LF ? RD_CRLF : RD_CR;
          return this.rd === RD_CRLF ? 2 : 1;
        }
        if (!final) return -1;
        this.rd = RD_CR;
        return 1;
    }
  }

  /**
   * Reads `s` (the carry and a chunk) as far as it decides. The parser's state lives on the instance between chunks
   * and, within a run, so do the positions in `s`: each state's step reads from `pos` and says whether to go on.
   */
  private run(s: string, final: boolean, out: CsvRecord[]): void {
    this.text = s;
    this.final = final;
    this.out = out;
    this.pos = 0;
    this.segStart = 0;
    this.recordStart = 0;
    const n = s.length;
    for (let going = true; going && this.pos < n; ) {
      if (this.state === FIELD_START) this.fieldStart();
      const state = this.state;
      if (state === UNQUOTED) going = this.unquoted();
      else if (state === QUOTED) going = this.quoted();
      else going = this.quoteSeen();
    }
    if (final) this.endText();
    else this.keepRest();
    this.text = "";
    this.out = NO_RECORDS;
  }

  /** The character before position `j` of the text (the one before the text at 0). */
  private charBefore(j: number): number {
    return j > 0 ? this.text.charCodeAt(j - 1) : this.prevChar;
  }

  /** Ends the current record before position `j` (`atEnd`: the end of the file). */
  private emit(j: number, atEnd: boolean): void {
    const line = this.line;
    if (this.recordChars + (j - this.recordStart) > MAX_RECORD_CHARS) {
      throw new CsvSyntaxError(`linha ${line} com mais de ${MAX_RECORD_CHARS} caracteres (aspas não fechadas?)`, line);
    }
    // A record ending at a `\n` right after a `\r` of its text (a `\r\n` in a `\n` file), or at the end of
    // the file right after a line break kept as text, ends on the line that break closed.
    const before = this.charBefore(j);
    const recordLine =
      (atEnd && (before === CR || before === LF)) || (this.rd === RD_LF && before === CR) ? line - 1 : line;
    this.out.push({ line: recordLine, cells: this.fields });
    this.fields = [];
    this.recordChars = 0;
  }

  /** A line break at `j` (a CR or LF) counts as a line unless it is the `\n` of a `\r\n`. */
  private countLine(c: number, j: number): void {
    if (c === CR || this.charBefore(j) !== CR) this.line++;
  }

  /** A field begins: quoted when its first character is a quote. */
  private fieldStart(): void {
    if (this.text.charCodeAt(this.pos) === QUOTE) {
      this.state = QUOTED;
      this.quoteLine = this.line;
      this.segStart = ++this.pos;
      return;
    }
    this.state = UNQUOTED;
    this.segStart = this.pos;
  }

  /**
   * An unquoted field, up to a delimiter or a line break, and the unquoted fields after it on the same line (most rows
   * are a run of them); false when the text ends first (the next chunk decides).
   */
  private unquoted(): boolean {
    const s = this.text;
    const n = s.length;
    const delimiter = this.delimiter;
    let j = this.pos;
    let c = 0;
    for (;;) {
      for (; j < n; j++) {
        c = s.charCodeAt(j);
        if (c === delimiter || c === QUOTE || c === CR || c === LF) break;
      }
      if (j === n) {
        this.pos = n;
        return false;
      }
      if (c !== delimiter) break;
      this.fields.push(this.fieldText(j));
      j++;
      if (j === n || s.charCodeAt(j) === QUOTE) {
        this.state = FIELD_START;
        this.pos = j;
        return true;
      }
      this.segStart = j;
    }
    if (c === QUOTE) {
      throw new CsvSyntaxError(
        `aspas no meio de um campo sem aspas (linha ${this.line}, coluna ${this.fields.length + 1})`,
        this.line,
      );
    }
    return this.lineBreakInField(c, j);
  }

  /** The unquoted field's text up to `j` (with what earlier chunks held of it); the field is done. */
  private fieldText(j: number): string {
    const piece = this.piece;
    this.piece = "";
    return piece.length > 0 ? piece + this.text.slice(this.segStart, j) : this.text.slice(this.segStart, j);
  }

  /** A line break at `j` in an unquoted field: the record's end, field text, or (false) for the next chunk to decide. */
  private lineBreakInField(c: number, j: number): boolean {
    const rdLength = this.delimiterAt(this.text, j, this.final);
    if (rdLength < 0) {
      this.piece += this.text.slice(this.segStart, j);
      this.segStart = j;
      this.pos = j;
      return false;
    }
    if (rdLength === 0) {
      // A line break that is field text (not this file's record delimiter): still a physical line.
      this.countLine(c, j);
      this.pos = j + 1;
      return true;
    }
    const field = this.fieldText(j);
    if (this.fields.length === 0 && field.length === 0) {
      this.recordChars = 0; // an empty line: no record
    } else {
      this.fields.push(field);
      this.emit(j, false);
    }
    this.countLine(c, j);
    this.pos = j + rdLength;
    this.recordStart = this.pos;
    this.state = FIELD_START;
    return true;
  }

  /** A quoted field's text, up to the next quote; false when the text ends first. */
  private quoted(): boolean {
    const s = this.text;
    const n = s.length;
    let j = this.pos;
    let line = this.line;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c === QUOTE) break;
      if (c === CR || (c === LF && (j > 0 ? s.charCodeAt(j - 1) : this.prevChar) !== CR)) line++;
    }
    this.line = line;
    this.piece += s.slice(this.segStart, j);
    if (j === n) {
      this.pos = n;
      return false;
    }
    this.state = QUOTE_SEEN;
    this.pos = j + 1;
    return true;
  }

  /** After a quote inside a quoted field: `""` is a quote; a delimiter or the record delimiter closes the field. */
  private quoteSeen(): boolean {
    const i = this.pos;
    const c = this.text.charCodeAt(i);
    if (c === QUOTE) {
      this.piece += '"';
      this.state = QUOTED;
      this.pos = i + 1;
      this.segStart = this.pos;
      return true;
    }
    if (c === this.delimiter) {
      this.fields.push(this.piece);
      this.piece = "";
      this.state = FIELD_START;
      this.pos = i + 1;
      return true;
    }
    if (c === CR || c === LF) {
      const rdLength = this.delimiterAt(this.text, i, this.final);
      if (rdLength < 0) return false;
      if (rdLength > 0) {
        this.fields.push(this.piece);
        this.piece = "";
        this.emit(i, false);
        this.countLine(c, i);
        this.pos = i + rdLength;
        this.recordStart = this.pos;
        this.state = FIELD_START;
        return true;
      }
    }
    throw new CsvSyntaxError(
      `caractere "${describeChar(c)}" depois das aspas que fecham um campo (linha ${this.line}, coluna ${this.fields.length + 1})`,
      this.line,
    );
  }

  /** The end of the file: the last field and record, or the error of a quote left open. */
  private endText(): void {
    const n = this.text.length;
    const state = this.state;
    if (state === QUOTED)
      throw new CsvSyntaxError(
        `aspas abertas na linha ${this.quoteLine} não foram fechadas até o fim do arquivo`,
        this.quoteLine,
      );
    if (state === UNQUOTED) {
      this.fields.push(this.piece + this.text.slice(this.segStart, n));
      this.emit(n, true);
    } else if (state === QUOTE_SEEN || this.fields.length > 0) {
      this.fields.push(state === QUOTE_SEEN ? this.piece : "");
      this.emit(n, true);
    }
    this.piece = "";
    this.state = FIELD_START;
  }

  /** The end of a chunk: keeps what the next chunk decides on, and the current field's text read so far. */
  private keepRest(): void {
    const s = this.text;
    const n = s.length;
    const i = this.pos;
    if (i < n) this.carry = s.slice(i);
    else if (this.state === UNQUOTED) this.piece += s.slice(this.segStart, n);
    if (i > 0) this.prevChar = s.charCodeAt(i - 1);
    this.recordChars += i - this.recordStart;
    if (this.recordChars > MAX_RECORD_CHARS) {
      throw new CsvSyntaxError(
        `linha ${this.line} com mais de ${MAX_RECORD_CHARS} caracteres (aspas não fechadas?)`,
        this.line,
      );
    }
  }
}
