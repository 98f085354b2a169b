/**
 * Command handlers. Each runs synchronously against the catalogue, so a
 * command never interleaves with another; the caller then waits for the
 * journal to make the command's changes durable before replying.
 */
import { BSON, Long } from "bson";
import { Query, updateMany as mingoUpdateMany } from "mingo";
import { MongoCommandError, toCommandError } from "./errors";
import { boundedDistinctPlan, distinctFromDocs, distinctIndex, distinctScan, drain, ExecContext, runCount, runFind } from "./exec";
import { textScores } from "./expressions";
import { compileFastUpdate, fastMatcher } from "./fastpath";
import { compileUpdatePipeline, runAggregate, type PipelineEnv, type ServerParams } from "./pipeline";
import { compareDocs, normaliseSort, openSource, PAUSE, planQuery, planStage, planSummary, withoutText, type IndexScanPlan, type PlannedQuery, type ScanStats, type SortSpec } from "./planner";
import { Collection, type Catalog, type Index, type IndexSpec, withIdFirst } from "./storage";
import { isTextSpec, normaliseTextIndexSpec } from "./text";
import { assertSupportedValues, cloneDeep, deepEqual, getPath, isPlainObject, keyOf, pathValues, type Doc } from "./values";

export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;
const DEFAULT_BATCH = 101;
const CURSOR_IDLE_MS = 10 * 60 * 1000;

type CommandHandler = (this: CommandRunner, cmd: Doc, db: string, info: ServerInfo) => Doc | Promise<Doc>;

/** The aliases mongod registers next to a command's name (`Command(name, oldName)`); no other spelling works. */
const COMMAND_ALIASES: Record<string, string> = { ismaster: "isMaster", buildinfo: "buildInfo", findandmodify: "findAndModify" };

type Cursor = { ns: string; docs: Doc[]; pos: number; touched: number };

/** One profiled operation, shaped like a document of MongoDB's system.profile. */
type ProfileEntry = Doc;
const PROFILE_CAPACITY = 10_000;

/** What a read command ran: for explain and the profiler. */
type ReadOutcome = { docs: unknown[]; plans: PlannedQuery[]; stats: ScanStats; ctx: ExecContext; stages?: Doc[]; countOnly?: boolean; nReturned?: number };

export type ServerInfo = { connectionId: number; startedAt: Date; port: number };

export class CommandRunner {
  private readonly cursors = new Map<string, Cursor>();
  /** Server parameters settable with setParameter (notablescan as in mongod, plus its size threshold). */
  readonly params: ServerParams = { notablescan: false, notablescanMinDocuments: 0 };
  /** Profiling level per database (0 off, 1 slow operations, 2 all) and the profiled operations. */
  private readonly profiling = new Map<string, { level: number; slowms: number; entries: ProfileEntry[] }>();
  private nextCursor = BigInt(Date.now()) * 1000n;
  private readonly sweeper: NodeJS.Timeout;

