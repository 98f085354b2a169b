/**
 * Aggregation that streams: leading $match / $sort / $skip / $limit go to
 * the planner (so they use indexes and stop early), and every later stage
 * receives documents one at a time, never a copy of the collection. The
 * stages the portal's pages and charts use run natively with compiled
 * expressions ($match, $group, $sort (+ $limit as a top-k), $skip, $limit,
 * $count, $unwind, $addFields/$set, $replaceRoot/$replaceWith, $lookup through
 * the foreign collection's index, $facet, $sortByCount); $project and $unset
 * go through mingo in small chunks; any other stage falls back to mingo on
 * copies of its input. Stored documents are never handed to code that
 * could change them.
 */
import { Aggregator, Query } from "mingo";
import * as accumulatorOps from "mingo/operators/accumulator";
import { compareValues } from "./bson-order";
import { MongoCommandError, toCommandError } from "./errors";
import { drain, runFind, sortDocs, TopK, type ExecContext } from "./exec";
import { compileExpression, MINGO_OPTIONS, resolvePath, textScores, usesUserVariables, type Compiled, type Vars } from "./expressions";
import {
  compareDocs,
  normaliseSort,
  openSource,
  PAUSE,
  planQuery,
  type MatcherFactory,
  type PlannedQuery,
  type ScanStats,
  type SortSpec,
  type Source,
  withoutText,
} from "./planner";
import type { Catalog, Collection } from "./storage";
import { cloneDeep, isPlainObject, keyOf, pathValues, type Doc } from "./values";

export type ServerParams = { notablescan: boolean; notablescanMinDocuments: number };

export type PipelineEnv = {
  catalog: Catalog;
  db: string;
  ctx: ExecContext;
  compile: MatcherFactory;
  params: ServerParams;
  stats: ScanStats;
  /** Plans of the queries a command ran (explain, profiler). */
  plans: PlannedQuery[];
};

// ---------------------------------------------------------------------------------------------
// Stages

abstract class Stage {
  next!: Stage;
  /** Takes one document; false means no more input is wanted. */
  abstract push(doc: Doc): boolean;
  end(): void {
    this.next.end();
  }
}

class Collector extends Stage {
  readonly docs: Doc[] = [];
  push(doc: Doc): boolean {
    this.docs.push(doc);
    return true;
  }
  end(): void {}
}

class MatchStage extends Stage {
  constructor(private readonly test: (doc: Doc) => boolean) {
    super();
  }
  push(doc: Doc): boolean {
    return this.test(doc) ? this.next.push(doc) : true;
  }
}

class SkipStage extends Stage {
  constructor(private remaining: number) {
    super();
  }
  push(doc: Doc): boolean {
    if (this.remaining > 0) {
      this.remaining--;
      return true;
    }
    return this.next.push(doc);
  }
}

class LimitStage extends Stage {
  private left: number;
  constructor(limit: number) {
    super();
    this.left = limit;
  }
  push(doc: Doc): boolean {
    if (this.left <= 0) return false;
    this.left--;
    const more = this.next.push(doc);
    return more && this.left > 0;
  }
}

class SortStage extends Stage {
  private readonly all: Doc[] = [];
  private readonly top: TopK | undefined;
  constructor(
    private readonly sort: SortSpec,
    limit: number | undefined,
  ) {
    super();
    if (limit !== undefined) this.top = new TopK(sort, limit);
  }
  push(doc: Doc): boolean {
    if (this.top) this.top.push(doc);
    else this.all.push(doc);
    return true;
  }
  end(): void {
    let out: Doc[];
    if (this.top) out = this.top.result();
    else {
      const keys = this.all.map((d, i) => ({ d, i }));
      const cmp = docComparator(this.sort);
      keys.sort((a, b) => cmp(a.d, b.d) || a.i - b.i);
      out = keys.map((k) => k.d);
    }
    for (const d of out) if (!this.next.push(d)) break;
    this.next.end();
  }
}

function docComparator(sort: SortSpec): (a: Doc, b: Doc) => number {
  return (a, b) => compareDocs(a, b, sort);
}

