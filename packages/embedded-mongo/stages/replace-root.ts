/** $replaceRoot and $replaceWith. */
import { MongoCommandError } from "../errors";
import { type Compiled, compileExpression, type Vars } from "../expressions";
import { type Doc, isPlainObject } from "../values";
import { Stage, type StageFactory } from "./stage";

export class ReplaceRootStage extends Stage {
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

export const replaceRootStage: StageFactory = ({ arg, vars }) => {
  if (!isPlainObject(arg))
    throw new MongoCommandError(40229, "expected an object as specification for $replaceRoot stage");
  if (!("newRoot" in arg)) throw new MongoCommandError(40231, "no newRoot specified for the $replaceRoot stage");
  return new ReplaceRootStage(compileExpression(arg.newRoot), vars);
};

export const replaceWithStage: StageFactory = ({ arg, vars }) => new ReplaceRootStage(compileExpression(arg), vars);
