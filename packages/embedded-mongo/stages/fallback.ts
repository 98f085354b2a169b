/** The stages mingo runs for this server, on copies of their whole input. */
import { Aggregator } from "mingo";
import { toCommandError } from "../errors";
import { MINGO_OPTIONS, type Vars } from "../expressions";
import { cloneDeep, type Doc } from "../values";
import { type PipelineEnv, Stage, type StageFactory } from "./stage";

/** Stages mingo runs for this server (the rest of its pipeline operators are the server's own). */
export const MINGO_STAGES = new Set([
  "$densify",
  "$documents",
  "$fill",
  "$graphLookup",
  "$redact",
  "$sample",
  "$setWindowFields",
]);

export class FallbackStage extends Stage {
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

export const fallbackStage: StageFactory = ({ stage, env, vars }) => new FallbackStage(stage, env, vars);
