/**
 * Key ranges of an index scan: the cross product of its fields' intervals, tests of an entry against a range, and
 * counting the keys a range holds in the counted B+ tree (exact or sampled).
 */
import type { IndexEntry } from "../storage/index-entry";
import type { Index } from "../storage/indexes";
import { compareBounds, compareToBound, type Interval } from "./bounds";
import type { IndexScanPlan, KeyRange } from "./plan";

/**
 * The most key ranges one index plan enumerates (the cross product of its fields' intervals); past it the index is not a
 * candidate. Counting a range costs two seeks, so 4,096 ranges cost about 8,000 seeks per candidate: enough for the
 * portal's planning filter naming 1,000 SKUs in four channels (app/models/planning-attribute-sets.server.ts).
 */
const MAX_RANGES = 4_096;

export function buildRanges(index: Index, fieldIntervals: Interval[][]): KeyRange[] | undefined {
  let ranges: KeyRange[] = [{ start: [], end: [] }];
  for (let f = 0; f < index.fields.length; f++) {
    const dir = index.directions[f];
    const intervals = dir === 1 ? fieldIntervals[f] : [...fieldIntervals[f]].reverse();
    const next: KeyRange[] = [];
    for (const r of ranges) {
      for (const i of intervals) {
        const [s, si, e, ei] = dir === 1 ? [i.lo, i.loInc, i.hi, i.hiInc] : [i.hi, i.hiInc, i.lo, i.loInc];
        next.push({ start: [...r.start, { v: s, inc: si }], end: [...r.end, { v: e, inc: ei }] });
      }
    }
    if (next.length > MAX_RANGES) return undefined;
    ranges = next;
  }
  return ranges;
}

/** Orders an entry's key against a range start (negative: before the start). */
export function compareToStart(index: Index, key: unknown, start: KeyRange["start"]): number {
  const single = index.fields.length === 1;
  for (let f = 0; f < start.length; f++) {
    const v = single ? key : (key as unknown[])[f];
    const c = compareToBound(v, start[f].v) * index.directions[f];
    if (c !== 0) return c;
    if (!start[f].inc) return -1;
  }
  return 0;
}

/** True when an entry's key is after a range end. */
export function pastEnd(index: Index, key: unknown, end: KeyRange["end"]): boolean {
  const single = index.fields.length === 1;
  for (let f = 0; f < end.length; f++) {
    const v = single ? key : (key as unknown[])[f];
    const c = compareToBound(v, end[f].v) * index.directions[f];
    if (c < 0) return false;
    if (c > 0) return true;
    if (!end[f].inc) return true;
  }
  return false;
}

/** An index plan's ranges as tests on entries, in scan order: before the range's start, past its end. */
export function rangeTests(
  plan: IndexScanPlan,
): { beforeStart: (e: IndexEntry) => number; pastEnd: (e: IndexEntry) => boolean }[] {
  const index = plan.index;
  return plan.ranges.map((r) => ({
    beforeStart: (e: IndexEntry) => compareToStart(index, index.keyIn(e), r.start),
    pastEnd: (e: IndexEntry) => pastEnd(index, index.keyIn(e), r.end),
  }));
}

/** The ranks in the index tree of a range's first entry and of the first entry past it. */
export function rankSpan(index: Index, r: KeyRange): { from: number; to: number } {
  const from = index.tree.rankOf((e) => compareToStart(index, index.keyIn(e), r.start));
  const to = index.tree.rankOf((e) => (pastEnd(index, index.keyIn(e), r.end) ? 0 : -1));
  return { from, to };
}

export function countRange(index: Index, r: KeyRange): number {
  const { from, to } = rankSpan(index, r);
  return Math.max(0, to - from);
}

/** Ranges a plan's cost counts one by one; past this, an even sample of them is counted and scaled. */
const RANGES_COUNTED = 64;

/**
 * How many keys a plan's ranges hold, to cost it: exact up to RANGES_COUNTED ranges, else estimated from an even sample
 * (an $in of hundreds of points would cost two seeks per point per candidate index). A count the plan answers from the
 * index still counts every range (countFromIndex).
 */
export function estimateKeys(index: Index, ranges: KeyRange[]): number {
  let keys = 0;
  if (ranges.length <= RANGES_COUNTED) {
    for (const r of ranges) keys += countRange(index, r);
    return keys;
  }
  const step = ranges.length / RANGES_COUNTED;
  for (let k = 0; k < RANGES_COUNTED; k++) keys += countRange(index, ranges[Math.floor(k * step)]);
  return Math.round((keys * ranges.length) / RANGES_COUNTED);
}

/**
 * Whether a scan over the plan's ranges may meet a document twice: an array field's values each have a key, and
 * overlapping intervals of one field (two regex prefixes, say) make overlapping ranges. Otherwise a document has
 * one key and the ranges are disjoint, and remembering every id returned (a hex string per document) is waste.
 */
export function mayRepeat(plan: IndexScanPlan): boolean {
  if (plan.index.isMultikey) return true;
  return plan.fieldIntervals.some((intervals) => intervals.some((iv, i) => i > 0 && !before(intervals[i - 1], iv)));
}

/** True when interval a ends before interval b starts (both in ascending order, sorted by their start). */
function before(a: Interval, b: Interval): boolean {
  const c = compareBounds(a.hi, b.lo);
  return c < 0 || (c === 0 && !(a.hiInc && b.loInc));
}