class CountStage extends Stage {
  private n = 0;
  constructor(private readonly field: string) {
    super();
  }
  push(): boolean {
    this.n++;
    return true;
  }
  end(): void {
    if (this.n > 0) this.next.push({ [this.field]: this.n });
    this.next.end();
  }
}

type Accumulator = {
  field: string;
  init(): unknown;
  step(state: unknown, doc: Doc, vars: Vars): unknown;
  finish(state: unknown): unknown;
};

function compileAccumulator(field: string, spec: unknown): Accumulator {
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
        finish: (s) => ((s as [number, number])[1] === 0 ? null : (s as [number, number])[0] / (s as [number, number])[1]),
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
      const fn = (accumulatorOps as unknown as Record<string, (docs: Doc[], expr: unknown, options: unknown) => unknown>)[op];
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
function topLevelField(expr: unknown): string | undefined {
  return typeof expr === "string" && expr.length > 1 && expr[0] === "$" && expr[1] !== "$" && !expr.includes(".") ? expr.slice(1) : undefined;
}

class GroupStage extends Stage {
  private readonly idExpr: Compiled;
  private readonly idField: string | undefined;
  private readonly accs: Accumulator[];
  /** Groups found so far, in order; looked up by value for strings and numbers (no key to build per document), by keyOf otherwise. */
  private readonly order: { id: unknown; states: unknown[] }[] = [];
  private readonly byValue = new Map<string | number, { id: unknown; states: unknown[] }>();
  private readonly byKey = new Map<string, { id: unknown; states: unknown[] }>();
  constructor(
    spec: Doc,
    private readonly vars: Vars,
  ) {
    super();
    if (!("_id" in spec)) throw new MongoCommandError("FailedToParse", "a group specification must include an _id");
    this.idExpr = compileExpression(spec._id);
    this.idField = topLevelField(spec._id);
    this.accs = Object.entries(spec)
      .filter(([k]) => k !== "_id")
      .map(([k, v]) => {
        if (k.includes(".")) throw new MongoCommandError("FailedToParse", `The field name '${k}' cannot contain '.'`);
        return compileAccumulator(k, v);
      });
  }
  push(doc: Doc): boolean {
    let id = this.idField !== undefined ? doc[this.idField] : this.idExpr(doc, this.vars);
    if (id === undefined) id = null;
    const simple = typeof id === "string" || (typeof id === "number" && !Number.isNaN(id));
    const key = simple ? (id as string | number) : keyOf(id);
    const map = simple ? this.byValue : this.byKey;
    let g = map.get(key as never);
    if (!g) {
      g = { id, states: this.accs.map((a) => a.init()) };
      map.set(key as never, g);
      this.order.push(g);
    }
    const states = g.states;
    for (let i = 0; i < this.accs.length; i++) states[i] = this.accs[i].step(states[i], doc, this.vars);
    return true;
  }
  end(): void {
    for (const g of this.order) {
      const out: Doc = { _id: g.id };
      for (let i = 0; i < this.accs.length; i++) out[this.accs[i].field] = this.accs[i].finish(g.states[i]);
      if (!this.next.push(out)) break;
    }
    this.next.end();
  }
}

function setPathCopy(doc: Doc, parts: string[], value: unknown): Doc | undefined {
  const out: Doc = { ...doc };
  let target = out;
  for (let i = 0; i < parts.length - 1; i++) {
    const cur = target[parts[i]];
    if (Array.isArray(cur)) return undefined; // array semantics: let mingo do it
    const copy: Doc = isPlainObject(cur) ? { ...cur } : {};
    target[parts[i]] = copy;
    target = copy;
  }
  const last = parts[parts.length - 1];
  if (value === undefined) delete target[last];
  else target[last] = value;
  return out;
}

/** Flattens nested $addFields specs ({ a: { b: expr } } → "a.b") while keeping expression objects whole. */
function flattenAddFields(spec: Doc, prefix = ""): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(spec)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length > 0 && !Object.keys(v)[0].startsWith("$")) out.push(...flattenAddFields(v, path));
    else out.push([path, v]);
  }
  return out;
}

