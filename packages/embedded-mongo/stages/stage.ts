/**
 * What every aggregation stage shares: a stage of the chain documents are pushed through, the environment a
 * pipeline runs in, and what a stage's factory receives (stages/registry.ts maps each stage name to its factory;
 * stages/pipeline.ts builds the chain and runs it).
 */
import { MongoCommandError } from "../errors";
import type { ExecContext } from "../exec";
import type { Vars } from "../expressions";
import type { PlannedQuery } from "../planner/plan";
import type { ScanStats } from "../planner/scan";
import type { MatcherFactory } from "../planner/sources";
import type { Catalog } from "../storage/catalog";
import { type Doc, isPlainObject } from "../values";

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

export abstract class Stage {
  next!: Stage;
  /** Takes one document; false means no more input is wanted. */
  abstract push(doc: Doc): boolean;
  end(): void {
    this.next.end();
  }
}

export class Collector extends Stage {
  readonly docs: Doc[] = [];
  push(doc: Doc): boolean {
    this.docs.push(doc);
    return true;
  }
  end(): void {}
}

/** Builds the stage chain of a pipeline ending in `sink` and answers its head (buildChain, stages/pipeline.ts). */
export type ChainBuilder = (stages: Doc[], env: PipelineEnv, vars: Vars, sink: Stage) => Stage;

/** What a stage's factory receives: its specification, where it runs, and the chain builder for sub-pipelines. */
export type StageInput = {
  /** The stage's name ("$match"). */
  name: string;
  /** The stage's argument (stage[name]). */
  arg: unknown;
  /** The whole stage document. */
  stage: Doc;
  env: PipelineEnv;
  vars: Vars;
  /** True for the pipeline's last stage (where $out and $merge must be). */
  last: boolean;
  /** The stage after this one, if any; a factory that takes it over calls consumeNext (a $sort and its $limit). */
  next: Doc | undefined;
  consumeNext(): void;
  /** Builds the chain of a sub-pipeline ($facet, $lookup, $unionWith, $merge's whenMatched pipeline). */
  buildChain: ChainBuilder;
};

/** Builds a stage (or several, run in order) from its specification; throws the stage's parse errors. */
export type StageFactory = (input: StageInput) => Stage | Stage[];

export function stageName(stage: unknown): string {
  if (!isPlainObject(stage))
    throw new MongoCommandError("TypeMismatch", "Each element of the 'pipeline' array must be an object");
  if (Object.keys(stage).length !== 1)
    throw new MongoCommandError(40323, "A pipeline stage specification object must contain exactly one field.");
  return Object.keys(stage)[0];
}

export function positive(v: unknown, name: string, allowZero: boolean): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new MongoCommandError(
      "BadValue",
      `invalid argument to ${name} stage: ${allowZero ? "must be a non-negative" : "the limit must be positive"}`,
    );
  }
  return v;
}

export function notablescanOf(params: ServerParams) {
  return { enabled: params.notablescan, minDocuments: params.notablescanMinDocuments };
}
