/**
 * Fast paths for the most common query shapes, used instead of mingo when a
 * filter or sort only involves plain scalar comparisons. Anything else (or any
 * value outside the handled types) returns undefined and mingo does the work,
 * so these only ever have to be right for the cases they accept.
 */
import { type Doc, isPlainObject, pathValues } from "./values";

type Scalar = number | string | boolean | Date | ObjectIdLike;
/** An ObjectId of any copy of the bson package (the driver's or the engine's), compared by its bytes. */
type ObjectIdLike = { _bsontype: "ObjectId"; toHexString(): string };

const isObjectId = (v: unknown): v is ObjectIdLike =>
  typeof v === "object" && v !== null && (v as { _bsontype?: unknown })._bsontype === "ObjectId";
type Predicate = (doc: Doc) => boolean;

function scalarKind(v: unknown): "number" | "string" | "boolean" | "date" | "objectId" | undefined {
  if (typeof v === "number") return Number.isNaN(v) ? undefined : "number";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "boolean";
  if (v instanceof Date) return "date";
  if (isObjectId(v)) return "objectId";
  return undefined;
}

function comparable(v: unknown, kind: string): number | string | undefined {
  switch (kind) {
    case "number":
      return typeof v === "number" ? v : undefined;
    case "string":
      return typeof v === "string" ? v : undefined;
    case "boolean":
      return typeof v === "boolean" ? Number(v) : undefined;
    case "date":
      return v instanceof Date ? v.getTime() : undefined;
    case "objectId":
      return isObjectId(v) ? v.toHexString() : undefined;
    default:
      return undefined;
  }
}

function operand(v: Scalar): number | string {
  if (v instanceof Date) return v.getTime();
  if (isObjectId(v)) return v.toHexString();
  if (typeof v === "boolean") return Number(v);
  return v;
}

/** A predicate on one field value (already expanded from arrays). */
type ValueTest = (value: unknown) => boolean;

function compileCondition(cond: unknown): { test: ValueTest; negate: boolean } | undefined {
  if (scalarKind(cond)) return { test: eqTest(cond as Scalar), negate: false };
  if (!isPlainObject(cond)) return undefined;
  const keys = Object.keys(cond);
  if (keys.length === 0 || !keys.every((k) => k.startsWith("$"))) return undefined;
  if (keys.length === 1 && (keys[0] === "$ne" || keys[0] === "$nin")) {
    const inner = compileCondition(keys[0] === "$ne" ? cond.$ne : { $in: cond.$nin });
    if (!inner || inner.negate) return undefined;
    return { test: inner.test, negate: true };
  }
  const tests: ValueTest[] = [];
  for (const op of keys) {
    const arg = cond[op];
    if (op === "$eq") {
      if (!scalarKind(arg)) return undefined;
      tests.push(eqTest(arg as Scalar));
    } else if (op === "$in") {
      if (!Array.isArray(arg) || !arg.every((a) => scalarKind(a))) return undefined;
      const byKind = new Map<string, Set<number | string>>();
      for (const a of arg as Scalar[]) {
        const kind = scalarKind(a)!;
        if (!byKind.has(kind)) byKind.set(kind, new Set());
        byKind.get(kind)!.add(operand(a));
      }
      tests.push((v) => {
        const kind = scalarKind(v);
        const set = kind && byKind.get(kind);
        return !!set && set.has(comparable(v, kind)!);
      });
    } else if (op === "$gt" || op === "$gte" || op === "$lt" || op === "$lte") {
      const kind = scalarKind(arg);
      // Ranges over ObjectIds stay with mingo: only equality and $in (a record's own ids, read back) are fast.
      if (!kind || kind === "boolean" || kind === "objectId") return undefined;
      const bound = operand(arg as Scalar);
      tests.push((v) => {
        const c = comparable(v, kind);
        if (c === undefined) return false;
        switch (op) {
          case "$gt":
            return c > bound;
          case "$gte":
            return c >= bound;
          case "$lt":
            return c < bound;
          default:
            return c <= bound;
        }
      });
    } else {
      return undefined;
    }
  }
  // All operators of one condition must hold for the same array element
  // only under $elemMatch; for plain conditions each may hold on any element,
  // which is why each test is applied separately below.
  return { test: tests.length === 1 ? tests[0] : combineAny(tests), negate: false };
}

