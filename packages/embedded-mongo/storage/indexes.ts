/**
 * The ordered index (Index): the tree of index-tree.ts and its builds. By sorting (all at once, or in slices beside
 * the commands), or from the order a snapshot recorded, checked as it is taken or left to build when first read
 * (a start that loads cold).
 */
import type { BTree } from "../btree";
import { MongoCommandError } from "../errors";
import { type CatalogIndex, EntryKind, type StoredOrder } from "../index-spec";
import { mergeSortedRuns } from "../merge-runs";
import type { Doc } from "../values";
import { type BuildShared, type DeferredOrder, flatOrder, snapshotOf } from "./index-build";
import { entryId, type IndexEntry } from "./index-entry";
import { IndexTree } from "./index-tree";

/** An ordered index: the keys and entries of IndexTree, and the builds that fill its tree. */
export class Index extends IndexTree implements CatalogIndex {
  /**
   * The order a sort built this index in, as a snapshot records it (positions of the entries' documents among the
   * collection's documents in Map order), kept from a createIndexes build until the next snapshot, which writes it
   * without looking each entry's document up; it holds while the collection's `docWrites` is still `docWrites`
   * (a write during the build moves it too).
   */
  builtOrder: { order: Uint32Array; docWrites: number } | undefined;

  private loadSorted(entries: IndexEntry[], ns: string): void {
    if (this.unique) {
      for (let i = 1; i < entries.length; i++) {
        if (
          this.compareKeys(this.keyIn(entries[i - 1]), this.keyIn(entries[i])) === 0 &&
          entryId(entries[i - 1]) !== entryId(entries[i])
        ) {
          throw this.buildDuplicate(ns, entries[i]);
        }
      }
    }
    this.tree.load(entries);
  }

  /** A build's duplicate key error for an entry whose key the one before it holds too. */
  private buildDuplicate(ns: string, entry: IndexEntry): MongoCommandError {
    const error = this.duplicateError(ns, entry.slice(0, this.fields.length));
    return new MongoCommandError("DuplicateKey", `Index build failed: ${ns}: ${error.message}`, error.extra);
  }

  build(docs: Map<string, Doc>, ns: string): void {
    this.clear();
    const entries: IndexEntry[] = [];
    for (const [idKey, doc] of docs) this.collect(idKey, doc, this.keysOf(doc), entries);
    this.settle(entries).sort(this.compareEntries);
    this.loadSorted(entries, ns);
  }

  /**
   * Builds from the documents in slices. With `stored` (a snapshot's documents in file order and the order of
   * this index's entries it recorded), the entries are taken in that order and checked in one pass: each
   * document's one entry exactly once and every entry after the one before. Anything else (a multikey
   * document, a snapshot written while the index changed) falls back to sorting. True when the order served.
   */
  async buildAsync(
    docs: Map<string, Doc>,
    ns: string,
    pause: () => Promise<void>,
    stored?: StoredOrder,
  ): Promise<boolean> {
    if (stored && (await this.loadInOrder(stored, ns, pause))) return true;
    await this.sortAndLoad(docs, ns, pause);
    return false;
  }

  /**
   * Whether a recorded order is taken without comparing its entries: recorded sorted (walked from this index's tree
   * while its collection did not change, so a unique index's keys were unique too). Comparing reads every entry's
   * values in index order, far apart in memory (and a cold document's from its file): most of the work of a start.
   */
  takesUncompared(stored: StoredOrder): boolean {
    return stored.sorted;
  }

