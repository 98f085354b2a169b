/**
 * Projections ($project, $unset, find's projection, findAndModify's fields) with MongoDB's field order:
 * an inclusion keeps the included fields in the order of the document (so _id, stored first, stays first),
 * then adds the computed fields in the order the projection names them; an exclusion keeps the document's
 * order without the excluded fields. Dotted paths and nested specifications apply inside embedded documents
 * and arrays of them. find's $slice and $elemMatch are handled here too; the positional `$` is refused.
 */
import { Query } from "mingo";
import { MongoCommandError, toCommandError } from "./errors";
import { type Compiled, compileExpression, MINGO_OPTIONS, textScores, type Vars } from "./expressions";
import { type Doc, isPlainObject } from "./values";

type Node =
  | { kind: "include" }
  | { kind: "exclude" }
  | { kind: "expr"; f: Compiled }
  | { kind: "meta" }
  | { kind: "slice"; skip: number | undefined; limit: number }
  | { kind: "elemMatch"; test: (value: unknown) => boolean }
  | { kind: "tree"; children: Map<string, Node> };

type Tree = Map<string, Node>;

export type Projector = (doc: Doc, vars?: Vars) => Doc;

function isNumeric(v: unknown): boolean {
  if (typeof v === "number") return true;
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  return t === "Int32" || t === "Double" || t === "Long" || t === "Decimal128";
}

function truthyNumber(v: unknown): boolean {
  if (typeof v === "number") return v !== 0;
  return Number(String(v)) !== 0;
}

function isOperatorObject(v: unknown): v is Doc {
  return isPlainObject(v) && Object.keys(v).length > 0 && Object.keys(v)[0].startsWith("$");
}

/**
 * Compiles a projection. `find` allows $slice, $elemMatch and an empty specification (no projection);
 * `aggregate` is $project's grammar.
 */
