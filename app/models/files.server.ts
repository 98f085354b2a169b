import type { Db, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import type { FileClassSource, FileDataClass, FileTarget } from "./files.fields";
import type { IndexDeclaration } from "./indexes";

export { DEFAULT_FILE_TARGET, FILE_TARGETS, type FileTarget, resolveFileTarget } from "./files.fields";

/** Uploaded files; each file is also its processing job (spec 000 §3 "File or job"). */

export const FILES = "files";

/** status 0 is ok, any other value is an error; progress 100 is complete. */
export const FILE_STATUS_OK = 0;
export const FILE_PROGRESS_DONE = 100;

export type FileRecord = {
  _id?: ObjectId;
  originalName: string;
  /** The stored object key: a generated unique name that keeps the original extension. */
  originalFile: string;
  bucket: string;
  /** E-mail of the uploader. */
  user: string;
  clientName: string;
  statusChangeDate: Date;
  createdAt: Date;
  status: number;
  /** 0-100. */
  progress: number;
  message: string;
  agent: string;
  /** Worker lease: while in the future, another worker must not claim the job. */
  leaseUntil: Date | null;
  attempts: number;
  /** What the worker does with it (files.fields.ts); absent on records from before the choice: "data". */
  target?: FileTarget;
  /**
   * Registered by the operator's CLI `import` without `--user`: loaded with the operator's rights (SYSTEM ADMIN's).
   * Set only by server/cli-import.ts, never from a request.
   */
  operator?: true;
  /**
   * An edited export applied by the worker: the screen that shows its report (`<screen>?excel=<id>`), where the
   * screen that queued it sends its user when the job ends.
   */
  resultPath?: string;
  /**
   * What the file holds for whoever reads it back (files.fields.ts): set when it is stored (by the path that stored
   * it, or by the worker as it takes the job); absent on records from before it, which are classified at their first
   * read. Only ever changed towards "hr".
   */
  dataClass?: FileDataClass;
  /**
   * The upload template the uploader named (an upload through the API names one): a file whose header row is another
   * template's is refused. Absent: the header decides, as on /captura/manual.
   */
  dataset?: string;
  /** What decided `dataClass` (files.fields.ts FILE_CLASS_SOURCES). */
  dataClassBy?: FileClassSource;
  /**
   * Rows the job refused (its NOK rows), written when the job ends: a job that ended well with some is "concluído com
   * recusas" in the lists. Absent on records from before it and on jobs not ended.
   */
  nokRows?: number;
};

export const indexes: IndexDeclaration[] = [
  { collection: FILES, key: { statusChangeDate: -1, _id: -1 }, options: { name: "statusChangeDate_desc" } },
  {
    collection: FILES,
    key: { user: 1, statusChangeDate: -1, _id: -1 },
    options: { name: "user_statusChangeDate_desc" },
  },
  { collection: FILES, key: { status: 1, progress: 1, leaseUntil: 1 }, options: { name: "worker_claim" } },
  // One record per stored object: a double submit of /api/files/register cannot create two jobs.
  {
    collection: FILES,
    key: { bucket: 1, originalFile: 1 },
    options: { name: "bucket_originalFile_unique", unique: true },
  },
  // The master-data file filter also takes the name the file was uploaded under.
  { collection: FILES, key: { originalName: 1 }, options: { name: "originalName" } },
  // The progress of a "Tentar novamente todos" batch (file-jobs.server.ts retryBatchProgress).
  { collection: FILES, key: { retryBatch: 1, progress: 1, status: 1 }, options: { name: "retryBatch" } },
  // The failures "Tentar novamente todos" counts and sends back on every user's list (file-jobs.server.ts)…
  { collection: FILES, key: { retryable: 1, status: 1 }, options: { name: "retryable_status" } },
  // …and on one user's: through their list's index it read every job of theirs.
  { collection: FILES, key: { user: 1, status: 1, retryable: 1 }, options: { name: "user_status_retryable" } },
];

export type StoredFileName = Pick<FileRecord, "originalName" | "originalFile" | "bucket">;

/** The upload records of stored objects of one bucket (by the unique `bucket_originalFile` index). */
export async function filesByKeys(bucket: string, keys: readonly string[]): Promise<StoredFileName[]> {
  if (keys.length === 0) return [];
  return (await getDb())
    .collection<FileRecord>(FILES)
    .find(
      { bucket, originalFile: { $in: [...keys] } },
      { projection: { _id: 0, originalName: 1, originalFile: 1, bucket: 1 } },
    )
    .toArray();
}

/** The files uploaded under exactly this name (at most `limit`, by the `originalName` index). */
export async function filesNamed(originalName: string, limit = 50): Promise<StoredFileName[]> {
  return (await getDb())
    .collection<FileRecord>(FILES)
    .find({ originalName }, { projection: { _id: 0, originalName: 1, originalFile: 1, bucket: 1 } })
    .limit(limit)
    .toArray();
}

/** The record of a stored object and its class (absent: not classified yet); null when no upload is that object. */
export async function fileClassOfObject(
  bucket: string,
  key: string,
): Promise<{ id: ObjectId; dataClass: FileDataClass | null } | null> {
  const doc = await (await getDb())
    .collection<FileRecord>(FILES)
    .findOne({ bucket, originalFile: key }, { projection: { _id: 1, dataClass: 1 } });
  if (!doc?._id) return null;
  return { id: doc._id, dataClass: doc.dataClass ?? null };
}

/** The class recorded on a file and what decided it; null while it has none. */
export async function recordedFileClass(
  id: ObjectId,
  db?: Db,
): Promise<{ dataClass: FileDataClass; by: FileClassSource | null } | null> {
  const doc = await (db ?? (await getDb()))
    .collection<FileRecord>(FILES)
    .findOne({ _id: id }, { projection: { dataClass: 1, dataClassBy: 1 } });
  return doc?.dataClass ? { dataClass: doc.dataClass, by: doc.dataClassBy ?? null } : null;
}
