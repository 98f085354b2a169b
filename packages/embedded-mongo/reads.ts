/** The planned, yielding, time-limited reads (find, count, distinct, aggregate) that commands and explain share. */

import { collectionName, docArg, evalLet, numberArg } from "./args";
import { MongoCommandError } from "./errors";
import {
  boundedDistinctPlan,
  distinctFromDocs,
  distinctIndex,
  distinctScan,
  ExecContext,
  runCount,
  runFind,
} from "./exec";
import type { Vars } from "./expressions";
import { compileFilter, filterCompiler } from "./filters";
import { planQuery } from "./planner/choose";
import type { IndexScanPlan, PlannedQuery } from "./planner/plan";
import { normaliseSort } from "./planner/sort";
import { openSource, withoutText } from "./planner/sources";
import type { Profiler, ReadOutcome } from "./profiler";
import { compileProjection } from "./projection";
import { runAggregate } from "./stages/pipeline";
import { notablescanOf, type PipelineEnv, type ServerParams } from "./stages/stage";
import type { Catalog } from "./storage/catalog";
import { Collection } from "./storage/collection";
import type { Index } from "./storage/indexes";
import { assertSupportedValues, type Doc, isPlainObject, keyOf } from "./values";

/** What reads, writes and explain need of the command runner (CommandCore, runner.ts). */
export type RunnerState = { readonly catalog: Catalog; readonly params: ServerParams; readonly profiler: Profiler };

/** The environment of a read's pipeline or query. */
export function readEnv(runner: RunnerState, db: string, ctx: ExecContext, vars?: Vars): PipelineEnv {
  return {
    catalog: runner.catalog,
    db,
    ctx,
    compile: filterCompiler(vars),
    params: runner.params,
    stats: { keysExamined: 0, docsExamined: 0 },
    plans: [],
  };
}

/** The collection a read names; system.profile is the profiler's buffer. */
export function readable(runner: RunnerState, db: string, name: string): Collection | undefined {
  if (name === "system.profile") {
    const coll = new Collection(db, name);
    for (const entry of runner.profiler.state(db).entries) coll.docs.set(keyOf(entry._id), entry);
    coll.rebuildIndexes();
    return coll;
  }
  return runner.catalog.getCollection(db, name);
}

/** `explaining`: planned afresh, every candidate listed (no plan cache), as mongod's explain does. */
export async function readFind(runner: RunnerState, cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
  const name = collectionName(cmd);
  const filter = docArg(cmd.filter, "filter");
  const coll = readable(runner, db, name);
  const sort = cmd.sort === undefined ? undefined : normaliseSort(docArg(cmd.sort, "sort"));
  const projection = cmd.projection === undefined ? undefined : docArg(cmd.projection, "projection");
  const skip = numberArg(cmd.skip, "skip");
  const limit = Math.abs(numberArg(cmd.limit, "limit"));
  if (skip < 0) throw new MongoCommandError("BadValue", "skip value must be non-negative");
  const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
  const vars = evalLet(cmd.let);
  const compile = filterCompiler(vars);
  const env = readEnv(runner, db, ctx, vars);
  const apply = projection && Object.keys(projection).length > 0 ? compileProjection(projection, "find") : undefined;
  const q = planQuery(coll, `${db}.${name}`, filter, compile(withoutText(filter)), {
    sort,
    wanted: limit > 0 ? skip + limit : 0,
    hint: cmd.hint,
    notablescan: name === "system.profile" ? undefined : notablescanOf(runner.params),
    cached: !explaining,
  });
  const page = await runFind(ctx, coll, q, { skip, limit, compile }, env.stats);
  const docs = apply ? page.map((d) => apply(d, vars)) : page;
  return { docs, plans: [q], stats: env.stats, ctx, nReturned: docs.length };
}

