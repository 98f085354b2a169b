/**
 * The query planner: turns a filter (and a sort) into index bounds, builds
 * one candidate plan per usable index plus the collection scan, estimates
 * each by counting its bounds in the index (exact and O(log n), thanks to
 * the counted B+ tree) and picks the cheapest. Plans are described in the
 * shape MongoDB's explain uses (queryPlanner.winningPlan with stage /
 * inputStage / indexName / indexBounds), and run as sources that fetch
 * documents in index order, stop early and survive yields by re-seeking to
 * the last key they returned.
 */
import { BTree, type Position } from "./btree";
import { compareValues, isBoundScalar, Rank, sortValue, typeRank } from "./bson-order";
import { MongoCommandError } from "./errors";
import { textScores } from "./expressions";
import { entryDoc, entryId, type Collection, type Index, type IndexEntry } from "./storage";
import { parseTextQuery, describeTextQuery, type TextIndex, type TextQuery } from "./text";
import { isPlainObject, keyOf, pathValues, type Doc } from "./values";

// ---------------------------------------------------------------------------------------------
// Bound values and intervals

/** A bound below/above every value of one BSON type (rank), or below/above everything (no rank). */
type Sentinel = { readonly sentinel: "min" | "max"; readonly rank?: number };
type BoundValue = unknown;
const MIN: Sentinel = { sentinel: "min" };
const MAX: Sentinel = { sentinel: "max" };
const minOf = (rank: number): Sentinel => ({ sentinel: "min", rank });
const maxOf = (rank: number): Sentinel => ({ sentinel: "max", rank });

function isSentinel(v: unknown): v is Sentinel {
  return (
    typeof v === "object" &&
    v !== null &&
    "sentinel" in v &&
    Object.getPrototypeOf(v) === Object.prototype &&
    Object.keys(v).every((k) => k === "sentinel" || k === "rank")
  );
}

/** Orders a value against a bound value. */
function compareToBound(v: unknown, b: BoundValue): number {
  if (isSentinel(b)) {
    const r = typeRank(v);
    if (b.rank === undefined) {
      if (b.sentinel === "min") return r === Rank.MinKey ? 0 : 1;
      return r === Rank.MaxKey ? 0 : -1;
    }
    if (b.sentinel === "min") return r < b.rank ? -1 : 1;
    return r > b.rank ? 1 : -1;
  }
  return compareValues(v, b);
}

/** An interval of one field's values, in ascending BSON order. */
type Interval = { lo: BoundValue; loInc: boolean; hi: BoundValue; hiInc: boolean };
const FULL: Interval = { lo: MIN, loInc: true, hi: MAX, hiInc: true };
const point = (v: unknown): Interval => ({ lo: v, loInc: true, hi: v, hiInc: true });

function isPoint(i: Interval): boolean {
  return !isSentinel(i.lo) && i.loInc && i.hiInc && compareValues(i.lo, i.hi) === 0;
}

function boundsText(v: BoundValue): string {
  if (isSentinel(v)) {
    if (v.rank === undefined) return v.sentinel === "min" ? "MinKey" : "MaxKey";
    const names: Record<number, [string, string]> = {
      [Rank.Number]: ["-inf", "inf"],
      [Rank.String]: ['""', "{}"],
      [Rank.Date]: ["new Date(-9223372036854775808)", "new Date(9223372036854775807)"],
      [Rank.ObjectId]: ["ObjectId('000000000000000000000000')", "ObjectId('ffffffffffffffffffffffff')"],
      [Rank.Boolean]: ["false", "true"],
      [Rank.RegExp]: ["/(?:)/", "MaxKey"],
    };
    const pair = names[v.rank] ?? ["MinKey", "MaxKey"];
    return v.sentinel === "min" ? pair[0] : pair[1];
  }
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (typeof v === "object" && (v as { _bsontype?: string })._bsontype === "ObjectId")
    return `ObjectId('${(v as { toHexString(): string }).toHexString()}')`;
  if (v instanceof RegExp) return String(v);
  return String(v);
}

function intervalText(i: Interval, direction: 1 | -1): string {
  const [a, ai, b, bi] = direction === 1 ? [i.lo, i.loInc, i.hi, i.hiInc] : [i.hi, i.hiInc, i.lo, i.loInc];
  return `${ai ? "[" : "("}${boundsText(a)}, ${boundsText(b)}${bi ? "]" : ")"}`;
}

function intersect(a: Interval, b: Interval): Interval | undefined {
  const lo = compareBounds(a.lo, b.lo) >= 0 ? a : b;
  const hi = compareBounds(a.hi, b.hi) <= 0 ? a : b;
  let loInc = lo.loInc;
  let hiInc = hi.hiInc;
  if (compareBounds(a.lo, b.lo) === 0) loInc = a.loInc && b.loInc;
  if (compareBounds(a.hi, b.hi) === 0) hiInc = a.hiInc && b.hiInc;
  const c = compareBounds(lo.lo, hi.hi);
  if (c > 0 || (c === 0 && !(loInc && hiInc))) return undefined;
  return { lo: lo.lo, loInc, hi: hi.hi, hiInc };
}

/** Orders two bound values (sentinels included). */
function compareBounds(a: BoundValue, b: BoundValue): number {
  if (!isSentinel(a)) return compareToBound(a, b);
  if (!isSentinel(b)) return -compareToBound(b, a);
  const rank = (s: Sentinel) =>
    s.rank === undefined ? (s.sentinel === "min" ? -1 : 1000) : s.rank + (s.sentinel === "min" ? -0.5 : 0.5);
  return rank(a) - rank(b);
}

