import type { SourceRow } from "xlsx-reader";
import type { FileClassification } from "~/models/files.fields";
import { CPF_FIELD } from "~/shared/cpf";
import { portalHeaderOf } from "~/shared/excel/round-trip.server";
import { type CellValue, cellText } from "~/shared/excel/values";
import { detectTemplate, isHrRoundTrip } from "./registry";
import { normalizeCpf } from "./rules";
import { normalizeHeader } from "./template";

/**
 * What a stored spreadsheet holds, read from its first rows (files.fields.ts FileDataClass). The rule is conservative:
 * HR when the header is the HR template's, names an HR grid export, or has a column named CPF, or when a column of
 * the first CLASSIFY_SAMPLE_ROWS rows holds CPFs; plain only when none of that is found. The worker applies it to the
 * rows it reads (ingest.server.ts) and records the class as it ends the job; a file read before that is classified by
 * its first read (hr-file-view.server.ts storedFileClass).
 */

/** Data rows read after the header to look for a column of CPFs. */
export const CLASSIFY_SAMPLE_ROWS = 200;

const HR_TEMPLATE_ID = "hr_aux";

/** Whether what the worker read a file as (a template's id, or a returned export's dataset) is HR data. */
export function readAsHr(templateOrDataset: string | undefined): boolean {
  return templateOrDataset === HR_TEMPLATE_ID || (!!templateOrDataset && isHrRoundTrip(templateOrDataset));
}

/** The class a header row alone decides (HR template, HR export, a CPF column), or null when it says nothing. */
export function headerClass(header: readonly CellValue[]): FileClassification | null {
  if (detectTemplate(header)?.template.id === HR_TEMPLATE_ID) return { dataClass: "hr", by: "hr-template" };
  const texts = header.map(normalizeHeader);
  if (texts.some((t) => isHrRoundTrip(portalHeaderOf(t)?.dataset ?? ""))) return { dataClass: "hr", by: "hr-export" };
  if (texts.some((t) => CPF_FIELD.test(t))) return { dataClass: "hr", by: "cpf-column" };
  return null;
}

/** A CPF as people write it (529.982.247-25, 529982247-25, 529 982 247 25; 11 bare digits are told apart first). */
const CPF_WRITTEN = /^\d{3}[. \u00a0-]?\d{3}[. \u00a0-]?\d{3}[. \u00a0-]?\d{2}$/;
const CPF_MASKED = /^\*{3}\.(?:\d{3}|\*{3})\.(?:\d{3}|\*{3})-\*{2}$/;

/**
 * Whether a cell is a CPF: "written" in a CPF's punctuation or masked (nothing else looks like that), "digits" for 11
 * digits (or a whole number) with valid check digits, which a code or a phone number can be by chance; else null.
 */
export function cpfCell(value: CellValue): "written" | "digits" | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value <= 0 || value >= 1e11) return null;
    return normalizeCpf(value, "") ? "digits" : null;
  }
  const text = cellText(value).trim();
  if (text.length < 11 || text.length > 15) return null;
  if (/^\d{11}$/.test(text)) return normalizeCpf(text, text) ? "digits" : null;
  return CPF_WRITTEN.test(text) || CPF_MASKED.test(text) ? "written" : null;
}

/**
 * The rule over a file's rows as a reader hands them on: the header (the first row with a non-empty cell), then up to
 * CLASSIFY_SAMPLE_ROWS rows after it. A column is of CPFs when one of its cells is a written CPF, or at least half of
 * its non-empty cells are 11 digits with valid check digits (a column of codes passes that by chance for about one
 * value in a hundred). The worker feeds it the rows it reads anyway (ingest.server.ts), so classifying costs no
 * second read of the file.
 */
export class FileClassifier {
  private header: readonly CellValue[] | null = null;
  private sampled = 0;
  private readonly filled: number[] = [];
  private readonly digits: number[] = [];
  private decided: FileClassification | null = null;

  /** Whether more rows can no longer change the class. */
  get done(): boolean {
    return this.decided !== null || this.sampled >= CLASSIFY_SAMPLE_ROWS;
  }

  see(cells: readonly CellValue[]): void {
    if (this.done) return;
    if (!this.header) {
      if (cells.every((c) => cellText(c).trim() === "")) return;
      this.header = cells;
      this.decided = headerClass(cells);
      return;
    }
    this.sampled++;
    for (let k = 0; k < cells.length; k++) {
      if (cellText(cells[k]).trim() === "") continue;
      this.filled[k] = (this.filled[k] ?? 0) + 1;
      const kind = cpfCell(cells[k]);
      if (kind === "written") {
        this.decided = { dataClass: "hr", by: "cpf-column" };
        return;
      }
      if (kind === "digits") this.digits[k] = (this.digits[k] ?? 0) + 1;
    }
  }

  seeBatch(rows: readonly SourceRow[]): void {
    for (let i = 0; i < rows.length && !this.done; i++) this.see(rows[i].cells);
  }

  /** Reads on until the class is decided or the rows end: for a reader that stopped at the header. */
  async readMore(rows: AsyncIterator<readonly SourceRow[]>): Promise<void> {
    while (!this.done) {
      const next = await rows.next();
      if (next.done) return;
      this.seeBatch(next.value);
    }
  }

  /** The class of what was seen. */
  result(): FileClassification {
    if (this.decided) return this.decided;
    const { digits, filled } = this;
    if (digits.some((n, k) => n > 0 && n * 2 >= (filled[k] ?? 0))) return { dataClass: "hr", by: "cpf-column" };
    return { dataClass: "plain", by: "no-hr-sign" };
  }
}

/** The class of the rows `rows` yields, read no further than the rule needs. The caller closes `rows`. */
export async function classifyRows(rows: AsyncIterator<SourceRow>): Promise<FileClassification> {
  const classifier = new FileClassifier();
  while (!classifier.done) {
    const next = await rows.next();
    if (next.done) break;
    classifier.see(next.value.cells);
  }
  return classifier.result();
}
