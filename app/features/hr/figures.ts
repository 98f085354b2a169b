import { hrTexts } from "~/messages";
import { HR_FIGURE_FIELDS, type HrFigureField } from "~/models/hr.fields";

export { HR_FIGURE_FIELDS, HR_ROW_LIMIT, isHrFigureField, type HrFigureField } from "~/models/hr.fields";

/**
 * The five figures an HR editor may change (spec 001 §3, §5) and how each is typed in: Brazilian format
 * (dot thousands, comma decimals), never negative, with the decimals the figure needs and a ceiling that
 * catches a slipped finger (docs/decisions.md "HR auxiliary data"). Pure: the grid validates as the user
 * types and the action validates again with the same rules.
 */

type FigureRule = { decimals: number; minShown: number; max: number };

export const HR_FIGURE_RULES: Record<HrFigureField, FigureRule> = {
  /** Money (R$): cents. */
  vendas_adicionais: { decimals: 2, minShown: 2, max: 99_999_999.99 },
  /** An average of days in a month. */
  dias_media: { decimals: 2, minShown: 1, max: 31 },
  /** A count of services. */
  result_qtde_servico: { decimals: 0, minShown: 0, max: 1_000_000 },
  /** The monthly challenge's result (a percentage of the goal). */
  result_desafio_mensal: { decimals: 2, minShown: 2, max: 1_000 },
  /** Money (R$): cents. */
  vendas_servicos: { decimals: 2, minShown: 2, max: 99_999_999.99 },
};

/** 1234.5 → "1.234,50" (decimals fixed at `maxDecimals`, trailing zeros trimmed down to `minDecimals`); no ICU needed. */
export function formatPtBrNumber(value: number, maxDecimals: number, minDecimals = maxDecimals): string {
  const fixed = Math.abs(value).toFixed(maxDecimals);
  let [integer, fraction = ""] = fixed.split(".");
  while (fraction.length > minDecimals && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  integer = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const sign = value < 0 && Number(fixed) !== 0 ? "-" : "";
  return `${sign}${integer}${fraction ? `,${fraction}` : ""}`;
}

export function formatFigure(field: HrFigureField, value: number): string {
  const rule = HR_FIGURE_RULES[field];
  return formatPtBrNumber(value, rule.decimals, rule.minShown);
}

/** Brazilian number text: optional minus, digits with optional dot groups of three, optional comma decimals. */
const PT_BR_NUMBER = /^(-?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/;

export type ParsedNumber = { ok: true; value: number; decimals: number } | { ok: false };

/**
 * A number typed the Brazilian way: "1.234,56", "1234,56", "1.234", "0,5". Empty means 0 (as in the spec's
 * grid cells). "12.5" is refused rather than guessed: in pt-BR the dot groups thousands.
 */
export function parsePtBrNumber(text: string): ParsedNumber {
  const trimmed = text.replace(/[\s\u00a0]+/g, "");
  if (trimmed === "") return { ok: true, value: 0, decimals: 0 };
  const match = PT_BR_NUMBER.exec(trimmed);
  if (!match) return { ok: false };
  const [, minus, integer, fraction = ""] = match;
  const value = Number(`${minus}${integer.replace(/\./g, "")}.${fraction || "0"}`);
  if (!Number.isFinite(value)) return { ok: false };
  return { ok: true, value: value === 0 ? 0 : value, decimals: fraction.length };
}

export type FigureCheck = { ok: true; value: number } | { ok: false; error: string };

/** The value of a typed figure, or why it cannot be saved. */
export function checkFigure(field: HrFigureField, text: string): FigureCheck {
  const rule = HR_FIGURE_RULES[field];
  if (text.length > 32) return { ok: false, error: hrTexts.invalidNumber };
  const parsed = parsePtBrNumber(text);
  if (!parsed.ok) return { ok: false, error: hrTexts.invalidNumber };
  if (parsed.value < 0) return { ok: false, error: hrTexts.negativeNumber };
  if (parsed.decimals > rule.decimals) {
    // Trailing zeros beyond the allowed decimals change nothing ("10,500" is 10,5).
    const significant =
      text
        .replace(/[\s\u00a0]+/g, "")
        .split(",")[1]
        ?.replace(/0+$/, "").length ?? 0;
    if (significant > rule.decimals) return { ok: false, error: hrTexts.tooManyDecimals(rule.decimals) };
  }
  if (parsed.value > rule.max)
    return { ok: false, error: hrTexts.numberTooLarge(formatPtBrNumber(rule.max, rule.decimals, 0)) };
  return { ok: true, value: Number(parsed.value.toFixed(rule.decimals)) };
}
