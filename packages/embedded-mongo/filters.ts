/** Query filters compiled for commands: the fast matchers, mingo with MongoDB's exact embedded-document equality, and filters with `let` variables. */
import { Query } from "mingo";
import { toCommandError } from "./errors";
import { assertVariablesDefined, MINGO_OPTIONS, usesUserVariables, type Vars } from "./expressions";
import { fastMatcher } from "./fastpath";
import { type Doc, deepEqual, getPath, isPlainObject, pathValues } from "./values";

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
