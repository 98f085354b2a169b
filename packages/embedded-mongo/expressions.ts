/**
 * Aggregation expressions compiled once per stage into plain functions. The
 * shapes charts and pages use every row (field paths, literals, documents of
 * expressions, $cond, comparisons, boolean and arithmetic operators, $ifNull)
 * run natively; anything else is evaluated by mingo's operators, so the
 * semantics stay mingo's where we do not implement them ourselves.
 */
import { Context } from "mingo";
import * as accumulatorOps from "mingo/operators/accumulator";
import * as expressionOps from "mingo/operators/expression";
import * as pipelineOps from "mingo/operators/pipeline";
import * as projectionOps from "mingo/operators/projection";
import * as queryOps from "mingo/operators/query";
import { compareValues } from "./bson-order";
import { MongoCommandError, toCommandError } from "./errors";
import { type Doc, isPlainObject } from "./values";

/** Variables visible to an expression ($$name); ROOT and CURRENT are the document. */
export type Vars = Record<string, unknown> | undefined;
export type Compiled = (doc: Doc, vars?: Vars) => unknown;

/** Options for mingo's operators (the same operator set the `mingo` entry point uses). */
export const MINGO_OPTIONS = {
  idKey: "_id",
  scriptEnabled: false,
  useStrictMode: true,
  failOnError: true,
  processingMode: 0,
  context: Context.init({
    accumulator: accumulatorOps as never,
    expression: expressionOps as never,
    pipeline: pipelineOps as never,
    projection: projectionOps as never,
    query: queryOps as never,
  }),
} as const;

const letOp = (expressionOps as unknown as Record<string, (obj: unknown, expr: unknown, options: unknown) => unknown>)
  .$let;

/** Metadata of documents flowing through a query ($meta: "textScore"). */
export const textScores = new WeakMap<object, number>();

function literalVars(vars: Vars): Doc {
  const out: Doc = {};
  if (vars) for (const [k, v] of Object.entries(vars)) out[k] = { $literal: v };
  return out;
}

function mingoEval(expr: unknown): Compiled {
  return (doc, vars) => {
    try {
      return letOp(doc, { vars: literalVars(vars), in: expr }, MINGO_OPTIONS);
    } catch (error) {
      throw toCommandError(error);
    }
  };
}

/** The value at a dotted path, arrays expanded into arrays of values (MongoDB's field path semantics). */
export function resolvePath(value: unknown, parts: string[], i = 0): unknown {
  if (i === parts.length) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (Array.isArray(item)) {
        const r = resolvePath(item, parts, i);
        if (r !== undefined) out.push(r);
      } else if (isPlainObject(item)) {
        const r = resolvePath(item[parts[i]], parts, i + 1);
        if (r !== undefined) out.push(r);
      }
    }
    return out;
  }
  if (isPlainObject(value)) return resolvePath(value[parts[i]], parts, i + 1);
  return undefined;
}

function compilePath(path: string): Compiled {
  if (path.startsWith("$$")) {
    const [name, ...rest] = path.slice(2).split(".");
    if (name === "ROOT" || name === "CURRENT")
      return rest.length === 0 ? (doc) => doc : (doc) => resolvePath(doc, rest);
    if (name === "REMOVE") return () => undefined;
    if (name === "NOW") return () => new Date();
    return (_doc, vars) => {
      if (!vars || !(name in vars)) throw new MongoCommandError(17276, `Use of undefined variable: ${name}`);
      return rest.length === 0 ? vars[name] : resolvePath(vars[name], rest);
    };
  }
  const parts = path.slice(1).split(".");
  if (parts.length === 1) {
    const f = parts[0];
    return (doc) => doc[f];
  }
  return (doc) => resolvePath(doc, parts);
}

const truthy = (v: unknown) => !(v === false || v === null || v === undefined || v === 0);

