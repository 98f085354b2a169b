/** Update documents: classifying an update, computing new versions of documents, and an upsert's first fields. */
import { updateMany as mingoUpdateMany } from "mingo";
import { MongoCommandError, toCommandError } from "./errors";
import { compileFastUpdate } from "./fastpath";
import { compileUpdateStages } from "./stages/pipeline";
import { cloneDeep, type Doc, isPlainObject, keyOf } from "./values";

export function immutableId(id: unknown): MongoCommandError {
  return new MongoCommandError(
    "ImmutableField",
    `Performing an update on the path '_id' would modify the immutable field '_id' (document _id ${keyOf(id).slice(1)})`,
  );
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
