/**
 * Command handlers. Each runs synchronously against the catalogue, so a
 * command never interleaves with another; the caller then waits for the
 * journal to make the command's changes durable before replying.
 */
import { BSON, Long } from "bson";
import { Aggregator, Query, updateMany as mingoUpdateMany } from "mingo";
import { MongoCommandError, toCommandError } from "./errors";
import { compileFastUpdate, fastMatcher, fastSort, fastTopK } from "./fastpath";
import { type Catalog, type Collection, type IndexSpec, withIdFirst } from "./storage";
import { assertSupportedValues, cloneDeep, deepEqual, getPath, isPlainObject, keyOf, pathValues, type Doc } from "./values";

export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;
const DEFAULT_BATCH = 101;
const CURSOR_IDLE_MS = 10 * 60 * 1000;

type CommandHandler = (this: CommandRunner, cmd: Doc, db: string, info: ServerInfo) => Doc;

/** The aliases mongod registers next to a command's name (`Command(name, oldName)`); no other spelling works. */
const COMMAND_ALIASES: Record<string, string> = { ismaster: "isMaster", buildinfo: "buildInfo", findandmodify: "findAndModify" };

type Cursor = { ns: string; docs: Doc[]; pos: number; touched: number };

export type ServerInfo = { connectionId: number; startedAt: Date; port: number };

