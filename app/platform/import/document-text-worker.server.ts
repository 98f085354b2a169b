import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import mammoth from "mammoth";
import { plainCell, serveBoundedThread, type ThreadTools } from "../../shared/bounded-thread-worker.server";

/**
 * The explorer's text extraction thread (document-text.server.ts starts it; build/host/document-text-worker.js once
 * built), the document's parts already inflated and counted (serveBoundedThread): a PDF's text layer one string a
 * page (unpdf: PDF.js, eval off), a DOCX's raw text (mammoth), a workbook's cell values sheet by sheet (exceljs's
 * streaming reader), each stopped a little past `maxChars`.
 */

export type DocumentTextWorkerData = { format: "pdf" | "docx" | "xlsx"; maxChars: number };

type Sheet = { name: string; rows: unknown[][] };

async function pdfPages(buffer: Buffer, maxChars: number, progress: ThreadTools["progress"]) {
  const { getDocumentProxy } = await import("unpdf");
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false });
  try {
    const pages: string[] = [];
    for (let n = 1, length = 0; n <= pdf.numPages && length < maxChars; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
      page.cleanup();
      pages.push(text.slice(0, maxChars + 1));
      length += text.length;
      progress(n, pdf.numPages);
    }
    return { pages, numPages: pdf.numPages };
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

async function workbookCells(buffer: Buffer, maxChars: number, progress: ThreadTools["progress"]) {
  const source = Readable.from([buffer]);
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache", // tells dates from numbers
    hyperlinks: "ignore",
    entries: "emit",
  });
  // As the data reader does: a workbook whose xl/workbook.xml comes last has no sheet names yet.
  const reader = workbook as unknown as { model?: { sheets: unknown[] } };
  reader.model ??= { sheets: [] };
  const sheets: Sheet[] = [];
  let rows = 0;
  let size = 0;
  try {
    for await (const worksheet of workbook) {
      const name = (worksheet as unknown as { name?: unknown }).name;
      const sheet: Sheet = { name: typeof name === "string" ? name : "", rows: [] };
      sheets.push(sheet);
      for await (const row of worksheet) {
        const cells = (row.values as unknown[]).slice(1).map(plainCell);
        sheet.rows.push(cells);
        size += JSON.stringify(cells).length;
        if (++rows % 1000 === 0) progress(rows, null);
        if (size > maxChars * 4) return { sheets, more: true };
      }
    }
    return { sheets, more: false };
  } finally {
    source.destroy();
  }
}

serveBoundedThread<DocumentTextWorkerData>(async (buffer, { format, maxChars }, { progress }) => {
  if (format === "pdf") return pdfPages(buffer, maxChars, progress);
  if (format === "docx") {
    const { value } = await mammoth.extractRawText({ buffer });
    return { text: value.slice(0, maxChars + 1) };
  }
  return workbookCells(buffer, maxChars, progress);
});
