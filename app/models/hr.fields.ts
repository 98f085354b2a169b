/**
 * The stored vocabulary of the HR auxiliary data (spec 001 §3, §9): the five figure fields an editor may change,
 * the grid's row limit, a comment's length and one edit of a figure. Browser-safe and text-free, shared by the HR model and the HR feature.
 */

export const HR_FIGURE_FIELDS = [
  "vendas_adicionais",
  "dias_media",
  "result_qtde_servico",
  "result_desafio_mensal",
  "vendas_servicos",
] as const;
export type HrFigureField = (typeof HR_FIGURE_FIELDS)[number];

/** The auxiliary-data query's limit (spec 001 §7, §9): the most rows the grid shows. */
export const HR_ROW_LIMIT = 10_000;

/** At most 255 characters (spec 001 §5, §9). */
export const HR_COMMENT_MAX = 255;

export function isHrFigureField(value: unknown): value is HrFigureField {
  return typeof value === "string" && (HR_FIGURE_FIELDS as readonly string[]).includes(value);
}

export type FigureEdit = { id: string; field: HrFigureField; value: number };