class AddFieldsStage extends Stage {
  private readonly fields: [string[], Compiled][];
  private readonly fallback: Aggregator;
  constructor(
    private readonly spec: Doc,
    private readonly vars: Vars,
    op: string,
  ) {
    super();
    this.fields = flattenAddFields(spec).map(([path, expr]) => [path.split("."), compileExpression(expr)]);
    this.fallback = new Aggregator([{ [op]: spec }], MINGO_OPTIONS as never);
  }
  push(doc: Doc): boolean {
    let out: Doc | undefined = doc;
    for (const [parts, expr] of this.fields) {
      out = setPathCopy(out, parts, expr(doc, this.vars));
      if (!out) break;
    }
    if (!out) {
      try {
        out = this.fallback.run([cloneDeep(doc)])[0] as Doc;
      } catch (error) {
        throw toCommandError(error);
      }
    }
    const score = textScores.get(doc);
    if (score !== undefined) textScores.set(out, score);
    return this.next.push(out);
  }
}

/** $project / $unset through mingo, a chunk at a time ($meta: "textScore" fields added here). */
class ChunkedMingoStage extends Stage {
  private buffer: Doc[] = [];
  private readonly aggregator: Aggregator | undefined;
  private readonly metaFields: string[] = [];
  private stopped = false;
  constructor(op: string, spec: unknown) {
    super();
    let stageSpec = spec;
    if (op === "$project" && isPlainObject(spec)) {
      const rest: Doc = {};
      for (const [k, v] of Object.entries(spec)) {
        if (isPlainObject(v) && v.$meta === "textScore") this.metaFields.push(k);
        else rest[k] = v;
      }
      stageSpec = rest;
      if (Object.keys(rest).length === 0) stageSpec = undefined;
    }
    if (stageSpec !== undefined) this.aggregator = new Aggregator([{ [op]: stageSpec }], MINGO_OPTIONS as never);
  }
  push(doc: Doc): boolean {
    if (this.stopped) return false;
    this.buffer.push(doc);
    if (this.buffer.length >= 256) return this.flush();
    return true;
  }
  private flush(): boolean {
    const chunk = this.buffer;
    this.buffer = [];
    if (chunk.length === 0) return !this.stopped;
    let out: Doc[];
    try {
      out = this.aggregator ? (this.aggregator.run(chunk) as Doc[]) : chunk.map((d) => ("_id" in d ? { _id: d._id } : {}));
    } catch (error) {
      throw toCommandError(error);
    }
    for (let i = 0; i < out.length; i++) {
      const score = textScores.get(chunk[i]);
      let o = out[i];
      if (this.metaFields.length > 0) {
        o = { ...o };
        for (const f of this.metaFields) o[f] = score ?? 0;
      }
      if (score !== undefined) textScores.set(o, score);
      if (!this.next.push(o)) {
        this.stopped = true;
        return false;
      }
    }
    return true;
  }
  end(): void {
    this.flush();
    this.next.end();
  }
}

class UnwindStage extends Stage {
  private readonly parts: string[];
  constructor(path: string) {
    super();
    if (!path.startsWith("$")) throw new MongoCommandError("FailedToParse", "path option to $unwind stage should be prefixed with a '$'");
    this.parts = path.slice(1).split(".");
  }
  push(doc: Doc): boolean {
    let v: unknown = doc;
    for (const p of this.parts) v = isPlainObject(v) ? v[p] : undefined;
    if (v === undefined || v === null) return true;
    if (!Array.isArray(v)) return this.next.push(doc);
    for (const item of v) {
      const out = setPathCopy(doc, this.parts, item);
      if (out && !this.next.push(out)) return false;
    }
    return true;
  }
}

class ReplaceRootStage extends Stage {
  constructor(
    private readonly expr: Compiled,
    private readonly vars: Vars,
  ) {
    super();
  }
  push(doc: Doc): boolean {
    const out = this.expr(doc, this.vars);
    if (!isPlainObject(out)) {
      throw new MongoCommandError("BadValue", `'newRoot' expression must evaluate to an object, but resulting value was: ${JSON.stringify(out ?? null)}`);
    }
    return this.next.push(out);
  }
}

