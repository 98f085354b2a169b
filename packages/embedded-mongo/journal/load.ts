/**
 * A start that answers at once: the snapshot's collections load in the background, smallest first (its manifest
 * lists them), each with the journal's records for it replayed over it, and becomes usable when complete; a command
 * waits only for the collections it names.
 */
import fs from "node:fs";
import { SnapshotChecker } from "../checksums";
import { openColdFile, releaseColdFile, warmAll, warmUpIsHeld } from "../cold";
import type { IndexSpec } from "../index-spec";
import type { Catalog } from "../storage/catalog";
import { Collection, createIndexObject } from "../storage/collection";
import { withIdFirst } from "../storage/doc-writes";
import type { StoredOrders } from "../storage/index-build";
import { type Doc, keyOf } from "../values";
import { RecordType, splitNs } from "./records";
import { type Filling, ordersOf, readOrderSlice, replay } from "./replay";
import { pauseSlice, STOPPED, sliceIsOver } from "./slices";
import { forEachSnapshotRecordAsync, type Manifest, putDocumentOf } from "./snapshot-read";

/** What a background load needs of its journal. */
export type LoadHost = {
  readonly catalog: Catalog;
  /** Who owns the cold documents the load leaves (cold.ts): the journal, which forgets them when it closes. */
  readonly owner: object;
  /** True once the journal is closed: the load stops. */
  closed(): boolean;
  /** True once the journal is closed or closing: warming up stops. */
  stopping(): boolean;
  /** A collection loaded as the file holds it: its section (and its Put records) a compaction may copy. */
  noteSection(ns: string, at: number, length: number, putsAt: number, putsLength: number): void;
};

/**
 * Reads the snapshot collection by collection, yielding between chunks; each becomes usable when complete. Returns
 * whether the snapshot recorded index orders, and how many indexes of its collections had to be sorted.
 */
export async function loadInBackground(
  host: LoadHost,
  snapshotPath: string,
  manifest: Manifest,
  records: [number, Doc][],
): Promise<{ sawOrders: boolean; sortedFromSnapshot: number }> {
  const byNs = new Map<string, [number, Doc][]>();
  for (const record of records) {
    const ns = record[1].n as string;
    const list = byNs.get(ns) ?? [];
    list.push(record);
    byNs.set(ns, list);
  }
  // Collections whose journal records only put and delete documents: loaded cold from the snapshot with its recorded
  // orders like any other, the records then applied over them (applyOver). Any other record (an index created or
  // dropped since) loads the collection decoded, the records replayed first and every index sorted.
  const overlaid = new Set<string>();
  for (const [ns, list] of byNs) if (list.every(([type]) => DOCUMENT_RECORDS.has(type))) overlaid.add(ns);
  const catalog = host.catalog;
  let sawOrders = false;
  /** Where the current collection's records lie in the file (its section, for a compaction to copy). */
  let section = { at: 0, end: 0, afterHead: 0, putsAt: -1, putsEnd: -1 };
  const finish = async (coll: Collection, stored: StoredOrders) => {
    if (stored.cold) coll.docs.adopt(stored.ids, stored.docs);
    const [db, name] = splitNs(coll.ns);
    let colls = catalog.dbs.get(db);
    if (!colls) catalog.dbs.set(db, (colls = new Map()));
    colls.set(name, coll);
    const journaled = byNs.get(coll.ns) ?? [];
    const over = journaled.length > 0 && stored.cold;
    if (!over) for (const [type, body] of journaled) replay(catalog, type, body);
    byNs.delete(coll.ns);
    // The recorded orders describe the snapshot's documents: with the journal replayed over them, sort.
    const loaded = catalog.getCollection(db, name);
    if (loaded) {
      const built = await loaded.rebuildIndexesAsync(pauseSlice, journaled.length === 0 || over ? stored : undefined);
      if (over) await applyOver(loaded, journaled);
      catalog.noteIndexBuilds(built);
      // As the file holds it and as a snapshot would write it (no journal over it, every index that has a recorded
      // order built from it): a compaction may copy its section.
      if (journaled.length === 0 && built.unrecorded === 0) {
        const putsAt = section.putsAt < 0 ? section.afterHead : section.putsAt;
        const putsEnd = section.putsAt < 0 ? section.afterHead : section.putsEnd;
        host.noteSection(coll.ns, section.at, section.end - section.at, putsAt, putsEnd - putsAt);
      }
    }
    // Loaded once every record of it is known sound.
    await checker.through(section.end, () => host.closed());
    catalog.markReady(coll.ns);
  };
  const fd = fs.openSync(snapshotPath, "r");
  // The records' checksums, checked beside the load (checksums.ts).
  const snapshotEnd = fs.fstatSync(fd).size;
  const checker = new SnapshotChecker(snapshotPath, manifest.end, snapshotEnd);
  // Where cold documents are read back from (cold.ts): a descriptor of its own, kept while any of them is cold.
  const coldFile = openColdFile(snapshotPath, host.owner);
  try {
    let current: Collection | undefined;
    let stored: StoredOrders = { docs: [], ids: [], orders: new Map(), sorted: new Set(), cold: false };
    /** Per index: its positions so far, or null once a slice did not follow on. */
    const filling = new Map<string, Filling | null>();
    let sinceYield = 0;
    const begin = (body: Doc, at: number, end: number) => {
      section = { at, end, afterHead: end, putsAt: -1, putsEnd: -1 };
      const [db, name] = splitNs(body.n as string);
      current = new Collection(db, name, (body.o as Doc) ?? {});
      stored = { docs: [], ids: [], orders: new Map(), sorted: new Set(), cold: false };
      filling.clear();
    };
    // Synchronous record by record; a promise only to finish a collection or to let the commands in.
    await forEachSnapshotRecordAsync(
      fd,
      snapshotPath,
      manifest.end,
      checker.inline,
      (type, body, at, end, buf, payloadAt) => {
        if (type === RecordType.CreateCollection) {
          if (current) return finish(current, ordersOf(stored, filling)).then(() => begin(body!, at, end));
          begin(body!, at, end);
        } else if (type === RecordType.CreateIndex && current) {
          const spec = body!.s as IndexSpec;
          current.indexes.set(spec.name, createIndexObject(spec));
          section.afterHead = end;
        } else if (type === RecordType.Put && current) {
          if (section.putsAt < 0) {
            section.putsAt = at;
            // Cold unless the journal changes more than the collection's documents (then every index is sorted from
            // decoded documents).
            stored.cold = !byNs.has(current.ns) || overlaid.has(current.ns);
          }
          section.putsEnd = end;
          const doc = putDocumentOf(buf, payloadAt, at, stored.cold ? coldFile : undefined);
          const idKey = keyOf(doc._id);
          // A cold collection's map takes them all at its end (DocMap.adopt).
          if (!stored.cold) current.docs.set(idKey, doc);
          stored.docs.push(doc);
          stored.ids.push(idKey);
        } else if (type === RecordType.IndexOrder && current && body!.n === current.ns) {
          sawOrders = true;
          readOrderSlice(body!, stored.docs.length, filling);
        }
        section.end = end;
        if (++sinceYield >= 512) {
          sinceYield = 0;
          if (sliceIsOver()) {
            return pauseSlice().then(() => {
              if (host.closed()) throw STOPPED;
            });
          }
        }
        return undefined;
      },
    );
    if (current) await finish(current, ordersOf(stored, filling));
    await checker.through(snapshotEnd, () => host.closed());
  } catch (error) {
    // Read unchecked, a corrupt record can fail the load in any way: the corruption is what to report.
    throw error === STOPPED ? error : await checker.explain(error as Error, Infinity);
  } finally {
    checker.stop();
    fs.closeSync(fd);
    releaseColdFile(coldFile);
  }
  const sortedFromSnapshot = catalog.indexBuilds.sorted;
  // Collections created after the snapshot was written exist in the journal only.
  for (const [ns, list] of byNs) {
    for (const [type, body] of list) replay(catalog, type, body);
    const [db, name] = splitNs(ns);
    const coll = catalog.getCollection(db, name);
    if (coll) catalog.noteIndexBuilds(coll.rebuildIndexes());
    catalog.markReady(ns);
  }
  catalog.finishLoading();
  // Every collection answers. The indexes a start deferred are built now, then the documents it left cold are
  // decoded, a slice at a time.
  if (!warmUpIsHeld()) {
    for (const colls of catalog.dbs.values()) {
      for (const coll of colls.values()) {
        if (host.stopping()) break;
        await coll.materializeAsync(pauseSlice);
      }
    }
    await warmAll(pauseSlice, () => host.stopping());
  }
  return { sawOrders, sortedFromSnapshot };
}

