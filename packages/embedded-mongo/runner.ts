/**
 * The command runner's state and machinery: the catalogue, cursors, server parameters, the profiler, and the planned,
 * yielding reads and writes that the command handlers (commands/*.ts) share. Each command runs against the catalogue
 * without interleaving with another; the caller then waits for the journal before replying.
 */
import { Long } from "bson";
import { MongoCommandError, toCommandError } from "./errors";
import {
  boundedDistinctPlan,
  distinctFromDocs,
  distinctIndex,
  distinctScan,
  drain,
  ExecContext,
  runCount,
  runFind,
} from "./exec";
import { compileUpdateStages, runAggregate, type PipelineEnv, type ServerParams } from "./pipeline";
import {
  normaliseSort,
  openSource,
  PAUSE,
  planQuery,
  planStage,
  planSummary,
  withoutText,
  type IndexScanPlan,
  type PlannedQuery,
} from "./planner";
import { checkCommandFields } from "./strict";
import { Collection, type Catalog, type Index, withIdFirst } from "./storage";
import { assertSupportedValues, cloneDeep, deepEqual, isPlainObject, keyOf, type Doc } from "./values";
import type { Vars } from "./expressions";
import { compileProjection } from "./projection";
import {
  CATALOG_FREE,
  COMMAND_ALIASES,
  CURSOR_IDLE_MS,
  type Cursor,
  PROFILE_CAPACITY,
  type ProfileEntry,
  type ReadOutcome,
  type ServerInfo,
  WRITE_CHUNK,
  arrayArg,
  classifyUpdate,
  collectionName,
  compileFilter,
  docArg,
  evalLet,
  filterCompiler,
  immutableId,
  namespacesOf,
  numberArg,
  project,
  rejectCollation,
  runUpdate,
  seedFromFilter,
  sortSync,
  takeBatch,
  updateComputer,
  validateId,
} from "./command-support";

/** A command's handler: runs with the runner as `this`, and answers the reply document (or throws a MongoCommandError). */
export type CommandHandler = (this: CommandCore, cmd: Doc, db: string, info: ServerInfo) => Doc | Promise<Doc>;

export class CommandCore {
  readonly cursors = new Map<string, Cursor>();
  /** Server parameters settable with setParameter (notablescan as in mongod, plus its size threshold). */
  readonly params: ServerParams = { notablescan: false, notablescanMinDocuments: 0 };
  /** Profiling level per database (0 off, 1 slow operations, 2 all) and the profiled operations. */
  private readonly profiling = new Map<string, { level: number; slowms: number; entries: ProfileEntry[] }>();
  private nextCursor = BigInt(Date.now()) * 1000n;
  private readonly sweeper: NodeJS.Timeout;

  private readonly handlerByName: Map<string, CommandHandler>;

  constructor(
    readonly catalog: Catalog,
    handlers: Record<string, CommandHandler>,
  ) {
    this.handlerByName = new Map<string, CommandHandler>([
      ...Object.entries(handlers),
      ...Object.entries(COMMAND_ALIASES).map(([alias, name]): [string, CommandHandler] => [alias, handlers[name]]),
    ]);
    this.sweeper = setInterval(() => this.sweepCursors(), 60_000);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
    this.cursors.clear();
  }

  /** Runs one command; never throws: failures become MongoDB error replies. */
  async run(cmd: Doc, info: ServerInfo): Promise<Doc> {
    const name = Object.keys(cmd)[0] ?? "";
    const db = typeof cmd.$db === "string" ? cmd.$db : "admin";
    try {
      if (cmd.startTransaction === true || cmd.autocommit === false) {
        throw new MongoCommandError(
          "IllegalOperation",
          "Transaction numbers are only allowed on a replica set member or mongos (the embedded server is a standalone without transactions)",
        );
      }
      const handler = this.handlerByName.get(name);
      if (!handler) throw new MongoCommandError("CommandNotFound", `no such command: '${name}'`);
      checkCommandFields(cmd);
      rejectCollation(cmd);
      if (this.catalog.loading) {
        const wait = this.catalog.waitFor(namespacesOf(cmd, db));
        if (wait) await wait;
      }
      if (this.catalog.loadError && !CATALOG_FREE.has(name))
        throw new MongoCommandError("InternalError", this.catalog.loadError.message);
      return await handler.call(this, cmd, db, info);
    } catch (error) {
      const failure = toCommandError(error);
      if (failure.codeName === "NoQueryExecutionPlans") this.profileRefused(db, name, cmd, failure);
      return failure.toReply();
    }
  }

