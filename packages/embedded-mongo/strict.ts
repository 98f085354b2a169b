/**
 * The fields each command accepts, checked before it runs, as mongod 7.0 parses its commands: a field it does not know
 * is refused (40415, "BSON field 'find.bogusOption' is an unknown field."), a field of the wrong type is refused with
 * TypeMismatch, a required field that is missing with 40414. The arguments every command takes (the session, read and
 * write concerns, the API version, comment, maxTimeMS…) are accepted everywhere, as the driver sends them.
 *
 * Options mongod accepts but this server cannot honour (tailable cursors, min/max, returnKey, showRecordId) are refused
 * by name rather than ignored. Commands not listed here are not checked (mongod does not check them strictly either).
 */
import { Long } from "bson";
import { MongoCommandError } from "./errors";
import { type Doc, isPlainObject } from "./values";

/** Arguments mongod accepts on every command (its generic arguments, stable and unstable). */
const GENERIC = new Set([
  "$db",
  "apiVersion",
  "apiStrict",
  "apiDeprecationErrors",
  "maxTimeMS",
  "readConcern",
  "writeConcern",
  "lsid",
  "clientOperationKey",
  "txnNumber",
  "autocommit",
  "startTransaction",
  "stmtId",
  "comment",
  "$readPreference",
  "$clusterTime",
  "$audit",
  "$client",
  "$configServerState",
  "allowImplicitCollectionCreation",
  "$oplogQueryData",
  "$queryOptions",
  "$replData",
  "databaseVersion",
  "shardVersion",
  "tracking_info",
  "coordinator",
  "maxTimeMSOpOnly",
  "usesDefaultMaxTimeMS",
  "$configTime",
  "$topologyTime",
  "txnRetryCounter",
  "mayBypassWriteBlocking",
  "$tenant",
  "expectPrefix",
]);

type FieldType =
  | "any"
  | "object" // a document (null counts as absent)
  | "array"
  | "bool" // IDL bool: a boolean only
  | "optionalBool" // IDL optionalBool: a boolean only, its own message
  | "safeBool" // a boolean or a number
  | "int64" // any number type
  | "nonNegative" // any number type, >= 0
  | "string"
  | "hint" // an index name or a key pattern
  | "deleteLimit"
  | { items: Spec }; // an array of documents, each checked against Spec

type Spec = { fields: Record<string, FieldType>; required?: string[] };

const WRITE_BASE: Record<string, FieldType> = {
  ordered: "bool",
  bypassDocumentValidation: "safeBool",
  stmtIds: "array",
  isTimeseriesNamespace: "any",
  collectionUUID: "any",
  encryptionInformation: "any",
  originalQuery: "any",
  originalCollation: "any",
};

const UPDATE_STATEMENT: Spec = {
  fields: {
    q: "object",
    u: "any",
    c: "object",
    arrayFilters: "array",
    hint: "hint",
    multi: "bool",
    upsert: "bool",
    upsertSupplied: "optionalBool",
    collation: "object",
    sampleId: "any",
    $_allowShardKeyUpdatesWithoutFullShardKeyInQuery: "any",
  },
  required: ["q", "u"],
};

const DELETE_STATEMENT: Spec = {
  fields: { q: "object", limit: "deleteLimit", hint: "hint", collation: "object", sampleId: "any" },
  required: ["q", "limit"],
};

