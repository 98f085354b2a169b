import { randomUUID } from "node:crypto";
import { ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { hasControlCharacter } from "~/shared/control-characters";
import { readPageOrLast } from "~/shared/pagination";
import type { IndexDeclaration } from "./indexes";
import { getPreferencesOf, normalizeEmail } from "./user-preferences.server";

/**
 * Notices to users: each one is kept in the user's in-portal list (`notices`) and, unless the user
 * switched e-mail notices off (/user/settings), queued for e-mail (`notice_mail`). notify() only writes to the
 * database; the mail dispatcher (app/features/notices/mail-dispatch.server.ts) runs in the job worker, claims each
 * queued mail with a lease, sends it and retries a failure with exponential backoff.
 */
export const NOTICES = "notices";
/** A notice not yet read (the header's count, "marcar como lida"): `read_at` null or absent. */
export const UNREAD = { read_at: null } as const;
export const NOTICE_MAIL = "notice_mail";

export const NOTICES_PAGE_SIZE = 20;
/** The longest stored title, body and link (a notice is a short message, not a document). */
const MAX_TITLE = 200;
const MAX_BODY = 4_000;
const MAX_LINK = 2_000;
const SENT_MAIL_KEPT_DAYS = 30;

export const indexes: IndexDeclaration[] = [
  // The header's unread count: { to, read_at: null }.
  { collection: NOTICES, key: { to: 1, read_at: 1 }, options: { name: "to_read_at" } },
  // The user's list, newest first.
  { collection: NOTICES, key: { to: 1, created_at: -1 }, options: { name: "to_created_at" } },
  // The dispatcher's claim: the oldest due pending mail.
  { collection: NOTICE_MAIL, key: { status: 1, next_attempt_at: 1 }, options: { name: "status_next_attempt_at" } },
  // A sent mail is kept 30 days (the notice itself stays in the list); pending and failed ones have no sent_at.
  {
    collection: NOTICE_MAIL,
    key: { sent_at: 1 },
    options: { name: "sent_at_ttl", expireAfterSeconds: SENT_MAIL_KEPT_DAYS * 24 * 3600 },
  },
];

/** A further link of a notice (e.g. the refused rows' CSV), shown under its text and written into its e-mail. */
export type NoticeLink = { label: string; path: string };

export type NoticeInput = {
  /** The user's e-mail (users are keyed by e-mail). */
  to: string;
  /** What the notice is about, e.g. "forecast.submitted". */
  kind: string;
  title: string;
  body: string;
  /** A portal path like "/ij/..."; anything else is dropped. */
  link?: string;
  /** Further links (portal paths only, at most MAX_LINKS); a link that is not a portal path is dropped. */
  links?: readonly NoticeLink[];
};

export type NoticeRecord = {
  _id: ObjectId;
  to: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  /** Absent on notices stored before further links existed. */
  links?: NoticeLink[];
  created_at: Date;
  read_at: Date | null;
};

export type NoticeRow = {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  links: NoticeLink[];
  createdAt: Date;
  readAt: Date | null;
};

export type MailStatus = "pending" | "sent" | "failed";

export type NoticeMailRecord = {
  _id: ObjectId;
  notice_id: ObjectId;
  to: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  links?: NoticeLink[];
  status: MailStatus;
  /** Attempts started so far (a claim counts one). */
  attempts: number;
  /** When the mail may be claimed next: when queued, after a failure (backoff), or when a claim's lease runs out. */
  next_attempt_at: Date;
  /** The token of the claim holding it, null when none. */
  claim: string | null;
  created_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
};

/**
 * A link a notice may open: a path of this portal ("/…"), never another site. "//host" and "/\host" are read by
 * browsers as another host, so they are refused, as are control characters and backslashes anywhere.
 */
export function safePortalLink(link: unknown): string | null {
  if (typeof link !== "string") return null;
  if (link.length === 0 || link.length > MAX_LINK) return null;
  if (!link.startsWith("/") || link.startsWith("//")) return null;
  if (link.includes("\\") || hasControlCharacter(link, true)) return null;
  return link;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const MAX_LINKS = 3;
const MAX_LINK_LABEL = 100;

/** The further links kept: portal paths only, labelled, at most MAX_LINKS. */
function safeLinks(links: readonly NoticeLink[] | undefined): NoticeLink[] {
  const kept: NoticeLink[] = [];
  for (const link of links ?? []) {
    const path = safePortalLink(link?.path);
    const label = clip(String(link?.label ?? "").trim(), MAX_LINK_LABEL);
    if (path && label && kept.length < MAX_LINKS) kept.push({ label, path });
  }
  return kept;
}

/** Stored only when there are some (older notices have none). */
const withLinks = (links: NoticeLink[]) => (links.length > 0 ? { links } : {});

/**
 * Stores one in-portal notice per recipient and queues its e-mail unless the recipient switched e-mail notices off.
 * Only database writes: never waits for SMTP.
 */
export async function notify(notices: readonly NoticeInput[], now: Date = new Date()): Promise<void> {
  const valid = notices
    .map((n) => ({ ...n, to: normalizeEmail(String(n.to ?? "")) }))
    .filter((n) => n.to.includes("@"));
  if (valid.length === 0) return;
  const preferences = await getPreferencesOf(valid.map((n) => n.to));
  const records: NoticeRecord[] = valid.map((n) => ({
    _id: new ObjectId(),
    to: n.to,
    kind: clip(String(n.kind), 100),
    title: clip(String(n.title), MAX_TITLE),
    body: clip(String(n.body), MAX_BODY),
    link: safePortalLink(n.link),
    ...withLinks(safeLinks(n.links)),
    created_at: now,
    read_at: null,
  }));
  const mails: NoticeMailRecord[] = records
    .filter((r) => preferences.get(r.to)?.emailNotices !== false)
    .map((r) => ({
      _id: new ObjectId(),
      notice_id: r._id,
      to: r.to,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      ...withLinks(r.links ?? []),
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      claim: null,
      created_at: now,
      sent_at: null,
      failed_at: null,
      last_error: null,
    }));
  const db = await getDb();
  await db.collection<NoticeRecord>(NOTICES).insertMany(records, { ordered: false });
  if (mails.length > 0) await db.collection<NoticeMailRecord>(NOTICE_MAIL).insertMany(mails, { ordered: false });
}

const toRow = (r: NoticeRecord): NoticeRow => ({
  id: r._id.toHexString(),
  kind: r.kind,
  title: r.title,
  body: r.body,
  link: r.link,
  links: r.links ?? [],
  createdAt: r.created_at,
  readAt: r.read_at,
});

/** One page (1-based, NOTICES_PAGE_SIZE rows) of the user's notices, newest first; past the end, the last page. */
export async function listNotices(
  email: string,
  page: number,
): Promise<{ rows: NoticeRow[]; total: number; page: number; pageCount: number }> {
  const to = normalizeEmail(email);
  const collection = (await getDb()).collection<NoticeRecord>(NOTICES);
  const result = await readPageOrLast(
    Math.max(1, Math.floor(page) || 1),
    NOTICES_PAGE_SIZE,
    (p) =>
      collection
        .find({ to })
        .sort({ created_at: -1, _id: -1 })
        .skip((p - 1) * NOTICES_PAGE_SIZE)
        .limit(NOTICES_PAGE_SIZE)
        .toArray(),
    () => collection.countDocuments({ to }),
  );
  return { ...result, rows: result.rows.map(toRow) };
}

/** The user's unread notices (the header's count). */
export async function unreadCount(email: string): Promise<number> {
  const db = await getDb();
  return db.collection<NoticeRecord>(NOTICES).countDocuments({ to: normalizeEmail(email), ...UNREAD });
}

/**
 * Marks one of the user's notices read and returns it; null when the id is not one of this user's notices (another
 * user's notice is neither changed nor revealed).
 */
export async function markNoticeRead(email: string, id: string, now: Date = new Date()): Promise<NoticeRow | null> {
  if (!ObjectId.isValid(id) || !/^[0-9a-f]{24}$/i.test(id)) return null;
  const db = await getDb();
  const filter = { _id: new ObjectId(id), to: normalizeEmail(email) };
  const notices = db.collection<NoticeRecord>(NOTICES);
  await notices.updateOne({ ...filter, ...UNREAD }, { $set: { read_at: now } });
  const record = await notices.findOne(filter);
  return record ? toRow(record) : null;
}

/** Marks every unread notice of the user read; returns how many. */
export async function markAllNoticesRead(email: string, now: Date = new Date()): Promise<number> {
  const db = await getDb();
  const result = await db
    .collection<NoticeRecord>(NOTICES)
    .updateMany({ to: normalizeEmail(email), ...UNREAD }, { $set: { read_at: now } });
  return result.modifiedCount;
}

// ---------------------------------------------------------------------------------------------
// The mail queue

/** Attempts before a mail is given up (status "failed"). */
export const MAIL_MAX_ATTEMPTS = 8;
const BACKOFF_FIRST_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** The wait after the n-th failed attempt: 30 s, 1 min, 2 min, 4 min … at most 1 h. */
export function mailBackoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1));
}

