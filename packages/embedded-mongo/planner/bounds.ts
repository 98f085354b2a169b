/**
 * Index bounds from a filter: bound values and intervals (with their explain text), and the analysis of a filter into
 * per-field intervals (exact or not), its $or branches and its $text.
 */
import { compareValues, isBoundScalar, Rank, typeRank } from "../bson-order";
import { MongoCommandError } from "../errors";
import { type Doc, isPlainObject } from "../values";

/** A bound below/above every value of one BSON type (rank), or below/above everything (no rank). */
type Sentinel = { readonly sentinel: "min" | "max"; readonly rank?: number };
export type BoundValue = unknown;
const MIN: Sentinel = { sentinel: "min" };
const MAX: Sentinel = { sentinel: "max" };
const minOf = (rank: number): Sentinel => ({ sentinel: "min", rank });
const maxOf = (rank: number): Sentinel => ({ sentinel: "max", rank });

function isSentinel(v: unknown): v is Sentinel {
  return (
    typeof v === "object" &&
    v !== null &&
    "sentinel" in v &&
    Object.getPrototypeOf(v) === Object.prototype &&
    Object.keys(v).every((k) => k === "sentinel" || k === "rank")
  );
}

/** Orders a value against a bound value. */
export function compareToBound(v: unknown, b: BoundValue): number {
  if (isSentinel(b)) {
    const r = typeRank(v);
    if (b.rank === undefined) {
      if (b.sentinel === "min") return r === Rank.MinKey ? 0 : 1;
      return r === Rank.MaxKey ? 0 : -1;
    }
    if (b.sentinel === "min") return r < b.rank ? -1 : 1;
    return r > b.rank ? 1 : -1;
  }
  return compareValues(v, b);
}

/** An interval of one field's values, in ascending BSON order. */
export type Interval = { lo: BoundValue; loInc: boolean; hi: BoundValue; hiInc: boolean };
export const FULL: Interval = { lo: MIN, loInc: true, hi: MAX, hiInc: true };
const point = (v: unknown): Interval => ({ lo: v, loInc: true, hi: v, hiInc: true });

export function isPoint(i: Interval): boolean {
  return !isSentinel(i.lo) && i.loInc && i.hiInc && compareValues(i.lo, i.hi) === 0;
}

export function boundsText(v: BoundValue): string {
  if (isSentinel(v)) {
    if (v.rank === undefined) return v.sentinel === "min" ? "MinKey" : "MaxKey";
    const names: Record<number, [string, string]> = {
      [Rank.Number]: ["-inf", "inf"],
      [Rank.String]: ['""', "{}"],
      [Rank.Date]: ["new Date(-9223372036854775808)", "new Date(9223372036854775807)"],
      [Rank.ObjectId]: ["ObjectId('000000000000000000000000')", "ObjectId('ffffffffffffffffffffffff')"],
      [Rank.Boolean]: ["false", "true"],
      [Rank.RegExp]: ["/(?:)/", "MaxKey"],
    };
    const pair = names[v.rank] ?? ["MinKey", "MaxKey"];
    return v.sentinel === "min" ? pair[0] : pair[1];
  }
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (typeof v === "object" && (v as { _bsontype?: string })._bsontype === "ObjectId")
    return `ObjectId('${(v as { toHexString(): string }).toHexString()}')`;
  if (v instanceof RegExp) return String(v);
  return String(v);
}

export function intervalText(i: Interval, direction: 1 | -1): string {
  const [a, ai, b, bi] = direction === 1 ? [i.lo, i.loInc, i.hi, i.hiInc] : [i.hi, i.hiInc, i.lo, i.loInc];
  return `${ai ? "[" : "("}${boundsText(a)}, ${boundsText(b)}${bi ? "]" : ")"}`;
}

