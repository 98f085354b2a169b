/**
 * Writing a snapshot: the whole catalogue as records (a manifest, then each collection's creation, indexes,
 * documents and index orders), in chunks, copying from the current snapshot.bson what has not changed since.
 */
import { Binary } from "bson";
import { ORDER_VERSION } from "../bson-order";
import { BTree } from "../btree";
import type { Catalog } from "../storage/catalog";
import type { IndexEntry } from "../storage/index-entry";
import type { Doc } from "../values";
import { contiguousRuns, encodeRecord, LITTLE_ENDIAN, RecordType } from "./records";

/** Positions per IndexOrder record (256 KB). */
const ORDER_SLICE = 65_536;

/**
 * Where a collection's records lie in snapshot.bson (its CreateCollection record to its last IndexOrder; its Put
 * records inside), and the collection's change counters when they were written (Journal.changesOf). A compaction
 * copies the whole section when the collection has not changed since, and its Put records when only its indexes did.
 */
export type Section = {
  epoch: number;
  all: number;
  docs: number;
  at: number;
  length: number;
  putsAt: number;
  putsLength: number;
};

/** What the last compaction wrote: collections and documents copied from the snapshot before it, documents encoded. */
export type CompactionStats = {
  sectionsCopied: number;
  documentsCopied: number;
  documentsEncoded: number;
  ordersFromBuilds: number;
};

/**
 * What a compaction may copy (the current snapshot.bson's sections and the changes since), and what it wrote: the
 * new file's sections, valid once it replaces the old one.
 */
export type Reuse = {
  sections: Map<string, Section>;
  changesOf: (ns: string) => { all: number; docs: number };
  epoch: () => number;
  written: Map<string, Section>;
  stats: CompactionStats;
};

/** A piece of a snapshot: records to write, or a byte range of the current snapshot.bson to copy. */
export type SnapshotPiece =
  | { records: Buffer[]; copy?: undefined }
  | { records?: undefined; copy: { at: number; length: number } };

/**
 * The records of a snapshot of the whole catalogue, in chunks of about a megabyte (or 256 documents): smallest
 * collections first, announced by a manifest, so a later start makes them usable first. Each chunk's records
 * are joined into as few buffers as they allow (adjacent views of one slab). A Map's iterator survives changes
 * between chunks: a document changed later is seen as it is then, a new one is seen too (Journal.compactInBackground).
 * From `reuse`: a collection that has not changed since the current snapshot.bson was written is copied from it
 * whole, and one whose documents have not changed gets its Put records copied (its index orders are written again).
 */
