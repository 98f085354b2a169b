import { parsePtBrNumber } from "~/shared/pt-br-number";
import { parseDate, parseDateText, type CellValue } from "../values";

/**
 * The column rules of the all-or-nothing upload templates (planning quantities, forecast, ledger, HR, FP&A
 * responsibles, fiscal items). Like the master-data rules (../templates.ts), a rule is data, built once per template,
 * and a broken rule reads `Coluna <col>: valor "<value>" inválido; <rule>`.
 */

export type DatasetRule =
  | { kind: "text"; required: boolean; max: number; pattern?: RegExp; patternRule?: string }
  /** One of `allowed`, matched without regard to case and stored as written in `allowed`. */
  | { kind: "choice"; required: boolean; allowed: readonly string[]; rule: string }
  /** A competency month, stored as its first day (UTC). */
  | { kind: "month"; min?: Date; max?: Date }
  | { kind: "integer"; required: boolean; min: number; max: number }
  /** A number in pt-BR ("1.234,56") or plain ("1234.56") form, or a number cell; empty is 0 unless required. */
  | { kind: "decimal"; required: boolean; min: number; max: number; decimals: number }
  /** A CPF: 11 digits (dots and dash ignored) with valid check digits; stored as the 11 digits. */
  | { kind: "cpf" }
  /** sim / não (also s, n, true, false, 1, 0, x); empty is não. */
  | { kind: "flag" };

const MAX_VALUE_IN_MESSAGE = 60;

export function invalid(column: string, text: string, rule: string): string {
  const shown = text.length > MAX_VALUE_IN_MESSAGE ? `${text.slice(0, MAX_VALUE_IN_MESSAGE - 1)}…` : text;
  return `Coluna ${column}: valor "${shown}" inválido; ${rule}`;
}

const MONTH_FORMS = "(AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)";

/** A month from an XLSX date, "2026-03", "03/2026", or a date ("2026-03-15", "15/03/2026", "20260315"): its first day. */
export function parseMonthCell(value: CellValue, text: string): Date | null {
  let date: Date | null = null;
  if (value instanceof Date) date = parseDate(value);
  else {
    let m = /^(\d{4})-(\d{1,2})$/.exec(text);
    if (m) date = monthDate(+m[1], +m[2]);
    else if ((m = /^(\d{1,2})\/(\d{4})$/.exec(text))) date = monthDate(+m[2], +m[1]);
    else date = parseDateText(text);
  }
  return date ? new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)) : null;
}

function monthDate(year: number, month: number): Date | null {
  return year >= 1900 && year <= 2999 && month >= 1 && month <= 12 ? new Date(Date.UTC(year, month - 1, 1)) : null;
}

/** A number cell, or its text in pt-BR or plain form. Null when it is no number; empty text is { empty }. */
export function parseNumberCell(value: CellValue, text: string): { value: number; empty: boolean } | null {
  if (typeof value === "number") return Number.isFinite(value) ? { value, empty: false } : null;
  const parsed = parsePtBrNumber(text);
  return parsed.ok ? { value: parsed.value, empty: parsed.empty } : null;
}

function decimalsOk(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled) / 1e9);
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(Math.abs(value) * factor + 1e-7) / factor;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

/** 11 digits with valid check digits, not all equal; null otherwise. Number cells lose leading zeros: they are padded. */
export function normalizeCpf(value: CellValue, text: string): string | null {
  const digits =
    typeof value === "number" && Number.isInteger(value) && value >= 0
      ? String(value).padStart(11, "0")
      : text.replace(/[.\-\s]/g, "");
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return null;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]) ? digits : null;
}

const YES = new Set(["sim", "s", "true", "verdadeiro", "1", "x", "yes", "y"]);
const NO = new Set(["não", "nao", "n", "false", "falso", "0", "no", ""]);

function formatNumber(n: number): string {
  return n.toLocaleString("pt-BR", { maximumFractionDigits: 2 });
}

/**
 * Checks one cell against its rule. Valid: returns the value to store in `out.value` and null. Invalid: the rule text
 * (without the column and value, which the caller adds).
 */