/** Marker: a conjunction whose parts are each satisfied by any element. */
const PARTS = Symbol("parts");
function combineAny(tests: ValueTest[]): ValueTest {
  const fn: ValueTest & { [PARTS]?: ValueTest[] } = () => false;
  fn[PARTS] = tests;
  return fn;
}

function eqTest(target: Scalar): ValueTest {
  const kind = scalarKind(target)!;
  const value = operand(target);
  return (v) => comparable(v, kind) === value;
}

/** A predicate equivalent to the filter, or undefined when the filter is outside the fast path. */
export function fastMatcher(filter: Doc): Predicate | undefined {
  const fieldTests: { path: string; simple: boolean; tests: ValueTest[]; negate: boolean }[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    if (field.startsWith("$")) return undefined;
    if (field.split(".").some((p) => p === "" || /^\d+$/.test(p))) return undefined;
    const compiled = compileCondition(cond);
    if (!compiled) return undefined;
    const parts = (compiled.test as { [PARTS]?: ValueTest[] })[PARTS] ?? [compiled.test];
    fieldTests.push({ path: field, simple: !field.includes("."), tests: parts, negate: compiled.negate });
  }
  return (doc) => {
    for (const ft of fieldTests) {
      const raw = ft.simple ? doc[ft.path] : undefined;
      const values =
        ft.simple && !Array.isArray(raw) ? [raw] : ft.simple ? (raw as unknown[]) : pathValues(doc, ft.path);
      let ok = true;
      for (const test of ft.tests) {
        let any = false;
        for (const v of values) {
          if (test(v)) {
            any = true;
            break;
          }
        }
        if (!any) {
          ok = false;
          break;
        }
      }
      if (ft.negate ? ok : !ok) return false;
    }
    return true;
  };
}

/** MongoDB's cross-type sort order for the scalar types this fast path handles. */
function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v === "number") return 2;
  if (typeof v === "string") return 3;
  if (typeof v === "boolean") return 8;
  if (v instanceof Date) return 9;
  return 7; // ObjectId (checked by the caller)
}

function isSortScalar(v: unknown): boolean {
  if (
    v === undefined ||
    v === null ||
    typeof v === "number" ||
    typeof v === "string" ||
    typeof v === "boolean" ||
    v instanceof Date
  ) {
    return !(typeof v === "number" && Number.isNaN(v));
  }
  return typeof v === "object" && (v as { _bsontype?: string })._bsontype === "ObjectId";
}

function sortKeyOf(v: unknown): number | string {
  if (v === undefined || v === null) return 0;
  if (typeof v === "boolean") return Number(v);
  if (v instanceof Date) return v.getTime();
  if (typeof v === "object") return (v as { toHexString(): string }).toHexString();
  return v as number | string;
}

/**
 * Sorts by scalar fields, or returns undefined when some sort value is an
 * array, a document or another type (mingo then sorts).
 */
export function fastSort(docs: Doc[], sort: Record<string, 1 | -1>): Doc[] | undefined {
  const fields = Object.entries(sort);
  const rows: { doc: Doc; ranks: number[]; keys: (number | string)[] }[] = new Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i];
    const ranks: number[] = [];
    const keys: (number | string)[] = [];
    for (const [path] of fields) {
      const v = path.includes(".") ? getSimplePath(doc, path) : doc[path];
      if (v === FALLBACK || !isSortScalar(v)) return undefined;
      ranks.push(typeRank(v));
      keys.push(sortKeyOf(v));
    }
    rows[i] = { doc, ranks, keys };
  }
  rows.sort((a, b) => {
    for (let f = 0; f < fields.length; f++) {
      const dir = fields[f][1];
      if (a.ranks[f] !== b.ranks[f]) return (a.ranks[f] - b.ranks[f]) * dir;
      const x = a.keys[f];
      const y = b.keys[f];
      if (x !== y) return (x < y ? -1 : 1) * dir;
    }
    return 0;
  });
  return rows.map((r) => r.doc);
}