class FacetStage extends Stage {
  private readonly facets: { name: string; head: Stage; sink: Collector; open: boolean }[];
  constructor(spec: Doc, env: PipelineEnv, vars: Vars) {
    super();
    this.facets = Object.entries(spec).map(([name, sub]) => {
      if (!Array.isArray(sub)) throw new MongoCommandError("TypeMismatch", `arguments to $facet must be arrays, ${name} is type ${typeof sub}`);
      const sink = new Collector();
      const head = buildChain(sub as Doc[], env, vars, sink);
      return { name, head, sink, open: true };
    });
  }
  push(doc: Doc): boolean {
    let any = false;
    for (const f of this.facets) {
      if (!f.open) continue;
      f.open = f.head.push(doc);
      any ||= f.open;
    }
    return true || any;
  }
  end(): void {
    const out: Doc = {};
    for (const f of this.facets) {
      f.head.end();
      out[f.name] = f.sink.docs;
    }
    this.next.push(out);
    this.next.end();
  }
}

class LookupStage extends Stage {
  private readonly foreign: Collection | undefined;
  private readonly as: string[];
  private readonly localField?: string;
  private readonly foreignField?: string;
  private readonly letExprs: [string, Compiled][];
  private readonly pipeline?: Doc[];
  private uncorrelated: Doc[] | undefined;
  private hashJoin: Map<string, Doc[]> | undefined;
  private readonly useIndex: boolean;

  constructor(
    spec: Doc,
    private readonly env: PipelineEnv,
    private readonly vars: Vars,
  ) {
    super();
    if (typeof spec.from !== "string") throw new MongoCommandError("FailedToParse", "$lookup needs a 'from' collection");
    if (typeof spec.as !== "string") throw new MongoCommandError("FailedToParse", "must specify 'as' field for a $lookup");
    this.foreign = env.catalog.getCollection(env.db, spec.from);
    this.as = spec.as.split(".");
    if (spec.localField !== undefined || spec.foreignField !== undefined) {
      if (typeof spec.localField !== "string" || typeof spec.foreignField !== "string") {
        throw new MongoCommandError("FailedToParse", "$lookup needs both 'localField' and 'foreignField'");
      }
      this.localField = spec.localField;
      this.foreignField = spec.foreignField;
    }
    this.letExprs = isPlainObject(spec.let) ? Object.entries(spec.let).map(([k, v]) => [k, compileExpression(v)]) : [];
    if (spec.pipeline !== undefined) {
      if (!Array.isArray(spec.pipeline)) throw new MongoCommandError("FailedToParse", "$lookup 'pipeline' must be an array");
      this.pipeline = spec.pipeline as Doc[];
    }
    if (!this.pipeline && !this.localField) throw new MongoCommandError("FailedToParse", "$lookup needs 'localField'/'foreignField' or a 'pipeline'");
    // The foreign side is read through an index on foreignField; without one (and with notablescan) it is refused.
    if (this.foreignField && this.foreign) {
      const probe = planQuery(this.foreign, this.foreign.ns, { [this.foreignField]: { $in: [null] } }, () => true, { notablescan: notablescanOf(env.params) });
      this.useIndex = probe.plan.kind !== "collscan";
    } else this.useIndex = false;
  }

  private matchesFor(doc: Doc): Doc[] {
    if (!this.foreign) return [];
    const local = pathValues(doc, this.localField!);
    const values = local.map((v) => (v === undefined ? null : v));
    if (this.foreignField === "_id" && values.every((v) => v !== null && !Array.isArray(v) && !isPlainObject(v))) {
      // The _id index answers an equality at once.
      const out: Doc[] = [];
      const seen = new Set<string>();
      for (const v of values) {
        const k = keyOf(v);
        const found = this.foreign.docs.get(k);
        if (found && !seen.has(k)) {
          seen.add(k);
          out.push(found);
        }
      }
      this.env.stats.keysExamined += values.length;
      return out;
    }
    if (!this.useIndex) {
      if (!this.hashJoin) {
        this.hashJoin = new Map();
        for (const f of this.foreign.docs.values()) {
          for (const v of pathValues(f, this.foreignField!)) {
            const k = keyOf(v === undefined ? null : v);
            const list = this.hashJoin.get(k) ?? [];
            list.push(f);
            this.hashJoin.set(k, list);
          }
        }
      }
      const seen = new Set<Doc>();
      const out: Doc[] = [];
      for (const v of values) for (const f of this.hashJoin.get(keyOf(v)) ?? []) if (!seen.has(f)) {
        seen.add(f);
        out.push(f);
      }
      return out;
    }
    const filter = { [this.foreignField!]: { $in: values.filter((v) => !Array.isArray(v) && !isPlainObject(v)) } };
    return runQuerySync(this.env, this.foreign, filter, {});
  }

