/**
 * The profiler (db.setProfilingLevel / system.profile): per database a level (0 off, 1 slow operations, 2 all) and
 * its profiled operations.
 */
import type { MongoCommandError } from "./errors";
import type { ExecContext } from "./exec";
import { PROFILE_CAPACITY } from "./limits";
import { planSummary } from "./planner/explain";
import type { PlannedQuery } from "./planner/plan";
import type { ScanStats } from "./planner/scan";
import type { Catalog } from "./storage/catalog";
import type { Doc } from "./values";

/** One profiled operation, shaped like a document of MongoDB's system.profile. */
export type ProfileEntry = Doc;

export type ProfileState = { level: number; slowms: number; entries: ProfileEntry[] };

/** What a read command ran: for explain and the profiler. */
export type ReadOutcome = {
  docs: unknown[];
  plans: PlannedQuery[];
  stats: ScanStats;
  ctx: ExecContext;
  stages?: Doc[];
  countOnly?: boolean;
  nReturned?: number;
};

export class Profiler {
  private readonly byDb = new Map<string, ProfileState>();

  constructor(private readonly catalog: Catalog) {}

  state(db: string): ProfileState {
    let state = this.byDb.get(db);
    if (!state) this.byDb.set(db, (state = { level: 0, slowms: 100, entries: [] }));
    return state;
  }

  read(db: string, op: string, ns: string, cmd: Doc, out: ReadOutcome): void {
    const state = this.byDb.get(db);
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
  refused(db: string, commandName: string, cmd: Doc, failure: MongoCommandError): void {
    const state = this.byDb.get(db);
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
  write(db: string, op: string, ns: string, cmd: Doc, q: PlannedQuery, started: number, n: number): void {
    const state = this.byDb.get(db);
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
}
