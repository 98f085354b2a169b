/** $out, and what it shares with $merge: the target namespace, its checks, and _id-first copies. */
import { MongoCommandError } from "../errors";
import { newObjectId } from "../object-id";
import { cloneDeep, type Doc, docWithId, isPlainObject } from "../values";
import { type PipelineEnv, Stage, type StageFactory, type StageInput } from "./stage";

export function targetNamespace(spec: unknown, env: PipelineEnv, stage: string): { db: string; coll: string } {
  if (typeof spec === "string") return { db: env.db, coll: spec };
  if (isPlainObject(spec) && typeof spec.coll === "string") {
    if (spec.db !== undefined && typeof spec.db !== "string")
      throw new MongoCommandError("TypeMismatch", `BSON field '${stage}.db' is the wrong type, expected type 'string'`);
    return { db: (spec.db as string | undefined) ?? env.db, coll: spec.coll };
  }
  throw new MongoCommandError(
    stage === "$out" ? 16990 : 51178,
    `${stage} 'into' must be a string or an object with 'db' and 'coll'`,
  );
}

export function assertWritableName(ns: { db: string; coll: string }, stage: string): void {
  if (ns.coll === "" || ns.coll.startsWith("system.") || ns.coll.includes("$")) {
    throw new MongoCommandError("InvalidNamespace", `Invalid ${stage} target namespace: ${ns.db}.${ns.coll}`);
  }
}

export function withIdFirstCopy(doc: Doc): Doc {
  const out = docWithId(newObjectId());
  for (const k in doc) if (k !== "_id") out[k] = doc[k];
  return out;
}

/** $out and $merge write: only as the last stage of a top-level aggregate. */
export function assertFinalWritable({ name, last, env }: StageInput): void {
  if (!last) throw new MongoCommandError(40601, `${name} can only be the final stage in the pipeline`);
  if (!env.writable)
    throw new MongoCommandError(
      51047,
      `${name} is not allowed within a $lookup or $facet sub-pipeline, nor in an update`,
    );
}

/** $out: the target's documents replaced by the results, all or nothing (its indexes kept). */
export class OutStage extends Stage {
  private readonly docs: Doc[] = [];
  private readonly target: { db: string; coll: string };
  constructor(
    spec: unknown,
    private readonly env: PipelineEnv,
  ) {
    super();
    if (isPlainObject(spec) && spec.timeseries !== undefined)
      throw new MongoCommandError(
        "IllegalOperation",
        "$out to a time-series collection is not supported by the embedded server",
      );
    this.target = targetNamespace(spec, env, "$out");
    assertWritableName(this.target, "$out");
  }
  push(doc: Doc): boolean {
    this.docs.push(doc._id === undefined ? withIdFirstCopy(doc) : cloneDeep(doc));
    return true;
  }
  end(): void {
    const catalog = this.env.catalog;
    const coll =
      catalog.getCollection(this.target.db, this.target.coll) ??
      catalog.ensureCollection(this.target.db, this.target.coll);
    const old = [...coll.docs.values()];
    for (const d of old) catalog.remove(coll, d);
    const inserted: Doc[] = [];
    try {
      for (const d of this.docs) {
        catalog.insert(coll, d);
        inserted.push(d);
      }
    } catch (error) {
      for (const d of inserted) catalog.remove(coll, d);
      for (const d of old) catalog.insert(coll, d);
      throw error;
    }
    this.next.end();
  }
}

export const outStage: StageFactory = (input) => {
  assertFinalWritable(input);
  return new OutStage(input.arg, input.env);
};