  private async loadInOrder(stored: StoredOrder, ns: string, pause: () => Promise<void>): Promise<boolean> {
    // Not clear(): making the entries (entryInto) noted the multikey fields.
    this.tree.clear();
    const steps = this.fillInOrder(stored, ns, this.tree);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value || this.giveUp();
      await pause();
    }
  }

  /**
   * Leaves the index to be built from a start's recorded order the first time it is read (its tree), or by
   * `materializeAsync`. Only for an order recorded sorted (takesUncompared).
   */
  defer(order: DeferredOrder): void {
    this.deferred = order;
  }

  get isDeferred(): boolean {
    return this.deferred !== undefined;
  }

  /** Builds a deferred index now, at once (sorting if its recorded order does not hold after all). */
  protected materialize(): void {
    const deferred = this.deferred!;
    // Undeferred first: a read of the tree while it is built (leaving doc mode on an array) finds it empty.
    this.deferred = undefined;
    const steps = this.building(deferred, () => true);
    while (!steps.next().done);
  }

  /**
   * Builds a deferred index in slices, pausing between them; a read of its tree meanwhile builds it at once, and
   * this build is then dropped.
   */
  async materializeAsync(pause: () => Promise<void>): Promise<void> {
    const deferred = this.deferred;
    if (deferred === undefined) return;
    for (const _ of this.building(deferred, () => this.deferred === deferred)) {
      await pause();
      if (this.deferred !== deferred) return;
    }
  }

  /** Builds `deferred` into a tree of its own and puts it in place, unless `wanted()` says no more. */
  private *building(deferred: DeferredOrder, wanted: () => boolean): Generator<undefined, void> {
    const tree = this.newTree();
    const inOrder = yield* this.fillInOrder(this.storedOf(deferred), deferred.ns, tree);
    if (!wanted()) return;
    this.deferred = undefined;
    if (inOrder) {
      this.tree = tree;
      // The order holds the snapshot's documents: the writes made over them since, in turn.
      for (const [write, idKey, doc] of deferred.after ?? []) {
        if (write === "add") this.add(idKey, doc);
        else this.remove(idKey, doc);
      }
    }
    // Sorted from the documents as they are now, the writes included.
    else this.build(deferred.docMap, deferred.ns);
  }

  /**
   * A deferred order as fillInOrder takes it: an index that keeps documents reads none (a sparse one reads which
   * documents it leaves out); one that copies values reads them (a cold document's from its bytes).
   */
  private storedOf(deferred: DeferredOrder): StoredOrder {
    const { docs, ids } = deferred;
    const n = docs.length;
    const kinds = new Uint8Array(n);
    const values = this.docMode ? undefined : new Array<unknown>(n * this.width);
    if (this.docMode && this.spec.sparse !== true) kinds.fill(EntryKind.One);
    else {
      const scratch: unknown[] = [];
      for (let at = 0; at < n; at++)
        kinds[at] = values
          ? this.entryInto(ids[at], docs[at], values, at * this.width)
          : this.entryInto(ids[at], docs[at], scratch, 0);
    }
    return { values, kinds, order: deferred.order, sorted: true, docs };
  }

  /**
   * Fills `tree` from a recorded order, checking it as it goes (see buildAsync); yields every 65,536 entries;
   * returns false, with the tree left part-filled, when the order does not hold.
   */
  private *fillInOrder(stored: StoredOrder, ns: string, tree: BTree): Generator<undefined, boolean> {
    const { values, kinds, order, docs } = stored;
    const n = kinds.length;
    if (order.length > n || (this.complete && order.length !== n)) return false;
    // An index that keeps documents reads each entry from its document (`values` were not made for it).
    const fromDocs = values === undefined;
    if (fromDocs !== this.docMode) return false;
    const w = this.width;
    const seen = new Uint8Array(n);
    const builder = tree.builder();
    const compare = !this.takesUncompared(stored);
    // The entry before and this one, as comparisons take them.
    let previous: IndexEntry = new Array(w).fill(null);
    let current: IndexEntry = new Array(w).fill(null);
    for (let i = 0; i < order.length; i++) {
      const at = order[i];
      if (at >= n || seen[at] === 1 || kinds[at] !== EntryKind.One) return false;
      seen[at] = 1;
      const from = at * w;
      if (compare) {
        if (fromDocs) this.expandDoc(docs[at], current);
        else for (let j = 0; j < w; j++) current[j] = values[from + j];
        if (i > 0) {
          if (this.compareEntries(previous, current) >= 0) return false;
          if (this.unique && this.compareKeys(this.keyIn(previous), this.keyIn(current)) === 0)
            throw this.buildDuplicate(ns, current);
        }
        [previous, current] = [current, previous];
      }
      if (fromDocs) builder.push(docs, at);
      else builder.push(values, from);
      if ((i & 65_535) === 65_535) yield;
    }
    // A sparse or partial index leaves documents out: only those without a key.
    if (order.length !== n) {
      for (let at = 0; at < n; at++) if (seen[at] === 0 && kinds[at] !== EntryKind.LeftOut) return false;
    }
    builder.finish();
    return true;
  }

  private giveUp(): false {
    this.clear();
    return false;
  }

  /**
   * Builds from a snapshot of a collection's documents (their ids and the documents, which no write changes: a
   * stored document is replaced, never changed in place), sorting in slices and pausing between them.
   */
  async buildFromAsync(
    ids: string[],
    docs: Doc[],
    ns: string,
    pause: () => Promise<void>,
    shared: BuildShared = {},
  ): Promise<void> {
    this.clear();
    if (await this.sortFlat(ids, docs, ns, pause, shared)) return;
    // A document gave several entries (an array value), or the index is partial or on paths: an array per entry.
    this.clear();
    this.leaveDocMode();
    const SLICE = 16_384;
    // Sorted runs of one slice each, then pairwise merges, pausing between steps.
    const runs: IndexEntry[][] = [];
    let run: IndexEntry[] = [];
    for (let at = 0; at < docs.length; at++) {
      this.collect(ids[at], docs[at], this.keysOf(docs[at]), run);
      if (run.length >= SLICE) {
        runs.push(run.sort(this.compareEntries));
        run = [];
        await pause();
      }
    }
    if (run.length > 0) runs.push(run.sort(this.compareEntries));
    this.loadSorted(await mergeSortedRuns(runs, this.compareEntries, pause), ns);
  }

  private sortAndLoad(docs: Map<string, Doc>, ns: string, pause: () => Promise<void>): Promise<void> {
    const snapshot = snapshotOf(docs);
    return this.buildFromAsync(snapshot.ids, snapshot.docs, ns, pause);
  }

  /**
   * The build of an index on top-level fields without an array per entry (one per document: the heap's collector
   * then has millions fewer objects to move): every entry's values in one flat array, the documents' positions
   * sorted by them in runs and merged, the tree filled from the positions in order. False, having built nothing,
   * when the index is partial or on paths, or a document holds an array in a key field (several entries).
   */
  private async sortFlat(
    ids: string[],
    docs: Doc[],
    ns: string,
    pause: () => Promise<void>,
    shared: BuildShared,
  ): Promise<boolean> {
    if (!this.topLevelFields || this.partial) return false;
    const n = this.fields.length;
    const w = n + 1;
    const values = new Array<unknown>(docs.length * w);
    const positions: number[] = [];
    for (let at = 0; at < docs.length; at++) {
      const kind = this.entryInto(ids[at], docs[at], values, at * w);
      if (kind === EntryKind.Several) return false;
      if (kind === EntryKind.One) positions.push(at);
      if ((at & 8_191) === 8_191) await pause();
    }
    const { sorted, compareKeysAt } = await flatOrder(
      values,
      this.fields,
      this.directions,
      positions,
      docs,
      pause,
      shared,
    );
    if (this.unique) {
      for (let k = 1; k < sorted.length; k++) {
        if (compareKeysAt(sorted[k - 1], sorted[k]) === 0)
          throw this.buildDuplicate(ns, values.slice(sorted[k] * w, sorted[k] * w + w));
      }
    }
    const builder = this.tree.builder();
    if (this.docMode) for (let k = 0; k < sorted.length; k++) builder.push(docs, sorted[k]);
    else for (let k = 0; k < sorted.length; k++) builder.push(values, sorted[k] * w);
    builder.finish();
    if (shared.keepOrderAt !== undefined)
      this.builtOrder = { order: Uint32Array.from(sorted), docWrites: shared.keepOrderAt };
    return true;
  }
}
