import crypto from "node:crypto";
import { ObjectId } from "mongodb";
import {
  type BusinessUnitId,
  type FinancialDocumentType,
  type FinancialReportRecord,
  type FinancialReportType,
  findStatements,
  recordStatements,
  type StatementKey,
} from "~/models/financial.server";
import {
  accountTree,
  byAccount,
  type LedgerAccount,
  type LedgerRow,
  latestLedgerMonth,
  ledgerRows,
  listAccounts,
  sumTree,
} from "~/models/ledger.server";
import { addMonthsToDate, monthKeyOfDate } from "~/shared/months";
import { type DocCell, type DocSpec, renderDocx, renderXlsx } from "./documents-render.server";
import { contentTypeOf, type DocumentSink, documentSink, documentUrl } from "./documents-store.server";

/**
 * Financial statements (spec 001 §2): the portal builds them from the ledger — a balance sheet of
 * the chosen unit at the chosen month (MONTHLY) or at the year's last closed month (ANNUAL), beside the same
 * month a year earlier — as Excel (exceljs) and Word (docx), stores both through the storage provider and
 * records them, so the next request for the same unit, type and period is served without regenerating.
 */

export class StatementGenerationError extends Error {
  constructor(cause: unknown) {
    super("financial statement generation failed", { cause });
    this.name = "StatementGenerationError";
  }
}

export type StatementLine = { label: string; level: 0 | 1 | 2; code: string; current: number; prior: number };
export type StatementFigures = {
  businessUnitID: BusinessUnitId;
  type: FinancialReportType;
  month: Date;
  lines: StatementLine[];
};

const pad = (n: number) => String(n).padStart(2, "0");
export const monthText = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;

/** The month a statement shows: the month itself, or the year's latest month with ledger rows; null without rows. */
async function statementMonth(key: StatementKey): Promise<Date | null> {
  if (key.type === "MONTHLY") return latestLedgerMonth(key.businessUnitID, key.dateRef, key.dateRef);
  const year = key.dateRef.getUTCFullYear();
  return latestLedgerMonth(key.businessUnitID, new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year, 11, 1)));
}

/** The statement's lines (Category 1, Category 2, account) for the key; null when the ledger has no rows for it. */
export async function statementFigures(key: StatementKey): Promise<StatementFigures | null> {
  const month = await statementMonth(key);
  if (!month) return null;
  const [accounts, rows] = await Promise.all([listAccounts(), ledgerRows(key.businessUnitID, [month])]);
  return buildStatementFigures(key, month, accounts, rows);
}

/** The statement of `key` at `month` from the chart and the ledger rows (pure: the seed uses it too). */
export function buildStatementFigures(
  key: StatementKey,
  month: Date,
  accounts: readonly LedgerAccount[],
  rows: readonly LedgerRow[],
): StatementFigures {
  const rowOf = byAccount(
    rows.filter((r) => r.businessUnitID === key.businessUnitID),
    month,
  );
  const tree = accountTree(accounts);
  const current = sumTree(tree, (a) => rowOf.get(a._id)?.actual ?? 0);
  const prior = sumTree(tree, (a) => rowOf.get(a._id)?.priorYear ?? 0);
  const level = { category1: 0, category2: 1, account: 2 } as const;
  return {
    businessUnitID: key.businessUnitID,
    type: key.type,
    month,
    lines: tree.map((node) => ({
      label: node.kind === "account" ? (node.account?.description ?? node.label) : node.label,
      level: level[node.kind],
      code: node.key,
      current: current.get(node.key) ?? 0,
      prior: prior.get(node.key) ?? 0,
    })),
  };
}

const TYPE_LABEL: Record<FinancialReportType, string> = { MONTHLY: "Monthly", ANNUAL: "Annual" };

