import type { Db } from "mongodb";
import type { UploadedAccount } from "~/models/ledger.server";
import type { BusinessUnitId } from "~/models/reports.fields";
import { type CellValue, cellText } from "~/shared/excel/values";
import { type ColumnRule, checkCell, invalid } from "./rules";

/**
 * An upload template: the columns a file must hold (recognised by its header row: every column name present, any
 * order, any case, extra columns ignored), each column's rule (rules.ts) and what the column is, and how a file of it
 * is loaded (`load`):
 * - "rows-with-nok" (spec 000's master data): row by row, valid rows to the OK collection, invalid ones to the NOK
 *   collection with an Error column (ingest.server.ts);
 * - "all-or-nothing" (the spec-001 datasets): a file with any invalid row changes nothing (datasets/ingest.server.ts).
 * Each feature defines its own templates; app/datasets.server.ts lists the nine and registers them (registry.ts).
 */

export type MasterDataTemplateId = "product" | "channel" | "spend";
export type DatasetId = "planning_quantity" | "forecast" | "ledger" | "hr_aux" | "fpa_responsibles" | "fiscal_items";
/** Also its upload target (access.ts UPLOAD_TARGET_ACCESS): who may load it. */
export type TemplateId = MasterDataTemplateId | DatasetId;

export type TemplateColumn = {
  /** The header cell, as written in the template. */
  name: string;
  rule: ColumnRule;
  /** The unit of a number, or what a text holds ("R$", "código"). */
  unit?: string;
  /** What the column is, for the template's column sheet. */
  description: string;
  /** The example row's value. */
  example: string | number;
};

/** A valid row's values by column name, as stored (dates as Date, numbers as numbers). */
export type RowValues = Record<string, unknown>;

export type RowChecker = (row: RowValues, line: number) => string[] | null;

export type RowsWithNokLoad = {
  mode: "rows-with-nok";
  okCollection: string;
  nokCollection: string;
  /** NOK rows carry their time as `timeStamp`, except channel NOK rows, which use `creationDate` (spec 000 §3). */
  nokTimeField: "timeStamp" | "creationDate";
  /** Fields an OK row carries besides its columns, derived from them (the product's `skherou` and `plc_localsku`). */
  derive?: (doc: Record<string, unknown>) => void;
};

/** What a file's valid rows gathered while being read, for a replace: the pairs it covers and (ledger) its accounts. */
export type ReplaceScope = {
  pairs: Map<string, { businessUnitID: BusinessUnitId; month?: Date; year?: number }>;
  accounts: Map<string, UploadedAccount>;
};

/**
 * Whether the rows of a file may change what they name now (the forecast: not while its cycle or the RF's edit month
 * locks the pair). `note` sees each valid row; once the whole file is checked, `refusal` says why the file is refused
 * (naming what is locked), or null when every row may change. One per file.
 */
export type ChangeGuard = {
  note(row: RowValues): void;
  refusal(db: Db, now: Date): Promise<string | null>;
};

export type AllOrNothingLoad = {
  mode: "all-or-nothing";
  writeMode: "upsert" | "replace";
  /** The columns whose values make a row unique in a file (a second row with the same key is NOK). */
  keyColumns: readonly string[];
  /** Checks across columns or rows, run on rows whose cells are all valid; state lives in the closure (one per file). */
  newRowChecker?: () => RowChecker;
  /** Whether the file's rows may change what they name now, asked once every row is checked (one per file). */
  changeGuard?: () => ChangeGuard;
  /** A replace's scope, gathered from each valid row (writeMode "replace"). */
  collectScope?: (row: RowValues, scope: ReplaceScope) => void;
  /** The document spooled for the row, in the business collection's shape. */
  toDoc(row: RowValues): Record<string, unknown>;
};

type TemplateBase = {
  /** The template's name in job messages (spec 000 keeps its English names: "Product master"). */
  label: string;
  /** Its name on /captura/manual and in the download (the label when none is given). */
  title?: string;
  /** The screens its data feeds. */
  feeds: string;
  /** What an upload does, in pt-BR (the page and the contract say it). */
  writeModeText: string;
  columns: readonly TemplateColumn[];
};

export type MasterDataTemplate = TemplateBase & { id: MasterDataTemplateId; load: RowsWithNokLoad };
export type DatasetTemplate = TemplateBase & { id: DatasetId; load: AllOrNothingLoad };
/** Discriminated by `load.mode` (the guards below narrow the template itself). */
export type Template = MasterDataTemplate | DatasetTemplate;

export function isDatasetTemplate(template: Template): template is DatasetTemplate {
  return template.load.mode === "all-or-nothing";
}

export function isMasterDataTemplate(template: Template): template is MasterDataTemplate {
  return template.load.mode === "rows-with-nok";
}

/**
 * Checks one row of `template`. `values` are its cells in column order and `texts` their trimmed cellText. The values
 * to store are written to `stored` (column order); returns null when every cell is valid, else the broken rules, one
 * message per column.
 */
export function checkRow(
  template: Template,
  values: readonly CellValue[],
  texts: readonly string[],
  stored: unknown[],
): string[] | null {
  const { columns } = template;
  const out = cell;
  let errors: string[] | null = null;
  for (let k = 0; k < columns.length; k++) {
    const problem = checkCell(columns[k].rule, values[k], texts[k], out);
    if (problem !== null) (errors ??= []).push(invalid(columns[k].name, texts[k], problem));
    stored[k] = out.value;
  }
  return errors;
}

/** checkRow's scratch cell (checking is synchronous: one is enough). */
const cell = { value: undefined as unknown };

export function normalizeHeader(cell: CellValue): string {
  return cellText(cell)
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();
}

export type Layout = {
  template: Template;
  /** The position of each of the template's columns in the file's rows. */
  indexes: number[];
};
