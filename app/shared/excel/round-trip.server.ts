import crypto from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { FileRefusedError, UnreadableFileError } from "xlsx-reader";
import { ThreadBusyError } from "~/shared/bounded-thread.server";
import { csvCell } from "~/shared/csv";
import { excelTexts } from "./texts";
import { type CellValue, cellText } from "./values";
import { readXlsxRowsOnThread } from "./xlsx-thread.server";

/**
 * Excel round trips of the grids (planning, forecast review, HR, master data): "Exportar Excel" streams exactly the
 * rows of the screen's current filter into an XLSX, and the same file, edited and sent back, applies only the cells
 * that changed, with the screen's own rules, refusing the rows someone else changed since the export.
 *
 * The file: one visible sheet with the screen's columns (numbers as numbers, dates as dates) and four hidden
 * columns at the end: `_id` (the row's record), `_rev` (the row's revision when exported), `_orig` (the editable
 * cells' values when exported, so a returned file tells the user's edits from values someone else changed since) and
 * a column whose header names the dataset and its scope (`_portal:<dataset>?<scope as URL parameters>`). Rows stream in pages from a
 * database cursor to the response: the web process never holds the whole file.
 */

export type ExcelCell = string | number | Date | null;

export type ExcelColumn<Row> = {
  /** The field an edit of this column names (the stored field's name). */
  key: string;
  /** The header, as the screen shows it. */
  header: string;
  /** `percent`: a fraction (0.125) shown as a percentage ("12,5 %" in a pt-BR Excel); never read back. */
  kind: "text" | "number" | "integer" | "date" | "percent";
  /** Decimals shown for numbers, of the percentage for a percent (the value stays a real number). */
  decimals?: number;
  width?: number;
  /** Whether a change of this column in the file is applied (the others are for reading). */
  editable?: boolean;
  value(row: Row): ExcelCell;
};

export type ExcelExport<Row> = {
  dataset: string;
  /** What the rows were selected by (the screen's filter, a cost centre and RF, a branch and period). */
  scope: Record<string, string | readonly string[]>;
  sheetName: string;
  fileName: string;
  columns: readonly ExcelColumn<Row>[];
  /** A row's record; "" for a row that is no record (a total), which a returned file's reading passes over. */
  idOf(row: Row): string;
  revisionOf(row: Row): string;
  /**
   * A line under the headers (the screen's marks under its column titles), or none. It carries no record, so a
   * returned file's reading passes over it as over any row without one.
   */
  marks?: readonly (string | null)[];
  /** A row's cell notes by column key (the cells' comments), or none. */
  notesOf?(row: Row): ReadonlyMap<string, string> | null | undefined;
};

/** The screen's URL parameter that names a kept report (`?excel=<id>`). */
export const EXCEL_REPORT_PARAM = "excel";

export const ID_HEADER = "_id";
export const REVISION_HEADER = "_rev";
export const ORIGINAL_HEADER = "_orig";
const PORTAL_PREFIX = "_portal:";

/** The dataset and scope a `_portal:<dataset>?<scope>` header names, or null for any other header. */
export function portalHeaderOf(header: string): { dataset: string; scope: URLSearchParams } | null {
  if (!header.startsWith(PORTAL_PREFIX)) return null;
  const [dataset, query = ""] = header.slice(PORTAL_PREFIX.length).split("?");
  return { dataset, scope: new URLSearchParams(query) };
}

/** A revision from a row's editable values: a short hash, for records that keep no revision counter. */
export function contentRevision(values: readonly unknown[]): string {
  return crypto.createHash("sha1").update(JSON.stringify(values)).digest("hex").slice(0, 16);
}

function scopeText(scope: ExcelExport<unknown>["scope"]): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(scope)) {
    if (typeof value === "string") params.set(key, value);
    else for (const v of value) params.append(key, v);
  }
  return params.toString();
}

function numberFormat(column: ExcelColumn<unknown>): string | undefined {
  if (column.kind === "date") return "dd/mm/yyyy";
  if (column.kind === "integer") return "#,##0";
  if (column.kind === "number") return column.decimals === 0 ? "#,##0" : `#,##0.${"0".repeat(column.decimals ?? 2)}`;
  if (column.kind === "percent") return column.decimals ? `0.${"0".repeat(column.decimals)}%` : "0%";
  return undefined;
}

/**
 * The XLSX download of `pages` (batches of rows, in the screen's order), streamed: each row is written and
 * committed as its page arrives.
 */
