import { formatAmount } from "~/models/reports.fields";
import { runOnBoundedThread, ThreadLimitError, takeThreadSlot } from "~/shared/bounded-thread.server";
import { formatCalendarDate } from "~/shared/dates";
import { workerModuleFile } from "~/shared/worker-module.server";
import { DocumentTooLargeError, readDocument } from "./documents-store.server";
import type { ViewerWorkerData } from "./viewer-worker.server";

/**
 * The portal's online viewer (spec 001 §2 "open in an online viewer"): a stored XLSX becomes HTML
 * tables (exceljs), a DOCX becomes HTML (mammoth), a PDF is shown inline by the browser from the portal's own
 * address. Large sheets are cut (VIEWER_MAX_ROWS × VIEWER_MAX_COLUMNS) with a notice.
 */

export const VIEWER_MAX_ROWS = 1_000;
export const VIEWER_MAX_COLUMNS = 40;

export type ViewerSheet = { name: string; rows: string[][]; truncated: boolean };
export type ViewerContent =
  | { kind: "sheets"; sheets: ViewerSheet[] }
  | { kind: "html"; html: string }
  | { kind: "pdf" }
  | { kind: "unsupported" };

export function extensionOfKey(key: string): string {
  const dot = key.lastIndexOf(".");
  return dot < 0 ? "" : key.slice(dot + 1).toLowerCase();
}

type ExcelCellValue = import("exceljs").CellValue;

/** How a cell reads on screen: numbers pt-BR, dates DD/MM/yyyy, formulas by their result, rich text as text. */
function cellDisplay(value: ExcelCellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number")
    return Number.isInteger(value) ? formatAmount(value).slice(0, -3) : formatAmount(value);
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  // An XLSX date cell names a day (stored as midnight UTC): no zone applies.
  if (value instanceof Date) return formatCalendarDate(value);
  if (typeof value === "object") {
    if ("result" in value) return cellDisplay(value.result as ExcelCellValue);
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("text" in value) return String(value.text);
    if ("error" in value) return String(value.error);
  }
  return "";
}

/**
 * The conversion runs on a thread of its own with a memory limit (~/shared/bounded-thread.server.ts): a small XLSX or
 * DOCX can inflate to gigabytes, and exceljs and mammoth build the whole document in memory. The thread first
 * inflates every part of the package, counting and keeping nothing, and stops past VIEWER_MAX_INFLATED_BYTES; a
 * document that still needs more heap than the thread has ends the thread, not the process. Either way the page
 * says the file is too large to preview (DocumentTooLargeError). The thread sends back plain values (the first
 * VIEWER_MAX_ROWS × VIEWER_MAX_COLUMNS cells of each sheet, or the HTML); the page formats them here.
 */
export const VIEWER_MAX_INFLATED_BYTES = 100 * 1024 * 1024;
export const VIEWER_HEAP_MB = 256;
export const VIEWER_TIMEOUT_MS = 30_000;

/** The converter thread's module (viewer-worker.server.ts; build/host/viewer-worker.js once built). */
export function viewerWorkerFile(): URL {
  return workerModuleFile("viewer-worker.js", "viewer-worker-dev.mjs", import.meta.url);
}

type Converted = { sheets: Array<{ name: string; rows: ExcelCellValue[][]; truncated: boolean }> } | { html: string };

/** The document's bytes, or how to read them once a thread is free (a request waiting in line holds none). */
type Source = Buffer | (() => Promise<Buffer>);

/**
 * Converts the document on a thread of its own (see above); DocumentTooLargeError past the limits, ThreadBusyError
 * when no thread is free in time, the signal's reason when the request is given up first.
 */
async function convertOnThread(
  kind: "xlsx" | "docx",
  source: Source,
  limits: { maxInflated?: number; heapMb?: number } = {},
  signal?: AbortSignal,
): Promise<Converted> {
  const slot = await takeThreadSlot({ signal });
  try {
    return await runOnBoundedThread<Converted>({
      entry: viewerWorkerFile(),
      format: "zip",
      bytes: Buffer.isBuffer(source) ? source : await source(),
      slot,
      data: { kind, maxRows: VIEWER_MAX_ROWS, maxColumns: VIEWER_MAX_COLUMNS } satisfies ViewerWorkerData,
      limits: {
        maxInflatedBytes: limits.maxInflated ?? VIEWER_MAX_INFLATED_BYTES,
        heapMb: limits.heapMb ?? VIEWER_HEAP_MB,
        timeoutMs: VIEWER_TIMEOUT_MS,
      },
    });
  } catch (error) {
    if (error instanceof ThreadLimitError) throw new DocumentTooLargeError();
    throw error;
  } finally {
    slot.release();
  }
}

export async function xlsxToSheets(
  source: Source,
  limits?: { maxInflated?: number; heapMb?: number },
  signal?: AbortSignal,
): Promise<ViewerSheet[]> {
  const converted = await convertOnThread("xlsx", source, limits, signal);
  if (!("sheets" in converted)) throw new Error("viewer conversion: unexpected answer");
  return converted.sheets.map((sheet) => ({ ...sheet, rows: sheet.rows.map((cells) => cells.map(cellDisplay)) }));
}

export async function docxToHtml(
  source: Source,
  limits?: { maxInflated?: number; heapMb?: number },
  signal?: AbortSignal,
): Promise<string> {
  const converted = await convertOnThread("docx", source, limits, signal);
  if (!("html" in converted)) throw new Error("viewer conversion: unexpected answer");
  return converted.html;
}

/** What the viewer page shows for a stored document; `signal`: the page's request, given up. */
export async function viewerContent(bucket: string, key: string, signal?: AbortSignal): Promise<ViewerContent> {
  const ext = extensionOfKey(key);
  const read = () => readDocument(bucket, key);
  if (ext === "pdf") return { kind: "pdf" };
  if (ext === "xlsx") return { kind: "sheets", sheets: await xlsxToSheets(read, undefined, signal) };
  if (ext === "docx") return { kind: "html", html: await docxToHtml(read, undefined, signal) };
  return { kind: "unsupported" };
}