/** The journal records that change only a collection's documents. */
const DOCUMENT_RECORDS: ReadonlySet<number> = new Set([RecordType.Put, RecordType.PutMany, RecordType.Delete]);

/**
 * Applies a collection's journal records (puts and deletes only) over it once it is loaded from the snapshot, its
 * indexes from the recorded orders: each record goes in as a write would (an index a cold load left to build when
 * first read keeps the write until then: IndexTree.keptForLater). Far less work than decoding every
 * document and sorting every index, which a few records since the last compaction used to cost a large collection
 * (an audit log that takes an entry per sign-in), and the collection answers as soon as it is loaded.
 */
async function applyOver(coll: Collection, records: [number, Doc][]): Promise<void> {
  // The records find their documents by id: the documents map is filled first, in slices (the commands go on).
  await coll.docs.settleAsync(pauseSlice);
  for (const [type, body] of records) {
    if (type === RecordType.Put) putOver(coll, body.d as Doc);
    else if (type === RecordType.PutMany) for (const each of body.d as Doc[]) putOver(coll, withIdFirst(each));
    else {
      const idKey = keyOf(body.id);
      const old = coll.docs.get(idKey);
      if (!old) continue;
      writeIndexes(coll, "remove", idKey, old, true);
      coll.docs.delete(idKey);
      coll.docWrites++;
    }
  }
}

function putOver(coll: Collection, doc: Doc): void {
  const idKey = keyOf(doc._id);
  const old = coll.docs.get(idKey);
  // A new version keeps its _id: the _id index's entry stays.
  if (old) writeIndexes(coll, "remove", idKey, old, false);
  coll.docs.set(idKey, doc);
  coll.docWrites++;
  writeIndexes(coll, "add", idKey, doc, !old);
}

function writeIndexes(coll: Collection, write: "add" | "remove", idKey: string, doc: Doc, withId: boolean): void {
  for (const index of withId ? [coll.idIndex, ...coll.indexes.values()] : coll.indexes.values()) {
    if (write === "add") index.add(idKey, doc);
    else index.remove(idKey, doc);
  }
}
