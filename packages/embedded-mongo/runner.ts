/**
 * The command runner's state and dispatch: the catalogue, cursors, server parameters and the profiler, and how a
 * command reaches its handler (commands/*.ts) — names and aliases, the start-up load it waits for, field checks.
 * The reads (reads.ts), writes (writes.ts) and explain (explain.ts) the handlers share are reached through it.
 * Each command runs against the catalogue without interleaving with another; the caller then waits for the
 * journal before replying.
 */
import { Long } from "bson";
import { rejectCollation } from "./args";
import { MongoCommandError, toCommandError } from "./errors";
import { explain } from "./explain";
import type { Vars } from "./expressions";
import { CURSOR_IDLE_MS } from "./limits";
import { Profiler, type ProfileState, type ReadOutcome } from "./profiler";
import { readAggregate, readCount, readDistinct, readFind } from "./reads";
import { type Cursor, type ServerInfo, takeBatch } from "./replies";
import type { ServerParams } from "./stages/stage";
import type { Catalog } from "./storage/catalog";
import type { Collection } from "./storage/collection";
import { checkCommandFields } from "./strict";
import { type Doc, isPlainObject } from "./values";
import { applyUpdate, removeMany, type TargetOptions, type UpdateOutcome, writeTargets } from "./writes";

/** The aliases mongod registers next to a command's name (`Command(name, oldName)`); no other spelling works. */
export const COMMAND_ALIASES: Record<string, string> = {
  ismaster: "isMaster",
  buildinfo: "buildInfo",
  findandmodify: "findAndModify",
};

/** Commands that touch no collection, or only through a cursor already open: they never wait for a load. */
export const CATALOG_FREE = new Set([
  "hello",
  "isMaster",
  "ismaster",
  "ping",
  "buildInfo",
  "buildinfo",
  "endSessions",
  "whatsmyuri",
  "connectionStatus",
  "getCmdLineOpts",
  "getLog",
  "hostInfo",
  "getParameter",
  "setParameter",
  "profile",
  "serverStatus",
  "getMore",
  "killCursors",
  "commitTransaction",
  "abortTransaction",
]);

/** The collections a command reads or writes (its own and any pipeline's `from`), for the start-up load. */
export function namespacesOf(cmd: Doc, db: string): string[] | "all" {
  const name = Object.keys(cmd)[0] ?? "";
  if (CATALOG_FREE.has(name)) return [];
  if (name === "explain" && isPlainObject(cmd.explain))
    return namespacesOf(cmd.explain, typeof cmd.explain.$db === "string" ? cmd.explain.$db : db);
  const coll = cmd[name];
  if (typeof coll !== "string" || name === "listCollections" || name === "listDatabases" || name === "dropDatabase") {
    return coll === 1 && name === "aggregate" ? [] : "all";
  }
  const out = [`${db}.${coll}`];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isPlainObject(value)) return;
    for (const [k, v] of Object.entries(value)) {
      if (
        (k === "$lookup" || k === "$graphLookup" || k === "$unionWith") &&
        isPlainObject(v) &&
        typeof v.from === "string"
      )
        out.push(`${db}.${v.from}`);
      if (k === "$unionWith" && typeof v === "string") out.push(`${db}.${v}`);
      if (k === "$out" || k === "$merge") {
        // The collection a $merge or $out writes (into: a name or { db, coll }).
        const into = k === "$merge" && isPlainObject(v) ? v.into : v;
        if (typeof into === "string") out.push(`${db}.${into}`);
        else if (isPlainObject(into) && typeof into.coll === "string")
          out.push(`${typeof into.db === "string" ? into.db : db}.${into.coll}`);
      }
      visit(v);
    }
  };
  visit(cmd.pipeline);
  return out;
}

/** A command's handler: runs with the runner as `this`, and answers the reply document (or throws a MongoCommandError). */
export type CommandHandler = (this: CommandCore, cmd: Doc, db: string, info: ServerInfo) => Doc | Promise<Doc>;

export class CommandCore {
  readonly cursors = new Map<string, Cursor>();
  /** Server parameters settable with setParameter (notablescan as in mongod, plus its size threshold). */
  readonly params: ServerParams = { notablescan: false, notablescanMinDocuments: 0 };
  /** Profiling level per database and the profiled operations (db.setProfilingLevel / system.profile). */
  readonly profiler: Profiler;
  private nextCursor = BigInt(Date.now()) * 1000n;
  private readonly sweeper: NodeJS.Timeout;

  /**
   * Names are matched exactly, as mongod does (a Map, so `constructor` or `toString` are not commands).
   * The only other spellings are the lower-case aliases mongod registers itself.
   */
  private readonly handlerByName: Map<string, CommandHandler>;

  constructor(
    readonly catalog: Catalog,
    handlers: Record<string, CommandHandler>,
  ) {
    this.handlerByName = new Map<string, CommandHandler>([
      ...Object.entries(handlers),
      ...Object.entries(COMMAND_ALIASES).map(([alias, name]): [string, CommandHandler] => [alias, handlers[name]]),
    ]);
    this.profiler = new Profiler(catalog);
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
      if (failure.codeName === "NoQueryExecutionPlans") this.profiler.refused(db, name, cmd, failure);
      return failure.toReply();
    }
  }

  // -------------------------------------------------------------------------------------------
  // What the handlers share (reads.ts, explain.ts, writes.ts, profiler.ts)

  /** `explaining`: planned afresh, every candidate listed (no plan cache), as mongod's explain does. */
  readFind(cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
    return readFind(this, cmd, db, explaining);
  }

  readCount(cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
    return readCount(this, cmd, db, explaining);
  }

  readDistinct(cmd: Doc, db: string, explaining = false): Promise<ReadOutcome> {
    return readDistinct(this, cmd, db, explaining);
  }

  readAggregate(cmd: Doc, db: string, writable = false): Promise<ReadOutcome> {
    return readAggregate(this, cmd, db, writable);
  }

  explain(cmd: Doc, db: string): Promise<Doc> {
    return explain(this, cmd, db);
  }

  profileState(db: string): ProfileState {
    return this.profiler.state(db);
  }

  profileRead(db: string, op: string, ns: string, cmd: Doc, out: ReadOutcome): void {
    this.profiler.read(db, op, ns, cmd, out);
  }

  targets(db: string, coll: Collection, filter: Doc, opts: TargetOptions): Doc[] {
    return writeTargets(this, db, coll, filter, opts);
  }

  removeMany(
    db: string,
    coll: Collection,
    filter: Doc,
    hint: unknown,
    cmd: Doc,
    vars?: Vars,
  ): Promise<{ removed: number; error?: MongoCommandError }> {
    return removeMany(this, db, coll, filter, hint, cmd, vars);
  }

  applyUpdate(db: string, name: string, stmt: Doc, single: boolean, cmd: Doc): Promise<UpdateOutcome> {
    return applyUpdate(this, db, name, stmt, single, cmd);
  }

  // -------------------------------------------------------------------------------------------
  // Cursors

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
