/** Cell-value parsing shared by the templates. Cells arrive as strings (CSV) or typed (XLSX). */

export type CellValue = string | number | boolean | Date | null | undefined;

export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString().slice(0, 10);
  return String(value).trim();
}

function utcDate(y: number, m: number, d: number): Date | null {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? date : null;
}

/** A calendar date from YYYY-MM-DD (optionally with a time part), DD/MM/YYYY, YYYYMMDD or an XLSX date. */
export function parseDate(value: CellValue): Date | null {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? null
      : utcDate(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  }
  return parseDateText(cellText(value));
}

/** The digits of text[from, from + count) as a number, or -1 if any is not 0-9. */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** parseDate for a cell's trimmed text. */
export function parseDateText(text: string): Date | null {
  // YYYY-MM-DD without a time part, the form of nearly every row, without a regular expression.
  if (text.length === 10 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45) {
    const y = digitsAt(text, 0, 4);
    const mo = digitsAt(text, 5, 2);
    const d = digitsAt(text, 8, 2);
    if (y >= 0 && mo >= 0 && d >= 0) return utcDate(y, mo, d);
  }
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?$/.exec(text);
  if (m) return utcDate(+m[1], +m[2], +m[3]);
  m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (m) return utcDate(+m[3], +m[2], +m[1]);
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (m) return utcDate(+m[1], +m[2], +m[3]);
  return null;
}

/** A version date as YYYYMMDD, from YYYYMMDD or ISO YYYY-MM-DD (or an XLSX date / number). */
export function parseYearMonthDay(value: CellValue): string | null {
  if (value instanceof Date) {
    const d = parseDate(value);
    return d ? d.toISOString().slice(0, 10).replaceAll("-", "") : null;
  }
  const text = cellText(value);
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  return utcDate(+m[1], +m[2], +m[3]) ? `${m[1]}${m[2]}${m[3]}` : null;
}

/** A Brazilian CNPJ: 14 digits (punctuation ignored), not all equal, with valid check digits. */
export function normalizeCnpj(value: CellValue): string | null {
  const digits = cellText(value).replace(/[.\-/\s]/g, "");
  if (!/^\d{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return null;
  const check = (base: string, weights: number[]) => {
    const sum = weights.reduce((acc, w, i) => acc + w * Number(base[i]), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const d1 = check(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = check(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(digits[12]) && d2 === Number(digits[13]) ? digits : null;
}

const COUNT_FORMAT = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });

/** pt-BR integer with thousands separator: 12345 → "12.345" (one formatter: toLocaleString builds one per call). */
export function formatCount(n: number): string {
  return COUNT_FORMAT.format(n);
}