const COMPARISONS: Record<string, (c: number) => boolean> = {
  $eq: (c) => c === 0,
  $ne: (c) => c !== 0,
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

export function compileExpression(expr: unknown): Compiled {
  if (typeof expr === "string") {
    if (expr.startsWith("$")) return compilePath(expr);
    return () => expr;
  }
  if (Array.isArray(expr)) {
    const items = expr.map(compileExpression);
    return (doc, vars) => items.map((f) => f(doc, vars));
  }
  if (!isPlainObject(expr)) return () => expr;
  const keys = Object.keys(expr);
  if (keys.length === 0) return () => ({});
  if (keys[0].startsWith("$")) {
    if (keys.length !== 1) {
      throw new MongoCommandError(
        "FailedToParse",
        `an expression specification must contain exactly one field, the name of the expression. Found ${keys.length} fields in ${JSON.stringify(expr)}`,
      );
    }
    return compileOperator(keys[0], expr[keys[0]]) ?? mingoEval(expr);
  }
  const fields = keys.map((k) => [k, compileExpression(expr[k])] as const);
  return (doc, vars) => {
    const out: Doc = {};
    for (const [k, f] of fields) {
      const v = f(doc, vars);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
}

function args(arg: unknown): Compiled[] {
  return (Array.isArray(arg) ? arg : [arg]).map(compileExpression);
}

function compileOperator(op: string, arg: unknown): Compiled | undefined {
  switch (op) {
    case "$literal":
      return () => arg;
    case "$meta":
      if (arg === "textScore") return (doc) => textScores.get(doc);
      return undefined;
    case "$cond": {
      let parts: unknown[];
      if (Array.isArray(arg) && arg.length === 3) parts = arg;
      else if (isPlainObject(arg) && "if" in arg && "then" in arg && "else" in arg)
        parts = [arg.if, arg.then, arg.else];
      else return undefined;
      const [c, t, e] = parts.map(compileExpression);
      return (doc, vars) => (truthy(c(doc, vars)) ? t(doc, vars) : e(doc, vars));
    }
    case "$ifNull": {
      if (!Array.isArray(arg) || arg.length < 2) return undefined;
      const items = arg.map(compileExpression);
      return (doc, vars) => {
        for (let i = 0; i < items.length - 1; i++) {
          const v = items[i](doc, vars);
          if (v !== null && v !== undefined) return v;
        }
        return items[items.length - 1](doc, vars);
      };
    }
    case "$and": {
      const items = args(arg);
      return (doc, vars) => items.every((f) => truthy(f(doc, vars)));
    }
    case "$or": {
      const items = args(arg);
      return (doc, vars) => items.some((f) => truthy(f(doc, vars)));
    }
    case "$not": {
      const [f] = args(arg);
      return (doc, vars) => !truthy(f(doc, vars));
    }
    case "$eq":
    case "$ne":
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte": {
      if (!Array.isArray(arg) || arg.length !== 2) return undefined;
      const [a, b] = arg.map(compileExpression);
      const test = COMPARISONS[op];
      // Missing compares as null in expressions.
      return (doc, vars) => test(compareValues(a(doc, vars) ?? null, b(doc, vars) ?? null));
    }
    case "$add": {
      const items = args(arg);
      return (doc, vars) => {
        let sum = 0;
        let date: Date | undefined;
        for (const f of items) {
          const v = f(doc, vars);
          if (v === null || v === undefined) return null;
          if (v instanceof Date) date = v;
          else if (typeof v === "number") sum += v;
          else return mingoEval({ $add: arg })(doc, vars);
        }
        return date ? new Date(date.getTime() + sum) : sum;
      };
    }
    case "$multiply": {
      const items = args(arg);
      return (doc, vars) => {
        let product = 1;
        for (const f of items) {
          const v = f(doc, vars);
          if (v === null || v === undefined) return null;
          if (typeof v !== "number") return mingoEval({ $multiply: arg })(doc, vars);
          product *= v;
        }
        return product;
      };
    }
    case "$floor":
    case "$ceil": {
      const [a] = args(arg);
      if (Array.isArray(arg) && arg.length !== 1) return undefined;
      const slow = mingoEval({ [op]: arg });
      const round = op === "$floor" ? Math.floor : Math.ceil;
      return (doc, vars) => {
        const x = a(doc, vars);
        if (x === null || x === undefined) return null;
        if (typeof x !== "number") return slow(doc, vars);
        return round(x);
      };
    }
    case "$min":
    case "$max": {
      // The list form (the one-argument form takes the extreme of an array's elements: mingo's).
      if (!Array.isArray(arg) || arg.length === 0) return undefined;
      const items = args(arg);
      const sign = op === "$min" ? -1 : 1;
      return (doc, vars) => {
        let best: unknown = null;
        for (const f of items) {
          const v = f(doc, vars);
          if (v === null || v === undefined) continue;
          if (best === null || compareValues(v, best) * sign > 0) best = v;
        }
        return best;
      };
    }
    case "$subtract":
    case "$divide": {
      if (!Array.isArray(arg) || arg.length !== 2) return undefined;
      const [a, b] = arg.map(compileExpression);
      const slow = mingoEval({ [op]: arg });
      return (doc, vars) => {
        const x = a(doc, vars);
        const y = b(doc, vars);
        if (x === null || x === undefined || y === null || y === undefined) return null;
        if (typeof x !== "number" || typeof y !== "number") return slow(doc, vars);
        if (op === "$divide") {
          if (y === 0) throw new MongoCommandError("BadValue", "can't $divide by zero");
          return x / y;
        }
        return x - y;
      };
    }
    case "$dateToString": {
      // UTC and the common specifiers natively (charts group by day or month); anything else through mingo.
      if (
        !isPlainObject(arg) ||
        (arg.timezone !== undefined && !["UTC", "Z", "+00:00", "GMT"].includes(String(arg.timezone)))
      )
        return undefined;
      const format = arg.format === undefined ? "%Y-%m-%dT%H:%M:%S.%LZ" : arg.format;
      if (typeof format !== "string" || /%[^YmdHMSLj%]/.test(format)) return undefined;
      const date = compileExpression(arg.date);
      const onNull = arg.onNull === undefined ? () => null : compileExpression(arg.onNull);
      const slow = mingoEval({ $dateToString: arg });
      const pad = (n: number, w = 2) => String(n).padStart(w, "0");
      return (doc, vars) => {
        const d = date(doc, vars);
        if (d === null || d === undefined) return onNull(doc, vars);
        if (!(d instanceof Date)) return slow(doc, vars);
        return format.replace(/%([YmdHMSLj%])/g, (_m, c: string) => {
          switch (c) {
            case "Y":
              return pad(d.getUTCFullYear(), 4);
            case "m":
              return pad(d.getUTCMonth() + 1);
            case "d":
              return pad(d.getUTCDate());
            case "H":
              return pad(d.getUTCHours());
            case "M":
              return pad(d.getUTCMinutes());
            case "S":
              return pad(d.getUTCSeconds());
            case "L":
              return pad(d.getUTCMilliseconds(), 3);
            case "j":
              return pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3);
            default:
              return "%";
          }
        });
      };
    }
    default:
      return undefined;
  }
}

/** True when an expression refers to $$variables other than the system ones (correlated sub-pipelines). */
export function usesUserVariables(value: unknown): boolean {
  if (typeof value === "string") {
    if (!value.startsWith("$$")) return false;
    const name = value.slice(2).split(".")[0];
    return !["ROOT", "CURRENT", "REMOVE", "NOW", "CLUSTER_TIME", "SEARCH_META"].includes(name);
  }
  if (Array.isArray(value)) return value.some(usesUserVariables);
  if (isPlainObject(value)) return Object.values(value).some(usesUserVariables);
  return false;
}

const SYSTEM_VARIABLES = new Set([
  "ROOT",
  "CURRENT",
  "REMOVE",
  "NOW",
  "CLUSTER_TIME",
  "SEARCH_META",
  "USER_ROLES",
  "DESCEND",
  "PRUNE",
  "KEEP",
]);

/**
 * Refuses, as mongod does when it parses, a $$variable that neither the command's `let` nor an enclosing
 * $let / $map / $filter / $reduce defines (17276 "Use of undefined variable").
 */
export function assertVariablesDefined(value: unknown, vars: Vars, bound: Set<string> = new Set()): void {
  if (typeof value === "string") {
    if (!value.startsWith("$$")) return;
    const name = value.slice(2).split(".")[0];
    if (SYSTEM_VARIABLES.has(name) || bound.has(name) || (vars && name in vars)) return;
    throw new MongoCommandError(17276, `Use of undefined variable: ${name}`);
  }
  if (Array.isArray(value)) {
    for (const v of value) assertVariablesDefined(v, vars, bound);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, arg] of Object.entries(value)) {
    if (key === "$literal") continue;
    let inner = bound;
    if (isPlainObject(arg)) {
      const names: string[] = [];
      if (key === "$let" && isPlainObject(arg.vars)) names.push(...Object.keys(arg.vars));
      if (key === "$map" || key === "$filter") names.push(typeof arg.as === "string" ? arg.as : "this");
      if (key === "$reduce") names.push("value", "this");
      if (names.length > 0) inner = new Set([...bound, ...names]);
    }
    assertVariablesDefined(arg, vars, inner);
  }
}
