/**
 * Pipeline updates, $merge and $out as MongoDB documents them: a new root without _id keeps the document's
 * _id (first), a changed _id is refused (ImmutableField), stages an update cannot run are refused
 * (InvalidOptions); $merge's modes and its DuplicateKey error with MongoDB's shape. Field order is compared.
 * Runnable against a real MongoDB (CONFORMANCE_MONGODB_URI).
 */
import type { Db, Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, connect, expectError, expectOrdered, reset } from "./harness";

let c: Conformance;
let db: Db;

beforeAll(async () => {
  c = await connect("writes");
  db = c.db;
});
afterAll(async () => {
  await c?.close();
});

const BASE = [
  { _id: 1, item: "journal", qty: 5, size: { h: 14, w: 21 } },
  { _id: 2, item: "paper", qty: 100 },
];

async function all(name: string): Promise<Document[]> {
  return db.collection(name).find().sort({ _id: 1 }).toArray();
}

describe("pipeline updates", () => {
  type Case = { name: string; filter: Document; pipeline: Document[]; expected: Document };
  const cases: Case[] = [
    {
      name: "$replaceRoot to a document without _id keeps the _id, first",
      filter: { _id: 1 },
      pipeline: [{ $replaceRoot: { newRoot: { a: "$qty", b: "$size.h" } } }],
      expected: { _id: 1, a: 5, b: 14 },
    },
    {
      name: "$replaceWith a sub-document",
      filter: { _id: 1 },
      pipeline: [{ $replaceWith: "$size" }],
      expected: { _id: 1, h: 14, w: 21 },
    },
    {
      name: "$replaceWith $mergeObjects over $$ROOT",
      filter: { _id: 1 },
      pipeline: [{ $replaceWith: { $mergeObjects: ["$$ROOT", { qty: 6, extra: true }] } }],
      expected: { _id: 1, item: "journal", qty: 6, size: { h: 14, w: 21 }, extra: true },
    },
    {
      name: "$project",
      filter: { _id: 1 },
      pipeline: [{ $project: { qty: 1, item: 1 } }],
      expected: { _id: 1, item: "journal", qty: 5 },
    },
    {
      name: "$project without _id keeps it",
      filter: { _id: 1 },
      pipeline: [{ $project: { _id: 0, qty: 1 } }],
      expected: { _id: 1, qty: 5 },
    },
    { name: "$unset", filter: { _id: 1 }, pipeline: [{ $unset: ["size", "item"] }], expected: { _id: 1, qty: 5 } },
    {
      name: "$set then $unset, each stage seeing the last",
      filter: { _id: 2 },
      pipeline: [
        { $set: { total: { $multiply: ["$qty", 2] } } },
        { $set: { half: { $divide: ["$total", 4] } } },
        { $unset: "total" },
      ],
      expected: { _id: 2, item: "paper", qty: 100, half: 50 },
    },
  ];
  for (const t of cases) {
    it(t.name, async () => {
      await reset(db, "pu", BASE);
      const r = await db.collection("pu").updateOne(t.filter, t.pipeline);
      expect(r.matchedCount).toBe(1);
      expectOrdered(await db.collection("pu").findOne(t.filter), t.expected);
    });
  }

  const refused: { name: string; pipeline: Document[]; code: number }[] = [
    { name: "$replaceWith a different _id", pipeline: [{ $replaceWith: { _id: 9, a: 1 } }], code: 66 },
    { name: "$set of a different _id", pipeline: [{ $set: { _id: 9 } }], code: 66 },
    { name: "a $match stage", pipeline: [{ $match: { qty: 5 } }], code: 72 },
    { name: "a $group stage", pipeline: [{ $group: { _id: null } }], code: 72 },
  ];
  for (const t of refused) {
    it(`refuses ${t.name}, leaving the document alone`, async () => {
      await reset(db, "pu", BASE);
      await expectError(() => db.collection("pu").updateOne({ _id: 1 as never }, t.pipeline), { code: t.code });
      expectOrdered(await all("pu"), BASE);
    });
  }

  it("an upsert runs the pipeline on the filter's equality fields", async () => {
    await reset(db, "pu", BASE);
    const r = await db
      .collection("pu")
      .updateOne({ _id: 7 as never, item: "new" }, [{ $set: { qty: 1 } }], { upsert: true });
    expect(r.upsertedId).toBe(7);
    expectOrdered(await db.collection("pu").findOne({ _id: 7 as never }), { _id: 7, item: "new", qty: 1 });
  });

  it("constants of a statement (c) in a pipeline update", async () => {
    await reset(db, "pu", BASE);
    await db.command({ update: "pu", updates: [{ q: { _id: 2 }, u: [{ $set: { k: "$$k" } }], c: { k: 5 } }] });
    expectOrdered(await db.collection("pu").findOne({ _id: 2 as never }), { _id: 2, item: "paper", qty: 100, k: 5 });
  });

  it("a replacement with a different _id is refused", async () => {
    await reset(db, "pu", BASE);
    await expectError(() => db.collection("pu").replaceOne({ _id: 1 as never }, { _id: 3, item: "x" } as never), {
      code: 66,
    });
  });
});

