/**
 * The entries of an ordered index: a key's values then the document's id key, or the document itself (IndexEntry),
 * and the order of entries whose keys are equal.
 */
import { coldState, warm } from "../cold";
import { isPacked } from "../object-id";
import { type Doc, keyOf } from "../values";

/**
 * One key of one document in an ordered index: the key's value for each field, in the index's order, then the
 * document's id key (keyOf of its `_id`), or the document itself in an index that keeps documents (Index: "Entries
 * that are documents"), in one array. (A wrapper object around a key array made three heap objects per entry; the
 * indexes hold tens of millions of entries at scale 10, and every full collection of the heap walks them all.)
 * `Index.keyIn(entry)` gives the key as the comparisons take it, `entryId(entry)` the id key.
 */
export type IndexEntry = unknown[];

export function entryId(entry: IndexEntry): string {
  const last = entry[entry.length - 1];
  return typeof last === "string" ? last : keyOf((last as Doc)._id);
}

/**
 * The document an entry holds (an index that keeps documents: the stored version or an older one, see
 * Collection.currentOf), else undefined.
 */
export function entryDoc(entry: IndexEntry): Doc | undefined {
  const last = entry[entry.length - 1];
  if (typeof last === "string") return undefined;
  if (coldState.count !== 0) warm(last as Doc);
  return last as Doc;
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order of entries with equal keys: their id keys' order (an entry's last value), or for entries holding
 * documents the same order read from the documents' ids (an ObjectId's hexadecimal key orders as its three words).
 */
export function compareTails(a: unknown, b: unknown): number {
  if (typeof a === "string") return compareIds(a, b as string);
  const x = (a as Doc)._id;
  const y = (b as Doc)._id;
  if (isPacked(x) && isPacked(y)) {
    return x.w0 !== y.w0
      ? (x.w0 >>> 0) - (y.w0 >>> 0)
      : x.w1 !== y.w1
        ? (x.w1 >>> 0) - (y.w1 >>> 0)
        : (x.w2 >>> 0) - (y.w2 >>> 0);
  }
  return compareIds(keyOf(x), keyOf(y));
}