  push(doc: Doc): boolean {
    let joined: Doc[];
    if (!this.pipeline) joined = this.matchesFor(doc);
    else {
      const vars: Record<string, unknown> = { ...(this.vars ?? {}) };
      for (const [k, f] of this.letExprs) vars[k] = f(doc, this.vars);
      const correlated = this.localField !== undefined || this.letExprs.length > 0 || usesUserVariables(this.pipeline);
      if (!correlated && this.uncorrelated) joined = this.uncorrelated;
      else {
        let input: Doc[] | undefined;
        if (this.localField) input = this.matchesFor(doc);
        joined = runSubPipeline(this.env, this.foreign, this.pipeline, vars, input);
        if (!correlated) this.uncorrelated = joined;
      }
    }
    const out = setPathCopy(doc, this.as, joined) ?? { ...doc, [this.as.join(".")]: joined };
    return this.next.push(out);
  }
}

class FallbackStage extends Stage {
  private readonly buffer: Doc[] = [];
  constructor(
    private readonly stage: Doc,
    private readonly env: PipelineEnv,
  ) {
    super();
  }
  push(doc: Doc): boolean {
    this.buffer.push(cloneDeep(doc));
    return true;
  }
  end(): void {
    let out: Doc[];
    try {
      out = new Aggregator([this.stage], {
        ...(MINGO_OPTIONS as object),
        collectionResolver: (name: string) => [...(this.env.catalog.getCollection(this.env.db, name)?.docs.values() ?? [])].map(cloneDeep),
      } as never).run(this.buffer) as Doc[];
    } catch (error) {
      throw toCommandError(error);
    }
    for (const d of out) if (!this.next.push(d)) break;
    this.next.end();
  }
}

function notablescanOf(params: ServerParams) {
  return { enabled: params.notablescan, minDocuments: params.notablescanMinDocuments };
}

/** The test of a $match: the server's own matcher, or mingo with the sub-pipeline's variables. */
function matchTest(filter: Doc, env: PipelineEnv, vars: Vars): (doc: Doc) => boolean {
  if (vars && Object.keys(vars).length > 0 && usesUserVariables(filter)) {
    let q: Query;
    try {
      q = new Query(filter, { ...(MINGO_OPTIONS as object), variables: vars } as never);
    } catch (error) {
      throw toCommandError(error);
    }
    return (doc) => q.test(doc);
  }
  return env.compile(filter);
}

function stageName(stage: unknown): string {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
    throw new MongoCommandError("BadValue", "A pipeline stage specification object must contain exactly one field.");
  }
  return Object.keys(stage)[0];
}

