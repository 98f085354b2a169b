import { Readable } from "node:stream";
import { type AuditEntry, auditEntriesInBatches } from "~/models/audit.server";
import { type AuditActorInput, recordAudit } from "~/platform/audit/record.server";
import { csvCell } from "~/shared/csv";
import { formatDateTime } from "~/shared/dates";
import { type ExcelColumn, xlsxDownload } from "~/shared/excel/round-trip.server";
import { detailsText, eventText, parseAuditSearch } from "./list.server";
import { auditTexts } from "./texts";

/**
 * The export of the filtered entries as CSV (pt-BR, ";", UTF-8 with BOM) or XLSX (the portal's streaming writer),
 * newest first, at most AUDIT_EXPORT_MAX_ROWS. The export is itself an audited event, written before the file is sent.
 */

export const AUDIT_EXPORT_MAX_ROWS = 100_000;
export type AuditExportFormat = "csv" | "xlsx";

type Column = { header: string; value(entry: AuditEntry): string | number | Date | null; kind?: "number" };

const COLUMNS: Column[] = [
  { header: "n", value: (e) => e.n, kind: "number" },
  { header: "Dia (UTC)", value: (e) => e.day },
  { header: "Seq", value: (e) => e.seq, kind: "number" },
  { header: "Quando (UTC)", value: (e) => e.at.toISOString() },
  { header: auditTexts.columnWhen, value: (e) => formatDateTime(e.at) },
  { header: auditTexts.fieldActor, value: (e) => e.actor?.email ?? null },
  { header: "Nome", value: (e) => e.actor?.name ?? null },
  { header: auditTexts.columnType, value: (e) => e.actor?.type ?? null },
  { header: auditTexts.columnFrom, value: (e) => e.ip },
  { header: auditTexts.columnEvent, value: (e) => eventText(e) },
  { header: "Código do evento", value: (e) => e.event },
  { header: "Tipo do objeto", value: (e) => (e.object ? auditTexts.objectLabel(e.object.kind) : null) },
  { header: "Objeto", value: (e) => e.object?.id ?? null },
  { header: "Descrição do objeto", value: (e) => e.object?.label ?? null },
  { header: auditTexts.fieldDataset, value: (e) => e.dataset },
  { header: auditTexts.columnOutcome, value: (e) => auditTexts.outcomeLabel(e.outcome) },
  { header: auditTexts.fieldDetails, value: (e) => detailsText(e.details) },
  { header: auditTexts.fieldDetailsData, value: (e) => JSON.stringify(e.details ?? {}) },
  { header: auditTexts.fieldPrev, value: (e) => e.prev },
  { header: auditTexts.fieldHash, value: (e) => e.hash },
];

function stamp(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "_");
}

function csvDownload(entries: AsyncIterable<AuditEntry[]>, fileName: string): Response {
  async function* lines() {
    yield Buffer.from(`\uFEFF${COLUMNS.map((c) => csvCell(c.header)).join(";")}\r\n`, "utf8");
    for await (const batch of entries) {
      yield Buffer.from(batch.map((e) => `${COLUMNS.map((c) => csvCell(c.value(e))).join(";")}\r\n`).join(""), "utf8");
    }
  }
  return new Response(Readable.toWeb(Readable.from(lines())) as ReadableStream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

const XLSX_COLUMNS: ExcelColumn<AuditEntry>[] = COLUMNS.map((c, i) => ({
  key: `c${i}`,
  header: c.header,
  kind: c.kind === "number" ? "integer" : "text",
  width: i >= COLUMNS.length - 4 ? 40 : undefined,
  value: (e: AuditEntry) => {
    const v = c.value(e);
    return v instanceof Date ? v.toISOString() : v;
  },
}));

/**
 * The file of the entries the screen's URL filters, after the export's own entry (who, which filters, which format) is
 * stored. `url` is the export's address, which carries the screen's filters.
 */
export async function auditExport(
  url: URL,
  format: AuditExportFormat,
  actor: AuditActorInput,
  now: Date = new Date(),
): Promise<Response> {
  const search = await parseAuditSearch(url);
  const filters = Object.fromEntries(Object.entries(search.values).filter(([, v]) => v !== ""));
  await recordAudit({
    actor,
    event: "auditExported",
    object: { kind: "audit", id: "audit_log", label: auditTexts.title },
    outcome: "ok",
    details: { format, filters, maxRows: AUDIT_EXPORT_MAX_ROWS },
  });
  const entries = auditEntriesInBatches(search.filter, AUDIT_EXPORT_MAX_ROWS);
  const fileName = auditTexts.exportFileName(stamp(now), format);
  if (format === "csv") return csvDownload(entries, fileName);
  return xlsxDownload(
    {
      dataset: "audit",
      scope: filters,
      sheetName: auditTexts.exportSheet,
      fileName,
      columns: XLSX_COLUMNS,
      idOf: (e) => `${e.day}#${e.seq}`,
      revisionOf: (e) => e.hash.slice(0, 16),
    },
    entries,
  );
}
