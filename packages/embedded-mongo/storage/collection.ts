/**
 * A collection: its documents (DocMap) in natural order, its `_id` index and secondary indexes, the index builds
 * under way, and the rebuilds of its indexes when a start loads it.
 */
import { randomUUID } from "node:crypto";
import { Binary } from "bson";
import { type CatalogIndex, EntryKind, type IndexSpec } from "../index-spec";
import { TextIndex } from "../text";
import type { Doc } from "../values";
import { DocMap } from "./doc-map";
import type { CollectionBuildCounts, IndexBuildCounts, StoredOrders } from "./index-build";
import { Index } from "./indexes";

/** The `_id` index every collection has, first in listIndexes. */
export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: "_id_" };

export class Collection {
  readonly db: string;
  readonly name: string;
  readonly uuid: Binary;
  readonly options: Doc;
  /** keyOf(_id) → document, in insertion (natural) order */
  readonly docs: DocMap = new DocMap();
  /** Secondary indexes by name (the `_id` index is `idIndex`). */
  readonly indexes = new Map<string, CatalogIndex>();
  /** The ordered `_id` index (equality goes through `docs`). */
  readonly idIndex = new Index(ID_INDEX);
  /**
   * Index builds under way (Catalog.createIndexAsync): each notes every change to the documents made while it
   * runs, as (idKey, old document or undefined, new document or undefined) triples, to apply when it is done.
   */
  readonly builds = new Set<unknown[]>();
  /** Counts the changes to `docs` (insert, replace, delete): an order computed over them holds while it does not move. */
  docWrites = 0;