/** Builds the stage chain of a pipeline ending in `sink`; returns its head. */
function buildChain(stages: Doc[], env: PipelineEnv, vars: Vars, sink: Stage): Stage {
  const built: Stage[] = [];
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i];
    const name = stageName(stage);
    const arg = stage[name];
    switch (name) {
      case "$match":
        if (!isPlainObject(arg)) throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
        if (JSON.stringify(arg).includes('"$text"')) {
          throw new MongoCommandError("BadValue", "$match with $text is only allowed as the first pipeline stage");
        }
        built.push(new MatchStage(matchTest(arg, env, vars)));
        break;
      case "$skip":
        built.push(new SkipStage(positive(arg, "$skip", true)));
        break;
      case "$limit":
        built.push(new LimitStage(positive(arg, "$limit", false)));
        break;
      case "$sort": {
        if (!isPlainObject(arg)) throw new MongoCommandError("TypeMismatch", "the $sort key specification must be an object");
        const spec = normaliseSort(arg);
        if (!spec) throw new MongoCommandError("BadValue", "$sort stage must have at least one sort key");
        const next = stages[i + 1];
        if (next && isPlainObject(next) && "$limit" in next && typeof next.$limit === "number") {
          built.push(new SortStage(spec, next.$limit));
          i++;
        } else built.push(new SortStage(spec, undefined));
        break;
      }
      case "$count":
        if (typeof arg !== "string" || arg === "" || arg.startsWith("$") || arg.includes(".")) {
          throw new MongoCommandError("BadValue", "the count field must be a non-empty string that does not start with $ or contain .");
        }
        built.push(new CountStage(arg));
        break;
      case "$group":
        if (!isPlainObject(arg)) throw new MongoCommandError("TypeMismatch", "a group's fields must be specified in an object");
        built.push(new GroupStage(arg, vars));
        break;
      case "$sortByCount":
        built.push(new GroupStage({ _id: arg, count: { $sum: 1 } }, vars));
        built.push(new SortStage([["count", -1]], undefined));
        break;
      case "$addFields":
      case "$set":
        if (!isPlainObject(arg)) throw new MongoCommandError("TypeMismatch", `${name} specification stage must be an object`);
        built.push(new AddFieldsStage(arg, vars, name));
        break;
      case "$project":
      case "$unset":
        built.push(new ChunkedMingoStage(name, arg));
        break;
      case "$unwind":
        if (typeof arg === "string") built.push(new UnwindStage(arg));
        else built.push(new FallbackStage(stage, env));
        break;
      case "$replaceRoot":
        if (!isPlainObject(arg) || !("newRoot" in arg)) throw new MongoCommandError("FailedToParse", "no newRoot specified for the $replaceRoot stage");
        built.push(new ReplaceRootStage(compileExpression(arg.newRoot), vars));
        break;
      case "$replaceWith":
        built.push(new ReplaceRootStage(compileExpression(arg), vars));
        break;
      case "$facet":
        if (!isPlainObject(arg)) throw new MongoCommandError("FailedToParse", "$facet requires an object");
        built.push(new FacetStage(arg, env, vars));
        break;
      case "$lookup":
        if (!isPlainObject(arg)) throw new MongoCommandError("FailedToParse", "$lookup requires an object");
        built.push(new LookupStage(arg, env, vars));
        break;
      case "$out":
      case "$merge":
        throw new MongoCommandError("IllegalOperation", `${name} is not supported by the embedded server; read the results and write them with insert/update`);
      default:
        built.push(new FallbackStage(stage, env));
    }
  }
  built.push(sink);
  for (let i = 0; i < built.length - 1; i++) built[i].next = built[i + 1];
  return built[0];
}

function positive(v: unknown, name: string, allowZero: boolean): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new MongoCommandError("BadValue", `invalid argument to ${name} stage: ${allowZero ? "must be a non-negative" : "the limit must be positive"}`);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Running

type Prefix = { filter: Doc; sort?: SortSpec; skip: number; limit: number; rest: Doc[]; hasText: boolean };

/** Splits off the leading stages the planner answers: $match (merged), then $sort, $skip, $limit. */
function splitPrefix(pipeline: Doc[]): Prefix {
  const matches: Doc[] = [];
  let i = 0;
  while (i < pipeline.length && isPlainObject(pipeline[i]) && stageName(pipeline[i]) === "$match") {
    const m = pipeline[i].$match;
    if (!isPlainObject(m)) throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
    if (i > 0 && JSON.stringify(m).includes('"$text"')) {
      throw new MongoCommandError("BadValue", "$match with $text is only allowed as the first pipeline stage");
    }
    matches.push(m);
    i++;
  }
  const filter = matches.length === 0 ? {} : matches.length === 1 ? matches[0] : { $and: matches };
  let sort: SortSpec | undefined;
  if (i < pipeline.length && stageName(pipeline[i]) === "$sort" && isPlainObject(pipeline[i].$sort)) {
    sort = normaliseSort(pipeline[i].$sort as Doc);
    if (!sort) throw new MongoCommandError("BadValue", "$sort stage must have at least one sort key");
    i++;
  }
  let skip = 0;
  let limit = 0;
  if (i < pipeline.length && stageName(pipeline[i]) === "$skip" && typeof pipeline[i].$skip === "number") {
    skip = positive(pipeline[i].$skip, "$skip", true);
    i++;
  }
  if (i < pipeline.length && stageName(pipeline[i]) === "$limit" && typeof pipeline[i].$limit === "number") {
    limit = positive(pipeline[i].$limit, "$limit", false);
    i++;
  }
  return { filter, sort, skip, limit, rest: pipeline.slice(i), hasText: "$text" in filter };
}

