/**
 * Writes: the documents a write targets (planned like a read), deleteMany in yielding slices, and one update
 * statement (operators, replacement or pipeline; upserts), each document's change atomic.
 */
import { arrayArg, docArg, evalLet, numberArg, validateId } from "./args";
import { MongoCommandError, toCommandError } from "./errors";
import { drain, ExecContext } from "./exec";
import type { Vars } from "./expressions";
import { compileFilter, filterCompiler } from "./filters";
import { WRITE_CHUNK } from "./limits";
import { planQuery } from "./planner/choose";
import type { SortSpec } from "./planner/plan";
import { PAUSE } from "./planner/scan";
import { compareDocs, normaliseSort } from "./planner/sort";
import { openSource } from "./planner/sources";
import type { RunnerState } from "./reads";
import { compileUpdateStages } from "./stages/pipeline";
import { notablescanOf } from "./stages/stage";
import type { Collection } from "./storage/collection";
import { withIdFirst } from "./storage/doc-writes";
import { classifyUpdate, immutableId, runUpdate, seedFromFilter, updateComputer } from "./update";
import { assertSupportedValues, cloneDeep, type Doc, deepEqual, isPlainObject, keyOf } from "./values";

/** What a write's targets are chosen by, besides its filter. */
export type TargetOptions = {
  sort?: Doc;
  limit?: number;
  hint?: unknown;
  cmd: Doc;
  op: string;
  compile?: (filter: Doc) => (doc: Doc) => boolean;
};

/** What one update statement did; an error after some documents were written comes back with the counts. */
export type UpdateOutcome = {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  before?: Doc;
  after?: Doc;
  error?: MongoCommandError;
};

export function sortSync(docs: Doc[], sort: SortSpec): Doc[] {
  const indexed = docs.map((d, i) => ({ d, i }));
  indexed.sort((a, b) => compareDocs(a.d, b.d, sort) || a.i - b.i);
  return indexed.map((x) => x.d);
}

/** Documents a write targets, planned like a read but run to completion without yielding (writes are atomic). */
export function writeTargets(
  runner: RunnerState,
  db: string,
  coll: Collection,
  filter: Doc,
  opts: TargetOptions,
): Doc[] {
  const started = performance.now();
  const compile = opts.compile ?? compileFilter;
  const sort =
    opts.sort !== undefined && isPlainObject(opts.sort) && Object.keys(opts.sort).length > 0
      ? normaliseSort(opts.sort)
      : undefined;
  const q = planQuery(coll, coll.ns, filter, compile(filter), {
    sort,
    wanted: opts.limit ?? 0,
    hint: opts.hint,
    notablescan: notablescanOf(runner.params),
  });
  const stats = { keysExamined: 0, docsExamined: 0 };
  const source = openSource(coll, q, stats, compile);
  const out: Doc[] = [];
  const limit = opts.limit ?? 0;
  const pull = () => {
    for (;;) {
      const d = source.next();
      if (d !== PAUSE) return d;
    }
  };
  if (q.blockingSort) {
    for (let d = pull(); d; d = pull()) out.push(d);
    const sorted = sortSync(out, q.blockingSort);
    runner.profiler.write(db, opts.op, coll.ns, opts.cmd, q, started, Math.min(sorted.length, limit || Infinity));
    return limit > 0 ? sorted.slice(0, limit) : sorted;
  }
  for (let d = pull(); d; d = pull()) {
    out.push(d);
    if (limit > 0 && out.length >= limit) break;
  }
  runner.profiler.write(db, opts.op, coll.ns, opts.cmd, q, started, out.length);
  return out;
}

/**
 * The documents a multi-document write targets, pulled with yields between slices (as a read does), each
 * once even when a concurrent write moved it within the index being walked.
 */
