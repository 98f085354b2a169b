import crypto from "node:crypto";
import type { Collection, Db, Filter } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import { maskCpf, maskCpfsInText } from "~/shared/cpf";
import type { AuditEvent, AuditObjectKind, AuditOutcome } from "./audit.fields";
import type { IndexDeclaration } from "./indexes";

/**
 * The audit trail: one entry per event, append-only and tamper-evident.
 *
 * Every entry carries `prev`, the hash of the entry before it, and `hash`, the SHA-256 of its own canonical form
 * (which includes `prev`). The chain is one line through the whole log: `n` numbers the entries 1, 2, 3 … and a unique
 * index on `n` lets exactly one entry follow each other one, so instances that append at the same time still build
 * one linear chain (a loser of the race reads the new last entry and tries again). Within a UTC day the entries are
 * also numbered `seq` 1, 2, 3 … (unique with `day`): `audit:verify` names an entry by day and seq, and retention
 * removes whole days. The first entry of a day chains to the last entry of the day before; when that day was
 * removed by retention, its final hash is kept in `audit_days`, so what remains still verifies.
 *
 * Nothing here updates an entry, and only `purgeAuditDaysBefore` (the retention job) deletes any.
 */

export const AUDIT_LOG = "audit_log";
export const AUDIT_DAYS = "audit_days";

/** The `prev` of the very first entry. */
export const AUDIT_GENESIS = "0".repeat(64);
/** The version of the canonical form the hash is taken over (changing the form means a new version). */
const HASH_VERSION = 1;

export type AuditActor = { email: string | null; name: string | null; type: string | null };
export type AuditObject = { kind: AuditObjectKind; id: string; label: string | null };
export type AuditDetailValue =
  | string
  | number
  | boolean
  | null
  | AuditDetailValue[]
  | { [key: string]: AuditDetailValue };
export type AuditDetails = { [key: string]: AuditDetailValue };

export type AuditEntry = {
  /** Position in the whole log: 1, 2, 3 … (unique): the chain's order. */
  n: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Position within the day: 1, 2, 3 … (unique with day). */
  seq: number;
  at: Date;
  actor: AuditActor;
  /** The client address, as the trusted proxy chain gives it; null outside a request (CLI, worker). */
  ip: string | null;
  event: AuditEvent;
  object: AuditObject | null;
  /** The dataset the event concerns, when it concerns one (the screen's dataset filter). */
  dataset: string | null;
  outcome: AuditOutcome;
  /** Small, without secrets; CPF masked (sanitizeAuditDetails). */
  details: AuditDetails;
  prev: string;
  hash: string;
};

/** A removed day's final entry, kept so the entries after it still verify. */
export type AuditDayRecord = { _id: string; finalN: number; finalSeq: number; finalHash: string; purgedAt: Date };

export const indexes: IndexDeclaration[] = [
  { collection: AUDIT_LOG, key: { n: 1 }, options: { name: "n_unique", unique: true } },
  { collection: AUDIT_LOG, key: { day: 1, seq: 1 }, options: { name: "day_seq_unique", unique: true } },
  { collection: AUDIT_LOG, key: { at: 1 }, options: { name: "at" } },
  { collection: AUDIT_LOG, key: { "actor.email": 1, n: -1 }, options: { name: "actor_n" } },
  { collection: AUDIT_LOG, key: { event: 1, n: -1 }, options: { name: "event_n" } },
  { collection: AUDIT_LOG, key: { dataset: 1, n: -1 }, options: { name: "dataset_n" } },
  { collection: AUDIT_LOG, key: { outcome: 1, n: -1 }, options: { name: "outcome_n" } },
  { collection: AUDIT_LOG, key: { "object.id": 1, n: -1 }, options: { name: "object_n" } },
];

async function auditLog(db?: Db): Promise<Collection<AuditEntry>> {
  return (db ?? (await getDb())).collection<AuditEntry>(AUDIT_LOG);
}

async function auditDays(db?: Db): Promise<Collection<AuditDayRecord>> {
  return (db ?? (await getDb())).collection<AuditDayRecord>(AUDIT_DAYS);
}

