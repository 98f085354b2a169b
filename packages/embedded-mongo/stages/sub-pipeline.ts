/** A $lookup or $unionWith sub-pipeline, run to completion with its variables. */
import { resolvePath, usesUserVariables } from "../expressions";
import { planQuery } from "../planner/choose";
import type { Collection } from "../storage/collection";
import { type Doc, isPlainObject } from "../values";
import { matchTest } from "./match";
import { splitPrefix } from "./prefix";
import { drainSync } from "./query";
import { type ChainBuilder, Collector, notablescanOf, type PipelineEnv } from "./stage";

/** Runs a $lookup sub-pipeline to completion (no yields inside a stage), with its variables. */
export function runSubPipeline(
  buildChain: ChainBuilder,
  env: PipelineEnv,
  coll: Collection | undefined,
  pipeline: Doc[],
  vars: Record<string, unknown>,
  input?: Doc[],
): Doc[] {
  const sink = new Collector();
  let docs: Doc[];
  let rest = pipeline;
  if (input) docs = input;
  else {
    // The leading $match, $sort, $skip and $limit go to the planner, as a top-level pipeline's do (an index gives
    // the order and the read stops at skip + limit); the $match's $expr equalities on variables become plain
    // conditions the planner can use.
    const prefix = splitPrefix(pipeline);
    const filter = prefix.filter;
    rest = prefix.rest;
    const planned = usesUserVariables(filter) ? substituteExprEqualities(filter, vars) : filter;
    if (!coll) docs = [];
    else {
      const q = planQuery(coll, coll.ns, planned, matchTest(filter, env, vars), {
        sort: prefix.sort,
        wanted: prefix.limit > 0 ? prefix.skip + prefix.limit : 0,
        notablescan: notablescanOf(env.params),
      });
      // Any part of the filter the plan tests on its own is matched with the sub-pipeline's variables too.
      docs = drainSync({ ...env, compile: (f) => matchTest(f, env, vars) }, coll, q, prefix.limit, prefix.skip);
    }
  }
  const head = buildChain(rest, { ...env, writable: false }, vars, sink);
  for (const d of docs) if (!head.push(d)) break;
  head.end();
  return sink.docs;
}

/** { $expr: { $eq: ["$field", "$$var"] } } with the variable known → also { field: value } (index bounds). */
function substituteExprEqualities(filter: Doc, vars: Record<string, unknown>): Doc {
  const extra: Doc[] = [];
  const visit = (expr: unknown) => {
    if (!isPlainObject(expr)) return;
    if (Array.isArray(expr.$and)) for (const part of expr.$and) visit(part);
    if (Array.isArray(expr.$eq) && expr.$eq.length === 2) {
      const [a, b] = expr.$eq as unknown[];
      const pick = (field: unknown, variable: unknown) => {
        if (typeof field !== "string" || !field.startsWith("$") || field.startsWith("$$")) return;
        if (typeof variable !== "string" || !variable.startsWith("$$")) return;
        const [name, ...path] = variable.slice(2).split(".");
        if (!(name in vars)) return;
        const value = path.length ? resolvePath(vars[name], path) : vars[name];
        if (value === undefined || Array.isArray(value) || isPlainObject(value)) return;
        extra.push({ [field.slice(1)]: value });
      };
      pick(a, b);
      pick(b, a);
    }
  };
  visit(filter.$expr);
  if (extra.length === 0) return filter;
  return { $and: [filter, ...extra] };
}
