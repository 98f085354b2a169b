import type { Readable } from "node:stream";
import { ObjectId } from "mongodb";
import { excelTexts } from "~/messages";
import {
  CHANNEL,
  type EditableMasterData,
  isEditableMasterData,
  MASTER_DATA_EDITABLE_FIELDS,
  type MasterDataCollectionName,
  PLANNING_SPEND,
  PRODUCT_MASTER,
} from "~/models/master-data.server";
import { type MasterDataRowEdit, type MasterDataValue, saveMasterDataEdits } from "~/models/master-data-edits.server";
import {
  baseRowBatches,
  baseRowsByIds,
  countBaseRows,
  formatCell,
  type MasterDataColumn,
  type StoredMasterDataRow,
} from "~/models/master-data-queries.server";
import { TEMPLATES } from "~/platform/import/registry";
import { checkRow, isMasterDataTemplate, type MasterDataTemplate } from "~/platform/import/template";
import {
  type ConflictCell,
  contentRevision,
  type ExcelCell,
  type ExcelColumn,
  type ExcelExport,
  editedCell,
  type RefusedCell,
  type RoundTripReport,
  readReturnedFile,
  xlsxDownload,
} from "~/shared/excel/round-trip.server";
import { type CellValue, cellText, parseDate } from "~/shared/excel/values";
import { fileFilterPaths, namedFiles } from "./file-names.server";
import { masterDataTexts } from "./texts";

/**
 * "Exportar Excel" of the master-data lists (/repo/master-data, /canal, /planejamento, every tab) and the way back
 * for the valid bases: every row of the current filter (the collection or tab, and the file filter), all pages, with
 * the screen's columns (days as date cells, moments as the screen's text, the file by the name it was uploaded
 * under) and the hidden `_id`, `_rev`, `_orig` columns of every round trip. Sent back, the cells of the base's import-template columns that the user
 * changed are checked with the template's own row rules (`checkRow`, as an upload would be), refused when a row was
 * changed since the export (its revision is a hash of the template fields), and saved "via Excel" with each change
 * recorded in master_data_history. The NOK bases are exported for reading only.
 */

/** What a screen exports: the collection it shows (from its fixed tabs or the catalogue, never the URL) and its columns. */
export type MasterDataTarget = {
  collection: MasterDataCollectionName;
  columns: readonly MasterDataColumn[];
  label: string;
};

type ExportRow = { row: StoredMasterDataRow; file: string | null };

/**
 * Days stored as midnight UTC: exported as date cells (dd/mm/yyyy). A moment (a row's creationDate, a refused row's
 * timeStamp) is exported as the screen shows it, the portal's date and time (formatCell).
 */
const DATE_FIELDS = new Set(["data_validade_sku"]);
const INTEGER_FIELDS = new Set(["_lineNumber", "id"]);

/** The dataset a returned file names: one per base, so a file goes back only to the base it came from. */
export const masterDataDataset = (collection: MasterDataCollectionName) => `master-data.${collection}`;

/** The import template whose valid base is `collection` (its rules decide what an edited cell may hold). */
function templateOf(collection: string): { template: MasterDataTemplate; headers: string[] } | null {
  const template = TEMPLATES.filter(isMasterDataTemplate).find((t) => t.load.okCollection === collection);
  return template ? { template, headers: template.columns.map((c) => c.name) } : null;
}

/** The fields of `collection` an edited export changes: its template's columns, within the model's whitelist. */
function editableFieldsOf(collection: MasterDataCollectionName): readonly string[] {
  if (!isEditableMasterData(collection)) return [];
  const found = templateOf(collection);
  if (!found) return [];
  const headers = new Set(found.headers);
  return MASTER_DATA_EDITABLE_FIELDS[collection].filter((f) => headers.has(f));
}

/** Whether the screen's base takes an edited export back. */
export function acceptsEditedExport(collection: MasterDataCollectionName): boolean {
  return editableFieldsOf(collection).length > 0;
}

