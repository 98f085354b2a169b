import { type CellValue, normalizeCnpj, parseDate, parseDateText, parseYearMonthDay } from "~/shared/excel/values";
import { formatNumber, readNumber } from "~/shared/numbers";

/**
 * The column rules of every upload template (template.ts): what a cell may hold, the value a valid one is stored as,
 * and, for a broken rule, the message `Coluna <col>: valor "<value>" inválido; <rule>` (docs/decisions.md
 * "Uploads and jobs"). A rule is data, built once per template: checking a cell creates no closures or option objects
 * (an import checks about a million rows per file).
 */

export type ColumnRule =
  | { kind: "text"; required: boolean; max: number; pattern?: RegExp; patternRule?: string }
  /**
   * One of a list of values, matched without regard to case and stored upper-case, lower-case or as written in the
   * list (`options`: the folded text of each allowed value → the value stored; built by `choiceRule`). `rule` says
   * what is allowed, in pt-BR.
   */
  | { kind: "choice"; required: boolean; stored: ChoiceStored; options: ReadonlyMap<string, string>; rule: string }
  /** A date: YYYY-MM-DD, DD/MM/YYYY, YYYYMMDD or an XLSX date; stored as a Date. Required. */
  | { kind: "date" }
  /** A CNPJ: 14 digits (dots, slash and dash ignored) with valid check digits; stored as the 14 digits. Required. */
  | { kind: "cnpj" }
  /** A date as YYYYMMDD or YYYY-MM-DD (or an XLSX date); stored as YYYYMMDD. Required. */
  | { kind: "yearMonthDay" }
  /** A competency month, stored as its first day (UTC). Required. */
  | { kind: "month"; min?: Date; max?: Date }
  /** A whole number (~/shared/numbers: pt-BR or plain form, or a number cell); empty is 0 unless required. */
  | { kind: "integer"; required: boolean; min: number; max: number }
  /**
   * A number with up to `decimals` decimals (~/shared/numbers); empty is 0 unless required. More decimals are rounded
   * (amounts) or refused (figures typed exactly), as the value's screens do.
   */
  | {
      kind: "decimal";
      required: boolean;
      min: number;
      max: number;
      decimals: number;
      excessDecimals: "round" | "refuse";
    }
  /** A CPF: 11 digits (dots and dash ignored) with valid check digits; stored as the 11 digits. Required. */
  | { kind: "cpf" }
  /** sim / não (also s, n, true, false, 1, 0, x); empty is não. */
  | { kind: "flag" };

/** How a choice is stored: its text upper-cased, lower-cased, or the allowed value as written. */
export type ChoiceStored = "upper-case" | "lower-case" | "as-written";

/** A choice among `allowed` (see ColumnRule): required and stored as written unless told. */
export function choiceRule(
  allowed: readonly string[],
  rule: string,
  options: { required?: boolean; stored?: ChoiceStored } = {},
): ColumnRule {
  const stored = options.stored ?? "as-written";
  const map = new Map<string, string>();
  for (const value of allowed) {
    const written =
      stored === "upper-case" ? value.toUpperCase() : stored === "lower-case" ? value.toLowerCase() : value;
    map.set(fold(stored, value), written);
  }
  return { kind: "choice", required: options.required ?? true, stored, options: map, rule };
}

function fold(stored: ChoiceStored, text: string): string {
  return stored === "upper-case" ? text.toUpperCase() : text.toLowerCase();
}

const MAX_VALUE_IN_MESSAGE = 60;

/** The message of a broken rule: `Coluna <col>: valor "<value>" inválido; <rule>` (a long value is cut). */
export function invalid(column: string, text: string, rule: string): string {
  const shown = text.length > MAX_VALUE_IN_MESSAGE ? `${text.slice(0, MAX_VALUE_IN_MESSAGE - 1)}…` : text;
  return `Coluna ${column}: valor "${shown}" inválido; ${rule}`;
}

const MONTH_FORMS = "(AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)";
const DATE_FORMS = "(AAAA-MM-DD, DD/MM/AAAA ou AAAAMMDD)";

