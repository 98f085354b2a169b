import { MongoServerError, type ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { normalizeEmail, USER_PERMISSIONS, type PermissionType, type UserPermissionRecord } from "./users.server";

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

/** Rows whose type is one of `types` (and, when `includeEmpty`, rows without a type), sorted by user. */
export async function listPermissionRows(types: readonly PermissionType[], includeEmpty = false): Promise<UserRow[]> {
  const db = await getDb();
  const wanted: Array<PermissionType | "" | null> = [...types];
  if (includeEmpty) wanted.push("", null);
  const docs = await db
    .collection<UserPermissionRecord>(USER_PERMISSIONS)
    .find({ type: { $in: wanted as PermissionType[] } }, { projection: { user: 1, name: 1, type: 1, createdAt: 1 } })
    .sort({ user: 1 })
    .limit(LISTING_LIMIT)
    .toArray();
  return docs.map(toRow);
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
    await db.collection<PermissionRecordWithAudit>(USER_PERMISSIONS).insertOne({ ...record, user: normalizeEmail(record.user) });
  } catch (error) {
    if (error instanceof MongoServerError && error.code === 11000) throw new DuplicateRecordError(record.user);
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
