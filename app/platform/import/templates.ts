import {
  channelTemplate,
  productTemplate,
  spendTemplate,
} from "~/features/repository-and-master-data/upload-templates";
import type { CellValue } from "~/shared/excel/values";
import {
  fiscalTemplate,
  forecastTemplate,
  fpaTemplate,
  hrTemplate,
  ledgerTemplate,
  planningQuantityTemplate,
} from "./datasets/definitions";
import { type Layout, normalizeHeader, type Template } from "./template";

/**
 * Every upload template, in the order /captura/manual lists them: spec 000's master data (rows kept or sent to the
 * NOK base), then the spec-001 datasets (all or nothing).
 */
export const TEMPLATES: readonly Template[] = [
  productTemplate,
  channelTemplate,
  spendTemplate,
  planningQuantityTemplate,
  forecastTemplate,
  ledgerTemplate,
  hrTemplate,
  fpaTemplate,
  fiscalTemplate,
];

/** The templates by width, widest first (ties in list order): the order a header row is matched in. */
const BY_WIDTH = [...TEMPLATES].sort((a, b) => b.columns.length - a.columns.length);

/**
 * The template whose every column the header row holds (any order, any case, other columns ignored), with each
 * column's position. The template with the most columns is tried first, so none is mistaken for one whose columns it
 * contains.
 */
export function detectTemplate(headerRow: readonly CellValue[]): Layout | null {
  const positions = new Map<string, number>();
  headerRow.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    if (name && !positions.has(name)) positions.set(name, index);
  });
  for (const template of BY_WIDTH) {
    const indexes = template.columns.map((c) => positions.get(c.name.toLowerCase()) ?? -1);
    if (indexes.every((i) => i >= 0)) return { template, indexes };
  }
  return null;
}

export function templateById(id: string): Template | null {
  return TEMPLATES.find((t) => t.id === id) ?? null;
}
