import crypto from "node:crypto";
import {
  type Collection,
  type Db,
  type Document,
  type Filter,
  MongoBulkWriteError,
  ObjectId,
  type WithId,
} from "mongodb";
import type { IndexDeclaration } from "./indexes";

/**
 * What the models' apply functions of the all-or-nothing upload templates share (planning quantities, forecast,
 * ledger, HR, FP&A responsibles, fiscal items): the rows' key text, deterministic ids, the stored rows of a batch's
 * keys, inserts that tolerate a re-run, and the NOK collections' indexes. The rows themselves wait in the worker's
 * spool until the whole file is checked (app/features/uploads-and-jobs/import/datasets/spool.server.ts).
 */

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
  const bytes = Buffer.allocUnsafe(12);
  bytes.set(file.id.subarray(0, 4), 0);
  // The one-shot hash: a Hash object per row costs more.
  crypto.hash("sha256", `${file.toHexString()}\u0000${key}`, "buffer").copy(bytes, 4, 0, 8);
  return new ObjectId(bytes);
}

/**
 * The stored documents whose key is one of `rows`' keys, by key text. One find with `$in` per key field (a superset,
 * narrowed here), served by the collection's index on its key's leading fields; none when the upload is `fresh`.
 */
export async function existingByKey<T extends Document>(
  collection: Collection<T>,
  fields: readonly string[],
  rows: readonly Record<string, unknown>[],
  projection: Record<string, 1>,
  meta: Pick<UploadMeta, "fresh">,
): Promise<Map<string, WithId<T>>> {
  if (rows.length === 0 || meta.fresh) return new Map();
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
export async function insertIgnoringDuplicates(
  collection: Collection<Document>,
  docs: readonly Document[],
): Promise<number> {
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

/**
 * Who uploaded and when: stamped on every row an upload writes. `fresh`: the collection held no row with any of the
 * file's values of its key's first field when the apply began, so every row is new and no key is looked up.
 */
export type UploadMeta = { db: Db; file: ObjectId; user: string; now: Date; fresh?: boolean };