  /**
   * Names are matched exactly, as mongod does (a Map, so `constructor` or `toString` are not commands).
   * The only other spellings are the lower-case aliases mongod registers itself.
   */

  // -------------------------------------------------------------------------------------------
  // Reads: planned, yielding, time-limited; explained and profiled the same way

  private env(db: string, ctx: ExecContext, vars?: Vars): PipelineEnv {
    return {
      catalog: this.catalog,
      db,
      ctx,
      compile: filterCompiler(vars),
      params: this.params,
      stats: { keysExamined: 0, docsExamined: 0 },
      plans: [],
    };
  }

  private notablescan() {
    return { enabled: this.params.notablescan, minDocuments: this.params.notablescanMinDocuments };
  }

  /** The collection a read names; system.profile is the profiler's buffer. */
  private readable(db: string, name: string): Collection | undefined {
    if (name === "system.profile") {
      const coll = new Collection(db, name);
      for (const entry of this.profileState(db).entries) coll.docs.set(keyOf(entry._id), entry);
      coll.rebuildIndexes();
      return coll;
    }
    return this.catalog.getCollection(db, name);
  }

  /** `explaining`: planned afresh, every candidate listed (no plan cache), as mongod's explain does. */
  async readFind(cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
    const name = collectionName(cmd);
    const filter = docArg(cmd.filter, "filter");
    const coll = this.readable(db, name);
    const sort = cmd.sort === undefined ? undefined : normaliseSort(docArg(cmd.sort, "sort"));
    const projection = cmd.projection === undefined ? undefined : docArg(cmd.projection, "projection");
    const skip = numberArg(cmd.skip, "skip");
    const limit = Math.abs(numberArg(cmd.limit, "limit"));
    if (skip < 0) throw new MongoCommandError("BadValue", "skip value must be non-negative");
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const vars = evalLet(cmd.let);
    const compile = filterCompiler(vars);
    const env = this.env(db, ctx, vars);
    const apply = projection && Object.keys(projection).length > 0 ? compileProjection(projection, "find") : undefined;
    const q = planQuery(coll, `${db}.${name}`, filter, compile(withoutText(filter)), {
      sort,
      wanted: limit > 0 ? skip + limit : 0,
      hint: cmd.hint,
      notablescan: name === "system.profile" ? undefined : this.notablescan(),
      cached: !explaining,
    });
    const page = await runFind(ctx, coll, q, { skip, limit, compile }, env.stats);
    const docs = apply ? page.map((d) => apply(d, vars)) : page;
    return { docs, plans: [q], stats: env.stats, ctx, nReturned: docs.length };
  }

