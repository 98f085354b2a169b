import { randomUUID } from "node:crypto";
import { type Db, ObjectId } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import { componentLogger, errorFields } from "~/shared/logger.server";
import type { IndexDeclaration } from "./indexes";
import { normalizeEmail } from "./user-preferences.server";

/**
 * Subscriptions: a user subscribes to a report origin, the financial statements of a business unit or a
 * native dashboard (`subscriptions`); a publication (a report package, a statement) or the weekly dashboard run
 * queues one send per subscriber (`subscription_sends`), which the subscription dispatcher of the job worker claims
 * with a lease, checks against the subscriber's rights AT SEND TIME, sends, and retries with exponential backoff.
 * The send log is the `subscription_sends` collection itself: each send's status, attempts and last error.
 */
export const SUBSCRIPTIONS = "subscriptions";
export const SUBSCRIPTION_SENDS = "subscription_sends";

export { SUBSCRIPTION_KINDS, type SubscriptionKind } from "./subscriptions.fields";

import type { SubscriptionKind } from "./subscriptions.fields";

/** Subscriptions one user may hold (a list, not a document store). */
export const SUBSCRIPTIONS_PER_USER_MAX = 100;
/** Sends shown in the user's log. */
export const SEND_LOG_SHOWN = 20;
const SEND_LOG_KEPT_DAYS = 180;

export const indexes: IndexDeclaration[] = [
  // One subscription per user and thing; the user's list reads its prefix.
  {
    collection: SUBSCRIPTIONS,
    key: { user: 1, kind: 1, object: 1 },
    options: { name: "user_kind_object", unique: true },
  },
  // A publication's subscribers.
  { collection: SUBSCRIPTIONS, key: { kind: 1, object: 1 }, options: { name: "kind_object" } },
  // One send per event and subscriber (a publication seen twice, a weekly run repeated within its week).
  { collection: SUBSCRIPTION_SENDS, key: { key: 1 }, options: { name: "key", unique: true } },
  // The dispatcher's claim: the oldest due pending send.
  {
    collection: SUBSCRIPTION_SENDS,
    key: { status: 1, next_attempt_at: 1 },
    options: { name: "status_next_attempt_at" },
  },
  // The user's send log, newest first.
  { collection: SUBSCRIPTION_SENDS, key: { user: 1, created_at: -1 }, options: { name: "user_created_at" } },
  // Finished sends (sent, skipped, given up) are kept 180 days.
  {
    collection: SUBSCRIPTION_SENDS,
    key: { finished_at: 1 },
    options: { name: "finished_at_ttl", expireAfterSeconds: SEND_LOG_KEPT_DAYS * 24 * 3600 },
  },
];

export type SubscriptionRecord = {
  _id: ObjectId;
  /** The subscriber's e-mail, lower case. */
  user: string;
  kind: SubscriptionKind;
  /** What is followed: a report origin ("automatico"), a business unit ("2236"), a dashboard's painelId ("7"). */
  object: string;
  created_at: Date;
};

export type SendStatus = "pending" | "sent" | "skipped" | "failed";

/** What happened, for the e-mail's text (built by the dispatcher, at send time). */
export type SendEvent =
  | { type: "reports"; count: number; names: string[] }
  | { type: "statement"; statementType: string; dateRef: Date }
  | { type: "weekly"; week: string };

export type SubscriptionSendRecord = {
  _id: ObjectId;
  /** The event and subscriber: unique, so an event queues one send per subscriber. */
  key: string;
  user: string;
  kind: SubscriptionKind;
  object: string;
  event: SendEvent;
  status: SendStatus;
  attempts: number;
  next_attempt_at: Date;
  claim: string | null;
  created_at: Date;
  sent_at: Date | null;
  finished_at: Date | null;
  /** Why a send was skipped ("rights", "notFound", "unsubscribed"), or the last failed attempt's error. */
  last_error: string | null;
};

async function subscriptions(db?: Db) {
  return (db ?? (await getDb())).collection<SubscriptionRecord>(SUBSCRIPTIONS);
}
async function sends(db?: Db) {
  return (db ?? (await getDb())).collection<SubscriptionSendRecord>(SUBSCRIPTION_SENDS);
}

const log = componentLogger("subscriptions");

// ---------------------------------------------------------------------------------------------
// Subscriptions

