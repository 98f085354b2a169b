import { type AnyBulkWriteOperation, type Collection, type Db, type Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { readPageOrLast } from "~/shared/pagination";
import { literalPattern } from "~/shared/regex";
import type { IndexDeclaration } from "./indexes";

/** Generated and uploaded reports (spec 001 §3 "Report record"). */

export const REPORTS = "reports";
/** The refused rows of report packages: line, the row as written, and its Error. */
export const REPORTS_NOK = "reports_nok";

export { REPORT_ORIGINS, type ReportOrigin } from "~/models/reports.fields";

import type { ReportOrigin, ReportOriginFilter } from "~/models/reports.fields";
import { countMatching } from "./counting.server";
import { noteDataChanged } from "./dashboard-cache.server";
import { queueReportPublication } from "./subscriptions.server";

/** The report table's paginator (spec 001 §9). */
export const REPORT_PAGE_SIZE = 20;

export type ReportRecord = {
  _id?: ObjectId;
  name: string;
  /** The name lower-cased without accents: the case-insensitive partial filter reads it (docs/decisions.md). */
  nameKey: string;
  origin: ReportOrigin;
  /** The competency month (first day, UTC). */
  dateRef: Date;
  createdDate: Date;
  statusChangeDate: Date;
  user: string;
  /** The stored object's key. */
  originalFile: string;
  originalName: string;
  bucket: string;
  /** The address of the online copy (the stored object's address); null when the report has none (the viewer action is then disabled). */
  url: string | null;
  /** Entries of an uploaded report package: the package's upload record. */
  sourceFileId?: ObjectId;
};

/** A refused row of a report package, as written, with its line and Error (like the templates' NOK rows). */
export type ReportNokRow = {
  _id?: ObjectId;
  name: string;
  origin: string;
  dateRef: string;
  file: string;
  _lineNumber: number;
  Error: string;
  urlPath: string;
  timeStamp: Date;
  sourceFileId: ObjectId;
};

export const indexes: IndexDeclaration[] = [
  // The list: one origin, sorted by its last status change, dateRef and the name filter checked on the index keys.
  {
    collection: REPORTS,
    key: { origin: 1, statusChangeDate: -1, _id: -1, dateRef: 1, nameKey: 1 },
    options: { name: "origin_statusChangeDate_dateRef_nameKey" },
  },
  // The list of both origins: the same order and filters without the origin.
  {
    collection: REPORTS,
    key: { statusChangeDate: -1, _id: -1, dateRef: 1, nameKey: 1 },
    options: { name: "statusChangeDate_dateRef_nameKey" },
  },
  // The key of an uploaded entry (a package upserts by name, origin and competency month). Led by `name`,
  // which no list filter uses, so the list's plan is not affected.
  { collection: REPORTS, key: { name: 1, origin: 1, dateRef: 1 }, options: { name: "name_origin_dateRef" } },
  { collection: REPORTS_NOK, key: { sourceFileId: 1 }, options: { name: "sourceFileId" } },
];

/** Lower-case, accents removed, spaces collapsed: what the name filter compares. */
export function reportNameKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export type ReportFilters = {
  name: string;
  origin: ReportOriginFilter;
  /** First and last competency month, inclusive (first day of month, UTC). */
  from: Date | null;
  to: Date | null;
};

export type ReportListItem = {
  id: string;
  name: string;
  origin: ReportOrigin;
  dateRef: Date;
  statusChangeDate: Date;
  user: string;
  originalName: string;
  hasUrl: boolean;
};

async function reports(): Promise<Collection<ReportRecord>> {
  return (await getDb()).collection<ReportRecord>(REPORTS);
}

/** The MongoDB filter of validated filters only (never a user-supplied object). */
export function reportFilter(filters: ReportFilters): Filter<ReportRecord> {
  const filter: Filter<ReportRecord> = filters.origin === "todas" ? {} : { origin: filters.origin };
  const key = reportNameKey(filters.name);
  if (key) filter.nameKey = { $regex: literalPattern(key) };
  if (filters.from || filters.to) {
    filter.dateRef = {
      ...(filters.from ? { $gte: filters.from } : {}),
      ...(filters.to ? { $lte: filters.to } : {}),
    };
  }
  return filter;
}

/** One page of 20, newest status change first, with the total (a page past the end answers the last page). */
export async function listReportsPage(
  filters: ReportFilters,
  page: number,
): Promise<{ items: ReportListItem[]; total: number; page: number; pageSize: number }> {
  const collection = await reports();
  const filter = reportFilter(filters);
  const result = await readPageOrLast(
    page,
    REPORT_PAGE_SIZE,
    (p) =>
      collection
        .find(filter, {
          projection: { name: 1, origin: 1, dateRef: 1, statusChangeDate: 1, user: 1, originalName: 1, url: 1 },
        })
        .sort({ statusChangeDate: -1, _id: -1 })
        .skip((p - 1) * REPORT_PAGE_SIZE)
        .limit(REPORT_PAGE_SIZE)
        .toArray(),
    () => countMatching(collection, filter),
  );
  return {
    items: result.rows.map((r) => ({
      id: String(r._id),
      name: r.name,
      origin: r.origin,
      dateRef: r.dateRef,
      statusChangeDate: r.statusChangeDate,
      user: r.user,
      originalName: r.originalName,
      hasUrl: typeof r.url === "string" && r.url.length > 0,
    })),
    total: result.total,
    page: result.page,
    pageSize: REPORT_PAGE_SIZE,
  };
}

/** A report by id (of the given origin when one is named); null for malformed, unknown or another origin's ids. */
export async function findReport(id: string, origin?: ReportOrigin): Promise<ReportRecord | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const filter: Filter<ReportRecord> = { _id: new ObjectId(id) };
  if (origin) filter.origin = origin;
  return (await reports()).findOne(filter);
}

