/**
 * An ordered index as a tree of entries (IndexTree, completed by Index in indexes.ts with its builds): the keys a
 * document gives it (multikey fields, sparse and partial indexes), whether its entries are documents or copies of
 * their values, unique checks, and one document's entries added and removed.
 */
import { Query } from "mingo";
import { compareValues } from "../bson-order";
import { BTree, type Position } from "../btree";
import { coldState, readColdFields, warm } from "../cold";
import { MongoCommandError } from "../errors";
import { EntryKind, type IndexSpec, type KeyEntry } from "../index-spec";
import { type Doc, formatValue, isPlainObject, keyOf, pathValues } from "../values";
import type { DeferredOrder } from "./index-build";
import { compareTails, entryId, type IndexEntry } from "./index-entry";

/** The keys, the tree and the writes of an ordered index; Index (indexes.ts) adds its builds. */
export abstract class IndexTree {
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
  protected deferred: DeferredOrder | undefined;
  /**
   * Entries that are documents: the leaves keep each entry's document, one reference, and the key values are read
   * from it (BTree's expand), instead of a copy of every value. A stored document is never changed in place (an
   * update stores a new object), so its values are the entry's.
   * For an index of two or more top-level fields, not partial, while no document holds an array in them (a
   * multikey key is one element of an array, not the field's value: the index then copies values, for good).
   * An update that leaves this index's key alone does not visit it: its entry keeps the document it had, whose
   * values for this index are the new one's, and Collection.currentOf leads from it to the stored document (a
   * snapshot gives the entry the stored one: journal/snapshot.ts snapshotChunks).
   * A planning row then costs its indexes about one reference each instead of copies of their key values.
   */
  protected docMode: boolean;
  private readonly docModeAllowed: boolean;
  /** Fields that held an array in some document (MongoDB's multikey paths). */
  readonly multikeyFields = new Set<string>();
  protected readonly partial?: Query;
  /** set when every field is a top-level name (no dots): scalar values then skip the general path */
  protected readonly topLevelFields: boolean;
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

  protected readonly expandDoc: (ref: unknown, out: IndexEntry) => void;

  protected newTree(): BTree {
    return new BTree(this.compareEntries, this.fields.length + 1, this.docMode ? this.expandDoc : undefined);
  }

  /** True while the entries are documents (docMode). */
  get keepsDocuments(): boolean {
    return this.docMode;
  }

  /** Stops keeping documents (an array met in a key field): the entries become copies of their values, with id keys. */
  protected leaveDocMode(): void {
    if (!this.docMode) return;
    this.docMode = false;
    const entries = [...this.tree.entries()];
    this.tree = this.newTree();
    this.tree.load(this.settle(entries));
  }

  /** Entries made while the index kept documents, as the index takes them now (id keys once it copies values). */
  protected settle(entries: IndexEntry[]): IndexEntry[] {
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
    if (this.deferred !== undefined && this.keptForLater("add", idKey, doc)) return;
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
   * scalars (an insert batch's path: one array per entry, the one the batch sorts); nothing when an index a start
   * deferred keeps the document for later (keptForLater).
   */
  collectOf(idKey: string, doc: Doc, out: IndexEntry[]): void {
    if (this.deferred !== undefined && this.keptForLater("add", idKey, doc)) return;
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
    // None gathered (each kept for later by a deferred index: collectOf): the tree is not read.
    if (entries.length === 0) return;
    this.tree.insertSorted(this.settle(entries).sort(this.compareEntries));
  }

  remove(idKey: string, doc: Doc, keys = this.keysOf(doc)): void {
    if (!keys) return;
    if (this.deferred !== undefined && this.keptForLater("remove", idKey, doc)) return;
    for (const entry of keys) this.tree.delete(this.makeEntry(entry.values, idKey, doc));
  }

  /**
   * A write to an index a start left to build from its recorded order (defer): kept with that order and made, in
   * turn, once the index is built (Index.building), so that a write does not build it at once; a unique index is
   * built by the write's check first. Not an added document that makes the index multikey: the planner reads that
   * before the tree.
   */
  private keptForLater(write: "add" | "remove", idKey: string, doc: Doc): boolean {
    if (write === "add" && this.fields.some((f) => pathHasArray(doc, f))) return false;
    (this.deferred!.after ??= []).push([write, idKey, doc]);
    return true;
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

  protected readonly compareEntries: (a: IndexEntry, b: IndexEntry) => number;

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

  /** Builds a deferred index now, at once (Index.materialize). */
  protected abstract materialize(): void;
}

/** What a document's top-level key fields hold (Index.topLevelValues). */
enum Found {
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