export function compileProjection(spec: Doc, mode: "find" | "aggregate"): Projector {
  const keys = Object.keys(spec);
  if (keys.length === 0) {
    if (mode === "find") return (doc) => doc;
    throw new MongoCommandError(
      51272,
      "Invalid $project :: caused by :: projection specification must have at least one field",
    );
  }
  const root: Tree = new Map();
  let inclusion: boolean | undefined;
  let idSpecified = false;

  const setMode = (path: string, include: boolean) => {
    if (inclusion === undefined) inclusion = include;
    else if (inclusion !== include) {
      throw include
        ? new MongoCommandError(31253, `Cannot do inclusion on field ${path} in exclusion projection`)
        : new MongoCommandError(31254, `Cannot do exclusion on field ${path} in inclusion projection`);
    }
  };

  const place = (tree: Tree, parts: string[], node: Node, fullPath: string) => {
    let current = tree;
    for (let i = 0; i < parts.length - 1; i++) {
      const existing = current.get(parts[i]);
      if (existing && existing.kind !== "tree")
        throw new MongoCommandError(
          31250,
          `Path collision at ${fullPath} remaining portion ${parts.slice(i + 1).join(".")}`,
        );
      if (!existing) {
        const children: Tree = new Map();
        current.set(parts[i], { kind: "tree", children });
        current = children;
      } else current = existing.children;
    }
    const last = parts[parts.length - 1];
    if (current.has(last)) throw new MongoCommandError(31250, `Path collision at ${fullPath}`);
    current.set(last, node);
  };

  const visit = (obj: Doc, prefix: string) => {
    for (const [key, value] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (key === "") throw new MongoCommandError(40352, "FieldPath cannot be constructed with empty string");
      if (key.startsWith("$"))
        throw new MongoCommandError(
          16410,
          `FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
        );
      const parts = path.split(".");
      if (parts.includes("$") || parts.some((p) => p.startsWith("$"))) {
        if (mode === "find" && parts[parts.length - 1] === "$")
          throw new MongoCommandError(
            "IllegalOperation",
            "the positional projection operator ('$') is not supported by the embedded server",
          );
        throw new MongoCommandError(
          16410,
          `FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
        );
      }
      if (parts.some((p) => p === ""))
        throw new MongoCommandError(15998, "FieldPath field names may not be empty strings.");
      const isId = path === "_id";
      if (typeof value === "boolean" || isNumeric(value)) {
        const on = typeof value === "boolean" ? value : truthyNumber(value);
        if (isId) idSpecified = true;
        if (!isId) setMode(path, on);
        place(root, parts, { kind: on ? "include" : "exclude" }, path);
        continue;
      }
      if (isOperatorObject(value)) {
        const op = Object.keys(value)[0];
        if (op === "$meta") {
          if (value.$meta !== "textScore")
            throw new MongoCommandError(
              "IllegalOperation",
              `{$meta: ${JSON.stringify(value.$meta)}} is not supported by the embedded server`,
            );
          if (isId) idSpecified = true;
          place(root, parts, { kind: "meta" }, path);
          continue;
        }
        if (mode === "find" && op === "$slice" && Object.keys(value).length === 1) {
          const arg = value.$slice;
          let node: Node;
          if (isNumeric(arg)) node = { kind: "slice", skip: undefined, limit: Number(arg) };
          else if (Array.isArray(arg) && arg.length === 2 && isNumeric(arg[0]) && isNumeric(arg[1])) {
            if (Number(arg[1]) <= 0)
              throw new MongoCommandError(28724, "Second argument to $slice must be a positive number");
            node = { kind: "slice", skip: Number(arg[0]), limit: Number(arg[1]) };
          } else throw new MongoCommandError(28667, "$slice only supports numbers and [skip, limit] arrays");
          place(root, parts, node, path);
          continue;
        }
        if (mode === "find" && op === "$elemMatch" && Object.keys(value).length === 1) {
          if (!isPlainObject(value.$elemMatch))
            throw new MongoCommandError("BadValue", "elemMatch: Invalid argument, object required.");
          if (parts.length > 1)
            throw new MongoCommandError("BadValue", "Cannot use $elemMatch projection on a nested field.");
          let q: Query;
          try {
            q = new Query({ v: { $elemMatch: value.$elemMatch } }, MINGO_OPTIONS as never);
          } catch (error) {
            throw toCommandError(error);
          }
          if (isId) idSpecified = true;
          else setMode(path, true);
          place(root, parts, { kind: "elemMatch", test: (el) => q.test({ v: [el] }) }, path);
          continue;
        }
        if (isId) idSpecified = true;
        else setModeForExpression(path);
        place(root, parts, { kind: "expr", f: compileExpression(value) }, path);
        continue;
      }
      if (isPlainObject(value)) {
        if (Object.keys(value).length === 0)
          throw new MongoCommandError(
            51270,
            `An empty sub-projection is not a valid value. Found empty object at path ${path}`,
          );
        visit(value, path);
        continue;
      }
      // Any other value (a string, an array, null, a date…) is an expression: a literal or a field path.
      if (isId) idSpecified = true;
      else setModeForExpression(path);
      place(root, parts, { kind: "expr", f: compileExpression(value) }, path);
    }
  };
  const setModeForExpression = (path: string) => {
    if (inclusion === false)
      throw new MongoCommandError(31252, `Cannot use expression other than $meta in exclusion projection (at ${path})`);
    inclusion = true;
  };

  visit(spec, "");
  // An _id given as an expression in an exclusion projection is refused like any other expression.
  const idNode = root.get("_id");
  if (inclusion === false && idNode && idNode.kind === "expr")
    throw new MongoCommandError(31252, "Cannot use expression other than $meta in exclusion projection");
  if (inclusion === undefined) {
    // Only _id, $meta or $slice named: {_id: 1} keeps _id alone, {_id: 0} (or only $slice/$meta) keeps the rest.
    inclusion = idNode !== undefined && idNode.kind !== "exclude" && idNode.kind !== "meta" && idNode.kind !== "slice";
  }
  if (inclusion && !idSpecified && !root.has("_id")) {
    // _id is included by default, in its place in the document.
    const withId: Tree = new Map([["_id", { kind: "include" }]]);
    for (const [k, v] of root) withId.set(k, v);
    return makeInclusion(withId);
  }
  return inclusion ? makeInclusion(root) : makeExclusion(root);
}

function sliceArray(value: unknown, node: { skip: number | undefined; limit: number }): unknown {
  if (!Array.isArray(value)) return value;
  if (node.skip === undefined) {
    const n = node.limit;
    return n >= 0 ? value.slice(0, n) : value.slice(Math.max(0, value.length + n));
  }
  const start = node.skip >= 0 ? Math.min(node.skip, value.length) : Math.max(0, value.length + node.skip);
  return value.slice(start, start + node.limit);
}

