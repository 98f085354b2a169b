import { Readable } from "node:stream";
import { type AuditEntry, auditEntriesInBatches } from "~/models/audit.server";
import { type AuditActorInput, recordAudit } from "~/platform/audit/record.server";
import { csvCell } from "~/shared/csv";
import { formatDateTime, portalTimeZone } from "~/shared/dates";
import { type ExcelColumn, xlsxDownload } from "~/shared/excel/round-trip.server";
import { detailsText, eventText, parseAuditSearch } from "./list.server";
import { auditTexts } from "./texts";

/**
 * The export of the filtered entries as CSV (pt-BR, ";", UTF-8 with BOM) or XLSX (the portal's streaming writer),
 * newest first, at most AUDIT_EXPORT_MAX_ROWS. The export is itself an audited event, written before the file is sent.
 * Its words are the screen's: an entry by its `n`, its moment as the portal's date and time with the zone said once
 * in the header ("Quando (America/Sao_Paulo)"), the text of every other column as the screen shows it.
 */

export const AUDIT_EXPORT_MAX_ROWS = 100_000;
export type AuditExportFormat = "csv" | "xlsx";

type Column = { header: string; value(entry: AuditEntry): string | number | null; kind?: "number" };

/** The columns, the moment's header naming the portal's zone as configured when the file is made. */
const columnsOf = (zone: string): Column[] => [
  { header: "n", value: (e) => e.n, kind: "number" },
  { header: auditTexts.exportWhen(zone), value: (e) => formatDateTime(e.at, zone) },
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

function csvDownload(columns: Column[], entries: AsyncIterable<AuditEntry[]>, fileName: string): Response {
  async function* lines() {
    yield Buffer.from(`\uFEFF${columns.map((c) => csvCell(c.header)).join(";")}\r\n`, "utf8");
    for await (const batch of entries) {
      yield Buffer.from(batch.map((e) => `${columns.map((c) => csvCell(c.value(e))).join(";")}\r\n`).join(""), "utf8");
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

const xlsxColumns = (columns: Column[]): ExcelColumn<AuditEntry>[] =>
  columns.map((c, i) => ({
    key: `c${i}`,
    header: c.header,
    kind: c.kind === "number" ? "integer" : "text",
    width: i >= columns.length - 4 ? 40 : undefined,
    value: (e: AuditEntry) => c.value(e),
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
  const columns = columnsOf(portalTimeZone());
  if (format === "csv") return csvDownload(columns, entries, fileName);
  return xlsxDownload(
    {
      dataset: "audit",
      scope: filters,
      sheetName: auditTexts.exportSheet,
      fileName,
      columns: xlsxColumns(columns),
      idOf: (e) => `${e.day}#${e.seq}`,
      revisionOf: (e) => e.hash.slice(0, 16),
    },
    entries,
  );
}
