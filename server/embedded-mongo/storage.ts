/**
 * The in-memory catalogue: databases, collections, documents and indexes.
 * Every mutation is synchronous (so a write to one document is atomic with
 * respect to every other command) and is reported to an optional journal.
 * Stored documents are never mutated in place: an update replaces the object,
 * which is what lets cursors keep a stable snapshot by holding references.
 */
import { randomUUID } from "node:crypto";
import { Binary, ObjectId } from "bson";
import { Query } from "mingo";
import { MongoCommandError } from "./errors";
import { cloneDeep, formatValue, isPlainObject, keyOf, pathValues, type Doc } from "./values";

export type IndexSpec = {
  v: 2;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
};

/** Receives every change, in order; the durable journal implements it. */
export interface ChangeSink {
  putDocument(ns: string, doc: Doc): void;
  deleteDocument(ns: string, id: unknown): void;
  createCollection(ns: string, options: Doc): void;
  dropCollection(ns: string): void;
  createIndex(ns: string, spec: IndexSpec): void;
  dropIndex(ns: string, name: string): void;
  dropDatabase(db: string): void;
}

type KeyEntry = { key: string; values: unknown[] };

export class Index {
  readonly spec: IndexSpec;
  readonly fields: string[];
  /** full key → ids of the documents holding it */
  private readonly entries = new Map<string, Set<string>>();
  /** first field's key → ids; only kept for compound indexes (prefix lookups) */
  private readonly firstField?: Map<string, Set<string>>;
  private readonly partial?: Query;
  /** set when every field is a top-level name (no dots): scalar values then skip the general path */
  private readonly topLevelFields: boolean;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.topLevelFields = this.fields.every((f) => !f.includes("."));
    if (this.fields.length > 1) this.firstField = new Map();
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression);
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** The keys a document contributes, or null when the index leaves it out. */
  keysOf(doc: Doc): KeyEntry[] | null {
    if (this.partial && !this.partial.test(doc)) return null;
    if (this.topLevelFields) {
      // Fast path: top-level fields holding scalars give one key (the general path below gives the same).
      const values: unknown[] = [];
      let key = "";
      let allMissing = true;
      let scalars = true;
      for (let i = 0; i < this.fields.length && scalars; i++) {
        const v = doc[this.fields[i]];
        if (Array.isArray(v)) scalars = false;
        if (v !== undefined) allMissing = false;
        values.push(v);
        key = i === 0 ? keyOf(v) : `${key}\u0000${keyOf(v)}`;
      }
      if (scalars) return allMissing && this.spec.sparse ? null : [{ key, values }];
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
    return combos.map((values) => ({ key: values.map(keyOf).join("\u0000"), values }));
  }

  /** Throws MongoDB's duplicate key error when another document holds one of doc's keys. */
  checkUnique(doc: Doc, idKey: string, ns: string, keys = this.keysOf(doc)): void {
    if (!this.unique || !keys) return;
    for (const entry of keys) {
      const holders = this.entries.get(entry.key);
      if (!holders) continue;
      for (const holder of holders) {
        if (holder !== idKey) throw this.duplicateError(ns, entry.values);
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
    if (!keys) return;
    for (const entry of keys) addTo(this.entries, entry.key, idKey);
    if (this.firstField) {
      const first = this.topLevelFields ? doc[this.fields[0]] : undefined;
      if (this.topLevelFields && !Array.isArray(first)) addTo(this.firstField, keyOf(first), idKey);
      else for (const v of pathValues(doc, this.fields[0])) addTo(this.firstField, keyOf(v), idKey);
    }
  }

  remove(idKey: string, doc: Doc, keys = this.keysOf(doc)): void {
    if (!keys) return;
    for (const entry of keys) removeFrom(this.entries, entry.key, idKey);
    if (this.firstField) {
      for (const v of pathValues(doc, this.fields[0])) removeFrom(this.firstField, keyOf(v), idKey);
    }
  }

  /**
   * Ids of the documents whose first indexed field equals one of the values.
   * Undefined when this index cannot answer (partial or sparse indexes leave documents out).
   */
  lookupFirstField(valueKeys: string[]): Set<string> | undefined {
    if (this.partial || this.spec.sparse) return undefined;
    const map = this.firstField ?? this.entries;
    const out = new Set<string>();
    for (const k of valueKeys) {
      const ids = map.get(k);
      if (ids) for (const id of ids) out.add(id);
    }
    return out;
  }

  clear(): void {
    this.entries.clear();
    this.firstField?.clear();
  }
}

function sameKeys(a: KeyEntry[] | null, b: KeyEntry[] | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].key !== b[i].key) return false;
  return true;
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(id);
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: "_id_" };

