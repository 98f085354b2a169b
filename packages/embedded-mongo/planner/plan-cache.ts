/**
 * The plan cache: the plan chosen for a collection's recent queries (filter, sort and limit), kept until its indexes
 * or enough of its documents change.
 */
import type { Collection } from "../storage/collection";
import type { Index } from "../storage/indexes";
import { type Doc, isPlainObject, keyOf } from "../values";
import type { SortSpec } from "./plan";

/**
 * The plans chosen for a collection's recent queries, as mongod keeps them: costing every candidate index counts keys
 * in each of its ranges (estimateKeys), which for the portal's planning filters (an $in of tens of values over four
 * channels and a date range) was a large share of the database's work per page, repeated for the same filter on every
 * request. An entry names the winning index (or the collection scan) for an exact filter, sort and limit; a hit builds
 * that index's plan from the query as it is, so an entry only ever chooses which plan runs, never what it returns.
 * Entries go when the collection's complete indexes change, after PLAN_CACHE_WRITES changes to its documents (the data
 * the costs were read from has moved: mongod 2.6 flushed its cache after 1,000 writes too), and the oldest first past
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

export function planCacheOf(coll: Collection): PlanCache {
  let cache = planCaches.get(coll);
  if (!cache) planCaches.set(coll, (cache = new PlanCache(coll)));
  return cache;
}

/**
 * The cache key of a query: its filter as keyOf writes it (values with their types; numbers of any width alike, which
 * bound an index alike), the sort and the limit; undefined when too long.
 */
export function planCacheKey(filter: Doc, sort: SortSpec | undefined, wanted: number): string | undefined {
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
