/**
 * Sources: a plan run as documents pulled one at a time (PAUSE now and then), surviving yields; the collection scan
 * and the index scan, which re-seeks to the last key it returned.
 */
import { BTree, type Position } from "../btree";
import type { Collection } from "../storage/collection";
import { entryDoc, entryId, type IndexEntry } from "../storage/index-entry";
import type { Doc } from "../values";
import { compareToStart, mayRepeat, pastEnd, rankSpan } from "./key-ranges";
import type { IndexScanPlan, KeyRange } from "./plan";

export type ScanStats = { keysExamined: number; docsExamined: number };

/** Returned by a source that examined many documents without a match: a chance to yield. */
export const PAUSE = Symbol("pause");
export const PAUSE_EVERY = 256;

/** Documents in plan order, pulled one at a time (PAUSE now and then); save/restore around yields. */
export interface Source {
  next(): Doc | undefined | typeof PAUSE;
  save(): void;
  restore(): void;
  /** Skips n results cheaply when the source can (exact index scans): returns how many it skipped. */
  skip?(n: number): number;
}

/** A source that can also push its documents in a tight loop (no per-document call through next()). */
export interface FastSource {
  forEach(onDoc: (doc: Doc) => boolean, every256: () => Promise<void> | undefined): Promise<void>;
}

export class CollScan implements Source, FastSource {
  private iter: IterableIterator<Doc>;
  constructor(
    coll: Collection,
    direction: 1 | -1,
    private readonly test: ((doc: Doc) => boolean) | undefined,
    private readonly stats: ScanStats,
  ) {
    this.iter = direction === 1 ? coll.docs.values() : [...coll.docs.values()].reverse()[Symbol.iterator]();
  }
  async forEach(onDoc: (doc: Doc) => boolean, every256: () => Promise<void> | undefined): Promise<void> {
    const test = this.test;
    const stats = this.stats;
    let i = 0;
    // for…of over the Map's iterator survives the awaits: entries added or removed meanwhile are seen or skipped, as a Map iteration does.
    try {
      if (!test) {
        for (const doc of this.iter) {
          i++;
          if (!onDoc(doc)) return;
          if ((i & 255) === 0) {
            const pause = every256();
            if (pause) await pause;
          }
        }
        return;
      }
      for (const doc of this.iter) {
        i++;
        if (test(doc) && !onDoc(doc)) return;
        if ((i & 255) === 0) {
          const pause = every256();
          if (pause) await pause;
        }
      }
    } finally {
      // Counted once at the end (the explain and profiler read it after the scan).
      stats.docsExamined += i;
    }
  }
  next(): Doc | undefined | typeof PAUSE {
    for (let misses = 0; misses < PAUSE_EVERY; misses++) {
      const r = this.iter.next();
      if (r.done) return undefined;
      this.stats.docsExamined++;
      if (!this.test || this.test(r.value)) return r.value;
    }
    return PAUSE;
  }
  save(): void {}
  restore(): void {}
}

/**
 * The document an index entry names, when it still exists, was not returned before (`seen`, kept when a document can
 * have several entries) and passes `test` (none: the bounds said everything); counted as examined once fetched. An
 * entry read in the same synchronous step (`fresh`: no yield since) of an index that keeps documents holds a version of
 * the stored document (storage/index-tree.ts): then no id key is made nor looked up.
 */
export function fetchEntry(
  coll: Collection,
  entry: IndexEntry,
  seen: Set<string> | undefined,
  stats: ScanStats,
  test: ((doc: Doc) => boolean) | undefined,
  fresh = true,
): Doc | undefined {
  const held = fresh && seen === undefined ? entryDoc(entry) : undefined;
  let doc: Doc | undefined;
  if (held !== undefined) doc = coll.currentOf(held);
  else {
    const id = entryId(entry);
    if (seen) {
      if (seen.has(id)) return undefined;
      seen.add(id);
    }
    doc = coll.docs.get(id);
    if (!doc) return undefined;
  }
  stats.docsExamined++;
  return !test || test(doc) ? doc : undefined;
}

