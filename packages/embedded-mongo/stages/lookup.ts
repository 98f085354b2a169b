/**
 * $lookup: equality joins read the foreign collection through its _id index, an index on foreignField, or a hash
 * of it built once; a pipeline runs per document (once when it is uncorrelated).
 */
import { MongoCommandError } from "../errors";
import { type Compiled, compileExpression, usesUserVariables, type Vars } from "../expressions";
import { planQuery } from "../planner/choose";
import type { Collection } from "../storage/collection";
import { type Doc, isPlainObject, keyOf, pathValues } from "../values";
import { setPathCopy } from "./add-fields";
import { runQuerySync } from "./query";
import { type ChainBuilder, notablescanOf, type PipelineEnv, Stage, type StageFactory } from "./stage";
import { runSubPipeline } from "./sub-pipeline";

export class LookupStage extends Stage {
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
    private readonly buildChain: ChainBuilder,
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

  /**
   * The sub-pipeline's first stage when it is a $match of plain conditions (no variables) and the equality goes through
   * an index: it can be read with the equality as one filter. Otherwise undefined.
   */
  private leadingMatch(): Doc | undefined {
    const first = this.pipeline?.[0];
    if (!this.useIndex || this.foreignField === "_id" || !isPlainObject(first) || !isPlainObject(first.$match)) return;
    const match = first.$match as Doc;
    return usesUserVariables(match) ? undefined : match;
  }

  private matchesFor(doc: Doc, alsoMatching?: Doc): Doc[] {
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
    const equality = { [this.foreignField!]: { $in: values.filter((v) => !Array.isArray(v) && !isPlainObject(v)) } };
    return runQuerySync(this.env, this.foreign, alsoMatching ? { $and: [equality, alsoMatching] } : equality, {});
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
        let pipeline = this.pipeline;
        const leading = this.localField ? this.leadingMatch() : undefined;
        if (leading) {
          // The equality and the pipeline's first $match in one query: the planner may take an index on both.
          input = this.matchesFor(doc, leading);
          pipeline = pipeline.slice(1);
        } else if (this.localField) input = this.matchesFor(doc);
        joined = runSubPipeline(this.buildChain, this.env, this.foreign, pipeline, vars, input);
        if (!correlated) this.uncorrelated = joined;
      }
    }
    const out = setPathCopy(doc, this.as, joined) ?? { ...doc, [this.as.join(".")]: joined };
    return this.next.push(out);
  }
}

export const lookupStage: StageFactory = ({ arg, env, vars, buildChain }) => {
  if (!isPlainObject(arg)) throw new MongoCommandError("FailedToParse", "$lookup requires an object");
  return new LookupStage(arg, env, vars, buildChain);
};
