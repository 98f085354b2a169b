/** $project and $unset, compiled by projection.ts. */
import { MongoCommandError } from "../errors";
import { textScores, type Vars } from "../expressions";
import { compileProjection, compileUnset, type Projector } from "../projection";
import { type Doc, isPlainObject } from "../values";
import { Stage, type StageFactory } from "./stage";

/** $project / $unset (projection.ts): MongoDB's field order; a document's text score carries over. */
export class ProjectStage extends Stage {
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

export const projectStage: StageFactory = ({ arg, vars }) => {
  if (!isPlainObject(arg)) throw new MongoCommandError(15969, "$project specification must be an object");
  return new ProjectStage(compileProjection(arg, "aggregate"), vars);
};

export const unsetStage: StageFactory = ({ arg, vars }) => new ProjectStage(compileUnset(arg), vars);