export class CommandRunner {
  private readonly cursors = new Map<string, Cursor>();
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
  run(cmd: Doc, info: ServerInfo): Doc {
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
      return handler.call(this, cmd, db, info);
    } catch (error) {
      return toCommandError(error).toReply();
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
    getParameter: (cmd) =>
      cmd.featureCompatibilityVersion !== undefined ? { featureCompatibilityVersion: { version: "7.0" }, ok: 1 } : { ok: 1 },
    serverStatus: (cmd, _db, info) => ({
      host: "127.0.0.1",
      version: "7.0.0",
      process: "embedded-mongo",
      pid: Long.fromNumber(process.pid),
      uptime: (Date.now() - info.startedAt.getTime()) / 1000,
      localTime: new Date(),
      ok: 1,
    }),
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

    find(cmd, db) {
      const name = collectionName(cmd);
      const filter = docArg(cmd.filter, "filter");
      const coll = this.catalog.getCollection(db, name);
      const ns = `${db}.${name}`;
      let limit = numberArg(cmd.limit, "limit");
      let singleBatch = cmd.singleBatch === true;
      if (limit < 0) {
        limit = -limit;
        singleBatch = true;
      }
      const docs = coll ? findDocs(coll, filter, cmd) : [];
      const result = limit > 0 ? docs.slice(0, limit) : docs;
      return this.cursorReply(ns, result, numberArg(cmd.batchSize, "batchSize") || DEFAULT_BATCH, singleBatch);
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
    count(cmd, db) {
      const name = collectionName(cmd);
      const coll = this.catalog.getCollection(db, name);
      if (!coll) return { n: 0, ok: 1 };
      const filter = docArg(cmd.query, "query");
      let n = Object.keys(filter).length === 0 ? coll.docs.size : matchDocs(coll, filter).length;
      const skip = numberArg(cmd.skip, "skip");
      const limit = Math.abs(numberArg(cmd.limit, "limit"));
      n = Math.max(0, n - skip);
      if (limit > 0) n = Math.min(n, limit);
      return { n, ok: 1 };
    },
    distinct(cmd, db) {
      const name = collectionName(cmd);
      if (typeof cmd.key !== "string" || cmd.key === "") throw new MongoCommandError("BadValue", "distinct needs a string 'key'");
      const coll = this.catalog.getCollection(db, name);
      const values: unknown[] = [];
      if (coll) {
        const seen = new Set<string>();
        for (const doc of matchDocs(coll, docArg(cmd.query, "query"))) {
          for (const v of pathValues(doc, cmd.key)) {
            if (v === undefined) continue;
            const k = keyOf(v);
            if (!seen.has(k)) {
              seen.add(k);
              values.push(v);
            }
          }
        }
      }
      return { values, ok: 1 };
    },
    aggregate(cmd, db) {
      if (!Array.isArray(cmd.pipeline)) throw new MongoCommandError("TypeMismatch", "'pipeline' option must be specified as an array");
      if (cmd.explain === true) throw new MongoCommandError("InvalidOptions", "explain is not supported by the embedded server");
      if (!isPlainObject(cmd.cursor)) {
        throw new MongoCommandError("FailedToParse", "The 'cursor' option is required, except for aggregate with the explain argument");
      }
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
      const coll = collName ? this.catalog.getCollection(db, collName) : undefined;
      const results = runPipeline(this.catalog, db, coll, pipeline);
      return this.cursorReply(ns, results, batchSizeOf(cmd.cursor), false);
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
    update(cmd, db) {
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
          const r = this.applyUpdate(db, name, stmt, false);
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
    delete(cmd, db) {
      const name = collectionName(cmd);
      const statements = arrayArg(cmd.deletes, "deletes");
      const ordered = cmd.ordered !== false;
      const writeErrors: Doc[] = [];
      let n = 0;
      const coll = this.catalog.getCollection(db, name);
      for (let i = 0; i < statements.length; i++) {
        const stmt = statements[i];
        try {
          if (!isPlainObject(stmt)) throw new MongoCommandError("BadValue", "each delete statement must be an object");
          const filter = docArg(stmt.q, "q");
          if (stmt.limit !== 0 && stmt.limit !== 1) throw new MongoCommandError("BadValue", "The limit field in delete objects must be 0 or 1");
          if (!coll) continue;
          let matched = matchDocs(coll, filter);
          if (stmt.limit === 1) matched = matched.slice(0, 1);
          for (const doc of matched) this.catalog.remove(coll, doc);
          n += matched.length;
        } catch (error) {
          writeErrors.push(toCommandError(error).toWriteError(i));
          if (ordered) break;
        }
      }
      return writeReply({ n }, writeErrors);
    },
    findAndModify(cmd, db) {
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
        const target = coll ? firstMatch(coll, filter, cmd.sort) : undefined;
        if (!target || !coll) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
        this.catalog.remove(coll, target);
        return { lastErrorObject: { n: 1 }, value: project(target), ok: 1 };
      }
      const r = this.applyUpdate(db, name, { q: filter, u: cmd.update, upsert: cmd.upsert === true, multi: false, arrayFilters: cmd.arrayFilters, sort: cmd.sort }, true);
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

  /**
   * Applies one update statement. Errors after some documents were written
   * (a multi update hitting a duplicate key) come back in `error` so the
   * counts of what was written stay right.
   */
  private applyUpdate(
    db: string,
    name: string,
    stmt: Doc,
    single: boolean,
  ): { matched: number; modified: number; upsertedId?: unknown; before?: Doc; after?: Doc; error?: MongoCommandError } {
    const filter = docArg(stmt.q, "q");
    const update = stmt.u;
    const multi = stmt.multi === true && !single;
    const upsert = stmt.upsert === true;
    const arrayFilters = stmt.arrayFilters === undefined ? undefined : (arrayArg(stmt.arrayFilters, "arrayFilters") as Doc[]);
    const kind = classifyUpdate(update, multi);
    assertSupportedValues(update, "update");
    if (arrayFilters) assertSupportedValues(arrayFilters, "arrayFilters");

    const coll = this.catalog.getCollection(db, name);
    let targets: Doc[] = [];
    if (coll) {
      if (multi) targets = matchDocs(coll, filter);
      else {
        const first = firstMatch(coll, filter, stmt.sort);
        targets = first ? [first] : [];
      }
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
      const target = coll ?? this.catalog.ensureCollection(db, name);
      this.catalog.insert(target, doc);
      return { matched: 0, modified: 0, upsertedId: doc._id, after: doc };
    }

    let updated: Doc[];
    if (kind === "replacement") {
      updated = targets.map((old) => {
        const repl = cloneDeep(update as Doc);
        if (repl._id !== undefined && keyOf(repl._id) !== keyOf(old._id)) throw immutableId(old._id);
        const { _id: _ignored, ...rest } = repl;
        return { _id: old._id, ...rest };
      });
    } else {
      updated = targets.map(cloneDeep);
      let modifier: Doc | Doc[] = update as Doc | Doc[];
      if (kind === "operators" && "$setOnInsert" in (update as Doc)) {
        const ops = { ...(update as Doc) };
        delete ops.$setOnInsert;
        modifier = ops;
      }
      // mingo re-tests the filter on every document; it only needs it for the positional $ operator.
      const positional = kind === "operators" && Object.values(modifier).some((fields) => isPlainObject(fields) && Object.keys(fields).some((k) => /(^|\.)\$(\.|$)/.test(k)));
      const fast = kind === "operators" && !arrayFilters ? compileFastUpdate(modifier as Doc) : undefined;
      if (fast) {
        for (let i = 0; i < updated.length; i++) {
          if (!fast(updated[i])) {
            const one = [updated[i]];
            runUpdate(one, filter, modifier, arrayFilters);
            updated[i] = one[0];
          }
        }
      } else if (kind === "pipeline" || Object.keys(modifier).length > 0) {
        runUpdate(updated, positional ? filter : {}, modifier, arrayFilters);
      }
    }

    let modified = 0;
    let before: Doc | undefined;
    let after: Doc | undefined;
    for (let i = 0; i < targets.length; i++) {
      const oldDoc = targets[i];
      const newDoc = updated[i];
      try {
        if (keyOf(newDoc._id) !== keyOf(oldDoc._id)) throw immutableId(oldDoc._id);
        before = oldDoc;
        after = oldDoc;
        if (deepEqual(oldDoc, newDoc)) continue;
        this.catalog.replace(coll!, oldDoc, withIdFirst(newDoc));
        after = newDoc;
        modified++;
      } catch (error) {
        return { matched: i, modified, error: toCommandError(error) };
      }
    }
    return { matched: targets.length, modified, before, after };
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

export function matchDocs(coll: Collection, filter: Doc): Doc[] {
  const { docs, exact } = coll.select(filter);
  if (exact) return docs;
  return docs.filter(compileFilter(filter));
}

/**
 * mingo's query plus MongoDB's field-order-sensitive equality for embedded
 * documents ({ size: { h: 14, w: 21 } } does not match { w: 21, h: 14 }),
 * which mingo ignores, checked on top-level (and $and) conditions.
 */
function compileFilter(filter: Doc): (doc: Doc) => boolean {
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

function firstMatch(coll: Collection, filter: Doc, sort: unknown): Doc | undefined {
  if (sort !== undefined && isPlainObject(sort) && Object.keys(sort).length > 0) {
    return sortDocs(matchDocs(coll, filter), normaliseSort(sort))[0];
  }
  const { docs, exact } = coll.select(filter);
  if (exact) return docs[0];
  return docs.find(compileFilter(filter));
}

function findDocs(coll: Collection, filter: Doc, cmd: Doc): Doc[] {
  const matched = matchDocs(coll, filter);
  const sort = cmd.sort === undefined ? undefined : docArg(cmd.sort, "sort");
  const projection = cmd.projection === undefined ? undefined : docArg(cmd.projection, "projection");
  const skip = numberArg(cmd.skip, "skip");
  let limit = Math.abs(numberArg(cmd.limit, "limit"));
  if (skip < 0) throw new MongoCommandError("BadValue", "skip value must be non-negative");
  const hasSort = sort && Object.keys(sort).length > 0;
  const hasProjection = projection && Object.keys(projection).length > 0;
  if (!hasSort && !hasProjection) {
    if (limit === 0) limit = Infinity;
    return matched.slice(skip, skip + limit);
  }
  let page: Doc[];
  if (hasSort && limit) {
    const sortSpec = normaliseSort(sort);
    const top = fastTopK(matched, sortSpec, skip + limit) ?? sortDocs(matched, sortSpec);
    page = top.slice(skip, skip + limit);
  } else {
    const sorted = hasSort ? sortDocs(matched, normaliseSort(sort)) : matched;
    page = sorted.slice(skip, limit ? skip + limit : undefined);
  }
  if (!hasProjection) return page;
  try {
    return new Query({}).find(page, projection).all() as Doc[];
  } catch (error) {
    throw toCommandError(error);
  }
}

function sortDocs(docs: Doc[], sort: Record<string, 1 | -1>): Doc[] {
  const fast = fastSort(docs, sort);
  if (fast) return fast;
  try {
    return new Query({}).find(docs).sort(sort).all() as Doc[];
  } catch (error) {
    throw toCommandError(error);
  }
}

function normaliseSort(sort: Doc): Record<string, 1 | -1> {
  const out: Record<string, 1 | -1> = {};
  for (const [k, v] of Object.entries(sort)) {
    if (v === 1 || v === -1) out[k] = v;
    else if (isPlainObject(v) && "$meta" in v) throw new MongoCommandError("BadValue", "$meta sort is not supported by the embedded server");
    else throw new MongoCommandError("BadValue", `$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
  }
  return out;
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
  return ka.length === kb.length && ka.every(([k, v], i) => kb[i][0] === k && Number(kb[i][1]) === Number(v));
}

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  return (
    !!a.unique === !!b.unique &&
    !!a.sparse === !!b.sparse &&
    deepEqual(a.partialFilterExpression ?? null, b.partialFilterExpression ?? null) &&
    a.expireAfterSeconds === b.expireAfterSeconds
  );
}

/**
 * Runs an aggregation without ever handing stored documents to mingo
 * (its $set/$addFields on dotted paths mutate their input): leading $match
 * stages use the planner, the driver's countDocuments pipeline is answered
 * directly, and everything else works on clones.
 */
function runPipeline(catalog: Catalog, db: string, coll: Collection | undefined, pipeline: Doc[]): Doc[] {
  let rest = pipeline;
  let input: Doc[] = [];
  if (coll) {
    const matches: Doc[] = [];
    while (rest.length > 0 && isPlainObject(rest[0]) && Object.keys(rest[0])[0] === "$match" && Object.keys(rest[0]).length === 1) {
      const m = rest[0].$match;
      if (!isPlainObject(m)) throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
      matches.push(m);
      rest = rest.slice(1);
    }
    input = matches.length === 0 ? [...coll.docs.values()] : matchDocs(coll, matches.length === 1 ? matches[0] : { $and: matches });
  }
  const counted = countShortcut(input, rest);
  if (counted) return counted;
  const cloneAll = (docs: Iterable<Doc>) => Array.from(docs, cloneDeep);
  try {
    return new Aggregator(rest, {
      collectionResolver: (name: string) => cloneAll(catalog.getCollection(db, name)?.docs.values() ?? []),
    }).run(cloneAll(input)) as Doc[];
  } catch (error) {
    throw toCommandError(error);
  }
}

function countShortcut(input: Doc[], rest: Doc[]): Doc[] | undefined {
  let skip = 0;
  let limit = Infinity;
  let i = 0;
  if (rest[i] && typeof rest[i].$skip === "number" && Object.keys(rest[i]).length === 1) skip = rest[i++].$skip as number;
  if (rest[i] && typeof rest[i].$limit === "number" && Object.keys(rest[i]).length === 1) limit = rest[i++].$limit as number;
  const last = rest[i];
  if (i !== rest.length - 1 || !isPlainObject(last) || Object.keys(last).length !== 1 || !isPlainObject(last.$group)) return undefined;
  const group = last.$group;
  const keys = Object.keys(group);
  if (keys.length !== 2 || group._id !== 1) return undefined;
  const field = keys.find((k) => k !== "_id")!;
  const acc = group[field];
  if (!isPlainObject(acc) || acc.$sum !== 1 || Object.keys(acc).length !== 1) return undefined;
  const n = Math.max(0, Math.min(input.length - skip, limit));
  return n === 0 ? [] : [{ _id: 1, [field]: n }];
}
