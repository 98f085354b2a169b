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
import { randomUUID } from "node:crypto";
import { Binary } from "bson";
import { Query } from "mingo";
import { BTree, type Position } from "./btree";
import { compareValues } from "./bson-order";
import { MongoCommandError } from "./errors";
import { mergeSortedRuns } from "./merge-runs";
import { isPacked, newObjectId } from "./object-id";
import { type CatalogIndex, EntryKind, type IndexSpec, type KeyEntry, type StoredOrder } from "./index-spec";
import { TextIndex } from "./text";
import { coldState, readColdFields, warm } from "./cold";

export type { CatalogIndex, IndexSpec, KeyEntry } from "./index-spec";
import { cloneDeep, docWithId, formatValue, isPlainObject, keyOf, pathValues, type Doc } from "./values";

/** Receives every change, in order, with the function that undoes it; the durable journal implements it. */
export interface ChangeSink {
  /** `raw`, when given, is the document's own BSON (an insert's bytes as they arrived), written as it is. */
  putDocument(ns: string, doc: Doc, undo: () => void, raw?: Buffer): void;
  /**
   * Every document of one insert command, in one change: `documents` is the command's `documents` array in the
   * bytes it arrived in, and each of its documents was stored as decoded from them (`_id` included, wherever it
   * lay). Its replay puts each, `_id` first.
   */
  putDocuments?(ns: string, documents: Buffer, undo: () => void): void;
  deleteDocument(ns: string, id: unknown, undo: () => void): void;
  createCollection(ns: string, options: Doc, undo: () => void): void;
  dropCollection(ns: string, undo: () => void): void;
  createIndex(ns: string, spec: IndexSpec, undo: () => void): void;
  dropIndex(ns: string, name: string, undo: () => void): void;
  dropDatabase(db: string, undo: () => void): void;
  /** How many times writing to disk failed (and the unwritten changes were undone); a yielding write checks it. */
  readonly failures?: number;
  readonly lastFailure?: Error;
}

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

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order of entries with equal keys: their id keys' order (an entry's last value), or for entries holding
 * documents the same order read from the documents' ids (an ObjectId's hexadecimal key orders as its three words).
 */