export type ClaimedMail = Pick<
  NoticeMailRecord,
  "_id" | "to" | "kind" | "title" | "body" | "link" | "links" | "attempts"
> & {
  claim: string;
};

/**
 * Claims the oldest due pending mail for `leaseMs` (any number of dispatchers may run): while the lease runs nobody
 * else takes it; a claim whose holder died becomes due again when it runs out.
 */
export async function claimNextMail(now: Date, leaseMs: number): Promise<ClaimedMail | null> {
  const db = await getDb();
  const claim = randomUUID();
  const record = await db
    .collection<NoticeMailRecord>(NOTICE_MAIL)
    .findOneAndUpdate(
      { status: "pending", next_attempt_at: { $lte: now } },
      { $set: { claim, next_attempt_at: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
      { sort: { next_attempt_at: 1 }, returnDocument: "after" },
    );
  if (!record) return null;
  return {
    _id: record._id,
    to: record.to,
    kind: record.kind,
    title: record.title,
    body: record.body,
    link: record.link,
    links: record.links ?? [],
    attempts: record.attempts,
    claim,
  };
}

/** Records a sent mail; false when the claim was lost meanwhile (its lease ran out and another took it). */
export async function markMailSent(mail: ClaimedMail, now: Date): Promise<boolean> {
  const db = await getDb();
  const result = await db
    .collection<NoticeMailRecord>(NOTICE_MAIL)
    .updateOne(
      { _id: mail._id, claim: mail.claim },
      { $set: { status: "sent", sent_at: now, claim: null, last_error: null } },
    );
  return result.modifiedCount === 1;
}

/**
 * Records a failed attempt: due again after the backoff, or given up ("failed") after MAIL_MAX_ATTEMPTS. Returns
 * what became of it.
 */
export async function markMailAttemptFailed(
  mail: ClaimedMail,
  error: string,
  now: Date,
): Promise<{ status: "pending" | "failed"; nextAttemptAt: Date | null } | null> {
  const db = await getDb();
  const giveUp = mail.attempts >= MAIL_MAX_ATTEMPTS;
  const nextAttemptAt = new Date(now.getTime() + mailBackoffMs(mail.attempts));
  const result = await db.collection<NoticeMailRecord>(NOTICE_MAIL).updateOne(
    { _id: mail._id, claim: mail.claim },
    {
      $set: giveUp
        ? { status: "failed", failed_at: now, claim: null, last_error: clip(error, 500) }
        : { next_attempt_at: nextAttemptAt, claim: null, last_error: clip(error, 500) },
    },
  );
  if (result.modifiedCount !== 1) return null;
  return giveUp ? { status: "failed", nextAttemptAt: null } : { status: "pending", nextAttemptAt };
}

/** The queued mails of a recipient, oldest first (tests and support). */
export async function listQueuedMail(email: string): Promise<NoticeMailRecord[]> {
  const db = await getDb();
  return db
    .collection<NoticeMailRecord>(NOTICE_MAIL)
    .find({ to: normalizeEmail(email) })
    .sort({ created_at: 1, _id: 1 })
    .limit(1_000)
    .toArray();
}
