/**
 * Update pipelines: the stages an update may use, run by the server's own stages, and a fast path for
 * $set/$addFields/$unset pipelines. stages/pipeline.ts binds compileUpdateStagesWith to its chain builder
 * (compileUpdateStages).
 */
import { MongoCommandError } from "../errors";
import { type Compiled, compileExpression, type Vars } from "../expressions";
import type { Catalog } from "../storage/catalog";
import { type Doc, docWithId, formatValue, isPlainObject, keyOf } from "../values";
import { flattenAddFields, setPathCopy } from "./add-fields";
import { type ChainBuilder, Collector, type PipelineEnv, type Stage, stageName } from "./stage";

const UPDATE_PIPELINE_STAGES = new Set(["$addFields", "$set", "$project", "$unset", "$replaceRoot", "$replaceWith"]);
/**
 * An update pipeline as a function from a stored document to its new version, run by the server's own stages.
 * As in mongod, a result without _id keeps the document's _id (first); a result whose _id differs is refused.
 */
export function compileUpdateStagesWith(
  buildChain: ChainBuilder,
  stages: Doc[],
  vars: Vars,
  catalog?: Catalog,
): (doc: Doc) => Doc {
  for (const stage of stages) {
    const name = stageName(stage);
    if (!UPDATE_PIPELINE_STAGES.has(name))
      throw new MongoCommandError("InvalidOptions", `${name} is not allowed to be used within an update`);
  }
  const fast = compileUpdatePipeline(stages, vars);
  let chain: { head: Stage; sink: Collector } | undefined;
  const general = (doc: Doc): Doc => {
    if (!chain) {
      const sink = new Collector();
      const env = { catalog, db: "", writable: false } as unknown as PipelineEnv;
      chain = { head: buildChain(stages, env, vars, sink), sink };
    }
    chain.sink.docs.length = 0;
    chain.head.push(doc);
    return chain.sink.docs[0];
  };
  return (doc) => {
    const out = (stages.length === 0 ? doc : fast?.(doc)) ?? general(doc);
    if (!("_id" in out) || out._id === undefined) {
      if (doc._id === undefined) return out;
      const withId = docWithId(doc._id);
      for (const k in out) if (k !== "_id") withId[k] = out[k];
      return withId;
    }
    if (doc._id !== undefined && keyOf(out._id) !== keyOf(doc._id)) {
      throw new MongoCommandError(
        "ImmutableField",
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(out._id)}`,
      );
    }
    return out;
  };
}

/**
 * An update pipeline made only of $set/$addFields (and $unset of top-level fields) as one function per
 * document, with the expressions compiled once: it returns the new version of a document (sharing the
 * values it left alone, never changing the stored object), or undefined when the document needs the
 * general path (an array on a dotted path). Undefined for any other pipeline.
 */
export function compileUpdatePipeline(stages: Doc[], vars?: Vars): ((doc: Doc) => Doc | undefined) | undefined {
  const steps: ({ set: [string[], Compiled][] } | { unset: string[] })[] = [];
  for (const stage of stages) {
    const keys = Object.keys(stage);
    if (keys.length !== 1) return undefined;
    const op = keys[0];
    const spec = stage[op];
    if (op === "$set" || op === "$addFields") {
      if (!isPlainObject(spec)) return undefined;
      const fields = flattenAddFields(spec);
      if (
        fields.some(
          ([path]) =>
            path === "_id" || path.startsWith("_id.") || path.split(".").some((p) => p === "" || p.startsWith("$")),
        )
      )
        return undefined;
      try {
        steps.push({ set: fields.map(([path, expr]) => [path.split("."), compileExpression(expr)]) });
      } catch {
        return undefined;
      }
    } else if (op === "$unset") {
      const names = typeof spec === "string" ? [spec] : spec;
      if (
        !Array.isArray(names) ||
        names.length === 0 ||
        !names.every((n) => typeof n === "string" && n !== "" && n !== "_id" && !n.includes(".") && !n.startsWith("$"))
      )
        return undefined;
      steps.push({ unset: names as string[] });
    } else {
      return undefined;
    }
  }
  return (doc) => {
    let out: Doc | undefined = doc;
    for (const step of steps) {
      if ("unset" in step) {
        out = { ...out };
        for (const name of step.unset) delete out[name];
        continue;
      }
      // Every expression of a stage sees the stage's input.
      const input: Doc = out;
      for (const [parts, expr] of step.set) {
        out = setPathCopy(out!, parts, expr(input, vars));
        if (!out) return undefined;
      }
    }
    return out;
  };
}
