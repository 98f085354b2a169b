/**
 * A planned query opened as a source (index scans, merges, $or, text, the collection scan), and counts answered from
 * an index alone.
 */
import { textScores } from "../expressions";
import type { Collection } from "../storage/collection";
import { type Doc, isPlainObject, keyOf } from "../values";
import { countRange } from "./key-ranges";
import { EntryMergeScan, MergeScan } from "./merge-scans";
import type { Plan, PlannedQuery } from "./plan";
import { CollScan, IndexScan, PAUSE, type ScanStats, type Source } from "./scan";

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