  constructor(db: string, name: string, options: Doc = {}) {
    this.db = db;
    this.name = name;
    this.options = options;
    this.uuid = new Binary(Buffer.from(randomUUID().replace(/-/g, ""), "hex"), Binary.SUBTYPE_UUID);
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((i) => i.spec)];
  }

  /** Every ordered index, `_id` first. */
  orderedIndexes(): Index[] {
    const out: Index[] = [this.idIndex];
    for (const index of this.indexes.values()) if (index instanceof Index) out.push(index);
    return out;
  }

  textIndex(): TextIndex | undefined {
    for (const index of this.indexes.values()) if (index instanceof TextIndex) return index;
    return undefined;
  }

  /** Rebuilds one index from the documents; throws on a unique violation. */
  buildIndex(index: CatalogIndex): void {
    try {
      index.build(this.docs, this.ns);
    } catch (error) {
      index.clear();
      throw error;
    }
  }

  /** Rebuilds every index by sorting (a synchronous load); how many it built, as rebuildIndexesAsync counts them. */
  rebuildIndexes(): IndexBuildCounts {
    this.idIndex.build(this.docs, this.ns);
    for (const index of this.indexes.values()) this.buildIndex(index);
    // An empty collection's indexes need neither.
    return { inOrder: 0, sorted: this.docs.size > 0 ? 1 + this.indexes.size : 0, uncompared: 0 };
  }

  /**
   * Rebuilds every index in slices, pausing between them (start-up loads). With `stored`, the snapshot's
   * documents in file order (they must be exactly the collection's) and each index's recorded order by name.
   */
  async rebuildIndexesAsync(pause: () => Promise<void>, stored?: StoredOrders): Promise<CollectionBuildCounts> {
    const counts = { inOrder: 0, sorted: 0, uncompared: 0, unrecorded: 0 };
    const all: CatalogIndex[] = [this.idIndex, ...this.indexes.values()];
    const usable = stored && stored.docs.length === this.docs.size ? stored : undefined;
    const recorded = usable ? all.filter((i): i is Index => i instanceof Index && usable.orders.has(i.name)) : [];
    // A collection loaded cold: each index whose recorded order is taken as it is waits until something reads it
    // (Index.defer; Collection.materializeAsync builds them after the load).
    const deferred = recorded.filter((index) => usable!.cold && usable!.sorted.has(index.name));
    for (const index of deferred) {
      index.defer({
        docs: usable!.docs,
        ids: usable!.ids,
        order: usable!.orders.get(index.name)!,
        ns: this.ns,
        docMap: this.docs,
      });
      // Taken in its recorded order, uncompared (takesUncompared: recorded sorted).
      if (this.docs.size > 0) {
        counts.inOrder++;
        counts.uncompared++;
      }
    }
    const ordered = recorded.filter((index) => !deferred.includes(index));
    // Every recorded index's entries in one pass over the documents, in file order (each document read once, in
    // the order it lies in memory), then each index takes them in its order.
    const n = usable?.docs.length ?? 0;
    // An index that keeps documents needs only what each document gives it (loadInOrder reads the entries from them).
    const made = ordered.map((index) => ({
      values: index.keepsDocuments ? undefined : new Array<unknown>(n * index.width),
      kinds: new Uint8Array(n),
    }));
    // Cold documents hold only their `_id`: an index that keeps documents takes each as its one entry unread (its
    // order, recorded while it kept documents, says that no document gave it several), and loadInOrder still
    // checks that each comes exactly once.
    const unread = ordered.map((index, k) => {
      if (usable?.cold !== true || !index.keepsDocuments || index.spec.sparse === true) return false;
      made[k].kinds.fill(EntryKind.One);
      return true;
    });
    if (usable) {
      const { docs, ids } = usable;
      const scratch: unknown[] = [];
      for (let at = 0; at < n; at++) {
        for (let k = 0; k < ordered.length; k++) {
          if (unread[k]) continue;
          const index = ordered[k];
          const values = made[k].values;
          made[k].kinds[at] = values
            ? index.entryInto(ids[at], docs[at], values, at * index.width)
            : index.entryInto(ids[at], docs[at], scratch, 0);
        }
        if ((at & 8_191) === 8_191) await pause();
      }
    }
    for (const index of all) {
      if (index instanceof Index && index.isDeferred) continue;
      if (index instanceof TextIndex && usable?.cold === true) {
        // It has no recorded order: built from the documents when first read, or after the load.
        index.defer(this.docs);
        if (this.docs.size > 0) counts.sorted++;
        continue;
      }
      const k = ordered.indexOf(index as Index);
      const own =
        k >= 0
          ? {
              ...made[k],
              order: usable!.orders.get(index.spec.name)!,
              sorted: usable!.sorted.has(index.spec.name),
              docs: usable!.docs,
            }
          : undefined;
      try {
        const inOrder = await index.buildAsync(this.docs, this.ns, pause, own);
        // An empty collection's indexes need neither.
        if (this.docs.size > 0) counts[inOrder ? "inOrder" : "sorted"]++;
        if (this.docs.size > 0 && inOrder && own && ordered[k].takesUncompared(own)) counts.uncompared++;
        if (this.docs.size > 0 && !inOrder && index instanceof Index && !index.isMultikey) counts.unrecorded++;
      } catch (error) {
        index.clear();
        throw error;
      } finally {
        if (k >= 0) made[k] = { values: undefined, kinds: new Uint8Array(0) };
      }
    }
    return counts;
  }

  /** Puts the documents a start adopted in the map (DocMap.adopt), then builds the indexes it deferred (Index.defer), in slices. */
  async materializeAsync(pause: () => Promise<void>): Promise<void> {
    await this.docs.settleAsync(pause);
    for (const index of this.orderedIndexes()) await index.materializeAsync(pause);
    await this.textIndex()?.materializeAsync(pause);
  }

  /** The stored document for an index entry's id (undefined if it went away meanwhile). */
  docById(idKey: string): Doc | undefined {
    return this.docs.get(idKey);
  }

  /**
   * Each replaced document → its id key. An index that keeps documents may hold an older version of a stored
   * document (an update that left its key alone does not visit it); currentOf leads from there to the stored one.
   * (The id key, not the next version: versions in between are then not kept alive by a chain.)
   */
  readonly superseded = new WeakMap<Doc, string>();

  /** The stored version of a document that an index entry holds (an entry never outlives its document's delete). */
  currentOf(doc: Doc): Doc {
    const idKey = this.superseded.get(doc);
    return idKey === undefined ? doc : (this.docs.get(idKey) as Doc);
  }
}

/** The index a specification asks for: a text index when a key field is "text", else an ordered index. */
export function createIndexObject(spec: IndexSpec): CatalogIndex {
  return Object.values(spec.key).includes("text") ? new TextIndex(spec) : new Index(spec);
}