/** The driver's countDocuments shape after the prefix: one `$group { _id: 1|null, n: { $sum: 1 } }`. */
function countField(rest: Doc[]): string | undefined {
  if (rest.length !== 1 || !isPlainObject(rest[0]) || !isPlainObject(rest[0].$group)) return undefined;
  const group = rest[0].$group as Doc;
  const keys = Object.keys(group);
  if (keys.length !== 2 || !(group._id === 1 || group._id === null)) return undefined;
  const field = keys.find((k) => k !== "_id")!;
  const acc = group[field];
  if (!isPlainObject(acc) || acc.$sum !== 1 || Object.keys(acc).length !== 1) return undefined;
  return field;
}

export type AggregateResult = { docs: Doc[]; query: PlannedQuery; rest: Doc[]; countOnly: boolean };

/** Runs a pipeline over a collection (or none, for `aggregate: 1`), yielding between slices. */
export async function runAggregate(env: PipelineEnv, coll: Collection | undefined, ns: string, pipeline: Doc[], hint?: unknown): Promise<AggregateResult> {
  const prefix = splitPrefix(pipeline);
  const count = countField(prefix.rest);
  const matcher = env.compile(withoutText(prefix.filter));
  const query = planQuery(coll, ns, prefix.filter, matcher, {
    sort: prefix.sort,
    wanted: prefix.limit > 0 ? prefix.skip + prefix.limit : 0,
    hint,
    forCount: count !== undefined && prefix.skip === 0 && prefix.limit === 0,
    notablescan: notablescanOf(env.params),
  });
  env.plans.push(query);
  if (count !== undefined && !prefix.sort) {
    const { runCount } = await import("./exec");
    let n = await runCount(env.ctx, coll, query, env.stats, env.compile);
    n = Math.max(0, n - prefix.skip);
    if (prefix.limit > 0) n = Math.min(n, prefix.limit);
    const group = prefix.rest[0].$group as Doc;
    return { docs: n === 0 ? [] : [{ _id: group._id, [count]: n }], query, rest: prefix.rest, countOnly: true };
  }
  const sink = new Collector();
  const head = buildChain(prefix.rest, env, undefined, sink);
  if (query.blockingSort || !coll) {
    const docs = await runFind(env.ctx, coll, query, { skip: prefix.skip, limit: prefix.limit, compile: env.compile }, env.stats);
    for (let i = 0; i < docs.length; i++) {
      if (!head.push(docs[i])) break;
      if ((i & 63) === 63) await env.ctx.tick(i);
    }
  } else {
    const source = openSource(coll, query, env.stats, env.compile);
    let skip = prefix.skip;
    if (skip > 0 && source.skip) skip -= source.skip(skip);
    let left = prefix.limit > 0 ? prefix.limit : Infinity;
    // Without a skip or limit left to apply, documents go straight to the first stage.
    const onDoc =
      skip === 0 && left === Infinity
        ? (doc: Doc) => head.push(doc)
        : (doc: Doc) => {
            if (skip > 0) {
              skip--;
              return true;
            }
            left--;
            return head.push(doc) && left > 0;
          };
    await drain(env.ctx, source, onDoc);
  }
  head.end();
  return { docs: sink.docs, query, rest: prefix.rest, countOnly: false };
}

