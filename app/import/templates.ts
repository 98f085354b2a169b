import {
  CHANNEL,
  CHANNEL_NOK,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { cellText, normalizeCnpj, parseDate, parseYearMonthDay, type CellValue } from "./values";

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

export type RowOutcome =
  | { ok: true; doc: Record<string, unknown> }
  | { ok: false; errors: string[]; raw: Record<string, string> };

export type Template = {
  id: "product" | "channel" | "spend";
  /** pt-BR name used in job messages. */
  label: string;
  /** The header cells, as written in the template. */
  headers: readonly string[];
  okCollection: string;
  nokCollection: string;
  /** NOK rows carry their time as `timeStamp`, except channel NOK rows, which use `creationDate` (spec 000 §3). */
  nokTimeField: "timeStamp" | "creationDate";
  validate(values: Record<string, CellValue>): RowOutcome;
};

const MAX_VALUE_IN_MESSAGE = 60;

function quote(value: CellValue): string {
  const text = cellText(value);
  return text.length > MAX_VALUE_IN_MESSAGE ? `${text.slice(0, MAX_VALUE_IN_MESSAGE - 1)}…` : text;
}

export function invalid(column: string, value: CellValue, rule: string): string {
  return `Coluna ${column}: valor "${quote(value)}" inválido; ${rule}`;
}

class Checker {
  readonly errors: string[] = [];
  constructor(private readonly values: Record<string, CellValue>) {}

  text(column: string, options: { required: boolean; max: number; pattern?: RegExp; rule?: string }): string {
    const value = this.values[column];
    const text = cellText(value);
    if (!text) {
      if (options.required) this.errors.push(invalid(column, value, "campo obrigatório"));
      return "";
    }
    if (text.length > options.max) this.errors.push(invalid(column, value, `esperado no máximo ${options.max} caracteres`));
    else if (options.pattern && !options.pattern.test(text)) this.errors.push(invalid(column, value, options.rule ?? "formato inválido"));
    return text;
  }

  oneOf(column: string, allowed: readonly string[], options: { required: boolean; normalize: (s: string) => string; rule: string }): string {
    const value = this.values[column];
    const text = cellText(value);
    if (!text) {
      if (options.required) this.errors.push(invalid(column, value, `campo obrigatório; esperado ${options.rule}`));
      return "";
    }
    const normalized = options.normalize(text);
    if (!allowed.includes(normalized)) this.errors.push(invalid(column, value, `esperado ${options.rule}`));
    return normalized;
  }

  date(column: string): Date | null {
    const value = this.values[column];
    if (!cellText(value)) {
      this.errors.push(invalid(column, value, "campo obrigatório; esperado uma data (AAAA-MM-DD, DD/MM/AAAA ou AAAAMMDD)"));
      return null;
    }
    const date = parseDate(value);
    if (!date) this.errors.push(invalid(column, value, "esperado uma data válida (AAAA-MM-DD, DD/MM/AAAA ou AAAAMMDD)"));
    return date;
  }

  raw(columns: readonly string[]): Record<string, string> {
    return Object.fromEntries(columns.map((c) => [c, cellText(this.values[c])]));
  }
}

const PRODUCT_HEADERS = [
  "sku",
  "material_description",
  "marca",
  "category_sku",
  "categoria_principal_sku",
  "sub_categoria_sku",
  "hero",
  "abcd",
  "plc_local",
  "plc_global",
  "data_validade_sku",
] as const;

export const productTemplate: Template = {
  id: "product",
  label: "Product master",
  headers: PRODUCT_HEADERS,
  okCollection: PRODUCT_MASTER,
  nokCollection: PRODUCT_MASTER_NOK,
  nokTimeField: "timeStamp",
  validate(values) {
    const c = new Checker(values);
    const sku = c.text("sku", { required: true, max: 40, pattern: /^[A-Za-z0-9]+$/, rule: "esperado apenas letras e dígitos" });
    const material_description = c.text("material_description", { required: true, max: 200 });
    const marca = c.text("marca", { required: true, max: 100 });
    const category_sku = c.text("category_sku", { required: false, max: 100 });
    const categoria_principal_sku = c.text("categoria_principal_sku", { required: false, max: 100 });
    const sub_categoria_sku = c.text("sub_categoria_sku", { required: false, max: 100 });
    const hero = c.oneOf("hero", ["hero", "non-hero"], { required: true, normalize: (s) => s.toLowerCase(), rule: "hero ou non-hero" });
    const abcd = c.oneOf("abcd", ["A", "B", "C", "D"], { required: false, normalize: (s) => s.toUpperCase(), rule: "A, B, C, D ou vazio" });
    const plc_local = c.text("plc_local", { required: false, max: 100 });
    const plc_global = c.text("plc_global", { required: false, max: 100 });
    const data_validade_sku = c.date("data_validade_sku");
    if (c.errors.length > 0) return { ok: false, errors: c.errors, raw: c.raw(PRODUCT_HEADERS) };
    return {
      ok: true,
      doc: { sku, material_description, marca, category_sku, categoria_principal_sku, sub_categoria_sku, hero, abcd, plc_local, plc_global, data_validade_sku },
    };
  },
};

const CHANNEL_HEADERS = ["cnpj", "description", "channel_siop"] as const;

export const channelTemplate: Template = {
  id: "channel",
  label: "Channel",
  headers: CHANNEL_HEADERS,
  okCollection: CHANNEL,
  nokCollection: CHANNEL_NOK,
  nokTimeField: "creationDate",
  validate(values) {
    const c = new Checker(values);
    const rawCnpj = values.cnpj;
    let cnpj = "";
    if (!cellText(rawCnpj)) c.errors.push(invalid("cnpj", rawCnpj, "campo obrigatório; esperado um CNPJ de 14 dígitos"));
    else {
      cnpj = normalizeCnpj(rawCnpj) ?? "";
      if (!cnpj) c.errors.push(invalid("cnpj", rawCnpj, "esperado um CNPJ de 14 dígitos com dígitos verificadores válidos"));
    }
    const description = c.text("description", { required: false, max: 200 });
    const channel_siop = c.text("channel_siop", { required: true, max: 100 });
    if (c.errors.length > 0) return { ok: false, errors: c.errors, raw: c.raw(CHANNEL_HEADERS) };
    return { ok: true, doc: { cnpj, description, channel_siop } };
  },
};

export const SPEND_CHANNELS = ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"] as const;
const SPEND_HEADERS = ["channel", "marca", "yearMonthDay"] as const;

export const spendTemplate: Template = {
  id: "spend",
  label: "Planning spend",
  headers: SPEND_HEADERS,
  okCollection: PLANNING_SPEND,
  nokCollection: PLANNING_SPEND_NOK,
  nokTimeField: "timeStamp",
  validate(values) {
    const c = new Checker(values);
    const channel = c.oneOf("channel", SPEND_CHANNELS, {
      required: true,
      normalize: (s) => s.toUpperCase(),
      rule: "WHOLESALES, BRANDSITE, ONLINE_PARTNERS ou FSS",
    });
    const marca = c.text("marca", { required: true, max: 100 });
    const rawVersion = values.yearMonthDay;
    let yearMonthDay = "";
    if (!cellText(rawVersion)) c.errors.push(invalid("yearMonthDay", rawVersion, "campo obrigatório; esperado AAAAMMDD ou AAAA-MM-DD"));
    else {
      yearMonthDay = parseYearMonthDay(rawVersion) ?? "";
      if (!yearMonthDay) c.errors.push(invalid("yearMonthDay", rawVersion, "esperado uma data válida AAAAMMDD ou AAAA-MM-DD"));
    }
    if (c.errors.length > 0) return { ok: false, errors: c.errors, raw: c.raw(SPEND_HEADERS) };
    return { ok: true, doc: { channel, marca, yearMonthDay } };
  },
};

/** Checked in this order: the product master has the most columns, so it is never mistaken for another. */
export const TEMPLATES: readonly Template[] = [productTemplate, spendTemplate, channelTemplate];

export function normalizeHeader(cell: CellValue): string {
  return cellText(cell).replace(/^\uFEFF/, "").trim().toLowerCase();
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
