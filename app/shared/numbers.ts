/**
 * Every number a person types, pastes or sends in a file, and every number the portal shows, in pt-BR: dot thousands,
 * comma decimals (spec 001 §5, §9). One reader and one writer, driven by a rule, so a value accepted on a grid is
 * accepted by its paste, mass change, Excel round trip, upload template and CLI, and refused by all of them alike
 * (docs/decisions.md "Texts and language"). Pure and locale-independent (no Intl): the server render and the browser
 * produce the same text, and grids format tens of thousands of cells.
 */

/** The most significant digits a value may hold: beyond 15 a double no longer keeps every cent. */
const MAX_DIGITS = 15;

export type NumberRule = {
  /** The most decimals a value keeps. */
  decimals: number;
  /** Lowest and highest value accepted (inclusive). */
  min: number;
  max: number;
  /**
   * More decimals than `decimals`: "round" keeps the value rounded half away from zero (amounts in money), "refuse"
   * says so (counts and figures a person must type exactly). Trailing zeros never count ("10,500" is 10,5).
   */
  excessDecimals: "round" | "refuse";
};

/**
 * An amount in R$ (forecast, ledger, FP&A, fiscal items): cents, either sign; more decimals are rounded, as the
 * spreadsheet that shows the cell with two decimals shows it (docs/decisions.md "Texts and language").
 */
export const MONEY_RULE: NumberRule = { decimals: 2, min: -1e13, max: 1e13, excessDecimals: "round" };

/** Why a text is not a value under a rule. */
export type NumberProblem = "format" | "negative" | "decimals" | "min" | "max";

export type NumberReading = { ok: true; value: number; empty: boolean } | { ok: false; problem: NumberProblem };

const WITH_THOUSANDS = /^[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?$/;
const PLAIN_COMMA = /^\d*(?:,\d+)?$/;
/** "1234.56" or "12.5": a decimal point that cannot be a thousands separator (WITH_THOUSANDS is tried first). */
const PLAIN_POINT = /^\d+\.\d+$/;

/**
 * The form of a number, before any rule: "1.234,56", "1234,56", "1234", ",5", "-1.234,5", "+3", "(1.234,56)" (a
 * negative in accounting format, as Excel copies it), and a lone decimal point, "12.5" or "1234.56", when it cannot
 * be a thousands separator (not followed by exactly three digits: "1.234" is one thousand two hundred and thirty-four).
 * Spaces (also non-breaking ones) around the number and after its sign are ignored; inside it they are not ("1 234"
 * is refused: pt-BR groups with dots). Empty is 0, marked `empty`. Anything else — letters, "1,234.56",
 * "1.23.4", "R$ 10", two signs — is not a number. The value is not rounded.
 */
export function readNumberText(input: string): { ok: true; value: number; empty: boolean; decimals: number } | null {
  let text = input.replace(/[\s\u00a0\u202f]+/g, " ").trim();
  if (text === "") return { ok: true, value: 0, empty: true, decimals: 0 };
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
  else return null;
  const digits = normalized.replace(/^[0.]+/, "").replace(".", "").length;
  if (digits > MAX_DIGITS) return null;
  const value = Number(normalized.startsWith(".") ? `0${normalized}` : normalized);
  if (!Number.isFinite(value)) return null;
  const fraction = normalized.split(".")[1] ?? "";
  return {
    ok: true,
    value: negative && value !== 0 ? -value : value,
    empty: false,
    decimals: fraction.replace(/0+$/, "").length,
  };
}

/** Rounds half away from zero to `decimals`, robust to binary fractions (1.005 → 1.01, -2.675 → -2.68). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(Math.abs(value) * factor + 1e-7) / factor;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

function decimalsOf(value: number): number {
  for (let d = 0; d <= 10; d++) if (Math.abs(value * 10 ** d - Math.round(value * 10 ** d)) < 1e-6) return d;
  return 11;
}

/**
 * A typed text, or a number cell of a spreadsheet, under a rule: its value, or why not. A number cell has no form to
 * check; its decimals and range are checked as a typed value's are.
 */
export function readNumber(input: string | number, rule: NumberRule): NumberReading {
  let value: number;
  let empty = false;
  let decimals: number;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { ok: false, problem: "format" };
    value = input;
    decimals = decimalsOf(input);
  } else {
    const read = readNumberText(input);
    if (!read) return { ok: false, problem: "format" };
    ({ value, empty, decimals } = read);
  }
  if (decimals > rule.decimals && rule.excessDecimals === "refuse") return { ok: false, problem: "decimals" };
  // Rounded either way: extra decimals of an amount, and a spreadsheet's binary noise (0.1 + 0.2) of any value.
  value = roundTo(value, rule.decimals);
  if (value < rule.min) return { ok: false, problem: rule.min === 0 ? "negative" : "min" };
  if (value > rule.max) return { ok: false, problem: "max" };
  return { ok: true, value: value === 0 ? 0 : value, empty };
}

/**
 * 1234.5 → "1.234,50": `decimals` at most, trailing zeros trimmed down to `minDecimals` (all of them kept unless
 * told), dot thousands, comma decimals, a minus only when the shown value is not zero.
 */
export function formatNumber(value: number, decimals: number, minDecimals = decimals): string {
  const factor = 10 ** decimals;
  const scaled = Math.round(Math.abs(value) * factor + 1e-7);
  const integer = Math.floor(scaled / factor);
  let fraction = decimals > 0 ? String(scaled % factor).padStart(decimals, "0") : "";
  while (fraction.length > minDecimals && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  const digits = String(integer);
  let grouped = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) grouped += ".";
    grouped += digits[i];
  }
  const sign = value < 0 && scaled !== 0 ? "-" : "";
  return `${sign}${grouped}${fraction ? `,${fraction}` : ""}`;
}

/** A percentage as shown: 12.345 → "12,3%" (one decimal unless told). */
export function formatPercent(value: number, decimals = 1): string {
  return `${formatNumber(value, decimals)}%`;
}

/** A byte count for people, in pt-BR: "2 GB", "1,5 MB", "12 KB", "900 bytes" (powers of 1024, one decimal at most). */
export function formatSize(bytes: number): string {
  const units: Array<[string, number]> = [
    ["GB", 1024 ** 3],
    ["MB", 1024 ** 2],
  ];
  for (const [unit, size] of units) if (bytes >= size) return `${formatNumber(bytes / size, 1, 0)} ${unit}`;
  if (bytes >= 1024) return `${formatNumber(bytes / 1024, 0)} KB`;
  return `${formatNumber(bytes, 0)} bytes`;
}

/** True when `value` is a finite number with at most two decimals (what a money cell stores). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && decimalsOf(value) <= 2;
}

/** The forecast grid's reading of a typed or pasted cell: the form only; the grid checks decimals itself. */
export function parsePtBrNumber(input: string): { ok: true; value: number; empty: boolean } | { ok: false } {
  const read = readNumberText(input);
  return read ? { ok: true, value: read.value, empty: read.empty } : { ok: false };
}

export const roundTo2 = (value: number): number => roundTo(value, 2);

/** "1.234,50", "-0,05", "0,00": an amount as every screen shows it. */
export const formatPtBr2 = (value: number): string => formatNumber(value, 2);
