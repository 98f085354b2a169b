import ExcelJS from "exceljs";
import mammoth from "mammoth";
import { plainCell, serveBoundedThread } from "../../shared/bounded-thread-worker.server";

/**
 * The viewer's converter thread (documents-viewer.server.ts starts it; build/host/viewer-worker.js once built): the
 * package's parts already inflated and counted (serveBoundedThread), an XLSX becomes the plain values of the first
 * `maxRows` × `maxColumns` cells of each sheet (exceljs), a DOCX becomes HTML (mammoth) with no link to anything but
 * the web and mail, and no file read from outside the document.
 */

export type ViewerWorkerData = { kind: "xlsx" | "docx"; maxRows: number; maxColumns: number };

type DocElement = { type?: string; children?: DocElement[]; anchor?: string; href?: string; targetFrame?: unknown };

function withSafeLinks(element: DocElement): DocElement {
  const children = element.children?.map(withSafeLinks);
  const next: DocElement = children ? { ...element, children } : { ...element };
  if (next.type === "hyperlink") {
    if (!next.anchor && !/^(https?:|mailto:)/i.test(next.href || "")) next.href = "#";
    next.targetFrame = null;
  }
  return next;
}

serveBoundedThread<ViewerWorkerData>(async (buffer, { kind, maxRows, maxColumns }) => {
  if (kind === "xlsx") {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    const sheets = workbook.worksheets.map((sheet) => {
      const columns = Math.min(sheet.columnCount, maxColumns);
      const last = Math.min(sheet.rowCount, maxRows);
      const rows: unknown[][] = [];
      for (let r = 1; r <= last; r++) {
        const row = sheet.getRow(r);
        rows.push(Array.from({ length: columns }, (_, c) => plainCell(row.getCell(c + 1).value)));
      }
      return { name: sheet.name, rows, truncated: sheet.rowCount > maxRows || sheet.columnCount > maxColumns };
    });
    return { sheets };
  }
  const result = await mammoth.convertToHtml(
    { buffer },
    { transformDocument: withSafeLinks, externalFileAccess: false },
  );
  return { html: result.value };
});
