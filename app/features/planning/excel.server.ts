import type { Readable } from "node:stream";
import { ObjectId } from "mongodb";
import { excelTexts, messages } from "~/messages";
import type { PlanningFilter } from "~/models/planning.fields";
import type { SaveScreen } from "~/models/planning.server";
import {
  type PlanningRow,
  planningRowsByIds,
  planningRowsOfFilter,
  saveQuantities,
} from "~/models/planning-queries.server";
import { calendarDateOf } from "~/shared/dates";
import {
  type ConflictCell,
  type ExcelColumn,
  type ExcelExport,
  editedCell,
  type RefusedCell,
  type RoundTripReport,
  readReturnedFile,
  xlsxDownload,
} from "~/shared/excel/round-trip.server";
import { cellText } from "~/shared/excel/values";
import { withCommentNotes } from "./comments.server";
import { type FilterKind, filterSearchParams, parseFilter } from "./planning";
import { formatCompetencyMonth } from "./planning-dates";
import { checkQuantity } from "./planning-values";
import { planningTexts } from "./texts";

/**
 * "Exportar Excel" of /ij/plan_edit and its way back: every row of the current filter with the screen's columns; the
 * quantity (valor) is the one column an edited file changes, with the screen's rule (a whole number from 0 to
 * QUANTITY_MAX), row by row against the revision the row was exported at.
 */

type ExportedRow = PlanningRow & { revision: number; note?: string };

export const PLANNING_DATASET = "planejamento";
/** The most rows one returned file may carry. */
export const PLANNING_IMPORT_MAX_ROWS = 100_000;

const c = planningTexts.columns;
const text = (key: string, header: string, value: (r: ExportedRow) => string): ExcelColumn<ExportedRow> => ({
  key,
  header,
  kind: "text",
  value,
});

export const PLANNING_COLUMNS: readonly ExcelColumn<ExportedRow>[] = [
  // The day the screen shows (the portal's zone), as a date cell.
  { key: "creationDate", header: c.date, kind: "date", value: (r) => calendarDateOf(r.creationDate) },
  text("dateRef", planningTexts.columnMonth, (r) => formatCompetencyMonth(r.dateRef)),
  text("sku", c.sku, (r) => r.sku),
  text("material_description", c.description, (r) => r.material_description ?? ""),
  { key: "valor", header: c.quantity, kind: "integer", editable: true, width: 14, value: (r) => r.valor },
  text("marca", c.brand, (r) => r.marca ?? ""),
  text("channel", c.channel, (r) => r.channel),
  text("hero", c.hero, (r) => r.hero ?? ""),
  text("abcd", c.abcd, (r) => r.abcd ?? ""),
  text("plc_localsku", c.plcLocal, (r) => r.plc_localsku ?? ""),
  text("category_sku", c.category, (r) => r.category_sku ?? ""),
  text("categoria_principal_sku", c.majorCategory, (r) => r.categoria_principal_sku ?? ""),
];

function planningExport(filter: PlanningFilter): ExcelExport<ExportedRow> {
  const scope: Record<string, string[]> = {};
  for (const [key, value] of filterSearchParams(filter)) (scope[key] ??= []).push(value);
  return {
    dataset: PLANNING_DATASET,
    scope,
    sheetName: "Planejamento",
    fileName: `planejamento-${new Date().toISOString().slice(0, 10)}.xlsx`,
    columns: PLANNING_COLUMNS,
    idOf: (r) => r._id.toHexString(),
    revisionOf: (r) => String(r.revision),
    // A row's comment thread, as its quantity cell's note.
    notesOf: (r) => (r.note ? new Map([["valor", r.note]]) : null),
  };
}

/** The XLSX of every row of `filter`, streamed from the database. */
export function planningXlsx(filter: PlanningFilter): Response {
  return xlsxDownload(planningExport(filter), withCommentNotes(planningRowsOfFilter(filter)));
}

const rowLabel = (r: { sku: string; channel: string; dateRef: Date }) =>
  planningTexts.rowLabel(r.sku, r.channel, formatCompetencyMonth(r.dateRef));
