import { BSON, Long } from "bson";
import { Query, updateMany as mingoUpdateMany } from "mingo";
import { MongoCommandError, toCommandError } from "./errors";
import { ExecContext } from "./exec";
import { textScores } from "./expressions";
import { compileFastUpdate, fastMatcher } from "./fastpath";
import { compileUpdatePipeline } from "./pipeline";
import { compareDocs, type PlannedQuery, type ScanStats, type SortSpec } from "./planner";
import { type Index, type IndexSpec } from "./storage";
import { normaliseTextIndexSpec } from "./text";
import { assertSupportedValues, cloneDeep, deepEqual, getPath, isPlainObject, keyOf, pathValues, type Doc } from "./values";

/**
 * What the command handlers (commands/*.ts) and the runner (runner.ts) share: limits, argument checks, replies,
 * compiled filters, projections, updates and index specifications.
 */

export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;
export const DEFAULT_BATCH = 101;
export const CURSOR_IDLE_MS = 10 * 60 * 1000;

/** The aliases mongod registers next to a command's name (`Command(name, oldName)`); no other spelling works. */
export const COMMAND_ALIASES: Record<string, string> = { ismaster: "isMaster", buildinfo: "buildInfo", findandmodify: "findAndModify" };

export type Cursor = { ns: string; docs: Doc[]; pos: number; touched: number };

/** One profiled operation, shaped like a document of MongoDB's system.profile. */
export type ProfileEntry = Doc;
export const PROFILE_CAPACITY = 10_000;

/** What a read command ran: for explain and the profiler. */
export type ReadOutcome = { docs: unknown[]; plans: PlannedQuery[]; stats: ScanStats; ctx: ExecContext; stages?: Doc[]; countOnly?: boolean; nReturned?: number };

export type ServerInfo = { connectionId: number; startedAt: Date; port: number };

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
export function rejectCollation(cmd: Doc): void {
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

export function helloReply(info: ServerInfo, legacy: boolean): Doc {
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

export function buildInfo(): Doc {
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

export function writeReply(reply: Doc, writeErrors: Doc[]): Doc {
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
}

export function immutableId(id: unknown): MongoCommandError {
  return new MongoCommandError(
    "ImmutableField",
    `Performing an update on the path '_id' would modify the immutable field '_id' (document _id ${keyOf(id).slice(1)})`,
  );
}

export function validateId(id: unknown): void {
  if (Array.isArray(id)) throw new MongoCommandError("BadValue", "can't use an array for _id");
  if (id instanceof RegExp) throw new MongoCommandError("BadValue", "can't use a regex for _id");
  if (id === undefined) throw new MongoCommandError("BadValue", "_id is missing");
}

/** The collection a command names in its first field, whichever spelling of the command was used. */
export function collectionName(cmd: Doc): string {
  const name = cmd[Object.keys(cmd)[0]];
  if (typeof name !== "string" || name === "") {
    throw new MongoCommandError("InvalidNamespace", `collection name has invalid type ${name === null ? "null" : typeof name}`);
  }
  return name;
}

export function docArg(value: unknown, what: string): Doc {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected an object`);
  assertSupportedValues(value, what);
  return value;
}

export function arrayArg(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected an array`);
  return value;
}

export function numberArg(value: unknown, what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (Long.isLong(value)) return value.toNumber();
  throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected a number`);
}

export function batchSizeOf(cursor: unknown): number {
  if (isPlainObject(cursor) && cursor.batchSize !== undefined) {
    const n = numberArg(cursor.batchSize, "cursor.batchSize");
    return n > 0 ? n : n === 0 ? 0 : DEFAULT_BATCH;
  }
  return DEFAULT_BATCH;
}

export function cursorIdString(value: unknown): string {
  if (Long.isLong(value)) return value.toString();
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  throw new MongoCommandError("TypeMismatch", "cursor id must be a 64-bit integer");
}

/** Up to `size` documents from `pos`, never more than 16 MB of BSON (but always one). */
export function takeBatch(docs: Doc[], pos: number, size: number): Doc[] {
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

export function compileQuery(filter: Doc): Query {
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
export function plainFieldProjection(projection: Doc): ((doc: Doc) => Doc) | undefined {
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

export function omitFields(doc: Doc, names: Set<string>): Doc {
  const out: Doc = {};
  for (const key in doc) if (!names.has(key)) out[key] = doc[key];
  return out;
}

/** A find projection (mingo's), with `{ $meta: "textScore" }` fields filled from the query's scores. */
export function project(docs: Doc[], projection: Doc): Doc[] {
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

export function sortSync(docs: Doc[], sort: SortSpec): Doc[] {
  const indexed = docs.map((d, i) => ({ d, i }));
  indexed.sort((a, b) => compareDocs(a.d, b.d, sort) || a.i - b.i);
  return indexed.map((x) => x.d);
}

export function classifyUpdate(update: unknown, multi: boolean): "operators" | "replacement" | "pipeline" {
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

export const KNOWN_UPDATE_OPERATORS = new Set([
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
export const WRITE_CHUNK = 64;

/**
 * The new versions of a slice of documents for one update statement. Stored documents are never changed:
 * operator updates work on copies, and a $set/$addFields pipeline compiled once builds new objects that
 * share the values it leaves alone (so indexes on untouched fields see no change).
 */
export function updateComputer(kind: "operators" | "replacement" | "pipeline", update: unknown, filter: Doc, arrayFilters: Doc[] | undefined): (docs: Doc[]) => Doc[] {
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

export function runUpdate(docs: Doc[], filter: Doc, modifier: Doc | Doc[], arrayFilters: Doc[] | undefined): void {
  try {
    mingoUpdateMany(docs, filter, modifier as never, { arrayFilters, cloneMode: "copy" });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes("immutable field '_id'")) throw new MongoCommandError("ImmutableField", message.replace(/\.$/, ""));
    throw toCommandError(error);
  }
}

/** The fields an upsert starts from: the filter's equality conditions. */
export function seedFromFilter(filter: Doc): Doc {
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

export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split(".");
  let current: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = current[parts[i]];
    if (!isPlainObject(next)) current[parts[i]] = {};
    current = current[parts[i]] as Doc;
  }
  current[parts[parts.length - 1]] = value;
}

export function normaliseIndexSpec(raw: unknown): IndexSpec {
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

export function sameKey(a: Doc, b: Doc): boolean {
  const ka = Object.entries(a);
  const kb = Object.entries(b);
  return ka.length === kb.length && ka.every(([k, v], i) => kb[i][0] === k && (kb[i][1] === v || Number(kb[i][1]) === Number(v)));
}

export function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
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
