/** $unionWith: the input, then another collection through its own pipeline. */
import { MongoCommandError } from "../errors";
import type { Vars } from "../expressions";
import { type Doc, isPlainObject } from "../values";
import { type ChainBuilder, type PipelineEnv, Stage, type StageFactory } from "./stage";
import { runSubPipeline } from "./sub-pipeline";

/** $unionWith: the input, then the other collection's documents through its own pipeline (the server's stages). */
export class UnionWithStage extends Stage {
  private readonly coll: string;
  private readonly pipeline: Doc[];
  private open = true;
  constructor(
    spec: unknown,
    private readonly env: PipelineEnv,
    private readonly vars: Vars,
    private readonly buildChain: ChainBuilder,
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
      const docs = runSubPipeline(this.buildChain, this.env, foreign, this.pipeline, { ...(this.vars ?? {}) });
      for (const d of docs) if (!this.next.push(d)) break;
    }
    this.next.end();
  }
}

const ErrorCodes_unionWithBadSpec = 40556;

export const unionWithStage: StageFactory = ({ arg, env, vars, buildChain }) =>
  new UnionWithStage(arg, env, vars, buildChain);