const pt = (n: number) => n.toLocaleString("pt-BR");

/** A quantity as a returned file holds it: a whole number cell, or its text typed as on the screen. */
function quantityOf(value: unknown): number | null {
  const checked = checkQuantity(typeof value === "number" ? value : cellText((value ?? null) as never));
  return checked.ok ? checked.value : null;
}

export type PlanningImportOutcome =
  | { ok: true; report: RoundTripReport; filter: PlanningFilter }
  | { ok: false; message: string };

/**
 * Applies an edited export: only the quantities that differ from the stored ones; a row changed by someone else
 * since the export is a conflict (both values listed), a value against the rule is refused. The changes are one
 * save "via Excel", with each row's history, as an edit on the screen would make.
 */
export async function importPlanningFile(
  source: Readable,
  user: string,
  screen: SaveScreen,
  kind: FilterKind = "plan",
): Promise<PlanningImportOutcome> {
  const file = await readReturnedFile(
    source,
    PLANNING_DATASET,
    PLANNING_COLUMNS as readonly ExcelColumn<never>[],
    PLANNING_IMPORT_MAX_ROWS,
  );
  if (!file.ok) return file;
  const parsed = parseFilter(file.scope, kind);
  if (!parsed.ok) return { ok: false, message: excelTexts.excelOtherScope };
  const filter = parsed.filter;

  const refused: RefusedCell[] = [];
  const conflicts: ConflictCell[] = [];
  const wanted = file.rows.filter((row) => {
    if (/^[0-9a-f]{24}$/i.test(row.id)) return true;
    refused.push({ line: row.line, row: row.id, column: "_id", value: row.id, reason: excelTexts.excelUnknownRow });
    return false;
  });
  const current = new Map(
    (
      await planningRowsByIds(
        filter,
        wanted.map((r) => new ObjectId(r.id)),
      )
    ).map((r) => [r._id.toHexString(), r]),
  );
  const edits: Array<{ id: ObjectId; revision: number; valor: number }> = [];
  const lineOf = new Map<string, number>();
  for (const row of wanted) {
    const stored = current.get(row.id.toLowerCase());
    if (!stored) {
      refused.push({ line: row.line, row: row.id, column: "_id", value: row.id, reason: excelTexts.excelUnknownRow });
      continue;
    }
    if (!editedCell(row, "valor", quantityOf)) continue;
    const cell = row.cells.get("valor");
    const valor = quantityOf(cell);
    if (valor === null) {
      refused.push({
        line: row.line,
        row: rowLabel(stored),
        column: c.quantity,
        value: cellText(cell ?? null),
        reason: messages.numberNotValid,
      });
      continue;
    }
    if (valor === stored.valor) continue;
    if (String(stored.revision) !== row.revision) {
      conflicts.push({
        line: row.line,
        row: rowLabel(stored),
        column: c.quantity,
        fileValue: pt(valor),
        currentValue: pt(stored.valor),
        by: null,
      });
      continue;
    }
    edits.push({ id: stored._id, revision: stored.revision, valor });
    lineOf.set(stored._id.toHexString(), row.line);
  }
  let changed = 0;
  if (edits.length > 0) {
    const outcome = await saveQuantities({ user, screen, filter, edits, via: "excel" });
    if (outcome.kind === "saved") changed = outcome.saved;
    if (outcome.kind !== "outside") {
      for (const conflict of outcome.conflicts) {
        const edit = edits.find((e) => e.id.equals(conflict.rowId));
        conflicts.push({
          line: lineOf.get(conflict.rowId.toHexString()) ?? 0,
          row: rowLabel(conflict),
          column: c.quantity,
          fileValue: edit ? pt(edit.valor) : "",
          currentValue: pt(conflict.current),
          by: null,
        });
      }
    }
  }
  conflicts.sort((a, b) => a.line - b.line);
  refused.sort((a, b) => a.line - b.line);
  return { ok: true, report: { changed, conflicts, refused }, filter };
}