  async readCount(cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
    const name = collectionName(cmd);
    const coll = this.readable(db, name);
    const filter = docArg(cmd.query, "query");
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const env = this.env(db, ctx);
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
        notablescan: this.notablescan(),
        cached: !explaining,
      });
      plans = [q];
      n = await runCount(ctx, coll, q, env.stats, compileFilter);
    }
    n = Math.max(0, n - skip);
    if (limit > 0) n = Math.min(n, limit);
    return { docs: [], plans, stats: env.stats, ctx, nReturned: n, countOnly: true };
  }

  async readDistinct(cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
    const name = collectionName(cmd);
    const key = cmd.key as string;
    const coll = this.readable(db, name);
    const filter = docArg(cmd.query, "query");
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const env = this.env(db, ctx);
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
      notablescan: this.notablescan(),
      cached: !explaining,
    });
    const bounded = boundedDistinctPlan(q.plan, key);
    if (bounded) return scanned(q, bounded.index, bounded);
    const values = await distinctFromDocs(ctx, openSource(coll, q, env.stats, compileFilter), key);
    return { docs: values, plans: [q], stats: env.stats, ctx, nReturned: values.length };
  }

  async readAggregate(cmd: Doc, db: string, writable = false): Promise<ReadOutcome> {
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
    const coll = collName ? this.readable(db, collName) : undefined;
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const env = this.env(db, ctx, vars);
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

  /** The explain command, in the shape mongod gives (queryPlanner, executionStats, serverInfo). */
  async explain(cmd: Doc, db: string): Promise<Doc> {
    const inner = cmd.explain;
    if (!isPlainObject(inner)) throw new MongoCommandError("BadValue", "explain command requires a nested object");
    const verbosity = typeof cmd.verbosity === "string" ? cmd.verbosity : "allPlansExecution";
    if (!["queryPlanner", "executionStats", "allPlansExecution"].includes(verbosity)) {
      throw new MongoCommandError(
        "FailedToParse",
        `verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}`,
      );
    }
    const name = Object.keys(inner)[0];
    const innerDb = typeof inner.$db === "string" ? inner.$db : db;
    const withStats = verbosity !== "queryPlanner";
    let out: ReadOutcome;
    let wrap: (stage: Doc) => Doc = (stage) => stage;
    switch (name) {
      case "find": {
        out = await this.readFind({ ...inner, batchSize: undefined }, innerDb, true);
        const skip = numberArg(inner.skip, "skip");
        const limit = Math.abs(numberArg(inner.limit, "limit"));
        const q = out.plans[0];
        wrap = (stage) => {
          let s = stage;
          if (q.blockingSort) {
            s = {
              stage: "SORT",
              sortPattern: docArg(inner.sort, "sort"),
              memLimit: 104857600,
              ...(limit > 0 ? { limitAmount: skip + limit } : {}),
              type: "simple",
              inputStage: s,
            };
            if (skip > 0) s = { stage: "SKIP", skipAmount: skip, inputStage: s };
          } else {
            if (skip > 0) s = { stage: "SKIP", skipAmount: skip, inputStage: s };
            if (limit > 0) s = { stage: "LIMIT", limitAmount: limit, inputStage: s };
          }
          if (isPlainObject(inner.projection) && Object.keys(inner.projection).length > 0) {
            s = { stage: "PROJECTION_DEFAULT", transformBy: inner.projection, inputStage: s };
          }
          return s;
        };
        break;
      }
      case "count":
        out = await this.readCount(inner, innerDb, true);
        wrap = (stage) => ({ stage: "COUNT", inputStage: stage });
        break;
      case "distinct":
        if (typeof inner.key !== "string" || inner.key === "")
          throw new MongoCommandError("BadValue", "distinct needs a string 'key'");
        out = await this.readDistinct(inner, innerDb, true);
        break;
      case "aggregate":
        out = await this.readAggregate(inner, innerDb);
        break;
      case "update":
      case "delete":
      case "findAndModify":
      case "findandmodify": {
        const coll = this.catalog.getCollection(innerDb, collectionName(inner));
        const stmt =
          name === "update"
            ? Array.isArray(inner.updates)
              ? inner.updates[0]
              : undefined
            : name === "delete"
              ? Array.isArray(inner.deletes)
                ? inner.deletes[0]
                : undefined
              : inner;
        const filter = docArg(
          isPlainObject(stmt)
            ? name === "findAndModify" || name === "findandmodify"
              ? stmt.query
              : stmt.q
            : undefined,
          "filter",
        );
        const sort =
          isPlainObject(stmt) && stmt.sort !== undefined ? normaliseSort(docArg(stmt.sort, "sort")) : undefined;
        const q = planQuery(coll, `${innerDb}.${collectionName(inner)}`, filter, compileFilter(filter), {
          sort,
          hint: isPlainObject(stmt) ? stmt.hint : undefined,
          notablescan: this.notablescan(),
        });
        const ctx = new ExecContext();
        out = { docs: [], plans: [q], stats: { keysExamined: 0, docsExamined: 0 }, ctx, nReturned: 0 };
        wrap = (stage) => ({ stage: name === "delete" ? "DELETE" : "UPDATE", inputStage: stage });
        break;
      }
      default:
        throw new MongoCommandError("CommandNotFound", `Explain failed due to unknown command: ${name}`);
    }
    const q = out.plans[0];
    const forCount = out.countOnly === true;
    const winningPlan =
      out.stages && name === "distinct"
        ? out.stages[0]
        : q
          ? wrap(planStage(q.plan, q, forCount))
          : wrap({ stage: "COUNT" });
    const queryPlanner: Doc = {
      namespace: q?.ns ?? `${innerDb}.${String(inner[name])}`,
      indexFilterSet: false,
      parsedQuery: q?.filter ?? {},
      maxIndexedOrSolutionsReached: false,
      maxIndexedAndSolutionsReached: false,
      maxScansToExplodeReached: false,
      winningPlan,
      rejectedPlans: q ? q.rejected.map((p) => planStage(p, q, forCount)) : [],
    };
    const executionStats: Doc = {
      executionSuccess: true,
      nReturned: out.nReturned ?? out.docs.length,
      executionTimeMillis: Math.round(out.ctx.elapsedMs),
      totalKeysExamined: out.stats.keysExamined,
      totalDocsExamined: out.stats.docsExamined,
      executionStages: {
        ...winningPlan,
        nReturned: out.nReturned ?? out.docs.length,
        executionTimeMillisEstimate: Math.round(out.ctx.elapsedMs),
      },
    };
    if (verbosity === "allPlansExecution") executionStats.allPlansExecution = [];
    const serverInfo = { host: "127.0.0.1", port: 0, version: "7.0.0", gitVersion: "embedded-mongo" };
    const base: Doc = { explainVersion: "1" };
    const restStages = name === "aggregate" ? (out.stages ?? []) : [];
    if (name === "aggregate" && (restStages.length > 0 || out.countOnly)) {
      const cursorStage: Doc = { queryPlanner };
      if (withStats) cursorStage.executionStats = executionStats;
      base.stages = [
        { $cursor: cursorStage, nReturned: out.nReturned ?? out.docs.length },
        ...restStages.map((s) => ({ ...s })),
      ];
    } else {
      base.queryPlanner = queryPlanner;
      if (withStats) base.executionStats = executionStats;
    }
    return { ...base, command: inner, serverInfo, serverParameters: { notablescan: this.params.notablescan }, ok: 1 };
  }

  // -------------------------------------------------------------------------------------------
  // Profiler (db.setProfilingLevel / system.profile)

  profileState(db: string) {
    let state = this.profiling.get(db);
    if (!state) this.profiling.set(db, (state = { level: 0, slowms: 100, entries: [] }));
    return state;
  }

  profileRead(db: string, op: string, ns: string, cmd: Doc, out: ReadOutcome): void {
    const state = this.profiling.get(db);
    if (!state || state.level === 0 || ns.endsWith(".system.profile")) return;
    const millis = Math.round(out.ctx.elapsedMs);
    if (state.level === 1 && millis < state.slowms) return;
    const q = out.plans[0];
    const command: Doc = {};
    for (const [k, v] of Object.entries(cmd))
      if (!["lsid", "$clusterTime", "$readPreference", "$db"].includes(k)) command[k] = v;
    const entry: ProfileEntry = {
      _id: state.entries.length === 0 ? 1 : (state.entries[state.entries.length - 1]._id as number) + 1,
      op,
      ns,
      command,
      keysExamined: out.stats.keysExamined,
      docsExamined: out.stats.docsExamined,
      nreturned: out.nReturned ?? out.docs.length,
      planSummary:
        out.stages && out.stages[0]?.stage === "PROJECTION_COVERED"
          ? `DISTINCT_SCAN ${JSON.stringify((out.stages[0].inputStage as Doc).keyPattern)}`
          : q
            ? planSummary(q.plan, out.countOnly)
            : "COUNT",
      collectionSize: q?.collectionSize ?? 0,
      numYield: out.ctx.yields,
      millis,
      ts: new Date(),
    };
    state.entries.push(entry);
    if (state.entries.length > PROFILE_CAPACITY) state.entries.splice(0, state.entries.length - PROFILE_CAPACITY);
  }

  /** Profiles a query notablescan refused, so a test reading system.profile sees it even if the caller swallowed the error. */
  private profileRefused(db: string, commandName: string, cmd: Doc, failure: MongoCommandError): void {
    const state = this.profiling.get(db);
    if (!state || state.level === 0) return;
    const coll = typeof cmd[commandName] === "string" ? (cmd[commandName] as string) : "";
    const command: Doc = {};
    for (const [k, v] of Object.entries(cmd))
      if (!["lsid", "$clusterTime", "$readPreference", "$db", "documents"].includes(k)) command[k] = v;
    state.entries.push({
      _id: state.entries.length === 0 ? 1 : (state.entries[state.entries.length - 1]._id as number) + 1,
      op: commandName,
      ns: `${db}.${coll}`,
      command,
      planSummary: "COLLSCAN",
      collectionSize: this.catalog.getCollection(db, coll)?.docs.size ?? 0,
      errCode: failure.code,
      errName: failure.codeName,
      errMsg: failure.message,
      ts: new Date(),
    });
  }

  /** Profiles a write's plan (update, delete, findAndModify). */
  private profileWrite(
    db: string,
    op: string,
    ns: string,
    cmd: Doc,
    q: PlannedQuery,
    started: number,
    n: number,
  ): void {
    const state = this.profiling.get(db);
    if (!state || state.level === 0) return;
    const millis = Math.round(performance.now() - started);
    if (state.level === 1 && millis < state.slowms) return;
    const command: Doc = {};
    for (const [k, v] of Object.entries(cmd))
      if (!["lsid", "$clusterTime", "$readPreference", "$db", "updates", "deletes", "documents"].includes(k))
        command[k] = v;
    state.entries.push({
      _id: state.entries.length === 0 ? 1 : (state.entries[state.entries.length - 1]._id as number) + 1,
      op,
      ns,
      command: { ...command, q: q.filter },
      nMatched: n,
      planSummary: planSummary(q.plan),
      collectionSize: q.collectionSize,
      millis,
      ts: new Date(),
    });
    if (state.entries.length > PROFILE_CAPACITY) state.entries.splice(0, state.entries.length - PROFILE_CAPACITY);
  }

  /** Documents a write targets, planned like a read but run to completion without yielding (writes are atomic). */
  targets(
    db: string,
    coll: Collection,
    filter: Doc,
    opts: {
      sort?: Doc;
      limit?: number;
      hint?: unknown;
      cmd: Doc;
      op: string;
      compile?: (filter: Doc) => (doc: Doc) => boolean;
    },
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
      notablescan: this.notablescan(),
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
      this.profileWrite(db, opts.op, coll.ns, opts.cmd, q, started, Math.min(sorted.length, limit || Infinity));
      return limit > 0 ? sorted.slice(0, limit) : sorted;
    }
    for (let d = pull(); d; d = pull()) {
      out.push(d);
      if (limit > 0 && out.length >= limit) break;
    }
    this.profileWrite(db, opts.op, coll.ns, opts.cmd, q, started, out.length);
    return out;
  }

  /**
   * The documents a multi-document write targets, pulled with yields between slices (as a read does), each
   * once even when a concurrent write moved it within the index being walked.
   */
  private async targetsYielding(
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
      notablescan: this.notablescan(),
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
    this.profileWrite(db, opts.op, coll.ns, opts.cmd, q, started, out.length);
    return out;
  }

  /**
   * The version of each target a multi-document write should change now: after the write yielded, another
   * client may have changed or removed a target, so the stored version is read again and the filter
   * re-tested when it differs (what mongod does when a yield lets another write in).
   */
  private current(coll: Collection, docs: Doc[], matches: (doc: Doc) => boolean): Doc[] {
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
  private assertStillThere(coll: Collection): void {
    if (this.catalog.getCollection(coll.db, coll.name) !== coll) {
      throw new MongoCommandError("QueryPlanKilled", `PlanExecutor killed: collection dropped (${coll.ns})`);
    }
  }

  /** Throws when a journal write failed while this command yielded (its earlier changes may have been undone). */
  private assertDurable(failuresBefore: number | undefined): void {
    const sink = this.catalog.sink;
    if (sink?.failures !== failuresBefore) {
      throw new MongoCommandError(
        "InternalError",
        sink?.lastFailure?.message ??
          "the embedded server could not make the write durable; the write was not fully applied",
      );
    }
  }

  /** deleteMany: removes in slices, yielding between them. */
  async removeMany(
    db: string,
    coll: Collection,
    filter: Doc,
    hint: unknown,
    cmd: Doc,
    vars?: Vars,
  ): Promise<{ removed: number; error?: MongoCommandError }> {
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const failuresBefore = this.catalog.sink?.failures;
    const compile = filterCompiler(vars);
    const targets = await this.targetsYielding(db, coll, filter, { hint, cmd, op: "remove", compile }, ctx);
    const matches = compile(filter);
    let removed = 0;
    try {
      for (let start = 0; start < targets.length; start += WRITE_CHUNK) {
        this.assertDurable(failuresBefore);
        this.assertStillThere(coll);
        let chunk = targets.slice(start, start + WRITE_CHUNK);
        if (ctx.yields > 0) chunk = this.current(coll, chunk, matches);
        for (const doc of chunk) {
          this.catalog.remove(coll, doc);
          removed++;
        }
        ctx.check();
        if (ctx.sliceOver()) await ctx.yield();
      }
      this.assertDurable(failuresBefore);
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
  async applyUpdate(
    db: string,
    name: string,
    stmt: Doc,
    single: boolean,
    cmd: Doc,
  ): Promise<{
    matched: number;
    modified: number;
    upsertedId?: unknown;
    before?: Doc;
    after?: Doc;
    error?: MongoCommandError;
  }> {
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
    const pipelineUpdate = kind === "pipeline" ? compileUpdateStages(update as Doc[], vars, this.catalog) : undefined;

    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const failuresBefore = this.catalog.sink?.failures;
    const coll = this.catalog.getCollection(db, name);
    let targets: Doc[] = [];
    if (coll) {
      targets = multi
        ? await this.targetsYielding(db, coll, filter, { hint: stmt.hint, cmd, op: "update", compile }, ctx)
        : this.targets(db, coll, filter, {
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
        const arr = [base];
        if (Object.keys(ops).length > 0) runUpdate(arr, {}, ops, arrayFilters);
        doc = arr[0];
      }
      doc = withIdFirst(doc);
      validateId(doc._id);
      const target = this.catalog.getCollection(db, name) ?? this.catalog.ensureCollection(db, name);
      this.catalog.insert(target, doc);
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
        this.assertDurable(failuresBefore);
        this.assertStillThere(coll!);
        let chunk = targets.slice(start, start + WRITE_CHUNK);
        if (ctx.yields > 0) chunk = this.current(coll!, chunk, matches);
        const updated = compute(chunk);
        for (let i = 0; i < chunk.length; i++) {
          const oldDoc = chunk[i];
          const newDoc = updated[i];
          if (keyOf(newDoc._id) !== keyOf(oldDoc._id)) throw immutableId(oldDoc._id);
          before = oldDoc;
          after = oldDoc;
          if (!deepEqual(oldDoc, newDoc)) {
            this.catalog.replace(coll!, oldDoc, withIdFirst(newDoc));
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
      if (multi) this.assertDurable(failuresBefore);
    } catch (error) {
      return { matched, modified, error: toCommandError(error) };
    }
    return { matched, modified, before, after };
  }

  cursorReply(ns: string, docs: Doc[], batchSize: number, singleBatch: boolean): Doc {
    const first = takeBatch(docs, 0, batchSize);
    let id = Long.ZERO;
    if (!singleBatch && first.length < docs.length) {
      this.nextCursor += 1n;
      const key = this.nextCursor.toString();
      this.cursors.set(key, { ns, docs, pos: first.length, touched: Date.now() });
      id = Long.fromString(key);
    }
    return { cursor: { firstBatch: first, id, ns }, ok: 1 };
  }

  dropCursors(ns: string): void {
    for (const [id, c] of this.cursors) if (c.ns === ns) this.cursors.delete(id);
  }

  private sweepCursors(): void {
    const limit = Date.now() - CURSOR_IDLE_MS;
    for (const [id, c] of this.cursors) if (c.touched < limit) this.cursors.delete(id);
  }
}
