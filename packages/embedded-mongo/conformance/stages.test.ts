/**
 * Aggregation stages, one table per stage: the documents MongoDB documents for each pipeline, compared with
 * their field order (an inclusion keeps the document's order with _id first, computed fields follow in the
 * projection's order; $group and $bucket give _id first; new fields are appended, existing ones stay in
 * place), and the error codes MongoDB answers. Runnable against a real MongoDB (CONFORMANCE_MONGODB_URI).
 */
import type { Db, Document } from "mongodb";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Conformance, connect, expectError, expectOrdered, reset } from "./harness";

let c: Conformance;
let db: Db;

const INVENTORY = [
  { _id: 1, item: "journal", qty: 5, size: { h: 14, w: 21, uom: "cm" }, tags: ["blank", "red"], status: "A" },
  { _id: 2, item: "notebook", qty: 50, size: { h: 8.5, w: 11, uom: "in" }, tags: ["red"], status: "A" },
  { _id: 3, item: "paper", qty: 100, size: { h: 8.5, w: 11, uom: "in" }, tags: [], status: "D" },
];

beforeAll(async () => {
  c = await connect("stages");
  db = c.db;
  await reset(db, "inventory", INVENTORY);
  await reset(db, "scores", [
    { _id: 1, v: 1 },
    { _id: 2, v: 3 },
    { _id: 3, v: 5 },
    { _id: 4, v: 10 },
    { _id: 5, v: 12 },
    { _id: 6, v: null },
    { _id: 7, v: "x" },
    { _id: 8 },
  ]);
  await reset(db, "orders", [
    { _id: 1, item: "journal", price: 12, quantity: 2 },
    { _id: 2, item: "paper", price: 20, quantity: 1 },
    { _id: 3 },
  ]);
});
afterAll(async () => {
  await c?.close();
});

type Case = { name: string; collection: string; pipeline: Document[]; expected: Document[] };
type ErrorCase = { name: string; collection: string; pipeline: Document[]; code: number };

function runCases(cases: Case[]): void {
  for (const t of cases) {
    it(t.name, async () => {
      expectOrdered(await db.collection(t.collection).aggregate(t.pipeline).toArray(), t.expected);
    });
  }
}

function runErrors(cases: ErrorCase[]): void {
  for (const t of cases) {
    it(`refuses: ${t.name}`, async () => {
      await expectError(() => db.collection(t.collection).aggregate(t.pipeline).toArray(), { code: t.code });
    });
  }
}

describe("$project", () => {
  runCases([
    {
      name: "one field: _id first",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $project: { qty: 1 } }],
      expected: [{ _id: 1, qty: 5 }],
    },
    {
      name: "included fields keep the document's order, not the projection's",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $project: { status: 1, qty: 1, item: 1 } }],
      expected: [{ _id: 1, item: "journal", qty: 5, status: "A" }],
    },
    {
      name: "computed fields follow the included ones, in the projection's order",
      collection: "inventory",
      pipeline: [
        { $match: { _id: 1 } },
        { $project: { double: { $multiply: ["$qty", 2] }, item: 1, label: { $concat: ["$item", "!"] } } },
      ],
      expected: [{ _id: 1, item: "journal", double: 10, label: "journal!" }],
    },
    {
      name: "_id excluded",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $project: { _id: 0, item: 1 } }],
      expected: [{ item: "journal" }],
    },
    {
      name: "exclusion keeps the rest in order",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $project: { size: 0, tags: 0 } }],
      expected: [{ _id: 1, item: "journal", qty: 5, status: "A" }],
    },
    {
      name: "a dotted path and a nested specification",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $project: { "size.uom": 1, item: { $toUpper: "$item" }, "size.w": 1 } }],
      expected: [{ _id: 1, size: { w: 21, uom: "cm" }, item: "JOURNAL" }],
    },
    {
      name: "a computed field inside a sub-document",
      collection: "inventory",
      pipeline: [
        { $match: { _id: 1 } },
        { $project: { size: { uom: 1, area: { $multiply: ["$size.h", "$size.w"] } } } },
      ],
      expected: [{ _id: 1, size: { uom: "cm", area: 294 } }],
    },
    {
      name: "literal values",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $project: { _id: 0, a: { $literal: 1 }, b: "text", c: true } }],
      expected: [{ a: 1, b: "text" }],
    },
    {
      name: "_id as an expression is computed",
      collection: "inventory",
      pipeline: [{ $match: { _id: 2 } }, { $project: { qty: 1, _id: "$item" } }],
      expected: [{ qty: 50, _id: "notebook" }],
    },
  ]);
  runErrors([
    {
      name: "exclusion in an inclusion",
      collection: "inventory",
      pipeline: [{ $project: { item: 1, qty: 0 } }],
      code: 31254,
    },
    {
      name: "inclusion in an exclusion",
      collection: "inventory",
      pipeline: [{ $project: { item: 0, qty: 1 } }],
      code: 31253,
    },
    {
      name: "a path collision",
      collection: "inventory",
      pipeline: [{ $project: { size: 1, "size.h": 1 } }],
      code: 31250,
    },
  ]);
});