function hasComputed(tree: Tree): boolean {
  for (const node of tree.values()) {
    if (node.kind === "expr" || node.kind === "meta") return true;
    if (node.kind === "tree" && hasComputed(node.children)) return true;
  }
  return false;
}

function makeInclusion(tree: Tree): Projector {
  const computed = hasComputed(tree);
  return (doc, vars) => {
    const out = includeFields(doc, tree);
    if (computed) addComputed(out, tree, doc, doc, vars);
    return out;
  };
}

/** Phase one: the included fields, in the document's order. */
function includeFields(doc: Doc, tree: Tree): Doc {
  const out: Doc = {};
  for (const key in doc) {
    const node = tree.get(key);
    if (!node) continue;
    const value = doc[key];
    switch (node.kind) {
      case "include":
        out[key] = value;
        break;
      case "slice":
        out[key] = sliceArray(value, node);
        break;
      case "elemMatch":
        if (Array.isArray(value)) {
          const found = value.find((el) => node.test(el));
          if (found !== undefined) out[key] = [found];
        }
        break;
      case "tree":
        if (isPlainObject(value)) out[key] = includeFields(value, node.children);
        else if (Array.isArray(value)) out[key] = includeInArray(value, node.children);
        break;
      default:
        break;
    }
  }
  return out;
}

function includeInArray(values: unknown[], tree: Tree): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (isPlainObject(v)) out.push(includeFields(v, tree));
    else if (Array.isArray(v)) out.push(includeInArray(v, tree));
  }
  return out;
}

/** Phase two: the computed fields, in the projection's order, evaluated against the whole document. */
function addComputed(out: Doc, tree: Tree, root: Doc, original: Doc, vars: Vars): void {
  for (const [key, node] of tree) {
    if (node.kind === "expr") {
      const v = node.f(root, vars);
      if (v === undefined) delete out[key];
      else out[key] = v;
    } else if (node.kind === "meta") {
      out[key] = textScores.get(original) ?? 0;
    } else if (node.kind === "tree" && hasComputed(node.children)) {
      const current = out[key];
      if (Array.isArray(current)) out[key] = current.map((el) => computeInto(el, node.children, root, original, vars));
      else out[key] = computeInto(current, node.children, root, original, vars);
    }
  }
}

function computeInto(value: unknown, tree: Tree, root: Doc, original: Doc, vars: Vars): unknown {
  if (Array.isArray(value)) return value.map((el) => computeInto(el, tree, root, original, vars));
  const target: Doc = isPlainObject(value) ? value : {};
  addComputed(target, tree, root, original, vars);
  return target;
}

function makeExclusion(tree: Tree): Projector {
  const computed = hasComputed(tree);
  return (doc) => {
    const out = excludeFields(doc, tree);
    if (computed) for (const [key, node] of tree) if (node.kind === "meta") out[key] = textScores.get(doc) ?? 0;
    return out;
  };
}

function excludeFields(doc: Doc, tree: Tree): Doc {
  const out: Doc = {};
  for (const key in doc) {
    const node = tree.get(key);
    const value = doc[key];
    if (!node || node.kind === "include" || node.kind === "meta") {
      out[key] = value;
      continue;
    }
    switch (node.kind) {
      case "exclude":
        break;
      case "slice":
        out[key] = sliceArray(value, node);
        break;
      case "tree":
        if (isPlainObject(value)) out[key] = excludeFields(value, node.children);
        else if (Array.isArray(value)) out[key] = excludeInArray(value, node.children);
        else out[key] = value;
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}

function excludeInArray(values: unknown[], tree: Tree): unknown[] {
  return values.map((v) =>
    isPlainObject(v) ? excludeFields(v, tree) : Array.isArray(v) ? excludeInArray(v, tree) : v,
  );
}

/** $unset: the named fields removed, as an exclusion projection. */
export function compileUnset(spec: unknown): Projector {
  const names = typeof spec === "string" ? [spec] : spec;
  if (!Array.isArray(names) || names.length === 0) {
    throw new MongoCommandError(31119, "$unset specification must be a string or an array with at least one field");
  }
  if (!names.every((n) => typeof n === "string"))
    throw new MongoCommandError(
      31120,
      "$unset specification must be a string or an array containing only string values",
    );
  const projection: Doc = {};
  for (const n of names as string[]) projection[n] = 0;
  return compileProjection(projection, "aggregate");
}
