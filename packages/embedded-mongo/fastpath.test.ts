/** The fast paths must agree with mingo (the reference) on every input they accept. */
import { ObjectId } from "bson";
import { Query, updateMany } from "mingo";
import { describe, expect, it } from "vitest";
import { compileFastUpdate, fastMatcher, fastSort, fastTopK } from "./fastpath";
import type { Doc } from "./values";
import { cloneDeep } from "./values";

// A small deterministic generator so failures are reproducible.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SCALARS: unknown[] = [0, 1, 2, 2.5, -1, "a", "b", "ab", "", true, false, new Date(0), new Date(1000), null];
// The matcher also takes ObjectIds: two values, one of them as two instances (equal by value, as MongoDB compares).
const OID = "6ae660d474753bba80023617";
const MATCH_SCALARS: unknown[] = [
  ...SCALARS,
  new ObjectId(OID),
  new ObjectId(OID),
  new ObjectId("6ae6fffff1be554f0cfd18d6"),
];

function pick<T>(r: () => number, list: T[]): T {
  return list[Math.floor(r() * list.length)];
}

function randomValue(r: () => number): unknown {
  const x = r();
  if (x < 0.1) return undefined;
  if (x < 0.3) return Array.from({ length: Math.floor(r() * 3) }, () => pick(r, MATCH_SCALARS));
  if (x < 0.4) return { v: pick(r, MATCH_SCALARS) };
  return pick(r, MATCH_SCALARS);
}

function randomDoc(r: () => number, i: number): Doc {
  const doc: Doc = { _id: i };
  for (const f of ["a", "b"]) {
    const v = randomValue(r);
    if (v !== undefined) doc[f] = v;
  }
  return doc;
}

const OPERAND_SCALARS = MATCH_SCALARS.filter((v) => v !== null);

function randomCondition(r: () => number): unknown {
  const x = r();
  const operand = () => pick(r, OPERAND_SCALARS);
  if (x < 0.2) return operand();
  if (x < 0.3) return { $eq: operand() };
  if (x < 0.4) return { $ne: operand() };
  if (x < 0.5) return { $in: [operand(), operand()] };
  if (x < 0.6) return { $nin: [operand(), operand()] };
  const ranged = OPERAND_SCALARS.filter((v) => typeof v !== "boolean" && !(v instanceof ObjectId));
  const op = pick(r, ["$gt", "$gte", "$lt", "$lte"]);
  if (x < 0.8) return { [op]: pick(r, ranged) };
  return { [op]: pick(r, ranged), [pick(r, ["$gt", "$gte", "$lt", "$lte"])]: pick(r, ranged) };
}

describe("fastMatcher", () => {
  it("agrees with mingo on scalar comparisons, arrays and missing fields", () => {
    const r = rng(42);
    const docs = Array.from({ length: 200 }, (_, i) => randomDoc(r, i));
    let checked = 0;
    for (let k = 0; k < 300; k++) {
      const filter: Doc = { a: randomCondition(r) };
      if (r() < 0.3) filter.b = randomCondition(r);
      if (r() < 0.2) filter["a.v"] = randomCondition(r);
      const fast = fastMatcher(filter);
      expect(fast, JSON.stringify(filter)).toBeDefined();
      const query = new Query(filter);
      for (const doc of docs) {
        const expected = query.test(doc);
        if (fast!(doc) !== expected) {
          throw new Error(`disagree on filter ${JSON.stringify(filter)} doc ${JSON.stringify(doc)}: mingo ${expected}`);
        }
        checked++;
      }
    }
    expect(checked).toBe(60_000);
  });

  it("declines what it does not handle", () => {
    expect(fastMatcher({ a: null })).toBeUndefined();
    expect(fastMatcher({ a: { $exists: true } })).toBeUndefined();
    expect(fastMatcher({ $or: [{ a: 1 }] })).toBeUndefined();
    expect(fastMatcher({ a: /x/ })).toBeUndefined();
    expect(fastMatcher({ a: { b: 1 } })).toBeUndefined();
    expect(fastMatcher({ "a.0": 1 })).toBeUndefined();
    expect(fastMatcher({ a: { $gt: new ObjectId() } })).toBeUndefined();
  });
});

