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
import { compareValues, typeRank } from "./bson-order";
import { MongoCommandError, toCommandError } from "./errors";
import { drain, runCount, runFind, sortDocs, TopK, type ExecContext } from "./exec";
import {
  compileExpression,
  MINGO_OPTIONS,
  resolvePath,
  textScores,
  usesUserVariables,
  type Compiled,
  type Vars,
} from "./expressions";
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
import { newObjectId } from "./object-id";
import { compileProjection, compileUnset, type Projector } from "./projection";
import type { Catalog, Collection } from "./storage";
import { cloneDeep, deepEqual, docWithId, formatValue, isPlainObject, keyOf, pathValues, type Doc } from "./values";

export type ServerParams = { notablescan: boolean; notablescanMinDocuments: number };

export type PipelineEnv = {
  catalog: Catalog;
  /** True for a top-level aggregate, where $out and $merge may write. */
  writable?: boolean;
  db: string;
  ctx: ExecContext;
  compile: MatcherFactory;
  params: ServerParams;
  stats: ScanStats;
  /** Plans of the queries a command ran (explain, profiler). */
  plans: PlannedQuery[];
  /** The leading query may reuse a cached plan (PlanOptions.cached): an aggregate run, not explained. */
  planCache?: boolean;
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
function topLevelField(expr: unknown): string | undefined {
  return typeof expr === "string" && expr.length > 1 && expr[0] === "$" && expr[1] !== "$" && !expr.includes(".")
    ? expr.slice(1)
    : undefined;
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
    idOverride?: Compiled,
  ) {
    super();
    if (!idOverride && !("_id" in spec))
      throw new MongoCommandError(15955, "a group specification must include an _id");
    this.idExpr = idOverride ?? compileExpression(spec._id);
    this.idField = idOverride ? undefined : topLevelField(spec._id);
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
    if (isPlainObject(v) && Object.keys(v).length > 0 && !Object.keys(v)[0].startsWith("$"))
      out.push(...flattenAddFields(v, path));
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

/** $project / $unset (projection.ts): MongoDB's field order; a document's text score carries over. */
class ProjectStage extends Stage {
  constructor(
    private readonly apply: Projector,
    private readonly vars: Vars,
  ) {
    super();
  }
  push(doc: Doc): boolean {
    const out = this.apply(doc, this.vars);
    const score = textScores.get(doc);
    if (score !== undefined) textScores.set(out, score);
    return this.next.push(out);
  }
}

class UnwindStage extends Stage {
  private readonly parts: string[];
  private readonly indexField: string | undefined;
  private readonly preserve: boolean;
  constructor(spec: unknown) {
    super();
    let path: unknown = spec;
    let indexField: string | undefined;
    let preserve = false;
    if (isPlainObject(spec)) {
      for (const [k, v] of Object.entries(spec)) {
        if (k === "path") path = v;
        else if (k === "includeArrayIndex") {
          if (typeof v !== "string")
            throw new MongoCommandError(
              28810,
              "expected a non-empty string for the includeArrayIndex option to $unwind stage",
            );
          if (v === "")
            throw new MongoCommandError(
              28810,
              "expected a non-empty string for the includeArrayIndex option to $unwind stage",
            );
          if (v.startsWith("$"))
            throw new MongoCommandError(
              28822,
              `includeArrayIndex option to $unwind stage should not be prefixed with a '$': ${v}`,
            );
          indexField = v;
        } else if (k === "preserveNullAndEmptyArrays") {
          if (typeof v !== "boolean")
            throw new MongoCommandError(
              28809,
              "expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage",
            );
          preserve = v;
        } else throw new MongoCommandError(28811, `unrecognized option to $unwind stage: ${k}`);
      }
      if (path === undefined || path === spec) throw new MongoCommandError(28812, "no path specified to $unwind stage");
    } else if (typeof spec !== "string") {
      throw new MongoCommandError(15981, "expected either a string or an object as specification for $unwind stage");
    }
    if (typeof path !== "string") throw new MongoCommandError(28808, "expected a string as the path for $unwind stage");
    if (!path.startsWith("$"))
      throw new MongoCommandError(28818, `path option to $unwind stage should be prefixed with a '$': ${path}`);
    this.parts = path.slice(1).split(".");
    this.indexField = indexField;
    this.preserve = preserve;
  }
  private emit(doc: Doc, value: unknown, index: number | null, replace: boolean): boolean {
    let out: Doc | undefined = replace ? setPathCopy(doc, this.parts, value) : doc;
    if (!out) out = doc;
    if (this.indexField !== undefined)
      out = setPathCopy(out === doc ? { ...doc } : out, this.indexField.split("."), index) ?? out;
    return this.next.push(out);
  }
  push(doc: Doc): boolean {
    let v: unknown = doc;
    for (const p of this.parts) v = isPlainObject(v) ? v[p] : undefined;
    if (!Array.isArray(v)) {
      if (v === undefined || v === null) return this.preserve ? this.emit(doc, v, null, false) : true;
      return this.emit(doc, v, null, false);
    }
    if (v.length === 0) {
      if (!this.preserve) return true;
      // An empty array is kept as a missing field.
      const out = setPathCopy(doc, this.parts, undefined) ?? doc;
      return this.emit(out, undefined, null, false);
    }
    for (let i = 0; i < v.length; i++) {
      if (!this.emit(doc, v[i], i, true)) return false;
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
      throw new MongoCommandError(
        40228,
        `'newRoot' expression must evaluate to an object, but resulting value was: ${out === undefined ? "MISSING" : JSON.stringify(out)}. Type of resulting value: '${out === undefined ? "missing" : typeof out}'.`,
      );
    }
    return this.next.push(out);
  }
}

class FacetStage extends Stage {
  private readonly facets: { name: string; head: Stage; sink: Collector; open: boolean }[];
  constructor(spec: Doc, env: PipelineEnv, vars: Vars) {
    super();
    this.facets = Object.entries(spec).map(([name, sub]) => {
      if (!Array.isArray(sub))
        throw new MongoCommandError(
          "TypeMismatch",
          `arguments to $facet must be arrays, ${name} is type ${typeof sub}`,
        );
      const sink = new Collector();
      const head = buildChain(sub as Doc[], { ...env, writable: false }, vars, sink);
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
    if (typeof spec.from !== "string")
      throw new MongoCommandError("FailedToParse", "$lookup needs a 'from' collection");
    if (typeof spec.as !== "string")
      throw new MongoCommandError("FailedToParse", "must specify 'as' field for a $lookup");
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
      if (!Array.isArray(spec.pipeline))
        throw new MongoCommandError("FailedToParse", "$lookup 'pipeline' must be an array");
      this.pipeline = spec.pipeline as Doc[];
    }
    if (!this.pipeline && !this.localField)
      throw new MongoCommandError("FailedToParse", "$lookup needs 'localField'/'foreignField' or a 'pipeline'");
    // The foreign side is read through an index on foreignField; without one (and with notablescan) it is refused.
    if (this.foreignField && this.foreign) {
      const probe = planQuery(this.foreign, this.foreign.ns, { [this.foreignField]: { $in: [null] } }, () => true, {
        notablescan: notablescanOf(env.params),
      });
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
      for (const v of values)
        for (const f of this.hashJoin.get(keyOf(v)) ?? [])
          if (!seen.has(f)) {
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

/** $unionWith: the input, then the other collection's documents through its own pipeline (the server's stages). */
class UnionWithStage extends Stage {
  private readonly coll: string;
  private readonly pipeline: Doc[];
  private open = true;
  constructor(
    spec: unknown,
    private readonly env: PipelineEnv,
    private readonly vars: Vars,
  ) {
    super();
    if (typeof spec === "string") {
      this.coll = spec;
      this.pipeline = [];
    } else if (isPlainObject(spec)) {
      for (const k of Object.keys(spec))
        if (k !== "coll" && k !== "pipeline")
          throw new MongoCommandError(40415, `BSON field '$unionWith.${k}' is an unknown field.`);
      if (typeof spec.coll !== "string")
        throw new MongoCommandError(40414, "BSON field '$unionWith.coll' is missing but a required field");
      if (spec.pipeline !== undefined && !Array.isArray(spec.pipeline))
        throw new MongoCommandError(
          "TypeMismatch",
          "BSON field '$unionWith.pipeline' is the wrong type, expected type 'array'",
        );
      this.coll = spec.coll;
      this.pipeline = (spec.pipeline as Doc[] | undefined) ?? [];
    } else {
      throw new MongoCommandError(
        ErrorCodes_unionWithBadSpec,
        "the $unionWith stage specification must be an object or string",
      );
    }
  }
  push(doc: Doc): boolean {
    if (this.open) this.open = this.next.push(doc);
    return this.open;
  }
  end(): void {
    if (this.open) {
      const foreign = this.env.catalog.getCollection(this.env.db, this.coll);
      const docs = runSubPipeline(this.env, foreign, this.pipeline, { ...(this.vars ?? {}) });
      for (const d of docs) if (!this.next.push(d)) break;
    }
    this.next.end();
  }
}

const ErrorCodes_unionWithBadSpec = 40556;

class FallbackStage extends Stage {
  private readonly buffer: Doc[] = [];
  constructor(
    private readonly stage: Doc,
    private readonly env: PipelineEnv,
    private readonly vars: Vars,
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
        ...(this.vars ? { variables: this.vars } : {}),
        collectionResolver: (name: string) =>
          [...(this.env.catalog.getCollection(this.env.db, name)?.docs.values() ?? [])].map(cloneDeep),
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

/** Renard, E and 1-2-5 series used by $bucketAuto's granularity. */
const GRANULARITY_SERIES: Record<string, number[]> = {
  R5: [1.0, 1.6, 2.5, 4.0, 6.3],
  R10: [1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0],
  R20: [1.0, 1.12, 1.25, 1.4, 1.6, 1.8, 2.0, 2.24, 2.5, 2.8, 3.15, 3.55, 4.0, 4.5, 5.0, 5.6, 6.3, 7.1, 8.0, 9.0],
  R40: [
    1.0, 1.06, 1.12, 1.18, 1.25, 1.32, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.12, 2.24, 2.36, 2.5, 2.65, 2.8, 3.0, 3.15,
    3.35, 3.55, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0, 5.3, 5.6, 6.0, 6.3, 6.7, 7.1, 7.5, 8.0, 8.5, 9.0, 9.5,
  ],
  R80: [
    1.0, 1.03, 1.06, 1.09, 1.12, 1.15, 1.18, 1.22, 1.25, 1.28, 1.32, 1.36, 1.4, 1.45, 1.5, 1.55, 1.6, 1.65, 1.7, 1.75,
    1.8, 1.85, 1.9, 1.95, 2.0, 2.06, 2.12, 2.18, 2.24, 2.3, 2.36, 2.43, 2.5, 2.58, 2.65, 2.72, 2.8, 2.9, 3.0, 3.07,
    3.15, 3.25, 3.35, 3.45, 3.55, 3.65, 3.75, 3.87, 4.0, 4.12, 4.25, 4.37, 4.5, 4.62, 4.75, 4.87, 5.0, 5.15, 5.3, 5.45,
    5.6, 5.8, 6.0, 6.15, 6.3, 6.5, 6.7, 6.9, 7.1, 7.3, 7.5, 7.75, 8.0, 8.25, 8.5, 8.75, 9.0, 9.25, 9.5, 9.75,
  ],
  "1-2-5": [1, 2, 5],
  E6: [1.0, 1.5, 2.2, 3.3, 4.7, 6.8],
  E12: [1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2],
  E24: [
    1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2,
    9.1,
  ],
  E48: [
    1.0, 1.05, 1.1, 1.15, 1.21, 1.27, 1.33, 1.4, 1.47, 1.54, 1.62, 1.69, 1.78, 1.87, 1.96, 2.05, 2.15, 2.26, 2.37, 2.49,
    2.61, 2.74, 2.87, 3.01, 3.16, 3.32, 3.48, 3.65, 3.83, 4.02, 4.22, 4.42, 4.64, 4.87, 5.11, 5.36, 5.62, 5.9, 6.19,
    6.49, 6.81, 7.15, 7.5, 7.87, 8.25, 8.66, 9.09, 9.53,
  ],
};

type Rounder = { up: (x: number) => number; down: (x: number) => number };

function granularityRounder(name: string): Rounder {
  if (name === "POWERSOF2") {
    return {
      up: (x) => (x === 0 ? 0 : 2 ** (Math.floor(Math.log2(x)) + 1)),
      down: (x) =>
        x === 0 ? 0 : Number.isInteger(Math.log2(x)) ? 2 ** (Math.log2(x) - 1) : 2 ** Math.floor(Math.log2(x)),
    };
  }
  const series = GRANULARITY_SERIES[name];
  if (!series) throw new MongoCommandError(40257, `Rounding granularity not recognized: ${name}`);
  // The series scaled by powers of ten: up is the smallest value greater than x, down the largest less than x.
  const at = (x: number) => {
    const exp = Math.floor(Math.log10(x));
    return { exp, mantissa: x / 10 ** exp };
  };
  const eps = 1e-9;
  return {
    up(x) {
      if (x === 0) return 0;
      const { exp, mantissa } = at(x);
      for (const v of series) if (v > mantissa + eps) return Number((v * 10 ** exp).toPrecision(15));
      return Number((series[0] * 10 ** (exp + 1)).toPrecision(15));
    },
    down(x) {
      if (x === 0) return 0;
      const { exp, mantissa } = at(x);
      for (let i = series.length - 1; i >= 0; i--)
        if (series[i] < mantissa - eps) return Number((series[i] * 10 ** exp).toPrecision(15));
      return Number((series[series.length - 1] * 10 ** (exp - 1)).toPrecision(15));
    },
  };
}

/** $bucketAuto: values sorted, buckets of about n / buckets documents, equal values kept together (as mongod does). */
class BucketAutoStage extends Stage {
  private readonly key: Compiled;
  private readonly buckets: number;
  private readonly accs: Accumulator[];
  private readonly rounder: Rounder | undefined;
  private readonly entries: { key: unknown; doc: Doc; pos: number }[] = [];
  constructor(
    spec: unknown,
    private readonly vars: Vars,
  ) {
    super();
    if (!isPlainObject(spec))
      throw new MongoCommandError(
        40240,
        `The argument to $bucketAuto must be an object, but found type: ${typeof spec}`,
      );
    let key: Compiled | undefined;
    let buckets: number | undefined;
    let output: Doc | undefined;
    let rounder: Rounder | undefined;
    for (const [name, arg] of Object.entries(spec)) {
      if (name === "groupBy") {
        const isExprObject = isPlainObject(arg) && Object.keys(arg).length > 0 && Object.keys(arg)[0].startsWith("$");
        const isPath = typeof arg === "string" && arg.length > 1 && arg.startsWith("$");
        if (!isExprObject && !isPath)
          throw new MongoCommandError(
            40239,
            `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: ${JSON.stringify(arg)}`,
          );
        key = compileExpression(arg);
      } else if (name === "buckets") {
        if (typeof arg !== "number")
          throw new MongoCommandError(
            40241,
            `The $bucketAuto 'buckets' field must be a numeric value, but found type: ${typeof arg}`,
          );
        if (!Number.isInteger(arg) || Math.abs(arg) > 0x7fffffff)
          throw new MongoCommandError(
            40242,
            `The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found ${arg}`,
          );
        buckets = arg;
      } else if (name === "output") {
        if (!isPlainObject(arg))
          throw new MongoCommandError(
            40244,
            `The $bucketAuto 'output' field must be an object, but found type: ${typeof arg}`,
          );
        output = arg;
      } else if (name === "granularity") {
        if (typeof arg !== "string")
          throw new MongoCommandError(
            40261,
            `The $bucketAuto 'granularity' field must be a string, but found type: ${typeof arg}`,
          );
        rounder = granularityRounder(arg);
      } else {
        throw new MongoCommandError(40245, `Unrecognized option to $bucketAuto: ${name}`);
      }
    }
    if (!key || buckets === undefined)
      throw new MongoCommandError(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified");
    if (buckets <= 0)
      throw new MongoCommandError(
        40243,
        `The $bucketAuto 'buckets' field must be greater than 0, but found: ${buckets}`,
      );
    this.key = key;
    this.buckets = buckets;
    this.rounder = rounder;
    this.accs = Object.entries(output ?? { count: { $sum: 1 } }).map(([k, v]) => compileAccumulator(k, v));
  }
  push(doc: Doc): boolean {
    let key = this.key(doc, this.vars);
    if (this.rounder) {
      if (typeof key !== "number")
        throw new MongoCommandError(
          40258,
          `$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: ${key === undefined || key === null ? "null" : typeof key}`,
        );
      if (Number.isNaN(key))
        throw new MongoCommandError(
          40259,
          "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN",
        );
      if (key < 0)
        throw new MongoCommandError(
          40260,
          "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number",
        );
    }
    if (key === undefined) key = null;
    this.entries.push({ key, doc, pos: this.entries.length });
    return true;
  }
  end(): void {
    const sorted = this.entries.sort((a, b) => compareValues(a.key, b.key) || a.pos - b.pos);
    const n = sorted.length;
    const approx = Math.max(1, Math.round(n / this.buckets));
    let i = 0;
    let previousMax: unknown;
    let hasPrevious = false;
    for (let bucketNum = 1; bucketNum <= this.buckets && i < n; bucketNum++) {
      const states = this.accs.map((a) => a.init());
      const add = (e: { key: unknown; doc: Doc }) => {
        for (let k = 0; k < this.accs.length; k++) states[k] = this.accs[k].step(states[k], e.doc, this.vars);
      };
      const first = sorted[i];
      let min: unknown = first.key;
      let max: unknown = first.key;
      if (this.rounder) min = hasPrevious ? previousMax : this.rounder.down(first.key as number);
      add(first);
      i++;
      const last = bucketNum === this.buckets;
      for (let count = 1; i < n && (count < approx || last); count++, i++) {
        add(sorted[i]);
        max = sorted[i].key;
      }
      if (this.rounder) {
        const boundary = this.rounder.up(max as number);
        while (i < n && (compareValues(boundary, sorted[i].key) > 0 || compareValues(max, sorted[i].key) === 0)) {
          add(sorted[i]);
          max = sorted[i].key;
          i++;
        }
        max = boundary === 0 && i < n ? this.rounder.down(sorted[i].key as number) : boundary;
      } else {
        while (i < n && compareValues(max, sorted[i].key) === 0) {
          add(sorted[i]);
          i++;
        }
        if (i < n) max = sorted[i].key;
      }
      previousMax = max;
      hasPrevious = true;
      const out: Doc = { _id: { min, max } };
      for (let k = 0; k < this.accs.length; k++) {
        const v = this.accs[k].finish(states[k]);
        out[this.accs[k].field] = v === undefined ? null : v;
      }
      if (!this.next.push(out)) break;
    }
    this.next.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Update pipelines, $merge and $out

const UPDATE_PIPELINE_STAGES = new Set(["$addFields", "$set", "$project", "$unset", "$replaceRoot", "$replaceWith"]);

/**
 * An update pipeline as a function from a stored document to its new version, run by the server's own stages.
 * As in mongod, a result without _id keeps the document's _id (first); a result whose _id differs is refused.
 */
export function compileUpdateStages(stages: Doc[], vars: Vars, catalog?: Catalog): (doc: Doc) => Doc {
  for (const stage of stages) {
    const name = stageName(stage);
    if (!UPDATE_PIPELINE_STAGES.has(name))
      throw new MongoCommandError("InvalidOptions", `${name} is not allowed to be used within an update`);
  }
  const fast = compileUpdatePipeline(stages, vars);
  let chain: { head: Stage; sink: Collector } | undefined;
  const general = (doc: Doc): Doc => {
    if (!chain) {
      const sink = new Collector();
      const env = { catalog, db: "", writable: false } as unknown as PipelineEnv;
      chain = { head: buildChain(stages, env, vars, sink), sink };
    }
    chain.sink.docs.length = 0;
    chain.head.push(doc);
    return chain.sink.docs[0];
  };
  return (doc) => {
    const out = (stages.length === 0 ? doc : fast?.(doc)) ?? general(doc);
    if (!("_id" in out) || out._id === undefined) {
      if (doc._id === undefined) return out;
      const withId = docWithId(doc._id);
      for (const k in out) if (k !== "_id") withId[k] = out[k];
      return withId;
    }
    if (doc._id !== undefined && keyOf(out._id) !== keyOf(doc._id)) {
      throw new MongoCommandError(
        "ImmutableField",
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(out._id)}`,
      );
    }
    return out;
  };
}

function targetNamespace(spec: unknown, env: PipelineEnv, stage: string): { db: string; coll: string } {
  if (typeof spec === "string") return { db: env.db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === "string") {
    if (spec.db !== undefined && typeof spec.db !== "string")
      throw new MongoCommandError("TypeMismatch", `BSON field '${stage}.db' is the wrong type, expected type 'string'`);
    return { db: (spec.db as string | undefined) ?? env.db, coll: spec.coll };
  }
  throw new MongoCommandError(
    stage === "$out" ? 16990 : 51178,
    `${stage} 'into' must be a string or an object with 'db' and 'coll'`,
  );
}

function assertWritableName(ns: { db: string; coll: string }, stage: string): void {
  if (ns.coll === "" || ns.coll.startsWith("system.") || ns.coll.includes("$")) {
    throw new MongoCommandError("InvalidNamespace", `Invalid ${stage} target namespace: ${ns.db}.${ns.coll}`);
  }
}

const WHEN_MATCHED = ["replace", "keepExisting", "merge", "fail"];
const WHEN_NOT_MATCHED = ["insert", "discard", "fail"];

/** $merge: each result written into the target as MongoDB does (whenMatched / whenNotMatched, `on` fields, `let`). */
class MergeStage extends Stage {
  private readonly docs: Doc[] = [];
  private readonly target: { db: string; coll: string };
  private readonly on: string[];
  private readonly whenMatched: string | ((target: Doc, vars: Vars) => Doc);
  private readonly whenNotMatched: string;
  private readonly letSpec: Doc | undefined;
  constructor(
    spec: unknown,
    private readonly env: PipelineEnv,
    private readonly vars: Vars,
  ) {
    super();
    const full: Doc = typeof spec === "string" ? { into: spec } : isPlainObject(spec) ? spec : {};
    if (!isPlainObject(spec) && typeof spec !== "string")
      throw new MongoCommandError(51182, "$merge only supports a string or object argument");
    for (const k of Object.keys(full)) {
      if (!["into", "on", "let", "whenMatched", "whenNotMatched", "targetCollectionVersion"].includes(k))
        throw new MongoCommandError(40415, `BSON field '$merge.${k}' is an unknown field.`);
    }
    if (full.into === undefined)
      throw new MongoCommandError(40414, "BSON field '$merge.into' is missing but a required field");
    this.target = targetNamespace(full.into, env, "$merge");
    assertWritableName(this.target, "$merge");
    const on = full.on === undefined ? ["_id"] : typeof full.on === "string" ? [full.on] : full.on;
    if (!Array.isArray(on) || on.length === 0 || !on.every((f) => typeof f === "string")) {
      throw new MongoCommandError(51186, "$merge 'on' field must be either a string or an array of strings");
    }
    if (new Set(on).size !== on.length)
      throw new MongoCommandError(31465, "Found a duplicate field in $merge 'on' fields");
    this.on = on as string[];
    const wm = full.whenMatched ?? "merge";
    if (Array.isArray(wm)) {
      if (full.let !== undefined && !isPlainObject(full.let))
        throw new MongoCommandError(
          "TypeMismatch",
          "BSON field '$merge.let' is the wrong type, expected type 'object'",
        );
      this.letSpec = isPlainObject(full.let) ? full.let : { new: "$$ROOT" };
      for (const name of Object.keys(this.letSpec)) if (name !== "new") validateVariableNameForMerge(name);
      const compiled = new Map<string, (doc: Doc) => Doc>();
      this.whenMatched = (targetDoc, v) => {
        const key = keyOf(v);
        let f = compiled.get(key);
        if (!f) {
          f = compileUpdateStages(wm as Doc[], v, env.catalog);
          compiled.set(key, f);
        }
        return f(targetDoc);
      };
    } else {
      if (typeof wm !== "string" || !WHEN_MATCHED.includes(wm)) {
        throw new MongoCommandError(
          "BadValue",
          `Enumeration value '${String(wm)}' for field '$merge.whenMatched' is not a valid value.`,
        );
      }
      if (full.let !== undefined)
        throw new MongoCommandError(51199, "Cannot use 'let' variables with 'whenMatched: " + wm + "' mode");
      this.whenMatched = wm;
    }
    const wn = full.whenNotMatched ?? "insert";
    if (typeof wn !== "string" || !WHEN_NOT_MATCHED.includes(wn)) {
      throw new MongoCommandError(
        "BadValue",
        `Enumeration value '${String(wn)}' for field '$merge.whenNotMatched' is not a valid value.`,
      );
    }
    this.whenNotMatched = wn;
    if (!(this.on.length === 1 && this.on[0] === "_id")) {
      const coll = env.catalog.getCollection(this.target.db, this.target.coll);
      const unique = coll
        ? [...coll.indexes.values()].some(
            (i) =>
              i.spec.unique === true &&
              !i.spec.partialFilterExpression &&
              sameFieldSet(Object.keys(i.spec.key), this.on),
          )
        : false;
      if (!unique) throw new MongoCommandError(51183, "Cannot find index to verify that join fields will be unique");
    }
  }
  push(doc: Doc): boolean {
    this.docs.push(doc);
    return true;
  }
  end(): void {
    const catalog = this.env.catalog;
    const byId = this.on.length === 1 && this.on[0] === "_id";
    for (const raw of this.docs) {
      let doc = raw;
      if (doc._id === undefined) doc = withIdFirstCopy(doc);
      const key: Doc = {};
      for (const f of this.on) {
        const v = resolvePath(doc, f.split("."));
        if (v === undefined || v === null || Array.isArray(v)) {
          throw new MongoCommandError(
            51132,
            "$merge write error: 'on' field cannot be missing, null, undefined or an array",
          );
        }
        key[f] = v;
      }
      const coll = catalog.getCollection(this.target.db, this.target.coll);
      let existing: Doc | undefined;
      if (coll) {
        if (byId) existing = coll.docs.get(keyOf(doc._id));
        else existing = runQuerySync(this.env, coll, key, { limit: 1 })[0];
      }
      if (!existing) {
        if (this.whenNotMatched === "discard") continue;
        if (this.whenNotMatched === "fail") {
          throw new MongoCommandError(
            "MergeStageNoMatchingDocument",
            "$merge could not find a matching document in the target collection for at least one document in the source collection",
          );
        }
        const into = coll ?? catalog.ensureCollection(this.target.db, this.target.coll);
        catalog.insert(into, cloneDeep(doc));
        continue;
      }
      const into = coll!;
      let next: Doc;
      if (typeof this.whenMatched === "function") {
        const letVars: Record<string, unknown> = { ...(this.vars ?? {}) };
        for (const [name, expr] of Object.entries(this.letSpec ?? {}))
          letVars[name] = compileExpression(expr)(doc, this.vars) ?? null;
        next = this.whenMatched(existing, letVars);
      } else if (this.whenMatched === "keepExisting") {
        continue;
      } else if (this.whenMatched === "fail") {
        const index = byId
          ? into.idIndex
          : [...into.indexes.values()].find(
              (i) => i.spec.unique === true && sameFieldSet(Object.keys(i.spec.key), this.on),
            );
        if (index && "duplicateError" in index) {
          throw (index as Collection["idIndex"]).duplicateError(
            into.ns,
            Object.keys(index.spec.key).map((f) => resolvePath(doc, f.split("."))),
          );
        }
        throw new MongoCommandError("DuplicateKey", `E11000 duplicate key error collection: ${into.ns}`);
      } else if (this.whenMatched === "replace") {
        if (raw._id !== undefined && keyOf(doc._id) !== keyOf(existing._id)) {
          throw new MongoCommandError(
            "ImmutableField",
            "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
          );
        }
        next = docWithId(existing._id);
        for (const k in doc) if (k !== "_id") next[k] = cloneDeep(doc[k]);
      } else {
        // merge: the result's fields set on the stored document (in place when present, appended when new).
        if (raw._id !== undefined && keyOf(doc._id) !== keyOf(existing._id)) {
          throw new MongoCommandError(
            "ImmutableField",
            "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
          );
        }
        next = { ...existing };
        for (const k in doc) if (k !== "_id") next[k] = cloneDeep(doc[k]);
      }
      if (keyOf(next._id) !== keyOf(existing._id)) {
        throw new MongoCommandError(
          "ImmutableField",
          "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
        );
      }
      if (!deepEqual(next, existing)) catalog.replace(into, existing, next);
    }
    this.next.end();
  }
}

function validateVariableNameForMerge(name: string): void {
  if (!/^[a-z\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*$/.test(name)) {
    throw new MongoCommandError(16867, `'${name}' starts with an invalid character for a user variable name`);
  }
}

function sameFieldSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((f) => b.includes(f));
}

function withIdFirstCopy(doc: Doc): Doc {
  const out = docWithId(newObjectId());
  for (const k in doc) if (k !== "_id") out[k] = doc[k];
  return out;
}

/** $out: the target's documents replaced by the results, all or nothing (its indexes kept). */
class OutStage extends Stage {
  private readonly docs: Doc[] = [];
  private readonly target: { db: string; coll: string };
  constructor(
    spec: unknown,
    private readonly env: PipelineEnv,
  ) {
    super();
    if (isPlainObject(spec) && spec.timeseries !== undefined)
      throw new MongoCommandError(
        "IllegalOperation",
        "$out to a time-series collection is not supported by the embedded server",
      );
    this.target = targetNamespace(spec, env, "$out");
    assertWritableName(this.target, "$out");
  }
  push(doc: Doc): boolean {
    this.docs.push(doc._id === undefined ? withIdFirstCopy(doc) : cloneDeep(doc));
    return true;
  }
  end(): void {
    const catalog = this.env.catalog;
    const coll =
      catalog.getCollection(this.target.db, this.target.coll) ??
      catalog.ensureCollection(this.target.db, this.target.coll);
    const old = [...coll.docs.values()];
    for (const d of old) catalog.remove(coll, d);
    const inserted: Doc[] = [];
    try {
      for (const d of this.docs) {
        catalog.insert(coll, d);
        inserted.push(d);
      }
    } catch (error) {
      for (const d of inserted) catalog.remove(coll, d);
      for (const d of old) catalog.insert(coll, d);
      throw error;
    }
    this.next.end();
  }
}

/** Stages mingo runs for this server (the rest of its pipeline operators are the server's own). */
const MINGO_STAGES = new Set([
  "$densify",
  "$documents",
  "$fill",
  "$graphLookup",
  "$redact",
  "$sample",
  "$setWindowFields",
]);

/** mongod 7.0's other stages: refused by name rather than answered wrongly. */
const MONGOD_STAGES = new Set([
  "$changeStream",
  "$changeStreamSplitLargeEvent",
  "$collStats",
  "$currentOp",
  "$geoNear",
  "$indexStats",
  "$listLocalSessions",
  "$listSampledQueries",
  "$listSearchIndexes",
  "$listSessions",
  "$planCacheStats",
  "$search",
  "$searchMeta",
  "$shardedDataDistribution",
  "$vectorSearch",
]);

function stageName(stage: unknown): string {
  if (!isPlainObject(stage))
    throw new MongoCommandError("TypeMismatch", "Each element of the 'pipeline' array must be an object");
  if (Object.keys(stage).length !== 1)
    throw new MongoCommandError(40323, "A pipeline stage specification object must contain exactly one field.");
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
        if (!isPlainObject(arg))
          throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
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
        if (!isPlainObject(arg))
          throw new MongoCommandError("TypeMismatch", "the $sort key specification must be an object");
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
          throw new MongoCommandError(
            "BadValue",
            "the count field must be a non-empty string that does not start with $ or contain .",
          );
        }
        built.push(new CountStage(arg));
        break;
      case "$group":
        if (!isPlainObject(arg))
          throw new MongoCommandError("TypeMismatch", "a group's fields must be specified in an object");
        built.push(new GroupStage(arg, vars));
        break;
      case "$sortByCount":
        built.push(new GroupStage({ _id: arg, count: { $sum: 1 } }, vars));
        built.push(new SortStage([["count", -1]], undefined));
        break;
      case "$addFields":
      case "$set":
        if (!isPlainObject(arg))
          throw new MongoCommandError("TypeMismatch", `${name} specification stage must be an object`);
        built.push(new AddFieldsStage(arg, vars, name));
        break;
      case "$project":
        if (!isPlainObject(arg)) throw new MongoCommandError(15969, "$project specification must be an object");
        built.push(new ProjectStage(compileProjection(arg, "aggregate"), vars));
        break;
      case "$unset":
        built.push(new ProjectStage(compileUnset(arg), vars));
        break;
      case "$unwind":
        built.push(new UnwindStage(arg));
        break;
      case "$bucket":
        built.push(...bucketStages(arg, vars));
        break;
      case "$bucketAuto":
        built.push(new BucketAutoStage(arg, vars));
        break;
      case "$replaceRoot":
        if (!isPlainObject(arg))
          throw new MongoCommandError(40229, "expected an object as specification for $replaceRoot stage");
        if (!("newRoot" in arg)) throw new MongoCommandError(40231, "no newRoot specified for the $replaceRoot stage");
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
      case "$unionWith":
        built.push(new UnionWithStage(arg, env, vars));
        break;
      case "$out":
      case "$merge":
        if (i !== stages.length - 1)
          throw new MongoCommandError(40601, `${name} can only be the final stage in the pipeline`);
        if (!env.writable)
          throw new MongoCommandError(
            51047,
            `${name} is not allowed within a $lookup or $facet sub-pipeline, nor in an update`,
          );
        built.push(name === "$merge" ? new MergeStage(arg, env, vars) : new OutStage(arg, env));
        break;
      default:
        if (!MINGO_STAGES.has(name)) {
          if (MONGOD_STAGES.has(name))
            throw new MongoCommandError(
              "IllegalOperation",
              `the ${name} stage is not supported by the embedded server`,
            );
          throw new MongoCommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
        }
        built.push(new FallbackStage(stage, env, vars));
    }
  }
  built.push(sink);
  for (let i = 0; i < built.length - 1; i++) built[i].next = built[i + 1];
  return built[0];
}

function positive(v: unknown, name: string, allowZero: boolean): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new MongoCommandError(
      "BadValue",
      `invalid argument to ${name} stage: ${allowZero ? "must be a non-negative" : "the limit must be positive"}`,
    );
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
    if (!isPlainObject(m))
      throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
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
export async function runAggregate(
  env: PipelineEnv,
  coll: Collection | undefined,
  ns: string,
  pipeline: Doc[],
  hint?: unknown,
  vars?: Vars,
): Promise<AggregateResult> {
  const prefix = splitPrefix(pipeline);
  const count = countField(prefix.rest);
  const matcher = env.compile(withoutText(prefix.filter));
  const query = planQuery(coll, ns, prefix.filter, matcher, {
    sort: prefix.sort,
    wanted: prefix.limit > 0 ? prefix.skip + prefix.limit : 0,
    hint,
    forCount: count !== undefined && prefix.skip === 0 && prefix.limit === 0,
    notablescan: notablescanOf(env.params),
    cached: env.planCache,
  });
  env.plans.push(query);
  if (count !== undefined && !prefix.sort) {
    let n = await runCount(env.ctx, coll, query, env.stats, env.compile);
    n = Math.max(0, n - prefix.skip);
    if (prefix.limit > 0) n = Math.min(n, prefix.limit);
    const group = prefix.rest[0].$group as Doc;
    return { docs: n === 0 ? [] : [{ _id: group._id, [count]: n }], query, rest: prefix.rest, countOnly: true };
  }
  const sink = new Collector();
  const head = buildChain(prefix.rest, env, vars, sink);
  if (query.blockingSort || !coll) {
    const docs = await runFind(
      env.ctx,
      coll,
      query,
      { skip: prefix.skip, limit: prefix.limit, compile: env.compile },
      env.stats,
    );
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
export function runQuerySync(
  env: PipelineEnv,
  coll: Collection,
  filter: Doc,
  opts: { sort?: SortSpec; limit?: number },
): Doc[] {
  const matcher = env.compile(filter);
  const q = planQuery(coll, coll.ns, filter, matcher, {
    sort: opts.sort,
    wanted: opts.limit ?? 0,
    notablescan: notablescanOf(env.params),
  });
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
function runSubPipeline(
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
      const q = planQuery(coll, coll.ns, planned, matchTest(filter, env, vars), {
        notablescan: notablescanOf(env.params),
      });
      // Any part of the filter the plan tests on its own is matched with the sub-pipeline's variables too.
      docs = drainSync({ ...env, compile: (f) => matchTest(f, env, vars) }, coll, q, 0);
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

export { sortDocs };

/**
 * An update pipeline made only of $set/$addFields (and $unset of top-level fields) as one function per
 * document, with the expressions compiled once: it returns the new version of a document (sharing the
 * values it left alone, never changing the stored object), or undefined when the document needs the
 * general path (an array on a dotted path). Undefined for any other pipeline.
 */
export function compileUpdatePipeline(stages: Doc[], vars?: Vars): ((doc: Doc) => Doc | undefined) | undefined {
  const steps: ({ set: [string[], Compiled][] } | { unset: string[] })[] = [];
  for (const stage of stages) {
    const keys = Object.keys(stage);
    if (keys.length !== 1) return undefined;
    const op = keys[0];
    const spec = stage[op];
    if (op === "$set" || op === "$addFields") {
      if (!isPlainObject(spec)) return undefined;
      const fields = flattenAddFields(spec);
      if (
        fields.some(
          ([path]) =>
            path === "_id" || path.startsWith("_id.") || path.split(".").some((p) => p === "" || p.startsWith("$")),
        )
      )
        return undefined;
      try {
        steps.push({ set: fields.map(([path, expr]) => [path.split("."), compileExpression(expr)]) });
      } catch {
        return undefined;
      }
    } else if (op === "$unset") {
      const names = typeof spec === "string" ? [spec] : spec;
      if (
        !Array.isArray(names) ||
        names.length === 0 ||
        !names.every((n) => typeof n === "string" && n !== "" && n !== "_id" && !n.includes(".") && !n.startsWith("$"))
      )
        return undefined;
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
        out = setPathCopy(out!, parts, expr(input, vars));
        if (!out) return undefined;
      }
    }
    return out;
  };
}
