import { refuse, unreadable } from "./errors";
import type { CellValue, SourceRow, XlsxLimits } from "./limits";
import { attribute, decodeAgain, type Visitor, type XmlHandler, xmlText } from "./xml";

/** The worksheet's rows, the shared strings they name, and each cell's value, as exceljs's reader gave them. */

/** What a cell's value depends on besides the cell. */
export type SheetContext = {
  sharedStrings: (string | null)[];
  dateStyles: (boolean | null)[];
  date1904: boolean;
  limits: XlsxLimits;
};

/**
 * The shared strings, as exceljs reads them: a plain item is its text (null if none), a rich one the join of its
 * runs. Like exceljs, each <t> starts the text anew (a phonetic <rPh><t> after a plain <t> replaces it).
 */
export function sharedStringsHandler(strings: (string | null)[], limits: XlsxLimits): XmlHandler {
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

/** The column number of a cell reference ("AB12" → 28); 0 if it does not start with a letter A–Z. */
export function columnOf(ref: string): number {
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
export function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

/** The cell being read: its attributes, and the text of its value. */
type OpenCell = {
  ref: string;
  type: string | undefined;
  style: number;
  formula: boolean;
  /** The text of the current <v>/<t>/<is>, null before one. */
  value: string | null;
};

/** A formula's value: its cached result as the spreadsheet shows it, never a date; none cached is an empty cell. */
function formulaValue(cell: OpenCell): CellValue | undefined {
  // (exceljs kept a result only when it was truthy, so a formula showing 0, "" or an error, or not yet calculated,
  // read as "[object Object]".) A formula without text (a shared formula's other cells) reads the same way.
  const v = cell.value;
  if (v === null) return undefined;
  if (cell.type === "str") return decodeAgain(v);
  if (cell.type === "e") return v;
  const result = Number.parseFloat(v);
  return Number.isNaN(result) ? v : result;
}

/** The value of a cell as exceljs gave it; undefined for a cell that holds none (it does not count). */
export function cellValueOf(context: SheetContext, cell: OpenCell, rowDate: boolean): CellValue | undefined {
  if (cell.formula) return formulaValue(cell);
  const v = cell.value;
  if (v === null) return undefined;
  switch (cell.type) {
    case "s": {
      const shared = context.sharedStrings[Number.parseInt(v, 10)];
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
      const styleDate = cell.style ? context.dateStyles[cell.style] : undefined;
      const isDate = styleDate === undefined ? rowDate : styleDate === true;
      return isDate ? excelDate(Number.parseFloat(v), context.date1904) : Number.parseFloat(v);
    }
  }
}

/** Text goes nowhere, into the cell's value, or into a formula (not kept). */
const NOWHERE = 0;
const INTO_VALUE = 1;
const INTO_FORMULA = 2;

/**
 * The rows of the worksheet's <sheetData>, as exceljs's WorksheetReader builds them, into `out` as their </row>
 * comes: a row per <row> (its number from r, or the one after the row before when r is missing), each cell at the
 * column of its reference; a cell counts when it has a value (<v>, <is>/<t>, or a formula, even without a cached
 * result); the row's cells run to its last counted cell, missing ones null. What comes before <sheetData> is
 * tokenized and passed over; at </sheetData> the visitor is done.
 */
export class SheetVisitor implements Visitor {
  done = false;
  /** Whether <sheetData> was opened (an unfinished tag before it is no error, as before). */
  started = false;
  private rows = 0;
  /** The cells of the rows given, as dense arrays. */
  private cellCount = 0;
  private cells: CellValue[] | null = null;
  private line = 0;
  private rowDate = false;
  private inCell = false;
  private readonly cell: OpenCell = { ref: "", type: undefined, style: 0, formula: false, value: null };
  private reading = NOWHERE;

  constructor(
    private readonly context: SheetContext,
    private readonly out: SourceRow[],
  ) {}

  /** Whether a <row> is open. */
  get inRow(): boolean {
    return this.cells !== null;
  }

  text(xml: string, from: number, to: number): void {
    if (!this.inCell || this.reading !== INTO_VALUE) return;
    this.cell.value += xmlText(xml.slice(from, to));
    const limit = this.context.limits.tokenBytes;
    if ((this.cell.value as string).length > limit) throw refuse("token", limit);
  }

  close(xml: string, from: number, end: number): void {
    if (!this.started) return;
    const length = end - from;
    if (length === 1 && xml.charCodeAt(from) === 99 /* c */) {
      if (this.inCell && this.cells) this.placeCell(this.cells);
      this.inCell = false;
      this.reading = NOWHERE;
    } else if (length === 3 && xml.startsWith("row", from)) {
      this.endRow();
    } else if (length === 9 && xml.startsWith("sheetData", from)) {
      this.done = true;
    }
    // </v>, </t>, </is>, </f>: exceljs keeps adding text to the last <v>/<t>/<f> until another starts (only
    // whitespace): kept.
  }

  open(xml: string, nameStart: number, nameEnd: number, end: number, selfClosing: boolean): void {
    const nameLength = nameEnd - nameStart;
    const c1 = xml.charCodeAt(nameStart);
    if (!this.started) {
      if (nameLength === 9 && xml.startsWith("sheetData", nameStart)) {
        if (selfClosing) this.done = true;
        else this.started = true;
      }
      return;
    }
    if (nameLength === 1 && c1 === 99 /* c */) {
      if (this.cells) this.openCell(xml.slice(nameEnd, selfClosing ? end - 1 : end), selfClosing);
    } else if (nameLength === 1 && c1 === 118 /* v */) {
      if (this.inCell) this.readValue();
    } else if (nameLength === 1 && c1 === 102 /* f */) {
      if (!this.inCell) return;
      this.cell.formula = true;
      this.reading = INTO_FORMULA;
    } else if ((nameLength === 1 && c1 === 116) /* t */ || (nameLength === 2 && xml.startsWith("is", nameStart))) {
      if (this.inCell) this.readValue();
    } else if (nameLength === 3 && xml.startsWith("row", nameStart)) {
      this.openRow(xml.slice(nameEnd, selfClosing ? end - 1 : end), selfClosing);
    } else if (nameLength === 9 && xml.startsWith("sheetData", nameStart) && selfClosing) {
      this.done = true;
    }
  }

  /** `<v>`, `<t>`, `<is>`: the text that follows is the cell's value. */
  private readValue(): void {
    this.cell.value = "";
    this.reading = INTO_VALUE;
  }

  /** `<c attributes>`: a self-closing cell has no value, nothing to add. */
  private openCell(tag: string, selfClosing: boolean): void {
    const cell = this.cell;
    cell.ref = attribute(tag, "r") ?? "";
    cell.type = attribute(tag, "t");
    const s = attribute(tag, "s");
    cell.style = s === undefined ? 0 : Number.parseInt(s, 10);
    cell.formula = false;
    cell.value = null;
    this.reading = NOWHERE;
    this.inCell = !selfClosing;
  }

  /** `</c>`: the cell's value at its column, if it has one. */
  private placeCell(cells: CellValue[]): void {
    const value = cellValueOf(this.context, this.cell, this.rowDate);
    if (value === undefined) return;
    const col = columnOf(this.cell.ref);
    if (col === 0) throw unreadable(`referência de célula inválida: ${this.cell.ref.slice(0, 20)}.`);
    const limits = this.context.limits;
    if (col > limits.columns) throw refuse("columns", limits.columns);
    while (cells.length < col) cells.push(null);
    cells[col - 1] = value;
  }

  /** `<row attributes>`: rows are counted as they come, so a repeated or missing r gets no row past the cap. */
  private openRow(tag: string, selfClosing: boolean): void {
    this.endRow(); // a row not closed before the next one
    const limits = this.context.limits;
    if (++this.rows > limits.rows) throw refuse("rows", limits.rows);
    const r = Number.parseInt(attribute(tag, "r") as string, 10);
    this.line = r > 0 ? r : this.line + 1;
    if (this.line > limits.rows) throw refuse("rows", limits.rows);
    const s = attribute(tag, "s");
    const rowStyle = s === undefined ? undefined : this.context.dateStyles[Number.parseInt(s, 10)];
    this.rowDate = rowStyle === true;
    this.cells = [];
    if (selfClosing) this.endRow();
  }

  private endRow(): void {
    if (!this.cells) return;
    this.cellCount += this.cells.length;
    if (this.cellCount > this.context.limits.cells) throw refuse("cells", this.context.limits.cells);
    this.out.push({ line: this.line, cells: this.cells });
    this.cells = null;
  }
}