export class IndexScan implements Source {
  private rangeIdx = 0;
  private pos: Position | undefined;
  private last: IndexEntry | undefined;
  private lastRange = -1;
  private readonly seen: Set<string> | undefined;
  private test: ((doc: Doc) => boolean) | undefined;
  private readonly ranges: KeyRange[];

  constructor(
    private readonly coll: Collection,
    private readonly plan: IndexScanPlan,
    ranges: KeyRange[],
    private readonly matcher: (doc: Doc) => boolean,
    private readonly stats: ScanStats,
  ) {
    this.ranges = plan.direction === 1 ? ranges : [...ranges].reverse();
    this.seen = plan.index.isMultikey || (ranges.length > 1 && mayRepeat(plan)) ? new Set() : undefined;
    this.test = plan.exact ? undefined : matcher;
  }

  /** The next entry within the ranges, in scan order. */
  nextEntry(): IndexEntry | undefined {
    const index = this.plan.index;
    const tree = index.tree;
    while (this.rangeIdx < this.ranges.length) {
      const r = this.ranges[this.rangeIdx];
      if (this.plan.direction === 1) {
        if (!this.pos) this.pos = tree.seek((e) => compareToStart(index, index.keyIn(e), r.start)).pos;
        const e = BTree.entryAt(this.pos);
        if (e && !pastEnd(index, index.keyIn(e), r.end)) {
          this.pos.i++;
          this.last = e;
          this.lastRange = this.rangeIdx;
          return e;
        }
      } else {
        if (!this.pos) {
          this.pos = tree.seek((e) => (pastEnd(index, index.keyIn(e), r.end) ? 0 : -1)).pos;
          if (!BTree.stepBack(this.pos)) this.pos = undefined;
        }
        if (this.pos && this.pos.i >= 0) {
          const e = BTree.entryAt(this.pos);
          if (e && compareToStart(index, index.keyIn(e), r.start) >= 0) {
            if (!BTree.stepBack(this.pos)) this.pos.i = -1;
            this.last = e;
            this.lastRange = this.rangeIdx;
            return e;
          }
        }
      }
      this.rangeIdx++;
      this.pos = undefined;
    }
    return undefined;
  }

  next(): Doc | undefined | typeof PAUSE {
    for (let misses = 0; misses < PAUSE_EVERY; misses++) {
      const e = this.nextEntry();
      if (!e) return undefined;
      this.stats.keysExamined++;
      const doc = fetchEntry(this.coll, e, this.seen, this.stats, this.test);
      if (doc) return doc;
    }
    return PAUSE;
  }

  save(): void {
    this.pos = undefined;
  }

  restore(): void {
    // Documents may have changed while we yielded: test them from now on.
    this.test = this.matcher;
    if (!this.last || this.lastRange !== this.rangeIdx || this.rangeIdx >= this.ranges.length) return;
    const index = this.plan.index;
    const cmp = index.tree;
    const last = this.last;
    const lastKey = index.keyIn(last);
    const lastId = entryId(last);
    const compareEntries = (e: IndexEntry) =>
      index.compareKeys(index.keyIn(e), lastKey) || (entryId(e) < lastId ? -1 : entryId(e) > lastId ? 1 : 0);
    if (this.plan.direction === 1) {
      this.pos = cmp.seek((e) => (compareEntries(e) <= 0 ? -1 : 0)).pos;
    } else {
      this.pos = cmp.seek((e) => (compareEntries(e) < 0 ? -1 : 0)).pos;
      if (!BTree.stepBack(this.pos)) this.pos.i = -1;
    }
  }

  /** Skips by rank in the tree (no key or document read), forward from the range's start or backward from its end. */
  skip(n: number): number {
    if (!this.plan.exact || this.seen || this.pos || this.rangeIdx !== 0 || this.ranges.length !== 1) return 0;
    const index = this.plan.index;
    const { from, to } = rankSpan(index, this.ranges[0]);
    const skipped = Math.min(n, Math.max(0, to - from));
    if (this.plan.direction === 1) this.pos = index.tree.atRank(from + skipped);
    else if (skipped < to - from) this.pos = index.tree.atRank(to - 1 - skipped);
    else this.rangeIdx = this.ranges.length; // everything skipped: the scan is over
    return skipped;
  }
}