describe("fastSort", () => {
  it("orders mixed scalar types like mingo (MongoDB's type order)", () => {
    const r = rng(7);
    const values = [...SCALARS, undefined];
    const docs = Array.from({ length: 300 }, (_, i) => {
      const d: Doc = { _id: i };
      const a = pick(r, values);
      if (a !== undefined) d.a = a;
      d.b = pick(r, [1, 2, 3]);
      return d;
    });
    for (const sort of [{ a: 1 }, { a: -1 }, { b: 1, a: -1 }, { a: 1, b: -1 }] as Record<string, 1 | -1>[]) {
      const fast = fastSort(docs, sort)!;
      const reference = new Query({}).find(docs).sort(sort).all() as Doc[];
      const key = (d: Doc) =>
        sort &&
        Object.keys(sort)
          .map((k) => JSON.stringify(d[k] ?? null))
          .join("|");
      expect(fast.map(key)).toEqual(reference.map(key));
    }
  });

  it("puts ObjectId between strings and booleans, as MongoDB documents (mingo puts it last)", () => {
    const oid = new ObjectId("000000000000000000000001");
    const docs: Doc[] = [{ a: new Date(5) }, { a: true }, { a: oid }, { a: "s" }, { a: 3 }, {}];
    expect(fastSort(docs, { a: 1 })!.map((d) => d.a)).toEqual([undefined, 3, "s", oid, true, new Date(5)]);
  });

  it("declines arrays and documents", () => {
    expect(fastSort([{ a: [1, 2] }], { a: 1 })).toBeUndefined();
    expect(fastSort([{ a: { b: 1 } }], { a: 1 })).toBeUndefined();
  });
});

describe("compileFastUpdate", () => {
  it("agrees with mingo on $set, $unset, $inc, $mul, $min and $max", () => {
    const r = rng(99);
    const starts: Doc[] = [
      { _id: 1 },
      { _id: 2, a: 1, b: { c: 2 } },
      { _id: 3, a: 5, b: { c: 10, d: "x" } },
      { _id: 4, a: -3, b: {} },
    ];
    const ops = ["$set", "$unset", "$inc", "$mul", "$min", "$max"];
    const paths = ["a", "n", "b.c", "b.e", "x.y.z"];
    let compared = 0;
    for (let k = 0; k < 300; k++) {
      const modifier: Doc = {};
      const used = new Set<string>();
      for (let j = 0; j < 1 + Math.floor(r() * 3); j++) {
        const op = pick(r, ops);
        const path = pick(r, paths);
        if ([...used].some((u) => u === path || u.startsWith(`${path}.`) || path.startsWith(`${u}.`))) continue;
        used.add(path);
        const value =
          op === "$set" ? pick(r, [1, "s", { q: 1 }, [1, 2], 2.5]) : op === "$unset" ? "" : pick(r, [0, 1, -2, 2.5, 7]);
        modifier[op] = { ...((modifier[op] as Doc) ?? {}), [path]: value };
      }
      const fast = compileFastUpdate(modifier);
      expect(fast, JSON.stringify(modifier)).toBeDefined();
      for (const start of starts) {
        const mine = cloneDeep(start);
        const applied = fast!(mine);
        const reference = [cloneDeep(start)];
        updateMany(reference, {}, modifier as never, {});
        if (applied) {
          expect(mine, `${JSON.stringify(modifier)} on ${JSON.stringify(start)}`).toEqual(reference[0]);
          compared++;
        } else {
          expect(mine).toEqual(start);
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("leaves documents with arrays or wrong types on the path to mingo", () => {
    const inc = compileFastUpdate({ $inc: { "a.b": 1 } })!;
    const arrayDoc = { a: [{ b: 1 }] };
    expect(inc(arrayDoc)).toBe(false);
    expect(arrayDoc).toEqual({ a: [{ b: 1 }] });
    expect(compileFastUpdate({ $inc: { a: 1 } })!({ a: "text" })).toBe(false);
    expect(compileFastUpdate({ $push: { a: 1 } })).toBeUndefined();
    expect(compileFastUpdate({ $set: { "a.$": 1 } })).toBeUndefined();
    expect(compileFastUpdate({ $set: { a: 1 }, $inc: { a: 1 } })).toBeUndefined();
  });
});

describe("fastTopK", () => {
  it("returns the same first documents as a full sort", () => {
    const r = rng(3);
    const docs: Doc[] = Array.from({ length: 500 }, (_, i) => ({
      _id: i,
      a: Math.floor(r() * 20),
      b: pick(r, ["x", "y", null]),
    }));
    for (const k of [1, 5, 20, 60]) {
      for (const sort of [{ a: 1 }, { a: -1, b: 1 }, { b: -1, a: 1 }] as Record<string, 1 | -1>[]) {
        expect(fastTopK(docs, sort, k)!.map((d) => d._id)).toEqual(
          fastSort(docs, sort)!
            .slice(0, k)
            .map((d) => d._id),
        );
      }
    }
  });
});
