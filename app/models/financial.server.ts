import { type Collection, ObjectId } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import { noteDataChanged } from "./dashboard-cache.server";
import type { IndexDeclaration } from "./indexes";
import { queueStatementPublication } from "./subscriptions.server";

/** Financial statement documents per business unit, type and period (spec 001 §3 and §9). */

export const FINANCIAL_REPORTS = "financial_reports";

export {
  BUSINESS_UNITS,
  type BusinessUnitId,
  FINANCIAL_REPORT_TYPES,
  type FinancialReportType,
} from "~/models/reports.fields";

import type { BusinessUnitId, FinancialReportType } from "~/models/reports.fields";

export const FINANCIAL_DOCUMENT_TYPES = ["DOCX", "XLSX"] as const;
export type FinancialDocumentType = (typeof FINANCIAL_DOCUMENT_TYPES)[number];

/** "Financial reports: find, limit 2" (spec 001 §7): one Word and one Excel document per request. */
export const FINANCIAL_REPORTS_LIMIT = 2;

export type FinancialReportRecord = {
  _id?: ObjectId;
  businessUnitID: BusinessUnitId;
  type: FinancialReportType;
  /** First day of the month (MONTHLY) or first day of the year (ANNUAL), UTC. */
  dateRef: Date;
  typeDocument: FinancialDocumentType;
  /** The stored document's address; absent when the document is not available (its card is then disabled). */
  url?: string;
  bucket: string;
  originalFile: string;
  originalName: string;
  createdDate: Date;
  /** Who asked for it (the seed's automation account for seeded ones). */
  user: string;
};

export const indexes: IndexDeclaration[] = [
  {
    collection: FINANCIAL_REPORTS,
    key: { businessUnitID: 1, type: 1, dateRef: 1, typeDocument: 1 },
    options: { name: "businessUnit_type_dateRef_typeDocument", unique: true },
  },
];

async function financialReports(): Promise<Collection<FinancialReportRecord>> {
  return (await getDb()).collection<FinancialReportRecord>(FINANCIAL_REPORTS);
}

export type StatementKey = { businessUnitID: BusinessUnitId; type: FinancialReportType; dateRef: Date };

/** The documents recorded for a unit, type and period (at most 2: Word and Excel). */
export async function findStatements(key: StatementKey): Promise<FinancialReportRecord[]> {
  return (await financialReports())
    .find({ businessUnitID: key.businessUnitID, type: key.type, dateRef: key.dateRef })
    .sort({ typeDocument: 1 })
    .limit(FINANCIAL_REPORTS_LIMIT)
    .toArray();
}

/**
 * Records a generated pair. false when another request recorded this period first (the unique index): the
 * caller then serves the recorded pair and removes what it stored.
 */
export async function recordStatements(records: FinancialReportRecord[]): Promise<boolean> {
  try {
    await (await financialReports()).insertMany(records, { ordered: true });
    await noteDataChanged([FINANCIAL_REPORTS]);
    // The unit's subscribers hear of the published statement.
    if (records[0]) await queueStatementPublication(records[0], records[0].createdDate);
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // An ordered insert stops at the first duplicate; drop what this request did write before it.
    const ids = records.map((r) => r._id).filter((id): id is ObjectId => id instanceof ObjectId);
    if (ids.length > 0) await (await financialReports()).deleteMany({ _id: { $in: ids } });
    return false;
  }
}

export async function findStatementDocument(id: string): Promise<FinancialReportRecord | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await financialReports()).findOne({ _id: new ObjectId(id) });
}
