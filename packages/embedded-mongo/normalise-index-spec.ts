/**
 * A createIndexes entry checked and normalised into an IndexSpec (ordered keys here, text keys by text.ts). It is
 * not in index-spec.ts because text.ts imports index-spec.ts: calling normaliseTextIndexSpec from there would be a
 * cycle.
 */
import { MongoCommandError } from "./errors";
import type { IndexSpec } from "./index-spec";
import { normaliseTextIndexSpec } from "./text";
import { assertSupportedValues, isPlainObject } from "./values";

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
