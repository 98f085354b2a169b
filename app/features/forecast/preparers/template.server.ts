import { PassThrough, Readable } from "node:stream";
import { type SourceRow, UnreadableFileError } from "xlsx-reader";
import { allPreparerPages } from "~/models/forecast-cycle.server";
import { readCsvBatches } from "~/platform/import/readers.server";
import { boundedThreadTexts, ThreadBusyError } from "~/shared/bounded-thread.server";
import { cellText } from "~/shared/excel/values";
import { readXlsxRowsOnThread } from "~/shared/excel/xlsx-thread.server";
import { PREPARERS_TEMPLATE_MAX_BYTES } from "./limits";
import { type Candidate, MAX_PAIRS } from "./preparers.server";
import { preparersTexts as t } from "./texts";

/**
 * The preparers' template (/ij/forecast_preparers/modelo): the download is the header row (`cost_center_concat`,
 * `user_email`) and one row per current assignment, streamed from the collection in pages, and a second sheet with
 * the instructions; an upload is read from its first sheet (XLSX) or as a CSV (`;` or `,`, UTF-8 or Windows-1252,
 * the shared CSV reader), its header found by name in the first non-empty row. The file only adds assignments.
 */

export const COST_CENTER_HEADER = "cost_center_concat";
export const EMAIL_HEADER = "user_email";

export function preparersTemplateResponse(): Response {
  const out = new PassThrough();
  void (async () => {
    const { default: Excel } = await import("exceljs");
    const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(t.sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.columns = [
      { header: COST_CENTER_HEADER, key: COST_CENTER_HEADER, width: 44 },
      { header: EMAIL_HEADER, key: EMAIL_HEADER, width: 36 },
    ];
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const page of allPreparerPages()) {
      for (const row of page) sheet.addRow([row.cost_center_concat, row.user]).commit();
    }
    sheet.commit();
    const help = workbook.addWorksheet(t.helpSheetName);
    help.columns = [{ header: t.templateTitle, key: "text", width: 110 }];
    help.getRow(1).font = { bold: true };
    help.getRow(1).commit();
    for (const line of t.helpLines) help.addRow([line]).commit();
    help.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error as Error));
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": 'attachment; filename="modelo_responsaveis_forecast.xlsx"',
      "Cache-Control": "private, no-store",
    },
  });
}

export type FileErrorCode =
  | "missing"
  | "type"
  | "tooLarge"
  | "unreadable"
  | "noHeader"
  | "tooManyRows"
  | "empty"
  | "busy";

export const FILE_ERROR_CODES: readonly FileErrorCode[] = [
  "missing",
  "type",
  "tooLarge",
  "unreadable",
  "noHeader",
  "tooManyRows",
  "empty",
  "busy",
];

export function fileErrorMessage(code: FileErrorCode): string {
  const e = t.fileErrors;
  switch (code) {
    case "tooLarge":
      return e.tooLarge(PREPARERS_TEMPLATE_MAX_BYTES / 1024 / 1024);
    case "tooManyRows":
      return e.tooManyRows(MAX_PAIRS);
    case "busy":
      return boundedThreadTexts.busy;
    default:
      return e[code];
  }
}

type FileRows = { ok: true; candidates: Candidate[] } | { ok: false; code: FileErrorCode };

async function* rowsOf(bytes: Buffer, csv: boolean): AsyncGenerator<SourceRow> {
  if (!csv) {
    yield* readXlsxRowsOnThread(bytes); // read while the sender waits: on the bounded thread
    return;
  }
  for await (const batch of readCsvBatches(Readable.from([bytes]))) yield* batch;
}

/** The assignments a file lists, each with its line; the header found by its column names. */
export async function readTemplateRows(bytes: Buffer, csv: boolean): Promise<FileRows> {
  const candidates: Candidate[] = [];
  let columns: { cc: number; email: number } | null = null;
  try {
    for await (const row of rowsOf(bytes, csv)) {
      const cells = row.cells.map((c) => cellText(c));
      if (cells.every((c) => c === "")) continue;
      if (!columns) {
        const names = cells.map((c) => c.replace(/^\uFEFF/, "").toLowerCase());
        const cc = names.indexOf(COST_CENTER_HEADER);
        const email = names.indexOf(EMAIL_HEADER);
        if (cc < 0 || email < 0) return { ok: false, code: "noHeader" };
        columns = { cc, email };
        continue;
      }
      if (candidates.length >= MAX_PAIRS) return { ok: false, code: "tooManyRows" };
      candidates.push({
        line: row.line,
        cost_center_concat: cells[columns.cc] ?? "",
        user: cells[columns.email] ?? "",
      });
    }
  } catch (error) {
    if (error instanceof UnreadableFileError) return { ok: false, code: "unreadable" };
    if (error instanceof ThreadBusyError) return { ok: false, code: "busy" };
    throw error;
  }
  if (!columns) return { ok: false, code: "noHeader" };
  if (candidates.length === 0) return { ok: false, code: "empty" };
  return { ok: true, candidates };
}

/** The uploaded template (field `arquivo`, XLSX or CSV) as its assignments, or the reason it cannot be read. */
export async function uploadedTemplate(request: Request): Promise<FileRows> {
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > PREPARERS_TEMPLATE_MAX_BYTES + 64 * 1024) return { ok: false, code: "tooLarge" };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, code: "missing" };
  }
  const file = form.get("arquivo");
  if (!(file instanceof Blob) || file.size === 0) return { ok: false, code: "missing" };
  if (file.size > PREPARERS_TEMPLATE_MAX_BYTES) return { ok: false, code: "tooLarge" };
  const name = (file as File).name ?? "";
  const csv = /\.(csv|txt)$/i.test(name);
  if (!csv && !/\.xlsx$/i.test(name)) return { ok: false, code: "type" };
  return readTemplateRows(Buffer.from(await file.arrayBuffer()), csv);
}