async function targetsYielding(
  runner: RunnerState,
  db: string,
  coll: Collection,
  filter: Doc,
  opts: { hint?: unknown; cmd: Doc; op: string; compile: (filter: Doc) => (doc: Doc) => boolean },
  ctx: ExecContext,
): Promise<Doc[]> {
  const started = performance.now();
  const q = planQuery(coll, coll.ns, filter, opts.compile(filter), {
    wanted: 0,
    hint: opts.hint,
    notablescan: notablescanOf(runner.params),
  });
  const stats = { keysExamined: 0, docsExamined: 0 };
  const source = openSource(coll, q, stats, opts.compile);
  const out: Doc[] = [];
  const seen = new Set<Doc>();
  await drain(ctx, source, (doc) => {
    if (ctx.yields > 0) {
      if (seen.size === 0) for (const d of out) seen.add(d);
      if (seen.has(doc)) return true;
      seen.add(doc);
    }
    out.push(doc);
    return true;
  });
  if (ctx.yields > 0) {
    // After a yield the same document may have come back in a new version (an update moved it ahead): keep its latest.
    const byId = new Map<string, Doc>();
    for (const d of out) byId.set(keyOf(d._id), d);
    if (byId.size !== out.length) {
      // (a loop, not push(...values): a spread of a million arguments overflows the stack)
      out.length = 0;
      for (const d of byId.values()) out.push(d);
    }
  }
  runner.profiler.write(db, opts.op, coll.ns, opts.cmd, q, started, out.length);
  return out;
}

/**
 * The version of each target a multi-document write should change now: after the write yielded, another
 * client may have changed or removed a target, so the stored version is read again and the filter
 * re-tested when it differs (what mongod does when a yield lets another write in).
 */
function current(coll: Collection, docs: Doc[], matches: (doc: Doc) => boolean): Doc[] {
  const out: Doc[] = [];
  for (const doc of docs) {
    const now = coll.docs.get(keyOf(doc._id));
    if (now === doc || (now !== undefined && matches(now))) out.push(now);
  }
  return out;
}

/**
 * Checked before each chunk of a multi-document write: the collection may have been dropped (or the
 * database) while it yielded. Writing on would put records of a dropped collection in the journal,
 * which a restart would bring back.
 */
function assertStillThere(runner: RunnerState, coll: Collection): void {
  if (runner.catalog.getCollection(coll.db, coll.name) !== coll) {
    throw new MongoCommandError("QueryPlanKilled", `PlanExecutor killed: collection dropped (${coll.ns})`);
  }
}

/** Throws when a journal write failed while this command yielded (its earlier changes may have been undone). */
function assertDurable(runner: RunnerState, failuresBefore: number | undefined): void {
  const sink = runner.catalog.sink;
  if (sink?.failures !== failuresBefore) {
    throw new MongoCommandError(
      "InternalError",
      sink?.lastFailure?.message ??
        "the embedded server could not make the write durable; the write was not fully applied",
    );
  }
}

/** deleteMany: removes in slices, yielding between them. */
export async function removeMany(
  runner: RunnerState,
  db: string,
  coll: Collection,
  filter: Doc,
  hint: unknown,
  cmd: Doc,
  vars?: Vars,
): Promise<{ removed: number; error?: MongoCommandError }> {
  const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
  const failuresBefore = runner.catalog.sink?.failures;
  const compile = filterCompiler(vars);
  const targets = await targetsYielding(runner, db, coll, filter, { hint, cmd, op: "remove", compile }, ctx);
  const matches = compile(filter);
  let removed = 0;
  try {
    for (let start = 0; start < targets.length; start += WRITE_CHUNK) {
      assertDurable(runner, failuresBefore);
      assertStillThere(runner, coll);
      let chunk = targets.slice(start, start + WRITE_CHUNK);
      if (ctx.yields > 0) chunk = current(coll, chunk, matches);
      for (const doc of chunk) {
        runner.catalog.remove(coll, doc);
        removed++;
      }
      ctx.check();
      if (ctx.sliceOver()) await ctx.yield();
    }
    assertDurable(runner, failuresBefore);
  } catch (error) {
    return { removed, error: toCommandError(error) };
  }
  return { removed };
}

/**
 * Applies one update statement. Errors after some documents were written
 * (a multi update hitting a duplicate key) come back in `error` so the
 * counts of what was written stay right. A multi update works in slices and
 * yields between them, so other connections are served meanwhile (each
 * document's change stays atomic, as in MongoDB).
 */