/** The UTC day of `at`, YYYY-MM-DD. */
export function auditDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------
// No secrets, CPF masked

const SECRET_KEY = new RegExp(
  [
    "pass|pwd|senha|secret|segredo|token|cookie|session|sess[aã]o|challenge|authoriz|credential|api[-_ ]?key",
    "samlresponse|c[oó]digo|^code$|code$|otp",
  ].join("|"),
  "i",
);
const CPF_KEY = /cpf/i;
const MAX_TEXT = 300;
const MAX_ITEMS = 50;
const MAX_KEYS = 40;
const MAX_DEPTH = 4;
const MAX_DETAILS_CHARS = 8_000;
export const AUDIT_REMOVED = "[removido]";

/**
 * A text as the database stores it: a lone surrogate (e.g. from a cell `&#xD800;`) becomes U+FFFD, as the driver's
 * UTF-8 encoding makes it. An entry is cleaned and hashed in this form, so what is stored still matches its hash.
 */
export function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

const OBJECT_ID_TEXT = /^[0-9a-f]{24}$/i;

/** A text as the log keeps it: well-formed, CPFs masked, at most MAX_TEXT characters. */
export function auditText(value: string): string {
  // A database id is not a text that may hold a CPF, though 11 of its digits in a row may pass the check digits.
  if (OBJECT_ID_TEXT.test(value)) return value;
  const masked = maskCpfsInText(wellFormed(value));
  // Never cut a surrogate pair in two.
  return masked.length > MAX_TEXT ? `${wellFormed(masked.slice(0, MAX_TEXT - 1))}…` : masked;
}

function cleanValue(value: unknown, key: string, depth: number): AuditDetailValue | undefined {
  if (SECRET_KEY.test(key)) return AUDIT_REMOVED;
  if (CPF_KEY.test(key) && (typeof value === "string" || typeof value === "number")) return maskCpf(String(value));
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return auditText(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint") return auditText(value.toString());
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => cleanValue(v, key, depth + 1) ?? null);
    if (value.length > MAX_ITEMS) items.push(`… +${value.length - MAX_ITEMS}`);
    return items;
  }
  if (typeof value === "object") return cleanObject(value as Record<string, unknown>, depth + 1);
  return undefined;
}

function cleanObject(value: Record<string, unknown>, depth: number): AuditDetails {
  const out: AuditDetails = {};
  for (const [key, v] of Object.entries(value).slice(0, MAX_KEYS)) {
    // Keys become stored field names: no operators, no dotted paths.
    const safeKey = wellFormed(key.replace(/^\$+/, "_").replace(/\./g, "_").slice(0, 64));
    const cleaned = cleanValue(v, key, depth);
    if (cleaned !== undefined) out[safeKey] = cleaned;
  }
  return out;
}

/**
 * The details an entry keeps: passwords, codes, tokens, secrets and session ids removed (by their key), CPFs masked
 * (by key, and any CPF-shaped number inside a text), texts and lists cut short, values made plain JSON.
 */
export function sanitizeAuditDetails(details: Record<string, unknown> | undefined): AuditDetails {
  if (!details) return {};
  const cleaned = cleanObject(details, 0);
  // Small by construction: what would make an entry heavy is cut to its top-level keys.
  return JSON.stringify(cleaned).length <= MAX_DETAILS_CHARS
    ? cleaned
    : { truncated: true, keys: Object.keys(cleaned).slice(0, MAX_KEYS) };
}

// ---------------------------------------------------------------------------------------------
// The hash

/** The canonical form: keys sorted, texts well-formed (as stored: identical for every text the log ever held). */
function canonical(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === "object") {
    const fields = Object.entries(value as object).map(([k, v]) => [wellFormed(k), v] as const);
    fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return "null";
  if (typeof value === "string") return JSON.stringify(wellFormed(value));
  return JSON.stringify(value);
}

