/**
 * The plans the planner chooses among (collection scan, _id lookup, index scan, $or, text) and what a planned query
 * carries.
 */
import type { Index } from "../storage/indexes";
import type { TextIndex, TextQuery } from "../text";
import type { Doc } from "../values";
import type { BoundValue, Interval } from "./bounds";

export type SortSpec = [string, 1 | -1][];

/** A range of keys in index order: start and end per index field. */
export type KeyRange = { start: { v: BoundValue; inc: boolean }[]; end: { v: BoundValue; inc: boolean }[] };

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
