/** $facet: each input document through every sub-pipeline, one document with each one's results. */
import { MongoCommandError } from "../errors";
import type { Vars } from "../expressions";
import { type Doc, isPlainObject } from "../values";
import { type ChainBuilder, Collector, type PipelineEnv, Stage, type StageFactory } from "./stage";

export class FacetStage extends Stage {
  private readonly facets: { name: string; head: Stage; sink: Collector; open: boolean }[];
  constructor(spec: Doc, env: PipelineEnv, vars: Vars, buildChain: ChainBuilder) {
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

export const facetStage: StageFactory = ({ arg, env, vars, buildChain }) => {
  if (!isPlainObject(arg)) throw new MongoCommandError("FailedToParse", "$facet requires an object");
  return new FacetStage(arg, env, vars, buildChain);
};
