/**
 * The worker's CSV record parser: RFC 4180 quoting, fed text chunk by chunk, with the physical line
 * number each record ends on. It replaces csv-parse in the import (csv-parse spent ~11 µs per row,
 * 3 µs of it in its `info` bookkeeping; this parser slices fields straight out of the decoded text).
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

  private run(s: string, final: boolean, out: CsvRecord[]): void {
    const n = s.length;
    const delimiter = this.delimiter;
    let state = this.state;
    let fields = this.fields;
    let piece = this.piece;
    let line = this.line;
    let i = 0;
    let segStart = 0; // start of the current field's text in s
    let recordStart = 0; // start of the current record in s
    let recordChars = this.recordChars;
    const charBefore = (j: number) => (j > 0 ? s.charCodeAt(j - 1) : this.prevChar);
    // A `\n` right after a `\r` ends the same line break.
    const afterCR = (j: number) => charBefore(j) === CR;
    const emit = (j: number, atEnd: boolean) => {
      if (recordChars + (j - recordStart) > MAX_RECORD_CHARS) {
        throw new CsvSyntaxError(
          `linha ${line} com mais de ${MAX_RECORD_CHARS} caracteres (aspas não fechadas?)`,
          line,
        );
      }
      // A record ending at a `\n` right after a `\r` of its text (a `\r\n` in a `\n` file), or at the end of
      // the file right after a line break kept as text, ends on the line that break closed.
      const before = charBefore(j);
      const recordLine =
        (atEnd && (before === CR || before === LF)) || (this.rd === RD_LF && before === CR) ? line - 1 : line;
      out.push({ line: recordLine, cells: fields });
      fields = [];
      recordChars = 0;
    };

    while (i < n) {
      if (state === FIELD_START) {
        if (s.charCodeAt(i) === QUOTE) {
          state = QUOTED;
          this.quoteLine = line;
          segStart = ++i;
          continue;
        }
        state = UNQUOTED;
        segStart = i;
      }
      if (state === UNQUOTED) {
        let j = i;
        let c = 0;
        for (; j < n; j++) {
          c = s.charCodeAt(j);
          if (c === delimiter || c === QUOTE || c === CR || c === LF) break;
        }
        if (j === n) {
          i = n;
          break;
        }
        if (c === delimiter) {
          fields.push(piece.length > 0 ? piece + s.slice(segStart, j) : s.slice(segStart, j));
          piece = "";
          state = FIELD_START;
          i = j + 1;
          continue;
        }
        if (c === QUOTE) {
          throw new CsvSyntaxError(
            `aspas no meio de um campo sem aspas (linha ${line}, coluna ${fields.length + 1})`,
            line,
          );
        }
        const rdLength = this.delimiterAt(s, j, final);
        if (rdLength < 0) {
          piece += s.slice(segStart, j);
          segStart = j;
          i = j;
          break;
        }
        if (rdLength === 0) {
          // A line break that is field text (not this file's record delimiter): still a physical line.
          if (c === CR || !afterCR(j)) line++;
          i = j + 1;
          continue;
        }
        const field = piece.length > 0 ? piece + s.slice(segStart, j) : s.slice(segStart, j);
        piece = "";
        if (fields.length === 0 && field.length === 0) {
          recordChars = 0; // an empty line: no record
        } else {
          fields.push(field);
          emit(j, false);
        }
        if (c === CR || !afterCR(j)) line++;
        i = j + rdLength;
        recordStart = i;
        state = FIELD_START;
        continue;
      }
      if (state === QUOTED) {
        let j = i;
        for (; j < n; j++) {
          const c = s.charCodeAt(j);
          if (c === QUOTE) break;
          if (c === CR || (c === LF && !afterCR(j))) line++;
        }
        piece += s.slice(segStart, j);
        if (j === n) {
          i = n;
          break;
        }
        state = QUOTE_SEEN;
        i = j + 1;
        continue;
      }
      // QUOTE_SEEN
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        piece += '"';
        state = QUOTED;
        segStart = ++i;
        continue;
      }
      if (c === delimiter) {
        fields.push(piece);
        piece = "";
        state = FIELD_START;
        i++;
        continue;
      }
      if (c === CR || c === LF) {
        const rdLength = this.delimiterAt(s, i, final);
        if (rdLength < 0) break;
        if (rdLength > 0) {
          fields.push(piece);
          piece = "";
          emit(i, false);
          if (c === CR || !afterCR(i)) line++;
          i += rdLength;
          recordStart = i;
          state = FIELD_START;
          continue;
        }
      }
      throw new CsvSyntaxError(
        `caractere "${describeChar(c)}" depois das aspas que fecham um campo (linha ${line}, coluna ${fields.length + 1})`,
        line,
      );
    }

    if (final) {
      if (state === QUOTED)
        throw new CsvSyntaxError(
          `aspas abertas na linha ${this.quoteLine} não foram fechadas até o fim do arquivo`,
          this.quoteLine,
        );
      if (state === UNQUOTED) {
        fields.push(piece + s.slice(segStart, n));
        emit(n, true);
      } else if (state === QUOTE_SEEN || fields.length > 0) {
        fields.push(state === QUOTE_SEEN ? piece : "");
        emit(n, true);
      }
      piece = "";
      state = FIELD_START;
    } else {
      // Keep what the next chunk decides on, and the current field's text read so far.
      if (i < n) this.carry = s.slice(i);
      else if (state === UNQUOTED) piece += s.slice(segStart, n);
      if (i > 0) this.prevChar = s.charCodeAt(i - 1);
      recordChars += i - recordStart;
      if (recordChars > MAX_RECORD_CHARS) {
        throw new CsvSyntaxError(
          `linha ${line} com mais de ${MAX_RECORD_CHARS} caracteres (aspas não fechadas?)`,
          line,
        );
      }
    }
    this.state = state;
    this.fields = fields;
    this.piece = piece;
    this.line = line;
    this.recordChars = recordChars;
  }
}