const COMMANDS: Record<string, Spec> = {
  find: {
    fields: {
      filter: "object",
      projection: "object",
      sort: "object",
      hint: "hint",
      collation: "object",
      skip: "nonNegative",
      limit: "nonNegative",
      batchSize: "nonNegative",
      ntoreturn: "nonNegative",
      singleBatch: "optionalBool",
      allowDiskUse: "optionalBool",
      min: "object",
      max: "object",
      returnKey: "optionalBool",
      showRecordId: "optionalBool",
      tailable: "optionalBool",
      oplogReplay: "any",
      noCursorTimeout: "optionalBool",
      awaitData: "optionalBool",
      allowPartialResults: "optionalBool",
      let: "object",
      options: "object",
      term: "int64",
      readOnce: "optionalBool",
      allowSpeculativeMajorityRead: "optionalBool",
      $_requestResumeToken: "optionalBool",
      $_resumeAfter: "object",
      $_startAt: "any",
      runtimeConstants: "any",
      collectionUUID: "any",
      encryptionInformation: "any",
      isTimeseriesNamespace: "any",
    },
  },
  aggregate: {
    fields: {
      pipeline: "any",
      explain: "any",
      allowDiskUse: "optionalBool",
      cursor: "any",
      bypassDocumentValidation: "safeBool",
      collation: "object",
      hint: "hint",
      let: "object",
      needsMerge: "optionalBool",
      fromMongos: "optionalBool",
      fromRouter: "optionalBool",
      $_requestReshardingResumeToken: "optionalBool",
      exchange: "any",
      runtimeConstants: "any",
      isMapReduceCommand: "optionalBool",
      collectionUUID: "any",
      $_passthroughToShard: "any",
      encryptionInformation: "any",
      $_externalDataSources: "any",
      sampleId: "any",
      $_isClusterQueryWithoutShardKeyCmd: "optionalBool",
      $_requestResumeToken: "optionalBool",
      $_resumeAfter: "object",
      $_generateV2ResumeTokens: "optionalBool",
      isTimeseriesNamespace: "any",
    },
    required: ["pipeline"],
  },
  count: {
    fields: {
      query: "object",
      limit: "int64",
      skip: "nonNegative",
      hint: "hint",
      collation: "object",
      fields: "object",
      encryptionInformation: "any",
      sampleId: "any",
      mirrored: "any",
      collectionUUID: "any",
    },
  },
  distinct: {
    fields: {
      key: "string",
      query: "object",
      collation: "object",
      hint: "hint",
      sampleId: "any",
      mirrored: "any",
      collectionUUID: "any",
      encryptionInformation: "any",
    },
    required: ["key"],
  },
  insert: { fields: { ...WRITE_BASE, documents: "array" }, required: ["documents"] },
  update: {
    fields: { ...WRITE_BASE, updates: { items: UPDATE_STATEMENT }, let: "object", runtimeConstants: "any" },
    required: ["updates"],
  },
  delete: {
    fields: { ...WRITE_BASE, deletes: { items: DELETE_STATEMENT }, let: "object", runtimeConstants: "any" },
    required: ["deletes"],
  },
  findAndModify: {
    fields: {
      query: "object",
      fields: "object",
      sort: "object",
      hint: "hint",
      collation: "object",
      arrayFilters: "array",
      remove: "safeBool",
      update: "any",
      new: "safeBool",
      upsert: "safeBool",
      bypassDocumentValidation: "safeBool",
      let: "object",
      runtimeConstants: "any",
      encryptionInformation: "any",
      sampleId: "any",
      $_allowShardKeyUpdatesWithoutFullShardKeyInQuery: "any",
      isTimeseriesNamespace: "any",
      collectionUUID: "any",
    },
  },
  getMore: {
    fields: {
      collection: "string",
      batchSize: "nonNegative",
      term: "int64",
      lastKnownCommittedOpTime: "any",
      includeQueryStatsMetrics: "any",
    },
    required: ["collection"],
  },
  killCursors: { fields: { cursors: "array" }, required: ["cursors"] },
  listIndexes: {
    fields: {
      cursor: "object",
      includeBuildUUIDs: "safeBool",
      includeIndexBuildInfo: "safeBool",
      collectionUUID: "any",
      isTimeseriesNamespace: "any",
    },
  },
  dropIndexes: { fields: { index: "any", collectionUUID: "any", isTimeseriesNamespace: "any" }, required: ["index"] },
  createIndexes: {
    fields: {
      indexes: "array",
      commitQuorum: "any",
      ignoreUnknownIndexOptions: "safeBool",
      isTimeseriesNamespace: "any",
      collectionUUID: "any",
      returnOnStart: "any",
    },
    required: ["indexes"],
  },
  drop: { fields: { collectionUUID: "any", isTimeseriesNamespace: "any" } },
  explain: { fields: { verbosity: "string" } },
};
COMMANDS.findandmodify = COMMANDS.findAndModify;