/** The hash of an entry: SHA-256 over the canonical form of every field but `hash` (and the database's `_id`). */
export function auditHash(entry: Omit<AuditEntry, "hash">): string {
  const form = canonical([
    HASH_VERSION,
    entry.n,
    entry.day,
    entry.seq,
    entry.at,
    [entry.actor?.email ?? null, entry.actor?.name ?? null, entry.actor?.type ?? null],
    entry.ip,
    entry.event,
    entry.object ? [entry.object.kind, entry.object.id, entry.object.label ?? null] : null,
    entry.dataset,
    entry.outcome,
    entry.details ?? {},
    entry.prev,
  ]);
  return crypto.createHash("sha256").update(form).digest("hex");
}

// ---------------------------------------------------------------------------------------------
// Append

export type AuditInput = {
  actor?: { email?: string | null; name?: string | null; type?: string | null } | null;
  ip?: string | null;
  event: AuditEvent;
  object?: { kind: AuditObjectKind; id: string; label?: string | null } | null;
  dataset?: string | null;
  outcome: AuditOutcome;
  details?: Record<string, unknown>;
};

const textOrNull = (value: unknown, max = 200) =>
  typeof value === "string" && value.length > 0 ? wellFormed(auditText(value).slice(0, max)) : null;

/** The fields of an entry that do not depend on its place in the chain, cleaned. */
function entryBody(input: AuditInput, at: Date) {
  return {
    at,
    actor: {
      email: textOrNull(input.actor?.email?.trim().toLowerCase()),
      name: textOrNull(input.actor?.name),
      type: textOrNull(input.actor?.type, 40),
    },
    ip: textOrNull(input.ip, 64),
    event: input.event,
    object: input.object
      ? { kind: input.object.kind, id: auditText(String(input.object.id)), label: textOrNull(input.object.label) }
      : null,
    dataset: textOrNull(input.dataset, 100),
    outcome: input.outcome,
    details: sanitizeAuditDetails(input.details),
  };
}

type ChainHead = { n: number; day: string; seq: number; hash: string };

/** The last entry of the log, or the last removed day when retention removed everything; null for an empty log. */
async function chainHead(db?: Db): Promise<ChainHead | null> {
  const last = await (await auditLog(db)).findOne(
    {},
    { sort: { n: -1 }, projection: { _id: 0, n: 1, day: 1, seq: 1, hash: 1 } },
  );
  if (last) return last;
  const purged = await (await auditDays(db)).findOne({}, { sort: { _id: -1 } });
  return purged ? { n: purged.finalN, day: purged._id, seq: purged.finalSeq, hash: purged.finalHash } : null;
}

/** The entry that follows `head`, at `at`: the day never goes back, so the chain and the days agree. */
function nextEntry(head: ChainHead | null, body: ReturnType<typeof entryBody>): AuditEntry {
  const ownDay = auditDayOf(body.at);
  const day = head && head.day > ownDay ? head.day : ownDay;
  const entry: Omit<AuditEntry, "hash"> = {
    n: (head?.n ?? 0) + 1,
    day,
    seq: head && head.day === day ? head.seq + 1 : 1,
    ...body,
    prev: head?.hash ?? AUDIT_GENESIS,
  };
  return { ...entry, hash: auditHash(entry) };
}

const MAX_APPEND_ATTEMPTS = 200;

/** The last entry this process appended to each log (by database and collection name; see appendAuditEntry). */
const knownHeads = new Map<string, ChainHead>();

/** Forgets the entries this process appended last: a test that empties the log starts a new chain after it. */
export function forgetAuditHeads(): void {
  knownHeads.clear();
}

/** Each log's appends of this process, one after another (by database and collection name). */
const appendQueues = new Map<string, Promise<unknown>>();

/**
 * Appends one entry and answers it once it is stored. Callers await it before answering the request whose event it
 * records. This process's appends to a log take turns, so they never race each other for the next `n`; appends of
 * other instances race on the unique `n`: the loser reads the new head and retries.
 */
export async function appendAuditEntry(input: AuditInput, at: Date = new Date()): Promise<AuditEntry> {
  const collection = await auditLog();
  const body = entryBody(input, at);
  const previous = appendQueues.get(collection.namespace) ?? Promise.resolve();
  const appended = previous.then(
    () => appendInTurn(collection, body),
    () => appendInTurn(collection, body),
  );
  const settled = appended.catch(() => undefined);
  appendQueues.set(collection.namespace, settled);
  void settled.then(() => {
    if (appendQueues.get(collection.namespace) === settled) appendQueues.delete(collection.namespace);
  });
  return appended;
}

