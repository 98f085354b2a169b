import { parsePtBrNumber, roundTo2 } from "~/shared/numbers";
import { gridDialogTexts } from "./dialog-texts";

/**
 * The review grid's mass column change (spec 001 §5): the percent typed, Aumentar or Diminuir, applied to the detail
 * rows that have a value in the column, rounded to cents. Pure; loaded with the grid's dialogs.
 */

export type Direction = "increase" | "decrease";
export const PERCENT_MAX = 1_000_000;

/** The percent of the mass change dialog (pt-BR, e.g. "10" or "2,5"), or an error text. */
export function readPercent(
  text: string,
  direction: Direction,
): { ok: true; percent: number } | { ok: false; message: string } {
  const parsed = parsePtBrNumber(text);
  if (!parsed.ok || parsed.empty || parsed.value < 0 || parsed.value > PERCENT_MAX)
    return { ok: false, message: gridDialogTexts.percentInvalid };
  if (direction === "decrease" && parsed.value > 100) return { ok: false, message: gridDialogTexts.decreaseTooLarge };
  return { ok: true, percent: parsed.value };
}

/** Aumentar multiplies by 1 + p/100, Diminuir by 1 − p/100; the result is rounded to cents. */
export function applyPercent(value: number, percent: number, direction: Direction): number {
  const factor = direction === "increase" ? 1 + percent / 100 : 1 - percent / 100;
  return roundTo2(value * factor);
}

/** Only detail rows with a value in the column change (an empty or zero cell has nothing to scale). */
export const takesMassChange = (value: number | null): value is number => value !== null && value !== 0;
