/**
 * MongoDB's total order over BSON values, used by the indexes, the planner's
 * bounds and sorting: first by canonical type (MinKey < null/missing <
 * numbers < strings < objects < arrays < binary < ObjectId < booleans <
 * dates < timestamps < regular expressions < MaxKey), then by value.
 */
import { comparePacked, isPacked } from "./object-id";
import { isPlainObject } from "./values";

export enum Rank {
  MinKey = 1,
  Null = 5,
  Number = 10,
  String = 15,
  Object = 20,
  Array = 25,
  Binary = 30,
  ObjectId = 35,
  Boolean = 40,
  Date = 45,
  Timestamp = 47,
  RegExp = 50,
  MaxKey = 127,
}

function bsonTypeOf(value: object): string | undefined {
  const t = (value as { _bsontype?: unknown })._bsontype;
  return typeof t === "string" ? t : undefined;
}

export function typeRank(value: unknown): number {
  switch (typeof value) {
    case "undefined":
      return Rank.Null;
    case "number":
    case "bigint":
      return Rank.Number;
    case "string":
      return Rank.String;
    case "boolean":
      return Rank.Boolean;
    case "object": {
      if (value === null) return Rank.Null;
      if (value instanceof Date) return Rank.Date;
      if (Array.isArray(value)) return Rank.Array;
      if (value instanceof RegExp) return Rank.RegExp;
      const t = bsonTypeOf(value);
      switch (t) {
        case undefined:
          return Rank.Object;
        case "ObjectId":
          return Rank.ObjectId;
        case "Binary":
          return Rank.Binary;
        case "Int32":
        case "Double":
        case "Long":
        case "Decimal128":
          return Rank.Number;
        case "Timestamp":
          return Rank.Timestamp;
        case "BSONRegExp":
          return Rank.RegExp;
        case "MinKey":
          return Rank.MinKey;
        case "MaxKey":
          return Rank.MaxKey;
        case "BSONSymbol":
          return Rank.String;
        default:
          return Rank.Object;
      }
    }
    default:
      return Rank.Object;
  }
}

function numberOf(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return Number((value as { valueOf(): unknown }).valueOf());
}

function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  // NaN sorts before every other number, as in MongoDB.
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  return an === bn ? 0 : an ? -1 : 1;
}

function isObjectId(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as { _bsontype?: unknown })._bsontype === "ObjectId";
}

/** Byte by byte (the order of their hex strings, without making them); two packed ids never get here (compareValues). */
function compareObjectIds(a: unknown, b: unknown): number {
  const x = (a as { buffer?: unknown }).buffer;
  const y = (b as { buffer?: unknown }).buffer;
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 12 || y.length !== 12) {
    return compareStrings(
      (a as { toHexString(): string }).toHexString(),
      (b as { toHexString(): string }).toHexString(),
    );
  }
  for (let i = 0; i < 12; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The version of the order compareValues gives. A snapshot records it beside each index order written while its
 * collection did not change, and a start takes such an order without comparing its entries again (journal/snapshot.ts,
 * snapshotChunks; storage/indexes.ts, loadInOrder). Change it with any change to how two values compare: the orders recorded
 * before are then checked entry by entry, as any order recorded without it is.
 */
export const ORDER_VERSION = 1;

/** Compares two BSON values in MongoDB's order: negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  // The common cases first: same primitive type.
  if (typeof a === "number" && typeof b === "number") return compareNumbers(a, b);
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (a instanceof Date && b instanceof Date) return compareNumbers(a.getTime(), b.getTime());
  if (isPacked(a) && isPacked(b)) return comparePacked(a, b);
  if (isObjectId(a) && isObjectId(b)) return compareObjectIds(a, b);
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case Rank.Null:
    case Rank.MinKey:
    case Rank.MaxKey:
      return 0;
    case Rank.Number:
      return compareNumbers(numberOf(a), numberOf(b));
    case Rank.String:
      return compareStrings(String(a), String(b));
    case Rank.Boolean:
      return (a ? 1 : 0) - (b ? 1 : 0);
    case Rank.Date:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case Rank.ObjectId:
      return compareObjectIds(a, b);
    case Rank.Array:
      return compareArrays(a as unknown[], b as unknown[]);
    case Rank.Object:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
    case Rank.Binary: {
      const ba = a as { buffer: Uint8Array; sub_type: number };
      const bb = b as { buffer: Uint8Array; sub_type: number };
      if (ba.buffer.length !== bb.buffer.length) return ba.buffer.length - bb.buffer.length;
      if (ba.sub_type !== bb.sub_type) return ba.sub_type - bb.sub_type;
      return Buffer.compare(Buffer.from(ba.buffer), Buffer.from(bb.buffer));
    }
    case Rank.Timestamp: {
      const ta = a as { high: number; low: number };
      const tb = b as { high: number; low: number };
      return ta.high !== tb.high
        ? compareNumbers(ta.high >>> 0, tb.high >>> 0)
        : compareNumbers(ta.low >>> 0, tb.low >>> 0);
    }
    case Rank.RegExp: {
      const pa =
        a instanceof RegExp
          ? [a.source, a.flags]
          : [(a as { pattern: string }).pattern, (a as { options: string }).options];
      const pb =
        b instanceof RegExp
          ? [b.source, b.flags]
          : [(b as { pattern: string }).pattern, (b as { options: string }).options];
      return compareStrings(pa[0], pb[0]) || compareStrings(pa[1], pb[1]);
    }
    default:
      return 0;
  }
}

function compareArrays(a: unknown[], b: unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const ta = typeRank(a[ka[i]]);
    const tb = typeRank(b[kb[i]]);
    if (ta !== tb) return ta - tb;
    const names = compareStrings(ka[i], kb[i]);
    if (names !== 0) return names;
    const c = compareValues(a[ka[i]], b[kb[i]]);
    if (c !== 0) return c;
  }
  return ka.length - kb.length;
}

/**
 * The value a sort uses for a field that may hold an array: the smallest
 * element ascending, the largest descending (an empty array sorts as
 * undefined), as MongoDB does.
 */
export function sortValue(value: unknown, direction: 1 | -1): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return undefined;
  let best = value[0];
  for (let i = 1; i < value.length; i++) {
    const c = compareValues(value[i], best);
    if (direction === 1 ? c < 0 : c > 0) best = value[i];
  }
  return best;
}

/** True for values an index bound can hold exactly (scalars; not arrays, documents or regexes). */
export function isBoundScalar(value: unknown): boolean {
  if (value === null) return true;
  const t = typeof value;
  if (t === "string" || t === "boolean") return true;
  if (t === "number") return !Number.isNaN(value);
  if (value instanceof Date) return true;
  if (t === "object" && !isPlainObject(value) && !Array.isArray(value) && !(value instanceof RegExp)) {
    const b = bsonTypeOf(value as object);
    return b === "ObjectId" || b === "MinKey" || b === "MaxKey";
  }
  return false;
}
