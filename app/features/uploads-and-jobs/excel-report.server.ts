import { readExcelImport, recordExcelImport, type ExcelImportRecord } from "~/models/excel-imports.server";
import { reportHref, reportSummary, type RoundTripReport } from "./excel-round-trip.server";
import type { ExcelPanelData } from "./excel-panel";

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
): Promise<ExcelPanelData["report"]> {
  if (!id) return null;
  const record = await readExcelImport(id, user, dataset);
  if (!record) return null;
  const report = reportOf(record);
  return { summary: reportSummary(report), href: reportHref(report) };
}