function compareTails(a: unknown, b: unknown): number {
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

export class Index implements CatalogIndex {
  readonly spec: IndexSpec;
  readonly fields: string[];
  /** 1 or -1 per field. */
  readonly directions: (1 | -1)[];
  /**
   * Replaced (never changed in kind otherwise) when the index stops keeping documents. An index a start deferred
   * (defer) is built from its recorded order the first time its tree is read.
   */
  get tree(): BTree {
    if (this.deferred !== undefined) this.materialize();
    return this.built;
  }
  set tree(tree: BTree) {
    this.built = tree;
  }
  private built!: BTree;
  /** A start's recorded order of this index, not built yet (defer). */
  private deferred: DeferredOrder | undefined;
  /**
   * Entries that are documents: the leaves keep each entry's document, one reference, and the key values are read
   * from it (BTree's expand), instead of a copy of every value. A stored document is never changed in place (an
   * update stores a new object), so its values are the entry's.
   * For an index of two or more top-level fields, not partial, while no document holds an array in them (a
   * multikey key is one element of an array, not the field's value: the index then copies values, for good).
   * An update that leaves this index's key alone does not visit it: its entry keeps the document it had, whose
   * values for this index are the new one's, and Collection.currentOf leads from it to the stored document (a
   * snapshot gives the entry the stored one: journal.ts snapshotChunks).
   * At scale 10 the planning rows' sixteen indexes kept ~63 values per row; now ~17 references.
   */
  private docMode: boolean;
  private readonly docModeAllowed: boolean;
  /** Fields that held an array in some document (MongoDB's multikey paths). */
  readonly multikeyFields = new Set<string>();
  private readonly partial?: Query;
  /** set when every field is a top-level name (no dots): scalar values then skip the general path */
  private readonly topLevelFields: boolean;
  /** The top-level field each key path starts with. */
  private readonly roots: string[];
  /** The key is `_id` alone (a cold document holds it). */
  private readonly onlyId: boolean;
  readonly compareKeys: (a: unknown, b: unknown) => number;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.directions = this.fields.map((f) => (spec.key[f] === -1 ? -1 : 1));
    this.topLevelFields = this.fields.every((f) => !f.includes("."));
    this.roots = [...new Set(this.fields.map((f) => f.split(".")[0]))];
    this.onlyId = this.fields.length === 1 && this.fields[0] === "_id";
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression);
    this.docModeAllowed = this.topLevelFields && !this.partial && this.fields.length >= 2;
    this.docMode = this.docModeAllowed;
    const dirs = this.directions;
    if (this.fields.length === 1) {
      const d = dirs[0];
      this.compareKeys = d === 1 ? compareValues : (a, b) => -compareValues(a, b);
    } else {
      this.compareKeys = (a, b) => {
        const x = a as unknown[];
        const y = b as unknown[];
        for (let i = 0; i < dirs.length; i++) {
          const c = compareValues(x[i], y[i]);
          if (c !== 0) return c * dirs[i];
        }
        return 0;
      };
    }
    const compareKeys = this.compareKeys;
    const n = this.fields.length;
    // A compound key is compared on its first n values, so the entry itself serves as its key.
    this.compareEntries =
      n === 1
        ? (a, b) => compareKeys(a[0], b[0]) || compareTails(a[1], b[1])
        : (a, b) => compareKeys(a, b) || compareTails(a[n], b[n]);
    // One function per index with its field names written in (a property read the engine caches per shape, where
    // doc[fields[i]] is a lookup by name at each call): it runs at every comparison of a search in the tree.
    // A cold document's values (cold.ts) are read from its bytes.
    const reads = this.fields.map((f, i) => `out[${i}] = doc[${JSON.stringify(f)}];`).join(" ");
    this.expandDoc = new Function(
      "cold",
      "readCold",
      "fields",
      `return function expandDoc(doc, out) { if (cold.count !== 0 && readCold(doc, fields, out)) { out[${n}] = doc; return; } ${reads} out[${n}] = doc; };`,
    )(coldState, readColdFields, this.fields) as (ref: unknown, out: IndexEntry) => void;
    this.tree = this.newTree();
  }

  private readonly expandDoc: (ref: unknown, out: IndexEntry) => void;

  /**
   * The order a sort built this index in, as a snapshot records it (positions of the entries' documents among the
   * collection's documents in Map order), kept from a createIndexes build until the next snapshot, which writes it
   * without looking each entry's document up; it holds while the collection's `docWrites` is still `docWrites`
   * (a write during the build moves it too).
   */
  builtOrder: { order: Uint32Array; docWrites: number } | undefined;

  private newTree(): BTree {
    return new BTree(this.compareEntries, this.fields.length + 1, this.docMode ? this.expandDoc : undefined);
  }

  /** True while the entries are documents (docMode). */
  get keepsDocuments(): boolean {
    return this.docMode;
  }

  /** Stops keeping documents (an array met in a key field): the entries become copies of their values, with id keys. */
  private leaveDocMode(): void {
    if (!this.docMode) return;
    this.docMode = false;
    const entries = [...this.tree.entries()];
    this.tree = this.newTree();
    this.tree.load(this.settle(entries));
  }

  /** Entries made while the index kept documents, as the index takes them now (id keys once it copies values). */
  private settle(entries: IndexEntry[]): IndexEntry[] {
    if (this.docMode) return entries;
    const n = this.fields.length;
    for (const entry of entries) if (typeof entry[n] !== "string") entry[n] = keyOf((entry[n] as Doc)._id);
    return entries;
  }

  /** An entry's key as `compareKeys` and the planner's bounds take it: the value itself for one field, else the values. */
  keyIn(entry: IndexEntry): unknown {
    return this.fields.length === 1 ? entry[0] : entry;
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  get name(): string {
    return this.spec.name;
  }

  /** Partial and sparse indexes leave documents out, so they can only answer queries that exclude those too. */
  get complete(): boolean {
    return !this.partial && this.spec.sparse !== true;
  }

  get isMultikey(): boolean {
    return this.multikeyFields.size > 0;
  }

  /**
   * True when the index cannot see a difference between two versions of a document: no partial filter,
   * and every key field's top-level value is the same value (an update shares what it left alone).
   * Lets an update skip computing keys for the indexes it does not touch.
   */
  sameFieldsIn(a: Doc, b: Doc): boolean {
    if (this.partial) return false;
    for (const root of this.roots) if (a[root] !== b[root]) return false;
    return true;
  }

  /** The keys a document contributes, or null when the index leaves it out. */
  keysOf(doc: Doc): KeyEntry[] | null {
    if (this.partial && !this.partial.test(doc)) return null;
    if (this.topLevelFields) {
      // Fast path: top-level fields holding scalars give one key (the general path below gives the same).
      // Sized up front (push() would grow it to 17 slots); makeEntry copies it into the entry the index keeps.
      const values: unknown[] = new Array(this.fields.length);
      const found = this.topLevelValues(doc, values);
      if (found !== Found.Array) return found === Found.Missing && this.spec.sparse ? null : [{ values }];
    }
    const perField = this.fields.map((f) => pathValues(doc, f));
    if (this.spec.sparse && perField.every((vals) => vals.length === 1 && vals[0] === undefined)) return null;
    let combos: unknown[][] = [[]];
    for (const vals of perField) {
      const next: unknown[][] = [];
      const seen = new Set<string>();
      for (const v of vals) {
        const k = keyOf(v);
        if (seen.has(k)) continue;
        seen.add(k);
        for (const c of combos) next.push([...c, v]);
      }
      combos = next;
    }
    return combos.map((values) => ({ values }));
  }

  /** Copies the top-level fields' values into target[at..at + n): all missing, scalars, or an array met (then incomplete). */
  private topLevelValues(doc: Doc, target: unknown[], at = 0): Found {
    let found = Found.Missing;
    for (let i = 0; i < this.fields.length; i++) {
      const v = doc[this.fields[i]];
      if (Array.isArray(v)) return Found.Array;
      if (v !== undefined) found = Found.Scalars;
      target[at + i] = v;
    }
    return found;
  }

  private noteMultikey(doc: Doc): void {
    for (const f of this.fields) {
      if (this.multikeyFields.has(f)) continue;
      if (pathHasArray(doc, f)) this.multikeyFields.add(f);
    }
  }

  private entryKey(values: unknown[]): unknown {
    return this.fields.length === 1 ? values[0] : values;
  }

  /** Throws MongoDB's duplicate key error when another document holds one of doc's keys. */
  checkUnique(doc: Doc, idKey: string, ns: string, keys = this.keysOf(doc)): void {
    if (!this.unique || !keys) return;
    for (const entry of keys) {
      const k = this.entryKey(entry.values);
      const { pos } = this.tree.seek((e) => this.compareKeys(this.keyIn(e), k));
      for (;;) {
        const e = BTree.entryAt(pos);
        if (!e || this.compareKeys(this.keyIn(e), k) !== 0) break;
        if (entryId(e) !== idKey) throw this.duplicateError(ns, entry.values);
        pos.i++;
      }
    }
  }

  duplicateError(ns: string, values: unknown[]): MongoCommandError {
    const keyValue: Doc = {};
    this.fields.forEach((f, i) => {
      keyValue[f] = values[i] === undefined ? null : values[i];
    });
    const shown = this.fields.map((f, i) => `${f}: ${formatValue(values[i])}`).join(", ");
    return new MongoCommandError(
      "DuplicateKey",
      `E11000 duplicate key error collection: ${ns} index: ${this.spec.name} dup key: { ${shown} }`,
      { keyPattern: { ...this.spec.key }, keyValue },
    );
  }

  add(idKey: string, doc: Doc, keys = this.keysOf(doc)): void {
    const entries: IndexEntry[] = [];
    this.collect(idKey, doc, keys, entries);
    for (const entry of this.settle(entries)) this.tree.insert(entry);
  }

  /** The entries a document gives the index (noting multikey fields), into `out`: for addSorted, a build, or add. */
  collect(idKey: string, doc: Doc, keys: KeyEntry[] | null, out: IndexEntry[]): void {
    if (!keys) return;
    if (keys.length > 1 || !this.topLevelFields || this.fields.some((f) => Array.isArray(doc[f]))) {
      this.noteMultikey(doc);
      if (this.isMultikey) this.leaveDocMode();
    }
    for (const entry of keys) out.push(this.makeEntry(entry.values, idKey, doc));
  }

  /**
   * What collect(idKey, doc, keysOf(doc), out) gives, without the intermediate keys when the key fields are top-level
   * scalars (an insert batch's path: one array per entry, the one the batch sorts).
   */
  collectOf(idKey: string, doc: Doc, out: IndexEntry[]): void {
    if (this.topLevelFields && !this.partial) {
      const n = this.fields.length;
      const entry: IndexEntry = new Array(n + 1);
      const found = this.topLevelValues(doc, entry);
      if (found === Found.Missing && this.spec.sparse) return;
      if (found !== Found.Array) {
        entry[n] = this.docMode ? doc : idKey;
        out.push(entry);
        return;
      }
    }
    this.collect(idKey, doc, this.keysOf(doc), out);
  }

  /** Adds entries of documents not yet in the index (a batch's, from collect), in one pass over the tree. */
  addSorted(entries: IndexEntry[]): void {
    this.tree.insertSorted(this.settle(entries).sort(this.compareEntries));
  }

  remove(idKey: string, doc: Doc, keys = this.keysOf(doc)): void {
    if (!keys) return;
    for (const entry of keys) this.tree.delete(this.makeEntry(entry.values, idKey, doc));
  }

  clear(): void {
    this.deferred = undefined;
    this.multikeyFields.clear();
    if (this.docMode === this.docModeAllowed) this.tree.clear();
    else {
      this.docMode = this.docModeAllowed;
      this.tree = this.newTree();
    }
  }

  private makeEntry(values: unknown[], idKey: string, doc: Doc): IndexEntry {
    const n = this.fields.length;
    const entry: IndexEntry = new Array(n + 1);
    for (let i = 0; i < n; i++) entry[i] = values[i];
    entry[n] = this.docMode ? doc : idKey;
    return entry;
  }

  private readonly compareEntries: (a: IndexEntry, b: IndexEntry) => number;

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

  /** Values per entry: the key's, then the document's id. */
  get width(): number {
    return this.fields.length + 1;
  }

  /**
   * Writes the one entry a document gives the index (noting multikey fields) into target[at, at + width), with the
   * id key last whether or not the index keeps documents, and says so; or says that the index leaves the document
   * out, or that it gives several.
   */
  entryInto(idKey: string, doc: Doc, target: unknown[], at: number): EntryKind {
    const n = this.fields.length;
    if (coldState.count !== 0 && !this.onlyId) {
      // A cold document (cold.ts): top-level scalars are read from its bytes; anything else decodes it first (its
      // `_id` it holds already, the one object the document keeps).
      if (!this.topLevelFields || this.partial) warm(doc);
      else if (readColdFields(doc, this.fields, target, at)) {
        let missing = true;
        for (let j = 0; j < n; j++) if (target[at + j] !== undefined) missing = false;
        if (missing && this.spec.sparse) return EntryKind.LeftOut;
        target[at + n] = idKey;
        return EntryKind.One;
      }
    }
    if (this.topLevelFields && !this.partial) {
      const found = this.topLevelValues(doc, target, at);
      if (found !== Found.Array) {
        if (found === Found.Missing && this.spec.sparse) return EntryKind.LeftOut;
        target[at + n] = idKey;
        return EntryKind.One;
      }
    }
    const keys = this.keysOf(doc);
    if (!keys) return EntryKind.LeftOut;
    const out: IndexEntry[] = [];
    this.collect(idKey, doc, keys, out);
    if (out.length !== 1) return EntryKind.Several;
    for (let j = 0; j < n; j++) target[at + j] = out[0][j];
    target[at + n] = idKey;
    return EntryKind.One;
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
  private materialize(): void {
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
    if (inOrder) this.built = tree;
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
   * Calls `visit` with the last value of each of up to `limit` entries in index order after `last` (from the first
   * without it): the entry's id key, or the document it holds (an index that keeps documents), without making the
   * entry, and its position (valid during the call: BTree.setRefAt). Returns the last entry visited, whence the
   * next slice goes on; undefined when there was none. A snapshot writes an index's order in slices, and the tree
   * may change between them.
   */
  eachIdAfter(
    last: IndexEntry | undefined,
    limit: number,
    visit: (id: unknown, pos: Position) => void,
  ): IndexEntry | undefined {
    const pos =
      last === undefined ? this.tree.first() : this.tree.seek((e) => (this.compareEntries(e, last) <= 0 ? -1 : 1)).pos;
    let count = 0;
    let at: Position | undefined;
    // The limit is checked before the next look: looking moves the position over a leaf's end.
    while (count < limit) {
      const id = BTree.lastValueAt(pos);
      if (id === undefined) break;
      visit(id, pos);
      at = { leaf: pos.leaf, i: pos.i };
      count++;
      pos.i++;
    }
    return at && BTree.entryAt(at);
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
    const dirs = this.directions;
    // Each key value replaced by a number in the same order (sortColumns), where every value is a scalar or a
    // date: a comparison is then a few comparisons of numbers.
    // Every document has an entry: a field's column is the same for each index of the command that holds it.
    const byField = positions.length === docs.length ? (shared.columns ??= new Map()) : undefined;
    const sorting = await sortColumns(
      values,
      w,
      n,
      positions,
      docs.length,
      dirs,
      pause,
      byField && { fields: this.fields, byField },
    );
    const columns = sorting?.columns ?? [];
    const columnDirs = sorting?.directions ?? [];
    const compareKeysAt = sorting
      ? (i: number, j: number): number => {
          for (let c = 0; c < columns.length; c++) {
            const a = columns[c][i];
            const b = columns[c][j];
            if (a !== b) return a < b ? -columnDirs[c] : columnDirs[c];
          }
          return 0;
        }
      : (i: number, j: number): number => {
          const a = i * w;
          const b = j * w;
          for (let f = 0; f < n; f++) {
            const c = compareValues(values[a + f], values[b + f]);
            if (c !== 0) return c * dirs[f];
          }
          return 0;
        };
    // Equal keys go by the documents' ids (their keyOf strings); for ObjectIds that is the order of their words.
    if (sorting && shared.idWords === undefined)
      shared.idWords = idWordColumns(docs.length, docs.keys(), (p) => docs[p]._id) ?? null;
    const idWords = sorting ? shared.idWords : undefined;
    const compareIdsAt = idWords
      ? compareIdWordsAt(idWords)
      : (i: number, j: number): number => compareIds(values[i * w + n] as string, values[j * w + n] as string);
    const compare = (i: number, j: number): number => compareKeysAt(i, j) || compareIdsAt(i, j);
    // Where the key's ranks and the ids' ranks fit in one exact number per entry: a native sort of those numbers.
    if (sorting && idWords && !shared.idRanks) shared.idRanks = await idRanksOf(idWords, docs.length, pause);
    const idField = this.fields.indexOf("_id");
    const idKey = idField < 0 ? undefined : { field: idField, descending: dirs[idField] < 0 };
    const sorted =
      (sorting && idWords && (await packedOrder(sorting, positions, shared.idRanks!, pause, idKey))) ||
      (await sortInRuns(positions, compare, pause));
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

/** `items` sorted by `compare` in runs of 65,536 merged pairwise, pausing between steps. */
async function sortInRuns<T>(items: T[], compare: (a: T, b: T) => number, pause: () => Promise<void>): Promise<T[]> {
  const SLICE = 65_536;
  const runs: T[][] = [];
  for (let from = 0; from < items.length; from += SLICE) {
    runs.push(items.slice(from, from + SLICE).sort(compare));
    await pause();
  }
  return mergeSortedRuns(runs, compare, pause);
}

/** Each document position's rank by _id (`rank`), and the position of each rank (`at`). */
type IdRanks = { rank: Float64Array; at: Uint32Array };

/** Compares the ObjectIds at two positions by their three words (idWordColumns): their byte order. */
function compareIdWordsAt([w0, w1, w2]: Float64Array[]): (i: number, j: number) => number {
  return (i, j) => w0[i] - w0[j] || w1[i] - w1[j] || w2[i] - w2[j];
}

/** The ranks of the documents' ObjectIds, in their byte order. */
async function idRanksOf(idWords: Float64Array[], size: number, pause: () => Promise<void>): Promise<IdRanks> {
  const all = Array.from({ length: size }, (_, i) => i);
  const at = Uint32Array.from(await sortInRuns(all, compareIdWordsAt(idWords), pause));
  const rank = new Float64Array(size);
  for (let r = 0; r < size; r++) rank[at[r]] = r;
  return { rank, at };
}

/**
 * The positions in index order, sorted as numbers: each entry's number is its key columns' ranks (reversed for a
 * descending field) read as the digits of a mixed-radix number, then its document's id rank (ties go by _id, as the
 * comparison does). When the digits so far would pass 2^53 (no longer exact), they are first replaced by their dense
 * ranks (at most one per entry). A key holding `_id` ends there: the id rank, in that field's direction, decides,
 * and the fields after it never do. A native sort of numbers takes a fraction of a comparison sort's time.
 * Undefined when even dense ranks would not fit (over ~94 M documents): the caller compares instead.
 */
async function packedOrder(
  sorting: SortColumns,
  positions: number[],
  ids: IdRanks,
  pause: () => Promise<void>,
  idKey?: { field: number; descending: boolean },
): Promise<number[] | undefined> {
  const count = positions.length;
  const size = ids.at.length;
  const LIMIT = Number.MAX_SAFE_INTEGER + 1;
  if (size * size > LIMIT) return undefined;
  const keys = new Float64Array(count);
  let span = 1;
  for (let c = 0; c < sorting.columns.length; c++) {
    if (idKey && sorting.fieldOf[c] >= idKey.field) break;
    const column = sorting.columns[c];
    const digits = new Float64Array(count);
    for (let k = 0; k < count; k++) digits[k] = column[positions[k]];
    // ObjectId words become ranks; other columns hold ranks already.
    const radix = sorting.rankCounts[c] ?? (await toDenseRanks(digits, pause));
    if (span * radix > LIMIT) span = await toDenseRanks(keys, pause);
    const descending = sorting.directions[c] < 0;
    for (let k = 0; k < count; k++) keys[k] = keys[k] * radix + (descending ? radix - 1 - digits[k] : digits[k]);
    span *= radix;
    await pause();
  }
  if (span * size > LIMIT) await toDenseRanks(keys, pause);
  const reversed = idKey?.descending === true;
  for (let k = 0; k < count; k++) {
    const rank = ids.rank[positions[k]];
    keys[k] = keys[k] * size + (reversed ? size - 1 - rank : rank);
  }
  const sorted = await sortNumbers(keys, pause);
  const order = new Array<number>(count);
  for (let k = 0; k < count; k++) {
    const digit = sorted[k] % size;
    order[k] = ids.at[reversed ? size - 1 - digit : digit];
  }
  return order;
}

/** Replaces each number of `values` by its rank among their distinct values (0 and −0 are one); returns how many. */
async function toDenseRanks(values: Float64Array, pause: () => Promise<void>): Promise<number> {
  const distinct = await sortNumbers(values.slice(), pause);
  let d = 0;
  for (let k = 0; k < distinct.length; k++) if (d === 0 || distinct[k] !== distinct[d - 1]) distinct[d++] = distinct[k];
  const ranks = distinct.subarray(0, d);
  for (let k = 0; k < values.length; k++) {
    values[k] = rankIn(ranks, values[k]);
    if ((k & 65_535) === 65_535) await pause();
  }
  return d;
}

/** The index of `value` in `sorted` (ascending, distinct, holding it). */
function rankIn(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** `keys` sorted ascending, natively in slices of 65,536 then merged pairwise, pausing between steps. */
async function sortNumbers(keys: Float64Array, pause: () => Promise<void>): Promise<Float64Array> {
  const SLICE = 65_536;
  for (let from = 0; from < keys.length; from += SLICE) {
    keys.subarray(from, Math.min(keys.length, from + SLICE)).sort();
    await pause();
  }
  let from: Float64Array = keys;
  let to: Float64Array = new Float64Array(keys.length);
  for (let width = SLICE; width < keys.length; width *= 2) {
    for (let start = 0; start < keys.length; start += 2 * width) {
      const middle = Math.min(start + width, keys.length);
      const end = Math.min(start + 2 * width, keys.length);
      let i = start;
      let j = middle;
      let k = start;
      while (i < middle && j < end) to[k++] = from[i] <= from[j] ? from[i++] : from[j++];
      while (i < middle) to[k++] = from[i++];
      while (j < end) to[k++] = from[j++];
      await pause();
    }
    [from, to] = [to, from];
  }
  return from;
}

/**
 * For each key field, a number per document position whose order is the BSON order of the field's values, when
 * the field holds only scalars and dates: the dense rank of the value where it holds only numbers (no NaN), of the
 * time where it holds only valid dates, else the value's rank among the field's distinct values (values that compare
 * equal share a rank: null and missing, 1 and 1.0); an ObjectId's three words. Undefined when some value is of
 * another kind (compared as values). With `shared` (every document at `positions`), a field's columns come
 * from and go to `shared.byField`: the indexes of one build that hold a field make its columns once.
 */
async function sortColumns(
  values: unknown[],
  w: number,
  n: number,
  positions: number[],
  size: number,
  directions: (1 | -1)[],
  pause: () => Promise<void>,
  shared?: { fields: string[]; byField: Map<string, FieldColumns> },
): Promise<SortColumns | undefined> {
  const out: SortColumns = { columns: [], directions: [], rankCounts: [], fieldOf: [] };
  for (let f = 0; f < n; f++) {
    const known = shared?.byField.get(shared.fields[f]);
    const made = known ?? (await fieldColumns(values, w, f, positions, size, pause));
    if (!made) return undefined;
    if (shared && !known) shared.byField.set(shared.fields[f], made);
    for (let c = 0; c < made.columns.length; c++) {
      out.columns.push(made.columns[c]);
      out.directions.push(directions[f]);
      out.rankCounts.push(made.rankCounts[c]);
      out.fieldOf.push(f);
    }
  }
  return out;
}

/** One key field's columns (three for ObjectIds, else one) and their rank counts, as sortColumns describes. */
type FieldColumns = { columns: Float64Array[]; rankCounts: (number | undefined)[] };

/** The columns of key field `f` (sortColumns), numbers and times as their dense ranks. */
async function fieldColumns(
  values: unknown[],
  w: number,
  f: number,
  positions: number[],
  size: number,
  pause: () => Promise<void>,
): Promise<FieldColumns | undefined> {
  let numbers = true;
  let dates = true;
  let ids = true;
  for (let k = 0; k < positions.length && (numbers || dates || ids); k++) {
    const v = values[positions[k] * w + f];
    if (numbers && !(typeof v === "number" && v === v)) numbers = false;
    if (dates && !(v instanceof Date && v.getTime() === v.getTime())) dates = false;
    if (ids && !isPacked(v)) ids = false;
  }
  // An ObjectId in byte order: its three 32-bit words, unsigned, one column each.
  if (ids)
    return {
      columns: idWordColumns(size, positions, (p) => values[p * w + f])!,
      rankCounts: [undefined, undefined, undefined],
    };
  const column = new Float64Array(size);
  if (numbers || dates) {
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k];
      const v = values[p * w + f];
      column[p] = numbers ? (v as number) : (v as Date).getTime();
    }
    // Ranked over the whole column: a position left out (0) may add a rank, which changes no entry's order.
    return { columns: [column], rankCounts: [await toDenseRanks(column, pause)] };
  }
  // Strings, dates (by time) and the other scalars in maps of their own: "1" and 1 are distinct values.
  const strings = new Map<string, number>();
  const times = new Map<number, number>();
  const others = new Map<unknown, number>();
  const distinct: unknown[] = [];
  for (let k = 0; k < positions.length; k++) {
    const p = positions[k];
    const v = values[p * w + f];
    const t = typeof v;
    let map: Map<unknown, number>;
    let key: unknown = v;
    if (t === "string") map = strings as Map<unknown, number>;
    else if (v instanceof Date) {
      map = times as Map<unknown, number>;
      key = v.getTime();
    } else if (t === "number" || t === "boolean" || v === null || v === undefined) map = others;
    else return undefined;
    let slot = map.get(key);
    if (slot === undefined) {
      slot = distinct.length;
      distinct.push(v);
      map.set(key, slot);
    }
    column[p] = slot;
  }
  const byValue = distinct.map((_, i) => i).sort((a, b) => compareValues(distinct[a], distinct[b]));
  const rankOfSlot = new Float64Array(distinct.length);
  let rank = 0;
  for (let k = 0; k < byValue.length; k++) {
    if (k > 0 && compareValues(distinct[byValue[k - 1]], distinct[byValue[k]]) !== 0) rank++;
    rankOfSlot[byValue[k]] = rank;
  }
  for (let k = 0; k < positions.length; k++) column[positions[k]] = rankOfSlot[column[positions[k]]];
  return { columns: [column], rankCounts: [distinct.length === 0 ? 0 : rank + 1] };
}

/**
 * What the builds from one snapshot share: the three words of each document's _id when all are ObjectIds (null: not
 * all are), and their ranks (`idRanks`, made by the first build that sorts by numbers); `keepOrderAt`: each index a
 * sort builds keeps the order it sorted (Index.builtOrder), valid while the collection's docWrites is this;
 * `columns`: each key field's columns (sortColumns), made by the first build that holds the field.
 */
type BuildShared = {
  idWords?: Float64Array[] | null;
  idRanks?: IdRanks;
  keepOrderAt?: number;
  columns?: Map<string, FieldColumns>;
};

/**
 * The three 32-bit words (unsigned) of the ObjectId at each of `positions`, in columns of `size` by position; undefined
 * when one of them is not an ObjectId.
 */
function idWordColumns(
  size: number,
  positions: Iterable<number>,
  idAt: (position: number) => unknown,
): Float64Array[] | undefined {
  const words = [new Float64Array(size), new Float64Array(size), new Float64Array(size)];
  for (const p of positions) {
    const id = idAt(p);
    if (!isPacked(id)) return undefined;
    words[0][p] = id.w0 >>> 0;
    words[1][p] = id.w1 >>> 0;
    words[2][p] = id.w2 >>> 0;
  }
  return words;
}

/** A collection's documents and their ids as two arrays by position (what a build sorts). */
function snapshotOf(docs: Map<string, Doc>): { ids: string[]; docs: Doc[] } {
  const ids = new Array<string>(docs.size);
  const list = new Array<Doc>(docs.size);
  let at = 0;
  for (const [idKey, doc] of docs) {
    ids[at] = idKey;
    list[at++] = doc;
  }
  return { ids, docs: list };
}

/** Numbers in the order of an index's key values (sortColumns): one column per value, or three per ObjectId. */
type SortColumns = {
  columns: Float64Array[];
  directions: (1 | -1)[];
  /** Per column: how many distinct ranks it holds (0..n−1) when its numbers are ranks, else undefined. */
  rankCounts: (number | undefined)[];
  /** Per column: the key field it comes from (an ObjectId field gives three columns). */
  fieldOf: number[];
};

/** What a document's top-level key fields hold (Index.topLevelValues). */
const enum Found {
  Missing,
  Scalars,
  Array,
}

/** True when a dotted path crosses or ends at an array in the document. */
function pathHasArray(doc: unknown, path: string): boolean {
  const parts = path.split(".");
  let current: unknown[] = [doc];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const value of current) {
      if (Array.isArray(value)) return true;
      if (isPlainObject(value)) next.push(value[part]);
    }
    current = next;
  }
  return current.some((v) => Array.isArray(v));
}

/** A snapshot's documents in file order, each index's recorded order, and which of these were recorded sorted. */
/** A start's recorded order of an index left to build later (Index.defer): the snapshot's documents in file order. */
export type DeferredOrder = { docs: Doc[]; ids: string[]; order: Uint32Array; ns: string; docMap: Map<string, Doc> };

export type StoredOrders = {
  docs: Doc[];
  ids: string[];
  orders: Map<string, Uint32Array>;
  sorted: Set<string>;
  /** The documents were loaded cold (cold.ts): every one the journal did not change since the snapshot. */
  cold: boolean;
};
/**
 * How a load built a collection's indexes: from the snapshot's recorded order, or by sorting; `uncompared`: of those in
 * order, the ones taken without comparing their entries (recorded sorted: StoredOrder).
 */
export type IndexBuildCounts = { inOrder: number; sorted: number; uncompared: number };
/**
 * A start's builds of one collection's indexes; `unrecorded`: indexes whose order a snapshot records that were sorted
 * instead (their recorded order missing, or not holding).
 */
export type CollectionBuildCounts = IndexBuildCounts & { unrecorded: number };

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: "_id_" };

