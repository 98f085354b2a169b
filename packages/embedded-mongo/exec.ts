/**
 * Running plans: reads pull documents from a plan's source in slices of a
 * few milliseconds and yield to the event loop between slices, so one long
 * scan never holds up the other connections; `maxTimeMS` is checked at every
 * slice (MaxTimeMSExpired, code 50). Sorts the plan does not provide keep
 * only the top skip + limit documents when there is a limit, and otherwise
 * sort in chunks with yields in between.
 */

import { compareValues } from "./bson-order";
import { BTree } from "./btree";
import { MongoCommandError } from "./errors";
import { mergeSortedRuns } from "./merge-runs";
import { rangeTests } from "./planner/key-ranges";
import type { IndexScanPlan, Plan, PlannedQuery, SortSpec } from "./planner/plan";
import { type FastSource, PAUSE, type ScanStats, type Source } from "./planner/scan";
import { sortKeyOf } from "./planner/sort";
import { countFromIndex, type MatcherFactory, openSource } from "./planner/sources";
import type { Collection } from "./storage/collection";
import type { Index } from "./storage/indexes";
import { type Doc, keyOf, pathValues } from "./values";

/** How long a read runs before it lets other work in. */
export const SLICE_MS = 8;

export class ExecContext {
  private sliceStart = performance.now();
  private readonly deadline: number | undefined;
  readonly startedAt = performance.now();
  yields = 0;

  constructor(maxTimeMS?: number) {
    this.deadline = maxTimeMS && maxTimeMS > 0 ? this.startedAt + maxTimeMS : undefined;
  }

  /** Throws MaxTimeMSExpired once the command's time budget is spent. */
  check(): void {
    if (this.deadline !== undefined && performance.now() > this.deadline) {
      throw new MongoCommandError("MaxTimeMSExpired", "operation exceeded time limit");
    }
  }

  /** True when the current slice is used up: the caller should yield. */
  sliceOver(): boolean {
    return performance.now() - this.sliceStart > SLICE_MS;
  }

  /** Lets other commands run, then checks the time budget. The source re-seeks afterwards. */
  async yield(source?: Source): Promise<void> {
    source?.save();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.yields++;
    this.sliceStart = performance.now();
    this.check();
    source?.restore();
  }

  /** Checks time every 64 steps and yields when the slice is over. */
  async tick(step: number, source?: Source): Promise<void> {
    if ((step & 63) !== 63) return;
    this.check();
    if (this.sliceOver()) await this.yield(source);
  }

  get elapsedMs(): number {
    return performance.now() - this.startedAt;
  }
}

/** Pulls every document from a source into `onDoc` until it returns false or the source ends. */
export async function drain(ctx: ExecContext, source: Source, onDoc: (doc: Doc) => boolean): Promise<void> {
  if ("forEach" in source && typeof (source as Partial<FastSource>).forEach === "function") {
    await (source as unknown as FastSource).forEach(onDoc, () => {
      ctx.check();
      return ctx.sliceOver() ? ctx.yield(source) : undefined;
    });
    return;
  }
  for (let step = 0; ; step++) {
    const doc = source.next();
    if (doc === undefined) return;
    if (doc === PAUSE) {
      ctx.check();
      if (ctx.sliceOver()) await ctx.yield(source);
      continue;
    }
    if (!onDoc(doc)) return;
    // Checked every 64 documents: an await per document would cost more than the work itself.
    if ((step & 63) === 63) await ctx.tick(step, source);
  }
}

/** Precomputed sort keys, so a comparison never walks a document. */
type Keyed = { doc: Doc; keys: unknown[]; seq: number };

function keyed(doc: Doc, sort: SortSpec, seq: number): Keyed {
  return { doc, keys: sort.map(([field, dir]) => sortKeyOf(doc, field, dir)), seq };
}

function compareKeyed(sort: SortSpec): (a: Keyed, b: Keyed) => number {
  const dirs = sort.map(([, d]) => d);
  return (a, b) => {
    for (let i = 0; i < dirs.length; i++) {
      const c = compareValues(a.keys[i], b.keys[i]);
      if (c !== 0) return c * dirs[i];
    }
    return a.seq - b.seq;
  };
}

/** Keeps the first `k` documents in sort order (a bounded max-heap). */
export class TopK {
  private readonly heap: Keyed[] = [];
  private seq = 0;
  private readonly cmp: (a: Keyed, b: Keyed) => number;
  constructor(
    private readonly sort: SortSpec,
    private readonly k: number,
  ) {
    this.cmp = compareKeyed(sort);
  }
  push(doc: Doc): void {
    const item = keyed(doc, this.sort, this.seq++);
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (this.cmp(h[i], h[p]) <= 0) break;
        [h[i], h[p]] = [h[p], h[i]];
        i = p;
      }
      return;
    }
    if (this.k === 0 || this.cmp(item, h[0]) >= 0) return;
    h[0] = item;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.cmp(h[l], h[m]) > 0) m = l;
      if (r < h.length && this.cmp(h[r], h[m]) > 0) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
  result(): Doc[] {
    return [...this.heap].sort(this.cmp).map((x) => x.doc);
  }
}

const SORT_CHUNK = 8192;

