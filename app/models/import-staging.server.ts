import crypto from "node:crypto";
import { MongoBulkWriteError, ObjectId, type Collection, type Db, type Document, type Filter, type WithId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/**
 * Rows of an uploaded file waiting to be applied (the all-or-nothing templates: planning quantities, forecast, ledger,
 * HR, FP&A responsibles, fiscal items). Every valid row of a file is staged first; only when the whole file is valid is
 * it applied to the business collection, and then the staging is dropped.
 *
 * Each file stages into a collection of its own, `import_staging_<file id>`: removing a file's staging is dropping a
 * collection (deleting 300,000 rows one by one took as long as applying them), and its rows need no file field or
 * index. A staged row's _id is the row's key: a second row with the same key collides (a duplicate, refused), and a
 * re-run after a lost lease writes the same ids. Staging left by a job that never finished is dropped by the next
 * import after STAGING_MAX_AGE_MS.
 */

export const IMPORT_STAGING_PREFIX = "import_staging_";
export const STAGING_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export type StagedRow = {
  /** The row's key in the file (its template's key columns). */
  _id: string;
  /** The row's line (CSV) or row number (XLSX). */
  line: number;
  /** The document to apply, in the business collection's shape. */
  d: Record<string, unknown>;
};

export const stagingCollectionOf = (file: ObjectId) => `${IMPORT_STAGING_PREFIX}${file.toHexString()}`;

function staging(db: Db, file: ObjectId): Collection<StagedRow> {
  return db.collection<StagedRow>(stagingCollectionOf(file));
}

/** Drops the file's staging (nothing to do when there is none). */
export async function clearStaged(db: Db, file: ObjectId): Promise<void> {
  try {
    await staging(db, file).drop();
  } catch (error) {
    // "ns not found": the file has no staging
    if ((error as { code?: number }).code !== 26 && !/ns not found|not found/i.test((error as Error).message)) throw error;
  }
}

/** Drops the staging of files whose import started longer than STAGING_MAX_AGE_MS ago and never finished. */
export async function dropStaleStaging(db: Db, now: Date): Promise<number> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.startsWith(IMPORT_STAGING_PREFIX));
  let dropped = 0;
  for (const name of names) {
    const hex = name.slice(IMPORT_STAGING_PREFIX.length);
    if (!ObjectId.isValid(hex) || now.getTime() - new ObjectId(hex).getTimestamp().getTime() < STAGING_MAX_AGE_MS) continue;
    await clearStaged(db, new ObjectId(hex));
    dropped++;
  }
  return dropped;
}

/**
 * Stages rows; returns the rows whose key another line of the same file already holds, with that line. A collision
 * with the same line (a re-run, or the previous owner of a lost lease) is no duplicate.
 */
export async function stageRows(db: Db, file: ObjectId, rows: readonly StagedRow[]): Promise<Array<{ row: StagedRow; otherLine: number }>> {
  if (rows.length === 0) return [];
  const collection = staging(db, file);
  try {
    await collection.insertMany(rows as StagedRow[], { ordered: false });
    return [];
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (errors.length === 0 || !errors.every((e) => e.code === 11000)) throw error;
    const collided = errors.map((e) => rows[e.index]).filter((r): r is StagedRow => r !== undefined);
    const existing = await collection.find({ _id: { $in: collided.map((r) => r._id) } }, { projection: { line: 1 } }).toArray();
    const lineOf = new Map(existing.map((e) => [e._id, e.line]));
    return collided.flatMap((row) => {
      const otherLine = lineOf.get(row._id);
      return otherLine === undefined || otherLine === row.line ? [] : [{ row, otherLine }];
    });
  }
}

/** The staged rows of a file (their key and document), in batches in key order, from one cursor: never the whole file. */
export async function* stagedBatches(db: Db, file: ObjectId, size: number): AsyncGenerator<Array<{ key: string; doc: Record<string, unknown> }>> {
  const cursor = staging(db, file).find({}, { projection: { d: 1 }, batchSize: size }).sort({ _id: 1 });
  let batch: Array<{ key: string; doc: Record<string, unknown> }> = [];
  try {
    for await (const row of cursor) {
      batch.push({ key: row._id, doc: row.d });
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    await cursor.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers for the models' apply functions

/** The key text of a document's key fields (dates by their time), as the apply functions compare them. */
export function keyText(doc: Record<string, unknown>, fields: readonly string[]): string {
  let text = "";
  for (const field of fields) {
    const value = doc[field];
    text += `${value instanceof Date ? value.getTime() : String(value ?? "")}\u0000`;
  }
  return text;
}

/**
 * The id of a row an upload inserts: the file's creation second and 8 bytes of a hash of (file, key). Deterministic,
 * so two workers applying the same file (one of them after losing its lease) insert the same ids, never copies.
 */
export function uploadedRowId(file: ObjectId, key: string): ObjectId {
  const bytes = Buffer.alloc(12);
  file.id.subarray(0, 4).forEach((b, i) => (bytes[i] = b));
  crypto.createHash("sha256").update(file.id).update(key).digest().copy(bytes, 4, 0, 8);
  return new ObjectId(bytes);
}

/**
 * The stored documents whose key is one of `rows`' keys, by key text. One find with `$in` per key field (a superset,
 * narrowed here), served by the collection's index on its key's leading fields.
 */
export async function existingByKey<T extends Document>(
  collection: Collection<T>,
  fields: readonly string[],
  rows: readonly Record<string, unknown>[],
  projection: Record<string, 1>,
): Promise<Map<string, WithId<T>>> {
  if (rows.length === 0) return new Map();
  const filter: Record<string, unknown> = {};
  for (const field of fields) {
    const seen = new Map<string, unknown>();
    for (const row of rows) {
      const value = row[field];
      seen.set(value instanceof Date ? `d${value.getTime()}` : `s${String(value)}`, value);
    }
    filter[field] = { $in: [...seen.values()] };
  }
  const wanted = new Set(rows.map((r) => keyText(r, fields)));
  const found = await collection.find(filter as Filter<T>, { projection }).toArray();
  const byKey = new Map<string, WithId<T>>();
  for (const doc of found) {
    const key = keyText(doc as Record<string, unknown>, fields);
    if (wanted.has(key) && !byKey.has(key)) byKey.set(key, doc);
  }
  return byKey;
}

/** Inserts, ignoring documents already there (the same deterministic id written by an earlier run). */
export async function insertIgnoringDuplicates(collection: Collection<Document>, docs: readonly Document[]): Promise<number> {
  if (docs.length === 0) return 0;
  try {
    return (await collection.insertMany(docs as Document[], { ordered: false })).insertedCount;
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (!errors.every((e) => e.code === 11000)) throw error;
    return error.result.insertedCount;
  }
}

/** The indexes of an upload's NOK collection: a file's rejected rows, and a base narrowed to a file in line order. */
export function nokIndexes(collection: string): IndexDeclaration[] {
  return [
    { collection, key: { sourceFileId: 1 }, options: { name: "sourceFileId" } },
    { collection, key: { urlPath: 1, _id: 1 }, options: { name: "urlPath_id" } },
  ];
}

/** What applying a batch of uploaded rows did. */
export type UploadCounts = { inserted: number; updated: number; unchanged: number; removed: number };

/** Who uploaded and when: stamped on every row an upload writes. */
export type UploadMeta = { db: Db; file: ObjectId; user: string; now: Date };