export function checkCell(rule: DatasetRule, value: CellValue, text: string, out: { value: unknown }): string | null {
  switch (rule.kind) {
    case "text":
      out.value = text;
      if (!text) return rule.required ? "campo obrigatório" : null;
      if (text.length > rule.max) return `esperado no máximo ${rule.max} caracteres`;
      if (rule.pattern && !rule.pattern.test(text)) return rule.patternRule ?? "formato inválido";
      return null;
    case "choice": {
      out.value = "";
      if (!text) return rule.required ? `campo obrigatório; esperado ${rule.rule}` : null;
      const lower = text.toLowerCase();
      const found = rule.allowed.find((a) => a.toLowerCase() === lower);
      if (found === undefined) return `esperado ${rule.rule}`;
      out.value = found;
      return null;
    }
    case "month": {
      out.value = null;
      if (!text && !(value instanceof Date)) return `campo obrigatório; esperado um mês ${MONTH_FORMS}`;
      const month = parseMonthCell(value, text);
      if (!month) return `esperado um mês válido ${MONTH_FORMS}`;
      if ((rule.min && month < rule.min) || (rule.max && month > rule.max)) {
        const label = (d: Date) => `${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
        return `esperado um mês entre ${label(rule.min ?? month)} e ${label(rule.max ?? month)}`;
      }
      out.value = month;
      return null;
    }
    case "integer":
    case "decimal": {
      out.value = 0;
      const parsed = parseNumberCell(value, text);
      if (parsed === null)
        return rule.kind === "integer" ? "esperado um número inteiro" : "esperado um número (1.234,56 ou 1234.56)";
      if (parsed.empty && rule.required) return "campo obrigatório";
      const decimals = rule.kind === "integer" ? 0 : rule.decimals;
      if (!decimalsOk(parsed.value, decimals))
        return decimals === 0 ? "esperado um número inteiro" : `esperado no máximo ${decimals} casas decimais`;
      if (parsed.value < rule.min || parsed.value > rule.max)
        return `esperado um número entre ${formatNumber(rule.min)} e ${formatNumber(rule.max)}`;
      out.value = roundTo(parsed.value, decimals);
      return null;
    }
    case "cpf": {
      out.value = "";
      if (!text) return "campo obrigatório; esperado um CPF de 11 dígitos";
      const cpf = normalizeCpf(value, text);
      if (!cpf) return "esperado um CPF de 11 dígitos com dígitos verificadores válidos";
      out.value = cpf;
      return null;
    }
    case "flag": {
      out.value = false;
      if (typeof value === "boolean") {
        out.value = value;
        return null;
      }
      const lower = text.toLowerCase();
      if (YES.has(lower)) out.value = true;
      else if (!NO.has(lower)) return "esperado sim ou não";
      return null;
    }
  }
}

/** What a rule accepts, for the template's column sheet. */
export function ruleDescription(rule: DatasetRule): string {
  switch (rule.kind) {
    case "text":
      return `texto, até ${rule.max} caracteres${rule.patternRule ? `; ${rule.patternRule.replace(/^esperado /, "")}` : ""}`;
    case "choice":
      return rule.rule;
    case "month":
      return `mês ${MONTH_FORMS}; gravado como o primeiro dia do mês`;
    case "integer":
      return `número inteiro de ${formatNumber(rule.min)} a ${formatNumber(rule.max)}`;
    case "decimal":
      return `número de ${formatNumber(rule.min)} a ${formatNumber(rule.max)}, até ${rule.decimals} casas decimais (1.234,56 ou 1234.56)${rule.required ? "" : "; vazio = 0"}`;
    case "cpf":
      return "CPF com 11 dígitos (pontos e traço opcionais) e dígitos verificadores válidos; gravado só com os dígitos";
    case "flag":
      return "sim ou não (vazio = não)";
  }
}

export function ruleType(rule: DatasetRule): string {
  switch (rule.kind) {
    case "text":
      return "texto";
    case "choice":
      return "lista";
    case "month":
      return "mês";
    case "integer":
      return "inteiro";
    case "decimal":
      return "número";
    case "cpf":
      return "CPF";
    case "flag":
      return "sim/não";
  }
}

export function ruleRequired(rule: DatasetRule): boolean {
  switch (rule.kind) {
    case "text":
    case "choice":
    case "integer":
    case "decimal":
      return rule.required;
    case "month":
    case "cpf":
      return true;
    case "flag":
      return false;
  }
}