export function intersect(a: Interval, b: Interval): Interval | undefined {
  const lo = compareBounds(a.lo, b.lo) >= 0 ? a : b;
  const hi = compareBounds(a.hi, b.hi) <= 0 ? a : b;
  let loInc = lo.loInc;
  let hiInc = hi.hiInc;
  if (compareBounds(a.lo, b.lo) === 0) loInc = a.loInc && b.loInc;
  if (compareBounds(a.hi, b.hi) === 0) hiInc = a.hiInc && b.hiInc;
  const c = compareBounds(lo.lo, hi.hi);
  if (c > 0 || (c === 0 && !(loInc && hiInc))) return undefined;
  return { lo: lo.lo, loInc, hi: hi.hi, hiInc };
}

/** Orders two bound values (sentinels included). */
export function compareBounds(a: BoundValue, b: BoundValue): number {
  if (!isSentinel(a)) return compareToBound(a, b);
  if (!isSentinel(b)) return -compareToBound(b, a);
  const rank = (s: Sentinel) =>
    s.rank === undefined ? (s.sentinel === "min" ? -1 : 1000) : s.rank + (s.sentinel === "min" ? -0.5 : 0.5);
  return rank(a) - rank(b);
}

export function sortIntervals(list: Interval[]): Interval[] {
  const sorted = [...list].sort((x, y) => compareBounds(x.lo, y.lo) || compareBounds(x.hi, y.hi));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && isPoint(last) && isPoint(i) && compareValues(last.lo, i.lo) === 0) continue;
    out.push(i);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Filter analysis

/** What the planner knows about one field: the union of intervals it may take, and whether they say it all. */
type FieldBounds = { intervals: Interval[]; exact: boolean };

export type QueryShape = {
  /** Bounds per field from top-level (and $and) conditions. */
  fields: Map<string, FieldBounds[]>;
  /** True when every condition is a field condition the bounds express exactly (no $or, $expr, regex…). */
  allExact: boolean;
  text?: Doc;
  or?: Doc[];
};

function rangeInterval(op: string, v: unknown): Interval | undefined {
  if (!isBoundScalar(v) || v === null) return undefined;
  const r = typeRank(v);
  if (r === Rank.MinKey || r === Rank.MaxKey) return undefined;
  switch (op) {
    case "$gt":
      return { lo: v, loInc: false, hi: maxOf(r), hiInc: true };
    case "$gte":
      return { lo: v, loInc: true, hi: maxOf(r), hiInc: true };
    case "$lt":
      return { lo: minOf(r), loInc: true, hi: v, hiInc: false };
    case "$lte":
      return { lo: minOf(r), loInc: true, hi: v, hiInc: true };
    default:
      return undefined;
  }
}

function regexIntervals(source: string, flags: string): { intervals: Interval[]; exact: boolean } {
  const all: Interval = { lo: minOf(Rank.String), loInc: true, hi: maxOf(Rank.String), hiInc: true };
  // A regex also matches a stored regex equal to it.
  const regexes: Interval = { lo: minOf(Rank.RegExp), loInc: true, hi: maxOf(Rank.RegExp), hiInc: true };
  if (
    flags.includes("i") ||
    flags.includes("x") ||
    !source.startsWith("^") ||
    (flags.includes("m") && source.startsWith("^"))
  ) {
    return { intervals: [all, regexes], exact: false };
  }
  let prefix = "";
  for (let i = 1; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const n = source[i + 1];
      if (n !== undefined && /[^A-Za-z0-9]/.test(n)) {
        prefix += n;
        i++;
        continue;
      }
      break;
    }
    if (/[.*+?()[\]{}|^$]/.test(c)) {
      // A quantifier makes the last character optional.
      if (/[*?{]/.test(c)) prefix = prefix.slice(0, -1);
      break;
    }
    prefix += c;
  }
  if (prefix === "") return { intervals: [all, regexes], exact: false };
  const last = prefix.charCodeAt(prefix.length - 1);
  const upper = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return { intervals: [{ lo: prefix, loInc: true, hi: upper, hiInc: false }, regexes], exact: false };
}

