/**
 * The in-memory catalogue: databases, collections, documents and indexes.
 * Every mutation is synchronous (so a write to one document is atomic with
 * respect to every other command) and is reported to an optional journal,
 * together with how to undo it (a write the disk refused is rolled back).
 * Stored documents are never mutated in place: an update replaces the object,
 * which is what lets cursors keep a stable snapshot by holding references.
 *
 * Indexes are ordered (a B+ tree with subtree counts per index, the `_id`
 * index included), so the planner can seek to bounds, walk in either
 * direction, count a range and skip by rank.
 */
import { MongoCommandError } from "../errors";
import type { CatalogIndex, IndexSpec, KeyEntry } from "../index-spec";
import { type Doc, keyOf } from "../values";
import type { ChangeSink } from "./change-sink";
import { Collection, createIndexObject } from "./collection";
import { InsertBatch, rawInsert, rawRemove, rawReplace, sameKeys } from "./doc-writes";
import { type BuildShared, type IndexBuildCounts, slicePause, snapshotOf } from "./index-build";
import { Index } from "./indexes";
import { validateCollectionName } from "./names";

type Gate = { promise: Promise<void>; resolve: () => void };

function gate(): Gate {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export class Catalog {
  readonly dbs = new Map<string, Map<string, Collection>>();
  sink: ChangeSink | undefined;
  /** While a data directory loads: one gate per collection still on its way, and one for all of them. */
  private gates: Map<string, Gate> | undefined;
  private allGate: Gate | undefined;
  /** How the load built the indexes so far (serverStatus reports it). */
  readonly indexBuilds: IndexBuildCounts = { inOrder: 0, sorted: 0, uncompared: 0 };

  noteIndexBuilds(counts: IndexBuildCounts): void {
    this.indexBuilds.inOrder += counts.inOrder;
    this.indexBuilds.sorted += counts.sorted;
    this.indexBuilds.uncompared += counts.uncompared;
  }
  /** Set when loading the data directory failed: every command that needs data answers with it. */
  loadError: Error | undefined;

  get loading(): boolean {
    return this.gates !== undefined;
  }

  beginLoading(namespaces: string[]): void {
    this.gates = new Map(namespaces.map((ns) => [ns, gate()]));
    this.allGate = gate();
  }

  markReady(ns: string): void {
    this.gates?.get(ns)?.resolve();
    this.gates?.delete(ns);
  }

  finishLoading(): void {
    for (const g of this.gates?.values() ?? []) g.resolve();
    this.gates = undefined;
    this.allGate?.resolve();
    this.allGate = undefined;
  }

  /** Resolves when the named collections (or all, for "all") are loaded; undefined when nothing is loading. */
  waitFor(namespaces: string[] | "all"): Promise<unknown> | undefined {
    if (!this.gates) return undefined;
    if (namespaces === "all") return this.allGate?.promise;
    const pending = namespaces
      .map((ns) => this.gates!.get(ns)?.promise)
      .filter((p): p is Promise<void> => p !== undefined);
    return pending.length === 0 ? undefined : Promise.all(pending);
  }

  getCollection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  createCollection(db: string, name: string, options: Doc = {}): Collection {
    validateCollectionName(db, name);
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, options);
    colls.set(name, coll);
    this.sink?.createCollection(coll.ns, options, () => this.detach(db, name, coll));
    return coll;
  }

  private detach(db: string, name: string, coll: Collection): void {
    const colls = this.dbs.get(db);
    if (colls?.get(name) !== coll) return;
    colls.delete(name);
    if (colls.size === 0) this.dbs.delete(db);
  }

  private attach(db: string, name: string, coll: Collection): void {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    colls.set(name, coll);
  }

  ensureCollection(db: string, name: string): Collection {
    return this.getCollection(db, name) ?? this.createCollection(db, name);
  }

  dropCollection(db: string, name: string): Collection | undefined {
    const coll = this.getCollection(db, name);
    if (!coll) return undefined;
    this.detach(db, name, coll);
    this.sink?.dropCollection(coll.ns, () => this.attach(db, name, coll));
    return coll;
  }

  dropDatabase(db: string): void {
    const colls = this.dbs.get(db);
    if (!colls) return;
    this.dbs.delete(db);
    this.sink?.dropDatabase(db, () => this.dbs.set(db, colls));
  }

  /** Inserts a document that already has an _id, enforcing every unique index; `raw`: its BSON, when at hand. */
  insert(coll: Collection, doc: Doc, raw?: Buffer): void {
    const idKey = keyOf(doc._id);
    if (coll.docs.has(idKey)) {
      throw coll.idIndex.duplicateError(coll.ns, [doc._id]);
    }
    const batch = this.batch;
    const keysByIndex: [CatalogIndex, KeyEntry[] | null][] = [];
    for (const index of coll.indexes.values()) {
      // In a batch, the non-unique ordered indexes take their entries from the document in rawInsert.
      if (batch && index instanceof Index && !index.unique) continue;
      const keys = index.keysOf(doc);
      index.checkUnique(doc, idKey, coll.ns, keys);
      keysByIndex.push([index, keys]);
    }
    rawInsert(coll, idKey, doc, keysByIndex, batch);
    if (batch && this.sink) batch.noteInsert(coll, idKey, doc, raw);
    else this.sink?.putDocument(coll.ns, doc, () => rawRemove(coll, idKey, doc), raw);
  }

  /**
   * Runs the inserts of one command as a batch: the entries of the _id index and of the non-unique ordered
   * indexes are gathered and added sorted at the end, one pass over each tree instead of a descent per document
   * (the documents, and the unique indexes that checks read, are still filled document by document). `run` must
   * not yield nor read those indexes: until it returns, they lack the batch's documents.
   */
  insertBatch<T>(run: () => T, command?: { documents: Buffer; count: number }): T {
    if (this.batch) return run();
    const batch = new InsertBatch();
    this.batch = batch;
    try {
      return run();
    } finally {
      this.batch = undefined;
      batch.finish(this.sink, command);
    }
  }
  private batch: InsertBatch | undefined;

  /** Replaces a stored document by a new object with the same _id. */
  replace(coll: Collection, oldDoc: Doc, newDoc: Doc): void {
    const idKey = keyOf(oldDoc._id);
    const changes: [CatalogIndex, KeyEntry[] | null, KeyEntry[] | null][] = [];
    for (const index of coll.indexes.values()) {
      if (index instanceof Index && index.sameFieldsIn(oldDoc, newDoc)) continue;
      const oldKeys = index.keysOf(oldDoc);
      const newKeys = index.keysOf(newDoc);
      // Most updates leave indexed fields alone: nothing to check or move.
      if (sameKeys(oldKeys, newKeys)) continue;
      index.checkUnique(newDoc, idKey, coll.ns, newKeys);
      changes.push([index, oldKeys, newKeys]);
    }
    rawReplace(coll, idKey, oldDoc, newDoc, changes);
    this.sink?.putDocument(coll.ns, newDoc, () =>
      rawReplace(
        coll,
        idKey,
        newDoc,
        oldDoc,
        changes.map(([index, oldKeys, newKeys]) => [index, newKeys, oldKeys]),
      ),
    );
  }

  remove(coll: Collection, doc: Doc): void {
    const idKey = keyOf(doc._id);
    if (!coll.docs.has(idKey)) return;
    rawRemove(coll, idKey, doc);
    this.sink?.deleteDocument(coll.ns, doc._id, () => rawInsert(coll, idKey, doc));
  }

  /**
   * Builds ordered indexes while the server goes on answering (as mongod's index builds do): the entries of one
   * snapshot of the documents are sorted in slices with pauses between them, and the writes made since the snapshot
   * are noted. When every index's entries are in, in one synchronous step: the noted writes are applied to each,
   * `check` is asked about each (false: the same index went in meanwhile, it is left out; it throws when the build
   * must not go in: the collection dropped, the name taken by another index), and they go in together. A unique
   * index fails when the documents, as they are by then, hold a duplicate; then none goes in. A text index is built
   * in that step from the documents as they are. Returns how many went in.
   */
  async createIndexesAsync(coll: Collection, specs: IndexSpec[], check: (spec: IndexSpec) => boolean): Promise<number> {
    const changes: unknown[] = [];
    // What the builds of one snapshot share (the ids' sort order; the documents' state, for the orders they keep).
    const shared: BuildShared = { keepOrderAt: coll.docWrites };
    const { ids, docs } = snapshotOf(coll.docs);
    const built: Index[] = [];
    coll.builds.add(changes);
    try {
      for (const spec of specs) {
        const index = createIndexObject(spec);
        if (!(index instanceof Index)) continue;
        await index.buildFromAsync(ids, docs, coll.ns, slicePause(), shared);
        built.push(index);
      }
    } finally {
      coll.builds.delete(changes);
    }
    // From here on synchronous: no write comes between the checks and the indexes going in.
    const ready: CatalogIndex[] = [];
    for (const spec of specs) {
      if (!check(spec)) continue;
      const index = built.find((b) => b.spec === spec);
      if (!index) {
        const text = createIndexObject(spec);
        coll.buildIndex(text);
        ready.push(text);
        continue;
      }
      for (let k = 0; k < changes.length; k += 3) {
        const idKey = changes[k] as string;
        const before = changes[k + 1] as Doc | undefined;
        const after = changes[k + 2] as Doc | undefined;
        if (before) index.remove(idKey, before);
        if (!after) continue;
        const keys = index.keysOf(after);
        try {
          index.checkUnique(after, idKey, coll.ns, keys);
        } catch (error) {
          const e = error as MongoCommandError;
          throw new MongoCommandError("DuplicateKey", `Index build failed: ${coll.ns}: ${e.message}`, e.extra);
        }
        index.add(idKey, after, keys);
      }
      ready.push(index);
    }
    for (const index of ready) this.installIndex(coll, index);
    return ready.length;
  }

  private installIndex(coll: Collection, index: CatalogIndex): void {
    const spec = index.spec;
    coll.indexes.set(spec.name, index);
    this.sink?.createIndex(coll.ns, spec, () => {
      if (coll.indexes.get(spec.name) === index) coll.indexes.delete(spec.name);
    });
  }

  dropIndex(coll: Collection, name: string): void {
    const index = coll.indexes.get(name);
    if (!index) return;
    coll.indexes.delete(name);
    // Undoing a drop restores the index as it was; the writes after the drop are undone before it.
    this.sink?.dropIndex(coll.ns, name, () => coll.indexes.set(name, index));
  }
}
