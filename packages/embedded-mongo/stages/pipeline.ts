/**
 * The pipeline driver. Aggregation streams: the leading $match / $sort / $skip / $limit go to the planner (so they
 * use indexes and stop early), and every later stage receives documents one at a time, never a copy of the
 * collection. Each stage is built by its factory in the registry (stages/registry.ts, one file per stage or family
 * in stages/); the stages the portal's pages and charts use run natively with compiled expressions, the few others
 * through mingo on copies of their input. Stored documents are never handed to code that could change them.
 */
import { drain, runCount, runFind } from "../exec";
import type { Vars } from "../expressions";
import { planQuery } from "../planner/choose";
import type { PlannedQuery } from "../planner/plan";
import { openSource, withoutText } from "../planner/sources";
import type { Catalog } from "../storage/catalog";
import type { Collection } from "../storage/collection";
import { type Doc, isPlainObject } from "../values";
import { splitPrefix } from "./prefix";
import { stageFactory } from "./registry";
import { Collector, notablescanOf, type PipelineEnv, type Stage, stageName } from "./stage";
import { compileUpdateStagesWith } from "./update-pipeline";

/** Builds the stage chain of a pipeline ending in `sink` (each stage from its registry factory); returns its head. */
export function buildChain(stages: Doc[], env: PipelineEnv, vars: Vars, sink: Stage): Stage {
  const built: Stage[] = [];
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i];
    const name = stageName(stage);
    let consumedNext = false;
    const made = stageFactory(name)({
      name,
      arg: stage[name],
      stage,
      env,
      vars,
      last: i === stages.length - 1,
      next: stages[i + 1],
      consumeNext: () => {
        consumedNext = true;
      },
      buildChain,
    });
    if (Array.isArray(made)) built.push(...made);
    else built.push(made);
    if (consumedNext) i++;
  }
  built.push(sink);
  for (let i = 0; i < built.length - 1; i++) built[i].next = built[i + 1];
  return built[0];
}

/**
 * An update pipeline as a function from a stored document to its new version, run by the server's own stages.
 * As in mongod, a result without _id keeps the document's _id (first); a result whose _id differs is refused.
 */
export function compileUpdateStages(stages: Doc[], vars: Vars, catalog?: Catalog): (doc: Doc) => Doc {
  return compileUpdateStagesWith(buildChain, stages, vars, catalog);
}

/** The driver's countDocuments shape after the prefix: one `$group { _id: 1|null, n: { $sum: 1 } }`. */
function countField(rest: Doc[]): string | undefined {
  if (rest.length !== 1 || !isPlainObject(rest[0]) || !isPlainObject(rest[0].$group)) return undefined;
  const group = rest[0].$group as Doc;
  const keys = Object.keys(group);
  if (keys.length !== 2 || !(group._id === 1 || group._id === null)) return undefined;
  const field = keys.find((k) => k !== "_id")!;
  const acc = group[field];
  if (!isPlainObject(acc) || acc.$sum !== 1 || Object.keys(acc).length !== 1) return undefined;
  return field;
}

export type AggregateResult = { docs: Doc[]; query: PlannedQuery; rest: Doc[]; countOnly: boolean };

/** Runs a pipeline over a collection (or none, for `aggregate: 1`), yielding between slices. */
export async function runAggregate(
  env: PipelineEnv,
  coll: Collection | undefined,
  ns: string,
  pipeline: Doc[],
  hint?: unknown,
  vars?: Vars,
): Promise<AggregateResult> {
  const prefix = splitPrefix(pipeline);
  const count = countField(prefix.rest);
  const matcher = env.compile(withoutText(prefix.filter));
  const query = planQuery(coll, ns, prefix.filter, matcher, {
    sort: prefix.sort,
    wanted: prefix.limit > 0 ? prefix.skip + prefix.limit : 0,
    hint,
    forCount: count !== undefined && prefix.skip === 0 && prefix.limit === 0,
    notablescan: notablescanOf(env.params),
    cached: env.planCache,
  });
  env.plans.push(query);
  if (count !== undefined && !prefix.sort) {
    let n = await runCount(env.ctx, coll, query, env.stats, env.compile);
    n = Math.max(0, n - prefix.skip);
    if (prefix.limit > 0) n = Math.min(n, prefix.limit);
    const group = prefix.rest[0].$group as Doc;
    return { docs: n === 0 ? [] : [{ _id: group._id, [count]: n }], query, rest: prefix.rest, countOnly: true };
  }
  const sink = new Collector();
  const head = buildChain(prefix.rest, env, vars, sink);
  if (query.blockingSort || !coll) {
    const docs = await runFind(
      env.ctx,
      coll,
      query,
      { skip: prefix.skip, limit: prefix.limit, compile: env.compile },
      env.stats,
    );
    for (let i = 0; i < docs.length; i++) {
      if (!head.push(docs[i])) break;
      if ((i & 63) === 63) await env.ctx.tick(i);
    }
  } else {
    const source = openSource(coll, query, env.stats, env.compile);
    let skip = prefix.skip;
    if (skip > 0 && source.skip) skip -= source.skip(skip);
    let left = prefix.limit > 0 ? prefix.limit : Infinity;
    // Without a skip or limit left to apply, documents go straight to the first stage.
    const onDoc =
      skip === 0 && left === Infinity
        ? (doc: Doc) => head.push(doc)
        : (doc: Doc) => {
            if (skip > 0) {
              skip--;
              return true;
            }
            left--;
            return head.push(doc) && left > 0;
          };
    await drain(env.ctx, source, onDoc);
  }
  head.end();
  return { docs: sink.docs, query, rest: prefix.rest, countOnly: false };
}
