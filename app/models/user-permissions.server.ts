import type { Filter, ObjectId } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import { readPageOrLast } from "~/shared/pagination";
import { literalPattern } from "~/shared/regex";
import { normalizeEmail, type PermissionType, USER_PERMISSIONS, type UserPermissionRecord } from "./users.server";

/**
 * Queries on the permission records (spec 000 §3). The collection, its type and its indexes are declared in
 * users.server.ts; this module holds the reads and writes the access code needs.
 */

/** Listings carry a limit of 10000 (spec 000 §9). */
export const LISTING_LIMIT = 10_000;

export type PermissionRecordWithAudit = UserPermissionRecord & { createdBy?: string };

export type UserRow = { id: string; user: string; name: string; type: PermissionType | ""; createdAt: Date | null };

function toRow(doc: UserPermissionRecord & { _id?: ObjectId }): UserRow {
  return {
    id: doc._id ? doc._id.toHexString() : doc.user,
    user: doc.user,
    name: doc.name ?? "",
    type: doc.type ?? "",
    createdAt: doc.createdAt instanceof Date ? doc.createdAt : null,
  };
}

export async function findPermissionRecord(email: string): Promise<UserPermissionRecord | null> {
  const db = await getDb();
  return db.collection<UserPermissionRecord>(USER_PERMISSIONS).findOne({ user: normalizeEmail(email) });
}

/** Page sizes of the user lists, as for the job lists (spec 000 §9); the first is the default. */
export const USER_PAGE_SIZES = [20, 40] as const;

export type UserRowsPage = {
  rows: UserRow[];
  /** Every matching record (the "N usuários criados" title). */
  total: number;
  /** What the pager may reach: the total capped at LISTING_LIMIT. */
  rowCount: number;
  /** 1-based; a page past the end answers the last page. */
  page: number;
  pageSize: number;
};

/**
 * One page of the rows whose type is one of `types` (and, when `includeEmpty`, rows without a type), sorted
 * by user (index `user_unique`), with the matching count read alongside. The listing stops at LISTING_LIMIT
 * rows: no page reads past it, and no page reads more rows than it shows.
 */
export async function listPermissionRowsPage(
  types: readonly PermissionType[],
  options: { page: number; pageSize: number; includeEmpty?: boolean; emailContains?: string },
): Promise<UserRowsPage> {
  const pageSize = (USER_PAGE_SIZES as readonly number[]).includes(options.pageSize)
    ? options.pageSize
    : USER_PAGE_SIZES[0];
  const lastReachablePage = Math.ceil(LISTING_LIMIT / pageSize);
  const requested =
    Number.isSafeInteger(options.page) && options.page >= 1 ? Math.min(options.page, lastReachablePage) : 1;
  const filter = listFilter(types, options);
  const collection = (await getDb()).collection<UserPermissionRecord>(USER_PERMISSIONS);
  const readPage = (page: number) => {
    const skip = (page - 1) * pageSize;
    return collection
      .find(filter, { projection: { user: 1, name: 1, type: 1, createdAt: 1 } })
      .sort({ user: 1 })
      .skip(skip)
      .limit(Math.min(pageSize, LISTING_LIMIT - skip))
      .toArray();
  };
  // Past the end (a stale link, or the last row of the last page was just deleted): the last page instead.
  const read = await readPageOrLast(
    requested,
    pageSize,
    readPage,
    () => collection.countDocuments(filter),
    LISTING_LIMIT,
  );
  return {
    rows: read.rows.map(toRow),
    total: read.total,
    rowCount: Math.min(read.total, LISTING_LIMIT),
    page: read.page,
    pageSize,
  };
}

/**
 * The listing's filter: the wanted types and, when a search is given, the users whose e-mail contains it. E-mails
 * are stored lower-cased (normalizeEmail), so a lower-cased literal pattern matches regardless of case; it runs on
 * the `user_unique` index's keys, which the sort walks anyway.
 */
function listFilter(
  types: readonly PermissionType[],
  options: { includeEmpty?: boolean; emailContains?: string },
): Filter<UserPermissionRecord> {
  const wanted: Array<PermissionType | "" | null> = [...types];
  if (options.includeEmpty) wanted.push("", null);
  const filter: Filter<UserPermissionRecord> = { type: { $in: wanted as PermissionType[] } };
  const search = options.emailContains?.trim().toLowerCase();
  if (search) filter.user = { $regex: literalPattern(search) };
  return filter;
}

/** How many records the listing of `types` holds, whatever the search (the "N usuários criados" title). */
export async function countPermissionRows(types: readonly PermissionType[]): Promise<number> {
  return (await getDb()).collection<UserPermissionRecord>(USER_PERMISSIONS).countDocuments(listFilter(types, {}));
}