/**
 * A collection's documents by id key. While some stored document is cold (cold.ts), every document it gives is
 * warmed first; otherwise it is a Map.
 *
 * A start that loads a collection cold hands its documents over without putting them in the map (`adopt`): a
 * million entries are a second of a start. They go in, in their order and before anything else, at the first call
 * that needs the map, or a slice at a time in the background pass (`settleAsync`); `size` counts them meanwhile.
 */
export class DocMap extends Map<string, Doc> {
  private pending: { ids: string[]; docs: Doc[]; at: number } | undefined;

  /** An empty map's documents, in order, by their id keys: put in it when first needed. */
  adopt(ids: string[], docs: Doc[]): void {
    if (super.size !== 0 || this.pending !== undefined) throw new Error("DocMap.adopt: the map is not empty");
    if (ids.length > 0) this.pending = { ids, docs, at: 0 };
  }

  static {
    // Map#size counts the adopted documents not in the map yet (an accessor, which TypeScript declares a property).
    const inMap = Object.getOwnPropertyDescriptor(Map.prototype, "size")!.get!;
    Object.defineProperty(this.prototype, "size", {
      get(this: DocMap): number {
        const pending = this.pending;
        return (inMap.call(this) as number) + (pending === undefined ? 0 : pending.ids.length - pending.at);
      },
    });
  }