/** Bounds for one condition on one field, or undefined when the condition gives none. */
export function conditionBounds(cond: unknown): FieldBounds | undefined {
  if (cond instanceof RegExp) return regexIntervals(cond.source, cond.flags);
  if (isBsonRegex(cond)) return regexIntervals(cond.pattern, cond.options);
  if (!isPlainObject(cond)) {
    if (isBoundScalar(cond)) return { intervals: [point(cond)], exact: cond !== null };
    return undefined;
  }
  const keys = Object.keys(cond);
  if (keys.length === 0 || !keys.every((k) => k.startsWith("$"))) return undefined;
  let result: FieldBounds | undefined;
  let exact = true;
  const combine = (b: FieldBounds) => {
    if (!result) {
      result = b;
      return;
    }
    const merged: Interval[] = [];
    for (const x of result.intervals)
      for (const y of b.intervals) {
        const i = intersect(x, y);
        if (i) merged.push(i);
      }
    result = { intervals: merged, exact: result.exact && b.exact };
  };
  for (const op of keys) {
    const v = cond[op];
    switch (op) {
      case "$eq":
        if (isBoundScalar(v)) combine({ intervals: [point(v)], exact: v !== null });
        else if (v instanceof RegExp) combine({ intervals: [point(v)], exact: false });
        else exact = false;
        break;
      case "$in": {
        if (!Array.isArray(v)) return undefined;
        const intervals: Interval[] = [];
        let inExact = true;
        for (const item of v) {
          if (isBoundScalar(item)) {
            intervals.push(point(item));
            if (item === null) inExact = false;
          } else if (item instanceof RegExp) {
            intervals.push(...regexIntervals(item.source, item.flags).intervals);
            inExact = false;
          } else return undefined;
        }
        combine({ intervals: sortIntervals(intervals), exact: inExact });
        break;
      }
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte": {
        const i = rangeInterval(op, v);
        if (i) combine({ intervals: [i], exact: true });
        else exact = false;
        break;
      }
      case "$regex": {
        const source = v instanceof RegExp ? v.source : typeof v === "string" ? v : undefined;
        if (source === undefined) return undefined;
        const flags = `${v instanceof RegExp ? v.flags : ""}${typeof cond.$options === "string" ? cond.$options : ""}`;
        combine(regexIntervals(source, flags));
        break;
      }
      case "$options":
        break;
      case "$all": {
        if (!Array.isArray(v) || v.length === 0) return undefined;
        const first = v[0];
        if (!isBoundScalar(first) || first === null) return undefined;
        combine({ intervals: [point(first)], exact: v.length === 1 });
        break;
      }
      default:
        exact = false;
    }
  }
  if (!result) return undefined;
  return { intervals: result.intervals, exact: result.exact && exact };
}

function isBsonRegex(v: unknown): v is { pattern: string; options: string } {
  return typeof v === "object" && v !== null && (v as { _bsontype?: string })._bsontype === "BSONRegExp";
}

export function analyseFilter(filter: Doc): QueryShape {
  const shape: QueryShape = { fields: new Map(), allExact: true };
  const visit = (f: Doc) => {
    for (const [field, cond] of Object.entries(f)) {
      if (field === "$and" && Array.isArray(cond)) {
        for (const part of cond)
          if (isPlainObject(part)) visit(part);
          else shape.allExact = false;
        continue;
      }
      if (field === "$text") {
        if (shape.text) throw new MongoCommandError("BadValue", "Too many text expressions");
        if (!isPlainObject(cond)) throw new MongoCommandError("BadValue", "$text needs an object");
        shape.text = cond;
        shape.allExact = false;
        continue;
      }
      if (field === "$or" && Array.isArray(cond) && !shape.or) {
        shape.or = cond.filter(isPlainObject);
        shape.allExact = false;
        continue;
      }
      if (field === "$comment") continue;
      if (field.startsWith("$")) {
        shape.allExact = false;
        continue;
      }
      const b = conditionBounds(cond);
      if (!b) {
        shape.allExact = false;
        // Still note the field so an index on it can be used without bounds for sort.
        continue;
      }
      if (!b.exact) shape.allExact = false;
      const list = shape.fields.get(field) ?? [];
      list.push(b);
      shape.fields.set(field, list);
    }
  };
  visit(filter);
  return shape;
}

export function hasTextOperator(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasTextOperator);
  if (!isPlainObject(value)) return false;
  return Object.entries(value).some(([k, v]) => k === "$text" || hasTextOperator(v));
}
