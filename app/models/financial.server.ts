import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Financial statement documents per business unit, type and period (spec 001 §3 and §9). */

export const FINANCIAL_REPORTS = "financial_reports";

/** The five business units of the tenant (spec 001 §9). Stored as strings: they are codes, not amounts. */
export const BUSINESS_UNITS = ["2236", "4313", "4664", "5454", "9311"] as const;
export type BusinessUnitId = (typeof BUSINESS_UNITS)[number];

export const FINANCIAL_REPORT_TYPES = ["MONTHLY", "ANNUAL"] as const;
export type FinancialReportType = (typeof FINANCIAL_REPORT_TYPES)[number];

export const FINANCIAL_DOCUMENT_TYPES = ["DOCX", "XLSX"] as const;
export type FinancialDocumentType = (typeof FINANCIAL_DOCUMENT_TYPES)[number];

export type FinancialReportRecord = {
  _id?: ObjectId;
  businessUnitID: BusinessUnitId;
  type: FinancialReportType;
  /** First day of the month (MONTHLY) or first day of the year (ANNUAL), UTC. */
  dateRef: Date;
  typeDocument: FinancialDocumentType;
  /** Absent when the document is not available (its card is then disabled). */
  url?: string;
  bucket: string;
  originalFile: string;
};

export const indexes: IndexDeclaration[] = [
  { collection: FINANCIAL_REPORTS, key: { businessUnitID: 1, type: 1, dateRef: 1 }, options: { name: "businessUnit_type_dateRef" } },
];