describe("$merge", () => {
  const SOURCE = [
    { _id: 1, a: 1 },
    { _id: 2, a: 2 },
  ];
  const TARGET = [{ _id: 1, a: 0, b: 1 }];
  type Case = { name: string; merge: Document; expected: Document[] };
  const cases: Case[] = [
    {
      name: "into a collection: whenMatched merge, whenNotMatched insert (the defaults)",
      merge: { into: "tgt" },
      expected: [
        { _id: 1, a: 1, b: 1 },
        { _id: 2, a: 2 },
      ],
    },
    {
      name: "a string argument",
      merge: "tgt" as never,
      expected: [
        { _id: 1, a: 1, b: 1 },
        { _id: 2, a: 2 },
      ],
    },
    {
      name: "replace",
      merge: { into: "tgt", whenMatched: "replace" },
      expected: [
        { _id: 1, a: 1 },
        { _id: 2, a: 2 },
      ],
    },
    {
      name: "keepExisting",
      merge: { into: "tgt", whenMatched: "keepExisting" },
      expected: [
        { _id: 1, a: 0, b: 1 },
        { _id: 2, a: 2 },
      ],
    },
    {
      name: "discard what does not match",
      merge: { into: "tgt", whenNotMatched: "discard" },
      expected: [{ _id: 1, a: 1, b: 1 }],
    },
    {
      name: "a pipeline with $$new",
      merge: { into: "tgt", whenMatched: [{ $set: { a: { $add: ["$a", "$$new.a", 10] } } }] },
      expected: [
        { _id: 1, a: 11, b: 1 },
        { _id: 2, a: 2 },
      ],
    },
    {
      name: "a pipeline with let",
      merge: {
        into: "tgt",
        let: { inc: "$a" },
        whenMatched: [{ $set: { a: { $add: ["$a", "$$inc"] }, seen: true } }],
        whenNotMatched: "discard",
      },
      expected: [{ _id: 1, a: 1, b: 1, seen: true }],
    },
  ];
  for (const t of cases) {
    it(t.name, async () => {
      await reset(db, "src", SOURCE);
      await reset(db, "tgt", TARGET);
      const out = await db
        .collection("src")
        .aggregate([{ $merge: t.merge }])
        .toArray();
      expect(out).toEqual([]);
      expectOrdered(await all("tgt"), t.expected);
    });
  }

  it("whenMatched fail answers DuplicateKey (11000) with keyPattern and keyValue", async () => {
    await reset(db, "src", SOURCE);
    await reset(db, "tgt", TARGET);
    const err = await expectError(
      () =>
        db
          .collection("src")
          .aggregate([{ $merge: { into: "tgt", whenMatched: "fail" } }])
          .toArray(),
      { code: 11000, codeName: "DuplicateKey" },
    );
    expectOrdered(err.keyPattern, { _id: 1 });
    expectOrdered(err.keyValue, { _id: 1 });
  });

  it("whenNotMatched fail answers 13113", async () => {
    await reset(db, "src", SOURCE);
    await reset(db, "tgt", TARGET);
    await expectError(
      () =>
        db
          .collection("src")
          .aggregate([{ $merge: { into: "tgt", whenNotMatched: "fail" } }])
          .toArray(),
      { code: 13113 },
    );
  });

  it("on other fields needs a unique index on them", async () => {
    await reset(db, "src", SOURCE);
    await reset(db, "tgt", TARGET);
    await expectError(
      () =>
        db
          .collection("src")
          .aggregate([{ $merge: { into: "tgt", on: "a" } }])
          .toArray(),
      { code: 51183 },
    );
    await db.collection("tgt").createIndex({ a: 1 }, { unique: true });
    await db
      .collection("src")
      .aggregate([
        { $project: { _id: 0, a: 1, fromSrc: { $literal: true } } },
        { $merge: { into: "tgt", on: "a", whenMatched: "merge" } },
      ])
      .toArray();
    const docs = await db
      .collection("tgt")
      .find({}, { projection: { _id: 0 } })
      .sort({ a: 1 })
      .toArray();
    expectOrdered(docs, [
      { a: 0, b: 1 },
      { a: 1, fromSrc: true },
      { a: 2, fromSrc: true },
    ]);
  });

  it("must be the last stage", async () => {
    await expectError(
      () =>
        db
          .collection("src")
          .aggregate([{ $merge: { into: "tgt" } }, { $match: {} }])
          .toArray(),
      { code: 40601 },
    );
  });
});

describe("$out", () => {
  it("replaces the target's documents with the results", async () => {
    await reset(db, "src", [
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
    ]);
    await reset(db, "outc", [{ _id: 9, old: true }]);
    const out = await db
      .collection("src")
      .aggregate([
        { $match: { a: { $gt: 1 } } },
        { $project: { _id: 1, doubled: { $multiply: ["$a", 2] } } },
        { $out: "outc" },
      ])
      .toArray();
    expect(out).toEqual([]);
    expectOrdered(await all("outc"), [{ _id: 2, doubled: 4 }]);
  });

  it("leaves the target as it was when the results hold a duplicate _id", async () => {
    await reset(db, "src", [
      { _id: 1, s: "A" },
      { _id: 2, s: "A" },
    ]);
    await reset(db, "outc", [{ _id: 9, old: true }]);
    await expectError(
      () =>
        db
          .collection("src")
          .aggregate([{ $project: { _id: "$s" } }, { $out: "outc" }])
          .toArray(),
      { code: 11000 },
    );
    expectOrdered(await all("outc"), [{ _id: 9, old: true }]);
  });
});
