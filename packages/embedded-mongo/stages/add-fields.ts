/** $addFields / $set, and the copy-on-write path setting they share with $unwind, $lookup and update pipelines. */
import { Aggregator } from "mingo";
import { MongoCommandError, toCommandError } from "../errors";
import { type Compiled, compileExpression, MINGO_OPTIONS, textScores, type Vars } from "../expressions";
import { cloneDeep, type Doc, isPlainObject } from "../values";
import { Stage, type StageFactory } from "./stage";

export function setPathCopy(doc: Doc, parts: string[], value: unknown): Doc | undefined {
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
export function flattenAddFields(spec: Doc, prefix = ""): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(spec)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length > 0 && !Object.keys(v)[0].startsWith("$"))
      out.push(...flattenAddFields(v, path));
    else out.push([path, v]);
  }
  return out;
}

export class AddFieldsStage extends Stage {
  private readonly fields: [string[], Compiled][];
  private readonly fallback: Aggregator;
  constructor(
    spec: Doc,
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

export const addFieldsStage: StageFactory = ({ name, arg, vars }) => {
  if (!isPlainObject(arg)) throw new MongoCommandError("TypeMismatch", `${name} specification stage must be an object`);
  return new AddFieldsStage(arg, vars, name);
};
