import crypto from "node:crypto";
import os from "node:os";
import { type Db, type Filter, ObjectId } from "mongodb";
import { getConfig } from "~/config.server";
import { getDb, isDuplicateKeyError } from "~/db.server";
import { readPageOrLast } from "~/shared/pagination";
import { RETRY_ADMIN_TYPE } from "~/shared/permissions";
import { countMatching, countMatchingTogether } from "./counting.server";
import { noteDataChanged } from "./dashboard-cache.server";
import { type FileClassification, type FileDataClass, type FileTarget, resolveFileTarget } from "./files.fields";
import { FILE_PROGRESS_DONE, FILE_STATUS_OK, FILES, type FileRecord } from "./files.server";
import { aggregateTogether } from "./reads-together.server";

/**
 * Files as processing jobs: registration after an upload, the worker's claim / lease / progress /
 * finish protocol, retries, the paged lists and the orphan sweep.
 *
 * Lease protocol: a claim sets `leaseUntil`, `agent` and increments `attempts` in one
 * findOneAndUpdate. The pair (agent, attempts) identifies that claim; every later write of the
 * worker (progress, finish) is conditional on it, so a worker whose lease was taken over can
 * never overwrite the new owner's state or finish the file a second time.
 */

/** Non-zero statuses the worker sets (status 0 is ok). */
export const FILE_STATUS_UNKNOWN_LAYOUT = 2;
export const FILE_STATUS_UNREADABLE = 3;

export const DEFAULT_LEASE_MS = 60_000;
export const PAGE_SIZES = [20, 40] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/**
 * retryBase = attempts at the last retry, so the give-up limit counts claims since then. retryable: written with a
 * failure by the worker (finishJob), true when sending the same file again can succeed (see isRetryableFailure).
 */
type FileDoc = FileRecord & {
  retriedBy?: string;
  retriedAt?: Date;
  retryCount?: number;
  retryBase?: number;
  retryable?: boolean;
  /** The last "Tentar novamente todos" that sent the job back (retryFailedJobs). */
  retryBatch?: string;
  /** The claim (`attempts`) whose ending was notified (one notice per ending: claimJobEndingNotice). */
  notifiedEnding?: number;
  /** On a batch's first job: the batch whose summary was told (claimRetryBatchSummary). */
  batchSummarized?: string;
  /** The claim (`attempts`) that last began writes no later run can take back (markApplyBegun). */
  applyBegan?: number;
  /** When the job was given up (finishJob `givenUp`): its rows are removed again after a grace period; a claim clears it. */
  givenUpAt?: Date;
};

/**
 * Whether "Tentar novamente" may send a job back: a failure the same file can get past (the worker died with it,
 * its reading stalled, the storage did not answer), never a refusal of the file itself (unknown layout, NOK rows of an
 * all-or-nothing file, no rights, a size cap, an unreadable or unsupported file). The worker says which when it ends
 * the job (`retryable`); a failure recorded before it said so is retryable when its status is 3, as every failure was
 * before (statuses 2 and 4 are refusals by their meaning).
 */
export function isRetryableFailure(job: { status: number; retryable?: boolean | null }): boolean {
  if (job.status === FILE_STATUS_OK) return false;
  if (typeof job.retryable === "boolean") return job.retryable;
  return job.status === FILE_STATUS_UNREADABLE;
}

/**
 * The filter form of isRetryableFailure (the retry's update matches only such a job). Each branch of the $or holds its
 * status, so each is served by an index when "Tentar novamente todos" counts the failures of every user
 * (retryable_status) or of one (user_status_retryable).
 */
const RETRYABLE_FAILURE: Filter<FileDoc> = {
  $or: [
    { retryable: true, status: { $ne: FILE_STATUS_OK } },
    { retryable: { $exists: false }, status: FILE_STATUS_UNREADABLE },
  ],
};

async function files(db?: Db) {
  return (db ?? (await getDb())).collection<FileDoc>(FILES);
}

export type RegisterFileInput = {
  originalName: string;
  /** The stored key (srcKey). */
  key: string;
  bucket: string;
  /** E-mail of the signed-in uploader; never taken from a request body. */
  user: string;
  /** The upload's "Tipo de carga" (validated by the route); absent → data. Stored resolved (resolveFileTarget). */
  target?: FileTarget;
  /** The operator's CLI import without --user (FileRecord.operator); no request path sets it. */
  operator?: true;
  /** What the file holds, when the path that stores it knows (FileRecord.dataClass); else the worker decides. */
  dataClass?: FileClassification;
  /** The template the uploader named (FileRecord.dataset). */
  dataset?: string;
};