/** The document description both formats are rendered from. */
export function statementSpec(figures: StatementFigures, createdAt: Date): DocSpec {
  const priorMonth = addMonthsToDate(figures.month, -12);
  const rows: DocCell[][] = figures.lines.map((l) => [
    `${"  ".repeat(l.level)}${l.label}`,
    l.current,
    l.prior,
    Math.round((l.current - l.prior) * 100) / 100,
  ]);
  const boldRows = new Set(figures.lines.flatMap((l, i) => (l.level < 2 ? [i] : [])));
  return {
    title: `Financial Statement - Balance Sheet - ${figures.businessUnitID}`,
    lines: [
      `Company: ${figures.businessUnitID}`,
      `Type: ${TYPE_LABEL[figures.type]}`,
      `Period: ${figures.type === "ANNUAL" ? `${figures.month.getUTCFullYear()} (balances at ${monthText(figures.month)})` : monthText(figures.month)}`,
    ],
    tables: [
      {
        title: "Balance Sheet",
        columns: ["Account", monthText(figures.month), monthText(priorMonth), "Dif. $"],
        rows,
        boldRows,
      },
    ],
    createdAt,
    author: "Journey Portal",
  };
}

export type EnsureResult = { kind: "found" | "generated"; records: FinancialReportRecord[] } | { kind: "no-data" };

const EXTENSIONS: Record<FinancialDocumentType, string> = { DOCX: "docx", XLSX: "xlsx" };

/** The period part of keys and file names: 2026-03 (MONTHLY) or 2026 (ANNUAL). */
export function periodText(type: FinancialReportType, dateRef: Date): string {
  return type === "ANNUAL" ? String(dateRef.getUTCFullYear()) : monthKeyOfDate(dateRef);
}

/**
 * The statements of `key`: the recorded ones when there are any (served as they are), else generated now from
 * the ledger, stored and recorded. A failure while generating or storing removes whatever was stored and
 * throws StatementGenerationError: nothing is recorded.
 */
export async function ensureStatements(
  key: StatementKey,
  user: string,
  options: { sink?: DocumentSink; now?: Date; render?: { xlsx: typeof renderXlsx; docx: typeof renderDocx } } = {},
): Promise<EnsureResult> {
  const existing = await findStatements(key);
  if (existing.length > 0) return { kind: "found", records: existing };
  const stored: string[] = [];
  let sink: DocumentSink | undefined;
  try {
    const figures = await statementFigures(key);
    if (!figures) return { kind: "no-data" };
    const now = options.now ?? new Date();
    sink = options.sink ?? (await documentSink());
    const spec = statementSpec(figures, now);
    const render = options.render ?? { xlsx: renderXlsx, docx: renderDocx };
    const period = periodText(key.type, key.dateRef);
    const records: FinancialReportRecord[] = [];
    for (const typeDocument of ["DOCX", "XLSX"] as const) {
      const bytes = typeDocument === "XLSX" ? await render.xlsx(spec) : await render.docx(spec);
      const ext = EXTENSIONS[typeDocument];
      const originalFile = `documents/financial/${key.businessUnitID}/${key.type.toLowerCase()}/${period}/${crypto.randomUUID()}.${ext}`;
      await sink.put(originalFile, bytes, contentTypeOf(originalFile));
      stored.push(originalFile);
      records.push({
        _id: new ObjectId(),
        businessUnitID: key.businessUnitID,
        type: key.type,
        dateRef: key.dateRef,
        typeDocument,
        url: documentUrl(sink.bucket, originalFile),
        bucket: sink.bucket,
        originalFile,
        originalName: `financial_statement_${key.businessUnitID}_${period}.${ext}`,
        createdDate: now,
        user,
      });
    }
    if (await recordStatements(records)) return { kind: "generated", records };
    await removeAll(sink, stored);
    return { kind: "found", records: await findStatements(key) };
  } catch (error) {
    if (sink) await removeAll(sink, stored);
    throw new StatementGenerationError(error);
  }
}

async function removeAll(sink: DocumentSink, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((k) => sink.remove(k).catch(() => undefined)));
}
