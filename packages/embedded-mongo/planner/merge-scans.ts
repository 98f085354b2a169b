/**
 * SORT_MERGE: the scans of an index plan's points merged by the sort, on index keys (EntryMergeScan) or on fetched
 * documents (MergeScan).
 */
import { compareValues } from "../bson-order";
import type { Collection } from "../storage/collection";
import type { IndexEntry } from "../storage/index-entry";
import { type Doc, keyOf } from "../values";
import { mayRepeat } from "./key-ranges";
import type { IndexScanPlan, SortSpec } from "./plan";
import { fetchEntry, IndexScan, PAUSE, PAUSE_EVERY, type ScanStats, type Source } from "./scan";
import { compareDocs } from "./sort";

/** The scans of a SORT_MERGE that hold a head, as a binary heap ordered by `less` (O(log k) per result). */
class ScanHeap {
  private readonly items: number[] = [];
  constructor(private readonly less: (a: number, b: number) => boolean) {}
  get size(): number {
    return this.items.length;
  }
  push(scan: number): void {
    const items = this.items;
    let at = items.push(scan) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.less(items[at], items[parent])) break;
      [items[at], items[parent]] = [items[parent], items[at]];
      at = parent;
    }
  }
  pop(): number {
    const items = this.items;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let at = 0; ; ) {
        const l = 2 * at + 1;
        const r = l + 1;
        let best = at;
        if (l < items.length && this.less(items[l], items[best])) best = l;
        if (r < items.length && this.less(items[r], items[best])) best = r;
        if (best === at) break;
        [items[at], items[best]] = [items[best], items[at]];
        at = best;
      }
    }
    return top;
  }
}

/**
 * SORT_MERGE on index keys (an index whose fields are not arrays holds the sort fields in its entries): the points'
 * scans are merged by their next entry, and only the entry that comes out is fetched. A merge of 2,700 points for one
 * page thus reads 2,700 keys but about as many documents as the page skips and shows, not one per point.
 */
export class EntryMergeScan implements Source {
  private readonly scans: IndexScan[];
  private readonly heads: (IndexEntry | undefined)[];
  private readonly refill: number[];
  private readonly heap = new ScanHeap((a, b) => this.less(a, b));
  private readonly stale: boolean[];
  /** Heads read before the last yield (their documents may have changed since). */
  private readonly heldOver: boolean[];
  private readonly seen: Set<string> | undefined;
  /** Index positions and directions of the sort fields, compared in the index's own order. */
  private readonly sortAt: { at: number; sign: number }[];
  private test: ((doc: Doc) => boolean) | undefined;
  constructor(
    private readonly coll: Collection,
    plan: IndexScanPlan,
    private readonly matcher: (doc: Doc) => boolean,
    private readonly stats: ScanStats,
    sort: SortSpec,
  ) {
    this.scans = plan.ranges.map((r) => new IndexScan(coll, { ...plan, ranges: [r] }, [r], matcher, stats));
    this.heads = this.scans.map(() => undefined);
    this.refill = this.scans.map((_, i) => this.scans.length - 1 - i);
    this.stale = this.scans.map(() => false);
    this.heldOver = this.scans.map(() => false);
    this.seen = mayRepeat(plan) ? new Set() : undefined;
    this.sortAt = sort.map(([field, d]) => ({ at: plan.index.fields.indexOf(field), sign: d }));
    this.test = plan.exact ? undefined : matcher;
  }
  private less(a: number, b: number): boolean {
    const x = this.heads[a] as IndexEntry;
    const y = this.heads[b] as IndexEntry;
    for (const { at, sign } of this.sortAt) {
      const c = compareValues(x[at], y[at]) * sign;
      if (c !== 0) return c < 0;
    }
    return a < b;
  }
  next(): Doc | undefined | typeof PAUSE {
    for (let misses = 0; misses < PAUSE_EVERY; misses++) {
      while (this.refill.length > 0) {
        const i = this.refill.pop()!;
        if (this.stale[i]) {
          this.scans[i].save();
          this.scans[i].restore();
          this.stale[i] = false;
        }
        const entry = this.scans[i].nextEntry();
        this.heads[i] = entry;
        this.heldOver[i] = false;
        if (entry) {
          this.stats.keysExamined++;
          this.heap.push(i);
        }
      }
      if (this.heap.size === 0) return undefined;
      const best = this.heap.pop();
      const head = this.heads[best] as IndexEntry;
      this.heads[best] = undefined;
      this.refill.push(best);
      const doc = fetchEntry(this.coll, head, this.seen, this.stats, this.test, !this.heldOver[best]);
      if (doc) return doc;
    }
    return PAUSE;
  }
  /**
   * A yield: documents may change meanwhile (test them from now on, and fetch the heads read before it through their
   * ids); each scan re-seeks when it is next read.
   */
  save(): void {
    this.stale.fill(true);
    this.heldOver.fill(true);
    this.test = this.matcher;
  }
  restore(): void {}
}

/**
 * K-way merge of per-range index scans by the sort key (MongoDB's SORT_MERGE over exploded points): a binary heap of
 * the scans by their current document, so each result costs O(log k) comparisons however many points the $in holds.
 */
export class MergeScan implements Source {
  private readonly heads: (Doc | undefined)[];
  private readonly scans: IndexScan[];
  /** Scans whose next document must be read before the heap can answer (all of them at first). */
  private readonly refill: number[];
  /** Scans holding a document, ordered by it (ties by scan order, as a stable merge). */
  private readonly heap = new ScanHeap((a, b) => this.less(a, b));
  /** Ids returned so far, kept only when a document can be in two ranges (see mayRepeat). */
  private readonly seen: Set<string> | undefined;
  /** Scans that yielded since they were last read: restored before their next read. */
  private readonly stale: boolean[];
  constructor(
    coll: Collection,
    plan: IndexScanPlan,
    matcher: (doc: Doc) => boolean,
    stats: ScanStats,
    private readonly sort: SortSpec,
  ) {
    this.scans = plan.ranges.map((r) => new IndexScan(coll, { ...plan, ranges: [r] }, [r], matcher, stats));
    this.seen = mayRepeat(plan) ? new Set() : undefined;
    this.heads = this.scans.map(() => undefined);
    this.stale = this.scans.map(() => false);
    this.refill = this.scans.map((_, i) => this.scans.length - 1 - i);
  }
  private less(a: number, b: number): boolean {
    const c = compareDocs(this.heads[a] as Doc, this.heads[b] as Doc, this.sort);
    return c < 0 || (c === 0 && a < b);
  }
  next(): Doc | undefined | typeof PAUSE {
    for (;;) {
      while (this.refill.length > 0) {
        const i = this.refill[this.refill.length - 1];
        if (this.stale[i]) {
          this.scans[i].save();
          this.scans[i].restore();
          this.stale[i] = false;
        }
        const head = this.scans[i].next();
        if (head === PAUSE) return PAUSE;
        this.refill.pop();
        this.heads[i] = head;
        if (head) this.heap.push(i);
      }
      if (this.heap.size === 0) return undefined;
      const best = this.heap.pop();
      const doc = this.heads[best] as Doc;
      this.heads[best] = undefined;
      this.refill.push(best);
      if (this.seen) {
        const id = keyOf(doc._id);
        if (this.seen.has(id)) continue;
        this.seen.add(id);
      }
      return doc;
    }
  }
  /**
   * A yield: each scan is restored (re-seeked) only when it is next read, so a yield costs nothing per point; a merge of
   * thousands of points re-seeking all of them every few milliseconds would spend its time seeking.
   */
  save(): void {
    this.stale.fill(true);
  }
  restore(): void {}
}
