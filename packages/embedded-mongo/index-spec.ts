/**
 * The shapes every index kind shares: its specification (as createIndexes takes it and listIndexes answers it),
 * its key entries, and what the catalogue asks of it. Ordered indexes (storage/index-tree.ts) and text indexes (text.ts)
 * implement CatalogIndex.
 */
import { type Doc, deepEqual } from "./values";

/** A text index's own options, as MongoDB stores them in its specification. */
export type TextIndexSpec = {
  weights: Record<string, number>;
  default_language: string;
  language_override: string;
  textIndexVersion: number;
};

export type IndexSpec = {
  v: 2;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
} & Partial<TextIndexSpec>;

/** The values one document gives an index key (several for a multikey index). */
export type KeyEntry = { values: unknown[] };

/**
 * One index's entry for each of a snapshot's documents in file order (what each gave in `kinds`), and the index's
 * order as positions into them (Index.buildAsync).
 */
export type StoredOrder = {
  /**
   * Each document's entry, at its position × the index's width (key values, then the id), when `kinds` says One;
   * undefined for an index that keeps documents (its entries are read from `docs`).
   */
  values: unknown[] | undefined;
  kinds: Uint8Array;
  order: Uint32Array;
  /** The order was recorded sorted, by this ORDER_VERSION, while its collection did not change: nothing to check. */
  sorted: boolean;
  /** The documents in file order. */
  docs: Doc[];
};

/** What a document gives an index: no entry (a sparse or partial index leaves it out), one, or several (multikey). */
export const EntryKind = { LeftOut: 0, One: 1, Several: 2 } as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];

/** What every index kind offers the catalogue. */
export interface CatalogIndex {
  readonly spec: IndexSpec;
  readonly unique: boolean;
  keysOf(doc: Doc): KeyEntry[] | null;
  checkUnique(doc: Doc, idKey: string, ns: string, keys?: KeyEntry[] | null): void;
  add(idKey: string, doc: Doc, keys?: KeyEntry[] | null): void;
  remove(idKey: string, doc: Doc, keys?: KeyEntry[] | null): void;
  clear(): void;
  /** Bulk build from every document (faster than adding one by one). */
  build(docs: Map<string, Doc>, ns: string): void;
  /** The same, in slices with `pause()` between them (a start-up load must keep answering). */
  buildAsync(docs: Map<string, Doc>, ns: string, pause: () => Promise<void>, stored?: StoredOrder): Promise<boolean>;
}

/** Two key patterns alike: the same fields in the same order, directions equal as numbers. */
export function sameKey(a: Doc, b: Doc): boolean {
  const ka = Object.entries(a);
  const kb = Object.entries(b);
  return (
    ka.length === kb.length &&
    ka.every(([k, v], i) => kb[i][0] === k && (kb[i][1] === v || Number(kb[i][1]) === Number(v)))
  );
}

export function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  return (
    deepEqual(a.weights ?? null, b.weights ?? null) &&
    a.default_language === b.default_language &&
    a.language_override === b.language_override &&
    !!a.unique === !!b.unique &&
    !!a.sparse === !!b.sparse &&
    deepEqual(a.partialFilterExpression ?? null, b.partialFilterExpression ?? null) &&
    a.expireAfterSeconds === b.expireAfterSeconds
  );
}
