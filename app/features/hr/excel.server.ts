import type { Readable } from "node:stream";
import { excelTexts } from "~/messages";
import { type FigureEdit, HR_COMMENT_MAX, HR_FIGURE_FIELDS, type HrFigureField } from "~/models/hr.fields";
import { type HrAuxRow, listAuxRows, saveComment, saveFigures } from "~/models/hr.server";
import {
  type ConflictCell,
  contentRevision,
  type ExcelColumn,
  editedCell,
  type RefusedCell,
  type RoundTripReport,
  readReturnedFile,
  xlsxDownload,
} from "~/shared/excel/round-trip.server";
import { type CellValue, cellText } from "~/shared/excel/values";
import { type MonthRange, monthKey, monthLabel, monthStartDate } from "~/shared/months";
import { hrCommentNotes } from "./comments.server";
import { normalizeComment } from "./edits";
import { checkFigure, formatFigure, HR_FIGURE_RULES } from "./figures";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM } from "./month-range";
import { HR_DATASET } from "./paths";
import { hrTexts } from "./texts";

/**
 * "Exportar Excel" of /ij/rh_edit/{filial} and its way back: the branch's rows of the month range (at most the grid's
 * 10,000) with the grid's columns, the CPF masked as on the screen; the five figures and the comment are what an
 * edited file changes, with the grid's limits, against each row's revision (a hash of its editable values).
 */

const t = hrTexts.columns;
const text = (key: string, header: string, value: (r: HrAuxRow) => string): ExcelColumn<HrAuxRow> => ({
  key,
  header,
  kind: "text",
  value,
});

export const HR_COLUMNS: readonly ExcelColumn<HrAuxRow>[] = [
  text("filial_nome", t.filial_nome, (r) => r.filial_nome),
  { key: "mes_apur", header: t.mes_apur, kind: "date", value: (r) => monthStartDate(r.mes_apur) },
  text("nome", t.nome, (r) => r.nome),
  text("cpf", t.cpf, (r) => r.cpf),
  ...HR_FIGURE_FIELDS.map(
    (field): ExcelColumn<HrAuxRow> => ({
      key: field,
      header: t[field],
      kind: "number",
      decimals: HR_FIGURE_RULES[field].decimals,
      editable: true,
      value: (r) => r[field],
    }),
  ),
  { key: "comentario", header: t.comentario, kind: "text", editable: true, width: 40, value: (r) => r.comentario },
];

const revisionOf = (r: HrAuxRow) => contentRevision([...HR_FIGURE_FIELDS.map((f) => r[f]), r.comentario]);

/** The XLSX of the branch's rows for the range; `beforeSend` is told the row count first (the audit trail). */
export async function hrXlsx(
  filial: string,
  range: MonthRange,
  beforeSend?: (rows: number) => Promise<unknown>,
): Promise<Response> {
  const { rows } = await listAuxRows(filial, range);
  // Each row's comment thread, as its name cell's note.
  const notes = await hrCommentNotes(
    filial,
    rows.map((r) => r.id),
  );
  await beforeSend?.(rows.length);
  return xlsxDownload(
    {
      dataset: HR_DATASET,
      scope: { filial, [MONTH_FROM_PARAM]: monthKey(range.from), [MONTH_TO_PARAM]: monthKey(range.to) },
      sheetName: "Auxiliar Padrão",
      fileName: `auxiliar-padrao-${filial}-${monthKey(range.from)}-${monthKey(range.to)}.xlsx`,
      columns: HR_COLUMNS,
      idOf: (r) => r.id,
      revisionOf,
      notesOf: (r) => {
        const note = notes.get(r.id);
        return note ? new Map([["nome", note]]) : null;
      },
    },
    (async function* () {
      yield rows;
    })(),
  );
}

/** A figure as a returned file holds it: a number cell (checked against the grid's rule), or text typed as on the screen. */
function figureOf(
  field: HrFigureField,
  value: CellValue | undefined,
): { ok: true; value: number } | { ok: false; error: string } {
  if (typeof value === "number") return checkFigure(field, value);
  return checkFigure(field, cellText(value ?? null).trim());
}

