import { BSON, Long } from "bson";
import { Query, updateMany as mingoUpdateMany } from "mingo";
import { MongoCommandError, toCommandError } from "./errors";
import { ExecContext } from "./exec";
import { assertVariablesDefined, compileExpression, MINGO_OPTIONS, usesUserVariables, type Vars } from "./expressions";
import { compileProjection } from "./projection";
import { compileFastUpdate, fastMatcher } from "./fastpath";
import { compileUpdateStages } from "./pipeline";
import { compareDocs, type PlannedQuery, type ScanStats, type SortSpec } from "./planner";
import { type Index, type IndexSpec } from "./storage";
import { normaliseTextIndexSpec } from "./text";
import {
  assertSupportedValues,
  cloneDeep,
  deepEqual,
  getPath,
  isPlainObject,
  keyOf,
  pathValues,
  type Doc,
} from "./values";

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
export const COMMAND_ALIASES: Record<string, string> = {
  ismaster: "isMaster",
  buildinfo: "buildInfo",
  findandmodify: "findAndModify",
};

export type Cursor = { ns: string; docs: Doc[]; pos: number; touched: number };

/** One profiled operation, shaped like a document of MongoDB's system.profile. */
export type ProfileEntry = Doc;
export const PROFILE_CAPACITY = 10_000;

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

/**
 * Indexes, the fast paths and sorting compare strings by code point; a
 * collation would silently give different answers, so it is refused.
 */