export async function applyUpdate(
  runner: RunnerState,
  db: string,
  name: string,
  stmt: Doc,
  single: boolean,
  cmd: Doc,
): Promise<UpdateOutcome> {
  const filter = docArg(stmt.q, "q");
  const update = stmt.u;
  const multi = stmt.multi === true && !single;
  const upsert = stmt.upsert === true;
  const arrayFilters =
    stmt.arrayFilters === undefined ? undefined : (arrayArg(stmt.arrayFilters, "arrayFilters") as Doc[]);
  const kind = classifyUpdate(update, multi);
  assertSupportedValues(update, "update");
  if (arrayFilters) assertSupportedValues(arrayFilters, "arrayFilters");
  if (stmt.c !== undefined && kind !== "pipeline") {
    throw new MongoCommandError(51198, "Constant values may only be specified for pipeline updates");
  }
  const vars = evalLet(stmt.c, evalLet(cmd.let));
  const compile = filterCompiler(vars);
  const pipelineUpdate = kind === "pipeline" ? compileUpdateStages(update as Doc[], vars, runner.catalog) : undefined;

  const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
  const failuresBefore = runner.catalog.sink?.failures;
  const coll = runner.catalog.getCollection(db, name);
  let targets: Doc[] = [];
  if (coll) {
    targets = multi
      ? await targetsYielding(runner, db, coll, filter, { hint: stmt.hint, cmd, op: "update", compile }, ctx)
      : writeTargets(runner, db, coll, filter, {
          sort: stmt.sort as Doc | undefined,
          limit: 1,
          hint: stmt.hint,
          cmd,
          op: single ? "findAndModify" : "update",
          compile,
        });
  }

  if (targets.length === 0) {
    if (!upsert) return { matched: 0, modified: 0 };
    const base = kind === "replacement" ? {} : seedFromFilter(filter);
    let doc: Doc;
    if (kind === "replacement") {
      doc = cloneDeep(update as Doc);
      const seededId = seedFromFilter(filter)._id;
      if (doc._id === undefined && seededId !== undefined) doc = { _id: seededId, ...doc };
    } else if (kind === "pipeline") {
      doc = pipelineUpdate!(base);
    } else {
      const ops = { ...(update as Doc) };
      const onInsert = ops.$setOnInsert;
      delete ops.$setOnInsert;
      if (isPlainObject(onInsert)) ops.$set = { ...(isPlainObject(ops.$set) ? ops.$set : {}), ...onInsert };
      // The inserted document may be given its _id by the update (not by the filter's, which it must then equal).
      if (isPlainObject(ops.$set) && "_id" in ops.$set) {
        const { _id: id, ...rest } = ops.$set;
        if (base._id !== undefined && keyOf(base._id) !== keyOf(id)) throw immutableId(base._id);
        base._id = cloneDeep(id);
        if (Object.keys(rest).length > 0) ops.$set = rest;
        else delete ops.$set;
      }
      const arr = [base];
      if (Object.keys(ops).length > 0) runUpdate(arr, {}, ops, arrayFilters);
      doc = arr[0];
    }
    doc = withIdFirst(doc);
    validateId(doc._id);
    const target = runner.catalog.getCollection(db, name) ?? runner.catalog.ensureCollection(db, name);
    runner.catalog.insert(target, doc);
    return { matched: 0, modified: 0, upsertedId: doc._id, after: doc };
  }

  const compute = updateComputer(kind, update, filter, arrayFilters, pipelineUpdate);
  const matches = multi ? compile(filter) : () => true;
  let matched = 0;
  let modified = 0;
  let before: Doc | undefined;
  let after: Doc | undefined;
  try {
    for (let start = 0; start < targets.length; start += WRITE_CHUNK) {
      assertDurable(runner, failuresBefore);
      assertStillThere(runner, coll!);
      let chunk = targets.slice(start, start + WRITE_CHUNK);
      if (ctx.yields > 0) chunk = current(coll!, chunk, matches);
      const updated = compute(chunk);
      for (let i = 0; i < chunk.length; i++) {
        const oldDoc = chunk[i];
        const newDoc = updated[i];
        if (keyOf(newDoc._id) !== keyOf(oldDoc._id)) throw immutableId(oldDoc._id);
        before = oldDoc;
        after = oldDoc;
        if (!deepEqual(oldDoc, newDoc)) {
          runner.catalog.replace(coll!, oldDoc, withIdFirst(newDoc));
          after = newDoc;
          modified++;
        }
        matched++;
      }
      if (multi) {
        ctx.check();
        if (ctx.sliceOver()) await ctx.yield();
      }
    }
    if (multi) assertDurable(runner, failuresBefore);
  } catch (error) {
    return { matched, modified, error: toCommandError(error) };
  }
  return { matched, modified, before, after };
}