/** Subscribes; false when the user already holds SUBSCRIPTIONS_PER_USER_MAX others. Subscribing twice is one. */
export async function addSubscription(
  email: string,
  kind: SubscriptionKind,
  object: string,
  now: Date = new Date(),
): Promise<boolean> {
  const user = normalizeEmail(email);
  const collection = await subscriptions();
  if ((await collection.countDocuments({ user })) >= SUBSCRIPTIONS_PER_USER_MAX) {
    return (await collection.findOne({ user, kind, object }, { projection: { _id: 1 } })) !== null;
  }
  try {
    await collection.updateOne({ user, kind, object }, { $setOnInsert: { created_at: now } }, { upsert: true });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  return true;
}

/** Ends a subscription; false when there was none. */
export async function removeSubscription(email: string, kind: SubscriptionKind, object: string): Promise<boolean> {
  const result = await (await subscriptions()).deleteOne({ user: normalizeEmail(email), kind, object });
  return result.deletedCount === 1;
}

export async function isSubscribed(email: string, kind: SubscriptionKind, object: string): Promise<boolean> {
  const found = await (await subscriptions()).findOne(
    { user: normalizeEmail(email), kind, object },
    { projection: { _id: 1 } },
  );
  return found !== null;
}

/** The user's subscriptions, by kind and object. */
export async function listSubscriptions(email: string): Promise<SubscriptionRecord[]> {
  return (await subscriptions())
    .find({ user: normalizeEmail(email) })
    .sort({ user: 1, kind: 1, object: 1 })
    .limit(SUBSCRIPTIONS_PER_USER_MAX)
    .toArray();
}

/** Every subscription of a kind (the weekly dashboard run), in pages read through the index. */
export async function* subscriptionsOfKind(
  kind: SubscriptionKind,
  pageSize = 500,
): AsyncGenerator<SubscriptionRecord[]> {
  const collection = await subscriptions();
  let after: ObjectId | null = null;
  for (;;) {
    const filter: { kind: SubscriptionKind; _id?: { $gt: ObjectId } } = after
      ? { kind, _id: { $gt: after } }
      : { kind };
    const page = await collection.find(filter).sort({ _id: 1 }).limit(pageSize).toArray();
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]._id;
    if (page.length < pageSize) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Queueing sends

/**
 * Queues one send of `event` to every subscriber of (kind, object), keyed by `eventKey` and the subscriber (an
 * event seen again queues nothing new). Returns how many were queued.
 */
export async function queueSends(
  kind: SubscriptionKind,
  object: string,
  eventKey: string,
  event: SendEvent,
  now: Date,
  db?: Db,
): Promise<number> {
  const subscribers = await (await subscriptions(db))
    .find({ kind, object }, { projection: { user: 1 } })
    .limit(10_000)
    .toArray();
  return insertSends(
    subscribers.map((s) => ({ user: s.user, kind, object, key: `${eventKey}|${s.user}`, event })),
    now,
    db,
  );
}

/** Inserts sends, skipping those whose key is already queued; returns how many are new. */
export async function insertSends(
  items: ReadonlyArray<{ user: string; kind: SubscriptionKind; object: string; key: string; event: SendEvent }>,
  now: Date,
  db?: Db,
): Promise<number> {
  if (items.length === 0) return 0;
  const records: SubscriptionSendRecord[] = items.map((i) => ({
    _id: new ObjectId(),
    key: i.key,
    user: normalizeEmail(i.user),
    kind: i.kind,
    object: i.object,
    event: i.event,
    status: "pending",
    attempts: 0,
    next_attempt_at: now,
    claim: null,
    created_at: now,
    sent_at: null,
    finished_at: null,
    last_error: null,
  }));
  try {
    const result = await (await sends(db)).insertMany(records, { ordered: false });
    return result.insertedCount;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const inserted = (error as { result?: { insertedCount?: number } }).result?.insertedCount;
    return typeof inserted === "number" ? inserted : 0;
  }
}

/**
 * A report package was published (app/models/reports.server.ts upsertReportEntries): the subscribers of each origin
 * it wrote to get one send. Never throws: a publication does not fail because of its subscribers (logged).
 */
export async function queueReportPublication(
  entries: ReadonlyArray<{ name: string; origin: string }>,
  meta: { sourceFileId: ObjectId; now: Date },
  db?: Db,
): Promise<void> {
  try {
    const byOrigin = new Map<string, string[]>();
    for (const e of entries) byOrigin.set(e.origin, [...(byOrigin.get(e.origin) ?? []), e.name]);
    for (const [origin, names] of byOrigin) {
      const event: SendEvent = { type: "reports", count: names.length, names: names.slice(0, 10) };
      await queueSends(
        "report_origin",
        origin,
        `report:${meta.sourceFileId.toHexString()}:${origin}`,
        event,
        meta.now,
        db,
      );
    }
  } catch (error) {
    log.error("report publication sends not queued", errorFields(error));
  }
}

/**
 * A business unit's statement was published (app/models/financial.server.ts recordStatements): its subscribers get
 * one send per period and type. Never throws (logged).
 */
export async function queueStatementPublication(
  statement: { businessUnitID: string; type: string; dateRef: Date },
  now: Date,
): Promise<void> {
  try {
    const key = `statement:${statement.businessUnitID}:${statement.type}:${statement.dateRef.toISOString()}`;
    const event: SendEvent = { type: "statement", statementType: statement.type, dateRef: statement.dateRef };
    await queueSends("financial_statements", statement.businessUnitID, key, event, now);
  } catch (error) {
    log.error("statement publication sends not queued", errorFields(error));
  }
}

// ---------------------------------------------------------------------------------------------
// The send queue

/** Attempts before a send is given up (status "failed"). */
export const SEND_MAX_ATTEMPTS = 8;
const BACKOFF_FIRST_MS = 60_000;
const BACKOFF_MAX_MS = 6 * 60 * 60_000;

/** The wait after the n-th failed attempt: 1 min, 2 min, 4 min … at most 6 h. */
export function sendBackoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1));
}

