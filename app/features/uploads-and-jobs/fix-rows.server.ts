import { PassThrough, Readable } from "node:stream";
import type { Document, FindCursor } from "mongodb";
import type { SourceRow } from "xlsx-reader";
import { type NokCollection, nokRowsCursor } from "~/models/upload-nok.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { DATASET_COLLECTIONS } from "~/platform/import/datasets/apply.server";
import { maskCpfColumn, notFound, seenNokFile } from "~/platform/import/nok-rows.server";
import { readCsvBatches } from "~/platform/import/readers.server";
import { detectTemplate, TEMPLATES } from "~/platform/import/registry";
import { isDatasetTemplate, type Template } from "~/platform/import/template";
import { contentDisposition } from "~/services/storage/s3.server";
import { extensionOf, openReadStream } from "~/services/storage.server";
import { type CellValue, cellText } from "~/shared/excel/values";
import { readXlsxRowsOnThread } from "~/shared/excel/xlsx-thread.server";
import { jobTexts } from "./texts";

/**
 * "Baixar linhas recusadas para corrigir": a job's refused rows as an XLSX in its template's own layout —
 * the header row is the template's columns in its order (as /captura/manual/modelo/<template> gives them), then the
 * rows, then a last column "Motivo da recusa", which the import ignores (a header cell of no template column:
 * templates.ts detectTemplate), so the file, once fixed, is uploaded as it is.
 *
 * - A rows-with-nok template (spec 000's master data): only the refused rows, with the cells as the file had them (the
 *   NOK base keeps each cell's text). Sent back, they load as any file of the template: the fixed rows go to the OK
 *   base, a row still wrong to the NOK base again.
 * - An all-or-nothing template (the spec-001 datasets): nothing of the file was applied, so the file to fix is the
 *   whole original: every row of the stored file, its cells as sent, the reason filled on the refused rows and empty on
 *   the others. Sent back fixed, it is applied whole under the template's write mode (upsert or replace).
 * - HR (hr_aux): as the NOK CSV — the viewer's branches only, the CPF masked (in its column and in a reason that
 *   quotes it). A masked CPF is not a CPF: sent back as it is, the row is refused by the CPF rule; the uploader types
 *   the full CPF back from the original file where a row must be loaded (no CPF leaves the portal unmasked).
 *
 * Seen by whoever may download the NOK CSV (the file's uploader, the types that may open /jobs/executados); a report
 * package (no template) or a file whose stored original is gone (an all-or-nothing file needs it): 404.
 */

/** The download's address (the job lists link to it beside "Linhas NOK"). */
export function fixRowsDownloadHref(fileId: string): string {
  return `/captura/processando/corrigir/${encodeURIComponent(fileId)}`;
}

/** The template whose refused rows each NOK collection holds. */
const TEMPLATE_OF_NOK: ReadonlyMap<string, Template> = new Map(
  TEMPLATES.map((t) => [isDatasetTemplate(t) ? DATASET_COLLECTIONS[t.id].nokCollection : t.load.nokCollection, t]),
);

/** The template whose refused rows `collection` holds; null for a report package's. */
export function templateOfNokCollection(collection: NokCollection | string): Template | null {
  return TEMPLATE_OF_NOK.get(collection) ?? null;
}

/** One row of the download: the template's cells in its order, and the reason ("" for a row that was valid). */
type FixRow = { cells: CellValue[]; reason: string };

