import type ExcelJS from "exceljs";
import { runOnBoundedThread, ThreadFailedError, type ThreadLimits } from "~/shared/bounded-thread.server";
import { type CellValue, cellText } from "~/shared/excel/values";
import { workerModuleFile } from "~/shared/worker-module.server";
import type { DocumentTextWorkerData } from "./document-text-worker.server";
import { csvEncodingOf } from "./readers.server";

/**
 * The text of an explorer document, by format:
 *   pdf        the text layer of every page (unpdf: Mozilla's PDF.js, no native code; eval off), pages apart
 *   docx       the raw text of the body (mammoth)
 *   xlsx       every worksheet (exceljs's streaming reader): its name, then one line per row, cells joined by " | "
 * (these three on a thread with limits: see DOCUMENT_TEXT_LIMITS)
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
    .replaceAll("\u0000", "")
    .trim();
}

/**
 * PDF, DOCX and XLSX are read on a thread of their own within DOCUMENT_TEXT_LIMITS (~/shared/bounded-thread.server.ts):
 * a file of a few MB can inflate to gigabytes (a ZIP package's parts, a PDF's FlateDecode streams), and PDF.js, mammoth
 * and exceljs hold what they read in memory; past the heap the process would end. Past a limit the extraction fails
 * with ThreadLimitError. The thread sends back text (PDF: one string a page; DOCX: the body) or a workbook's cell
 * values, at most a little more than MAX_DOCUMENT_CHARS; the text is put together here.
 */
export const DOCUMENT_TEXT_LIMITS: ThreadLimits = {
  maxInflatedBytes: 100 * 1024 * 1024,
  heapMb: 256,
  // Within the job's lease (DEFAULT_LEASE_MS): a DOCX reports no progress while mammoth reads it.
  timeoutMs: 60_000,
};

/** The extraction thread's module (document-text-worker.server.ts; build/host/document-text-worker.js once built). */
export function documentTextWorkerFile(): URL {
  return workerModuleFile("document-text-worker.js", "document-text-worker-dev.mjs", import.meta.url);
}

type PdfPages = { pages: string[]; numPages: number };
type WorkbookCells = { sheets: Array<{ name: string; rows: ExcelJS.CellValue[][] }>; more: boolean };

/** The text of a PDF, DOCX or XLSX, read on its thread; DocumentUnreadableError names the format when it is not one. */
async function threadText<T>(format: "pdf" | "docx" | "xlsx", bytes: Buffer, progress?: ExtractionProgress) {
  try {
    return await runOnBoundedThread<T>({
      entry: documentTextWorkerFile(),
      format: format === "pdf" ? "pdf" : "zip",
      bytes,
      data: { format, maxChars: MAX_DOCUMENT_CHARS } satisfies DocumentTextWorkerData,
      limits: DOCUMENT_TEXT_LIMITS,
      onProgress: progress,
    });
  } catch (error) {
    if (!(error instanceof ThreadFailedError)) throw error;
    if (error.errorName === "PasswordException") {
      throw new DocumentUnreadableError("PDF protegido por senha", { cause: error });
    }
    throw new DocumentUnreadableError(`${format.toUpperCase()} inválido (${error.message})`, { cause: error });
  }
}

async function pdfText(bytes: Buffer, progress?: ExtractionProgress): Promise<ExtractedText> {
  const { pages, numPages } = await threadText<PdfPages>("pdf", bytes, progress);
  const sink = new TextSink();
  pages.forEach((text, i) => {
    sink.push(i > 0 ? `\n\n${text}` : text);
  });
  if (pages.length < numPages && sink.full) sink.cut = true;
  return sink.result({ pages: numPages });
}

async function docxText(bytes: Buffer): Promise<ExtractedText> {
  const { text } = await threadText<{ text: string }>("docx", bytes);
  const sink = new TextSink();
  sink.push(text);
  return sink.result();
}

function excelCellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && !(value instanceof Date)) {
    if ("richText" in value && Array.isArray(value.richText))
      return value.richText
        .map((r) => r.text)
        .join("")
        .trim();
    if ("result" in value) return excelCellText((value as { result?: ExcelJS.CellValue }).result);
    if ("text" in value && typeof (value as { text: unknown }).text === "string")
      return (value as { text: string }).text.trim();
    if ("error" in value) return "";
    return "";
  }
  return cellText(value as CellValue);
}

async function xlsxText(bytes: Buffer, progress?: ExtractionProgress): Promise<ExtractedText> {
  const { sheets, more } = await threadText<WorkbookCells>("xlsx", bytes, progress);
  const sink = new TextSink();
  let rows = 0;
  for (const sheet of sheets) {
    if (sheet.name) sink.push(`${rows > 0 ? "\n\n" : ""}${sheet.name}\n`);
    for (const values of sheet.rows) {
      const cells = values.map(excelCellText).filter((text) => text);
      if (cells.length > 0) sink.push(`${cells.join(" | ")}\n`);
      rows++;
    }
  }
  if (more) sink.cut = true;
  return sink.result();
}

function plainText(bytes: Buffer): ExtractedText {
  const { encoding, bomLength } = csvEncodingOf(bytes.subarray(0, 64 * 1024));
  const sink = new TextSink();
  // Decoding stops a little past the cap: no need to turn a 50 MB log into a string to keep 500k characters of it.
  const limit = Math.min(bytes.length, bomLength + (MAX_DOCUMENT_CHARS + 1) * (encoding === "utf-16le" ? 2 : 4));
  sink.push(new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes.subarray(bomLength, limit)));
  if (limit < bytes.length) sink.cut = true;
  return sink.result();
}

/** The text of a document of format `format` (one of DOCUMENT_FORMATS). */
export async function extractDocumentText(
  format: DocumentFormat,
  bytes: Buffer,
  progress?: ExtractionProgress,
): Promise<ExtractedText> {
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