export class Collection {
  readonly db: string;
  readonly name: string;
  readonly uuid: Binary;
  readonly options: Doc;
  /** keyOf(_id) → document, in insertion (natural) order */
  readonly docs = new Map<string, Doc>();
  readonly indexes = new Map<string, Index>();

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

  /** Rebuilds one index from the documents; throws on a unique violation. */
  buildIndex(index: Index): void {
    index.clear();
    for (const [idKey, doc] of this.docs) {
      const keys = index.keysOf(doc);
      try {
        index.checkUnique(doc, idKey, this.ns, keys);
      } catch (error) {
        index.clear();
        if (error instanceof MongoCommandError) {
          throw new MongoCommandError("DuplicateKey", `Index build failed: ${this.ns}: ${error.message}`, error.extra);
        }
        throw error;
      }
      index.add(idKey, doc, keys);
    }
  }

  /**
   * Candidate documents for a filter: an index (or the _id map) answers a
   * top-level equality or $in on its first field; otherwise every document.
   * `exact` says the index answer is the whole filter, so no further test is needed.
   */
  select(filter: Doc): { docs: Doc[]; exact: boolean } {
    const plan = this.plan(filter);
    if (!plan) return { docs: [...this.docs.values()], exact: Object.keys(filter).length === 0 };
    const out: Doc[] = [];
    for (const id of plan.ids) {
      const doc = this.docs.get(id);
      if (doc) out.push(doc);
    }
    const keys = Object.keys(filter);
    return { docs: out, exact: keys.length === 1 && keys[0] === plan.field };
  }

  candidates(filter: Doc): Doc[] {
    return this.select(filter).docs;
  }

  private plan(filter: Doc): { ids: Iterable<string>; field: string } | undefined {
    let best: { ids: Iterable<string>; field: string } | undefined;
    let bestSize = Infinity;
    const consider = (field: string, condition: unknown) => {
      const valueKeys = equalityKeys(condition);
      if (!valueKeys) return;
      if (field === "_id") {
        const unique = [...new Set(valueKeys)];
        if (unique.length < bestSize) {
          best = { ids: unique, field };
          bestSize = unique.length;
        }
        return;
      }
      for (const index of this.indexes.values()) {
        if (index.fields[0] !== field) continue;
        const ids = index.lookupFirstField(valueKeys);
        if (ids && ids.size < bestSize) {
          best = { ids, field };
          bestSize = ids.size;
        }
      }
    };
    for (const [field, condition] of Object.entries(filter)) {
      if (field === "$and" && Array.isArray(condition)) {
        for (const part of condition) {
          if (isPlainObject(part)) for (const [f, c] of Object.entries(part)) if (!f.startsWith("$")) consider(f, c);
        }
      } else if (!field.startsWith("$")) {
        consider(field, condition);
      }
    }
    return best;
  }
}

function isIndexableScalar(value: unknown): boolean {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return true;
  if (value instanceof Date) return true;
  return typeof value === "object" && value !== null && (value as { _bsontype?: string })._bsontype === "ObjectId";
}

/** The value keys an equality/$in condition selects, or undefined when it is not one. */
function equalityKeys(condition: unknown): string[] | undefined {
  if (isIndexableScalar(condition)) return [keyOf(condition)];
  if (!isPlainObject(condition)) return undefined;
  if ("$eq" in condition && isIndexableScalar(condition.$eq)) return [keyOf(condition.$eq)];
  const keys = Object.keys(condition);
  if (keys.length === 1 && keys[0] === "$in" && Array.isArray(condition.$in) && condition.$in.every(isIndexableScalar)) {
    return condition.$in.map(keyOf);
  }
  return undefined;
}

export class Catalog {
  readonly dbs = new Map<string, Map<string, Collection>>();
  sink: ChangeSink | undefined;

