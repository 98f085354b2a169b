/** Queries a stage runs to completion without yielding ($lookup's foreign side, $merge's `on` match). */
import { planQuery } from "../planner/choose";
import type { PlannedQuery, SortSpec } from "../planner/plan";
import { PAUSE, type Source } from "../planner/scan";
import { openSource } from "../planner/sources";
import type { Collection } from "../storage/collection";
import type { Doc } from "../values";
import { docComparator } from "./sort";
import { notablescanOf, type PipelineEnv } from "./stage";

/** A find run to completion without yielding (sub-queries inside a stage). */
export function runQuerySync(
  env: PipelineEnv,
  coll: Collection,
  filter: Doc,
  opts: { sort?: SortSpec; limit?: number },
): Doc[] {
  const matcher = env.compile(filter);
  const q = planQuery(coll, coll.ns, filter, matcher, {
    sort: opts.sort,
    wanted: opts.limit ?? 0,
    notablescan: notablescanOf(env.params),
  });
  return drainSync(env, coll, q, opts.limit ?? 0);
}

/** A planned query read to completion without yielding: `skip` documents passed over, then at most `limit` (0: all). */
export function drainSync(
  env: PipelineEnv,
  coll: Collection | undefined,
  q: PlannedQuery,
  limit: number,
  skip = 0,
): Doc[] {
  const source: Source = openSource(coll, q, env.stats, env.compile);
  // In the index's order, the documents skipped are passed over (from the index alone when the source can).
  let toSkip = q.blockingSort ? 0 : skip;
  if (toSkip > 0 && source.skip) toSkip -= source.skip(toSkip);
  const out: Doc[] = [];
  for (let step = 0; ; step++) {
    const d = source.next();
    if (d === PAUSE) {
      env.ctx.check();
      continue;
    }
    if (!d) break;
    if (toSkip > 0) toSkip--;
    else {
      out.push(d);
      if (!q.blockingSort && limit > 0 && out.length >= limit) break;
    }
    if ((step & 255) === 255) env.ctx.check();
  }
  if (q.blockingSort) {
    const cmp = docComparator(q.blockingSort);
    out.sort(cmp);
    return out.slice(skip, limit > 0 ? skip + limit : undefined);
  }
  return out;
}
