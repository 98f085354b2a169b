import type { FigureChange } from "~/models/hr.server";
import { monthLabel } from "~/shared/months";
import { formatFigure } from "./figures";
import { hrTexts } from "./texts";

/** One line of the confirmation: who, which month, which figure, from what to what. */
export function changeLine(change: Pick<FigureChange, "nome" | "mes_apur" | "field" | "old" | "new">): string {
  return hrTexts.confirmChange(
    change.nome,
    monthLabel(change.mes_apur),
    hrTexts.columns[change.field],
    formatFigure(change.field, change.old),
    formatFigure(change.field, change.new),
  );
}
