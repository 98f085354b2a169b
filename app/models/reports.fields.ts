/**
 * The constants of the reports area that screens and server share (the models re-export them): the browser
 * bundle may import this module, never a *.server one.
 */

/** The five business units of the tenant (spec 001 §9). Stored as strings: they are codes, not amounts. */
export const BUSINESS_UNITS = ["2236", "4313", "4664", "5454", "9311"] as const;
export type BusinessUnitId = (typeof BUSINESS_UNITS)[number];

/** Financial report types (spec 001 §3, §9: Monthly by default, Annual). */
export const FINANCIAL_REPORT_TYPES = ["MONTHLY", "ANNUAL"] as const;
export type FinancialReportType = (typeof FINANCIAL_REPORT_TYPES)[number];

/** Report origins (spec 001 §9), automatico first: the list's default. */
export const REPORT_ORIGINS = ["automatico", "manual"] as const;
export type ReportOrigin = (typeof REPORT_ORIGINS)[number];
/** The list's origin filter: one origin, or both ("todas", ours: the spec's default stays automatico). */
export const REPORT_ORIGIN_FILTERS = [...REPORT_ORIGINS, "todas"] as const;
export type ReportOriginFilter = (typeof REPORT_ORIGIN_FILTERS)[number];

/** Cockpit "Report" options (spec 001 §9). */
export const LEDGER_REPORTS = ["BALANCE_SHEET", "WORKING_CAPITAL"] as const;
export type LedgerReport = (typeof LEDGER_REPORTS)[number];

/** Cockpit Category 1 options, in the spec's order (spec 001 §9). */
export const CATEGORY1_OPTIONS = [
  "No-current Assets",
  "Current Assets",
  "Current Liabilities",
  "No-current Liabilities",
  "Equity",
] as const;
export type Category1 = (typeof CATEGORY1_OPTIONS)[number];

/** Cockpit comment length (ours: the spec's 255-character comment rule of the other comment dialog). */
export const COCKPIT_COMMENT_MAX = 255;
/** Cockpit attachments: size, count per row and formats (ours). */
export const COCKPIT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const COCKPIT_FILES_PER_ROW = 20;
export const COCKPIT_FILE_EXTENSIONS = ["pdf", "xlsx", "xls", "docx", "csv", "txt", "png", "jpg"] as const;
/** Longest fiscal observation kept (ours: a text area, not a document). */
export const FISCAL_OBSERVATION_MAX = 2_000;

/** pt-BR with 2 decimals (spec 001 §9), without depending on the runtime's ICU data. */
export function formatAmount(value: number): string {
  const negative = value < 0;
  const [int, dec] = Math.abs(value).toFixed(2).split(".");
  return `${negative ? "-" : ""}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${dec}`;
}

/**
 * A Brazilian-format number as people type it (spec 001 §5: dot thousands, comma decimals; "1.234,56", "-10",
 * "1234,5"), rounded to 2 decimals; empty is 0; anything else is null.
 */
export function parseBrazilianNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  if (!/^-?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed.replaceAll(".", "").replace(",", "."));
  return Number.isFinite(value) && Math.abs(value) < 1e15 ? Math.round(value * 100) / 100 : null;
}
