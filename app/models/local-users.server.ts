import { getDb, isDuplicateKeyError } from "~/db.server";
import { LOCAL_USERS, type LocalUserRecord, normalizeEmail } from "./users.server";

/** Credentials of the local identity provider (collection and indexes declared in users.server.ts). */

export async function findLocalUser(email: string): Promise<LocalUserRecord | null> {
  const db = await getDb();
  return db.collection<LocalUserRecord>(LOCAL_USERS).findOne({ email: normalizeEmail(email) });
}

/** Inserts credentials; false when the e-mail already has them (unique index). */
export async function insertLocalUser(record: Omit<LocalUserRecord, "_id">): Promise<boolean> {
  const db = await getDb();
  try {
    await db.collection<LocalUserRecord>(LOCAL_USERS).insertOne({ ...record, email: normalizeEmail(record.email) });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/**
 * Replaces the password. With `expectedHash`, only when the stored hash is still that one, so a
 * first-access challenge cannot be used twice.
 */
export async function setLocalPassword(
  email: string,
  passwordHash: string,
  now: Date,
  expectedHash?: string,
): Promise<boolean> {
  const db = await getDb();
  const filter = expectedHash
    ? { email: normalizeEmail(email), passwordHash: expectedHash }
    : { email: normalizeEmail(email) };
  const result = await db
    .collection<LocalUserRecord>(LOCAL_USERS)
    .updateOne(filter, { $set: { passwordHash, mustChangePassword: false, passwordChangedAt: now } });
  return result.matchedCount > 0;
}

export async function deleteLocalUser(email: string): Promise<boolean> {
  const db = await getDb();
  const result = await db.collection<LocalUserRecord>(LOCAL_USERS).deleteOne({ email: normalizeEmail(email) });
  return result.deletedCount > 0;
}
