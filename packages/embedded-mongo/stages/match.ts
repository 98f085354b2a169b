/** $match: the server's own matcher, or mingo when the filter reads a sub-pipeline's variables. */
import { Query } from "mingo";
import { MongoCommandError, toCommandError } from "../errors";
import { MINGO_OPTIONS, usesUserVariables, type Vars } from "../expressions";
import { type Doc, isPlainObject } from "../values";
import { type PipelineEnv, Stage, type StageFactory } from "./stage";

export class MatchStage extends Stage {
  constructor(private readonly test: (doc: Doc) => boolean) {
    super();
  }
  push(doc: Doc): boolean {
    return this.test(doc) ? this.next.push(doc) : true;
  }
}

/** The test of a $match: the server's own matcher, or mingo with the sub-pipeline's variables. */
export function matchTest(filter: Doc, env: PipelineEnv, vars: Vars): (doc: Doc) => boolean {
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

export const matchStage: StageFactory = ({ arg, env, vars }) => {
  if (!isPlainObject(arg))
    throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
  if (JSON.stringify(arg).includes('"$text"')) {
    throw new MongoCommandError("BadValue", "$match with $text is only allowed as the first pipeline stage");
  }
  return new MatchStage(matchTest(arg, env, vars));
};