export type ClaimedSend = Pick<
  SubscriptionSendRecord,
  "_id" | "key" | "user" | "kind" | "object" | "event" | "attempts" | "created_at"
> & { claim: string };

/** Claims the oldest due pending send for `leaseMs`; a claim whose holder died becomes due when it runs out. */
export async function claimNextSend(now: Date, leaseMs: number): Promise<ClaimedSend | null> {
  const claim = randomUUID();
  const record = await (await sends()).findOneAndUpdate(
    { status: "pending", next_attempt_at: { $lte: now } },
    { $set: { claim, next_attempt_at: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
    { sort: { next_attempt_at: 1 }, returnDocument: "after" },
  );
  if (!record) return null;
  const { _id, key, user, kind, object, event, attempts, created_at } = record;
  return { _id, key, user, kind, object, event, attempts, created_at, claim };
}

/** Records a sent send; false when the claim was lost meanwhile. */
export async function markSendSent(send: ClaimedSend, now: Date): Promise<boolean> {
  const result = await (await sends()).updateOne(
    { _id: send._id, claim: send.claim },
    { $set: { status: "sent", sent_at: now, finished_at: now, claim: null, last_error: null } },
  );
  return result.modifiedCount === 1;
}

/** Records a send that was not made (the subscriber may no longer open it, it is gone, …) with its reason. */
export async function markSendSkipped(send: ClaimedSend, reason: string, now: Date): Promise<boolean> {
  const result = await (await sends()).updateOne(
    { _id: send._id, claim: send.claim },
    { $set: { status: "skipped", finished_at: now, claim: null, last_error: reason.slice(0, 500) } },
  );
  return result.modifiedCount === 1;
}

/** Records a failed attempt: due again after the backoff, or given up after SEND_MAX_ATTEMPTS. */
export async function markSendAttemptFailed(
  send: ClaimedSend,
  error: string,
  now: Date,
): Promise<{ status: "pending" | "failed"; nextAttemptAt: Date | null } | null> {
  const giveUp = send.attempts >= SEND_MAX_ATTEMPTS;
  const nextAttemptAt = new Date(now.getTime() + sendBackoffMs(send.attempts));
  const lastError = error.slice(0, 500);
  const result = await (await sends()).updateOne(
    { _id: send._id, claim: send.claim },
    {
      $set: giveUp
        ? { status: "failed", finished_at: now, claim: null, last_error: lastError }
        : { next_attempt_at: nextAttemptAt, claim: null, last_error: lastError },
    },
  );
  if (result.modifiedCount !== 1) return null;
  return giveUp ? { status: "failed", nextAttemptAt: null } : { status: "pending", nextAttemptAt };
}

/** The user's latest sends, newest first (their log on /user/subscriptions, tests and support). */
export async function listSendsOf(email: string, limit = SEND_LOG_SHOWN): Promise<SubscriptionSendRecord[]> {
  return (await sends())
    .find({ user: normalizeEmail(email) })
    .sort({ created_at: -1, _id: -1 })
    .limit(Math.max(1, Math.min(1_000, limit)))
    .toArray();
}