const FALLBACK = Symbol("fallback");
function getSimplePath(doc: Doc, path: string): unknown {
  let current: unknown = doc;
  for (const part of path.split(".")) {
    if (Array.isArray(current)) return FALLBACK;
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

type UpdateOp = "$set" | "$unset" | "$inc" | "$mul" | "$min" | "$max";
const FAST_UPDATE_OPS = new Set<string>(["$set", "$unset", "$inc", "$mul", "$min", "$max"]);

/**
 * Applies simple operator updates ($set, $unset, $inc, $mul, $min, $max on
 * paths through plain documents) without mingo. The returned function mutates
 * a cloned document and returns false, untouched, when the document is outside
 * the fast path (an array on the path, a non-numeric $inc target...): the
 * caller then lets mingo apply the update and report any error.
 */
export function compileFastUpdate(modifier: Doc): ((doc: Doc) => boolean) | undefined {
  const steps: { op: UpdateOp; parts: string[]; value: unknown }[] = [];
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(modifier)) {
    if (!FAST_UPDATE_OPS.has(op) || !isPlainObject(fields)) return undefined;
    for (const [path, value] of Object.entries(fields)) {
      const parts = path.split(".");
      if (parts.some((p) => p === "" || p.startsWith("$") || /^\d+$/.test(p))) return undefined;
      if (parts[0] === "_id") return undefined;
      if ((op === "$inc" || op === "$mul") && typeof value !== "number") return undefined;
      if ((op === "$min" || op === "$max") && (typeof value !== "number" || Number.isNaN(value))) return undefined;
      steps.push({ op: op as UpdateOp, parts, value });
      paths.push(path);
    }
  }
  // Conflicting paths are an error mingo reports.
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(`${sorted[i - 1]}.`)) return undefined;
  }

  return (doc) => {
    // Check first, so a document is either fully updated here or left to mingo.
    for (const step of steps) {
      let current: unknown = doc;
      for (let i = 0; i < step.parts.length - 1; i++) {
        current = (current as Doc)[step.parts[i]];
        if (current === undefined) break;
        if (!isPlainObject(current)) return false;
      }
      if (current === undefined) continue;
      const target = (current as Doc)[step.parts[step.parts.length - 1]];
      if (
        (step.op === "$inc" || step.op === "$mul" || step.op === "$min" || step.op === "$max") &&
        target !== undefined &&
        typeof target !== "number"
      ) {
        return false;
      }
    }
    for (const step of steps) {
      let parent: Doc = doc;
      let missing = false;
      for (let i = 0; i < step.parts.length - 1; i++) {
        const next = parent[step.parts[i]];
        if (next === undefined) {
          if (step.op === "$unset") {
            missing = true;
            break;
          }
          parent[step.parts[i]] = {};
        }
        parent = parent[step.parts[i]] as Doc;
      }
      if (missing) continue;
      const key = step.parts[step.parts.length - 1];
      const target = parent[key] as number | undefined;
      const value = step.value as number;
      switch (step.op) {
        case "$set":
          parent[key] = step.value;
          break;
        case "$unset":
          delete parent[key];
          break;
        case "$inc":
          parent[key] = target === undefined ? value : target + value;
          break;
        case "$mul":
          parent[key] = target === undefined ? 0 : target * value;
          break;
        case "$min":
          if (target === undefined || value < target) parent[key] = value;
          break;
        case "$max":
          if (target === undefined || value > target) parent[key] = value;
          break;
      }
    }
    return true;
  };
}

/**
 * The first `count` documents in sort order, without sorting everything
 * (a bounded insertion list; ties keep their input order like a stable sort).
 */
export function fastTopK(docs: Doc[], sort: Record<string, 1 | -1>, count: number): Doc[] | undefined {
  if (count <= 0 || count * 4 >= docs.length) return fastSort(docs, sort);
  const fields = Object.entries(sort);
  type Row = { doc: Doc; ranks: number[]; keys: (number | string)[] };
  const compare = (a: Row, b: Row) => {
    for (let f = 0; f < fields.length; f++) {
      const dir = fields[f][1];
      if (a.ranks[f] !== b.ranks[f]) return (a.ranks[f] - b.ranks[f]) * dir;
      const x = a.keys[f];
      const y = b.keys[f];
      if (x !== y) return (x < y ? -1 : 1) * dir;
    }
    return 0;
  };
  const top: Row[] = [];
  for (const doc of docs) {
    const ranks: number[] = [];
    const keys: (number | string)[] = [];
    for (const [path] of fields) {
      const v = path.includes(".") ? getSimplePath(doc, path) : doc[path];
      if (v === FALLBACK || !isSortScalar(v)) return undefined;
      ranks.push(typeRank(v));
      keys.push(sortKeyOf(v));
    }
    const row = { doc, ranks, keys };
    if (top.length === count && compare(row, top[count - 1]) >= 0) continue;
    // upper bound: after any equal rows, so earlier input stays first
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(row, top[mid]) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, row);
    if (top.length > count) top.pop();
  }
  return top.map((r) => r.doc);
}