/** The stored object already has a file record (a second registration of the same upload). */
export class FileAlreadyRegisteredError extends Error {
  constructor(bucket: string, key: string) {
    super(`Already registered: ${bucket}/${key}`);
    this.name = "FileAlreadyRegisteredError";
  }
}

/**
 * Inserts the file as a new job: status 0, progress 0. Returns its id. The unique index on
 * (bucket, originalFile) makes an upload single-use: registering the same object twice throws
 * FileAlreadyRegisteredError instead of creating a second job.
 */
export async function registerFile(input: RegisterFileInput): Promise<ObjectId> {
  const now = new Date();
  const doc: FileDoc = {
    originalName: input.originalName,
    originalFile: input.key,
    bucket: input.bucket,
    user: input.user,
    clientName: getConfig().tenantId,
    statusChangeDate: now,
    createdAt: now,
    status: FILE_STATUS_OK,
    progress: 0,
    message: "",
    agent: "",
    leaseUntil: null,
    attempts: 0,
    target: resolveFileTarget(input.target, input.originalName),
    ...(input.operator ? { operator: true as const } : {}),
    ...(input.dataset ? { dataset: input.dataset } : {}),
    ...(input.dataClass ? { dataClass: input.dataClass.dataClass, dataClassBy: input.dataClass.by } : {}),
  };
  try {
    const result = await (await files()).insertOne(doc);
    await noteDataChanged([FILES]);
    return result.insertedId;
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new FileAlreadyRegisteredError(input.bucket, input.key);
    throw error;
  }
}

/**
 * Registers a stored object; if registration fails, the object is deleted so no orphan is left,
 * and the registration error is rethrown. An object that is already registered is kept (it
 * belongs to the existing job).
 */
export async function registerStoredObject(
  input: RegisterFileInput,
  deleteStored: () => Promise<void>,
): Promise<ObjectId> {
  try {
    return await registerFile(input);
  } catch (error) {
    if (error instanceof FileAlreadyRegisteredError) throw error;
    await deleteStored().catch(() => undefined); // the sweeper removes it later if this fails too
    throw error;
  }
}

/** How a claimed job ended: every kind of upload job (the ingest names it `IngestOutcome`). */
export type JobEnding =
  | {
      kind: "done";
      status: number;
      message: string;
      okRows: number;
      nokRows: number;
      /** The template (or returned export's dataset) the file was read as, and a refusal for the uploader's rights. */
      template?: string;
      refused?: true;
    }
  | { kind: "lease-lost" };

export type JobClaim = {
  id: ObjectId;
  agent: string;
  /** Claim counter; (agent, attempts) identifies this claim. */
  attempts: number;
  /** Claims since the job was last sent back by a retry (or since registration). */
  attemptsSinceRetry: number;
  originalName: string;
  originalFile: string;
  bucket: string;
  user: string;
  /** What to do with the file (resolved again: records from before the choice carry none). */
  target: FileTarget;
  /** Loaded with the operator's rights (FileRecord.operator). */
  operator: boolean;
  /** What the file holds, if already decided (FileRecord.dataClass). */
  dataClass: FileDataClass | null;
  /** The template the uploader named, if any (FileRecord.dataset). */
  dataset: string | null;
  /** A claim of this file began writes no later run can take back (markApplyBegun): the data may hold part of it. */
  applyBegan: boolean;
};