// ---------------------------------------------------------------------------------------------
// Report packages uploaded through /captura/manual

/** One entry of a package, its file already in the store. */
export type ReportEntry = Pick<
  ReportRecord,
  "name" | "origin" | "dateRef" | "originalFile" | "originalName" | "bucket" | "url"
>;

/**
 * Applies a package's entries, upserted by (name, origin, dateRef): a new key is inserted (createdDate now), a known
 * one gets the new file, uploader and statusChangeDate (its createdDate is kept). Returns the counts and the files
 * the replaced entries pointed at (for the caller to remove when they are its own).
 */
export async function upsertReportEntries(
  entries: readonly ReportEntry[],
  meta: { user: string; now: Date; sourceFileId: ObjectId },
  db?: Db,
): Promise<{ inserted: number; replaced: number; previousFiles: Array<{ bucket: string; originalFile: string }> }> {
  if (entries.length === 0) return { inserted: 0, replaced: 0, previousFiles: [] };
  const collection = (db ?? (await getDb())).collection<ReportRecord>(REPORTS);
  const keyOf = (e: { name: string; origin: string; dateRef: Date }) => ({
    name: e.name,
    origin: e.origin as ReportOrigin,
    dateRef: e.dateRef,
  });
  const previous = await collection
    .find(
      { name: { $in: [...new Set(entries.map((e) => e.name))] } },
      { projection: { name: 1, origin: 1, dateRef: 1, bucket: 1, originalFile: 1 } },
    )
    .toArray();
  const keyText = (e: { name: string; origin: string; dateRef: Date }) =>
    `${e.origin}|${e.dateRef.getTime()}|${e.name}`;
  const wanted = new Map(entries.map((e) => [keyText(e), e]));
  const previousFiles = previous
    .filter((p) => {
      const entry = wanted.get(keyText(p));
      return entry !== undefined && !(entry.bucket === p.bucket && entry.originalFile === p.originalFile);
    })
    .map((p) => ({ bucket: p.bucket, originalFile: p.originalFile }));
  const updates: AnyBulkWriteOperation<ReportRecord>[] = entries.map((e) => ({
    updateOne: {
      filter: keyOf(e),
      update: {
        $set: {
          nameKey: reportNameKey(e.name),
          statusChangeDate: meta.now,
          user: meta.user,
          originalFile: e.originalFile,
          originalName: e.originalName,
          bucket: e.bucket,
          url: e.url,
          sourceFileId: meta.sourceFileId,
        },
        $setOnInsert: { createdDate: meta.now },
      },
      upsert: true,
    },
  }));
  const result = await collection.bulkWrite(updates, { ordered: true });
  await noteDataChanged([REPORTS], db);
  // The subscribers of each origin written are queued to hear of the publication.
  await queueReportPublication(entries, { sourceFileId: meta.sourceFileId, now: meta.now }, db);
  return { inserted: result.upsertedCount, replaced: result.matchedCount, previousFiles };
}

/** Replaces the refused rows recorded for one package (a re-run writes them anew). */
export async function replaceReportNokRows(
  sourceFileId: ObjectId,
  rows: readonly Omit<ReportNokRow, "_id" | "sourceFileId">[],
  db?: Db,
): Promise<void> {
  const collection = (db ?? (await getDb())).collection<ReportNokRow>(REPORTS_NOK);
  await collection.deleteMany({ sourceFileId });
  if (rows.length > 0)
    await collection.insertMany(
      rows.map((r) => ({ ...r, sourceFileId })),
      { ordered: true },
    );
}