/** A find run to completion without yielding (sub-queries inside a stage). */
export function runQuerySync(env: PipelineEnv, coll: Collection, filter: Doc, opts: { sort?: SortSpec; limit?: number }): Doc[] {
  const matcher = env.compile(filter);
  const q = planQuery(coll, coll.ns, filter, matcher, { sort: opts.sort, wanted: opts.limit ?? 0, notablescan: notablescanOf(env.params) });
  return drainSync(env, coll, q, opts.limit ?? 0);
}

function drainSync(env: PipelineEnv, coll: Collection | undefined, q: PlannedQuery, limit: number): Doc[] {
  const source: Source = openSource(coll, q, env.stats, env.compile);
  const out: Doc[] = [];
  for (let step = 0; ; step++) {
    const d = source.next();
    if (d === PAUSE) {
      env.ctx.check();
      continue;
    }
    if (!d) break;
    out.push(d);
    if (!q.blockingSort && limit > 0 && out.length >= limit) break;
    if ((step & 255) === 255) env.ctx.check();
  }
  if (q.blockingSort) {
    const cmp = docComparator(q.blockingSort);
    out.sort(cmp);
    return limit > 0 ? out.slice(0, limit) : out;
  }
  return out;
}

/** Runs a $lookup sub-pipeline to completion (no yields inside a stage), with its variables. */
function runSubPipeline(env: PipelineEnv, coll: Collection | undefined, pipeline: Doc[], vars: Record<string, unknown>, input?: Doc[]): Doc[] {
  const sink = new Collector();
  let docs: Doc[];
  let rest = pipeline;
  if (input) docs = input;
  else {
    // The leading $match: its $expr equalities on variables become plain conditions the planner can use.
    const first = pipeline[0];
    let filter: Doc = {};
    if (first && isPlainObject(first) && isPlainObject(first.$match)) {
      filter = first.$match as Doc;
      rest = pipeline.slice(1);
    }
    const planned = usesUserVariables(filter) ? substituteExprEqualities(filter, vars) : filter;
    if (!coll) docs = [];
    else {
      const q = planQuery(coll, coll.ns, planned, matchTest(filter, env, vars), { notablescan: notablescanOf(env.params) });
      docs = drainSync(env, coll, q, 0);
    }
  }
  const head = buildChain(rest, env, vars, sink);
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

export { sortDocs };

/**
 * An update pipeline made only of $set/$addFields (and $unset of top-level fields) as one function per
 * document, with the expressions compiled once: it returns the new version of a document (sharing the
 * values it left alone, never changing the stored object), or undefined when the document needs the
 * general path (an array on a dotted path). Undefined for any other pipeline.
 */
export function compileUpdatePipeline(stages: Doc[]): ((doc: Doc) => Doc | undefined) | undefined {
  const steps: ({ set: [string[], Compiled][] } | { unset: string[] })[] = [];
  for (const stage of stages) {
    const keys = Object.keys(stage);
    if (keys.length !== 1) return undefined;
    const op = keys[0];
    const spec = stage[op];
    if (op === "$set" || op === "$addFields") {
      if (!isPlainObject(spec)) return undefined;
      const fields = flattenAddFields(spec);
      if (fields.some(([path]) => path === "_id" || path.startsWith("_id.") || path.split(".").some((p) => p === "" || p.startsWith("$")))) return undefined;
      try {
        steps.push({ set: fields.map(([path, expr]) => [path.split("."), compileExpression(expr)]) });
      } catch {
        return undefined;
      }
    } else if (op === "$unset") {
      const names = typeof spec === "string" ? [spec] : spec;
      if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === "string" && n !== "" && n !== "_id" && !n.includes(".") && !n.startsWith("$"))) return undefined;
      steps.push({ unset: names as string[] });
    } else {
      return undefined;
    }
  }
  return (doc) => {
    let out: Doc | undefined = doc;
    for (const step of steps) {
      if ("unset" in step) {
        out = { ...out };
        for (const name of step.unset) delete out[name];
        continue;
      }
      // Every expression of a stage sees the stage's input.
      const input: Doc = out;
      for (const [parts, expr] of step.set) {
        out = setPathCopy(out!, parts, expr(input));
        if (!out) return undefined;
      }
    }
    return out;
  };
}
