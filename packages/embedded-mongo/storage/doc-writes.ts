/**
 * A write's steps on a collection: a document stored or removed with its index entries (and noted for the index
 * builds under way), the inserts of one command gathered into sorted index batches, and a new document's `_id`
 * put first.
 */
import { compareValues } from "../bson-order";
import type { CatalogIndex, KeyEntry } from "../index-spec";
import { newObjectId } from "../object-id";
import { type Doc, docWithId } from "../values";
import type { ChangeSink } from "./change-sink";
import type { Collection } from "./collection";
import type { IndexEntry } from "./index-entry";
import { Index } from "./indexes";

export class InsertBatch {
  private readonly entries = new Map<Index, IndexEntry[]>();
  /** The documents stored, for the journal: collection, _id key, document, its bytes (when they are it). */
  private readonly inserted: unknown[] = [];

  pending(index: Index): IndexEntry[] {
    let list = this.entries.get(index);
    if (!list) this.entries.set(index, (list = []));
    return list;
  }

  noteInsert(coll: Collection, idKey: string, doc: Doc, raw: Buffer | undefined): void {
    this.inserted.push(coll, idKey, doc, raw);
  }

  /**
   * Adds the gathered index entries, then hands the journal the batch's changes in order: one change for the whole
   * command when every one of its documents went in as decoded from the command's bytes, else one per document.
   */
  finish(sink: ChangeSink | undefined, command: { documents: Buffer; count: number } | undefined): void {
    for (const [index, list] of this.entries) index.addSorted(list);
    const inserted = this.inserted;
    const n = inserted.length / 4;
    if (!sink || n === 0) return;
    // `command` is given only when every document of it arrived with its own bytes (rawDocumentsArrayOf): one
    // change for all when all went in (one command, one collection).
    if (command && sink.putDocuments && n === command.count) {
      const coll = inserted[0] as Collection;
      sink.putDocuments(coll.ns, command.documents, () => {
        for (let k = inserted.length - 4; k >= 0; k -= 4)
          rawRemove(coll, inserted[k + 1] as string, inserted[k + 2] as Doc);
      });
      return;
    }
    for (let k = 0; k < inserted.length; k += 4) {
      const c = inserted[k] as Collection;
      const idKey = inserted[k + 1] as string;
      const doc = inserted[k + 2] as Doc;
      sink.putDocument(c.ns, doc, () => rawRemove(c, idKey, doc), inserted[k + 3] as Buffer | undefined);
    }
  }
}

/**
 * Stores a document and its index entries. Within a batch, the entries no check reads wait to go in sorted: the
 * _id index's and the non-unique ordered indexes' (`keysByIndex` then holds the other indexes only).
 */
export function rawInsert(
  coll: Collection,
  idKey: string,
  doc: Doc,
  keysByIndex: [CatalogIndex, KeyEntry[] | null][] = [...coll.indexes.values()].map((index) => [
    index,
    index.keysOf(doc),
  ]),
  batch?: InsertBatch,
): void {
  coll.docs.set(idKey, doc);
  coll.docWrites++;
  if (coll.builds.size > 0) noteForBuilds(coll, idKey, undefined, doc);
  if (batch) batch.pending(coll.idIndex).push([doc._id, idKey]);
  else coll.idIndex.add(idKey, doc, [{ values: [doc._id] }]);
  for (const [index, keys] of keysByIndex) index.add(idKey, doc, keys);
  if (!batch) return;
  for (const index of coll.indexes.values())
    if (index instanceof Index && !index.unique) index.collectOf(idKey, doc, batch.pending(index));
}

export function rawRemove(coll: Collection, idKey: string, doc: Doc): void {
  if (!coll.docs.delete(idKey)) return;
  coll.docWrites++;
  if (coll.builds.size > 0) noteForBuilds(coll, idKey, doc, undefined);
  coll.idIndex.remove(idKey, doc, [{ values: [doc._id] }]);
  for (const index of coll.indexes.values()) index.remove(idKey, doc);
}

export function rawReplace(
  coll: Collection,
  idKey: string,
  oldDoc: Doc,
  newDoc: Doc,
  changes: [CatalogIndex, KeyEntry[] | null, KeyEntry[] | null][],
): void {
  for (const [index, oldKeys] of changes) index.remove(idKey, oldDoc, oldKeys);
  coll.docs.set(idKey, newDoc);
  coll.docWrites++;
  // The document now stored is nobody's older version (an undo puts back the one it replaced).
  coll.superseded.delete(newDoc);
  if (oldDoc !== newDoc) coll.superseded.set(oldDoc, idKey);
  if (coll.builds.size > 0) noteForBuilds(coll, idKey, oldDoc, newDoc);
  for (const [index, , newKeys] of changes) index.add(idKey, newDoc, newKeys);
}

function noteForBuilds(coll: Collection, idKey: string, before: Doc | undefined, after: Doc | undefined): void {
  for (const changes of coll.builds) changes.push(idKey, before, after);
}

export function sameKeys(a: KeyEntry[] | null, b: KeyEntry[] | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i].values;
    const y = b[i].values;
    if (x.length !== y.length) return false;
    // Equal in BSON order is equal as index keys (1 and 1.0, null and missing: the same key).
    for (let j = 0; j < x.length; j++) if (compareValues(x[j], y[j]) !== 0) return false;
  }
  return true;
}

/** Puts _id first, generating an ObjectId when absent (as mongod does). */
export function withIdFirst(doc: Doc): Doc {
  for (const first in doc) {
    if (first === "_id") return doc;
    break;
  }
  const out = docWithId("_id" in doc ? doc._id : newObjectId());
  for (const k of Object.keys(doc)) if (k !== "_id") out[k] = doc[k];
  return out;
}