  /** Puts the adopted documents in, a slice at a time (a call that needs the map meanwhile puts the rest in). */
  async settleAsync(pause: () => Promise<void>): Promise<void> {
    for (let pending = this.pending; pending !== undefined && pending === this.pending; pending = this.pending) {
      const stop = Math.min(pending.ids.length, pending.at + 16_384);
      for (; pending.at < stop; pending.at++) super.set(pending.ids[pending.at], pending.docs[pending.at]);
      if (pending.at === pending.ids.length) this.pending = undefined;
      else await pause();
    }
  }

  private settle(): void {
    const pending = this.pending!;
    this.pending = undefined;
    for (let at = pending.at; at < pending.ids.length; at++) super.set(pending.ids[at], pending.docs[at]);
  }

  override get(key: string): Doc | undefined {
    if (this.pending !== undefined) this.settle();
    const doc = super.get(key);
    if (coldState.count !== 0 && doc !== undefined) warm(doc);
    return doc;
  }

  override has(key: string): boolean {
    if (this.pending !== undefined) this.settle();
    return super.has(key);
  }

  override set(key: string, doc: Doc): this {
    if (this.pending !== undefined) this.settle();
    return super.set(key, doc);
  }

  override delete(key: string): boolean {
    if (this.pending !== undefined) this.settle();
    return super.delete(key);
  }

