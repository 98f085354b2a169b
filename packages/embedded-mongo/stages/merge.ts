/** $merge: each result written into the target as MongoDB does (whenMatched / whenNotMatched, `on` fields, `let`). */
import { MongoCommandError } from "../errors";
import { compileExpression, resolvePath, type Vars } from "../expressions";
import type { Collection } from "../storage/collection";
import { cloneDeep, type Doc, deepEqual, docWithId, isPlainObject, keyOf } from "../values";
import { assertFinalWritable, assertWritableName, targetNamespace, withIdFirstCopy } from "./out";
import { runQuerySync } from "./query";
import { type ChainBuilder, type PipelineEnv, Stage, type StageFactory } from "./stage";
import { compileUpdateStagesWith } from "./update-pipeline";

const WHEN_MATCHED = ["replace", "keepExisting", "merge", "fail"];
const WHEN_NOT_MATCHED = ["insert", "discard", "fail"];

/** $merge: each result written into the target as MongoDB does (whenMatched / whenNotMatched, `on` fields, `let`). */
export class MergeStage extends Stage {
  private readonly docs: Doc[] = [];
  private readonly target: { db: string; coll: string };
  private readonly on: string[];
  private readonly whenMatched: string | ((target: Doc, vars: Vars) => Doc);
  private readonly whenNotMatched: string;
  private readonly letSpec: Doc | undefined;
  constructor(
    spec: unknown,
    private readonly env: PipelineEnv,
    private readonly vars: Vars,
    buildChain: ChainBuilder,
  ) {
    super();
    const full: Doc = typeof spec === "string" ? { into: spec } : isPlainObject(spec) ? spec : {};
    if (!isPlainObject(spec) && typeof spec !== "string")
      throw new MongoCommandError(51182, "$merge only supports a string or object argument");
    for (const k of Object.keys(full)) {
      if (!["into", "on", "let", "whenMatched", "whenNotMatched", "targetCollectionVersion"].includes(k))
        throw new MongoCommandError(40415, `BSON field '$merge.${k}' is an unknown field.`);
    }
    if (full.into === undefined)
      throw new MongoCommandError(40414, "BSON field '$merge.into' is missing but a required field");
    this.target = targetNamespace(full.into, env, "$merge");
    assertWritableName(this.target, "$merge");
    const on = full.on === undefined ? ["_id"] : typeof full.on === "string" ? [full.on] : full.on;
    if (!Array.isArray(on) || on.length === 0 || !on.every((f) => typeof f === "string")) {
      throw new MongoCommandError(51186, "$merge 'on' field must be either a string or an array of strings");
    }
    if (new Set(on).size !== on.length)
      throw new MongoCommandError(31465, "Found a duplicate field in $merge 'on' fields");
    this.on = on as string[];
    const wm = full.whenMatched ?? "merge";
    if (Array.isArray(wm)) {
      if (full.let !== undefined && !isPlainObject(full.let))
        throw new MongoCommandError(
          "TypeMismatch",
          "BSON field '$merge.let' is the wrong type, expected type 'object'",
        );
      this.letSpec = isPlainObject(full.let) ? full.let : { new: "$$ROOT" };
      for (const name of Object.keys(this.letSpec)) if (name !== "new") validateVariableNameForMerge(name);
      const compiled = new Map<string, (doc: Doc) => Doc>();
      this.whenMatched = (targetDoc, v) => {
        const key = keyOf(v);
        let f = compiled.get(key);
        if (!f) {
          f = compileUpdateStagesWith(buildChain, wm as Doc[], v, env.catalog);
          compiled.set(key, f);
        }
        return f(targetDoc);
      };
    } else {
      if (typeof wm !== "string" || !WHEN_MATCHED.includes(wm)) {
        throw new MongoCommandError(
          "BadValue",
          `Enumeration value '${String(wm)}' for field '$merge.whenMatched' is not a valid value.`,
        );
      }
      if (full.let !== undefined)
        throw new MongoCommandError(51199, `Cannot use 'let' variables with 'whenMatched: ${wm}' mode`);
      this.whenMatched = wm;
    }
    const wn = full.whenNotMatched ?? "insert";
    if (typeof wn !== "string" || !WHEN_NOT_MATCHED.includes(wn)) {
      throw new MongoCommandError(
        "BadValue",
        `Enumeration value '${String(wn)}' for field '$merge.whenNotMatched' is not a valid value.`,
      );
    }
    this.whenNotMatched = wn;
    if (!(this.on.length === 1 && this.on[0] === "_id")) {
      const coll = env.catalog.getCollection(this.target.db, this.target.coll);
      const unique = coll
        ? [...coll.indexes.values()].some(
            (i) =>
              i.spec.unique === true &&
              !i.spec.partialFilterExpression &&
              sameFieldSet(Object.keys(i.spec.key), this.on),
          )
        : false;
      if (!unique) throw new MongoCommandError(51183, "Cannot find index to verify that join fields will be unique");
    }
  }
  push(doc: Doc): boolean {
    this.docs.push(doc);
    return true;
  }
  end(): void {
    const catalog = this.env.catalog;
    const byId = this.on.length === 1 && this.on[0] === "_id";
    for (const raw of this.docs) {
      let doc = raw;
      if (doc._id === undefined) doc = withIdFirstCopy(doc);
      const key: Doc = {};
      for (const f of this.on) {
        const v = resolvePath(doc, f.split("."));
        if (v === undefined || v === null || Array.isArray(v)) {
          throw new MongoCommandError(
            51132,
            "$merge write error: 'on' field cannot be missing, null, undefined or an array",
          );
        }
        key[f] = v;
      }
      const coll = catalog.getCollection(this.target.db, this.target.coll);
      let existing: Doc | undefined;
      if (coll) {
        if (byId) existing = coll.docs.get(keyOf(doc._id));
        else existing = runQuerySync(this.env, coll, key, { limit: 1 })[0];
      }
      if (!existing) {
        if (this.whenNotMatched === "discard") continue;
        if (this.whenNotMatched === "fail") {
          throw new MongoCommandError(
            "MergeStageNoMatchingDocument",
            "$merge could not find a matching document in the target collection for at least one document in the source collection",
          );
        }
        const into = coll ?? catalog.ensureCollection(this.target.db, this.target.coll);
        catalog.insert(into, cloneDeep(doc));
        continue;
      }
      const into = coll!;
      let next: Doc;
      if (typeof this.whenMatched === "function") {
        const letVars: Record<string, unknown> = { ...(this.vars ?? {}) };
        for (const [name, expr] of Object.entries(this.letSpec ?? {}))
          letVars[name] = compileExpression(expr)(doc, this.vars) ?? null;
        next = this.whenMatched(existing, letVars);
      } else if (this.whenMatched === "keepExisting") {
        continue;
      } else if (this.whenMatched === "fail") {
        const index = byId
          ? into.idIndex
          : [...into.indexes.values()].find(
              (i) => i.spec.unique === true && sameFieldSet(Object.keys(i.spec.key), this.on),
            );
        if (index && "duplicateError" in index) {
          throw (index as Collection["idIndex"]).duplicateError(
            into.ns,
            Object.keys(index.spec.key).map((f) => resolvePath(doc, f.split("."))),
          );
        }
        throw new MongoCommandError("DuplicateKey", `E11000 duplicate key error collection: ${into.ns}`);
      } else if (this.whenMatched === "replace") {
        if (raw._id !== undefined && keyOf(doc._id) !== keyOf(existing._id)) {
          throw new MongoCommandError(
            "ImmutableField",
            "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
          );
        }
        next = docWithId(existing._id);
        for (const k in doc) if (k !== "_id") next[k] = cloneDeep(doc[k]);
      } else {
        // merge: the result's fields set on the stored document (in place when present, appended when new).
        if (raw._id !== undefined && keyOf(doc._id) !== keyOf(existing._id)) {
          throw new MongoCommandError(
            "ImmutableField",
            "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
          );
        }
        next = { ...existing };
        for (const k in doc) if (k !== "_id") next[k] = cloneDeep(doc[k]);
      }
      if (keyOf(next._id) !== keyOf(existing._id)) {
        throw new MongoCommandError(
          "ImmutableField",
          "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
        );
      }
      if (!deepEqual(next, existing)) catalog.replace(into, existing, next);
    }
    this.next.end();
  }
}

function validateVariableNameForMerge(name: string): void {
  if (!/^[a-z\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*$/.test(name)) {
    throw new MongoCommandError(16867, `'${name}' starts with an invalid character for a user variable name`);
  }
}

function sameFieldSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((f) => b.includes(f));
}

export const mergeStage: StageFactory = (input) => {
  assertFinalWritable(input);
  return new MergeStage(input.arg, input.env, input.vars, input.buildChain);
};
