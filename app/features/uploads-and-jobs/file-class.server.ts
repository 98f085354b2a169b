import type { FileClassification } from "~/models/files.fields";
import { roundTripById } from "~/round-trips.server";
import { CPF_FIELD } from "~/shared/cpf";
import { portalHeaderOf } from "~/shared/excel/round-trip.server";
import { cellText, type CellValue } from "~/shared/excel/values";
import type { SourceRow } from "~/shared/excel/xlsx-reader.server";
import { normalizeCpf } from "./import/rules";
import { normalizeHeader } from "./import/template";
import { detectTemplate } from "./import/templates";

/**
 * What a stored spreadsheet holds, read from its first rows (files.fields.ts FileDataClass). The rule is conservative:
 * HR when the header is the HR template's, names an HR grid export, or has a column named CPF, or when a column of
 * the first CLASSIFY_SAMPLE_ROWS rows holds CPFs; plain only when none of that is found. The worker applies it when it
 * takes a job (hr-file-view.server.ts classifyClaimedFile), so the class is on the record before anyone downloads it.
 */

/** Data rows read after the header to look for a column of CPFs. */
export const CLASSIFY_SAMPLE_ROWS = 200;

const HR_TEMPLATE_ID = "hr_aux";

/** Whether an Excel round trip's rows are HR data (its RoundTripDataset says so). */
export function isHrDataset(dataset: string): boolean {
  return roundTripById(dataset)?.dataClass === "hr";
}

/** Whether what the worker read a file as (a template's id, or a returned export's dataset) is HR data. */
export function readAsHr(templateOrDataset: string | undefined): boolean {
  return templateOrDataset === HR_TEMPLATE_ID || (!!templateOrDataset && isHrDataset(templateOrDataset));
}

/** The class a header row alone decides (HR template, HR export, a CPF column), or null when it says nothing. */
export function headerClass(header: readonly CellValue[]): FileClassification | null {
  if (detectTemplate(header)?.template.id === HR_TEMPLATE_ID) return { dataClass: "hr", by: "hr-template" };
  const texts = header.map(normalizeHeader);
  if (texts.some((t) => isHrDataset(portalHeaderOf(t)?.dataset ?? ""))) return { dataClass: "hr", by: "hr-export" };
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
 * Reads the header (the first row with a non-empty cell) and up to CLASSIFY_SAMPLE_ROWS rows after it. A column is
 * of CPFs when one of its cells is a written CPF, or at least half of its non-empty cells are 11 digits with valid
 * check digits (a column of codes passes that by chance for about one value in a hundred). The caller closes `rows`.
 */
export async function classifyRows(rows: AsyncIterator<SourceRow>): Promise<FileClassification> {
  let header: readonly CellValue[] | null = null;
  const filled: number[] = [];
  const digits: number[] = [];
  for (let sampled = 0; sampled < CLASSIFY_SAMPLE_ROWS; ) {
    const next = await rows.next();
    if (next.done) break;
    const cells = next.value.cells;
    if (!header) {
      if (cells.every((c) => cellText(c).trim() === "")) continue;
      header = cells;
      const byHeader = headerClass(cells);
      if (byHeader) return byHeader;
      continue;
    }
    sampled++;
    for (let k = 0; k < cells.length; k++) {
      if (cellText(cells[k]).trim() === "") continue;
      filled[k] = (filled[k] ?? 0) + 1;
      const kind = cpfCell(cells[k]);
      if (kind === "written") return { dataClass: "hr", by: "cpf-column" };
      if (kind === "digits") digits[k] = (digits[k] ?? 0) + 1;
    }
  }
  if (digits.some((n, k) => n > 0 && n * 2 >= (filled[k] ?? 0))) return { dataClass: "hr", by: "cpf-column" };
  return { dataClass: "plain", by: "no-hr-sign" };
}