  override clear(): void {
    this.pending = undefined;
    super.clear();
  }

  override keys(): MapIterator<string> {
    if (this.pending !== undefined) this.settle();
    return super.keys();
  }

  override values(): MapIterator<Doc> {
    if (this.pending !== undefined) this.settle();
    return coldState.count === 0 ? super.values() : warming(super.values(), (doc) => doc);
  }

  override entries(): MapIterator<[string, Doc]> {
    if (this.pending !== undefined) this.settle();
    return coldState.count === 0 ? super.entries() : warming(super.entries(), (entry) => entry[1]);
  }

  override [Symbol.iterator](): MapIterator<[string, Doc]> {
    return this.entries();
  }

  override forEach(visit: (doc: Doc, key: string, map: Map<string, Doc>) => void, thisArg?: unknown): void {
    for (const [key, doc] of this.entries()) visit.call(thisArg, doc, key, this);
  }

  /** The documents as stored, cold ones left cold: for a caller that needs only their identity (a snapshot's numbering). */
  storedValues(): MapIterator<Doc> {
    if (this.pending !== undefined) this.settle();
    return super.values();
  }

  /** The document stored under `key`, a cold one left cold (see storedValues). */
  stored(key: string): Doc | undefined {
    if (this.pending !== undefined) this.settle();
    return super.get(key);
  }
}