/** The BSON type name mongod uses in its messages. */
export function bsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) <= 0x7fffffff ? "int" : "double";
  if (typeof value === "bigint" || Long.isLong(value)) return "long";
  if (Array.isArray(value)) return "array";
  if (value instanceof Date) return "date";
  if (value instanceof RegExp) return "regex";
  const t = (value as { _bsontype?: string })._bsontype;
  switch (t) {
    case "ObjectId":
      return "objectId";
    case "Int32":
      return "int";
    case "Double":
      return "double";
    case "Decimal128":
      return "decimal";
    case "Binary":
      return "binData";
    case "Timestamp":
      return "timestamp";
    case "BSONRegExp":
      return "regex";
    case "MinKey":
      return "minKey";
    case "MaxKey":
      return "maxKey";
    case "Code":
      return "javascript";
    default:
      return "object";
  }
}

function isNumber(value: unknown): boolean {
  if (typeof value === "number" || typeof value === "bigint") return true;
  const t = (value as { _bsontype?: string } | null)?._bsontype;
  return t === "Long" || t === "Int32" || t === "Double" || t === "Decimal128";
}

function numberValue(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (Long.isLong(value)) return value.toNumber();
  return Number(String(value));
}

const NUMBER_TYPES = "[long, int, decimal, double]";

function wrongType(path: string, value: unknown, expected: string, plural = false): MongoCommandError {
  return new MongoCommandError(
    "TypeMismatch",
    `BSON field '${path}' is the wrong type '${bsonTypeName(value)}', expected type${plural ? "s" : ""} '${expected}'`,
  );
}

function checkField(path: string, name: string, value: unknown, type: FieldType): void {
  if (typeof type === "object") {
    if (!Array.isArray(value)) throw wrongType(path, value, "array");
    for (const item of value) {
      if (!isPlainObject(item)) throw wrongType(path, item, "object");
      checkDoc(path, item, type.items);
    }
    return;
  }
  switch (type) {
    case "any":
      return;
    case "object":
      if (value !== null && !isPlainObject(value)) throw wrongType(path, value, "object");
      return;
    case "array":
      if (!Array.isArray(value)) throw wrongType(path, value, "array");
      return;
    case "bool":
      if (value !== null && typeof value !== "boolean") throw wrongType(path, value, "bool");
      return;
    case "optionalBool":
      if (value !== null && typeof value !== "boolean") {
        throw new MongoCommandError(
          "TypeMismatch",
          `Field '${name}' should be a boolean value, but found: ${bsonTypeName(value)}`,
        );
      }
      return;
    case "safeBool":
      if (value !== null && typeof value !== "boolean" && !isNumber(value))
        throw wrongType(path, value, `[bool, long, int, decimal, double]`, true);
      return;
    case "int64":
    case "nonNegative":
      if (value === null) return;
      if (!isNumber(value)) throw wrongType(path, value, NUMBER_TYPES, true);
      if (type === "nonNegative" && numberValue(value) < 0) {
        throw new MongoCommandError(
          51024,
          `BSON field '${name}' value must be >= 0, actual value '${numberValue(value)}'`,
        );
      }
      return;
    case "string":
      if (typeof value !== "string") throw wrongType(path, value, "string");
      return;
    case "hint":
      if (value !== null && typeof value !== "string" && !isPlainObject(value))
        throw new MongoCommandError("FailedToParse", "Hint must be a string or an object");
      return;
    case "deleteLimit":
      if (!isNumber(value))
        throw new MongoCommandError(
          "FailedToParse",
          `The limit field in delete objects must be a number. Got ${JSON.stringify(value)}`,
        );
      if (numberValue(value) !== 0 && numberValue(value) !== 1) {
        throw new MongoCommandError(
          "FailedToParse",
          `The limit field in delete objects must be 0 or 1. Got ${numberValue(value)}`,
        );
      }
      return;
  }
}