  constructor(readonly catalog: Catalog) {
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
      rejectCollation(cmd);
      if (this.catalog.loading) {
        const wait = this.catalog.waitFor(namespacesOf(cmd, db));
        if (wait) await wait;
      }
      if (this.catalog.loadError && !CATALOG_FREE.has(name)) throw new MongoCommandError("InternalError", this.catalog.loadError.message);
      return await handler.call(this, cmd, db, info);
    } catch (error) {
      const failure = toCommandError(error);
      if (failure.codeName === "NoQueryExecutionPlans") this.profileRefused(db, name, cmd, failure);
      return failure.toReply();
    }
  }

  private readonly handlers: Record<string, CommandHandler> = {
    hello: (cmd, _db, info) => helloReply(info, false),
    isMaster: (cmd, _db, info) => helloReply(info, true),
    ping: () => ({ ok: 1 }),
    buildInfo: () => buildInfo(),
    endSessions: () => ({ ok: 1 }),
    whatsmyuri: () => ({ you: "127.0.0.1:0", ok: 1 }),
    connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
    getCmdLineOpts: () => ({ argv: ["embedded-mongo"], parsed: {}, ok: 1 }),
    getLog: (cmd) => (cmd.getLog === "*" ? { names: ["startupWarnings"], ok: 1 } : { totalLinesWritten: 0, log: [], ok: 1 }),
    hostInfo: () => ({ system: { hostname: "127.0.0.1", currentTime: new Date() }, os: { type: process.platform }, extra: {}, ok: 1 }),
    getParameter(cmd) {
      const out: Doc = {};
      const all = cmd.getParameter === "*" || (isPlainObject(cmd.getParameter) && cmd.getParameter.allParameters === true);
      if (all || cmd.featureCompatibilityVersion !== undefined) out.featureCompatibilityVersion = { version: "7.0" };
      for (const name of Object.keys(this.params) as (keyof ServerParams)[]) {
        if (all || cmd[name] !== undefined) out[name] = this.params[name];
      }
      return { ...out, ok: 1 };
    },
    setParameter(cmd, db) {
      if (db !== "admin") throw new MongoCommandError("Unauthorized", "setParameter may only be run against the admin database.");
      const was: Doc = {};
      for (const [name, value] of Object.entries(cmd)) {
        if (name === "setParameter" || name.startsWith("$") || name === "lsid" || name === "comment") continue;
        if (name === "notablescan") {
          if (typeof value !== "boolean" && typeof value !== "number") throw new MongoCommandError("BadValue", "notablescan must be a boolean");
          was.was = this.params.notablescan;
          this.params.notablescan = Boolean(value);
        } else if (name === "notablescanMinDocuments") {
          if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
            throw new MongoCommandError("BadValue", "notablescanMinDocuments must be a non-negative integer");
          }
          was.was = this.params.notablescanMinDocuments;
          this.params.notablescanMinDocuments = value;
        } else {
          throw new MongoCommandError("InvalidOptions", `attempted to set unrecognized parameter [${name}], use help:true to see options `);
        }
      }
      return { ...was, ok: 1 };
    },
    profile(cmd, db) {
      const state = this.profileState(db);
      const was = state.level;
      const level = Number(cmd.profile);
      if (![-1, 0, 1, 2].includes(level)) throw new MongoCommandError("BadValue", "profile level must be -1, 0, 1 or 2");
      if (level >= 0) state.level = level;
      if (typeof cmd.slowms === "number") state.slowms = cmd.slowms;
      return { was, slowms: state.slowms, sampleRate: 1, ok: 1 };
    },
    explain(cmd, db) {
      return this.explain(cmd, db);
    },
    serverStatus(_cmd, _db, info) {
      return {
        host: "127.0.0.1",
        version: "7.0.0",
        process: "embedded-mongo",
        pid: Long.fromNumber(process.pid),
        uptime: (Date.now() - info.startedAt.getTime()) / 1000,
        localTime: new Date(),
        // mongod's section names; `embedded.loading` is this server's own: true while a data directory still loads.
        mem: { bits: 64, resident: Math.round(process.memoryUsage.rss() / 1048576) },
        embedded: { loading: this.catalog.loading },
        ok: 1,
      };
    },
    commitTransaction: () => {
      throw new MongoCommandError("IllegalOperation", "Transactions are not supported by the embedded server (standalone)");
    },
    abortTransaction: () => {
      throw new MongoCommandError("IllegalOperation", "Transactions are not supported by the embedded server (standalone)");
    },
    listDatabases(cmd) {
      const databases = [...this.catalog.dbs.entries()].map(([name, colls]) => {
        let size = 0;
        if (cmd.nameOnly !== true) for (const c of colls.values()) for (const d of c.docs.values()) size += BSON.calculateObjectSize(d);
        return { name, sizeOnDisk: size, empty: colls.size === 0 };
      });
      let list: Doc[] = databases;
      if (isPlainObject(cmd.filter)) list = new Query(cmd.filter).find(list).all() as Doc[];
      if (cmd.nameOnly === true) return { databases: list.map((d) => ({ name: d.name })), ok: 1 };
      const totalSize = databases.reduce((s, d) => s + d.sizeOnDisk, 0);
      return { databases: list, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
    },
    listCollections(cmd, db) {
      const colls = [...(this.catalog.dbs.get(db)?.values() ?? [])];
      let infos: Doc[] = colls.map((c) => ({
        name: c.name,
        type: "collection",
        options: c.options,
        info: { readOnly: false, uuid: c.uuid },
        idIndex: { v: 2, key: { _id: 1 }, name: "_id_" },
      }));
      if (isPlainObject(cmd.filter)) infos = new Query(cmd.filter).find(infos).all() as Doc[];
      if (cmd.nameOnly === true) infos = infos.map((i) => ({ name: i.name, type: i.type }));
      return this.cursorReply(`${db}.$cmd.listCollections`, infos, batchSizeOf(cmd.cursor), false);
    },
    create(cmd, db) {
      const name = collectionName(cmd);
      if (this.catalog.getCollection(db, name)) {
        throw new MongoCommandError("NamespaceExists", `Collection ${db}.${name} already exists.`);
      }
      const options: Doc = {};
      for (const [k, v] of Object.entries(cmd)) {
        if (k === "create" || k.startsWith("$") || k === "lsid" || k === "txnNumber" || k === "writeConcern") continue;
        if (k === "capped" || k === "viewOn" || k === "pipeline" || k === "timeseries" || k === "clusteredIndex") {
          throw new MongoCommandError("InvalidOptions", `The embedded server does not support the collection option '${k}'`);
        }
        options[k] = v;
      }
      this.catalog.createCollection(db, name, options);
      return { ok: 1 };
    },
    drop(cmd, db) {
      const name = collectionName(cmd);
      if (name === "system.profile") {
        this.profileState(db).entries.length = 0;
        return { ns: `${db}.${name}`, ok: 1 };
      }
      const dropped = this.catalog.dropCollection(db, name);
      this.dropCursors(`${db}.${name}`);
      return dropped ? { nIndexesWas: dropped.indexes.size + 1, ns: dropped.ns, ok: 1 } : { ok: 1 };
    },
    dropDatabase(_cmd, db) {
      this.catalog.dropDatabase(db);
      for (const [id, c] of this.cursors) if (c.ns.startsWith(`${db}.`)) this.cursors.delete(id);
      return { dropped: db, ok: 1 };
    },
    createIndexes(cmd, db) {
      const name = collectionName(cmd);
      if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0) {
        throw new MongoCommandError("BadValue", "Must specify at least one index to create");
      }
      const specs = cmd.indexes.map((raw) => normaliseIndexSpec(raw));
      const existed = this.catalog.getCollection(db, name);
      const coll = existed ?? this.catalog.createCollection(db, name);
      const before = coll.indexes.size + 1;
      let created = 0;
      for (const spec of specs) {
        if (sameKey(spec.key, { _id: 1 })) continue;
        const sameName = coll.indexes.get(spec.name);
        if (sameName) {
          if (sameKey(sameName.spec.key, spec.key) && sameOptions(sameName.spec, spec)) continue;
          if (sameKey(sameName.spec.key, spec.key)) {
            throw new MongoCommandError(
              "IndexOptionsConflict",
              `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
            );
          }
          throw new MongoCommandError(
            "IndexKeySpecsConflict",
            `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
          );
        }
        const sameKeyIndex = [...coll.indexes.values()].find((i) => sameKey(i.spec.key, spec.key));
        if (sameKeyIndex) {
          if (sameOptions(sameKeyIndex.spec, spec)) continue;
          if (isTextSpec(spec)) {
            throw new MongoCommandError(
              "IndexOptionsConflict",
              `An equivalent index already exists with a different name and options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKeyIndex.spec)}; only one text index per collection allowed`,
            );
          }
          throw new MongoCommandError("IndexOptionsConflict", `Index already exists with a different name: ${sameKeyIndex.spec.name}`);
        }
        this.catalog.createIndex(coll, spec);
        created++;
      }
      const reply: Doc = { numIndexesBefore: before, numIndexesAfter: coll.indexes.size + 1, createdCollectionAutomatically: !existed, ok: 1 };
      if (created === 0) reply.note = "all indexes already exist";
      return reply;
    },
    listIndexes(cmd, db) {
      const name = collectionName(cmd);
      const coll = this.catalog.getCollection(db, name);
      if (!coll) throw new MongoCommandError("NamespaceNotFound", `ns does not exist: ${db}.${name}`);
      return this.cursorReply(coll.ns, coll.indexSpecs() as unknown as Doc[], batchSizeOf(cmd.cursor), false);
    },
    dropIndexes(cmd, db) {
      const name = collectionName(cmd);
      const coll = this.catalog.getCollection(db, name);
      if (!coll) throw new MongoCommandError("NamespaceNotFound", `ns not found ${db}.${name}`);
      const was = coll.indexes.size + 1;
      const target = cmd.index;
      const names: string[] = [];
      if (target === "*") names.push(...coll.indexes.keys());
      else if (typeof target === "string") names.push(target);
      else if (Array.isArray(target)) names.push(...target.map(String));
      else if (isPlainObject(target)) {
        const found = [...coll.indexes.values()].find((i) => sameKey(i.spec.key, target));
        if (!found) throw new MongoCommandError("IndexNotFound", `can't find index with key: ${JSON.stringify(target)}`);
        names.push(found.spec.name);
      } else throw new MongoCommandError("BadValue", "dropIndexes needs 'index': a name, an array of names, a key pattern or '*'");
      for (const n of names) {
        if (n === "_id_") throw new MongoCommandError("InvalidOptions", "cannot drop _id index");
        if (!coll.indexes.has(n)) throw new MongoCommandError("IndexNotFound", `index not found with name [${n}]`);
      }
      for (const n of names) this.catalog.dropIndex(coll, n);
      return { nIndexesWas: was, ok: 1 };
    },

    async find(cmd, db) {
      const name = collectionName(cmd);
      const ns = `${db}.${name}`;
      let limit = numberArg(cmd.limit, "limit");
      let singleBatch = cmd.singleBatch === true;
      if (limit < 0) {
        limit = -limit;
        singleBatch = true;
      }
      const out = await this.readFind(cmd, db);
      this.profileRead(db, "query", ns, cmd, out);
      return this.cursorReply(ns, out.docs as Doc[], numberArg(cmd.batchSize, "batchSize") || DEFAULT_BATCH, singleBatch);
    },
    getMore(cmd) {
      const id = cursorIdString(cmd.getMore);
      const cursor = this.cursors.get(id);
      if (!cursor) throw new MongoCommandError("CursorNotFound", `cursor id ${id} not found`);
      const size = numberArg(cmd.batchSize, "batchSize") || Infinity;
      const batch = takeBatch(cursor.docs, cursor.pos, size);
      cursor.pos += batch.length;
      cursor.touched = Date.now();
      const done = cursor.pos >= cursor.docs.length;
      if (done) this.cursors.delete(id);
      return { cursor: { nextBatch: batch, id: done ? Long.ZERO : Long.fromString(id), ns: cursor.ns }, ok: 1 };
    },
    killCursors(cmd) {
      const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
      const killed: Long[] = [];
      const notFound: Long[] = [];
      for (const raw of ids) {
        const id = cursorIdString(raw);
        (this.cursors.delete(id) ? killed : notFound).push(Long.fromString(id));
      }
      return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
    },
    async count(cmd, db) {
      const name = collectionName(cmd);
      const out = await this.readCount(cmd, db);
      this.profileRead(db, "command", `${db}.${name}`, cmd, out);
      return { n: out.nReturned ?? 0, ok: 1 };
    },
    async distinct(cmd, db) {
      const name = collectionName(cmd);
      if (typeof cmd.key !== "string" || cmd.key === "") throw new MongoCommandError("BadValue", "distinct needs a string 'key'");
      const out = await this.readDistinct(cmd, db);
      this.profileRead(db, "command", `${db}.${name}`, cmd, out);
      return { values: out.docs, ok: 1 };
    },
    async aggregate(cmd, db) {
      if (cmd.explain === true) return this.explain({ explain: { ...cmd, explain: undefined }, verbosity: "queryPlanner" }, db);
      if (!isPlainObject(cmd.cursor)) {
        throw new MongoCommandError("FailedToParse", "The 'cursor' option is required, except for aggregate with the explain argument");
      }
      const out = await this.readAggregate(cmd, db);
      const ns = cmd.aggregate === 1 ? `${db}.$cmd.aggregate` : `${db}.${collectionName(cmd)}`;
      this.profileRead(db, "command", ns, cmd, out);
      return this.cursorReply(ns, out.docs as Doc[], batchSizeOf(cmd.cursor), false);
    },

    insert(cmd, db) {
      const name = collectionName(cmd);
      const docs = arrayArg(cmd.documents, "documents");
      const ordered = cmd.ordered !== false;
      const writeErrors: Doc[] = [];
      let n = 0;
      let coll: Collection | undefined;
      for (let i = 0; i < docs.length; i++) {
        try {
          const raw = docs[i];
          if (!isPlainObject(raw)) throw new MongoCommandError("BadValue", "each document to insert must be an object");
          assertSupportedValues(raw, "document");
          const doc = withIdFirst(raw);
          validateId(doc._id);
          coll ??= this.catalog.ensureCollection(db, name);
          this.catalog.insert(coll, doc);
          n++;
        } catch (error) {
          writeErrors.push(toCommandError(error).toWriteError(i));
          if (ordered) break;
        }
      }
      return writeReply({ n }, writeErrors);
    },
    async update(cmd, db) {
      const name = collectionName(cmd);
      const statements = arrayArg(cmd.updates, "updates");
      const ordered = cmd.ordered !== false;
      const writeErrors: Doc[] = [];
      const upserted: Doc[] = [];
      let n = 0;
      let nModified = 0;
      for (let i = 0; i < statements.length; i++) {
        const stmt = statements[i];
        try {
          if (!isPlainObject(stmt)) throw new MongoCommandError("BadValue", "each update statement must be an object");
          const r = await this.applyUpdate(db, name, stmt, false, cmd);
          n += r.matched;
          nModified += r.modified;
          if (r.upsertedId !== undefined) {
            n += 1;
            upserted.push({ index: i, _id: r.upsertedId });
          }
          if (r.error) throw r.error;
        } catch (error) {
          writeErrors.push(toCommandError(error).toWriteError(i));
          if (ordered) break;
        }
      }
      const reply: Doc = { n, nModified };
      if (upserted.length) reply.upserted = upserted;
      return writeReply(reply, writeErrors);
    },
    async delete(cmd, db) {
      const name = collectionName(cmd);
      const statements = arrayArg(cmd.deletes, "deletes");
      const ordered = cmd.ordered !== false;
      const writeErrors: Doc[] = [];
      let n = 0;
      for (let i = 0; i < statements.length; i++) {
        const stmt = statements[i];
        try {
          if (!isPlainObject(stmt)) throw new MongoCommandError("BadValue", "each delete statement must be an object");
          const filter = docArg(stmt.q, "q");
          if (stmt.limit !== 0 && stmt.limit !== 1) throw new MongoCommandError("BadValue", "The limit field in delete objects must be 0 or 1");
          // Looked up per statement: an earlier statement's yields may have let a drop or a create in.
          const coll = this.catalog.getCollection(db, name);
          if (!coll) continue;
          if (stmt.limit === 1) {
            const matched = this.targets(db, coll, filter, { limit: 1, hint: stmt.hint, cmd, op: "remove" });
            for (const doc of matched) this.catalog.remove(coll, doc);
            n += matched.length;
            continue;
          }
          const r = await this.removeMany(db, coll, filter, stmt.hint, cmd);
          n += r.removed;
          if (r.error) throw r.error;
        } catch (error) {
          writeErrors.push(toCommandError(error).toWriteError(i));
          if (ordered) break;
        }
      }
      return writeReply({ n }, writeErrors);
    },
    async findAndModify(cmd, db) {
      const name = collectionName(cmd);
      const filter = docArg(cmd.query, "query");
      const remove = cmd.remove === true;
      if (remove && cmd.update !== undefined) throw new MongoCommandError("FailedToParse", "Cannot specify both an update and remove=true");
      if (!remove && cmd.update === undefined) throw new MongoCommandError("FailedToParse", "Either an update or remove=true must be specified");
      if (remove && cmd.upsert === true) throw new MongoCommandError("FailedToParse", "Cannot specify both upsert=true and remove=true");
      const fields = cmd.fields === undefined ? undefined : docArg(cmd.fields, "fields");
      const project = (doc: Doc | null | undefined): Doc | null => {
        if (!doc) return null;
        if (!fields || Object.keys(fields).length === 0) return doc;
        return new Query({}).find([doc], fields).all()[0] as Doc;
      };
      const coll = this.catalog.getCollection(db, name);
      if (remove) {
        const target = coll ? this.targets(db, coll, filter, { sort: cmd.sort as Doc | undefined, limit: 1, hint: cmd.hint, cmd, op: "findAndModify" })[0] : undefined;
        if (!target || !coll) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
        this.catalog.remove(coll, target);
        return { lastErrorObject: { n: 1 }, value: project(target), ok: 1 };
      }
      const r = await this.applyUpdate(db, name, { q: filter, u: cmd.update, upsert: cmd.upsert === true, multi: false, arrayFilters: cmd.arrayFilters, sort: cmd.sort, hint: cmd.hint }, true, cmd);
      if (r.error) throw r.error;
      const returnNew = cmd.new === true;
      if (r.upsertedId !== undefined) {
        return { lastErrorObject: { n: 1, updatedExisting: false, upserted: r.upsertedId }, value: returnNew ? project(r.after) : null, ok: 1 };
      }
      if (r.matched === 0) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
      return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? r.after : r.before), ok: 1 };
    },
  };

  /**
   * Names are matched exactly, as mongod does (a Map, so `constructor` or `toString` are not commands).
   * The only other spellings are the lower-case aliases mongod registers itself.
   */
  private readonly handlerByName = new Map<string, CommandHandler>([
    ...Object.entries(this.handlers),
    ...Object.entries(COMMAND_ALIASES).map(([alias, name]): [string, CommandHandler] => [alias, this.handlers[name]]),
  ]);

  // -------------------------------------------------------------------------------------------
  // Reads: planned, yielding, time-limited; explained and profiled the same way

  private env(db: string, ctx: ExecContext): PipelineEnv {
    return { catalog: this.catalog, db, ctx, compile: compileFilter, params: this.params, stats: { keysExamined: 0, docsExamined: 0 }, plans: [] };
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

  private async readFind(cmd: Doc, db: string): Promise<ReadOutcome> {
    const name = collectionName(cmd);
    const filter = docArg(cmd.filter, "filter");
    const coll = this.readable(db, name);
    const sort = cmd.sort === undefined ? undefined : normaliseSort(docArg(cmd.sort, "sort"));
    const projection = cmd.projection === undefined ? undefined : docArg(cmd.projection, "projection");
    const skip = numberArg(cmd.skip, "skip");
    const limit = Math.abs(numberArg(cmd.limit, "limit"));
    if (skip < 0) throw new MongoCommandError("BadValue", "skip value must be non-negative");
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const env = this.env(db, ctx);
    const q = planQuery(coll, `${db}.${name}`, filter, compileFilter(withoutText(filter)), {
      sort,
      wanted: limit > 0 ? skip + limit : 0,
      hint: cmd.hint,
      notablescan: name === "system.profile" ? undefined : this.notablescan(),
    });
    const page = await runFind(ctx, coll, q, { skip, limit, compile: compileFilter }, env.stats);
    const docs = projection && Object.keys(projection).length > 0 ? project(page, projection) : page;
    return { docs, plans: [q], stats: env.stats, ctx, nReturned: docs.length };
  }

  private async readCount(cmd: Doc, db: string): Promise<ReadOutcome> {
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
      const q = planQuery(coll, `${db}.${name}`, filter, compileFilter(withoutText(filter)), { hint: cmd.hint, forCount: true, notablescan: this.notablescan() });
      plans = [q];
      n = await runCount(ctx, coll, q, env.stats, compileFilter);
    }
    n = Math.max(0, n - skip);
    if (limit > 0) n = Math.min(n, limit);
    return { docs: [], plans, stats: env.stats, ctx, nReturned: n, countOnly: true };
  }

  private async readDistinct(cmd: Doc, db: string): Promise<ReadOutcome> {
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
      return { docs: values, plans: [q], stats: env.stats, ctx, nReturned: values.length, stages: [{ stage: "PROJECTION_COVERED", transformBy: { _id: 0, [key]: 1 }, inputStage: stage }] };
    };
    const index = Object.keys(filter).length === 0 ? distinctIndex(coll, key) : undefined;
    if (index) {
      const q: PlannedQuery = {
        ns: coll.ns,
        filter,
        matcher: () => true,
        plan: { kind: "ixscan", index, fieldIntervals: [], direction: 1, ranges: [], exact: true, providesSort: false, mergeSort: false, boundedFields: 0, keys: 0 },
        rejected: [],
        collectionSize: coll.docs.size,
      };
      return scanned(q, index);
    }
    const q = planQuery(coll, coll.ns, filter, compileFilter(withoutText(filter)), { hint: cmd.hint, notablescan: this.notablescan() });
    const bounded = boundedDistinctPlan(q.plan, key);
    if (bounded) return scanned(q, bounded.index, bounded);
    const values = await distinctFromDocs(ctx, openSource(coll, q, env.stats, compileFilter), key);
    return { docs: values, plans: [q], stats: env.stats, ctx, nReturned: values.length };
  }

  private async readAggregate(cmd: Doc, db: string): Promise<ReadOutcome> {
    if (!Array.isArray(cmd.pipeline)) throw new MongoCommandError("TypeMismatch", "'pipeline' option must be specified as an array");
    const pipeline = cmd.pipeline as Doc[];
    assertSupportedValues(pipeline, "pipeline");
    for (const stage of pipeline) {
      const op = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (op === "$out" || op === "$merge") {
        throw new MongoCommandError("IllegalOperation", `${op} is not supported by the embedded server; read the results and write them with insert/update`);
      }
    }
    const collName = cmd.aggregate === 1 ? undefined : collectionName(cmd);
    const ns = collName ? `${db}.${collName}` : `${db}.$cmd.aggregate`;
    const coll = collName ? this.readable(db, collName) : undefined;
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const env = this.env(db, ctx);
    if (collName === "system.profile") env.params = { ...env.params, notablescan: false };
    const result = await runAggregate(env, coll, ns, pipeline, cmd.hint);
    return { docs: result.docs, plans: [result.query], stats: env.stats, ctx, stages: result.rest, countOnly: result.countOnly, nReturned: result.docs.length };
  }

  /** The explain command, in the shape mongod gives (queryPlanner, executionStats, serverInfo). */
  private async explain(cmd: Doc, db: string): Promise<Doc> {
    const inner = cmd.explain;
    if (!isPlainObject(inner)) throw new MongoCommandError("BadValue", "explain command requires a nested object");
    const verbosity = typeof cmd.verbosity === "string" ? cmd.verbosity : "allPlansExecution";
    if (!["queryPlanner", "executionStats", "allPlansExecution"].includes(verbosity)) {
      throw new MongoCommandError("FailedToParse", `verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}`);
    }
    const name = Object.keys(inner)[0];
    const innerDb = typeof inner.$db === "string" ? inner.$db : db;
    const withStats = verbosity !== "queryPlanner";
    let out: ReadOutcome;
    let wrap: (stage: Doc) => Doc = (stage) => stage;
    switch (name) {
      case "find": {
        out = await this.readFind({ ...inner, batchSize: undefined }, innerDb);
        const skip = numberArg(inner.skip, "skip");
        const limit = Math.abs(numberArg(inner.limit, "limit"));
        const q = out.plans[0];
        wrap = (stage) => {
          let s = stage;
          if (q.blockingSort) {
            s = { stage: "SORT", sortPattern: docArg(inner.sort, "sort"), memLimit: 104857600, ...(limit > 0 ? { limitAmount: skip + limit } : {}), type: "simple", inputStage: s };
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
        out = await this.readCount(inner, innerDb);
        wrap = (stage) => ({ stage: "COUNT", inputStage: stage });
        break;
      case "distinct":
        if (typeof inner.key !== "string" || inner.key === "") throw new MongoCommandError("BadValue", "distinct needs a string 'key'");
        out = await this.readDistinct(inner, innerDb);
        break;
      case "aggregate":
        out = await this.readAggregate(inner, innerDb);
        break;
      case "update":
      case "delete":
      case "findAndModify":
      case "findandmodify": {
        const coll = this.catalog.getCollection(innerDb, collectionName(inner));
        const stmt = name === "update" ? (Array.isArray(inner.updates) ? inner.updates[0] : undefined) : name === "delete" ? (Array.isArray(inner.deletes) ? inner.deletes[0] : undefined) : inner;
        const filter = docArg(isPlainObject(stmt) ? (name === "findAndModify" || name === "findandmodify" ? stmt.query : stmt.q) : undefined, "filter");
        const sort = isPlainObject(stmt) && stmt.sort !== undefined ? normaliseSort(docArg(stmt.sort, "sort")) : undefined;
        const q = planQuery(coll, `${innerDb}.${collectionName(inner)}`, filter, compileFilter(filter), { sort, hint: isPlainObject(stmt) ? stmt.hint : undefined, notablescan: this.notablescan() });
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
    const winningPlan = out.stages && name === "distinct" ? out.stages[0] : q ? wrap(planStage(q.plan, q, forCount)) : wrap({ stage: "COUNT" });
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
      executionStages: { ...winningPlan, nReturned: out.nReturned ?? out.docs.length, executionTimeMillisEstimate: Math.round(out.ctx.elapsedMs) },
    };
    if (verbosity === "allPlansExecution") executionStats.allPlansExecution = [];
    const serverInfo = { host: "127.0.0.1", port: 0, version: "7.0.0", gitVersion: "embedded-mongo" };
    const base: Doc = { explainVersion: "1" };
    const restStages = name === "aggregate" ? (out.stages ?? []) : [];
    if (name === "aggregate" && (restStages.length > 0 || out.countOnly)) {
      const cursorStage: Doc = { queryPlanner };
      if (withStats) cursorStage.executionStats = executionStats;
      base.stages = [{ $cursor: cursorStage, nReturned: out.nReturned ?? out.docs.length }, ...restStages.map((s) => ({ ...s }))];
    } else {
      base.queryPlanner = queryPlanner;
      if (withStats) base.executionStats = executionStats;
    }
    return { ...base, command: inner, serverInfo, serverParameters: { notablescan: this.params.notablescan }, ok: 1 };
  }

  // -------------------------------------------------------------------------------------------
  // Profiler (db.setProfilingLevel / system.profile)

  private profileState(db: string) {
    let state = this.profiling.get(db);
    if (!state) this.profiling.set(db, (state = { level: 0, slowms: 100, entries: [] }));
    return state;
  }

  private profileRead(db: string, op: string, ns: string, cmd: Doc, out: ReadOutcome): void {
    const state = this.profiling.get(db);
    if (!state || state.level === 0 || ns.endsWith(".system.profile")) return;
    const millis = Math.round(out.ctx.elapsedMs);
    if (state.level === 1 && millis < state.slowms) return;
    const q = out.plans[0];
    const command: Doc = {};
    for (const [k, v] of Object.entries(cmd)) if (!["lsid", "$clusterTime", "$readPreference", "$db"].includes(k)) command[k] = v;
    const entry: ProfileEntry = {
      _id: state.entries.length === 0 ? 1 : (state.entries[state.entries.length - 1]._id as number) + 1,
      op,
      ns,
      command,
      keysExamined: out.stats.keysExamined,
      docsExamined: out.stats.docsExamined,
      nreturned: out.nReturned ?? out.docs.length,
      planSummary: out.stages && out.stages[0]?.stage === "PROJECTION_COVERED" ? `DISTINCT_SCAN ${JSON.stringify((out.stages[0].inputStage as Doc).keyPattern)}` : q ? planSummary(q.plan, out.countOnly) : "COUNT",
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
    for (const [k, v] of Object.entries(cmd)) if (!["lsid", "$clusterTime", "$readPreference", "$db", "documents"].includes(k)) command[k] = v;
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
  private profileWrite(db: string, op: string, ns: string, cmd: Doc, q: PlannedQuery, started: number, n: number): void {
    const state = this.profiling.get(db);
    if (!state || state.level === 0) return;
    const millis = Math.round(performance.now() - started);
    if (state.level === 1 && millis < state.slowms) return;
    const command: Doc = {};
    for (const [k, v] of Object.entries(cmd)) if (!["lsid", "$clusterTime", "$readPreference", "$db", "updates", "deletes", "documents"].includes(k)) command[k] = v;
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
  private targets(db: string, coll: Collection, filter: Doc, opts: { sort?: Doc; limit?: number; hint?: unknown; cmd: Doc; op: string }): Doc[] {
    const started = performance.now();
    const sort = opts.sort !== undefined && isPlainObject(opts.sort) && Object.keys(opts.sort).length > 0 ? normaliseSort(opts.sort) : undefined;
    const q = planQuery(coll, coll.ns, filter, compileFilter(filter), { sort, wanted: opts.limit ?? 0, hint: opts.hint, notablescan: this.notablescan() });
    const stats = { keysExamined: 0, docsExamined: 0 };
    const source = openSource(coll, q, stats, compileFilter);
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
  private async targetsYielding(db: string, coll: Collection, filter: Doc, opts: { hint?: unknown; cmd: Doc; op: string }, ctx: ExecContext): Promise<Doc[]> {
    const started = performance.now();
    const q = planQuery(coll, coll.ns, filter, compileFilter(filter), { wanted: 0, hint: opts.hint, notablescan: this.notablescan() });
    const stats = { keysExamined: 0, docsExamined: 0 };
    const source = openSource(coll, q, stats, compileFilter);
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
      throw new MongoCommandError("InternalError", sink?.lastFailure?.message ?? "the embedded server could not make the write durable; the write was not fully applied");
    }
  }

  /** deleteMany: removes in slices, yielding between them. */
  private async removeMany(db: string, coll: Collection, filter: Doc, hint: unknown, cmd: Doc): Promise<{ removed: number; error?: MongoCommandError }> {
    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const failuresBefore = this.catalog.sink?.failures;
    const targets = await this.targetsYielding(db, coll, filter, { hint, cmd, op: "remove" }, ctx);
    const matches = compileFilter(filter);
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
  private async applyUpdate(
    db: string,
    name: string,
    stmt: Doc,
    single: boolean,
    cmd: Doc,
  ): Promise<{ matched: number; modified: number; upsertedId?: unknown; before?: Doc; after?: Doc; error?: MongoCommandError }> {
    const filter = docArg(stmt.q, "q");
    const update = stmt.u;
    const multi = stmt.multi === true && !single;
    const upsert = stmt.upsert === true;
    const arrayFilters = stmt.arrayFilters === undefined ? undefined : (arrayArg(stmt.arrayFilters, "arrayFilters") as Doc[]);
    const kind = classifyUpdate(update, multi);
    assertSupportedValues(update, "update");
    if (arrayFilters) assertSupportedValues(arrayFilters, "arrayFilters");

    const ctx = new ExecContext(numberArg(cmd.maxTimeMS, "maxTimeMS"));
    const failuresBefore = this.catalog.sink?.failures;
    const coll = this.catalog.getCollection(db, name);
    let targets: Doc[] = [];
    if (coll) {
      targets = multi
        ? await this.targetsYielding(db, coll, filter, { hint: stmt.hint, cmd, op: "update" }, ctx)
        : this.targets(db, coll, filter, { sort: stmt.sort as Doc | undefined, limit: 1, hint: stmt.hint, cmd, op: single ? "findAndModify" : "update" });
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
        const arr = [base];
        runUpdate(arr, {}, update as Doc[], undefined);
        doc = arr[0];
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

    const compute = updateComputer(kind, update, filter, arrayFilters);
    const matches = multi ? compileFilter(filter) : () => true;
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

  private cursorReply(ns: string, docs: Doc[], batchSize: number, singleBatch: boolean): Doc {
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

  private dropCursors(ns: string): void {
    for (const [id, c] of this.cursors) if (c.ns === ns) this.cursors.delete(id);
  }

  private sweepCursors(): void {
    const limit = Date.now() - CURSOR_IDLE_MS;
    for (const [id, c] of this.cursors) if (c.touched < limit) this.cursors.delete(id);
  }
}

/** Commands that touch no collection, or only through a cursor already open: they never wait for a load. */
const CATALOG_FREE = new Set([
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
function namespacesOf(cmd: Doc, db: string): string[] | "all" {
  const name = Object.keys(cmd)[0] ?? "";
  if (CATALOG_FREE.has(name)) return [];
  if (name === "explain" && isPlainObject(cmd.explain)) return namespacesOf(cmd.explain, typeof cmd.explain.$db === "string" ? cmd.explain.$db : db);
  const coll = cmd[name];
  if (typeof coll !== "string" || name === "listCollections" || name === "listDatabases" || name === "dropDatabase") {
    return coll === 1 && name === "aggregate" ? [] : "all";
  }
  const out = [`${db}.${coll}`];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isPlainObject(value)) return;
    for (const [k, v] of Object.entries(value)) {
      if ((k === "$lookup" || k === "$graphLookup" || k === "$unionWith") && isPlainObject(v) && typeof v.from === "string") out.push(`${db}.${v.from}`);
      if (k === "$unionWith" && typeof v === "string") out.push(`${db}.${v}`);
      visit(v);
    }
  };
  visit(cmd.pipeline);
  return out;
}

/**
 * Indexes, the fast paths and sorting compare strings by code point; a
 * collation would silently give different answers, so it is refused.
 */
function rejectCollation(cmd: Doc): void {
  const check = (c: unknown) => {
    if (c === undefined || c === null) return;
    if (isPlainObject(c) && c.locale === "simple") return;
    throw new MongoCommandError("BadValue", "collation is not supported by the embedded server (only { locale: 'simple' }); compare normalised fields instead");
  };
  check(cmd.collation);
  for (const key of ["updates", "deletes", "indexes"]) {
    const list = cmd[key];
    if (Array.isArray(list)) for (const item of list) if (isPlainObject(item)) check(item.collation);
  }
}

function helloReply(info: ServerInfo, legacy: boolean): Doc {
  const reply: Doc = {
    helloOk: true,
    isWritablePrimary: true,
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: info.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
  if (legacy) reply.ismaster = true;
  return reply;
}

function buildInfo(): Doc {
  return {
    version: "7.0.0",
    gitVersion: "embedded-mongo",
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_SIZE,
    storageEngines: ["embedded"],
    modules: [],
    javascriptEngine: "none",
    ok: 1,
  };
}

function writeReply(reply: Doc, writeErrors: Doc[]): Doc {
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
}

function immutableId(id: unknown): MongoCommandError {
  return new MongoCommandError(
    "ImmutableField",
    `Performing an update on the path '_id' would modify the immutable field '_id' (document _id ${keyOf(id).slice(1)})`,
  );
}

function validateId(id: unknown): void {
  if (Array.isArray(id)) throw new MongoCommandError("BadValue", "can't use an array for _id");
  if (id instanceof RegExp) throw new MongoCommandError("BadValue", "can't use a regex for _id");
  if (id === undefined) throw new MongoCommandError("BadValue", "_id is missing");
}

/** The collection a command names in its first field, whichever spelling of the command was used. */
function collectionName(cmd: Doc): string {
  const name = cmd[Object.keys(cmd)[0]];
  if (typeof name !== "string" || name === "") {
    throw new MongoCommandError("InvalidNamespace", `collection name has invalid type ${name === null ? "null" : typeof name}`);
  }
  return name;
}

function docArg(value: unknown, what: string): Doc {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected an object`);
  assertSupportedValues(value, what);
  return value;
}

function arrayArg(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected an array`);
  return value;
}

function numberArg(value: unknown, what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (Long.isLong(value)) return value.toNumber();
  throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected a number`);
}

function batchSizeOf(cursor: unknown): number {
  if (isPlainObject(cursor) && cursor.batchSize !== undefined) {
    const n = numberArg(cursor.batchSize, "cursor.batchSize");
    return n > 0 ? n : n === 0 ? 0 : DEFAULT_BATCH;
  }
  return DEFAULT_BATCH;
}

function cursorIdString(value: unknown): string {
  if (Long.isLong(value)) return value.toString();
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  throw new MongoCommandError("TypeMismatch", "cursor id must be a 64-bit integer");
}

/** Up to `size` documents from `pos`, never more than 16 MB of BSON (but always one). */
function takeBatch(docs: Doc[], pos: number, size: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  for (let i = pos; i < docs.length && out.length < size; i++) {
    bytes += BSON.calculateObjectSize(docs[i]);
    if (bytes > MAX_BSON_SIZE - 64 * 1024 && out.length > 0) break;
    out.push(docs[i]);
  }
  return out;
}

/**
 * mingo's query plus MongoDB's field-order-sensitive equality for embedded
 * documents ({ size: { h: 14, w: 21 } } does not match { w: 21, h: 14 }),
 * which mingo ignores, checked on top-level (and $and) conditions.
 */
export function compileFilter(filter: Doc): (doc: Doc) => boolean {
  const fast = fastMatcher(filter);
  if (fast) return fast;
  const query = compileQuery(filter);
  const exact: [string, Doc[]][] = [];
  const collect = (f: Doc) => {
    for (const [field, cond] of Object.entries(f)) {
      if (field === "$and" && Array.isArray(cond)) {
        for (const part of cond) if (isPlainObject(part)) collect(part);
        continue;
      }
      if (field.startsWith("$")) continue;
      if (isPlainObject(cond)) {
        const keys = Object.keys(cond);
        if (keys.length > 0 && !keys.some((k) => k.startsWith("$"))) exact.push([field, [cond]]);
        else if (keys.length === 1 && keys[0] === "$eq" && isPlainObject(cond.$eq)) exact.push([field, [cond.$eq]]);
        else if (keys.length === 1 && keys[0] === "$in" && Array.isArray(cond.$in) && cond.$in.length > 0 && cond.$in.every(isPlainObject)) {
          exact.push([field, cond.$in as Doc[]]);
        }
      }
    }
  };
  collect(filter);
  if (exact.length === 0) return (doc) => query.test(doc);
  return (doc) => {
    if (!query.test(doc)) return false;
    return exact.every(([field, wanted]) => {
      const present = [...pathValues(doc, field), getPath(doc, field)];
      return present.some((v) => wanted.some((w) => deepEqual(v, w)));
    });
  };
}

function compileQuery(filter: Doc): Query {
  try {
    return new Query(filter);
  } catch (error) {
    throw toCommandError(error);
  }
}

/**
 * The projection of top-level fields by 1/true (inclusion) or 0/false (exclusion), the shape every portal read uses:
 * applied directly, fields in the document's order as mongod returns them. Anything else (dotted paths, expressions,
 * $slice, $elemMatch, a mix mongod refuses) is left to mingo: undefined.
 */
function plainFieldProjection(projection: Doc): ((doc: Doc) => Doc) | undefined {
  let include: boolean | undefined;
  let withId = true;
  const named = new Set<string>();
  for (const [field, value] of Object.entries(projection)) {
    if (field.includes(".") || field.startsWith("$")) return undefined;
    const on = value === true || value === 1 ? true : value === false || value === 0 ? false : undefined;
    if (on === undefined) return undefined;
    if (field === "_id") {
      withId = on;
      continue;
    }
    if (include !== undefined && include !== on) return undefined;
    include = on;
    named.add(field);
  }
  // Only _id named: `{_id: 1}` keeps _id alone (an inclusion), `{_id: 0}` drops it (an exclusion).
  include ??= withId;
  if (!include) {
    if (!withId) named.add("_id");
    return (doc) => omitFields(doc, named);
  }
  if (withId) named.add("_id");
  return (doc) => {
    const out: Doc = {};
    for (const key in doc) if (named.has(key)) out[key] = doc[key];
    return out;
  };
}

function omitFields(doc: Doc, names: Set<string>): Doc {
  const out: Doc = {};
  for (const key in doc) if (!names.has(key)) out[key] = doc[key];
  return out;
}

/** A find projection (mingo's), with `{ $meta: "textScore" }` fields filled from the query's scores. */
function project(docs: Doc[], projection: Doc): Doc[] {
  const meta: string[] = [];
  const rest: Doc = {};
  for (const [k, v] of Object.entries(projection)) {
    if (isPlainObject(v) && v.$meta === "textScore") meta.push(k);
    else rest[k] = v;
  }
  let out: Doc[];
  try {
    if (Object.keys(rest).length === 0) out = docs.map((d) => ({ ...d }));
    else {
      const fields = plainFieldProjection(rest);
      out = fields ? docs.map(fields) : (new Query({}).find(docs, rest).all() as Doc[]);
    }
  } catch (error) {
    throw toCommandError(error);
  }
  if (meta.length === 0) return out;
  return out.map((d, i) => {
    const withMeta: Doc = { ...d };
    for (const f of meta) withMeta[f] = textScores.get(docs[i]) ?? 0;
    return withMeta;
  });
}

function sortSync(docs: Doc[], sort: SortSpec): Doc[] {
  const indexed = docs.map((d, i) => ({ d, i }));
  indexed.sort((a, b) => compareDocs(a.d, b.d, sort) || a.i - b.i);
  return indexed.map((x) => x.d);
}

function classifyUpdate(update: unknown, multi: boolean): "operators" | "replacement" | "pipeline" {
  if (Array.isArray(update)) {
    if (!update.every(isPlainObject)) throw new MongoCommandError("FailedToParse", "each pipeline update stage must be an object");
    return "pipeline";
  }
  if (!isPlainObject(update)) throw new MongoCommandError("FailedToParse", "Update argument must be either an object or an array");
  const keys = Object.keys(update);
  const ops = keys.filter((k) => k.startsWith("$"));
  if (ops.length === 0) {
    if (multi) throw new MongoCommandError("FailedToParse", "multi update is not supported for replacement-style update");
    return "replacement";
  }
  if (ops.length !== keys.length) {
    const plain = keys.find((k) => !k.startsWith("$"));
    throw new MongoCommandError(
      "FailedToParse",
      `Unknown modifier: ${plain}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  for (const op of ops) {
    if (!KNOWN_UPDATE_OPERATORS.has(op)) {
      throw new MongoCommandError(
        "FailedToParse",
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(update[op])) {
      throw new MongoCommandError("FailedToParse", `Modifiers operate on fields but we found type ${typeof update[op]} instead.`);
    }
  }
  return "operators";
}

const KNOWN_UPDATE_OPERATORS = new Set([
  "$set",
  "$unset",
  "$inc",
  "$mul",
  "$min",
  "$max",
  "$rename",
  "$push",
  "$pull",
  "$pullAll",
  "$pop",
  "$addToSet",
  "$bit",
  "$currentDate",
  "$setOnInsert",
]);

/** How many documents a multi-document write changes between two looks at the clock. */
const WRITE_CHUNK = 64;

/**
 * The new versions of a slice of documents for one update statement. Stored documents are never changed:
 * operator updates work on copies, and a $set/$addFields pipeline compiled once builds new objects that
 * share the values it leaves alone (so indexes on untouched fields see no change).
 */
function updateComputer(kind: "operators" | "replacement" | "pipeline", update: unknown, filter: Doc, arrayFilters: Doc[] | undefined): (docs: Doc[]) => Doc[] {
  if (kind === "replacement") {
    return (docs) =>
      docs.map((old) => {
        const repl = cloneDeep(update as Doc);
        if (repl._id !== undefined && keyOf(repl._id) !== keyOf(old._id)) throw immutableId(old._id);
        const { _id: _ignored, ...rest } = repl;
        return { _id: old._id, ...rest };
      });
  }
  if (kind === "pipeline") {
    const stages = update as Doc[];
    const compiled = compileUpdatePipeline(stages);
    return (docs) => {
      const out: Doc[] = new Array(docs.length);
      for (let i = 0; i < docs.length; i++) {
        let next = compiled?.(docs[i]);
        if (!next) {
          const one = [cloneDeep(docs[i])];
          runUpdate(one, {}, stages, undefined);
          next = one[0];
        }
        out[i] = next;
      }
      return out;
    };
  }
  let modifier = update as Doc;
  if ("$setOnInsert" in modifier) {
    modifier = { ...modifier };
    delete modifier.$setOnInsert;
  }
  // mingo re-tests the filter on every document; it only needs it for the positional $ operator.
  const positional = Object.values(modifier).some((fields) => isPlainObject(fields) && Object.keys(fields).some((k) => /(^|\.)\$(\.|$)/.test(k)));
  const fast = !arrayFilters ? compileFastUpdate(modifier) : undefined;
  const empty = Object.keys(modifier).length === 0;
  return (docs) => {
    const updated = docs.map(cloneDeep);
    if (fast) {
      for (let i = 0; i < updated.length; i++) {
        if (!fast(updated[i])) {
          const one = [updated[i]];
          runUpdate(one, filter, modifier, arrayFilters);
          updated[i] = one[0];
        }
      }
    } else if (!empty) {
      runUpdate(updated, positional ? filter : {}, modifier, arrayFilters);
    }
    return updated;
  };
}

function runUpdate(docs: Doc[], filter: Doc, modifier: Doc | Doc[], arrayFilters: Doc[] | undefined): void {
  try {
    mingoUpdateMany(docs, filter, modifier as never, { arrayFilters, cloneMode: "copy" });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes("immutable field '_id'")) throw new MongoCommandError("ImmutableField", message.replace(/\.$/, ""));
    throw toCommandError(error);
  }
}

/** The fields an upsert starts from: the filter's equality conditions. */
function seedFromFilter(filter: Doc): Doc {
  const out: Doc = {};
  const visit = (f: Doc) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === "$and" && Array.isArray(v)) {
        for (const part of v) if (isPlainObject(part)) visit(part);
        continue;
      }
      if (k.startsWith("$")) continue;
      let value: unknown;
      if (isPlainObject(v) && Object.keys(v).some((x) => x.startsWith("$"))) {
        if (!("$eq" in v)) continue;
        value = v.$eq;
      } else {
        value = v;
      }
      setPath(out, k, cloneDeep(value));
    }
  };
  visit(filter);
  return out;
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split(".");
  let current: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = current[parts[i]];
    if (!isPlainObject(next)) current[parts[i]] = {};
    current = current[parts[i]] as Doc;
  }
  current[parts[parts.length - 1]] = value;
}

function normaliseIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || Object.keys(raw.key).length === 0) {
    throw new MongoCommandError("BadValue", "Index spec needs a non-empty 'key' object");
  }
  if (Object.values(raw.key).includes("text")) {
    if (raw.unique === true) throw new MongoCommandError("CannotCreateIndex", "a text index cannot be unique");
    const spec = normaliseTextIndexSpec(raw);
    if (raw.sparse === true) spec.sparse = true;
    if (isPlainObject(raw.partialFilterExpression)) spec.partialFilterExpression = raw.partialFilterExpression;
    return spec;
  }
  const key: Record<string, number> = {};
  for (const [field, dir] of Object.entries(raw.key)) {
    if (dir === 1 || dir === -1) key[field] = dir;
    else if (typeof dir === "string") {
      throw new MongoCommandError("CannotCreateIndex", `Index type '${dir}' on '${field}' is not supported by the embedded server (only ascending/descending)`);
    } else throw new MongoCommandError("CannotCreateIndex", `Values in the index key pattern can't be ${String(dir)}; use 1 or -1`);
  }
  const name = typeof raw.name === "string" && raw.name ? raw.name : Object.entries(key).map(([f, d]) => `${f}_${d}`).join("_");
  const spec: IndexSpec = { v: 2, key, name };
  if (raw.unique === true) spec.unique = true;
  if (raw.sparse === true) spec.sparse = true;
  if (isPlainObject(raw.partialFilterExpression)) {
    assertSupportedValues(raw.partialFilterExpression, "partialFilterExpression");
    spec.partialFilterExpression = raw.partialFilterExpression;
  }
  if (typeof raw.expireAfterSeconds === "number") spec.expireAfterSeconds = raw.expireAfterSeconds;
  return spec;
}

function sameKey(a: Doc, b: Doc): boolean {
  const ka = Object.entries(a);
  const kb = Object.entries(b);
  return ka.length === kb.length && ka.every(([k, v], i) => kb[i][0] === k && (kb[i][1] === v || Number(kb[i][1]) === Number(v)));
}

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  return (
    deepEqual(a.weights ?? null, b.weights ?? null) &&
    a.default_language === b.default_language &&
    a.language_override === b.language_override &&
    !!a.unique === !!b.unique &&
    !!a.sparse === !!b.sparse &&
    deepEqual(a.partialFilterExpression ?? null, b.partialFilterExpression ?? null) &&
    a.expireAfterSeconds === b.expireAfterSeconds
  );
}

