import { formatDayMonthYear } from "~/shared/dates";
import { formatAmount } from "~/models/reports.fields";
import { readDocument } from "./documents-store.server";

/**
 * The portal's online viewer (spec 001 §2 "open in an online viewer", issue 12): a stored XLSX becomes HTML
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
  if (typeof value === "number") return Number.isInteger(value) ? formatAmount(value).slice(0, -3) : formatAmount(value);
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return formatDayMonthYear(value);
  if (typeof value === "object") {
    if ("result" in value) return cellDisplay(value.result as ExcelCellValue);
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("text" in value) return String(value.text);
    if ("error" in value) return String(value.error);
  }
  return "";
}

export async function xlsxToSheets(bytes: Buffer): Promise<ViewerSheet[]> {
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const rows: string[][] = [];
    const columns = Math.min(sheet.columnCount, VIEWER_MAX_COLUMNS);
    const last = Math.min(sheet.rowCount, VIEWER_MAX_ROWS);
    for (let r = 1; r <= last; r++) {
      const row = sheet.getRow(r);
      rows.push(Array.from({ length: columns }, (_, c) => cellDisplay(row.getCell(c + 1).value)));
    }
    return { name: sheet.name, rows, truncated: sheet.rowCount > VIEWER_MAX_ROWS || sheet.columnCount > VIEWER_MAX_COLUMNS };
  });
}

type MammothElement = { type?: string; href?: string; anchor?: string; targetFrame?: string | null; children?: MammothElement[] };

/** Links keep http(s), mailto and in-document anchors only; no link opens another frame. */
function withSafeLinks(element: MammothElement): MammothElement {
  const children = element.children?.map(withSafeLinks);
  const next: MammothElement = children ? { ...element, children } : { ...element };
  if (next.type === "hyperlink") {
    if (!next.anchor && !/^(https?:|mailto:)/i.test(next.href ?? "")) next.href = "#";
    next.targetFrame = null;
  }
  return next;
}

export async function docxToHtml(bytes: Buffer): Promise<string> {
  const { default: mammoth } = await import("mammoth");
  const result = await mammoth.convertToHtml({ buffer: bytes }, { transformDocument: withSafeLinks, externalFileAccess: false });
  return result.value;
}

/** What the viewer page shows for a stored document. */
export async function viewerContent(bucket: string, key: string): Promise<ViewerContent> {
  const ext = extensionOfKey(key);
  if (ext === "pdf") return { kind: "pdf" };
  if (ext === "xlsx") return { kind: "sheets", sheets: await xlsxToSheets(await readDocument(bucket, key)) };
  if (ext === "docx") return { kind: "html", html: await docxToHtml(await readDocument(bucket, key)) };
  return { kind: "unsupported" };
}