export function rejectCollation(cmd: Doc): void {
  const check = (c: unknown) => {
    if (c === undefined || c === null) return;
    if (isPlainObject(c) && c.locale === "simple") return;
    throw new MongoCommandError(
      "BadValue",
      "collation is not supported by the embedded server (only { locale: 'simple' }); compare normalised fields instead",
    );
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
  if (isPlainObject(id)) storageValidEmbedded(id);
}

/** An embedded document stored in _id: no field of it, at any depth, may start with '$' (a DBRef's $ref/$id/$db aside). */
function storageValidEmbedded(doc: Doc): void {
  for (const [name, value] of Object.entries(doc)) {
    if (name.startsWith("$") && !(name === "$ref" || name === "$id" || name === "$db")) {
      throw new MongoCommandError("DollarPrefixedFieldName", `${name} is not valid for storage.`);
    }
    if (isPlainObject(value)) storageValidEmbedded(value);
    else if (Array.isArray(value)) for (const item of value) if (isPlainObject(item)) storageValidEmbedded(item);
  }
}

/** The collection a command names in its first field, whichever spelling of the command was used. */
export function collectionName(cmd: Doc): string {
  const name = cmd[Object.keys(cmd)[0]];
  if (typeof name !== "string" || name === "") {
    throw new MongoCommandError(
      "InvalidNamespace",
      `collection name has invalid type ${name === null ? "null" : typeof name}`,
    );
  }
  return name;
}

export function docArg(value: unknown, what: string): Doc {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value))
    throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected an object`);
  assertSupportedValues(value, what);
  return value;
}

export function arrayArg(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value))
    throw new MongoCommandError("TypeMismatch", `BSON field '${what}' is the wrong type, expected an array`);
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
        else if (
          keys.length === 1 &&
          keys[0] === "$in" &&
          Array.isArray(cond.$in) &&
          cond.$in.length > 0 &&
          cond.$in.every(isPlainObject)
        ) {
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

/**
 * The variables of a command's `let` (and an update statement's `c`): each value an expression evaluated once,
 * without a document. Names follow mongod's rules for user variables.
 */
export function evalLet(spec: unknown, outer?: Vars): Record<string, unknown> | undefined {
  if (spec === undefined || spec === null) return outer;
  if (!isPlainObject(spec))
    throw new MongoCommandError("TypeMismatch", "BSON field 'let' is the wrong type, expected type 'object'");
  const vars: Record<string, unknown> = { ...(outer ?? {}) };
  for (const [name, expr] of Object.entries(spec)) {
    validateVariableName(name);
    const value = compileExpression(expr)({}, vars);
    vars[name] = value === undefined ? null : value;
  }
  return vars;
}

export function validateVariableName(name: string): void {
  if (name === "") throw new MongoCommandError(16866, "empty variable names are not allowed");
  const first = name.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || first > 127)) {
    throw new MongoCommandError(16867, `'${name}' starts with an invalid character for a user variable name`);
  }
  for (let i = 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c > 127;
    if (!ok)
      throw new MongoCommandError(16868, `'${name}' contains an invalid character for a variable name: '${name[i]}'`);
  }
}

/** The filter compiler of a command with variables: filters that use them are matched with them. */
export function filterCompiler(vars: Vars): (filter: Doc) => (doc: Doc) => boolean {
  return (filter) => {
    const exprs = exprParts(filter);
    if (!usesUserVariables(exprs)) return compileFilter(filter);
    assertVariablesDefined(exprs, vars);
    let q: Query;
    try {
      q = new Query(filter, { ...(MINGO_OPTIONS as object), variables: vars } as never);
    } catch (error) {
      throw toCommandError(error);
    }
    return (doc) => {
      try {
        return q.test(doc);
      } catch (error) {
        throw toCommandError(error);
      }
    };
  };
}

/** The $expr conditions of a filter (at its top level and within $and / $or / $nor): where variables may be used. */
export function exprParts(filter: Doc): unknown[] {
  const out: unknown[] = [];
  const visit = (f: unknown) => {
    if (!isPlainObject(f)) return;
    for (const [k, v] of Object.entries(f)) {
      if (k === "$expr") out.push(v);
      else if ((k === "$and" || k === "$or" || k === "$nor") && Array.isArray(v)) v.forEach(visit);
    }
  };
  visit(filter);
  return out;
}

export function compileQuery(filter: Doc): Query {
  try {
    return new Query(filter);
  } catch (error) {
    throw toCommandError(error);
  }
}

/** A find projection (projection.ts): MongoDB's grammar and field order, `{ $meta: "textScore" }` from the query's scores. */
export function project(docs: Doc[], projection: Doc, vars?: Vars): Doc[] {
  const apply = compileProjection(projection, "find");
  try {
    return docs.map((d) => apply(d, vars));
  } catch (error) {
    throw toCommandError(error);
  }
}

export function sortSync(docs: Doc[], sort: SortSpec): Doc[] {
  const indexed = docs.map((d, i) => ({ d, i }));
  indexed.sort((a, b) => compareDocs(a.d, b.d, sort) || a.i - b.i);
  return indexed.map((x) => x.d);
}

export function classifyUpdate(update: unknown, multi: boolean): "operators" | "replacement" | "pipeline" {
  if (Array.isArray(update)) {
    if (!update.every(isPlainObject))
      throw new MongoCommandError("FailedToParse", "each pipeline update stage must be an object");
    return "pipeline";
  }
  if (!isPlainObject(update))
    throw new MongoCommandError("FailedToParse", "Update argument must be either an object or an array");
  const keys = Object.keys(update);
  const ops = keys.filter((k) => k.startsWith("$"));
  if (ops.length === 0) {
    if (multi)
      throw new MongoCommandError("FailedToParse", "multi update is not supported for replacement-style update");
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
      throw new MongoCommandError(
        "FailedToParse",
        `Modifiers operate on fields but we found type ${typeof update[op]} instead.`,
      );
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
export function updateComputer(
  kind: "operators" | "replacement" | "pipeline",
  update: unknown,
  filter: Doc,
  arrayFilters: Doc[] | undefined,
  pipelineUpdate?: (doc: Doc) => Doc,
): (docs: Doc[]) => Doc[] {
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
    const apply = pipelineUpdate ?? compileUpdateStages(update as Doc[], undefined);
    return (docs) => docs.map(apply);
  }
  let modifier = update as Doc;
  if ("$setOnInsert" in modifier) {
    modifier = { ...modifier };
    delete modifier.$setOnInsert;
  }
  // mingo re-tests the filter on every document; it only needs it for the positional $ operator.
  const positional = Object.values(modifier).some(
    (fields) => isPlainObject(fields) && Object.keys(fields).some((k) => /(^|\.)\$(\.|$)/.test(k)),
  );
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
    if (message.includes("immutable field '_id'"))
      throw new MongoCommandError("ImmutableField", message.replace(/\.$/, ""));
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
      throw new MongoCommandError(
        "CannotCreateIndex",
        `Index type '${dir}' on '${field}' is not supported by the embedded server (only ascending/descending)`,
      );
    } else
      throw new MongoCommandError(
        "CannotCreateIndex",
        `Values in the index key pattern can't be ${String(dir)}; use 1 or -1`,
      );
  }
  const name =
    typeof raw.name === "string" && raw.name
      ? raw.name
      : Object.entries(key)
          .map(([f, d]) => `${f}_${d}`)
          .join("_");
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
  return (
    ka.length === kb.length &&
    ka.every(([k, v], i) => kb[i][0] === k && (kb[i][1] === v || Number(kb[i][1]) === Number(v)))
  );
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