export function* snapshotChunks(catalog: Catalog, reuse: Reuse): Generator<SnapshotPiece> {
  let chunk: Buffer[] = [];
  let bytes = 0;
  let docs = 0;
  /** Bytes of the new file before what is generated next. */
  let offset = 0;
  const add = (record: Buffer) => {
    chunk.push(record);
    bytes += record.length;
    offset += record.length;
  };
  const take = () => {
    const out = { records: contiguousRuns(chunk) };
    chunk = [];
    bytes = 0;
    docs = 0;
    return out;
  };
  const all = [...catalog.dbs.values()]
    .flatMap((colls) => [...colls.values()])
    .sort((a, b) => a.docs.size - b.docs.size);
  add(encodeRecord(RecordType.Manifest, { c: all.map((c) => ({ n: c.ns, docs: c.docs.size })) }));
  for (const coll of all) {
    const epoch = reuse.epoch();
    const counted = { ...reuse.changesOf(coll.ns) };
    const old = reuse.sections.get(coll.ns);
    const valid = old !== undefined && old.epoch === epoch;
    if (valid && old.all === counted.all) {
      // Unchanged since the current snapshot: its section, as it is.
      reuse.written.set(coll.ns, { ...old, at: offset, putsAt: offset + (old.putsAt - old.at) });
      reuse.stats.sectionsCopied++;
      reuse.stats.documentsCopied += coll.docs.size;
      offset += old.length;
      if (chunk.length > 0) yield take();
      yield { copy: { at: old.at, length: old.length } };
      continue;
    }
    const sectionAt = offset;
    add(encodeRecord(RecordType.CreateCollection, { n: coll.ns, o: coll.options }));
    for (const index of [...coll.indexes.values()])
      add(encodeRecord(RecordType.CreateIndex, { n: coll.ns, s: index.spec }));
    // By document: an index that keeps documents holds them (or older versions: Collection.currentOf), others id keys.
    const positions = new Map<Doc, number>();
    let written = 0;
    const putsAt = offset;
    const writesBefore = coll.docWrites;
    if (valid && old.docs === counted.docs) {
      // The same documents in the same order as that snapshot's Put records (no put or delete since: a Map keeps
      // its order), numbered without a pause (cold ones left cold), then copied.
      for (const doc of coll.docs.storedValues()) positions.set(doc, written++);
      if (chunk.length > 0) yield take();
      yield { copy: { at: old.putsAt, length: old.putsLength } };
      offset += old.putsLength;
      reuse.stats.documentsCopied += written;
    } else {
      for (const doc of coll.docs.values()) {
        positions.set(doc, written++);
        add(encodeRecord(RecordType.Put, { n: coll.ns, d: doc }));
        if (bytes > 1024 * 1024 || ++docs >= 256) yield take();
      }
      reuse.stats.documentsEncoded += written;
    }
    const putsLength = offset - putsAt;
    // The Put records hold the documents as one state of the collection (no change between their chunks).
    const oneState = coll.docWrites === writesBefore;
    // Each ordered index's order, in slices (the tree may change between them: a start checks what it reads).
    for (const index of coll.orderedIndexes()) {
      const built = index.builtOrder;
      index.builtOrder = undefined;
      if (index.isMultikey || written === 0) continue;
      if (built && LITTLE_ENDIAN && oneState && built.docWrites === writesBefore && built.order.length <= written) {
        // The order its build sorted, over the same documents in the same order: written as it is.
        for (let from = 0; from < built.order.length; from += ORDER_SLICE) {
          const slice = built.order.subarray(from, from + ORDER_SLICE);
          add(orderRecord(coll.ns, index.name, from, Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength)));
          yield take();
        }
        if (coll.docWrites === writesBefore) add(sortedMark(coll.ns, index.name, built.order.length));
        reuse.stats.ordersFromBuilds++;
        continue;
      }
      let last: IndexEntry | undefined;
      let from = 0;
      for (;;) {
        const out = Buffer.allocUnsafe(ORDER_SLICE * 4);
        let n = 0;
        last = index.eachIdAfter(last, ORDER_SLICE, (id, pos) => {
          // An id key, or a held document: the stored one, or an older version of it (Collection.currentOf), which
          // the entry then trades for the stored one: an older version stays on the heap only until a snapshot.
          let at: number | undefined;
          if (typeof id === "string") {
            const doc = coll.docs.stored(id);
            at = doc && positions.get(doc);
          } else {
            at = positions.get(id as Doc);
            if (at === undefined) {
              const stored = coll.currentOf(id as Doc);
              if (stored !== undefined && stored !== id) BTree.setRefAt(pos, stored);
              at = stored && positions.get(stored);
            }
          }
          if (at !== undefined) out.writeUInt32LE(at, 4 * n++);
        });
        if (last === undefined) break;
        add(orderRecord(coll.ns, index.name, from, out.subarray(0, 4 * n)));
        from += n;
        yield take();
      }
      // Walked from the tree while the documents stayed as the Put records hold them: the order is sorted as is.
      if (oneState && coll.docWrites === writesBefore) add(sortedMark(coll.ns, index.name, from));
    }
    // Copyable next time only if nothing changed while it was written (between its chunks).
    if (reuse.changesOf(coll.ns).all === counted.all && reuse.epoch() === epoch) {
      reuse.written.set(coll.ns, {
        epoch,
        all: counted.all,
        docs: counted.docs,
        at: sectionAt,
        length: offset - sectionAt,
        putsAt,
        putsLength,
      });
    }
  }
  if (chunk.length > 0) yield take();
}

/** An IndexOrder record: positions `from` on of one index's order, as little-endian uint32s. */
function orderRecord(ns: string, index: string, from: number, positions: Buffer): Buffer {
  return encodeRecord(RecordType.IndexOrder, { n: ns, x: index, f: from, o: new Binary(positions) });
}

/**
 * The IndexOrder record that ends an order of `count` positions recorded while its collection did not change (so its
 * entries follow each other as compareValues of ORDER_VERSION orders them): no positions, and the version, `s`. A
 * start takes such an order without comparing its entries (replay.ts readOrderSlice); an engine that knows no `s` reads an
 * empty slice.
 */
function sortedMark(ns: string, index: string, count: number): Buffer {
  return encodeRecord(RecordType.IndexOrder, {
    n: ns,
    x: index,
    f: count,
    o: new Binary(Buffer.alloc(0)),
    s: ORDER_VERSION,
  });
}
