/** $bucket: a $group on the bucket each value falls in (boundaries and default checked as mongod does). */
import { compareValues, typeRank } from "../bson-order";
import { MongoCommandError } from "../errors";
import { type Compiled, compileExpression, type Vars } from "../expressions";
import { type Doc, isPlainObject } from "../values";
import { GroupStage } from "./group";
import { SortStage } from "./sort";
import type { Stage, StageFactory } from "./stage";

/** A constant of a $bucket specification: a literal or an expression that needs no document. */
function constantOf(value: unknown, vars: Vars): { ok: true; value: unknown } | { ok: false } {
  if (typeof value === "string" && value.startsWith("$") && !value.startsWith("$$")) return { ok: false };
  if (isPlainObject(value) && JSON.stringify(value).includes('"$') && !("$literal" in value)) {
    // An expression object: constant only when it reads no field.
    if (/"\$[^$]/.test(JSON.stringify(Object.values(value)))) return { ok: false };
  }
  try {
    return { ok: true, value: compileExpression(value)({}, vars) };
  } catch {
    return { ok: false };
  }
}

const TYPE_NAMES: Record<number, string> = {
  5: "null",
  10: "double",
  15: "string",
  20: "object",
  25: "array",
  30: "binData",
  35: "objectId",
  40: "bool",
  45: "date",
  47: "timestamp",
  50: "regex",
};

/** $bucket: a $group on the bucket each value falls in (lower bound inclusive), then a $sort on _id, as mongod runs it. */
function bucketStages(spec: unknown, vars: Vars): Stage[] {
  if (!isPlainObject(spec))
    throw new MongoCommandError(40201, `Argument to $bucket stage must be an object, but found type: ${typeof spec}.`);
  let groupBy: unknown;
  let boundaries: unknown[] | undefined;
  let hasDefault = false;
  let defaultValue: unknown;
  let output: Doc | undefined;
  for (const [name, arg] of Object.entries(spec)) {
    if (name === "groupBy") {
      const isExprObject = isPlainObject(arg) && Object.keys(arg).length > 0 && Object.keys(arg)[0].startsWith("$");
      const isPath = typeof arg === "string" && arg.startsWith("$");
      if (!isExprObject && !isPath)
        throw new MongoCommandError(
          40202,
          `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: ${JSON.stringify(arg)}.`,
        );
      groupBy = arg;
    } else if (name === "boundaries") {
      if (!Array.isArray(arg))
        throw new MongoCommandError(
          40200,
          `The $bucket 'boundaries' field must be an array, but found type: ${typeof arg}.`,
        );
      boundaries = arg.map((b) => {
        const c = constantOf(b, vars);
        if (!c.ok)
          throw new MongoCommandError(
            40191,
            `The $bucket 'boundaries' field must be an array of constant values, but found value: ${JSON.stringify(b)}.`,
          );
        return c.value;
      });
      if (boundaries.length < 2)
        throw new MongoCommandError(
          40192,
          `The $bucket 'boundaries' field must have at least 2 values, but found ${boundaries.length} value(s).`,
        );
      for (let i = 1; i < boundaries.length; i++) {
        const lower = boundaries[i - 1];
        const upper = boundaries[i];
        if (typeRank(lower) !== typeRank(upper)) {
          throw new MongoCommandError(
            40193,
            `All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types ${TYPE_NAMES[typeRank(lower)] ?? "?"} and ${TYPE_NAMES[typeRank(upper)] ?? "?"}.`,
          );
        }
        if (!(compareValues(lower, upper) < 0)) {
          throw new MongoCommandError(
            40194,
            `The 'boundaries' option to $bucket must be sorted, but elements ${i - 1} and ${i} are not in ascending order (${String(lower)} is not less than ${String(upper)}).`,
          );
        }
      }
    } else if (name === "default") {
      const c = constantOf(arg, vars);
      if (!c.ok)
        throw new MongoCommandError(
          40195,
          `The $bucket 'default' field must be a constant expression, but found: ${JSON.stringify(arg)}.`,
        );
      hasDefault = true;
      defaultValue = c.value;
    } else if (name === "output") {
      if (!isPlainObject(arg))
        throw new MongoCommandError(
          40196,
          `The $bucket 'output' field must be an object, but found type: ${typeof arg}.`,
        );
      output = arg;
    } else {
      throw new MongoCommandError(40197, `Unrecognized option to $bucket: ${name}.`);
    }
  }
  if (groupBy === undefined || !boundaries)
    throw new MongoCommandError(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.");
  const bounds = boundaries;
  if (hasDefault && typeRank(defaultValue) === typeRank(bounds[0])) {
    const valid =
      compareValues(defaultValue, bounds[0]) < 0 || compareValues(defaultValue, bounds[bounds.length - 1]) >= 0;
    if (!valid)
      throw new MongoCommandError(
        40199,
        "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.",
      );
  }
  const key = compileExpression(groupBy);
  const bucketOf: Compiled = (doc, v) => {
    const value = key(doc, v) ?? null;
    // Past the last boundary or before the first, only the default takes it; within, the bucket whose lower bound it reaches.
    if (compareValues(value, bounds[0]) >= 0 && compareValues(value, bounds[bounds.length - 1]) < 0) {
      let lo = 0;
      let hi = bounds.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (compareValues(value, bounds[mid]) >= 0) lo = mid;
        else hi = mid;
      }
      return bounds[lo];
    }
    if (hasDefault) return defaultValue;
    throw new MongoCommandError(
      40066,
      "$switch could not find a matching branch for an input, and no default was specified.",
    );
  };
  const groupSpec: Doc = output ? { ...output } : { count: { $sum: 1 } };
  return [new GroupStage(groupSpec, vars, bucketOf), new SortStage([["_id", 1]], undefined)];
}

export const bucketStage: StageFactory = ({ arg, vars }) => bucketStages(arg, vars);
