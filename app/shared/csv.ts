/**
 * CSV cells for the files users open in Excel (pt-BR: ";" separated): the NOK rows, the Excel round trip's report,
 * the CLI export. One rule for all of them.
 *
 * A text Excel would run as a formula (=, +, -, @, tab or CR first) gets a leading apostrophe, so it shows as the
 * text it is (CSV/formula injection): these cells hold what users typed. A text that is a plain number, such as
 * "-1.234,56" or "-7", is left alone, and so is every numeric value: a negative number stays a number.
 */
export function csvText(text: string, isNumber = false): string {
  return !isNumber && /^[=+\-@\t\r]/.test(text) && !/^[+-]?[\d.,]+$/.test(text) ? `'${text}` : text;
}

/** Quoted when it holds the delimiter, a quote or a line break. */
export function csvQuote(text: string): string {
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One CSV cell of a value: `format` turns it into text (default: dates as ISO, the rest with String), then the
 * formula rule (numbers never escaped) and the quoting apply.
 */
export function csvCell(value: unknown, format: (value: unknown) => string = defaultText): string {
  const isNumber = typeof value === "number" || typeof value === "bigint";
  return csvQuote(csvText(format(value), isNumber));
}

function defaultText(value: unknown): string {
  return value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
}