export function defaultWorkerName(): string {
  return `worker@${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
}

/** Atomically takes the oldest waiting job whose lease is absent or expired. */
export async function claimNextJob(options: {
  agent: string;
  leaseMs?: number;
  now?: Date;
  /** Only this file, if it is still waiting (the CLI's `import` of the file it just registered). */
  only?: ObjectId;
}): Promise<JobClaim | null> {
  const now = options.now ?? new Date();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const doc = await (await files()).findOneAndUpdate(
    {
      ...(options.only ? { _id: options.only } : {}),
      status: FILE_STATUS_OK,
      progress: { $lt: FILE_PROGRESS_DONE },
      $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
    },
    {
      $set: {
        leaseUntil: new Date(now.getTime() + leaseMs),
        agent: options.agent,
        statusChangeDate: now,
        message: "Processando",
      },
      $inc: { attempts: 1 },
      $unset: { givenUpAt: "" },
    },
    { sort: { createdAt: 1, _id: 1 }, returnDocument: "after" },
  );
  if (!doc?._id) return null;
  await noteDataChanged([FILES]);
  return {
    id: doc._id,
    agent: options.agent,
    attempts: doc.attempts,
    attemptsSinceRetry: doc.attempts - (doc.retryBase ?? 0),
    originalName: doc.originalName,
    originalFile: doc.originalFile,
    bucket: doc.bucket,
    user: doc.user,
    target: resolveFileTarget(doc.target, doc.originalName),
    operator: doc.operator === true,
    dataClass: doc.dataClass ?? null,
    dataset: typeof doc.dataset === "string" ? doc.dataset : null,
    applyBegan: typeof doc.applyBegan === "number",
  };
}

/**
 * Records what the file holds and returns the class it has now. A class only moves towards "hr": "plain" is written
 * only to a file that has none yet, "hr" over anything, so a later read never makes an HR file plain again.
 */
export async function recordFileClass(fileId: ObjectId, found: FileClassification): Promise<FileDataClass> {
  const collection = await files();
  const filter: Filter<FileDoc> =
    found.dataClass === "hr"
      ? { _id: fileId, dataClass: { $ne: "hr" } }
      : { _id: fileId, dataClass: { $exists: false } };
  const result = await collection.updateOne(filter, { $set: { dataClass: found.dataClass, dataClassBy: found.by } });
  if (result.matchedCount === 1) return found.dataClass;
  const now = await collection.findOne({ _id: fileId }, { projection: { dataClass: 1 } });
  return now?.dataClass ?? found.dataClass;
}

/** Claims whose job was announced as running (see reportProgress). */
const announcedRunning = new WeakSet<JobClaim>();

function heldBy(claim: JobClaim): Filter<FileDoc> {
  return {
    _id: claim.id,
    agent: claim.agent,
    attempts: claim.attempts,
    status: FILE_STATUS_OK,
    progress: { $lt: FILE_PROGRESS_DONE },
  };
}

/**
 * The worker's heartbeat: progress, message, statusChangeDate and the lease in one write (the agent was set
 * by the claim, and the filter only matches while it holds). False
 * when the claim was lost (another worker took over).
 */
export async function reportProgress(
  claim: JobClaim,
  update: { progress: number; message: string; leaseMs?: number; now?: Date },
): Promise<boolean> {
  const now = update.now ?? new Date();
  const progress = Math.max(0, Math.min(99, Math.floor(update.progress)));
  const result = await (await files()).updateOne(heldBy(claim), {
    $set: {
      progress,
      message: update.message,
      statusChangeDate: now,
      leaseUntil: new Date(now.getTime() + (update.leaseMs ?? DEFAULT_LEASE_MS)),
    },
  });
  // The dashboards tell a waiting job (progress 0) from a running one: its first progress is announced once;
  // the heartbeats after it (every second) are not, or the job dashboards would be recomputed on every view.
  if (result.matchedCount === 1 && progress > 0 && !announcedRunning.has(claim)) {
    announcedRunning.add(claim);
    await noteDataChanged([FILES]);
  }
  return result.matchedCount === 1;
}

/**
 * Records, while the claim holds, that it begins writes no later run can take back (a dataset's upsert or replace, an
 * edited export, an explorer document, a report package). False when the claim was lost. A job given up afterwards
 * says the data may hold part of the file; nothing clears it, as only a finished apply (which ends the job) makes it
 * whole.
 */
export async function markApplyBegun(claim: JobClaim): Promise<boolean> {
  const result = await (await files()).updateOne(heldBy(claim), { $set: { applyBegan: claim.attempts } });
  return result.matchedCount === 1;
}

/**
 * Whether the claim still holds the job (no later claim, not ended): checked before a write a stale claimer must not
 * make (an insert batch, a discard). Cheap: one indexed read by _id.
 */
export async function holdsClaim(claim: JobClaim): Promise<boolean> {
  return (await (await files()).countDocuments(heldBy(claim), { limit: 1 })) > 0;
}

/**
 * Completes the job (progress 100) if the claim is still held; false otherwise. A failure (status ≠ 0) records
 * whether a retry can succeed (`retryable`, false unless the caller says so); `givenUp` records when, for the
 * removal of late rows (givenUpFilesBefore).
 */
export async function finishJob(
  claim: JobClaim,
  outcome: { status: number; message: string; now?: Date; retryable?: boolean; nokRows?: number; givenUp?: boolean },
): Promise<boolean> {
  const at = outcome.now ?? new Date();
  const result = await (await files()).updateOne(heldBy(claim), {
    $set: {
      ...(outcome.givenUp ? { givenUpAt: at } : {}),
      status: outcome.status,
      nokRows: outcome.nokRows ?? 0,
      retryable: outcome.status !== FILE_STATUS_OK && outcome.retryable === true,
      progress: FILE_PROGRESS_DONE,
      message: outcome.message,
      statusChangeDate: at,
      leaseUntil: null,
    },
  });
  if (result.matchedCount === 1) await noteDataChanged([FILES]);
  return result.matchedCount === 1;
}

/**
 * Takes the right to notify the ending of the claim's job: true once per ending, for the claim that
 * finished it; false when it is already taken (the same ending handled twice) or the job is not ended by this claim.
 * Returns the ended job's status, message and whether a retry can succeed.
 */
export async function claimJobEndingNotice(claim: Pick<JobClaim, "id" | "agent" | "attempts">): Promise<{
  status: number;
  message: string;
  retryable: boolean;
  /** Who last sent the job back ("Tentar novamente"), and the "Tentar novamente todos" it was part of. */
  retriedBy: string | null;
  retryBatch: string | null;
} | null> {
  const doc = await (await files()).findOneAndUpdate(
    {
      _id: claim.id,
      agent: claim.agent,
      attempts: claim.attempts,
      progress: FILE_PROGRESS_DONE,
      notifiedEnding: { $ne: claim.attempts },
    },
    { $set: { notifiedEnding: claim.attempts } },
    { returnDocument: "after", projection: { status: 1, message: 1, retryable: 1, retriedBy: 1, retryBatch: 1 } },
  );
  if (!doc) return null;
  return {
    status: doc.status,
    message: String(doc.message ?? ""),
    retryable: doc.retryable === true,
    retriedBy: typeof doc.retriedBy === "string" ? doc.retriedBy : null,
    retryBatch: typeof doc.retryBatch === "string" ? doc.retryBatch : null,
  };
}

export type RetryDecision =
  | { ok: true }
  | { ok: false; reason: "invalid-id" | "not-found" | "forbidden" | "not-failed" | "not-retryable" };

/**
 * Sends a failed job back to the workers. Only the uploader or a SYSTEM ADMIN may, and only a failure a retry can get
 * past (isRetryableFailure): a refused file would only be refused again. The decision (who, when) is recorded on the
 * file as retriedBy / retriedAt.
 */
export async function retryJob(
  fileId: string | ObjectId,
  user: { email: string; type: string },
): Promise<RetryDecision> {
  if (typeof fileId === "string" && !ObjectId.isValid(fileId)) return { ok: false, reason: "invalid-id" };
  const id = typeof fileId === "string" ? new ObjectId(fileId) : fileId;
  const collection = await files();
  const current = await collection.findOne(
    { _id: id },
    { projection: { user: 1, status: 1, attempts: 1, retryable: 1 } },
  );
  if (!current) return { ok: false, reason: "not-found" };
  if (current.user !== user.email && user.type !== RETRY_ADMIN_TYPE) return { ok: false, reason: "forbidden" };
  if (current.status === FILE_STATUS_OK) return { ok: false, reason: "not-failed" };
  if (!isRetryableFailure(current)) return { ok: false, reason: "not-retryable" };
  const now = new Date();
  const result = await collection.updateOne(
    { _id: id, ...RETRYABLE_FAILURE },
    {
      $set: {
        status: FILE_STATUS_OK,
        progress: 0,
        message: "",
        agent: "",
        leaseUntil: null,
        statusChangeDate: now,
        retriedBy: user.email,
        retriedAt: now,
        retryBase: current.attempts ?? 0,
      },
      // A single retry is no longer part of the batch that last sent the job back (its notice is its own).
      $unset: { retryable: "", retryBatch: "" },
      $inc: { retryCount: 1 },
    },
  );
  // Changed in between (another retry, or the job ended otherwise): what it is now decides.
  if (result.matchedCount !== 1) return { ok: false, reason: "not-failed" };
  await noteDataChanged([FILES]);
  return { ok: true };
}

/**
 * The jobs one "Tentar novamente todos" sends back: the failures a retry can get past (isRetryableFailure) among those
 * the list shows (`user`: the list's own filter, /captura/processando's uploader; none for every user's list), limited
 * by the retry rule: a viewer who is not a SYSTEM ADMIN only their own.
 */
function retryAllFilter(list: { user?: string }, viewer: { email: string; type: string }): Filter<FileDoc> | null {
  let user = typeof list.user === "string" ? list.user : undefined;
  if (viewer.type !== RETRY_ADMIN_TYPE) {
    if (user !== undefined && user !== viewer.email) return null;
    user = viewer.email;
  }
  if (user === undefined) return { ...RETRYABLE_FAILURE };
  // The user inside each branch: each is then one range of user_status_retryable (beside the $or, a user's every job
  // was read through their list's index).
  return { $or: (RETRYABLE_FAILURE.$or ?? []).map((branch) => ({ ...branch, user })) };
}

/** How many jobs "Tentar novamente todos" would send back now (the confirmation names it). */
export async function countRetryableJobs(
  list: { user?: string },
  viewer: { email: string; type: string },
): Promise<number> {
  const filter = retryAllFilter(list, viewer);
  return filter ? countMatchingTogether(await files(), filter) : 0;
}

/** A batch of "Tentar novamente todos": 16 hex digits, in the list's URL (`lote`) while its progress is shown. */
export const RETRY_BATCH_PATTERN = /^[0-9a-f]{16}$/;
/** The job lists' parameter naming the batch whose progress they show. */
export const RETRY_BATCH_PARAM = "lote";
/** The job lists' parameter naming one file (a notice's "Abrir"): the list opens on its page, its row marked. */
export const JOB_FILE_PARAM = "arquivo";

/**
 * Where the job `id` stands in its list (0: first), newest status change first as the lists sort; null when the id is
 * malformed, unknown, or not in the list (`user` restricts it to one uploader, from the viewer's session).
 */
export async function jobListPosition(id: string, options: { user?: string }): Promise<number | null> {
  if (!/^[0-9a-fA-F]{24}$/.test(id)) return null;
  const _id = ObjectId.createFromHexString(id);
  const own: Filter<FileDoc> = typeof options.user === "string" ? { user: options.user } : {};
  const collection = await files();
  const job = await collection.findOne({ _id, ...own }, { projection: { statusChangeDate: 1 } });
  if (!job) return null;
  return countMatching(collection, {
    ...own,
    $or: [
      { statusChangeDate: { $gt: job.statusChangeDate } },
      { statusChangeDate: job.statusChangeDate, _id: { $gt: _id } },
    ],
  });
}

/**
 * Sends every job of retryAllFilter back to the workers in one server-side updateMany: the same transition and record
 * as retryJob, per job atomically from the failed state, so a job already sent back (a second press, another admin)
 * or running is not matched and never queued twice. The jobs are marked with the batch (`retryBatch`) whose progress
 * the list then shows. Returns the batch and how many jobs it holds.
 */
export async function retryFailedJobs(
  list: { user?: string },
  viewer: { email: string; type: string },
): Promise<{ batch: string; retried: number }> {
  const batch = crypto.randomBytes(8).toString("hex");
  const filter = retryAllFilter(list, viewer);
  if (!filter) return { batch, retried: 0 };
  const now = new Date();
  const result = await (await files()).updateMany(filter, [
    {
      $set: {
        status: FILE_STATUS_OK,
        progress: 0,
        message: "",
        agent: "",
        leaseUntil: null,
        statusChangeDate: now,
        retriedBy: { $literal: viewer.email },
        retriedAt: now,
        retryBase: { $ifNull: ["$attempts", 0] },
        retryCount: { $add: [{ $ifNull: ["$retryCount", 0] }, 1] },
        retryBatch: batch,
      },
    },
    { $unset: "retryable" },
  ]);
  if (result.modifiedCount > 0) await noteDataChanged([FILES]);
  return { batch, retried: result.modifiedCount };
}

/** Where a batch of "Tentar novamente todos" stands: its jobs, those ended (progress 100) and those failed again. */
export async function retryBatchProgress(
  batch: string,
): Promise<{ total: number; finished: number; failed: number } | null> {
  if (!RETRY_BATCH_PATTERN.test(batch)) return null;
  const collection = await files();
  const [total, finished, failed] = await Promise.all([
    countMatching(collection, { retryBatch: batch }),
    countMatching(collection, { retryBatch: batch, progress: FILE_PROGRESS_DONE }),
    countMatching(collection, { retryBatch: batch, progress: FILE_PROGRESS_DONE, status: { $ne: FILE_STATUS_OK } }),
  ]);
  return total === 0 ? null : { total, finished, failed };
}

/**
 * Where a finished "Tentar novamente todos" stands, for the one caller that takes the right to tell it: null while any
 * of its jobs runs, and to every caller after the first (the mark is on the batch's first job, one atomic update).
 */
export async function claimRetryBatchSummary(batch: string): Promise<{ total: number; failed: number } | null> {
  const progress = await retryBatchProgress(batch);
  if (!progress || progress.finished < progress.total) return null;
  const collection = await files();
  const first = await collection.findOne({ retryBatch: batch }, { sort: { _id: 1 }, projection: { _id: 1 } });
  if (!first) return null;
  const claimed = await collection.updateOne(
    { _id: first._id, retryBatch: batch, batchSummarized: { $ne: batch } },
    { $set: { batchSummarized: batch } },
  );
  return claimed.modifiedCount === 1 ? { total: progress.total, failed: progress.failed } : null;
}

/** A job of a "Tentar novamente todos", as its summaries list it. */
export type RetryBatchJob = {
  id: ObjectId;
  originalName: string;
  user: string;
  /** Registered by the operator's CLI import without --user: it has no uploader to tell. */
  operator: boolean;
  status: number;
  nokRows: number;
  retryable: boolean;
};

/** The jobs of a batch in the order they were registered (the summaries of its end list them). */
export async function listRetryBatchJobs(batch: string): Promise<RetryBatchJob[]> {
  if (!RETRY_BATCH_PATTERN.test(batch)) return [];
  const docs = await (await files())
    .find(
      { retryBatch: batch },
      { projection: { originalName: 1, user: 1, operator: 1, status: 1, nokRows: 1, retryable: 1 } },
    )
    .toArray();
  return docs
    .sort((a, b) => a._id.toHexString().localeCompare(b._id.toHexString()))
    .map((doc) => ({
      id: doc._id,
      originalName: String(doc.originalName ?? ""),
      user: String(doc.user ?? ""),
      operator: doc.operator === true,
      status: doc.status,
      nokRows: Number(doc.nokRows) || 0,
      retryable: doc.retryable === true,
    }));
}

export type FileListItem = {
  id: string;
  originalName: string;
  originalFile: string;
  bucket: string;
  user: string;
  statusChangeDate: Date;
  createdAt: Date;
  status: number;
  progress: number;
  message: string;
  agent: string;
  /** A failure "Tentar novamente" can get past (isRetryableFailure); false for a job that did not fail. */
  retryable: boolean;
  /** Rows the ended job refused (FileRecord.nokRows); 0 when none or not known. */
  nokRows: number;
  /** The job recorded `nokRows` as it ended (not a record from before the count, nor a job still under way). */
  nokRowsRecorded: boolean;
};

export type FilesPage = { items: FileListItem[]; total: number; page: number; pageSize: PageSize; pageCount: number };

export function isPageSize(value: unknown): value is PageSize {
  return (PAGE_SIZES as readonly unknown[]).includes(value);
}

/**
 * One page of files/jobs, newest status change first, and the total in the same call.
 * `user` restricts the list to one uploader (an e-mail from the session, never from the query).
 * A page past the end answers the last page (as the user lists do): a stale link, or a list that
 * shrank, never shows an empty table while there are jobs.
 */
export async function listFilesPage(options: { page: number; pageSize: number; user?: string }): Promise<FilesPage> {
  const pageSize: PageSize = isPageSize(options.pageSize) ? options.pageSize : 20;
  const requested = Number.isSafeInteger(options.page) && options.page >= 1 ? options.page : 1;
  const filter: Filter<FileDoc> = typeof options.user === "string" ? { user: options.user } : {};
  const collection = await files();
  // The page, its count and the list's retry count (countRetryableJobs) go to the database together.
  const readPage = (page: number) =>
    aggregateTogether<FileDoc>(FILES, [
      { $match: filter },
      { $sort: { statusChangeDate: -1, _id: -1 } },
      { $skip: (page - 1) * pageSize },
      { $limit: pageSize },
      {
        $project: {
          originalName: 1,
          originalFile: 1,
          bucket: 1,
          user: 1,
          statusChangeDate: 1,
          createdAt: 1,
          status: 1,
          progress: 1,
          message: 1,
          agent: 1,
          retryable: 1,
          nokRows: 1,
        },
      },
    ]);
  const { rows, total, page, pageCount } = await readPageOrLast(requested, pageSize, readPage, () =>
    countMatchingTogether(collection, filter),
  );
  return {
    items: rows.map(toListItem),
    total,
    page,
    pageSize,
    pageCount,
  };
}

/** What the upload list of /captura/manual shows of the jobs of its files. */
export type JobOutcome = Pick<FileListItem, "id" | "status" | "progress" | "message" | "retryable" | "nokRows">;

/** Most jobs one look-up of the upload list reads (its files of one visit). */
export const MAX_JOB_OUTCOMES = 40;

/**
 * The state of these jobs, only those `user` uploaded (an e-mail from the session): the upload list follows the files
 * it sent until their jobs end. Ids that are malformed, unknown or another's are left out; at most MAX_JOB_OUTCOMES.
 */
export async function jobOutcomesOf(ids: readonly string[], user: string): Promise<JobOutcome[]> {
  const valid = [...new Set(ids)].filter((id) => /^[0-9a-fA-F]{24}$/.test(id)).slice(0, MAX_JOB_OUTCOMES);
  if (valid.length === 0) return [];
  const docs = await (await files())
    .find(
      { _id: { $in: valid.map((id) => ObjectId.createFromHexString(id)) }, user },
      { projection: { status: 1, progress: 1, message: 1, retryable: 1, nokRows: 1 } },
    )
    .toArray();
  return docs.map((d) => ({
    id: String(d._id),
    status: d.status,
    progress: d.progress,
    message: d.message ?? "",
    retryable: isRetryableFailure(d),
    nokRows: typeof d.nokRows === "number" ? d.nokRows : 0,
  }));
}

/** One job as its uploader follows it from a screen; null when the id is malformed, unknown or another's. */
export async function ownJobState(
  id: string,
  user: string,
): Promise<{ status: number; progress: number; message: string; resultPath: string | null } | null> {
  if (!/^[0-9a-fA-F]{24}$/.test(id)) return null;
  const doc = await (await files()).findOne(
    { _id: ObjectId.createFromHexString(id), user },
    { projection: { status: 1, progress: 1, message: 1, resultPath: 1 } },
  );
  if (!doc) return null;
  return { status: doc.status, progress: doc.progress, message: doc.message ?? "", resultPath: doc.resultPath ?? null };
}

/** Records, while the claim holds, where a finished edited export's report is shown (FileRecord.resultPath). */
export async function recordResultPath(claim: JobClaim, resultPath: string): Promise<boolean> {
  const result = await (await files()).updateOne(heldBy(claim), { $set: { resultPath } });
  return result.matchedCount === 1;
}

/**
 * Given-up jobs not claimed since, given up at or before `cutoff` (served by `retryable_status`: a given-up job is a
 * retryable failure until it is sent back).
 */
export async function givenUpFilesBefore(cutoff: Date): Promise<Array<{ id: ObjectId; givenUpAt: Date }>> {
  const found = await (await files())
    .find(
      { retryable: true, status: FILE_STATUS_UNREADABLE, givenUpAt: { $lte: cutoff } },
      { projection: { givenUpAt: 1 } },
    )
    .toArray();
  return found.map((f) => ({ id: f._id, givenUpAt: f.givenUpAt as Date }));
}

/** Takes the removal of a given-up job's late rows; false when a claim came meanwhile (or another sweep took it). */
export async function clearGivenUp(fileId: ObjectId, givenUpAt: Date): Promise<boolean> {
  const result = await (await files()).updateOne({ _id: fileId, givenUpAt }, { $unset: { givenUpAt: "" } });
  return result.modifiedCount === 1;
}

export async function countFiles(user?: string): Promise<number> {
  return countMatching(await files(), typeof user === "string" ? { user } : {});
}

/** The record a download needs, by id. */
export async function findFileForDownload(fileId: string): Promise<
  | (Pick<FileListItem, "id" | "originalName" | "originalFile" | "bucket" | "user"> & {
      dataClass: FileDataClass | null;
    })
  | null
> {
  if (!ObjectId.isValid(fileId)) return null;
  const doc = await (await files()).findOne(
    { _id: new ObjectId(fileId) },
    { projection: { originalName: 1, originalFile: 1, bucket: 1, user: 1, dataClass: 1 } },
  );
  if (!doc) return null;
  return {
    id: String(doc._id),
    originalName: doc.originalName,
    originalFile: doc.originalFile,
    bucket: doc.bucket,
    user: doc.user,
    dataClass: doc.dataClass ?? null,
  };
}

export async function findFileById(fileId: ObjectId): Promise<FileDoc | null> {
  return (await files()).findOne({ _id: fileId });
}

/** True when some file record points at this stored key in this bucket. */
export async function isKeyRegistered(bucket: string, key: string): Promise<boolean> {
  return (await (await files()).countDocuments({ bucket, originalFile: key }, { limit: 1 })) > 0;
}

/** Any job still waiting or being processed (the job lists poll while this is true). */
export async function hasActiveJobs(user?: string): Promise<boolean> {
  const filter: Filter<FileDoc> = { status: FILE_STATUS_OK, progress: { $lt: FILE_PROGRESS_DONE } };
  if (typeof user === "string") filter.user = user;
  return (await (await files()).countDocuments(filter, { limit: 1 })) > 0;
}

export const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * Deletes local objects older than `olderThanMs` (default 1 h) that no file record points at,
 * and partial writes abandoned that long. Returns the removed keys.
 */
export async function sweepOrphanUploads(options: { olderThanMs?: number; now?: Date } = {}): Promise<string[]> {
  const { getLocalStore, isStorageKey, LOCAL_BUCKET } = await import("~/services/storage.server");
  const store = getLocalStore();
  const cutoff = (options.now ?? new Date()).getTime() - (options.olderThanMs ?? ORPHAN_AGE_MS);
  const removed: string[] = [];
  for await (const entry of store.list()) {
    if (entry.modifiedAt.getTime() > cutoff) continue;
    // Only upload keys (yyyy/mm/uuid.ext) are swept: documents the portal writes itself live under other prefixes.
    if (!entry.partial && !isStorageKey(entry.key)) continue;
    if (entry.partial) {
      await store.deletePartial(entry.key);
      removed.push(entry.key);
    } else if (!(await isKeyRegistered(LOCAL_BUCKET, entry.key))) {
      await store.delete(entry.key);
      removed.push(entry.key);
    }
  }
  return removed;
}

/** What the API's job list filters by: a job that ended well, one waiting or running, one that failed or was refused. */
export const JOB_STATES = ["completed", "running", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export function jobStateOf(job: { status: number; progress: number }): JobState {
  if (job.status !== FILE_STATUS_OK) return "failed";
  return job.progress >= FILE_PROGRESS_DONE ? "completed" : "running";
}

const STATE_FILTERS: Record<JobState, Filter<FileDoc>> = {
  completed: { status: FILE_STATUS_OK, progress: { $gte: FILE_PROGRESS_DONE } },
  running: { status: FILE_STATUS_OK, progress: { $lt: FILE_PROGRESS_DONE } },
  failed: { status: { $ne: FILE_STATUS_OK } },
};

/** Where a page of the keyset list starts: after the job with this status change and id. */
export type JobCursor = { at: Date; id: ObjectId };

/**
 * Jobs newest status change first, from `after` on (a cursor, never an offset: a page stays correct while jobs move),
 * at most `limit` plus one (the caller learns whether there is more). `user` restricts to one uploader (from the
 * caller's identity, never from the query).
 */
export async function listJobsByCursor(options: {
  user?: string;
  state?: JobState;
  since?: Date;
  after?: JobCursor;
  limit: number;
}): Promise<FileListItem[]> {
  const and: Filter<FileDoc>[] = [];
  if (typeof options.user === "string") and.push({ user: options.user });
  if (options.state) and.push(STATE_FILTERS[options.state]);
  if (options.since) and.push({ statusChangeDate: { $gte: options.since } });
  if (options.after)
    and.push({
      $or: [
        { statusChangeDate: { $lt: options.after.at } },
        { statusChangeDate: options.after.at, _id: { $lt: options.after.id } },
      ],
    });
  const docs = await (await files())
    .find(and.length > 0 ? { $and: and } : {})
    .sort({ statusChangeDate: -1, _id: -1 })
    .limit(options.limit + 1)
    .toArray();
  return docs.map(toListItem);
}

/** A file record as the job lists (and the API's jobs) show it. */
export function toListItem(d: FileDoc): FileListItem {
  return {
    id: String(d._id),
    originalName: d.originalName,
    originalFile: d.originalFile,
    bucket: d.bucket,
    user: d.user,
    statusChangeDate: d.statusChangeDate,
    createdAt: d.createdAt,
    status: d.status,
    progress: d.progress,
    message: d.message ?? "",
    agent: d.agent ?? "",
    retryable: isRetryableFailure(d),
    nokRows: typeof d.nokRows === "number" ? d.nokRows : 0,
    nokRowsRecorded: typeof d.nokRows === "number",
  };
}
