/**
 * The accumulators of $group, $bucket and $bucketAuto, compiled once: the common ones run natively, any other
 * ($stdDevPop, $mergeObjects, $top, …) through mingo over the group's documents.
 */
import * as accumulatorOps from "mingo/operators/accumulator";
import { compareValues } from "../bson-order";
import { MongoCommandError, toCommandError } from "../errors";
import { type Compiled, compileExpression, MINGO_OPTIONS, type Vars } from "../expressions";
import { type Doc, isPlainObject, keyOf } from "../values";

export type Accumulator = {
  field: string;
  init(): unknown;
  step(state: unknown, doc: Doc, vars: Vars): unknown;
  finish(state: unknown): unknown;
};

export function compileAccumulator(field: string, spec: unknown): Accumulator {
  if (!isPlainObject(spec) || Object.keys(spec).length !== 1) {
    throw new MongoCommandError("FailedToParse", `The field '${field}' must be an accumulator object`);
  }
  const op = Object.keys(spec)[0];
  const arg = spec[op];
  const expr: Compiled = op === "$count" ? () => 1 : compileExpression(arg);
  switch (op) {
    case "$sum":
    case "$count": {
      if (typeof arg === "number" || op === "$count") {
        const k = op === "$count" ? 1 : (arg as number);
        return { field, init: () => 0, step: (s) => (s as number) + k, finish: (s) => s };
      }
      const top = topLevelField(arg);
      if (top !== undefined) {
        // "$field": read the property itself (one call less per document).
        return {
          field,
          init: () => 0,
          step: (s, doc) => {
            const v = doc[top];
            return typeof v === "number" ? (s as number) + v : s;
          },
          finish: (s) => s,
        };
      }
      return {
        field,
        init: () => 0,
        step: (s, doc, vars) => {
          const v = expr(doc, vars);
          return typeof v === "number" ? (s as number) + v : s;
        },
        finish: (s) => s,
      };
    }
    case "$avg":
      return {
        field,
        init: () => [0, 0],
        step: (s, doc, vars) => {
          const v = expr(doc, vars);
          if (typeof v === "number") {
            const st = s as [number, number];
            st[0] += v;
            st[1]++;
          }
          return s;
        },
        finish: (s) =>
          (s as [number, number])[1] === 0 ? null : (s as [number, number])[0] / (s as [number, number])[1],
      };
    case "$min":
    case "$max": {
      const better = op === "$min" ? (c: number) => c < 0 : (c: number) => c > 0;
      return {
        field,
        init: () => undefined,
        step: (s, doc, vars) => {
          const v = expr(doc, vars);
          if (v === undefined || v === null) return s;
          return s === undefined || better(compareValues(v, s)) ? v : s;
        },
        finish: (s) => (s === undefined ? null : s),
      };
    }
    case "$first":
      return {
        field,
        init: () => FIRST_UNSET,
        step: (s, doc, vars) => (s === FIRST_UNSET ? (expr(doc, vars) ?? null) : s),
        finish: (s) => (s === FIRST_UNSET ? null : s),
      };
    case "$last":
      return { field, init: () => null, step: (_s, doc, vars) => expr(doc, vars) ?? null, finish: (s) => s };
    case "$push":
      return {
        field,
        init: () => [],
        step: (s, doc, vars) => {
          const v = expr(doc, vars);
          if (v !== undefined) (s as unknown[]).push(v);
          return s;
        },
        finish: (s) => s,
      };
    case "$addToSet":
      return {
        field,
        init: () => new Map<string, unknown>(),
        step: (s, doc, vars) => {
          const v = expr(doc, vars);
          if (v !== undefined) {
            const k = keyOf(v);
            if (!(s as Map<string, unknown>).has(k)) (s as Map<string, unknown>).set(k, v);
          }
          return s;
        },
        finish: (s) => [...(s as Map<string, unknown>).values()],
      };
    default: {
      const fn = (
        accumulatorOps as unknown as Record<string, (docs: Doc[], expr: unknown, options: unknown) => unknown>
      )[op];
      if (typeof fn !== "function") throw new MongoCommandError("FailedToParse", `unknown group operator '${op}'`);
      // Other accumulators (e.g. $stdDevPop, $mergeObjects, $top): mingo over the group's documents.
      return {
        field,
        init: () => [],
        step: (s, doc) => {
          (s as Doc[]).push(doc);
          return s;
        },
        finish: (s) => {
          try {
            return fn(s as Doc[], arg, MINGO_OPTIONS);
          } catch (error) {
            throw toCommandError(error);
          }
        },
      };
    }
  }
}

const FIRST_UNSET = Symbol("unset");

/** The name in a "$name" field path without dots or variables (read as doc[name], the same value). */
export function topLevelField(expr: unknown): string | undefined {
  return typeof expr === "string" && expr.length > 1 && expr[0] === "$" && expr[1] !== "$" && !expr.includes(".")
    ? expr.slice(1)
    : undefined;
}