function cellOf(kind: ExcelColumn<ExportRow>["kind"], value: unknown): ExcelCell {
  if (value === null || value === undefined) return null;
  if (kind === "date" && value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (kind === "integer" && typeof value === "number") return value;
  const text = formatCell(value);
  return text === "" ? null : text;
}

function excelColumns(target: MasterDataTarget): ExcelColumn<ExportRow>[] {
  const editable = new Set(editableFieldsOf(target.collection));
  return target.columns.map((c) => {
    const kind: ExcelColumn<ExportRow>["kind"] = DATE_FIELDS.has(c.key)
      ? "date"
      : INTEGER_FIELDS.has(c.key)
        ? "integer"
        : "text";
    return {
      key: c.key,
      header: c.header,
      kind,
      editable: editable.has(c.key),
      width:
        c.key === "material_description" || c.key === "description" || c.key === "Error"
          ? 40
          : c.key === "urlPath"
            ? 30
            : undefined,
      // The file as the screen names it: the name it was uploaded under (its path when it has no upload record).
      value: (r: ExportRow) =>
        c.key === "urlPath" ? (r.file ?? cellOf(kind, r.row.urlPath)) : cellOf(kind, r.row[c.key]),
    };
  });
}

/** A cell or a stored value as compared: a calendar day for the date fields, the trimmed text otherwise. */
function comparable(key: string, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (DATE_FIELDS.has(key)) {
    const date = value instanceof Date ? parseDate(value) : parseDate(cellText(value as CellValue));
    if (date) return date.toISOString().slice(0, 10);
  }
  if (value instanceof Date || typeof value !== "object") return cellText(value as CellValue);
  return formatCell(value);
}

/** A stored value as a template cell (what an upload's reader would have handed the rules). */
function asCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return value;
  return formatCell(value);
}

const shown = (value: unknown) => (value === null || value === undefined ? "" : formatCell(value));

/** The revision of a row: a hash of its template fields (records that keep no counter, like the HR rows). */
function revisionOf(collection: MasterDataCollectionName, row: StoredMasterDataRow): string {
  const fields = isEditableMasterData(collection) ? MASTER_DATA_EDITABLE_FIELDS[collection] : [];
  return contentRevision(
    fields.map((f) => (row[f] instanceof Date ? (row[f] as Date).toISOString() : (row[f] ?? null))),
  );
}

function rowLabel(collection: MasterDataCollectionName, row: StoredMasterDataRow): string {
  const text = (key: string) => comparable(key, row[key]);
  if (collection === PRODUCT_MASTER)
    return masterDataTexts.masterDataRowLabel(text("sku"), text("material_description"));
  if (collection === CHANNEL) return masterDataTexts.masterDataRowLabel(text("cnpj"), text("description"));
  if (collection === PLANNING_SPEND)
    return masterDataTexts.masterDataRowLabel(text("channel"), text("marca"), text("yearMonthDay"));
  return row._id.toHexString();
}

/** What an export reads of each row: the shown columns, the template fields (for the revision) and who changed it. */
function keysToRead(target: MasterDataTarget): string[] {
  const fields = isEditableMasterData(target.collection) ? MASTER_DATA_EDITABLE_FIELDS[target.collection] : [];
  return [...new Set([...target.columns.map((c) => c.key), ...fields, "urlPath", "updatedBy"])];
}

function exportSpec(target: MasterDataTarget, file: string | undefined): ExcelExport<ExportRow> {
  return {
    dataset: masterDataDataset(target.collection),
    scope: { collection: target.collection, ...(file ? { file } : {}) },
    sheetName: target.label || target.collection,
    fileName: `${target.collection}-${new Date().toISOString().slice(0, 10)}.xlsx`,
    columns: excelColumns(target),
    idOf: (r) => r.row._id.toHexString(),
    revisionOf: (r) => revisionOf(target.collection, r.row),
  };
}

/** The rows of the filter in batches, each with its file's name (one indexed read per batch). */
async function* exportRows(target: MasterDataTarget, file: string | undefined): AsyncGenerator<ExportRow[]> {
  const files = file ? await fileFilterPaths(file) : undefined;
  for await (const batch of baseRowBatches(target.collection, keysToRead(target), { files })) {
    const names = await namedFiles(batch.map((r) => (typeof r.urlPath === "string" ? r.urlPath : "")));
    yield batch.map((row) => ({
      row,
      file: typeof row.urlPath === "string" ? (names.get(row.urlPath)?.name ?? null) : null,
    }));
  }
}