/**
 * The 1-based page of the listing (`types`, sorted by user) on which `email` stands, or null when it is not listed:
 * where a list shows a user just created.
 */
export async function pageOfListedUser(
  types: readonly PermissionType[],
  email: string,
  pageSize: number,
): Promise<number | null> {
  const collection = (await getDb()).collection<UserPermissionRecord>(USER_PERMISSIONS);
  const user = normalizeEmail(email);
  const filter = listFilter(types, {});
  const [listed, before] = await Promise.all([
    collection.countDocuments({ ...filter, user }, { limit: 1 }),
    collection.countDocuments({ ...filter, user: { $lt: user } }),
  ]);
  if (listed === 0 || before >= LISTING_LIMIT) return null;
  return Math.floor(before / pageSize) + 1;
}

export class DuplicateRecordError extends Error {
  constructor(email: string) {
    super(`a permission record already exists for ${email}`);
    this.name = "DuplicateRecordError";
  }
}

/** Inserts a record; the unique index on `user` turns a concurrent duplicate into DuplicateRecordError. */
export async function insertPermissionRecord(record: PermissionRecordWithAudit): Promise<void> {
  const db = await getDb();
  try {
    await db
      .collection<PermissionRecordWithAudit>(USER_PERMISSIONS)
      .insertOne({ ...record, user: normalizeEmail(record.user) });
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new DuplicateRecordError(record.user);
    throw error;
  }
}

export async function deletePermissionRecord(email: string): Promise<boolean> {
  const db = await getDb();
  const result = await db.collection<UserPermissionRecord>(USER_PERMISSIONS).deleteOne({ user: normalizeEmail(email) });
  return result.deletedCount > 0;
}

/** Sets the type of a known user whose current type is one of `fromTypes`; false when none matched. */
export async function updatePermissionType(
  email: string,
  type: PermissionType,
  fromTypes: ReadonlyArray<PermissionType | "">,
  changedBy: string,
  now: Date,
): Promise<boolean> {
  const db = await getDb();
  const result = await db
    .collection<UserPermissionRecord>(USER_PERMISSIONS)
    .updateOne(
      { user: normalizeEmail(email), type: { $in: [...fromTypes] } },
      { $set: { type, updatedAt: now, updatedBy: normalizeEmail(changedBy) } },
    );
  return result.matchedCount > 0;
}

/**
 * The users of the given types (e-mail, name, type, the branches their HR rows are limited to, the record's id), by
 * e-mail: the recipients of a notice to a role, the people a comment may mention.
 */
export async function usersOfTypes(
  types: readonly PermissionType[],
): Promise<{ user: string; name: string; type: PermissionType; stores: string[]; id: string }[]> {
  if (types.length === 0) return [];
  const rows = await (await getDb())
    .collection<UserPermissionRecord>(USER_PERMISSIONS)
    .find({ type: { $in: [...types] } }, { projection: { _id: 1, user: 1, name: 1, type: 1, stores: 1 } })
    .sort({ user: 1 })
    .limit(LISTING_LIMIT)
    .toArray();
  return rows.map((r) => ({
    user: r.user,
    name: r.name ?? "",
    type: r.type as PermissionType,
    stores: Array.isArray(r.stores) ? r.stores.filter((s): s is string => typeof s === "string" && s.length > 0) : [],
    id: String(r._id),
  }));
}

/** Every user's e-mail, name and type (at most LISTING_LIMIT): what a name is matched against. */
export async function allUserNames(): Promise<{ user: string; name: string; type: PermissionType | "" }[]> {
  const rows = await (await getDb())
    .collection<UserPermissionRecord>(USER_PERMISSIONS)
    .find({}, { projection: { _id: 0, user: 1, name: 1, type: 1 } })
    .limit(LISTING_LIMIT)
    .toArray();
  return rows.map((r) => ({ user: r.user, name: r.name ?? "", type: r.type ?? "" }));
}

/** The permission records of the given e-mails (name and type), by e-mail (index user_unique). */
export async function usersByEmail(
  emails: readonly string[],
): Promise<Map<string, { name: string; type: PermissionType | "" }>> {
  const wanted = [...new Set(emails.map(normalizeEmail))];
  if (wanted.length === 0) return new Map();
  const rows = await (await getDb())
    .collection<UserPermissionRecord>(USER_PERMISSIONS)
    .find({ user: { $in: wanted } }, { projection: { _id: 0, user: 1, name: 1, type: 1 } })
    .toArray();
  return new Map(rows.map((r) => [r.user, { name: r.name ?? "", type: r.type ?? "" }]));
}
