/**
 * Brazilian numbers with two decimals (spec 001 §5, §9: "dot thousands, comma decimals", "pt-BR with 2 decimals").
 * Pure and locale-independent (no Intl): the server render and the browser must produce the same text, and the
 * grid formats tens of thousands of cells.
 */

/** The most significant digits a cell may hold: beyond 15 a double no longer keeps every cent. */
const MAX_DIGITS = 15;

export type ParsedNumber = { ok: true; value: number; empty: boolean } | { ok: false };

const WITH_THOUSANDS = /^[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?$/;
const PLAIN_COMMA = /^\d*(?:,\d+)?$/;
/** "1234.56" or "0.5": a decimal point that cannot be a thousands separator (WITH_THOUSANDS is tried first). */
const PLAIN_POINT = /^\d+\.\d+$/;

/**
 * Reads a typed or pasted cell. Accepted: "1.234,56", "1234,56", "1234", ",5", "-1.234,5", "(1.234,56)" (a negative
 * in accounting format, as Excel copies it), and a lone decimal point "1234.56" when it cannot be a thousands
 * separator (not followed by exactly three digits). Empty (or only spaces) is 0. Anything else — letters, "1,234.56",
 * "1.23.4", several signs — is not a number. The value is not rounded here (see `roundTo2`).
 */
export function parsePtBrNumber(input: string): ParsedNumber {
  let text = input.replace(/[\s\u00a0]+/g, " ").trim();
  if (text === "") return { ok: true, value: 0, empty: true };
  let negative = false;
  if (text.startsWith("(") && text.endsWith(")")) {
    negative = true;
    text = text.slice(1, -1).trim();
  } else if (text.startsWith("-") || text.startsWith("+")) {
    negative = text.startsWith("-");
    text = text.slice(1).trim();
  }
  let normalized: string;
  if (WITH_THOUSANDS.test(text)) normalized = text.replace(/\./g, "").replace(",", ".");
  else if (PLAIN_COMMA.test(text) && text !== "" && text !== ",") normalized = text.replace(",", ".");
  else if (PLAIN_POINT.test(text)) normalized = text;
  else return { ok: false };
  const digits = normalized.replace(/^[0.]+/, "").replace(".", "").length;
  if (digits > MAX_DIGITS) return { ok: false };
  const value = Number(normalized);
  if (!Number.isFinite(value)) return { ok: false };
  return { ok: true, value: negative && value !== 0 ? -value : value, empty: false };
}

/** Rounds half away from zero to cents, robust to binary fractions (1.005 → 1.01, -2.675 → -2.68). */
export function roundTo2(value: number): number {
  const cents = Math.round(Math.abs(value) * 100 + 1e-7);
  const rounded = cents / 100;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

/** True when `value` is a finite number with at most two decimals (what the grid stores). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

/** "1.234,50", "-0,05", "0,00": two decimals, dot thousands, comma decimals. */
export function formatPtBr2(value: number): string {
  const cents = Math.round(Math.abs(value) * 100 + 1e-7);
  const integer = Math.floor(cents / 100);
  const fraction = cents % 100;
  const digits = String(integer);
  let grouped = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) grouped += ".";
    grouped += digits[i];
  }
  const sign = value < 0 && cents !== 0 ? "-" : "";
  return `${sign}${grouped},${fraction < 10 ? "0" : ""}${fraction}`;
}