export function xlsxDownload<Row>(spec: ExcelExport<Row>, pages: AsyncIterable<readonly Row[]>): Response {
  const out = new PassThrough();
  void (async () => {
    const { default: Excel } = await import("exceljs");
    const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const headerRows = spec.marks ? 2 : 1;
    const sheet = workbook.addWorksheet(spec.sheetName.slice(0, 31), {
      views: [{ state: "frozen", ySplit: headerRows }],
    });
    sheet.columns = [
      ...spec.columns.map((c) => ({
        header: c.header,
        key: c.key,
        width: c.width ?? Math.max(12, c.header.length + 2),
        style: { numFmt: numberFormat(c as ExcelColumn<unknown>) },
      })),
      { header: ID_HEADER, key: ID_HEADER, width: 26, hidden: true },
      { header: REVISION_HEADER, key: REVISION_HEADER, width: 18, hidden: true },
      { header: ORIGINAL_HEADER, key: ORIGINAL_HEADER, width: 10, hidden: true },
      {
        header: `${PORTAL_PREFIX}${spec.dataset}?${scopeText(spec.scope as ExcelExport<unknown>["scope"])}`,
        key: "_portal",
        width: 10,
        hidden: true,
      },
    ];
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    if (spec.marks) {
      const marks = sheet.addRow([...spec.marks]);
      marks.font = { italic: true };
      marks.commit();
    }
    for await (const page of pages) {
      for (const row of page) {
        const values = spec.columns.map((c) => c.value(row));
        const original = JSON.stringify(
          spec.columns.flatMap((c, i) =>
            c.editable ? [values[i] instanceof Date ? (values[i] as Date).toISOString() : values[i]] : [],
          ),
        );
        const added = sheet.addRow([...values, spec.idOf(row), spec.revisionOf(row), original, ""]);
        const notes = spec.notesOf?.(row);
        if (notes)
          spec.columns.forEach((c, i) => {
            const note = notes.get(c.key);
            if (note) added.getCell(i + 1).note = note;
          });
        added.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error as Error));
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${spec.fileName.replace(/[^\w.-]+/g, "_")}"; filename*=UTF-8''${encodeURIComponent(spec.fileName)}`,
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * One data row of a returned file: its line, record, revision, the cells of the known columns (by key) and the
 * editable cells' values when exported (by key). `edited(key)` tells whether the user changed that cell.
 */
export type ReturnedRow = {
  line: number;
  id: string;
  revision: string;
  cells: Map<string, CellValue>;
  original: Map<string, CellValue>;
};

/** Whether a returned cell differs from its value at export, compared as the rule reads both (`read`). */
export function editedCell<T>(
  row: ReturnedRow,
  key: string,
  read: (value: CellValue | undefined) => T | null,
): boolean {
  if (!row.cells.has(key)) return false;
  const now = read(row.cells.get(key));
  if (!row.original.has(key)) return true;
  const before = read(row.original.get(key));
  return now === null || before === null || now !== before;
}

export type ReturnedFile =
  | { ok: true; dataset: string; scope: URLSearchParams; rows: ReturnedRow[] }
  | { ok: false; message: string };

/**
 * Reads a file exported by `xlsxDownload` for `dataset`: the header row must carry the hidden columns; the
 * visible columns are found by their headers (a column the user removed is simply not applied). The file is read on
 * the reader's bounded thread (xlsx-thread.server.ts): a screen's import runs while its sender waits on the request.
 */
export async function readReturnedFile(
  source: Readable,
  dataset: string,
  columns: readonly ExcelColumn<never>[],
  maxRows: number,
): Promise<ReturnedFile> {
  const keyOfHeader = new Map(columns.map((c) => [c.header.trim().toLowerCase(), c.key]));
  let layout: { id: number; revision: number; original: number; cells: Array<[index: number, key: string]> } | null =
    null;
  const editableKeys = columns.filter((c) => c.editable).map((c) => c.key);
  let scope = new URLSearchParams();
  const rows: ReturnedRow[] = [];
  try {
    for await (const row of readXlsxRowsOnThread(source)) {
      if (!layout) {
        const headers = row.cells.map((c) => cellText(c).trim());
        const portal = headers.map(portalHeaderOf).find((p) => p !== null);
        const id = headers.indexOf(ID_HEADER);
        const revision = headers.indexOf(REVISION_HEADER);
        if (!portal || id < 0 || revision < 0) return { ok: false, message: excelTexts.excelNotAnExport };
        if (portal.dataset !== dataset) return { ok: false, message: excelTexts.excelOtherScreen };
        scope = portal.scope;
        const cells: Array<[number, string]> = [];
        headers.forEach((h, i) => {
          const key = keyOfHeader.get(h.toLowerCase());
          if (key) cells.push([i, key]);
        });
        layout = { id, revision, original: headers.indexOf(ORIGINAL_HEADER), cells };
        continue;
      }
      const id = cellText(row.cells[layout.id]).trim();
      if (!id) continue; // a line the user added or emptied: nothing to match it to
      if (rows.length >= maxRows) return { ok: false, message: excelTexts.excelTooManyRows(maxRows) };
      const cells = new Map<string, CellValue>();
      for (const [index, key] of layout.cells) cells.set(key, row.cells[index] ?? null);
      const original = new Map<string, CellValue>();
      if (layout.original >= 0) {
        try {
          const values = JSON.parse(cellText(row.cells[layout.original]) || "[]") as CellValue[];
          if (Array.isArray(values) && values.length === editableKeys.length)
            editableKeys.forEach((key, i) => {
              original.set(key, values[i] ?? null);
            });
        } catch {
          // an unreadable _orig: every present editable cell counts as edited, and the revision still guards the row
        }
      }
      rows.push({ line: row.line, id, revision: cellText(row.cells[layout.revision]).trim(), cells, original });
    }
  } catch (error) {
    if (error instanceof FileRefusedError || error instanceof ThreadBusyError)
      return { ok: false, message: error.message };
    if (error instanceof UnreadableFileError) return { ok: false, message: excelTexts.excelUnreadable };
    throw error;
  }
  if (!layout) return { ok: false, message: excelTexts.excelNotAnExport };
  return { ok: true, dataset, scope, rows };
}

/** A row refused by a rule, and a row someone else changed since the export (both values listed). */
export type RefusedCell = { line: number; row: string; column: string; value: string; reason: string };
export type ConflictCell = {
  line: number;
  row: string;
  column: string;
  fileValue: string;
  currentValue: string;
  by: string | null;
};

export type RoundTripReport = { changed: number; conflicts: ConflictCell[]; refused: RefusedCell[] };

/** "N alterados, M conflitos, K recusados" */
export function reportSummary(report: RoundTripReport): string {
  return excelTexts.excelSummary(report.changed, report.conflicts.length, report.refused.length);
}

/**
 * The conflicts and refusals as a CSV (";" separated, as Excel in pt-BR opens it), for download. The values come from
 * a user's file: formulas are escaped as in every CSV the portal writes (app/shared/csv.ts).
 */
export function reportCsv(report: RoundTripReport): string {
  const t = excelTexts.excelReportColumns;
  const line = (cells: Array<string | number>) => cells.map((cell) => csvCell(cell)).join(";");
  const lines = [line([t.kind, t.line, t.row, t.column, t.fileValue, t.currentValue, t.reason])];
  for (const c of report.conflicts) {
    lines.push(
      line([
        t.conflict,
        c.line,
        c.row,
        c.column,
        c.fileValue,
        c.currentValue,
        c.by ? excelTexts.excelChangedBy(c.by) : "",
      ]),
    );
  }
  for (const r of report.refused) lines.push(line([t.refused, r.line, r.row, r.column, r.value, "", r.reason]));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** The report's list as a link target that works without JavaScript (a data: URL the browser downloads). */
export function reportHref(report: RoundTripReport): string | null {
  if (report.conflicts.length === 0 && report.refused.length === 0) return null;
  return `data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(report))}`;
}

/** The most bytes a returned file may have when sent through a screen (the grid's own import). */
export const RETURNED_FILE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The uploaded file of a screen's import form (field `arquivo`), as a stream; a message when it is missing, too
 * large or not an XLSX.
 */
export async function returnedFileOf(
  request: Request,
): Promise<{ ok: true; stream: Readable; bytes: Buffer; name: string } | { ok: false; message: string }> {
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > RETURNED_FILE_MAX_BYTES + 64 * 1024)
    return { ok: false, message: excelTexts.excelTooLarge(RETURNED_FILE_MAX_BYTES / 1024 / 1024) };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, message: excelTexts.excelMissing };
  }
  const file = form.get("arquivo");
  if (!(file instanceof Blob) || file.size === 0) return { ok: false, message: excelTexts.excelMissing };
  if (file.size > RETURNED_FILE_MAX_BYTES)
    return { ok: false, message: excelTexts.excelTooLarge(RETURNED_FILE_MAX_BYTES / 1024 / 1024) };
  const name = (file as File).name ?? "";
  if (!/\.xlsx$/i.test(name)) return { ok: false, message: excelTexts.excelNotXlsx };
  const bytes = Buffer.from(await file.arrayBuffer());
  return { ok: true, stream: Readable.from(bytes), bytes, name };
}
