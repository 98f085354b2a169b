import type { HrFigureField } from "~/models/hr.fields";
import { formatNumber, type NumberRule, readNumber } from "~/shared/numbers";
import { hrTexts } from "./texts";

export { HR_FIGURE_FIELDS, HR_ROW_LIMIT, type HrFigureField, isHrFigureField } from "~/models/hr.fields";

/**
 * The five figures an HR editor may change (spec 001 §3, §5) and how each is typed in: Brazilian format
 * (app/shared/numbers.ts), never negative, with the decimals the figure needs and a ceiling that catches a
 * slipped finger (docs/decisions.md "HR auxiliary data"). Pure: the grid validates as the user types, and the
 * action, the Excel round trip and the upload template validate again with the same rules.
 */

type FigureRule = NumberRule & { minShown: number };

const figureRule = (decimals: number, minShown: number, max: number): FigureRule => ({
  decimals,
  minShown,
  min: 0,
  max,
  excessDecimals: "refuse",
});

export const HR_FIGURE_RULES: Record<HrFigureField, FigureRule> = {
  /** Money (R$): cents. */
  vendas_adicionais: figureRule(2, 2, 99_999_999.99),
  /** An average of days in a month. */
  dias_media: figureRule(2, 1, 31),
  /** A count of services. */
  result_qtde_servico: figureRule(0, 0, 1_000_000),
  /** The monthly challenge's result (a percentage of the goal). */
  result_desafio_mensal: figureRule(2, 2, 1_000),
  /** Money (R$): cents. */
  vendas_servicos: figureRule(2, 2, 99_999_999.99),
};

export function formatFigure(field: HrFigureField, value: number): string {
  const rule = HR_FIGURE_RULES[field];
  return formatNumber(value, rule.decimals, rule.minShown);
}

export type FigureCheck = { ok: true; value: number } | { ok: false; error: string };

/** The value of a typed figure (or a spreadsheet's number cell), or why it cannot be saved. */
export function checkFigure(field: HrFigureField, input: string | number): FigureCheck {
  const rule = HR_FIGURE_RULES[field];
  if (typeof input === "string" && input.length > 32) return { ok: false, error: hrTexts.invalidNumber };
  const read = readNumber(input, rule);
  if (read.ok) return { ok: true, value: read.value };
  switch (read.problem) {
    case "negative":
    case "min":
      return { ok: false, error: hrTexts.negativeNumber };
    case "decimals":
      return { ok: false, error: hrTexts.tooManyDecimals(rule.decimals) };
    case "max":
      return { ok: false, error: hrTexts.numberTooLarge(formatNumber(rule.max, rule.decimals, 0)) };
    default:
      return { ok: false, error: hrTexts.invalidNumber };
  }
}