async function appendInTurn(
  collection: Collection<AuditEntry>,
  body: ReturnType<typeof entryBody>,
): Promise<AuditEntry> {
  for (let attempt = 1; ; attempt++) {
    // The entry this process appended last, if any: no read in the common case (bench/audit/write-cost.ts: a read is a
    // large part of an entry's cost). Another instance's append since then makes the insert collide on `n`, and the
    // head is read again; entries removed by hand do not rewind it (the chain then shows the removal, as it should).
    const head = knownHeads.get(collection.namespace) ?? (await chainHead());
    const entry = nextEntry(head, body);
    try {
      await collection.insertOne({ ...entry });
      knownHeads.set(collection.namespace, { n: entry.n, day: entry.day, seq: entry.seq, hash: entry.hash });
      return entry;
    } catch (error) {
      knownHeads.delete(collection.namespace);
      if (!isDuplicateKeyError(error) || attempt >= MAX_APPEND_ATTEMPTS) throw error;
      // Many writers at once: spread the retries out a little.
      if (attempt > 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt, 20)));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading (the screen and its export)

export type AuditFilter = {
  /** Entries at or after this instant. */
  from?: Date;
  /** Entries before this instant. */
  to?: Date;
  actorEmail?: string;
  event?: AuditEvent;
  dataset?: string;
  outcome?: AuditOutcome;
  /** The object an entry is about, by its id (a cost centre's name, a file's id, a user's e-mail). */
  objectId?: string;
  /** A decision's action (`details.action`: submit, return…); only decisions have one. */
  action?: string;
};

/**
 * The query of a filter. The period becomes a range of `n` too (found through the `at` index), so every filter is
 * an equality plus a range of `n` on one of the `<field>_n` indexes, read in the chain's order: no page counts or
 * sorts the whole log.
 */
async function auditQuery(filter: AuditFilter): Promise<Filter<AuditEntry> | null> {
  const collection = await auditLog();
  const query: Filter<AuditEntry> = {};
  const n: { $gte?: number; $lte?: number; $lt?: number; $gt?: number } = {};
  if (filter.from || filter.to) {
    const at: { $gte?: Date; $lt?: Date } = {};
    if (filter.from) at.$gte = filter.from;
    if (filter.to) at.$lt = filter.to;
    const [first, last] = await Promise.all([
      collection.findOne({ at }, { sort: { at: 1 }, projection: { _id: 0, n: 1 } }),
      collection.findOne({ at }, { sort: { at: -1 }, projection: { _id: 0, n: 1 } }),
    ]);
    if (!first || !last) return null;
    // Clocks of several instances may disagree by a few milliseconds: `at` keeps the period exact.
    n.$gte = Math.min(first.n, last.n);
    n.$lte = Math.max(first.n, last.n);
    query.at = at;
  }
  if (filter.actorEmail) query["actor.email"] = filter.actorEmail.trim().toLowerCase();
  if (filter.event) query.event = filter.event;
  if (filter.dataset) query.dataset = filter.dataset;
  if (filter.outcome) query.outcome = filter.outcome;
  if (filter.objectId) query["object.id"] = filter.objectId;
  if (filter.action) {
    query.event = "decision";
    query["details.action"] = filter.action;
  }
  if (Object.keys(n).length > 0) query.n = n;
  return query;
}

export type AuditPageCursor = { before?: number; after?: number };
export type AuditPage = {
  entries: AuditEntry[];
  /** Older entries exist past the last one shown. */
  hasOlder: boolean;
  /** Newer entries exist before the first one shown. */
  hasNewer: boolean;
};

/**
 * One page of the log, newest first, by seek: `before` = the entries older than that `n`, `after` = the entries
 * newer than it (the page before). pageSize + 1 entries are read to know whether there is more; nothing is counted.
 */
export async function listAuditPage(
  filter: AuditFilter,
  cursor: AuditPageCursor,
  pageSize: number,
): Promise<AuditPage> {
  const query = await auditQuery(filter);
  if (!query) return { entries: [], hasOlder: false, hasNewer: false };
  const collection = await auditLog();
  const range = { ...((query.n as object | undefined) ?? {}) } as Record<string, number>;
  if (cursor.after !== undefined) {
    range.$gt = cursor.after;
    const rows = await collection
      .find({ ...query, n: range }, { projection: { _id: 0 } })
      .sort({ n: 1 })
      .limit(pageSize + 1)
      .toArray();
    const hasNewer = rows.length > pageSize;
    return { entries: rows.slice(0, pageSize).reverse(), hasNewer, hasOlder: true };
  }
  if (cursor.before !== undefined) range.$lt = cursor.before;
  const rows = await collection
    .find(Object.keys(range).length > 0 ? { ...query, n: range } : query, { projection: { _id: 0 } })
    .sort({ n: -1 })
    .limit(pageSize + 1)
    .toArray();
  return { entries: rows.slice(0, pageSize), hasOlder: rows.length > pageSize, hasNewer: cursor.before !== undefined };
}

/** One entry by its position in the log. */
export async function findAuditEntry(n: number): Promise<AuditEntry | null> {
  return (await auditLog()).findOne({ n }, { projection: { _id: 0 } });
}

/** The entries of a filter, newest first, in batches (the export), at most `limit`. */
export async function* auditEntriesInBatches(
  filter: AuditFilter,
  limit: number,
  batchSize = 1000,
): AsyncGenerator<AuditEntry[]> {
  const query = await auditQuery(filter);
  if (!query) return;
  const cursor = (await auditLog())
    .find(query, { projection: { _id: 0 } })
    .sort({ n: -1 })
    .limit(limit)
    .batchSize(batchSize);
  let batch: AuditEntry[] = [];
  for await (const entry of cursor) {
    batch.push(entry);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

// ---------------------------------------------------------------------------------------------
// Verification

export type AuditProblem = {
  kind: "altered" | "removed" | "inserted";
  day: string;
  seq: number;
  n: number;
  message: string;
};

/** Problems named one by one; past this many they are only counted (a log rewritten whole would list them all). */
export const AUDIT_PROBLEMS_LISTED = 1_000;

export type AuditVerification = {
  /** No problem found. */
  ok: boolean;
  /** Entries read. */
  read: number;
  /** Entries that verified intact (their hash, their place and their link to the entry before). */
  checked: number;
  firstDay: string | null;
  lastDay: string | null;
  lastHash: string | null;
  /** Every problem found, in the chain's order (the first AUDIT_PROBLEMS_LISTED). */
  problems: AuditProblem[];
  /** The first problem, or null. */
  problem: AuditProblem | null;
  counts: Record<AuditProblem["kind"], number>;
};

type ChainLink = { hash: string; n: number; day: string; seq: number };

/** The entry before position `n` (or the last removed day's final entry, or the genesis): what `n` chains to. */
async function anchorBefore(n: number, db?: Db): Promise<ChainLink> {
  const before = await (await auditLog(db)).findOne(
    { n: { $lt: n } },
    { sort: { n: -1 }, projection: { _id: 0, n: 1, day: 1, seq: 1, hash: 1 } },
  );
  if (before) return before;
  const purged = await (await auditDays(db)).findOne({}, { sort: { _id: -1 } });
  if (purged) return { hash: purged.finalHash, n: purged.finalN, day: purged._id, seq: purged.finalSeq };
  return { hash: AUDIT_GENESIS, n: 0, day: "", seq: 0 };
}

/** The problems and counts of one verification run, named as the run goes. */
class ProblemList {
  readonly problems: AuditProblem[] = [];
  readonly counts: Record<AuditProblem["kind"], number> = { altered: 0, removed: 0, inserted: 0 };
  add(kind: AuditProblem["kind"], at: { day: string; seq: number; n: number }, message: string): void {
    this.counts[kind]++;
    if (this.problems.length < AUDIT_PROBLEMS_LISTED) this.problems.push({ kind, ...at, message });
  }
}

/** The entries missing between `previous` and `entry`, as one problem named by the first of them; null when none. */
function gapBefore(previous: ChainLink, entry: AuditEntry): { at: ChainLink; message: string } | null {
  const expectedN = previous.n + 1;
  const sameDay = entry.day === previous.day;
  if (!(entry.n > expectedN || (sameDay && entry.seq > previous.seq + 1) || (!sameDay && entry.seq > 1))) return null;
  const name = `${entry.day}#${entry.seq}`;
  if (sameDay || entry.seq > 1) {
    const seq = sameDay ? previous.seq + 1 : 1;
    const message = `entry ${entry.day}#${seq} (n ${expectedN}) was removed (the next one kept is ${name})`;
    return { at: { hash: "", n: expectedN, day: entry.day, seq }, message };
  }
  const span = `${previous.day}#${previous.seq} (n ${expectedN}…${entry.n - 1})`;
  const message = `the entries after ${span} were removed (the next one kept is ${name})`;
  return { at: { hash: "", n: expectedN, day: previous.day, seq: previous.seq + 1 }, message };
}

/**
 * Recomputes the chain over the days `from`..`to` (YYYY-MM-DD, both included; the whole log by default) and names
 * every entry that was altered (its hash no longer matches, or the next entry no longer chains to it), removed (a gap
 * in the numbering or the chain) or inserted (a number used twice, or out of order), then goes on: one problem does
 * not hide the next. Reads the log once, in the chain's order.
 */
export async function verifyAuditChain(
  range: { from?: string; to?: string } = {},
  db?: Db,
): Promise<AuditVerification> {
  const collection = await auditLog(db);
  const projection = { _id: 0, n: 1 } as const;
  const [first, last] = await Promise.all([
    range.from
      ? collection.findOne({ day: { $gte: range.from } }, { sort: { day: 1, seq: 1 }, projection })
      : collection.findOne({}, { sort: { n: 1 }, projection }),
    range.to
      ? collection.findOne({ day: { $lte: range.to } }, { sort: { day: -1, seq: -1 }, projection })
      : collection.findOne({}, { sort: { n: -1 }, projection }),
  ]);
  const found = new ProblemList();
  const result = (read: number, checked: number, firstDay: string | null, last: ChainLink | null) => ({
    ok: found.problems.length === 0,
    read,
    checked,
    firstDay,
    lastDay: last?.day ?? null,
    lastHash: last?.hash ?? null,
    problems: found.problems,
    problem: found.problems[0] ?? null,
    counts: found.counts,
  });
  if (!first || !last || last.n < first.n) return result(0, 0, null, null);
  let previous = await anchorBefore(first.n, db);
  // Whether `previous` verified by itself (a broken link after it then names it) and was counted as intact; the
  // anchor before the range is taken as intact, so the first entry's link is checked too.
  let previousIntact = true;
  let previousCounted = false;
  let firstDay: string | null = null;
  let read = 0;
  let checked = 0;
  const cursor = collection
    .find({ n: { $gte: first.n, $lte: last.n } })
    .sort({ n: 1 })
    .batchSize(2000);
  for await (const doc of cursor) {
    read++;
    const { _id: _stored, ...entry } = doc as AuditEntry & { _id: unknown };
    const name = `${entry.day}#${entry.seq}`;
    const inserted =
      !Number.isInteger(entry.n) ||
      entry.n <= previous.n ||
      (entry.day === previous.day && entry.seq <= previous.seq) ||
      entry.day < previous.day;
    if (inserted) {
      // Not a link of the chain: the entries after it still chain to `previous`.
      found.add("inserted", entry, `entry ${name} (n ${entry.n}) was inserted`);
      continue;
    }
    const gap = gapBefore(previous, entry);
    if (gap) found.add("removed", gap.at, gap.message);
    let intact = true;
    if (auditHash(entry) !== entry.hash) {
      // Before texts were made well-formed, a lone surrogate was hashed as such and stored as U+FFFD: say so.
      const hint = JSON.stringify(entry).includes("\uFFFD") ? "; it holds U+FFFD (see docs/operations.md)" : "";
      found.add("altered", entry, `entry ${name} (n ${entry.n}) was altered${hint}`);
      intact = false;
    } else if (!gap && entry.prev !== previous.hash && previousIntact) {
      // This entry is intact but does not chain to the one before: that one was changed and its hash recomputed.
      const before = `${previous.day}#${previous.seq}`;
      found.add("altered", previous, `entry ${before} (n ${previous.n}) was altered (${name} no longer chains to it)`);
      if (previousCounted) checked--;
    }
    if (intact) checked++;
    previousIntact = intact;
    previousCounted = intact;
    firstDay ??= entry.day;
    previous = { hash: entry.hash, n: entry.n, day: entry.day, seq: entry.seq };
  }
  return result(read, checked, firstDay, previous);
}

// ---------------------------------------------------------------------------------------------
// Retention

/**
 * Removes every whole day before `cutoffDay` (YYYY-MM-DD), oldest first, keeping each removed day's final entry
 * (`audit_days`) so the entries after it still verify. The only deletion of entries anywhere. Answers the days removed
 * and how many entries they held (the retention job records both in the log).
 */
export async function purgeAuditDaysBefore(
  cutoffDay: string,
  now: Date = new Date(),
): Promise<{ days: string[]; entries: number }> {
  const log = await auditLog();
  const days = await auditDays();
  const removed: string[] = [];
  let entries = 0;
  for (;;) {
    const oldest = await log.findOne({ day: { $lt: cutoffDay } }, { sort: { n: 1 }, projection: { _id: 0, day: 1 } });
    if (!oldest) break;
    const final = await log.findOne(
      { day: oldest.day },
      { sort: { seq: -1 }, projection: { _id: 0, n: 1, seq: 1, hash: 1 } },
    );
    if (!final) break;
    // The day's final hash first: an interrupted run leaves the entries, never a gap the chain cannot explain.
    await days.updateOne(
      { _id: oldest.day },
      { $set: { finalN: final.n, finalSeq: final.seq, finalHash: final.hash, purgedAt: now } },
      { upsert: true },
    );
    entries += (await log.deleteMany({ day: oldest.day })).deletedCount;
    removed.push(oldest.day);
  }
  return { days: removed, entries };
}

// ---------------------------------------------------------------------------------------------
// Bench and demo data

/**
 * Appends `count` synthetic entries after the current head, in batches (insertMany), spread over `days` days ending at
 * `end`: a chain that verifies, for the load bench (over 1,000,000 entries) and tests. Not for production data.
 */
export async function seedAuditEntries(
  count: number,
  options: { db?: Db; end?: Date; days?: number; batchSize?: number } = {},
): Promise<number> {
  const collection = await auditLog(options.db);
  const end = options.end ?? new Date();
  const days = Math.max(1, options.days ?? 30);
  const batchSize = options.batchSize ?? 5000;
  const start = end.getTime() - days * 86_400_000;
  const step = (days * 86_400_000) / Math.max(1, count);
  const events: AuditEvent[] = ["signIn", "signOut", "dataExported", "dataImported", "accessRefused", "userChanged"];
  const outcomes: AuditOutcome[] = ["ok", "ok", "ok", "failed", "refused"];
  const datasets = ["planning", "forecast", "hr", "product_master", "channel"];
  let head = await chainHead(options.db);
  let written = 0;
  while (written < count) {
    const batch: AuditEntry[] = [];
    for (let i = 0; i < batchSize && written + i < count; i++) {
      const k = written + i;
      const at = new Date(Math.max(start + k * step, head ? Date.parse(`${head.day}T00:00:00Z`) : 0));
      const user = `user${k % 500}@bench.local`;
      const entry = nextEntry(
        head,
        entryBody(
          {
            actor: { email: user, name: `Usuário ${k % 500}`, type: k % 7 === 0 ? "SYSTEM ADMIN" : "USER GOLD" },
            ip: `10.0.${(k >> 8) % 256}.${k % 256}`,
            event: events[k % events.length],
            object: { kind: "dataset", id: datasets[k % datasets.length], label: null },
            dataset: datasets[k % datasets.length],
            outcome: outcomes[k % outcomes.length],
            details: { bench: true, k },
          },
          at,
        ),
      );
      batch.push(entry);
      head = entry;
    }
    await collection.insertMany(batch, { ordered: true });
    written += batch.length;
  }
  return written;
}