/** The XLSX answer for the route's `params` (`id`: the file's id), or a thrown 404 Response. */
export async function fixRowsDownload(
  params: unknown,
  viewer: Pick<AuthenticatedUser, "email" | "type">,
): Promise<Response> {
  const { fileId, file, urlPath, collection, hr, branches } = await seenNokFile(params, viewer);
  const template = templateOfNokCollection(collection);
  if (!template) notFound();
  const columns = template.columns.map((c) => c.name);
  const cursor = await nokRowsCursor(collection, { id: fileId, urlPath }, columns, undefined, branches);
  let rows: AsyncGenerator<FixRow>;
  if (isDatasetTemplate(template)) {
    const source = await originalRows(file.bucket, file.originalFile, template).catch(() => null);
    if (!source) {
      await cursor.close();
      notFound();
    }
    const filial = columns.indexOf("filial_nome");
    const inScope = branches ? (cells: CellValue[]) => branches.includes(cellText(cells[filial])) : () => true;
    rows = wholeFile(source, cursor, inScope);
  } else rows = refusedOnly(cursor, columns);
  const shown = hr ? maskCpfColumn : (_column: string, value: unknown) => value;
  return new Response(Readable.toWeb(workbookStream(columns, rows, shown)) as ReadableStream, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": contentDisposition(jobTexts.fixRowsFileName(String(file.originalName ?? ""))),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The refused rows of a rows-with-nok file, as its NOK base keeps them (each cell's text as sent), in line order. */
async function* refusedOnly(cursor: FindCursor<Document>, columns: readonly string[]): AsyncGenerator<FixRow> {
  try {
    for await (const row of cursor) {
      yield {
        cells: columns.map((c) => (row[c] === undefined || row[c] === null ? "" : String(row[c]))),
        reason: String(row.Error ?? ""),
      };
    }
  } finally {
    await cursor.close().catch(() => undefined);
  }
}

type OriginalRows = { rows: AsyncIterator<SourceRow>; indexes: number[]; close: () => void };

/**
 * The stored original of an all-or-nothing file, opened and its header read (the worker reads the first row as the
 * header): its data rows and where each of the template's columns is. Null when the header is not the template's.
 */
async function originalRows(bucket: string, key: string, template: Template): Promise<OriginalRows | null> {
  const ext = extensionOf(key);
  if (ext !== "csv" && ext !== "txt" && ext !== "xlsx") return null;
  const { stream } = await openReadStream(bucket, key);
  const rows: AsyncIterator<SourceRow> =
    ext === "xlsx" ? readXlsxRowsOnThread(stream) : flatten(readCsvBatches(stream));
  const close = () => {
    stream.destroy();
    void rows.return?.(undefined)?.catch(() => undefined);
  };
  const header = await rows.next();
  const layout = header.done ? null : detectTemplate(header.value.cells);
  if (!layout || layout.template.id !== template.id) {
    close();
    return null;
  }
  return { rows, indexes: layout.indexes, close };
}

async function* flatten(batches: AsyncIterable<SourceRow[]>): AsyncGenerator<SourceRow> {
  for await (const batch of batches) yield* batch;
}

/**
 * Every non-empty row of the original (its template's cells, as sent), merged in line order with the refused rows'
 * reasons (the NOK rows come in line order too: their ids grow with the line), reading both as the client reads.
 */
async function* wholeFile(
  source: OriginalRows,
  cursor: FindCursor<Document>,
  inScope: (cells: CellValue[]) => boolean,
): AsyncGenerator<FixRow> {
  const refused = cursor[Symbol.asyncIterator]();
  try {
    let nok = await refused.next();
    for (;;) {
      const next = await source.rows.next();
      if (next.done) break;
      const { line, cells: all } = next.value;
      const cells = source.indexes.map((i) => all[i] ?? null);
      if (cells.every((cell) => cellText(cell) === "")) continue; // blank lines, as the import skips them
      while (!nok.done && Number(nok.value._lineNumber) < line) nok = await refused.next();
      const reason = !nok.done && Number(nok.value._lineNumber) === line ? String(nok.value.Error ?? "") : "";
      if (!inScope(cells)) continue;
      yield { cells, reason };
    }
  } finally {
    source.close();
    await cursor.close().catch(() => undefined);
  }
}

/**
 * The workbook, written as it streams (exceljs's streaming writer): one sheet, the template's header and the reason
 * column, bold; a row per FixRow. A cell is written as the file had it (text, number, date); `shown` masks what
 * leaves masked.
 */
function workbookStream(
  columns: readonly string[],
  rows: AsyncGenerator<FixRow>,
  shown: (column: string, value: unknown) => unknown,
): PassThrough {
  const out = new PassThrough();
  void (async () => {
    const { default: Excel } = await import("exceljs");
    const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(jobTexts.fixRowsSheet, { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.columns = [
      ...columns.map((name) => ({ header: name, key: name, width: Math.max(14, name.length + 4) })),
      { header: jobTexts.fixRowsReason, key: "__reason", width: 60 },
    ];
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    try {
      for await (const row of rows) {
        const values = row.cells.map((cell, k) => {
          const value = shown(columns[k], cell);
          return value === undefined || value === null ? "" : (value as CellValue);
        });
        sheet.addRow([...values, String(shown("Error", row.reason) ?? "")]).commit();
      }
    } finally {
      await rows.return(undefined).catch(() => undefined);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error as Error));
  return out;
}
