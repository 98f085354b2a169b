import {
  CHANNEL,
  CHANNEL_NOK,
  MASTER_DATA_EDITABLE_FIELDS,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { cellText, normalizeCnpj, parseDate, parseDateText, parseYearMonthDay, type CellValue } from "./values";

/**
 * The master-data templates the worker recognises by their header row, and the row rules.
 * Rules (docs/decisions.md "Import validation rules"):
 *
 * product / planning quantity master
 *   sku                       required, letters and digits only, up to 40 characters
 *   material_description      required, up to 200 characters
 *   marca                     required, up to 100 characters
 *   category_sku, categoria_principal_sku, sub_categoria_sku, plc_local, plc_global
 *                             optional, up to 100 characters
 *   hero                      required, "hero" or "non-hero" (any case; stored lower-case)
 *   abcd                      A, B, C, D (any case; stored upper-case) or empty
 *   data_validade_sku         required date: YYYY-MM-DD, DD/MM/YYYY, YYYYMMDD or an XLSX date
 * channel
 *   cnpj                      required, 14 digits (dots, slash and dash ignored) with valid check digits;
 *                             stored as the 14 digits
 *   description               optional, up to 200 characters
 *   channel_siop              required, up to 100 characters
 * planning spend
 *   channel                   required, one of WHOLESALES, BRANDSITE, ONLINE_PARTNERS, FSS (any case; stored upper-case)
 *   marca                     required, up to 100 characters
 *   yearMonthDay              required date, YYYYMMDD or YYYY-MM-DD; stored as YYYYMMDD
 *
 * A NOK row's Error names each broken rule as `Coluna <col>: valor "<value>" inválido; <rule>`,
 * several joined with " | ".
 */

/**
 * A column's rule. Rules are data, built once per template: checking a row creates no closures or
 * option objects (the import checks about a million rows per file).
 */
export type ColumnRule =
  | { kind: "text"; required: boolean; max: number; pattern?: RegExp; patternRule?: string }
  | { kind: "choice"; required: boolean; allowed: ReadonlySet<string>; upperCase: boolean; rule: string }
  | { kind: "date" }
  | { kind: "cnpj" }
  | { kind: "yearMonthDay" };

export type Template = {
  id: "product" | "channel" | "spend";
  /** pt-BR name used in job messages. */
  label: string;
  /** The header cells, as written in the template. */
  headers: readonly string[];
  /** One rule per header, in the same order. */
  rules: readonly ColumnRule[];
  okCollection: string;
  nokCollection: string;
  /** NOK rows carry their time as `timeStamp`, except channel NOK rows, which use `creationDate` (spec 000 §3). */
  nokTimeField: "timeStamp" | "creationDate";
  /** Fields an OK row carries besides its columns, derived from them (the product's `skherou` and `plc_localsku`). */
  derive?: (doc: Record<string, unknown>) => void;
};

const MAX_VALUE_IN_MESSAGE = 60;

function quoteText(text: string): string {
  return text.length > MAX_VALUE_IN_MESSAGE ? `${text.slice(0, MAX_VALUE_IN_MESSAGE - 1)}…` : text;
}

function invalidText(column: string, text: string, rule: string): string {
  return `Coluna ${column}: valor "${quoteText(text)}" inválido; ${rule}`;
}

function withError(errors: string[] | null, column: string, text: string, rule: string): string[] {
  const list = errors ?? [];
  list.push(invalidText(column, text, rule));
  return list;
}

const DATE_FORMS = "(AAAA-MM-DD, DD/MM/AAAA ou AAAAMMDD)";

/**
 * Checks one row of `template`. `values` are its cells in header order and `texts` their cellText.
 * Valid: the values to store are written to `stored` (header order) and null is returned. Invalid: the
 * broken rules, one text per column.
 */
export function checkRow(
  template: Template,
  values: readonly CellValue[],
  texts: readonly string[],
  stored: unknown[],
): string[] | null {
  const { headers, rules } = template;
  let errors: string[] | null = null;
  for (let k = 0; k < rules.length; k++) {
    const rule = rules[k];
    const text = texts[k];
    switch (rule.kind) {
      case "text":
        if (!text) {
          if (rule.required) errors = withError(errors, headers[k], texts[k], "campo obrigatório");
        } else if (text.length > rule.max)
          errors = withError(errors, headers[k], texts[k], `esperado no máximo ${rule.max} caracteres`);
        else if (rule.pattern && !rule.pattern.test(text))
          errors = withError(errors, headers[k], texts[k], rule.patternRule ?? "formato inválido");
        stored[k] = text;
        break;
      case "choice": {
        if (!text) {
          if (rule.required)
            errors = withError(errors, headers[k], texts[k], `campo obrigatório; esperado ${rule.rule}`);
          stored[k] = "";
          break;
        }
        const normalized = rule.upperCase ? text.toUpperCase() : text.toLowerCase();
        if (!rule.allowed.has(normalized)) errors = withError(errors, headers[k], texts[k], `esperado ${rule.rule}`);
        stored[k] = normalized;
        break;
      }
      case "date":
        if (!text) {
          errors = withError(errors, headers[k], texts[k], `campo obrigatório; esperado uma data ${DATE_FORMS}`);
          stored[k] = null;
          break;
        }
        stored[k] = values[k] instanceof Date ? parseDate(values[k]) : parseDateText(text);
        if (stored[k] === null)
          errors = withError(errors, headers[k], texts[k], `esperado uma data válida ${DATE_FORMS}`);
        break;
      case "cnpj":
        if (!text) {
          errors = withError(errors, headers[k], texts[k], "campo obrigatório; esperado um CNPJ de 14 dígitos");
          stored[k] = "";
          break;
        }
        stored[k] = normalizeCnpj(values[k]) ?? "";
        if (!stored[k])
          errors = withError(
            errors,
            headers[k],
            texts[k],
            "esperado um CNPJ de 14 dígitos com dígitos verificadores válidos",
          );
        break;
      case "yearMonthDay":
        if (!text) {
          errors = withError(errors, headers[k], texts[k], "campo obrigatório; esperado AAAAMMDD ou AAAA-MM-DD");
          stored[k] = "";
          break;
        }
        stored[k] = parseYearMonthDay(values[k]) ?? "";
        if (!stored[k])
          errors = withError(errors, headers[k], texts[k], "esperado uma data válida AAAAMMDD ou AAAA-MM-DD");
        break;
    }
  }
  return errors;
}

const optionalText = (max: number): ColumnRule => ({ kind: "text", required: false, max });
const requiredText = (max: number): ColumnRule => ({ kind: "text", required: true, max });

export const productTemplate: Template = {
  id: "product",
  label: "Product master",
  headers: MASTER_DATA_EDITABLE_FIELDS[PRODUCT_MASTER],
  rules: [
    {
      kind: "text",
      required: true,
      max: 40,
      pattern: /^[A-Za-z0-9]+$/,
      patternRule: "esperado apenas letras e dígitos",
    },
    requiredText(200),
    requiredText(100),
    optionalText(100),
    optionalText(100),
    optionalText(100),
    {
      kind: "choice",
      required: true,
      allowed: new Set(["hero", "non-hero"]),
      upperCase: false,
      rule: "hero ou non-hero",
    },
    {
      kind: "choice",
      required: false,
      allowed: new Set(["A", "B", "C", "D"]),
      upperCase: true,
      rule: "A, B, C, D ou vazio",
    },
    optionalText(100),
    optionalText(100),
    { kind: "date" },
  ],
  okCollection: PRODUCT_MASTER,
  nokCollection: PRODUCT_MASTER_NOK,
  nokTimeField: "timeStamp",
  // The planning filter reads a product's PLC Local as plc_localsku and the SKU-hero key as skherou (spec 001 §3).
  derive: (doc) => {
    doc.skherou = `${doc.sku}-${doc.hero}`;
    doc.plc_localsku = doc.plc_local;
  },
};

export const channelTemplate: Template = {
  id: "channel",
  label: "Channel",
  headers: MASTER_DATA_EDITABLE_FIELDS[CHANNEL],
  rules: [{ kind: "cnpj" }, optionalText(200), requiredText(100)],
  okCollection: CHANNEL,
  nokCollection: CHANNEL_NOK,
  nokTimeField: "creationDate",
};

export const SPEND_CHANNELS = ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"] as const;

export const spendTemplate: Template = {
  id: "spend",
  label: "Planning spend",
  headers: MASTER_DATA_EDITABLE_FIELDS[PLANNING_SPEND],
  rules: [
    {
      kind: "choice",
      required: true,
      allowed: new Set(SPEND_CHANNELS),
      upperCase: true,
      rule: "WHOLESALES, BRANDSITE, ONLINE_PARTNERS ou FSS",
    },
    requiredText(100),
    { kind: "yearMonthDay" },
  ],
  okCollection: PLANNING_SPEND,
  nokCollection: PLANNING_SPEND_NOK,
  nokTimeField: "timeStamp",
};

/** Checked in this order: the product master has the most columns, so it is never mistaken for another. */
export const TEMPLATES: readonly Template[] = [productTemplate, spendTemplate, channelTemplate];

export function normalizeHeader(cell: CellValue): string {
  return cellText(cell)
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();
}

export type Layout = { template: Template; columns: Array<{ name: string; index: number }> };

/** The template whose every header appears in the row (any order, any case), with each column's position. */
export function detectLayout(headerRow: readonly CellValue[]): Layout | null {
  const positions = new Map<string, number>();
  headerRow.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    if (name && !positions.has(name)) positions.set(name, index);
  });
  for (const template of TEMPLATES) {
    const columns = template.headers.map((name) => ({ name, index: positions.get(name.toLowerCase()) ?? -1 }));
    if (columns.every((c) => c.index >= 0)) return { template, columns };
  }
  return null;
}