function sortIntervals(list: Interval[]): Interval[] {
  const sorted = [...list].sort((x, y) => compareBounds(x.lo, y.lo) || compareBounds(x.hi, y.hi));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && isPoint(last) && isPoint(i) && compareValues(last.lo, i.lo) === 0) continue;
    out.push(i);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Filter analysis

/** What the planner knows about one field: the union of intervals it may take, and whether they say it all. */
type FieldBounds = { intervals: Interval[]; exact: boolean };

export type QueryShape = {
  /** Bounds per field from top-level (and $and) conditions. */
  fields: Map<string, FieldBounds[]>;
  /** True when every condition is a field condition the bounds express exactly (no $or, $expr, regex…). */
  allExact: boolean;
  text?: Doc;
  or?: Doc[];
};

function rangeInterval(op: string, v: unknown): Interval | undefined {
  if (!isBoundScalar(v) || v === null) return undefined;
  const r = typeRank(v);
  if (r === Rank.MinKey || r === Rank.MaxKey) return undefined;
  switch (op) {
    case "$gt":
      return { lo: v, loInc: false, hi: maxOf(r), hiInc: true };
    case "$gte":
      return { lo: v, loInc: true, hi: maxOf(r), hiInc: true };
    case "$lt":
      return { lo: minOf(r), loInc: true, hi: v, hiInc: false };
    case "$lte":
      return { lo: minOf(r), loInc: true, hi: v, hiInc: true };
    default:
      return undefined;
  }
}

function regexIntervals(source: string, flags: string): { intervals: Interval[]; exact: boolean } {
  const all: Interval = { lo: minOf(Rank.String), loInc: true, hi: maxOf(Rank.String), hiInc: true };
  // A regex also matches a stored regex equal to it.
  const regexes: Interval = { lo: minOf(Rank.RegExp), loInc: true, hi: maxOf(Rank.RegExp), hiInc: true };
  if (
    flags.includes("i") ||
    flags.includes("x") ||
    !source.startsWith("^") ||
    (flags.includes("m") && source.startsWith("^"))
  ) {
    return { intervals: [all, regexes], exact: false };
  }
  let prefix = "";
  for (let i = 1; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const n = source[i + 1];
      if (n !== undefined && /[^A-Za-z0-9]/.test(n)) {
        prefix += n;
        i++;
        continue;
      }
      break;
    }
    if (/[.*+?()[\]{}|^$]/.test(c)) {
      // A quantifier makes the last character optional.
      if (/[*?{]/.test(c)) prefix = prefix.slice(0, -1);
      break;
    }
    prefix += c;
  }
  if (prefix === "") return { intervals: [all, regexes], exact: false };
  const last = prefix.charCodeAt(prefix.length - 1);
  const upper = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return { intervals: [{ lo: prefix, loInc: true, hi: upper, hiInc: false }, regexes], exact: false };
}

/** Bounds for one condition on one field, or undefined when the condition gives none. */
function conditionBounds(cond: unknown): FieldBounds | undefined {
  if (cond instanceof RegExp) return regexIntervals(cond.source, cond.flags);
  if (isBsonRegex(cond)) return regexIntervals(cond.pattern, cond.options);
  if (!isPlainObject(cond)) {
    if (isBoundScalar(cond)) return { intervals: [point(cond)], exact: cond !== null };
    return undefined;
  }
  const keys = Object.keys(cond);
  if (keys.length === 0 || !keys.every((k) => k.startsWith("$"))) return undefined;
  let result: FieldBounds | undefined;
  let exact = true;
  const combine = (b: FieldBounds) => {
    if (!result) {
      result = b;
      return;
    }
    const merged: Interval[] = [];
    for (const x of result.intervals)
      for (const y of b.intervals) {
        const i = intersect(x, y);
        if (i) merged.push(i);
      }
    result = { intervals: merged, exact: result.exact && b.exact };
  };
  for (const op of keys) {
    const v = cond[op];
    switch (op) {
      case "$eq":
        if (isBoundScalar(v)) combine({ intervals: [point(v)], exact: v !== null });
        else if (v instanceof RegExp) combine({ intervals: [point(v)], exact: false });
        else exact = false;
        break;
      case "$in": {
        if (!Array.isArray(v)) return undefined;
        const intervals: Interval[] = [];
        let inExact = true;
        for (const item of v) {
          if (isBoundScalar(item)) {
            intervals.push(point(item));
            if (item === null) inExact = false;
          } else if (item instanceof RegExp) {
            intervals.push(...regexIntervals(item.source, item.flags).intervals);
            inExact = false;
          } else return undefined;
        }
        combine({ intervals: sortIntervals(intervals), exact: inExact });
        break;
      }
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte": {
        const i = rangeInterval(op, v);
        if (i) combine({ intervals: [i], exact: true });
        else exact = false;
        break;
      }
      case "$regex": {
        const source = v instanceof RegExp ? v.source : typeof v === "string" ? v : undefined;
        if (source === undefined) return undefined;
        const flags = `${v instanceof RegExp ? v.flags : ""}${typeof cond.$options === "string" ? cond.$options : ""}`;
        combine(regexIntervals(source, flags));
        break;
      }
      case "$options":
        break;
      case "$all": {
        if (!Array.isArray(v) || v.length === 0) return undefined;
        const first = v[0];
        if (!isBoundScalar(first) || first === null) return undefined;
        combine({ intervals: [point(first)], exact: v.length === 1 });
        break;
      }
      default:
        exact = false;
    }
  }
  if (!result) return undefined;
  return { intervals: result.intervals, exact: result.exact && exact };
}