function* warming<T>(items: MapIterator<T>, docOf: (item: T) => Doc): MapIterator<T> {
  for (const item of items) {
    if (coldState.count !== 0) warm(docOf(item));
    yield item;
  }
}

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
    const unread = ordered.map((index, k) =>
      usable?.cold === true && index.keepsDocuments && index.spec.sparse !== true
        ? (made[k].kinds.fill(EntryKind.One), true)
        : false,
    );
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

export function createIndexObject(spec: IndexSpec): CatalogIndex {
  return Object.values(spec.key).includes("text") ? new TextIndex(spec) : new Index(spec);
}

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

class InsertBatch {
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
function rawInsert(
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

function rawRemove(coll: Collection, idKey: string, doc: Doc): void {
  if (!coll.docs.delete(idKey)) return;
  coll.docWrites++;
  if (coll.builds.size > 0) noteForBuilds(coll, idKey, doc, undefined);
  coll.idIndex.remove(idKey, doc, [{ values: [doc._id] }]);
  for (const index of coll.indexes.values()) index.remove(idKey, doc);
}

function rawReplace(
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

let buildSliceMs = 8;

/** Tests: index builds yield at every pause (0) instead of after 8 ms of work; undefined restores the default. */
export function setIndexBuildSlice(ms: number | undefined): void {
  buildSliceMs = ms ?? 8;
}

/** A pause for long work beside the commands: yields to them once the current slice has run for 8 ms. */
function slicePause(): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < buildSliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    start = performance.now();
  };
}

function sameKeys(a: KeyEntry[] | null, b: KeyEntry[] | null): boolean {
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

/**
 * Deletes documents whose TTL-indexed date field is older than the index's
 * expireAfterSeconds (arrays: the earliest date counts, as in MongoDB).
 * Walks the index from its start, so only expired entries are read.
 * Returns how many were removed.
 */
export function expireDocuments(catalog: Catalog, now = Date.now()): number {
  let removed = 0;
  if (catalog.loading) return 0;
  for (const colls of [...catalog.dbs.values()]) {
    for (const coll of [...colls.values()]) {
      for (const index of coll.indexes.values()) {
        const seconds = index.spec.expireAfterSeconds;
        if (typeof seconds !== "number" || !(index instanceof Index) || index.fields.length !== 1) continue;
        const field = index.fields[0];
        const cutoff = now - seconds * 1000;
        const expired = new Map<string, Doc>();
        // Dates sort after every other type; seek to the first date and walk while expired (both directions of the index).
        const ascending = index.directions[0] === 1;
        const { pos } = index.tree.seek((e) =>
          index.compareKeys(e[0], ascending ? new Date(-8.64e15) : new Date(cutoff)),
        );
        for (;;) {
          const e = BTree.entryAt(pos);
          if (!e) break;
          pos.i++;
          const key = e[0];
          if (!(key instanceof Date)) {
            if (ascending) break;
            continue;
          }
          if (key.getTime() > cutoff) {
            if (ascending) break;
            continue;
          }
          const id = entryId(e);
          const doc = coll.docs.get(id);
          if (!doc) continue;
          const dates = pathValues(doc, field).filter((v): v is Date => v instanceof Date);
          if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) <= cutoff) expired.set(id, doc);
        }
        for (const doc of expired.values()) catalog.remove(coll, doc);
        removed += expired.size;
      }
    }
  }
  return removed;
}

export function validateCollectionName(db: string, name: string): void {
  if (!db || /[/\\. "$]/.test(db)) {
    throw new MongoCommandError("InvalidNamespace", `Invalid database name: '${db}'`);
  }
  if (!name || name.includes("$") || name.includes("\u0000") || name.startsWith(".") || name.startsWith("system.")) {
    throw new MongoCommandError("InvalidNamespace", `Invalid collection name: ${db}.${name}`);
  }
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

export { cloneDeep };