export async function readCount(runner: RunnerState, cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
  const name = collectionName(cmd);
  const coll = readable(runner, db, name);
  const filter = docArg(cmd.query, "query");
  const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
  const env = readEnv(runner, db, ctx);
  const skip = numberArg(cmd.skip, "skip");
  const limit = Math.abs(numberArg(cmd.limit, "limit"));
  let n: number;
  let plans: PlannedQuery[] = [];
  if (Object.keys(filter).length === 0 && cmd.hint === undefined) {
    // An unfiltered count reads the collection's size (mongod's COUNT stage on record store metadata).
    n = coll?.docs.size ?? 0;
  } else {
    const q = planQuery(coll, `${db}.${name}`, filter, compileFilter(withoutText(filter)), {
      hint: cmd.hint,
      forCount: true,
      notablescan: notablescanOf(runner.params),
      cached: !explaining,
    });
    plans = [q];
    n = await runCount(ctx, coll, q, env.stats, compileFilter);
  }
  n = Math.max(0, n - skip);
  if (limit > 0) n = Math.min(n, limit);
  return { docs: [], plans, stats: env.stats, ctx, nReturned: n, countOnly: true };
}

export async function readDistinct(
  runner: RunnerState,
  cmd: Doc,
  db: string,
  explaining = false,
): Promise<ReadOutcome> {
  const name = collectionName(cmd);
  const key = cmd.key as string;
  const coll = readable(runner, db, name);
  const filter = docArg(cmd.query, "query");
  const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
  const env = readEnv(runner, db, ctx);
  if (!coll) return { docs: [], plans: [], stats: env.stats, ctx, nReturned: 0 };
  // A DISTINCT_SCAN: over an index led by the key, whole (no filter) or within the filter's bounds.
  const scanned = async (q: PlannedQuery, index: Index, within?: IndexScanPlan): Promise<ReadOutcome> => {
    const values = await distinctScan(ctx, index, env.stats, within);
    const stage = { stage: "DISTINCT_SCAN", keyPattern: { ...index.spec.key }, indexName: index.name };
    return {
      docs: values,
      plans: [q],
      stats: env.stats,
      ctx,
      nReturned: values.length,
      stages: [{ stage: "PROJECTION_COVERED", transformBy: { _id: 0, [key]: 1 }, inputStage: stage }],
    };
  };
  const index = Object.keys(filter).length === 0 ? distinctIndex(coll, key) : undefined;
  if (index) {
    const q: PlannedQuery = {
      ns: coll.ns,
      filter,
      matcher: () => true,
      plan: {
        kind: "ixscan",
        index,
        fieldIntervals: [],
        direction: 1,
        ranges: [],
        exact: true,
        providesSort: false,
        mergeSort: false,
        boundedFields: 0,
        keys: 0,
      },
      rejected: [],
      collectionSize: coll.docs.size,
    };
    return scanned(q, index);
  }
  const q = planQuery(coll, coll.ns, filter, compileFilter(withoutText(filter)), {
    hint: cmd.hint,
    notablescan: notablescanOf(runner.params),
    cached: !explaining,
  });
  const bounded = boundedDistinctPlan(q.plan, key);
  if (bounded) return scanned(q, bounded.index, bounded);
  const values = await distinctFromDocs(ctx, openSource(coll, q, env.stats, compileFilter), key);
  return { docs: values, plans: [q], stats: env.stats, ctx, nReturned: values.length };
}

export async function readAggregate(runner: RunnerState, cmd: Doc, db: string, writable = false): Promise<ReadOutcome> {
  if (!Array.isArray(cmd.pipeline))
    throw new MongoCommandError("TypeMismatch", "'pipeline' option must be specified as an array");
  const pipeline = cmd.pipeline as Doc[];
  assertSupportedValues(pipeline, "pipeline");
  if (!writable) {
    for (const stage of pipeline) {
      const op = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (op === "$out" || op === "$merge")
        throw new MongoCommandError("IllegalOperation", `explain of ${op} is not supported by the embedded server`);
    }
  }
  const vars = evalLet(cmd.let);
  const collName = cmd.aggregate === 1 ? undefined : collectionName(cmd);
  const ns = collName ? `${db}.${collName}` : `${db}.$cmd.aggregate`;
  const coll = collName ? readable(runner, db, collName) : undefined;
  const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
  const env = readEnv(runner, db, ctx, vars);
  env.writable = writable;
  // Only explain reads an aggregate unwritable: it plans afresh.
  env.planCache = writable;
  if (collName === "system.profile") env.params = { ...env.params, notablescan: false };
  const result = await runAggregate(env, coll, ns, pipeline, cmd.hint, vars);
  return {
    docs: result.docs,
    plans: [result.query],
    stats: env.stats,
    ctx,
    stages: result.rest,
    countOnly: result.countOnly,
    nReturned: result.docs.length,
  };
}