/** The XLSX of every row of the screen's filter, streamed from the database. */
export function masterDataXlsx(target: MasterDataTarget, file: string | undefined): Response {
  return xlsxDownload(exportSpec(target, file), exportRows(target, file));
}

/** How many rows `masterDataXlsx` writes for the filter (the audit trail's row count). */
export async function masterDataExportCount(target: MasterDataTarget, file: string | undefined): Promise<number> {
  const files = file ? await fileFilterPaths(file) : undefined;
  return countBaseRows(target.collection, { files });
}

/** The export's columns and rows, for another writer (the CLI's CSV). */
export function masterDataExport(target: MasterDataTarget, file: string | undefined) {
  return { spec: exportSpec(target, file), rows: exportRows(target, file) };
}

/** The most rows one returned file may carry. */
export const MASTER_DATA_IMPORT_MAX_ROWS = 100_000;

export type MasterDataImportOutcome =
  | { ok: true; report: RoundTripReport; file: string | undefined }
  | { ok: false; message: string };

type PendingRow = { line: number; stored: StoredMasterDataRow; label: string; edit: MasterDataRowEdit };

/**
 * Applies an edited export of the screen's base: only the template cells the user changed, checked with the import
 * template's rules on the whole row; a row changed since the export is a conflict with both values; the changes are
 * saved "via Excel" and recorded in the row's history.
 */