function isBsonRegex(v: unknown): v is { pattern: string; options: string } {
  return typeof v === "object" && v !== null && (v as { _bsontype?: string })._bsontype === "BSONRegExp";
}

export function analyseFilter(filter: Doc): QueryShape {
  const shape: QueryShape = { fields: new Map(), allExact: true };
  const visit = (f: Doc) => {
    for (const [field, cond] of Object.entries(f)) {
      if (field === "$and" && Array.isArray(cond)) {
        for (const part of cond)
          if (isPlainObject(part)) visit(part);
          else shape.allExact = false;
        continue;
      }
      if (field === "$text") {
        if (shape.text) throw new MongoCommandError("BadValue", "Too many text expressions");
        if (!isPlainObject(cond)) throw new MongoCommandError("BadValue", "$text needs an object");
        shape.text = cond;
        shape.allExact = false;
        continue;
      }
      if (field === "$or" && Array.isArray(cond) && !shape.or) {
        shape.or = cond.filter(isPlainObject);
        shape.allExact = false;
        continue;
      }
      if (field === "$comment") continue;
      if (field.startsWith("$")) {
        shape.allExact = false;
        continue;
      }
      const b = conditionBounds(cond);
      if (!b) {
        shape.allExact = false;
        // Still note the field so an index on it can be used without bounds for sort.
        continue;
      }
      if (!b.exact) shape.allExact = false;
      const list = shape.fields.get(field) ?? [];
      list.push(b);
      shape.fields.set(field, list);
    }
  };
  visit(filter);
  return shape;
}

function hasTextOperator(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasTextOperator);
  if (!isPlainObject(value)) return false;
  return Object.entries(value).some(([k, v]) => k === "$text" || hasTextOperator(v));
}

// ---------------------------------------------------------------------------------------------
// Plans

export type SortSpec = [string, 1 | -1][];

/** A range of keys in index order: start and end per index field. */
type KeyRange = { start: { v: BoundValue; inc: boolean }[]; end: { v: BoundValue; inc: boolean }[] };

export type IndexScanPlan = {
  kind: "ixscan";
  index: Index;
  /** Per index field, the intervals scanned (ascending value order). */
  fieldIntervals: Interval[][];
  /** 1 = index order, -1 = reverse. */
  direction: 1 | -1;
  ranges: KeyRange[];
  /** The filter is fully expressed by the bounds: fetched documents need no test. */
  exact: boolean;
  /** The scan returns documents in the requested sort order. */
  providesSort: boolean;
  /** Ranges are merged by the sort key (an $in on a field before the sort fields). */
  mergeSort: boolean;
  boundedFields: number;
  /** How many keys the ranges hold (estimateKeys), read only to cost the plan against others: computed on first read. */
  readonly keys: number;
};

export type Plan =
  | { kind: "eof" }
  | { kind: "idhack"; id: unknown }
  | { kind: "collscan"; direction: 1 | -1 }
  | IndexScanPlan
  | { kind: "or"; branches: Plan[] }
  | { kind: "text"; index: TextIndex; query: TextQuery };

export type PlannedQuery = {
  ns: string;
  filter: Doc;
  matcher: (doc: Doc) => boolean;
  plan: Plan;
  rejected: Plan[];
  /** The requested sort, when the plan does not already produce that order. */
  blockingSort?: SortSpec;
  sort?: SortSpec;
  collectionSize: number;
};

export type PlanOptions = {
  sort?: SortSpec;
  /** skip + limit when known (0 = all): favours plans that provide the sort order. */
  wanted?: number;
  hint?: unknown;
  /** Counting: an exact index plan becomes a COUNT_SCAN. */
  forCount?: boolean;
  /** Server parameters. */
  notablescan?: { enabled: boolean; minDocuments: number };
  /**
   * Reuse the plan chosen for the same filter, sort and limit before (planCache): the reads of find, count and distinct
   * pass it; explain does not, as mongod's explain plans afresh and lists every candidate.
   */
  cached?: boolean;
};

/**
 * The most key ranges one index plan enumerates (the cross product of its fields' intervals); past it the index is not a
 * candidate. Counting a range costs two seeks, so 4,096 ranges cost about 8,000 seeks per candidate: enough for the
 * portal's planning filter naming 1,000 SKUs in four channels (app/models/planning-attribute-sets.server.ts).
 */
const MAX_RANGES = 4_096;