function checkDoc(path: string, doc: Doc, spec: Spec, generic = false): void {
  for (const [name, value] of Object.entries(doc)) {
    if (value === undefined) continue;
    const type = spec.fields[name];
    if (type === undefined) {
      if (generic && GENERIC.has(name)) continue;
      throw new MongoCommandError(40415, `BSON field '${path}.${name}' is an unknown field.`);
    }
    checkField(`${path}.${name}`, name, value, type);
  }
  for (const name of spec.required ?? []) {
    if (doc[name] === undefined)
      throw new MongoCommandError(40414, `BSON field '${path}.${name}' is missing but a required field`);
  }
}

/** maxTimeMS, which every command takes: a non-negative whole number of milliseconds. */
function checkMaxTimeMS(value: unknown): void {
  if (value === undefined || value === null) return;
  if (!isNumber(value)) throw new MongoCommandError("BadValue", "maxTimeMS must be a number");
  const n = numberValue(value);
  if (!Number.isInteger(n)) throw new MongoCommandError("BadValue", `maxTimeMS has non-integral value`);
  if (n < 0 || n > 0x7fffffff)
    throw new MongoCommandError("BadValue", `${n} value for maxTimeMS is out of range [0, ${0x7fffffff}]`);
}

function notSupported(feature: string): MongoCommandError {
  return new MongoCommandError("IllegalOperation", `${feature} is not supported by the embedded server`);
}

/** Checks a command's fields as mongod 7.0 parses them; throws the error mongod answers. */
export function checkCommandFields(cmd: Doc): void {
  const name = Object.keys(cmd)[0] ?? "";
  checkMaxTimeMS(cmd.maxTimeMS);
  const spec = COMMANDS[name];
  if (!spec) return;
  const fields = Object.keys(cmd).slice(1);
  const body: Doc = {};
  for (const f of fields) body[f] = cmd[f];
  checkDoc(name === "findandmodify" ? "findAndModify" : name, body, spec, true);

  switch (name) {
    case "find":
      if (cmd.awaitData === true && cmd.tailable !== true)
        throw new MongoCommandError("FailedToParse", "Cannot set 'awaitData' without also setting 'tailable'");
      if (cmd.tailable === true) {
        throw new MongoCommandError(
          "BadValue",
          "error processing query: tailable cursor requested on non capped collection (tailable cursors are not supported by the embedded server)",
        );
      }
      for (const option of ["min", "max"] as const) {
        if (isPlainObject(cmd[option]) && Object.keys(cmd[option] as Doc).length > 0)
          throw notSupported(`the find option '${option}'`);
      }
      for (const option of ["returnKey", "showRecordId"] as const)
        if (cmd[option] === true) throw notSupported(`the find option '${option}'`);
      break;
    case "aggregate":
      if (cmd.cursor !== undefined && !isPlainObject(cmd.cursor))
        throw new MongoCommandError("TypeMismatch", "cursor field must be missing or an object");
      if (isPlainObject(cmd.cursor)) {
        for (const [k, v] of Object.entries(cmd.cursor)) {
          if (k !== "batchSize") throw new MongoCommandError(40415, `BSON field 'cursor.${k}' is an unknown field.`);
          if (!isNumber(v)) throw new MongoCommandError("TypeMismatch", "cursor.batchSize must be a number");
          if (numberValue(v) < 0) throw new MongoCommandError("BadValue", "cursor.batchSize must not be negative");
        }
      }
      if (cmd.explain !== undefined && typeof cmd.explain !== "boolean")
        throw wrongType("aggregate.explain", cmd.explain, "bool");
      break;
    case "insert":
      for (const [i, doc] of (cmd.documents as unknown[]).entries()) {
        if (!isPlainObject(doc)) throw wrongType(`insert.documents.${i}`, doc, "object");
      }
      break;
    case "explain":
      if (!isPlainObject(cmd.explain)) throw wrongType("explain.explain", cmd.explain, "object");
      checkCommandFields(cmd.explain);
      break;
  }
}
