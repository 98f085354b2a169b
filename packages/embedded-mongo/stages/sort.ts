/** $sort: the whole input sorted stably, or a top-k when a $limit follows it. */
import { MongoCommandError } from "../errors";
import { TopK } from "../exec";
import type { SortSpec } from "../planner/plan";
import { compareDocs, normaliseSort } from "../planner/sort";
import { type Doc, isPlainObject } from "../values";
import { Stage, type StageFactory } from "./stage";

export class SortStage extends Stage {
  private readonly all: Doc[] = [];
  private readonly top: TopK | undefined;
  constructor(
    private readonly sort: SortSpec,
    limit: number | undefined,
  ) {
    super();
    if (limit !== undefined) this.top = new TopK(sort, limit);
  }
  push(doc: Doc): boolean {
    if (this.top) this.top.push(doc);
    else this.all.push(doc);
    return true;
  }
  end(): void {
    let out: Doc[];
    if (this.top) out = this.top.result();
    else {
      const keys = this.all.map((d, i) => ({ d, i }));
      const cmp = docComparator(this.sort);
      keys.sort((a, b) => cmp(a.d, b.d) || a.i - b.i);
      out = keys.map((k) => k.d);
    }
    for (const d of out) if (!this.next.push(d)) break;
    this.next.end();
  }
}

export function docComparator(sort: SortSpec): (a: Doc, b: Doc) => number {
  return (a, b) => compareDocs(a, b, sort);
}

export const sortStage: StageFactory = ({ arg, next, consumeNext }) => {
  if (!isPlainObject(arg)) throw new MongoCommandError("TypeMismatch", "the $sort key specification must be an object");
  const spec = normaliseSort(arg);
  if (!spec) throw new MongoCommandError("BadValue", "$sort stage must have at least one sort key");
  if (next && isPlainObject(next) && "$limit" in next && typeof next.$limit === "number") {
    consumeNext();
    return new SortStage(spec, next.$limit);
  }
  return new SortStage(spec, undefined);
};
