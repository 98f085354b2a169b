import { type CellValue, cellText, formatCount } from "~/shared/excel/values";
import { templateById } from "./registry";
import { checkRow } from "./template";

/**
 * The example row of an upload template (row 2 of the downloaded XLSX, /captura/manual/modelo/<id>) guides, it does
 * not load. A row is the example when every cell, read and normalised as the import reads a real row (the template's
 * own rules: case of a list, CNPJ/CPF punctuation, pt-BR or plain numbers, an XLSX date or number, a month as its first
 * day), gives the value the column's example gives. Such a row is neither OK nor NOK: it is counted and named in the
 * job's message, and it never refuses an all-or-nothing file. Only valid rows are compared (the example is valid),
 * so the comparison costs one value per ordinary row (its first column differs).
 */

/** The example's cells as a file holds them: the value (a number stays a number, as in the XLSX) and its text. */
export function exampleCells(examples: ReadonlyArray<string | number>): { values: CellValue[]; texts: string[] } {
  return { values: [...examples], texts: examples.map((e) => cellText(e)) };
}

const examples = new Map<string, readonly unknown[]>();

/**
 * The example row of template `id` as the import stores it, in the template's column order: the template's rules
 * (template.ts checkRow) applied to each column's example. An example its own rules refuse is a mistake in its
 * template: it throws.
 */
export function exampleValues(id: string): readonly unknown[] {
  const known = examples.get(id);
  if (known) return known;
  const template = templateById(id);
  if (!template) throw new Error(`No template ${id}`);
  const { values, texts } = exampleCells(template.columns.map((c) => c.example));
  const stored = new Array<unknown>(values.length);
  const errors = checkRow(template, values, texts, stored);
  if (errors) throw new Error(`The example row of ${id} is invalid: ${errors.join(" | ")}`);
  examples.set(id, stored);
  return stored;
}

/** Two normalised cell values are the same (a date by its instant). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/** Whether the normalised values of a valid row (in column order) are those of the template's example. */
export function isExampleRow(example: readonly unknown[], values: readonly unknown[]): boolean {
  for (let k = 0; k < example.length; k++) if (!sameValue(values[k], example[k])) return false;
  return true;
}

/** isExampleRow for a row held by column name (`names` in column order). */
export function isExampleRecord(
  example: readonly unknown[],
  row: Readonly<Record<string, unknown>>,
  names: readonly string[],
): boolean {
  for (let k = 0; k < example.length; k++) if (!sameValue(row[names[k]], example[k])) return false;
  return true;
}

/** The example rows of one file: how many, and the first's line. */
export class ExampleRows {
  count = 0;
  firstLine = 0;

  note(line: number): void {
    if (this.count++ === 0) this.firstLine = line;
  }
}

export const exampleRowTexts = {
  /** The words the job's message uses for the example row: "linha 2: linha de exemplo do modelo, ignorada". */
  note: (rows: ExampleRows) =>
    rows.count === 1
      ? `linha ${rows.firstLine}: linha de exemplo do modelo, ignorada`
      : `${formatCount(rows.count)} linhas de exemplo do modelo, ignoradas (a primeira na linha ${rows.firstLine})`,
  /** Appended to a job's message when the file held the example row. */
  suffix: (rows: ExampleRows) => (rows.count > 0 ? `; ${exampleRowTexts.note(rows)}` : ""),
  /** A file whose only data row is the example: nothing changes. */
  only: (rows: ExampleRows, verb: "carregado" | "aplicado") =>
    `${exampleRowTexts.note(rows)[0].toUpperCase()}${exampleRowTexts.note(rows).slice(1)}. Nenhuma outra linha de dados: nada foi ${verb}.`,
};
