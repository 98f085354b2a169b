/**
 * Plan choice: one candidate per usable index (its bounds, whether it gives the sort) plus the collection scan, each
 * costed by the keys its bounds hold, the cheapest chosen (or the plan cache's choice, or the hint's).
 *
 * The query planner turns a filter (and a sort) into index bounds (bounds.ts, key-ranges.ts), builds one candidate
 * plan per usable index plus the collection scan, estimates each by counting its bounds in the index (exact and O(log
 * n), thanks to the counted B+ tree) and picks the cheapest. Plans are described in the shape MongoDB's explain uses
 * (explain.ts), and run as sources that fetch documents in index order, stop early and survive yields by re-seeking to
 * the last key they returned (scan.ts, merge-scans.ts, sources.ts).
 */
import { MongoCommandError } from "../errors";
import type { Collection } from "../storage/collection";
import type { Index } from "../storage/indexes";
import { parseTextQuery } from "../text";
import { type Doc, isPlainObject, keyOf } from "../values";
import {
  analyseFilter,
  conditionBounds,
  FULL,
  hasTextOperator,
  type Interval,
  intersect,
  isPoint,
  type QueryShape,
  sortIntervals,
} from "./bounds";
import { buildRanges, estimateKeys } from "./key-ranges";
import type { IndexScanPlan, Plan, PlannedQuery, PlanOptions, SortSpec } from "./plan";
import { planCacheKey, planCacheOf } from "./plan-cache";
import { TEXT_SCORE_FIELD } from "./sort";

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
    if (b?.exact && b.intervals.length === 1 && isPoint(b.intervals[0])) {
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