/** A month from an XLSX date, "2026-03", "03/2026", or a date ("2026-03-15", "15/03/2026", "20260315"): its first day. */
function parseMonthCell(value: CellValue, text: string): Date | null {
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

/** The rule a masked CPF breaks: the portal never shows a full CPF, so the uploader types it back. */
export const MASKED_CPF_RULE = "CPF mascarado; digite o CPF completo (11 dígitos) no lugar da máscara";

const YES = new Set(["sim", "s", "true", "verdadeiro", "1", "x", "yes", "y"]);
const NO = new Set(["não", "nao", "n", "false", "falso", "0", "no", ""]);

/** A bound in a message: "10.000.000.000.000", "999.999,99". */
function bound(n: number): string {
  return formatNumber(n, 2, 0);
}

/**
 * Checks one cell against its rule. Valid: returns the value to store in `out.value` and null. Invalid: the rule text
 * (without the column and value, which the caller adds).
 */
export function checkCell(rule: ColumnRule, value: CellValue, text: string, out: { value: unknown }): string | null {
  switch (rule.kind) {
    case "text":
      out.value = text;
      if (!text) return rule.required ? "campo obrigatório" : null;
      if (text.length > rule.max) return `esperado no máximo ${rule.max} caracteres`;
      if (rule.pattern && !rule.pattern.test(text)) return rule.patternRule ?? "formato inválido";
      return null;
    case "choice":
      return checkChoice(rule, text, out);
    case "date":
      out.value = null;
      if (!text) return `campo obrigatório; esperado uma data ${DATE_FORMS}`;
      out.value = value instanceof Date ? parseDate(value) : parseDateText(text);
      return out.value === null ? `esperado uma data válida ${DATE_FORMS}` : null;
    case "cnpj":
      out.value = "";
      if (!text) return "campo obrigatório; esperado um CNPJ de 14 dígitos";
      out.value = normalizeCnpj(value) ?? "";
      return out.value ? null : "esperado um CNPJ de 14 dígitos com dígitos verificadores válidos";
    case "yearMonthDay":
      out.value = "";
      if (!text) return "campo obrigatório; esperado AAAAMMDD ou AAAA-MM-DD";
      out.value = parseYearMonthDay(value) ?? "";
      return out.value ? null : "esperado uma data válida AAAAMMDD ou AAAA-MM-DD";
    case "month":
      return checkMonth(rule, value, text, out);
    case "integer":
    case "decimal":
      return checkNumber(rule, value, text, out);
    case "cpf":
      return checkCpf(value, text, out);
    case "flag":
      return checkFlag(value, text, out);
  }
}

function checkChoice(
  rule: Extract<ColumnRule, { kind: "choice" }>,
  text: string,
  out: { value: unknown },
): string | null {
  out.value = "";
  if (!text) return rule.required ? `campo obrigatório; esperado ${rule.rule}` : null;
  const folded = fold(rule.stored, text);
  const found = rule.options.get(folded);
  if (found !== undefined) {
    out.value = found;
    return null;
  }
  // A refused value is kept in its folded form (an edit compares it with the stored one); "as written" has none.
  if (rule.stored !== "as-written") out.value = folded;
  return `esperado ${rule.rule}`;
}

function checkMonth(
  rule: Extract<ColumnRule, { kind: "month" }>,
  value: CellValue,
  text: string,
  out: { value: unknown },
): string | null {
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

function checkNumber(
  rule: Extract<ColumnRule, { kind: "integer" | "decimal" }>,
  value: CellValue,
  text: string,
  out: { value: unknown },
): string | null {
  out.value = 0;
  const isNumber = typeof value === "number";
  if (!isNumber && !text && rule.required) return "campo obrigatório";
  const decimals = rule.kind === "integer" ? 0 : rule.decimals;
  const read = readNumber(isNumber ? value : text, {
    decimals,
    min: rule.min,
    max: rule.max,
    excessDecimals: rule.kind === "integer" ? "refuse" : rule.excessDecimals,
  });
  if (read.ok) {
    out.value = read.value;
    return null;
  }
  switch (read.problem) {
    case "format":
      return rule.kind === "integer" ? "esperado um número inteiro" : "esperado um número (1.234,56 ou 1234.56)";
    case "decimals":
      return decimals === 0 ? "esperado um número inteiro" : `esperado no máximo ${decimals} casas decimais`;
    default:
      return `esperado um número entre ${bound(rule.min)} e ${bound(rule.max)}`;
  }
}

function checkCpf(value: CellValue, text: string, out: { value: unknown }): string | null {
  out.value = "";
  if (!text) return "campo obrigatório; esperado um CPF de 11 dígitos";
  // A CPF as the portal shows it (***.456.789-**), e.g. from "Baixar linhas recusadas para corrigir": never a CPF.
  if (text.includes("*")) return MASKED_CPF_RULE;
  const cpf = normalizeCpf(value, text);
  if (!cpf) return "esperado um CPF de 11 dígitos com dígitos verificadores válidos";
  out.value = cpf;
  return null;
}

function checkFlag(value: CellValue, text: string, out: { value: unknown }): string | null {
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

/** What a rule accepts, for the template's column sheet. */
export function ruleDescription(rule: ColumnRule): string {
  switch (rule.kind) {
    case "text":
      return `texto, até ${rule.max} caracteres${rule.patternRule ? `; ${rule.patternRule.replace(/^esperado /, "")}` : ""}`;
    case "choice":
      return rule.rule;
    case "date":
      return "data: AAAA-MM-DD, DD/MM/AAAA, AAAAMMDD ou data do Excel";
    case "cnpj":
      return "14 dígitos (pontos, barra e traço opcionais) com dígitos verificadores válidos";
    case "yearMonthDay":
      return "data AAAAMMDD ou AAAA-MM-DD; gravada como AAAAMMDD";
    case "month":
      return `mês ${MONTH_FORMS}; gravado como o primeiro dia do mês`;
    case "integer":
      return `número inteiro de ${bound(rule.min)} a ${bound(rule.max)}`;
    case "decimal":
      return `número de ${bound(rule.min)} a ${bound(rule.max)}, até ${rule.decimals} casas decimais (1.234,56 ou 1234.56)${rule.required ? "" : "; vazio = 0"}`;
    case "cpf":
      return "CPF com 11 dígitos (pontos e traço opcionais) e dígitos verificadores válidos; gravado só com os dígitos";
    case "flag":
      return "sim ou não (vazio = não)";
  }
}

export function ruleType(rule: ColumnRule): string {
  switch (rule.kind) {
    case "text":
      return "texto";
    case "choice":
      return "lista";
    case "date":
    case "yearMonthDay":
      return "data";
    case "cnpj":
      return "CNPJ";
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

export function ruleRequired(rule: ColumnRule): boolean {
  switch (rule.kind) {
    case "text":
    case "choice":
    case "integer":
    case "decimal":
      return rule.required;
    case "date":
    case "cnpj":
    case "yearMonthDay":
    case "month":
    case "cpf":
      return true;
    case "flag":
      return false;
  }
}
