import { createHmac, timingSafeEqual } from "node:crypto";
import { type Db, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { addressGroup } from "~/shared/address-group.server";
import { readPageOrLast } from "~/shared/pagination";
import { countMatching } from "./counting.server";
import type { IndexDeclaration } from "./indexes";
import { normalizeEmail } from "./users.server";

/**
 * Records of the sign-in machinery: failed sign-in attempts (rate limit), password-reset codes of the
 * local identity provider, and the mail outbox. All shared through MongoDB so they hold across containers.
 */

export const LOGIN_ATTEMPTS = "login_attempts";
export const PASSWORD_RESET_CODES = "password_reset_codes";
export const MAIL_OUTBOX = "mail_outbox";

/** How long outbox messages are kept (the outbox is for development, demos and tests). */
const OUTBOX_RETENTION_SECONDS = 30 * 24 * 3600;

export const indexes: IndexDeclaration[] = [
  { collection: LOGIN_ATTEMPTS, key: { key: 1, at: -1 }, options: { name: "key_at" } },
  { collection: LOGIN_ATTEMPTS, key: { expiresAt: 1 }, options: { name: "expiresAt_ttl", expireAfterSeconds: 0 } },
  {
    collection: PASSWORD_RESET_CODES,
    key: { expiresAt: 1 },
    options: { name: "expiresAt_ttl", expireAfterSeconds: 0 },
  },
  { collection: MAIL_OUTBOX, key: { to: 1, createdAt: -1 }, options: { name: "to_createdAt" } },
  {
    collection: MAIL_OUTBOX,
    key: { createdAt: 1 },
    options: { name: "createdAt_ttl", expireAfterSeconds: OUTBOX_RETENTION_SECONDS },
  },
];

// ---------------------------------------------------------------------------------------------
// Sign-in and recovery attempts. One document per attempt and key, inserted BEFORE the comparison it stands for
// (a reservation), so parallel requests see each other; a refused or successful attempt's documents are removed.

type LoginAttempt = { _id?: ObjectId; key: string; at: Date; expiresAt: Date };

export const emailKey = (email: string) => `email:${normalizeEmail(email)}`;
/** A client address counted by its group: IPv4 as it is, IPv6 by its /64 (`addressGroup`). */
export const ipKey = (ip: string) => `ip:${addressGroup(ip)}`;

/** Inserts one attempt under each key, all at `at`; answers their ids in the order of `keys`. */
export async function insertLoginAttempts(
  keys: string[],
  at: Date,
  windowMinutes: number,
  db?: Db,
): Promise<ObjectId[]> {
  const database = db ?? (await getDb());
  const expiresAt = new Date(at.getTime() + windowMinutes * 60_000);
  const docs = keys.map((key) => ({ _id: new ObjectId(), key, at, expiresAt }));
  await database.collection<LoginAttempt>(LOGIN_ATTEMPTS).insertMany(docs);
  return docs.map((d) => d._id);
}

/** How many attempts `key` has after `since` (counting stops at `cap`), and its oldest and two latest of them. */
export async function readLoginAttempts(
  key: string,
  since: Date,
  cap: number,
  db?: Db,
): Promise<{ count: number; oldest?: Date; latest: Array<{ _id: ObjectId; at: Date }> }> {
  const database = db ?? (await getDb());
  const attempts = database.collection<LoginAttempt>(LOGIN_ATTEMPTS);
  const filter = { key, at: { $gt: since } };
  const [count, oldest, latest] = await Promise.all([
    attempts.countDocuments(filter, { limit: cap }),
    attempts
      .find(filter, { projection: { at: 1 } })
      .sort({ at: 1 })
      .limit(1)
      .next(),
    attempts
      .find(filter, { projection: { at: 1 } })
      .sort({ at: -1 })
      .limit(2)
      .toArray(),
  ]);
  return { count, oldest: oldest?.at, latest: latest.map((d) => ({ _id: d._id as ObjectId, at: d.at })) };
}

export async function countLoginFailures(key: string, since: Date, db?: Db): Promise<{ count: number; oldest?: Date }> {
  const { count, oldest } = await readLoginAttempts(key, since, 1000, db);
  return { count, oldest };
}

export async function deleteLoginAttempts(ids: ObjectId[], db?: Db): Promise<void> {
  if (ids.length === 0) return;
  const database = db ?? (await getDb());
  await database.collection<LoginAttempt>(LOGIN_ATTEMPTS).deleteMany({ _id: { $in: ids } });
}

export async function deleteLoginFailures(key: string, db?: Db): Promise<void> {
  const database = db ?? (await getDb());
  await database.collection<LoginAttempt>(LOGIN_ATTEMPTS).deleteMany({ key });
}

// ---------------------------------------------------------------------------------------------
// Password-reset codes (local provider). One record per e-mail: a new request replaces the older code.

/** `failedAttempts` counts every attempt reserved on the code (a right one deletes the record). */
type ResetCodeRecord = { _id: string; codeHash: string; createdAt: Date; expiresAt: Date; failedAttempts: number };

/** Attempts allowed on one code, right or wrong: each is reserved before its comparison. */
export const MAX_RESET_CODE_ATTEMPTS = 5;

export function hashResetCode(email: string, code: string, secret: string): string {
  return createHmac("sha256", secret)
    .update(`password-reset:${normalizeEmail(email)}:${code.trim()}`)
    .digest("base64url");
}

export async function storeResetCode(email: string, codeHash: string, now: Date, ttlMinutes: number): Promise<void> {
  const db = await getDb();
  await db
    .collection<ResetCodeRecord>(PASSWORD_RESET_CODES)
    .replaceOne(
      { _id: normalizeEmail(email) },
      { codeHash, createdAt: now, expiresAt: new Date(now.getTime() + ttlMinutes * 60_000), failedAttempts: 0 },
      { upsert: true },
    );
}

export type ConsumeCodeResult = "ok" | "mismatch" | "expired";

/**
 * Uses a code once. "expired" when there is no live code (none requested, used, replaced, expired or out of
 * attempts); "mismatch" when the code is wrong. The attempt is reserved by the same atomic update that reads the
 * code, under the cap, so however many requests run in parallel at most MAX_RESET_CODE_ATTEMPTS are compared.
 */
export async function consumeResetCode(email: string, codeHash: string, now: Date): Promise<ConsumeCodeResult> {
  const db = await getDb();
  const codes = db.collection<ResetCodeRecord>(PASSWORD_RESET_CODES);
  const id = normalizeEmail(email);
  const reserved = await codes.findOneAndUpdate(
    { _id: id, expiresAt: { $gt: now }, failedAttempts: { $lt: MAX_RESET_CODE_ATTEMPTS } },
    { $inc: { failedAttempts: 1 } },
    { returnDocument: "after" },
  );
  if (!reserved) return "expired";
  const a = Buffer.from(reserved.codeHash);
  const b = Buffer.from(codeHash);
  if (a.length === b.length && timingSafeEqual(a, b)) {
    // Atomic: of two concurrent uses of the same code only one deletes it.
    const deleted = await codes.findOneAndDelete({ _id: id, codeHash: reserved.codeHash, expiresAt: { $gt: now } });
    return deleted ? "ok" : "expired";
  }
  // The last attempt used up: the code goes (not a newer one stored meanwhile).
  if (reserved.failedAttempts >= MAX_RESET_CODE_ATTEMPTS)
    await codes.deleteOne({ _id: id, codeHash: reserved.codeHash });
  return "mismatch";
}

export async function deleteResetCodes(email: string): Promise<void> {
  const db = await getDb();
  await db.collection<ResetCodeRecord>(PASSWORD_RESET_CODES).deleteOne({ _id: normalizeEmail(email) });
}

// ---------------------------------------------------------------------------------------------
// Mail outbox

export type OutboxMessage = {
  _id?: ObjectId;
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the message (stored with it, so tests and demos can open them). */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
  createdAt: Date;
};

export async function insertOutboxMessage(message: Omit<OutboxMessage, "_id">): Promise<string> {
  const db = await getDb();
  const result = await db
    .collection<OutboxMessage>(MAIL_OUTBOX)
    .insertOne({ ...message, to: normalizeEmail(message.to) });
  return result.insertedId.toHexString();
}

export async function findLatestOutboxMessage(to: string): Promise<OutboxMessage | null> {
  const db = await getDb();
  return db
    .collection<OutboxMessage>(MAIL_OUTBOX)
    .find({ to: normalizeEmail(to) })
    .sort({ createdAt: -1, _id: -1 })
    .limit(1)
    .next();
}

/** A message as the outbox page lists it (its text and attachments are read when it is opened). */
export type OutboxListItem = { id: string; to: string; subject: string; createdAt: Date; attachments: number };

/**
 * One page of the outbox, newest first, with the total; `to` narrows it to one recipient (a whole, normalised address).
 * A page past the end answers the last page.
 */
export async function listOutboxPage(options: {
  page: number;
  pageSize: number;
  to?: string;
}): Promise<{ items: OutboxListItem[]; total: number; page: number; pageCount: number }> {
  const db = await getDb();
  const collection = db.collection<OutboxMessage>(MAIL_OUTBOX);
  const filter = options.to ? { to: normalizeEmail(options.to) } : {};
  const readPage = async (page: number) =>
    (
      await collection
        .find(filter, { projection: { to: 1, subject: 1, createdAt: 1, "attachments.filename": 1 } })
        .sort({ createdAt: -1, _id: -1 })
        .skip((page - 1) * options.pageSize)
        .limit(options.pageSize)
        .toArray()
    ).map((m) => ({
      id: String(m._id),
      to: m.to,
      subject: m.subject,
      createdAt: m.createdAt,
      attachments: m.attachments?.length ?? 0,
    }));
  const { rows, total, page, pageCount } = await readPageOrLast(options.page, options.pageSize, readPage, () =>
    countMatching(collection, filter),
  );
  return { items: rows, total, page, pageCount };
}

/** One outbox message by its id (24 hex digits), or null. */
export async function findOutboxMessage(id: string): Promise<OutboxMessage | null> {
  if (!/^[0-9a-fA-F]{24}$/.test(id)) return null;
  const db = await getDb();
  return db.collection<OutboxMessage>(MAIL_OUTBOX).findOne({ _id: ObjectId.createFromHexString(id) });
}
