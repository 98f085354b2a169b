import { formatNumber, MONEY_RULE, readNumber } from "~/shared/numbers";
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

/** pt-BR with 2 decimals (spec 001 §9). */
export function formatAmount(value: number): string {
  return formatNumber(value, 2);
}

/** An amount as people type it (app/shared/numbers.ts), rounded to 2 decimals; empty is 0; anything else is null. */
export function parseBrazilianNumber(text: string): number | null {
  const read = readNumber(text, MONEY_RULE);
  return read.ok ? read.value : null;
}
