/** $group, and $sortByCount (a $group then a $sort on the count). */
import { MongoCommandError } from "../errors";
import { type Compiled, compileExpression, type Vars } from "../expressions";
import { type Doc, isPlainObject, keyOf } from "../values";
import { type Accumulator, compileAccumulator, topLevelField } from "./accumulators";
import { SortStage } from "./sort";
import { Stage, type StageFactory } from "./stage";

export class GroupStage extends Stage {
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

export const groupStage: StageFactory = ({ arg, vars }) => {
  if (!isPlainObject(arg))
    throw new MongoCommandError("TypeMismatch", "a group's fields must be specified in an object");
  return new GroupStage(arg, vars);
};

export const sortByCountStage: StageFactory = ({ arg, vars }) => [
  new GroupStage({ _id: arg, count: { $sum: 1 } }, vars),
  new SortStage([["count", -1]], undefined),
];