/** A stable sort in chunks with yields between them (large in-memory sorts). */
export async function sortDocs(ctx: ExecContext, docs: Doc[], sort: SortSpec): Promise<Doc[]> {
  const cmp = compareKeyed(sort);
  const items = docs.map((d, i) => keyed(d, sort, i));
  if (items.length <= SORT_CHUNK) return items.sort(cmp).map((x) => x.doc);
  const runs: Keyed[][] = [];
  for (let i = 0; i < items.length; i += SORT_CHUNK) {
    runs.push(items.slice(i, i + SORT_CHUNK).sort(cmp));
    ctx.check();
    if (ctx.sliceOver()) await ctx.yield();
  }
  const merged = await mergeSortedRuns(runs, cmp, () => (ctx.sliceOver() ? ctx.yield() : undefined), 8191);
  return merged.map((x) => x.doc);
}

export type FindOptions = { skip: number; limit: number; compile: MatcherFactory };

/** Runs a planned find: the documents of the page (skip, limit), in order. */
export async function runFind(
  ctx: ExecContext,
  coll: Collection | undefined,
  q: PlannedQuery,
  opts: FindOptions,
  stats: ScanStats,
): Promise<Doc[]> {
  const source = openSource(coll, q, stats, opts.compile);
  let skip = opts.skip;
  const limit = opts.limit > 0 ? opts.limit : Infinity;
  if (!q.blockingSort) {
    if (skip > 0 && source.skip) skip -= source.skip(skip);
    const out: Doc[] = [];
    await drain(ctx, source, (doc) => {
      if (skip > 0) {
        skip--;
        return true;
      }
      out.push(doc);
      return out.length < limit;
    });
    return out;
  }
  if (limit !== Infinity) {
    const top = new TopK(q.blockingSort, skip + limit);
    await drain(ctx, source, (doc) => {
      top.push(doc);
      return true;
    });
    return top.result().slice(skip, skip + limit);
  }
  const all: Doc[] = [];
  await drain(ctx, source, (doc) => {
    all.push(doc);
    return true;
  });
  const sorted = await sortDocs(ctx, all, q.blockingSort);
  return skip > 0 ? sorted.slice(skip) : sorted;
}

/** Counts a planned query: from the index alone when it can (COUNT_SCAN), else by reading. */
export async function runCount(
  ctx: ExecContext,
  coll: Collection | undefined,
  q: PlannedQuery,
  stats: ScanStats,
  compile: MatcherFactory,
): Promise<number> {
  if (!coll || q.plan.kind === "eof") return 0;
  const fromIndex = countFromIndex(q.plan);
  if (fromIndex !== undefined) {
    stats.keysExamined += fromIndex;
    return fromIndex;
  }
  if (q.plan.kind === "collscan" && Object.keys(q.filter).length === 0) {
    stats.docsExamined += coll.docs.size;
    return coll.docs.size;
  }
  const source = openSource(coll, q, stats, compile);
  let n = 0;
  await drain(ctx, source, () => {
    n++;
    return true;
  });
  return n;
}

/** An index whose first field is `key`, usable for a DISTINCT_SCAN (every document in it). */
export function distinctIndex(coll: Collection, key: string): Index | undefined {
  return coll.orderedIndexes().find((i) => i.complete && i.fields[0] === key);
}

/**
 * The distinct values of an index's first field, one seek per value (DISTINCT_SCAN): over the whole index, or
 * within the ranges of a plan that bounds that field alone.
 */
export async function distinctScan(
  ctx: ExecContext,
  index: Index,
  stats: ScanStats,
  within?: IndexScanPlan,
): Promise<unknown[]> {
  const out: unknown[] = [];
  const dir = index.directions[0];
  let step = 0;
  for (const range of within ? rangeTests(within) : [undefined]) {
    let pos = range ? index.tree.seek(range.beforeStart).pos : index.tree.first();
    for (; ; step++) {
      const e = BTree.entryAt(pos);
      if (!e || range?.pastEnd(e)) break;
      stats.keysExamined++;
      const v = e[0]; // the entry's first key value
      // A missing field is no value; an explicit null is one (the two share the index key).
      if (v !== undefined) out.push(v);
      pos = index.tree.seek((x) => (compareValues(x[0], v) * dir <= 0 ? -1 : 0)).pos;
      if ((step & 63) === 63) {
        ctx.check();
        if (ctx.sliceOver()) await ctx.yield();
      }
    }
  }
  return out;
}

/**
 * The plan of a distinct's filter when a DISTINCT_SCAN answers it: an exact scan of an index led by `key` that
 * bounds that field only, on single values (an array's other elements are values of the documents it matched).
 */
export function boundedDistinctPlan(plan: Plan, key: string): IndexScanPlan | undefined {
  if (plan.kind !== "ixscan" || !plan.exact || plan.index.isMultikey || plan.mergeSort) return undefined;
  return plan.index.fields[0] === key && plan.boundedFields === 1 ? plan : undefined;
}

/** The distinct values of `key` over documents (arrays contribute their elements). */
export async function distinctFromDocs(ctx: ExecContext, source: Source, key: string): Promise<unknown[]> {
  const values: unknown[] = [];
  const seen = new Set<string>();
  await drain(ctx, source, (doc) => {
    for (const v of pathValues(doc, key)) {
      if (v === undefined) continue;
      const k = keyOf(v);
      if (!seen.has(k)) {
        seen.add(k);
        values.push(v);
      }
    }
    return true;
  });
  return values;
}
