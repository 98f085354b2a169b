/**
 * Reading and checking a command's arguments: the collection it names, typed fields, cursor options, `let`
 * variables, collations (refused) and the _id of a document to store.
 */
import { Long } from "bson";
import { MongoCommandError } from "./errors";
import { compileExpression, type Vars } from "./expressions";
import { DEFAULT_BATCH } from "./limits";
import { assertSupportedValues, type Doc, isPlainObject } from "./values";

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