export async function importMasterDataFile(
  source: Readable,
  target: MasterDataTarget,
  user: string,
): Promise<MasterDataImportOutcome> {
  const { collection } = target;
  const found = templateOf(collection);
  const editable = editableFieldsOf(collection);
  if (!found || editable.length === 0 || !isEditableMasterData(collection))
    return { ok: false, message: masterDataTexts.masterDataExcelReadOnly };
  const { template, headers } = found;
  const columns = excelColumns(target);
  const file = await readReturnedFile(
    source,
    masterDataDataset(collection),
    columns as readonly ExcelColumn<never>[],
    MASTER_DATA_IMPORT_MAX_ROWS,
  );
  if (!file.ok) return file;
  if (file.scope.get("collection") !== collection) return { ok: false, message: excelTexts.excelOtherScope };
  const fileFilter = file.scope.get("file") || undefined;
  const files = fileFilter ? await fileFilterPaths(fileFilter.slice(0, 1024)) : undefined;

  const refused: RefusedCell[] = [];
  const conflicts: ConflictCell[] = [];
  const wanted = file.rows.filter((row) => {
    if (/^[0-9a-f]{24}$/i.test(row.id)) return true;
    refused.push({ line: row.line, row: row.id, column: "_id", value: row.id, reason: excelTexts.excelUnknownRow });
    return false;
  });
  const stored = await baseRowsByIds(
    collection,
    keysToRead(target),
    [...new Set(wanted.map((r) => r.id.toLowerCase()))].map((id) => new ObjectId(id)),
    { files },
  );
  const current = new Map(stored.map((r) => [r._id.toHexString(), r]));
  const names = await namedFiles(stored.map((r) => (typeof r.urlPath === "string" ? r.urlPath : "")));
  const headerOf = new Map(columns.map((c) => [c.key, c.header]));
  const editableSet = new Set(editable);
  const pending: PendingRow[] = [];

  for (const row of wanted) {
    const doc = current.get(row.id.toLowerCase());
    if (!doc) {
      refused.push({ line: row.line, row: row.id, column: "_id", value: row.id, reason: excelTexts.excelUnknownRow });
      continue;
    }
    const label = rowLabel(collection, doc);
    // A column that is not the template's (the file, the row's date): any value other than the exported one is refused.
    let locked = false;
    for (const column of columns) {
      if (column.editable || !row.cells.has(column.key)) continue;
      const exported = column.value({
        row: doc,
        file: typeof doc.urlPath === "string" ? (names.get(doc.urlPath)?.name ?? null) : null,
      });
      if (comparable(column.key, row.cells.get(column.key)) !== comparable(column.key, exported)) {
        refused.push({
          line: row.line,
          row: label,
          column: column.header,
          value: cellText(row.cells.get(column.key) ?? null),
          reason: masterDataTexts.masterDataExcelLockedColumn(column.header),
        });
        locked = true;
      }
    }
    if (locked) continue;
    const changed = editable.filter(
      (key) =>
        editedCell(row, key, (v) => comparable(key, v)) &&
        comparable(key, row.cells.get(key)) !== comparable(key, doc[key]),
    );
    if (changed.length === 0) continue;

    // The whole row through the template's rules, as an upload of it would be: the changed cells from the file,
    // the others as stored.
    const values: CellValue[] = headers.map((h) => (changed.includes(h) ? (row.cells.get(h) ?? null) : asCell(doc[h])));
    const texts = values.map((v) => cellText(v));
    const normalized: unknown[] = new Array(headers.length);
    const errors = checkRow(template, values, texts, normalized);
    if (errors) {
      // Only what the change broke counts: a stored value the rules would refuse today is not the user's doing.
      const before = new Set(
        checkRow(
          template,
          headers.map((h) => asCell(doc[h])),
          headers.map((h) => cellText(asCell(doc[h]))),
          new Array(headers.length),
        ) ?? [],
      );
      const introduced = errors.filter((e) => !before.has(e));
      if (introduced.length > 0) {
        const named = changed.filter((key) => introduced.some((e) => e.includes(key)));
        for (const key of named.length > 0 ? named : changed) {
          const reasons = introduced.filter((e) => e.includes(key));
          refused.push({
            line: row.line,
            row: label,
            column: headerOf.get(key) ?? key,
            value: cellText(row.cells.get(key) ?? null),
            reason: (reasons.length > 0 ? reasons : introduced).join(" | "),
          });
        }
        continue;
      }
    }
    const fields: Array<{ field: string; old: MasterDataValue; value: MasterDataValue }> = [];
    for (const key of changed) {
      const index = headers.indexOf(key);
      const value = normalized[index];
      const next: MasterDataValue =
        value instanceof Date || typeof value === "string"
          ? value
          : value === null || value === undefined
            ? null
            : String(value);
      if (!editableSet.has(key) || comparable(key, next) === comparable(key, doc[key])) continue; // the rules normalized it back to the stored value
      const old = doc[key];
      fields.push({
        field: key,
        old:
          old instanceof Date || typeof old === "string"
            ? old
            : old === null || old === undefined
              ? null
              : (old as never),
        value: next,
      });
    }
    if (fields.length === 0) continue;
    if (revisionOf(collection, doc) !== row.revision) {
      for (const f of fields) {
        conflicts.push({
          line: row.line,
          row: label,
          column: headerOf.get(f.field) ?? f.field,
          fileValue: shown(f.value),
          currentValue: shown(f.old),
          by: typeof doc.updatedBy === "string" ? doc.updatedBy : null,
        });
      }
      continue;
    }
    pending.push({ line: row.line, stored: doc, label, edit: { id: doc._id, fields } });
  }

  let changedCells = 0;
  if (pending.length > 0) {
    const outcome = await saveMasterDataEdits(
      collection as EditableMasterData,
      pending.map((p) => p.edit),
      user,
      new Date(),
      "excel",
    );
    const applied = new Set(outcome.applied.map((id) => id.toHexString()));
    for (const p of pending) if (applied.has(p.stored._id.toHexString())) changedCells += p.edit.fields.length;
    if (outcome.missed.length > 0) {
      // Changed by someone else between the check and the write: conflicts, with the values now stored.
      const now = new Map(
        (await baseRowsByIds(collection, keysToRead(target), outcome.missed)).map((r) => [r._id.toHexString(), r]),
      );
      for (const p of pending) {
        const id = p.stored._id.toHexString();
        if (applied.has(id)) continue;
        const after = now.get(id);
        for (const f of p.edit.fields) {
          conflicts.push({
            line: p.line,
            row: p.label,
            column: headerOf.get(f.field) ?? f.field,
            fileValue: shown(f.value),
            currentValue: shown(after?.[f.field]),
            by: typeof after?.updatedBy === "string" ? after.updatedBy : null,
          });
        }
      }
    }
  }
  conflicts.sort((a, b) => a.line - b.line);
  refused.sort((a, b) => a.line - b.line);
  return { ok: true, report: { changed: changedCells, conflicts, refused }, file: fileFilter };
}
