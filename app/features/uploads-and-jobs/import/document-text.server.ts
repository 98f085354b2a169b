import { Readable } from "node:stream";
import type ExcelJS from "exceljs";
import { csvEncodingOf } from "./readers.server";
import { cellText, type CellValue } from "./values";

/**
 * The text of an explorer document (issue 30), by format:
 *   pdf        the text layer of every page (unpdf: Mozilla's PDF.js, no native code; eval off), pages apart
 *   docx       the raw text of the body (mammoth)
 *   xlsx       every worksheet (exceljs's streaming reader): its name, then one line per row, cells joined by " | "
 *   txt, csv   the bytes decoded as the data imports decode a CSV (BOM, else UTF-8 when valid, else Latin-1)
 * At most MAX_DOCUMENT_CHARS characters are kept (the page shows the whole text; the words index all of it).
 */

export const DOCUMENT_FORMATS = ["pdf", "docx", "xlsx", "txt", "csv"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** The longest text kept per document: past it the text is cut (and the job says so). */
export const MAX_DOCUMENT_CHARS = 500_000;

export function isDocumentFormat(ext: string): ext is DocumentFormat {
  return (DOCUMENT_FORMATS as readonly string[]).includes(ext);
}

export type ExtractedText = { text: string; cut: boolean; pages?: number };

/** Called as the extraction advances (pages of a PDF, rows of a workbook), for the job's progress. */
export type ExtractionProgress = (done: number, total: number | null) => Promise<void>;

/** Unreadable as the format its extension claims; the message says why (in Portuguese where it is ours). */
export class DocumentUnreadableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DocumentUnreadableError";
  }
}

/** Collects text up to the cap. */
class TextSink {
  private parts: string[] = [];
  private length = 0;
  cut = false;

  get full(): boolean {
    return this.length >= MAX_DOCUMENT_CHARS;
  }

  push(text: string): void {
    if (this.full) {
      if (text.length > 0) this.cut = true;
      return;
    }
    const room = MAX_DOCUMENT_CHARS - this.length;
    const kept = text.length > room ? text.slice(0, room) : text;
    if (kept.length < text.length) this.cut = true;
    this.parts.push(kept);
    this.length += kept.length;
  }

  result(extra: Partial<ExtractedText> = {}): ExtractedText {
    return { text: tidy(this.parts.join("")), cut: this.cut, ...extra };
  }
}

/** Line breaks normalised, trailing spaces and runs of blank lines dropped. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\u00a0]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/\u0000/g, "")
    .trim();
}

async function pdfText(bytes: Buffer, progress?: ExtractionProgress): Promise<ExtractedText> {
  // Loaded on the first PDF: the web process never carries PDF.js.
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice(), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    const name = (error as Error).name;
    if (name === "PasswordException") throw new DocumentUnreadableError("PDF protegido por senha", { cause: error });
    throw new DocumentUnreadableError(`PDF inválido (${(error as Error).message})`, { cause: error });
  }
  const sink = new TextSink();
  try {
    for (let n = 1; n <= pdf.numPages && !sink.full; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
      page.cleanup();
      sink.push(n > 1 ? `\n\n${text}` : text);
      await progress?.(n, pdf.numPages);
    }
    return sink.result({ pages: pdf.numPages });
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

async function docxText(bytes: Buffer): Promise<ExtractedText> {
  const { default: mammoth } = await import("mammoth");
  try {
    const { value } = await mammoth.extractRawText({ buffer: bytes });
    const sink = new TextSink();
    sink.push(value);
    return sink.result();
  } catch (error) {
    throw new DocumentUnreadableError(`DOCX inválido (${(error as Error).message})`, { cause: error });
  }
}

function excelCellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !(value instanceof Date)) {
    if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((r) => r.text).join("").trim();
    if ("result" in value) return excelCellText((value as { result?: ExcelJS.CellValue }).result);
    if ("text" in value && typeof (value as { text: unknown }).text === "string") return (value as { text: string }).text.trim();
    if ("error" in value) return "";
    return "";
  }
  return cellText(value as CellValue);
}

async function xlsxText(bytes: Buffer, progress?: ExtractionProgress): Promise<ExtractedText> {
  const { default: Excel } = await import("exceljs");
  const source = Readable.from([bytes]);
  const workbook = new Excel.stream.xlsx.WorkbookReader(source, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache", // tells dates from numbers
    hyperlinks: "ignore",
    entries: "emit",
  });
  // As the data reader does: a workbook whose xl/workbook.xml comes last has no sheet names yet.
  const reader = workbook as unknown as { model?: { sheets?: unknown[] } };
  reader.model ??= { sheets: [] };
  const sink = new TextSink();
  let rows = 0;
  try {
    for await (const worksheet of workbook) {
      const name = (worksheet as unknown as { name?: string }).name;
      if (typeof name === "string" && name) sink.push(`${rows > 0 ? "\n\n" : ""}${name}\n`);
      for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as ExcelJS.CellValue[];
        const cells: string[] = [];
        for (let i = 1; i < values.length; i++) {
          const text = excelCellText(values[i]);
          if (text) cells.push(text);
        }
        if (cells.length > 0) sink.push(`${cells.join(" | ")}\n`);
        if (++rows % 1_000 === 0) await progress?.(rows, null);
        if (sink.full) break;
      }
      if (sink.full) break;
    }
  } catch (error) {
    throw new DocumentUnreadableError(`XLSX inválido (${(error as Error).message})`, { cause: error });
  } finally {
    source.destroy();
  }
  return sink.result();
}

function plainText(bytes: Buffer): ExtractedText {
  const { encoding, bomLength } = csvEncodingOf(bytes.subarray(0, 64 * 1024));
  const sink = new TextSink();
  // Decoding stops a little past the cap: no need to turn a 50 MB log into a string to keep 500k characters of it.
  const limit = Math.min(bytes.length, bomLength + (MAX_DOCUMENT_CHARS + 1) * (encoding === "utf16le" ? 2 : 4));
  sink.push(bytes.subarray(bomLength, limit).toString(encoding));
  if (limit < bytes.length) sink.cut = true;
  return sink.result();
}

/** The text of a document of format `format` (one of DOCUMENT_FORMATS). */
export async function extractDocumentText(format: DocumentFormat, bytes: Buffer, progress?: ExtractionProgress): Promise<ExtractedText> {
  switch (format) {
    case "pdf":
      return pdfText(bytes, progress);
    case "docx":
      return docxText(bytes);
    case "xlsx":
      return xlsxText(bytes, progress);
    case "txt":
    case "csv":
      return plainText(bytes);
  }
}