  getCollection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  createCollection(db: string, name: string, options: Doc = {}): Collection {
    validateCollectionName(db, name);
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, options);
    colls.set(name, coll);
    this.sink?.createCollection(coll.ns, options);
    return coll;
  }

  ensureCollection(db: string, name: string): Collection {
    return this.getCollection(db, name) ?? this.createCollection(db, name);
  }

  dropCollection(db: string, name: string): Collection | undefined {
    const coll = this.getCollection(db, name);
    if (!coll) return undefined;
    this.dbs.get(db)!.delete(name);
    if (this.dbs.get(db)!.size === 0) this.dbs.delete(db);
    this.sink?.dropCollection(coll.ns);
    return coll;
  }

  dropDatabase(db: string): void {
    if (!this.dbs.has(db)) return;
    this.dbs.delete(db);
    this.sink?.dropDatabase(db);
  }

  /** Inserts a document that already has an _id, enforcing every unique index. */
  insert(coll: Collection, doc: Doc): void {
    const idKey = keyOf(doc._id);
    if (coll.docs.has(idKey)) {
      throw new Index(ID_INDEX).duplicateError(coll.ns, [doc._id]);
    }
    const keysByIndex: [Index, KeyEntry[] | null][] = [];
    for (const index of coll.indexes.values()) {
      const keys = index.keysOf(doc);
      index.checkUnique(doc, idKey, coll.ns, keys);
      keysByIndex.push([index, keys]);
    }
    coll.docs.set(idKey, doc);
    for (const [index, keys] of keysByIndex) index.add(idKey, doc, keys);
    this.sink?.putDocument(coll.ns, doc);
  }

  /** Replaces a stored document by a new object with the same _id. */
  replace(coll: Collection, oldDoc: Doc, newDoc: Doc): void {
    const idKey = keyOf(oldDoc._id);
    const changes: [Index, KeyEntry[] | null, KeyEntry[] | null][] = [];
    for (const index of coll.indexes.values()) {
      const oldKeys = index.keysOf(oldDoc);
      const newKeys = index.keysOf(newDoc);
      // Most updates leave indexed fields alone: nothing to check or move.
      if (sameKeys(oldKeys, newKeys)) continue;
      index.checkUnique(newDoc, idKey, coll.ns, newKeys);
      changes.push([index, oldKeys, newKeys]);
    }
    for (const [index, oldKeys] of changes) index.remove(idKey, oldDoc, oldKeys);
    coll.docs.set(idKey, newDoc);
    for (const [index, , newKeys] of changes) index.add(idKey, newDoc, newKeys);
    this.sink?.putDocument(coll.ns, newDoc);
  }

  remove(coll: Collection, doc: Doc): void {
    const idKey = keyOf(doc._id);
    if (!coll.docs.delete(idKey)) return;
    for (const index of coll.indexes.values()) index.remove(idKey, doc);
    this.sink?.deleteDocument(coll.ns, doc._id);
  }

  createIndex(coll: Collection, spec: IndexSpec): void {
    const index = new Index(spec);
    coll.buildIndex(index);
    coll.indexes.set(spec.name, index);
    this.sink?.createIndex(coll.ns, spec);
  }

  dropIndex(coll: Collection, name: string): void {
    if (coll.indexes.delete(name)) this.sink?.dropIndex(coll.ns, name);
  }
}

/**
 * Deletes documents whose TTL-indexed date field is older than the index's
 * expireAfterSeconds (arrays: the earliest date counts, as in MongoDB).
 * Returns how many were removed.
 */
export function expireDocuments(catalog: Catalog, now = Date.now()): number {
  let removed = 0;
  for (const colls of [...catalog.dbs.values()]) {
    for (const coll of [...colls.values()]) {
      for (const index of coll.indexes.values()) {
        const seconds = index.spec.expireAfterSeconds;
        if (typeof seconds !== "number" || index.fields.length !== 1) continue;
        const field = index.fields[0];
        const cutoff = now - seconds * 1000;
        const expired: Doc[] = [];
        for (const doc of coll.docs.values()) {
          const dates = pathValues(doc, field).filter((v): v is Date => v instanceof Date);
          if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) <= cutoff) expired.push(doc);
        }
        for (const doc of expired) catalog.remove(coll, doc);
        removed += expired.length;
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
  const keys = Object.keys(doc);
  if (keys[0] === "_id") return doc;
  const out: Doc = { _id: "_id" in doc ? doc._id : new ObjectId() };
  for (const k of keys) if (k !== "_id") out[k] = doc[k];
  return out;
}

export { cloneDeep };