describe("$addFields / $set, $unset, $replaceRoot", () => {
  runCases([
    {
      name: "$addFields: an existing field stays in place, a new one is appended",
      collection: "inventory",
      pipeline: [{ $match: { _id: 2 } }, { $addFields: { qty: 0, extra: 1 } }, { $project: { size: 0, tags: 0 } }],
      expected: [{ _id: 2, item: "notebook", qty: 0, status: "A", extra: 1 }],
    },
    {
      name: "$set into a sub-document appends there",
      collection: "inventory",
      pipeline: [{ $match: { _id: 2 } }, { $set: { "size.d": 1 } }, { $project: { size: 1 } }],
      expected: [{ _id: 2, size: { h: 8.5, w: 11, uom: "in", d: 1 } }],
    },
    {
      name: "$unset removes fields, the rest keeps its order",
      collection: "inventory",
      pipeline: [{ $match: { _id: 2 } }, { $unset: ["size", "tags", "status"] }],
      expected: [{ _id: 2, item: "notebook", qty: 50 }],
    },
    {
      name: "$replaceWith gives the new root as built",
      collection: "inventory",
      pipeline: [{ $match: { _id: 1 } }, { $replaceWith: { uom: "$size.uom", id: "$_id", n: "$qty" } }],
      expected: [{ uom: "cm", id: 1, n: 5 }],
    },
  ]);
  runErrors([
    {
      name: "$replaceRoot to a value that is not a document",
      collection: "inventory",
      pipeline: [{ $replaceRoot: { newRoot: "$qty" } }],
      code: 40228,
    },
  ]);
});

