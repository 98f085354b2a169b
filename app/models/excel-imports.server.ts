import { ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { type RoundTripReport, reportHref, reportSummary } from "~/shared/excel/round-trip.server";
import type { IndexDeclaration } from "./indexes";

/**
 * The outcome of an Excel round trip (an edited export sent back through a grid's screen): the counts and the list
 * of conflicts and refusals the screen shows after the import, with the list for download. Kept a day.
 */
export const EXCEL_IMPORTS = "excel_imports";

export type ExcelImportItem = {
  kind: "conflict" | "refused";
  line: number;
  row: string;
  column: string;
  /** The file's value (conflict and refusal alike). */
  value: string;
  /** Conflict: the value someone else saved since the export. */
  current?: string;
  /** Refusal: the rule the value broke; conflict: who changed the row, when known. */
  reason?: string;
};

export type ExcelImportRecord = {
  _id: ObjectId;
  /** Whose import it is: only they see it. */
  user: string;
  dataset: string;
  at: Date;
  expiresAt: Date;
  changed: number;
  items: ExcelImportItem[];
};

export const EXCEL_IMPORT_RETENTION_MS = 24 * 60 * 60 * 1000;

export const indexes: IndexDeclaration[] = [
  { collection: EXCEL_IMPORTS, key: { expiresAt: 1 }, options: { name: "expiresAt_ttl", expireAfterSeconds: 0 } },
];

export async function recordExcelImport(input: Omit<ExcelImportRecord, "_id" | "expiresAt">): Promise<ObjectId> {
  const _id = new ObjectId();
  await (await getDb())
    .collection<ExcelImportRecord>(EXCEL_IMPORTS)
    .insertOne({ ...input, _id, expiresAt: new Date(input.at.getTime() + EXCEL_IMPORT_RETENTION_MS) });
  return _id;
}

/** One of the user's imports of `dataset`, by its id (read by `_id`); null for anyone else's or an unknown id. */
export async function readExcelImport(id: string, user: string, dataset: string): Promise<ExcelImportRecord | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await getDb()).collection<ExcelImportRecord>(EXCEL_IMPORTS).findOne({ _id: new ObjectId(id), user, dataset });
}

/** Keeps an import's outcome for the screen it returns to (`?excel=<id>`), and reads it back for its author only. */
export async function keepExcelReport(dataset: string, user: string, report: RoundTripReport): Promise<string> {
  const id = await recordExcelImport({
    user,
    dataset,
    at: new Date(),
    changed: report.changed,
    items: [
      ...report.conflicts.map((c) => ({
        kind: "conflict" as const,
        line: c.line,
        row: c.row,
        column: c.column,
        value: c.fileValue,
        current: c.currentValue,
        ...(c.by ? { reason: c.by } : {}),
      })),
      ...report.refused.map((r) => ({
        kind: "refused" as const,
        line: r.line,
        row: r.row,
        column: r.column,
        value: r.value,
        reason: r.reason,
      })),
    ],
  });
  return id.toHexString();
}

function reportOf(record: ExcelImportRecord): RoundTripReport {
  return {
    changed: record.changed,
    conflicts: record.items
      .filter((i) => i.kind === "conflict")
      .map((i) => ({
        line: i.line,
        row: i.row,
        column: i.column,
        fileValue: i.value,
        currentValue: i.current ?? "",
        by: i.reason ?? null,
      })),
    refused: record.items
      .filter((i) => i.kind === "refused")
      .map((i) => ({ line: i.line, row: i.row, column: i.column, value: i.value, reason: i.reason ?? "" })),
  };
}

/** The panel's report for `?excel=<id>`: the summary line and the list to download, or null. */
export async function excelReportView(
  id: string | null,
  user: string,
  dataset: string,
): Promise<{ summary: string; href: string | null } | null> {
  if (!id) return null;
  const record = await readExcelImport(id, user, dataset);
  if (!record) return null;
  const report = reportOf(record);
  return { summary: reportSummary(report), href: reportHref(report) };
}