export type HrImportOutcome = { ok: true; report: RoundTripReport } | { ok: false; message: string };

/**
 * Applies an edited export to the branch: only the figures and comments that differ from the stored ones, each
 * checked with the grid's rule; a row changed since the export is a conflict (both values); the changes are saved
 * "via Excel", each recorded as an edit in the grid would be.
 */
export async function importHrFile(
  source: Readable,
  filial: string,
  range: MonthRange,
  user: string,
): Promise<HrImportOutcome> {
  const file = await readReturnedFile(source, HR_DATASET, HR_COLUMNS as readonly ExcelColumn<never>[], 10_000);
  if (!file.ok) return file;
  if (file.scope.get("filial") !== filial) return { ok: false, message: excelTexts.excelOtherScope };
  const { rows } = await listAuxRows(filial, range);
  const current = new Map(rows.map((r) => [r.id, r]));
  const refused: RefusedCell[] = [];
  const conflicts: ConflictCell[] = [];
  const figureEdits: FigureEdit[] = [];
  const comments: Array<{ id: string; comentario: string }> = [];
  for (const row of file.rows) {
    const stored = current.get(row.id);
    if (!stored) {
      refused.push({ line: row.line, row: row.id, column: "_id", value: row.id, reason: excelTexts.excelUnknownRow });
      continue;
    }
    const label = `${stored.nome} · ${monthLabel(stored.mes_apur)}`;
    const changes: Array<{ column: string; file: string; current: string; apply: () => void }> = [];
    let invalid = false;
    for (const field of HR_FIGURE_FIELDS) {
      if (
        !editedCell(row, field, (v) => {
          const c = figureOf(field, v);
          return c.ok ? c.value : null;
        })
      )
        continue;
      const cell = row.cells.get(field);
      const checked = figureOf(field, cell);
      if (!checked.ok) {
        refused.push({
          line: row.line,
          row: label,
          column: t[field],
          value: cellText(cell ?? null),
          reason: checked.error,
        });
        invalid = true;
        continue;
      }
      if (checked.value !== stored[field]) {
        const value = checked.value;
        changes.push({
          column: t[field],
          file: formatFigure(field, value),
          current: formatFigure(field, stored[field]),
          apply: () => figureEdits.push({ id: stored.id, field, value }),
        });
      }
    }
    if (editedCell(row, "comentario", (v) => normalizeComment(cellText(v ?? null)))) {
      const comentario = normalizeComment(cellText(row.cells.get("comentario") ?? null));
      if (comentario.length > HR_COMMENT_MAX) {
        refused.push({
          line: row.line,
          row: label,
          column: t.comentario,
          value: comentario.slice(0, 60),
          reason: hrTexts.commentTooLong(HR_COMMENT_MAX),
        });
        invalid = true;
      } else if (comentario !== stored.comentario) {
        changes.push({
          column: t.comentario,
          file: comentario,
          current: stored.comentario,
          apply: () => comments.push({ id: stored.id, comentario }),
        });
      }
    }
    if (invalid || changes.length === 0) continue;
    if (revisionOf(stored) !== row.revision) {
      for (const change of changes)
        conflicts.push({
          line: row.line,
          row: label,
          column: change.column,
          fileValue: change.file,
          currentValue: change.current,
          by: null,
        });
      continue;
    }
    for (const change of changes) change.apply();
  }
  let changed = 0;
  const now = new Date();
  if (figureEdits.length > 0) {
    const outcome = await saveFigures(filial, figureEdits, user, now, "excel");
    if (outcome.kind === "saved") changed += outcome.changed;
  }
  for (const { id, comentario } of comments) {
    const outcome = await saveComment(filial, id, comentario, user, now, "excel");
    if (outcome.kind === "saved") changed += 1;
  }
  return { ok: true, report: { changed, conflicts, refused } };
}