describe("$group, $sortByCount, $count, $facet", () => {
  runCases([
    {
      name: "$group: _id first, then the accumulators in the specification's order",
      collection: "inventory",
      pipeline: [{ $group: { total: { $sum: "$qty" }, _id: "$status", n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
      expected: [
        { _id: "A", total: 55, n: 2 },
        { _id: "D", total: 100, n: 1 },
      ],
    },
    {
      name: "$sortByCount",
      collection: "inventory",
      pipeline: [{ $sortByCount: "$status" }],
      expected: [
        { _id: "A", count: 2 },
        { _id: "D", count: 1 },
      ],
    },
    {
      name: "$count",
      collection: "inventory",
      pipeline: [{ $match: { qty: { $gt: 10 } } }, { $count: "n" }],
      expected: [{ n: 2 }],
    },
    {
      name: "$facet: one field per facet, in order",
      collection: "inventory",
      pipeline: [{ $facet: { byStatus: [{ $sortByCount: "$status" }, { $limit: 1 }], n: [{ $count: "n" }] } }],
      expected: [{ byStatus: [{ _id: "A", count: 2 }], n: [{ n: 3 }] }],
    },
  ]);
});

describe("stage names", () => {
  runErrors([
    { name: "an unknown stage", collection: "inventory", pipeline: [{ $bogus: {} }], code: 40324 },
    { name: "a $group without _id", collection: "inventory", pipeline: [{ $group: { n: { $sum: 1 } } }], code: 15955 },
    { name: "two fields in one stage", collection: "inventory", pipeline: [{ $match: {}, $limit: 1 }], code: 40323 },
  ]);
});

describe("$bucket", () => {
  runCases([
    {
      name: "a value equal to an inner boundary goes to the bucket it opens; the rest to default, sorted by _id",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [0, 3, 10], default: "other" } }],
      expected: [
        { _id: 0, count: 1 },
        { _id: 3, count: 2 },
        { _id: "other", count: 5 },
      ],
    },
    {
      name: "output accumulators after _id, in order",
      collection: "scores",
      pipeline: [
        { $match: { v: { $type: "number" } } },
        {
          $bucket: {
            groupBy: "$v",
            boundaries: [0, 5, 20],
            output: { values: { $push: "$v" }, total: { $sum: "$v" } },
          },
        },
      ],
      expected: [
        { _id: 0, values: [1, 3], total: 4 },
        { _id: 5, values: [5, 10, 12], total: 27 },
      ],
    },
    {
      name: "a numeric default below the lowest boundary",
      collection: "scores",
      pipeline: [
        { $match: { v: { $type: "number" } } },
        { $bucket: { groupBy: "$v", boundaries: [5, 11], default: -1 } },
      ],
      expected: [
        { _id: -1, count: 3 },
        { _id: 5, count: 2 },
      ],
    },
  ]);
  runErrors([
    {
      name: "a value outside the boundaries without a default",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [0, 3, 10] } }],
      code: 40066,
    },
    {
      name: "boundaries not in ascending order",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [3, 0], default: "x" } }],
      code: 40194,
    },
    {
      name: "boundaries of different types",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [0, "a"], default: "x" } }],
      code: 40193,
    },
    {
      name: "a single boundary",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [0], default: "x" } }],
      code: 40192,
    },
    {
      name: "a default within the boundaries",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [0, 10], default: 5 } }],
      code: 40199,
    },
    {
      name: "an unknown option",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "$v", boundaries: [0, 10], bogus: 1 } }],
      code: 40197,
    },
    { name: "no groupBy", collection: "scores", pipeline: [{ $bucket: { boundaries: [0, 10] } }], code: 40198 },
    {
      name: "groupBy not a path or an expression",
      collection: "scores",
      pipeline: [{ $bucket: { groupBy: "v", boundaries: [0, 10] } }],
      code: 40202,
    },
  ]);
});

describe("$bucketAuto", () => {
  beforeAll(async () => {
    await reset(
      db,
      "ten",
      Array.from({ length: 10 }, (_, i) => ({ _id: i + 1, v: i + 1 })),
    );
    await reset(db, "dups", [
      { _id: 1, v: 1 },
      { _id: 2, v: 1 },
      { _id: 3, v: 1 },
      { _id: 4, v: 1 },
      { _id: 5, v: 2 },
    ]);
  });
  runCases([
    {
      name: "buckets of n / buckets documents; each max is the next min, the last max inclusive",
      collection: "ten",
      pipeline: [{ $bucketAuto: { groupBy: "$v", buckets: 3 } }],
      expected: [
        { _id: { min: 1, max: 4 }, count: 3 },
        { _id: { min: 4, max: 7 }, count: 3 },
        { _id: { min: 7, max: 10 }, count: 4 },
      ],
    },
    {
      name: "equal values stay in one bucket",
      collection: "dups",
      pipeline: [{ $bucketAuto: { groupBy: "$v", buckets: 2, output: { ids: { $push: "$_id" } } } }],
      expected: [
        { _id: { min: 1, max: 2 }, ids: [1, 2, 3, 4] },
        { _id: { min: 2, max: 2 }, ids: [5] },
      ],
    },
    {
      name: "more buckets than documents",
      collection: "dups",
      pipeline: [{ $match: { _id: { $gte: 4 } } }, { $bucketAuto: { groupBy: "$v", buckets: 5 } }],
      expected: [
        { _id: { min: 1, max: 2 }, count: 1 },
        { _id: { min: 2, max: 2 }, count: 1 },
      ],
    },
    {
      name: "granularity POWERSOF2",
      collection: "ten",
      pipeline: [{ $bucketAuto: { groupBy: "$v", buckets: 2, granularity: "POWERSOF2" } }],
      expected: [
        { _id: { min: 0.5, max: 8 }, count: 7 },
        { _id: { min: 8, max: 16 }, count: 3 },
      ],
    },
  ]);
  runErrors([
    {
      name: "buckets zero",
      collection: "ten",
      pipeline: [{ $bucketAuto: { groupBy: "$v", buckets: 0 } }],
      code: 40243,
    },
    {
      name: "buckets not a number",
      collection: "ten",
      pipeline: [{ $bucketAuto: { groupBy: "$v", buckets: "2" } }],
      code: 40241,
    },
    {
      name: "an unknown option",
      collection: "ten",
      pipeline: [{ $bucketAuto: { groupBy: "$v", buckets: 2, bogus: 1 } }],
      code: 40245,
    },
    { name: "no buckets", collection: "ten", pipeline: [{ $bucketAuto: { groupBy: "$v" } }], code: 40246 },
  ]);
});

