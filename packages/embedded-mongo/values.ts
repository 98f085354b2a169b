/**
 * Value helpers shared by the storage engine: canonical keys for index and _id
 * lookups, cloning, equality, dotted-path reads and the type guard that keeps
 * values mingo cannot compare correctly out of the engine.
 */
import { EJSON, type ObjectId } from "bson";
import { MongoCommandError } from "./errors";
import { hexOfWords, isPacked } from "./object-id";

export type Doc = Record<string, unknown>;

function bsonType(value: object): string | undefined {
  const t = (value as { _bsontype?: unknown })._bsontype;
  return typeof t === "string" ? t : undefined;
}

export function isPlainObject(value: unknown): value is Doc {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A string that is equal for two values exactly when MongoDB considers them
 * equal (numbers of any width compare by value; documents by field order).
 * Inside an array or a document each value's key is preceded by its length,
 * so a string holding the separators cannot read as several values.
 */
function inner(value: unknown): string {
  const key = keyOf(value);
  return `${key.length}:${key}`;
}

export function keyOf(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "z";
    case "number":
      return Number.isNaN(value) ? "nNaN" : `n${value === 0 ? 0 : value}`;
    case "string":
      return `s${value}`;
    case "boolean":
      return value ? "b1" : "b0";
    case "bigint":
      return `n${value}`;
    case "object": {
      if (value === null) return "z";
      if (value instanceof Date) return `d${value.getTime()}`;
      if (Array.isArray(value)) {
        let out = "a[";
        for (const v of value) out += inner(v);
        return `${out}]`;
      }
      const t = bsonType(value);
      if (t === "ObjectId")
        return isPacked(value)
          ? hexOfWords(value.w0, value.w1, value.w2, 0x6f /* o */)
          : `o${(value as ObjectId).toHexString()}`;
      if (t === "Int32" || t === "Double") return `n${(value as { value: number }).value}`;
      if (t === "Long") return `n${value.toString()}`;
      if (t !== undefined) return `x${t}:${EJSON.stringify(value as never, { relaxed: false })}`;
      if (value instanceof RegExp) return `r${value.source}/${value.flags}`;
      let out = "{";
      for (const [k, v] of Object.entries(value)) out += `${JSON.stringify(k)}:${inner(v)}`;
      return `${out}}`;
    }
    default:
      return `?${String(value)}`;
  }
}

/**
 * A new document holding only `_id`, for the caller to add the other fields to. Built on {} rather than written as
 * { _id }: V8 turns an object from a one-key literal into a dictionary (a hash table, far more memory and slower to
 * read) from its 16th key on, one from {} only from its 20th. A stored planning row has 18.
 */
export function docWithId(id: unknown): Doc {
  const out: Doc = {};
  out._id = id;
  return out;
}

/** Deep copy of documents and arrays; BSON value objects are immutable and shared. */
export function cloneDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDeep) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (isPlainObject(value)) {
    const out: Doc = {};
    for (const k in value) out[k] = cloneDeep(value[k]);
    return out as T;
  }
  return value;
}

/** Strict structural equality (field order matters, as in BSON). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") {
    return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i] || !deepEqual(a[ka[i]], b[kb[i]])) return false;
    }
    return true;
  }
  return keyOf(a) === keyOf(b);
}

/**
 * The values a dotted path reaches in a document, expanding arrays on the way
 * like a multikey index does. A missing field yields [undefined].
 */
export function pathValues(doc: unknown, path: string): unknown[] {
  const parts = path.split(".");
  let current: unknown[] = [doc];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const value of current) {
      if (Array.isArray(value)) {
        if (/^\d+$/.test(part)) {
          next.push(value[Number(part)]);
        } else {
          for (const item of value) if (isPlainObject(item)) next.push(item[part]);
        }
      } else if (isPlainObject(value)) {
        next.push(value[part]);
      }
    }
    current = next;
  }
  const out: unknown[] = [];
  for (const value of current) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value);
    }
  }
  return out.length === 0 ? [undefined] : out;
}

/** The value of a dotted path without array expansion (undefined when absent). */
export function getPath(doc: unknown, path: string): unknown {
  let current: unknown = doc;
  for (const part of path.split(".")) {
    if (Array.isArray(current) && /^\d+$/.test(part)) current = current[Number(part)];
    else if (isPlainObject(current)) current = current[part];
    else return undefined;
  }
  return current;
}

/**
 * mingo compares Decimal128 and 64-bit integers beyond 2^53 as opaque objects,
 * which would give wrong answers. Refuse them with BadValue instead.
 */
export function assertSupportedValues(value: unknown, what: string, path = ""): void {
  // The common case (nothing unsupported) builds no path strings; the path is found only on failure.
  const found = findUnsupported(value);
  if (found === undefined) return;
  const [type, relative] = found;
  const full = path && relative ? `${path}.${relative}` : path || relative;
  throw unsupported(type, what, full);
}

/** The first unsupported value's type and dotted path, or undefined when there is none. */
function findUnsupported(value: unknown): [string, string] | undefined {
  if (value === null || typeof value !== "object") {
    return typeof value === "bigint" ? ["64-bit integer beyond 2^53", ""] : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === null || (typeof item !== "object" && typeof item !== "bigint")) continue;
      const found = findUnsupported(item);
      if (found) return [found[0], found[1] ? `${i}.${found[1]}` : String(i)];
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const k in value) {
      const item = value[k];
      if (item === null || (typeof item !== "object" && typeof item !== "bigint")) continue;
      const found = findUnsupported(item);
      if (found) return [found[0], found[1] ? `${k}.${found[1]}` : k];
    }
    return undefined;
  }
  const t = bsonType(value);
  if (t === "Decimal128") return ["Decimal128", ""];
  if (t === "Long") return ["64-bit integer beyond 2^53", ""];
  return undefined;
}

function unsupported(type: string, what: string, path: string): MongoCommandError {
  return new MongoCommandError(
    "BadValue",
    `${type} values are not supported by the embedded MongoDB server (in ${what}${path ? ` at '${path}'` : ""}): ` +
      "its query engine cannot compare them exactly. Store a double, a 32/64-bit integer within 2^53, or a string.",
  );
}

/** Renders a value the way mongod prints it in an E11000 message. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(", ")} ]`;
  if (typeof value === "object") {
    const t = bsonType(value);
    if (t === "ObjectId") return `ObjectId('${(value as ObjectId).toHexString()}')`;
    if (t !== undefined) return EJSON.stringify(value as never);
    const entries = Object.entries(value as Doc).map(([k, v]) => `${k}: ${formatValue(v)}`);
    return entries.length ? `{ ${entries.join(", ")} }` : "{}";
  }
  return String(value);
}