function buildRanges(index: Index, fieldIntervals: Interval[][]): KeyRange[] | undefined {
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
function compareToStart(index: Index, key: unknown, start: KeyRange["start"]): number {
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
function pastEnd(index: Index, key: unknown, end: KeyRange["end"]): boolean {
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
function rankSpan(index: Index, r: KeyRange): { from: number; to: number } {
  const from = index.tree.rankOf((e) => compareToStart(index, index.keyIn(e), r.start));
  const to = index.tree.rankOf((e) => (pastEnd(index, index.keyIn(e), r.end) ? 0 : -1));
  return { from, to };
}

function countRange(index: Index, r: KeyRange): number {
  const { from, to } = rankSpan(index, r);
  return Math.max(0, to - from);
}

/**
 * The order a plan over `index` gives for `sort`: the scan direction, or undefined when the
 * index cannot give it. Fields before the sort fields must be single points (or, with merge,
 * any points).
 */
function sortDirection(
  index: Index,
  fieldIntervals: Interval[][],
  sort: SortSpec,
): { direction: 1 | -1; merge: boolean } | undefined {
  let j = 0;
  let direction: 1 | -1 | undefined;
  let merge = false;
  for (const [field, d] of sort) {
    if (index.multikeyFields.has(field)) return undefined;
    while (j < index.fields.length && index.fields[j] !== field) {
      const intervals = fieldIntervals[j];
      if (!intervals.every(isPoint)) return undefined;
      if (intervals.length > 1) {
        if (direction !== undefined) return undefined; // points between sort fields break the order
        merge = true;
      }
      j++;
    }
    if (j === index.fields.length) return undefined;
    const dir = (d * index.directions[j]) as 1 | -1;
    if (direction === undefined) direction = dir;
    else if (direction !== dir) return undefined;
    // Within the sort fields, a field with several intervals breaks the order unless it is the last.
    j++;
  }
  if (direction === undefined) return undefined;
  return { direction, merge };
}

function indexCandidate(
  index: Index,
  shape: QueryShape,
  sort: SortSpec | undefined,
  hinted: boolean,
): IndexScanPlan | undefined {
  const fieldIntervals: Interval[][] = [];
  let bounded = 0;
  let usedExact = true;
  const usedFields = new Set<string>();
  let stop = false;
  for (let f = 0; f < index.fields.length; f++) {
    const field = index.fields[f];
    const list = shape.fields.get(field);
    if (stop || !list || list.length === 0) {
      fieldIntervals.push([FULL]);
      stop = true;
      continue;
    }
    let intervals: Interval[];
    let exact: boolean;
    if (index.multikeyFields.has(field)) {
      // Bounds of one condition only: on an array, each condition may hold on a different element.
      intervals = list[0].intervals;
      exact = false;
    } else {
      intervals = list[0].intervals;
      exact = list[0].exact;
      for (let k = 1; k < list.length; k++) {
        const merged: Interval[] = [];
        for (const x of intervals)
          for (const y of list[k].intervals) {
            const i = intersect(x, y);
            if (i) merged.push(i);
          }
        intervals = merged;
        exact = exact && list[k].exact;
      }
    }
    intervals = sortIntervals(intervals);
    fieldIntervals.push(intervals);
    bounded++;
    usedFields.add(field);
    if (!exact) usedExact = false;
    if (!intervals.every(isPoint)) stop = true;
  }
  const sortInfo = sort && sort.length > 0 ? sortDirection(index, fieldIntervals, sort) : undefined;
  if (bounded === 0 && !sortInfo && !hinted) return undefined;
  const ranges = buildRanges(index, fieldIntervals);
  if (!ranges) return undefined;
  const exact =
    shape.allExact && usedExact && !index.isMultikey && [...shape.fields.keys()].every((f) => usedFields.has(f));
  let keys: number | undefined;
  return {
    kind: "ixscan",
    index,
    fieldIntervals,
    direction: sortInfo?.direction ?? 1,
    ranges,
    exact,
    providesSort: !!sortInfo,
    mergeSort: !!sortInfo?.merge && ranges.length > 1,
    boundedFields: bounded,
    get keys() {
      return (keys ??= estimateKeys(index, ranges));
    },
  };
}

/** Ranges a plan's cost counts one by one; past this, an even sample of them is counted and scaled. */
const RANGES_COUNTED = 64;

/**
 * How many keys a plan's ranges hold, to cost it: exact up to RANGES_COUNTED ranges, else estimated from an even sample
 * (an $in of hundreds of points would cost two seeks per point per candidate index). A count the plan answers from the
 * index still counts every range (countFromIndex).
 */
function estimateKeys(index: Index, ranges: KeyRange[]): number {
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
 * What a plan costs, in documents (or keys) read. `matchBound` is the fewest keys any candidate's bounds hold: every
 * result lies within every candidate's bounds, so no more documents than that can match. A sort-providing scan that
 * is not exact reads `wanted` matches at the rate they occur in its bounds (at least 1 in 4, the guess for filters
 * no index bounds): a channel's rows walked in date order for a brand that is a tenth of them read ten documents per
 * result, where an index holding the brand in date order reads about one.
 */
function planCost(
  plan: Plan,
  collectionSize: number,
  sort: SortSpec | undefined,
  wanted: number,
  matchBound = collectionSize,
): number {
  switch (plan.kind) {
    case "eof":
    case "idhack":
      return 0;
    case "collscan": {
      const sortCost = sort && sort.length > 0 ? collectionSize * 0.2 : 0;
      return collectionSize * 1.05 + sortCost;
    }
    case "ixscan": {
      const fetch = plan.exact ? 1 : 1.2;
      if (plan.providesSort && wanted > 0) {
        const perResult = plan.exact ? 1 : Math.max(4, plan.keys / Math.max(1, matchBound));
        return Math.min(plan.keys, wanted * perResult) * fetch;
      }
      const sortCost = sort && sort.length > 0 && !plan.providesSort ? plan.keys * 0.2 : 0;
      return plan.keys * fetch + sortCost;
    }
    case "or":
      return plan.branches.reduce((s, b) => s + planCost(b, collectionSize, undefined, 0), 0) * 1.1;
    case "text":
      return 0;
  }
}

function hintedIndex(coll: Collection, hint: unknown): Index | "natural" | undefined {
  if (hint === undefined || hint === null) return undefined;
  if (isPlainObject(hint) && Object.keys(hint).length === 0) return undefined;
  if (isPlainObject(hint) && "$natural" in hint) return "natural";
  const found = coll
    .orderedIndexes()
    .find((i) =>
      typeof hint === "string" ? i.name === hint : isPlainObject(hint) && keyOf(hint) === keyOf(i.spec.key),
    );
  if (!found) {
    throw new MongoCommandError(
      "BadValue",
      "error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index",
    );
  }
  return found;
}

/** The sort key of MongoDB's textScore sort (descending score). */
export const TEXT_SCORE_FIELD = "$textScore";

export function normaliseSort(sort: Doc | undefined): SortSpec | undefined {
  if (!sort || Object.keys(sort).length === 0) return undefined;
  const out: SortSpec = [];
  for (const [k, v] of Object.entries(sort)) {
    if (v === 1 || v === -1) out.push([k, v]);
    else if (typeof v === "number" && Number.isInteger(v) && v !== 0) out.push([k, v > 0 ? 1 : -1]);
    else if (isPlainObject(v) && v.$meta === "textScore") out.push([TEXT_SCORE_FIELD, -1]);
    else if (isPlainObject(v) && "$meta" in v)
      throw new MongoCommandError("BadValue", `unknown $meta sort: ${JSON.stringify(v)}`);
    else throw new MongoCommandError("BadValue", "$sort key ordering must be 1 (for ascending) or -1 (for descending)");
  }
  return out;
}

/** Plans a query over a collection (undefined collection: EOF). */
export function planQuery(
  coll: Collection | undefined,
  ns: string,
  filter: Doc,
  matcher: (doc: Doc) => boolean,
  options: PlanOptions,
): PlannedQuery {
  const sort = options.sort;
  const base = { ns, filter, matcher, sort, rejected: [] as Plan[], collectionSize: coll?.docs.size ?? 0 };
  const shape = analyseFilter(filter);
  if (!shape.text && hasTextOperator(filter)) {
    throw new MongoCommandError(
      "BadValue",
      "$text can only be used at the top level of a query, or inside a top-level $and",
    );
  }
  if (!shape.text && sort?.some(([f]) => f === TEXT_SCORE_FIELD)) {
    throw new MongoCommandError("BadValue", "query requires text score metadata, but it is not available");
  }
  if (!coll) {
    if (shape.text) throw new MongoCommandError("IndexNotFound", "text index required for $text query");
    return { ...base, plan: { kind: "eof" } };
  }
  if (shape.text) {
    const index = coll.textIndex();
    if (!index) throw new MongoCommandError("IndexNotFound", "text index required for $text query");
    const query = parseTextQuery(shape.text, index);
    return { ...base, plan: { kind: "text", index, query }, blockingSort: sort };
  }
  const hinted = hintedIndex(coll, options.hint);
  const wanted = options.wanted ?? 0;
  if (hinted === "natural") {
    const direction = isPlainObject(options.hint) && options.hint.$natural === -1 ? -1 : 1;
    return { ...base, plan: { kind: "collscan", direction }, blockingSort: sort };
  }
  if (hinted) {
    const plan = indexCandidate(hinted, shape, sort, true)!;
    return { ...base, plan, blockingSort: plan.providesSort ? undefined : sort };
  }
  // _id equality: the IDHACK plan.
  const keys = Object.keys(filter);
  if (keys.length === 1 && keys[0] === "_id") {
    const b = conditionBounds(filter._id);
    if (b && b.exact && b.intervals.length === 1 && isPoint(b.intervals[0])) {
      return { ...base, plan: { kind: "idhack", id: b.intervals[0].lo }, blockingSort: sort };
    }
  }
  const cache = options.cached ? planCacheOf(coll) : undefined;
  const cacheKey = cache ? planCacheKey(filter, sort, wanted) : undefined;
  if (cache && cacheKey !== undefined) {
    const chosen = cache.get(cacheKey);
    const plan =
      chosen === "collscan"
        ? ({ kind: "collscan", direction: 1 } as const)
        : chosen
          ? indexCandidate(chosen, shape, sort, false)
          : undefined;
    if (plan) return finishPlan(base, plan, [], options);
  }
  const candidates: Plan[] = [];
  for (const index of coll.orderedIndexes()) {
    if (!index.complete) continue;
    const c = indexCandidate(index, shape, sort, false);
    if (c) candidates.push(c);
  }
  if (shape.or && shape.fields.size === 0) {
    const branches: Plan[] = [];
    for (const clause of shape.or) {
      const sub = planQuery(coll, ns, clause, () => true, { notablescan: { enabled: false, minDocuments: 0 } });
      if (sub.plan.kind === "collscan" || sub.plan.kind === "text") {
        branches.length = 0;
        break;
      }
      branches.push(sub.plan);
    }
    if (branches.length === shape.or.length && branches.length > 0) candidates.push({ kind: "or", branches });
  }
  candidates.push({ kind: "collscan", direction: 1 });
  const size = coll.docs.size;
  const best = exactInOrder(candidates, sort) ?? cheapest(candidates, size, sort, wanted);
  if (cache && cacheKey !== undefined && (best.kind === "ixscan" || best.kind === "collscan"))
    cache.set(cacheKey, best.kind === "ixscan" ? best.index : "collscan");
  return finishPlan(
    base,
    best,
    candidates.filter((c) => c !== best),
    options,
  );
}

/** The chosen plan as a PlannedQuery, or the refusal of a collection scan under notablescan. */
function finishPlan(
  base: Omit<PlannedQuery, "plan" | "rejected" | "blockingSort">,
  best: Plan,
  rejected: Plan[],
  options: PlanOptions,
): PlannedQuery {
  const ns_ = options.notablescan;
  if (best.kind === "collscan" && ns_?.enabled && base.collectionSize >= ns_.minDocuments) {
    throw new MongoCommandError(
      "NoQueryExecutionPlans",
      `error processing query: ns=${base.ns} planner returned error :: caused by :: No indexed plans available, and running with 'notablescan'`,
    );
  }
  const providesSort = best.kind === "ixscan" && best.providesSort;
  return { ...base, plan: best, rejected, blockingSort: providesSort ? undefined : base.sort };
}

// ---------------------------------------------------------------------------------------------
// The plan cache

/**
 * The plans chosen for a collection's recent queries, as mongod keeps them: costing every candidate index counts keys
 * in each of its ranges (estimateKeys), which for the portal's planning filters (an $in of tens of values over four
 * channels and a date range) was ~40 % of the database's work per page, repeated for the same filter on every request.
 * An entry names the winning index (or the collection scan) for an exact filter, sort and limit; a hit builds that
 * index's plan from the query as it is, so an entry only ever chooses which plan runs, never what it returns. Entries
 * go when the collection's complete indexes change, after PLAN_CACHE_WRITES changes to its documents (the data the
 * costs were read from has moved: mongod 2.6 flushed its cache after 1,000 writes too), and the oldest first past
 * PLAN_CACHE_ENTRIES.
 */
const PLAN_CACHE_ENTRIES = 256;
const PLAN_CACHE_WRITES = 1_000;
/** Filters of more values, or longer keys (an $in of thousands of ids), are not kept: planning them is rare and the key would be large. */
const PLAN_CACHE_KEY_CHARS = 16_384;
const PLAN_CACHE_VALUES = 2_048;

class PlanCache {
  private readonly entries = new Map<string, Index | "collscan">();
  private writesAt = -1;
  /** The complete indexes the entries were chosen among: the objects themselves (an index dropped and built again under its name is another). */
  private indexesAt: Index[] = [];

  constructor(private readonly coll: Collection) {}

  /** The entry for `key`, once the cache is known to hold for the collection as it is now. */
  get(key: string): Index | "collscan" | undefined {
    this.validate();
    return this.entries.get(key);
  }

  set(key: string, choice: Index | "collscan"): void {
    this.validate();
    if (this.entries.size >= PLAN_CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, choice);
  }

  private validate(): void {
    const indexes = this.coll.orderedIndexes().filter((i) => i.complete);
    const same = indexes.length === this.indexesAt.length && indexes.every((index, i) => index === this.indexesAt[i]);
    if (!same || this.coll.docWrites - this.writesAt >= PLAN_CACHE_WRITES || this.writesAt < 0) {
      this.entries.clear();
      this.indexesAt = indexes;
      this.writesAt = this.coll.docWrites;
    }
  }
}

const planCaches = new WeakMap<Collection, PlanCache>();

function planCacheOf(coll: Collection): PlanCache {
  let cache = planCaches.get(coll);
  if (!cache) planCaches.set(coll, (cache = new PlanCache(coll)));
  return cache;
}

/**
 * The cache key of a query: its filter as keyOf writes it (values with their types; numbers of any width alike, which
 * bound an index alike), the sort and the limit; undefined when too long.
 */
function planCacheKey(filter: Doc, sort: SortSpec | undefined, wanted: number): string | undefined {
  // A filter of thousands of values (an $in of ids) is not written out only to be found too long.
  if (!withinValues(filter, { left: PLAN_CACHE_VALUES })) return undefined;
  const key = `${wanted}|${sort ? sort.map(([f, d]) => `${f}:${d}`).join(",") : ""}|${keyOf(filter)}`;
  return key.length <= PLAN_CACHE_KEY_CHARS ? key : undefined;
}

/** Whether `value` holds at most `budget.left` values, arrays' elements and documents' fields counted (stops early). */
function withinValues(value: unknown, budget: { left: number }): boolean {
  if (--budget.left < 0) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (!withinValues(v, budget)) return false;
  } else if (isPlainObject(value)) {
    for (const k in value) if (!withinValues(value[k], budget)) return false;
  }
  return true;
}

/**
 * The plan planCost would choose, found without counting any candidate's keys, when an index scan is exact (its bounds
 * are the whole filter, no multikey field) and gives the sort (or none is asked): it reads the N matching keys, or the
 * first `wanted` of them, and nothing else does less (any other index scan's bounds hold every match too and it
 * fetches to test, a blocking sort reads all N, a collection scan every document). Such scans all cost the same, so the
 * tie-break decides among them, as in the costed loop. Undefined when no candidate is such a scan.
 */
function exactInOrder(candidates: Plan[], sort: SortSpec | undefined): IndexScanPlan | undefined {
  let best: IndexScanPlan | undefined;
  for (const c of candidates) {
    if (c.kind !== "ixscan" || !c.exact || c.index.isMultikey || (sort && sort.length > 0 && !c.providesSort)) continue;
    if (!best || preferable(c, best)) best = c;
  }
  return best;
}

/** The candidate of least planCost (the tie-break deciding among equals, in order). */
function cheapest(candidates: Plan[], size: number, sort: SortSpec | undefined, wanted: number): Plan {
  const matchBound = candidates.reduce((m, c) => (c.kind === "ixscan" ? Math.min(m, c.keys) : m), size);
  let best = candidates[0];
  let bestCost = planCost(best, size, sort, wanted, matchBound);
  for (const c of candidates.slice(1)) {
    const cost = planCost(c, size, sort, wanted, matchBound);
    if (cost < bestCost || (cost === bestCost && preferable(c, best))) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}

function preferable(a: Plan, b: Plan): boolean {
  if (a.kind !== "ixscan") return false;
  if (b.kind !== "ixscan") return true;
  if (a.providesSort !== b.providesSort) return a.providesSort;
  return a.boundedFields > b.boundedFields;
}

// ---------------------------------------------------------------------------------------------
// Sources: the plans, run

export type ScanStats = { keysExamined: number; docsExamined: number };

/** Returned by a source that examined many documents without a match: a chance to yield. */
export const PAUSE = Symbol("pause");
const PAUSE_EVERY = 256;

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

class CollScan implements Source, FastSource {
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
 * the stored document (storage.ts Index): then no id key is made nor looked up.
 */
function fetchEntry(
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

class IndexScan implements Source {
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

/**
 * Whether a scan over the plan's ranges may meet a document twice: an array field's values each have a key, and
 * overlapping intervals of one field (two regex prefixes, say) make overlapping ranges. Otherwise a document has
 * one key and the ranges are disjoint, and remembering every id returned (a hex string per document) is waste.
 */
function mayRepeat(plan: IndexScanPlan): boolean {
  if (plan.index.isMultikey) return true;
  return plan.fieldIntervals.some((intervals) => intervals.some((iv, i) => i > 0 && !before(intervals[i - 1], iv)));
}

/** True when interval a ends before interval b starts (both in ascending order, sorted by their start). */
function before(a: Interval, b: Interval): boolean {
  const c = compareBounds(a.hi, b.lo);
  return c < 0 || (c === 0 && !(a.hiInc && b.loInc));
}

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
class EntryMergeScan implements Source {
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
    private readonly plan: IndexScanPlan,
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
class MergeScan implements Source {
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

/** The value a document sorts by on one field (arrays: their smallest element ascending, largest descending). */
export function sortKeyOf(doc: Doc, field: string, direction: 1 | -1): unknown {
  if (field === TEXT_SCORE_FIELD) return textScores.get(doc) ?? 0;
  if (!field.includes(".")) {
    const v = doc[field];
    return Array.isArray(v) ? sortValue(v, direction) : v;
  }
  const values = pathValues(doc, field);
  if (values.length === 1) return values[0];
  return sortValue(values, direction);
}

export function compareDocs(a: Doc, b: Doc, sort: SortSpec): number {
  for (const [field, dir] of sort) {
    const c = compareValues(sortKeyOf(a, field, dir), sortKeyOf(b, field, dir));
    if (c !== 0) return c * dir;
  }
  return 0;
}

class ListSource implements Source {
  private i = 0;
  constructor(private readonly docs: Doc[]) {}
  next(): Doc | undefined {
    return this.docs[this.i++];
  }
  save(): void {}
  restore(): void {}
}

class OrScan implements Source {
  private readonly seen = new Set<string>();
  private current = 0;
  constructor(
    private readonly sources: Source[],
    private readonly matcher: (doc: Doc) => boolean,
  ) {}
  next(): Doc | undefined | typeof PAUSE {
    while (this.current < this.sources.length) {
      const d = this.sources[this.current].next();
      if (d === PAUSE) return PAUSE;
      if (!d) {
        this.current++;
        continue;
      }
      const id = keyOf(d._id);
      if (this.seen.has(id)) continue;
      this.seen.add(id);
      if (this.matcher(d)) return d;
    }
    return undefined;
  }
  save(): void {
    for (const s of this.sources) s.save();
  }
  restore(): void {
    for (const s of this.sources) s.restore();
  }
}

/** The matcher of a filter with its $text condition left out (the text stage checks that). */
export type MatcherFactory = (filter: Doc) => (doc: Doc) => boolean;

export function withoutText(filter: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k === "$text") continue;
    if (k === "$and" && Array.isArray(v)) {
      const parts = v
        .filter(isPlainObject)
        .map(withoutText)
        .filter((p) => Object.keys(p).length > 0);
      if (parts.length > 0) out.$and = parts;
      continue;
    }
    out[k] = v;
  }
  return out;
}

/** Opens the source that runs a plan. */
export function openSource(
  coll: Collection | undefined,
  q: PlannedQuery,
  stats: ScanStats,
  compile: MatcherFactory,
): Source {
  const plan = q.plan;
  if (!coll || plan.kind === "eof") return new ListSource([]);
  switch (plan.kind) {
    case "idhack": {
      const doc = coll.docs.get(keyOf(plan.id));
      stats.keysExamined += doc ? 1 : 0;
      stats.docsExamined += doc ? 1 : 0;
      return new ListSource(doc && q.matcher(doc) ? [doc] : []);
    }
    case "collscan":
      return new CollScan(coll, plan.direction, Object.keys(q.filter).length === 0 ? undefined : q.matcher, stats);
    case "ixscan":
      if (plan.mergeSort && q.sort) {
        return plan.index.isMultikey
          ? new MergeScan(coll, plan, q.matcher, stats, q.sort)
          : new EntryMergeScan(coll, plan, q.matcher, stats, q.sort);
      }
      return new IndexScan(coll, plan, plan.ranges, q.matcher, stats);
    case "or": {
      const sources = plan.branches.map((b) =>
        openSource(coll, { ...q, plan: b, matcher: () => true }, stats, compile),
      );
      return new OrScan(sources, q.matcher);
    }
    case "text": {
      const { scores, keysExamined } = plan.index.lookup(plan.query.termsForBounds);
      stats.keysExamined += keysExamined;
      const rest = withoutText(q.filter);
      const restTest = Object.keys(rest).length > 0 ? compile(rest) : undefined;
      const docs: Doc[] = [];
      for (const [id, score] of scores) {
        const doc = coll.docs.get(id);
        if (!doc) continue;
        stats.docsExamined++;
        if (!plan.index.matches(doc, plan.query)) continue;
        if (restTest && !restTest(doc)) continue;
        // The score travels with a shallow copy, so two queries never share a stored document's score.
        const copy = { ...doc };
        textScores.set(copy, score);
        docs.push(copy);
      }
      return new ListSource(docs);
    }
  }
}

/** Counts an exact index plan from the index alone (COUNT_SCAN): undefined when it cannot. */
export function countFromIndex(plan: Plan): number | undefined {
  if (plan.kind !== "ixscan" || !plan.exact || plan.index.isMultikey) return undefined;
  let n = 0;
  for (const r of plan.ranges) n += countRange(plan.index, r);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Explain

function indexBounds(plan: IndexScanPlan): Doc {
  const out: Doc = {};
  plan.index.fields.forEach((f, i) => {
    const dir = (plan.index.directions[i] * plan.direction) as 1 | -1;
    const intervals = dir === 1 ? plan.fieldIntervals[i] : [...plan.fieldIntervals[i]].reverse();
    out[f] = intervals.map((iv) => intervalText(iv, dir));
  });
  return out;
}

/** The bounds of one exploded range of a plan, field by field, in scan order. */
function rangeBounds(plan: IndexScanPlan, r: KeyRange): Doc {
  const out: Doc = {};
  plan.index.fields.forEach((f, i) => {
    const [a, b] = plan.direction === 1 ? [r.start[i], r.end[i]] : [r.end[i], r.start[i]];
    out[f] = [`${a.inc ? "[" : "("}${boundsText(a.v)}, ${boundsText(b.v)}${b.inc ? "]" : ")"}`];
  });
  return out;
}

function multiKeyPaths(index: Index): Doc {
  const out: Doc = {};
  for (const f of index.fields) out[f] = index.multikeyFields.has(f) ? [f] : [];
  return out;
}

export function planStage(plan: Plan, q: Pick<PlannedQuery, "filter" | "sort">, forCount = false): Doc {
  const filterOf = (exact: boolean) => (exact || Object.keys(q.filter).length === 0 ? {} : { filter: q.filter });
  switch (plan.kind) {
    case "eof":
      return { stage: "EOF" };
    case "idhack":
      return { stage: "IDHACK" };
    case "collscan":
      return { stage: "COLLSCAN", ...filterOf(false), direction: plan.direction === 1 ? "forward" : "backward" };
    case "ixscan": {
      const ix = {
        stage: forCount && plan.exact && !plan.index.isMultikey ? "COUNT_SCAN" : "IXSCAN",
        keyPattern: { ...plan.index.spec.key },
        indexName: plan.index.name,
        isMultiKey: plan.index.isMultikey,
        multiKeyPaths: multiKeyPaths(plan.index),
        isUnique: plan.index.unique,
        isSparse: plan.index.spec.sparse === true,
        isPartial: !!plan.index.spec.partialFilterExpression,
        indexVersion: 2,
        direction: plan.direction === 1 ? "forward" : "backward",
        indexBounds: indexBounds(plan),
      };
      if (ix.stage === "COUNT_SCAN") return ix;
      if (plan.mergeSort) {
        return {
          stage: "FETCH",
          ...filterOf(plan.exact),
          // One scan per exploded point, each with its own bounds (as MongoDB shows them).
          inputStage: {
            stage: "SORT_MERGE",
            sortPattern: Object.fromEntries(q.sort ?? []),
            inputStages: plan.ranges.map((r) => ({ ...ix, indexBounds: rangeBounds(plan, r) })),
          },
        };
      }
      return { stage: "FETCH", ...filterOf(plan.exact), inputStage: ix };
    }
    case "or":
      return {
        stage: "SUBPLAN",
        inputStage: {
          stage: "FETCH",
          filter: q.filter,
          inputStage: {
            stage: "OR",
            inputStages: plan.branches.map((b) => planStage(b, { filter: {}, sort: undefined })),
          },
        },
      };
    case "text":
      return {
        stage: "TEXT_MATCH",
        indexPrefix: {},
        indexName: plan.index.name,
        parsedTextQuery: describeTextQuery(plan.query),
        textIndexVersion: 3,
        inputStage: {
          stage: "FETCH",
          inputStage: {
            stage: "TEXT_OR",
            inputStages: plan.query.termsForBounds.map((term) => ({
              stage: "IXSCAN",
              keyPattern: { ...plan.index.spec.key },
              indexName: plan.index.name,
              isMultiKey: true,
              isUnique: false,
              isSparse: false,
              isPartial: false,
              indexVersion: 2,
              direction: "backward",
              indexBounds: {},
              term,
            })),
          },
        },
      };
  }
}

/** A one-line summary as the profiler and the logs write it: "IXSCAN { user: 1 }", "COLLSCAN". */
export function planSummary(plan: Plan, forCount = false): string {
  switch (plan.kind) {
    case "eof":
      return "EOF";
    case "idhack":
      return "IDHACK";
    case "collscan":
      return "COLLSCAN";
    case "ixscan": {
      const keys = Object.entries(plan.index.spec.key)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ");
      return `${forCount && plan.exact && !plan.index.isMultikey ? "COUNT_SCAN" : "IXSCAN"} { ${keys} }`;
    }
    case "or":
      return plan.branches.map((b) => planSummary(b)).join(", ");
    case "text":
      return `IXSCAN { _fts: "text", _ftsx: 1 }`;
  }
}