describe("$lookup and $unwind", () => {
  runCases([
    {
      name: "$lookup with a pipeline: the joined documents keep _id first; 'as' is appended",
      collection: "orders",
      pipeline: [
        { $match: { _id: 1 } },
        {
          $lookup: {
            from: "inventory",
            let: { item: "$item" },
            pipeline: [{ $match: { $expr: { $eq: ["$item", "$$item"] } } }, { $project: { qty: 1, status: 1 } }],
            as: "stock",
          },
        },
      ],
      expected: [{ _id: 1, item: "journal", price: 12, quantity: 2, stock: [{ _id: 1, qty: 5, status: "A" }] }],
    },
    {
      name: "$lookup on fields; a missing local field matches documents without the foreign field",
      collection: "orders",
      pipeline: [
        { $lookup: { from: "inventory", localField: "item", foreignField: "item", as: "inv" } },
        { $project: { n: { $size: "$inv" } } },
      ],
      expected: [
        { _id: 1, n: 1 },
        { _id: 2, n: 1 },
        { _id: 3, n: 0 },
      ],
    },
    {
      name: "$unwind with includeArrayIndex and preserveNullAndEmptyArrays",
      collection: "inventory",
      pipeline: [
        { $project: { tags: 1 } },
        { $unwind: { path: "$tags", includeArrayIndex: "i", preserveNullAndEmptyArrays: true } },
      ],
      expected: [
        { _id: 1, tags: "blank", i: 0 },
        { _id: 1, tags: "red", i: 1 },
        { _id: 2, tags: "red", i: 0 },
        { _id: 3, i: null },
      ],
    },
    {
      name: "$unwind drops empty arrays by default",
      collection: "inventory",
      pipeline: [{ $project: { tags: 1 } }, { $unwind: "$tags" }],
      expected: [
        { _id: 1, tags: "blank" },
        { _id: 1, tags: "red" },
        { _id: 2, tags: "red" },
      ],
    },
  ]);
  it("$unionWith: the input, then the other collection through its pipeline, _id first", async () => {
    const docs = await db
      .collection("orders")
      .aggregate([
        { $match: { _id: 1 } },
        { $project: { item: 1 } },
        {
          $unionWith: {
            coll: "inventory",
            pipeline: [{ $match: { _id: { $lte: 2 } } }, { $project: { status: 1, item: 1 } }],
          },
        },
      ])
      .toArray();
    expectOrdered(docs, [
      { _id: 1, item: "journal" },
      { _id: 1, item: "journal", status: "A" },
      { _id: 2, item: "notebook", status: "A" },
    ]);
  });
  runErrors([
    { name: "$unwind path without $", collection: "inventory", pipeline: [{ $unwind: { path: "tags" } }], code: 28818 },
    {
      name: "$unwind with an unknown option",
      collection: "inventory",
      pipeline: [{ $unwind: { path: "$tags", bogus: 1 } }],
      code: 28811,
    },
  ]);
});
