/**
 * Commands as mongod 7.0 parses them: unknown fields, wrong types, required fields, 8.0-only options, the
 * generic fields the driver sends, `let` on every command that takes it, and what an _id may hold.
 * Written from MongoDB's documentation and its command reference; runnable against a real MongoDB
 * (CONFORMANCE_MONGODB_URI) to confirm every expectation.
 */
import type { Db, Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, connect, expectError, expectOrdered, reset } from "./harness";

let c: Conformance;
let db: Db;

beforeAll(async () => {
  c = await connect("commands");
  db = c.db;
  await reset(db, "items", [
    { _id: 1, name: "a", qty: 5 },
    { _id: 2, name: "b", qty: 10 },
    { _id: 3, name: "c", qty: 15 },
  ]);
});
afterAll(async () => {
  await c?.close();
});

type RefusedCase = { name: string; command: Document; code: number; codeName: string };

describe("fields a command does not know, or of the wrong type, are refused", () => {
  const cases: RefusedCase[] = [
    {
      name: "find with an unknown option",
      command: { find: "items", bogusOption: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "aggregate with an unknown option",
      command: { aggregate: "items", pipeline: [], cursor: {}, bogusOption: true },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "count with an unknown option",
      command: { count: "items", bogus: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "distinct with an unknown option",
      command: { distinct: "items", key: "name", bogus: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "insert with an unknown option",
      command: { insert: "items", documents: [{ _id: 100 }], bogus: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "update with an unknown option",
      command: { update: "items", updates: [{ q: {}, u: { $set: { x: 1 } } }], bogus: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "delete with an unknown option",
      command: { delete: "items", deletes: [{ q: { _id: 99 }, limit: 1 }], bogus: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "findAndModify with an unknown option",
      command: { findAndModify: "items", query: {}, update: { $set: { x: 1 } }, bogus: 1 },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "an update statement with sort (an 8.0 option)",
      command: { update: "items", updates: [{ q: {}, u: { $set: { x: 1 } }, sort: { qty: -1 } }] },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "a replacement statement with sort (an 8.0 option)",
      command: { update: "items", updates: [{ q: {}, u: { name: "z" }, sort: { qty: -1 } }] },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "a delete statement with an unknown field",
      command: { delete: "items", deletes: [{ q: {}, limit: 1, bogus: 1 }] },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "an update statement without u",
      command: { update: "items", updates: [{ q: {} }] },
      code: 40414,
      codeName: "Location40414",
    },
    {
      name: "a delete statement without limit",
      command: { delete: "items", deletes: [{ q: {} }] },
      code: 40414,
      codeName: "Location40414",
    },
    { name: "find with a string limit", command: { find: "items", limit: "1" }, code: 14, codeName: "TypeMismatch" },
    { name: "find with a string skip", command: { find: "items", skip: "1" }, code: 14, codeName: "TypeMismatch" },
    { name: "find with a numeric filter", command: { find: "items", filter: 1 }, code: 14, codeName: "TypeMismatch" },
    {
      name: "find with a numeric singleBatch",
      command: { find: "items", singleBatch: 1 },
      code: 14,
      codeName: "TypeMismatch",
    },
    { name: "find with a negative skip", command: { find: "items", skip: -1 }, code: 51024, codeName: "Location51024" },
    { name: "find with a numeric let", command: { find: "items", let: 1 }, code: 14, codeName: "TypeMismatch" },
    {
      name: "update with a numeric multi",
      command: { update: "items", updates: [{ q: {}, u: { $set: { x: 1 } }, multi: 1 }] },
      code: 14,
      codeName: "TypeMismatch",
    },
    {
      name: "update with a string ordered",
      command: { update: "items", updates: [{ q: {}, u: { $set: { x: 1 } } }], ordered: "yes" },
      code: 14,
      codeName: "TypeMismatch",
    },
    {
      name: "insert with documents not an array",
      command: { insert: "items", documents: { _id: 100 } },
      code: 14,
      codeName: "TypeMismatch",
    },
    {
      name: "aggregate with a pipeline that is not an array",
      command: { aggregate: "items", pipeline: {}, cursor: {} },
      code: 14,
      codeName: "TypeMismatch",
    },
    {
      name: "aggregate with an unknown cursor option",
      command: { aggregate: "items", pipeline: [], cursor: { bogus: 1 } },
      code: 40415,
      codeName: "Location40415",
    },
    {
      name: "delete with a limit other than 0 or 1",
      command: { delete: "items", deletes: [{ q: {}, limit: 2 }] },
      code: 9,
      codeName: "FailedToParse",
    },
    { name: "a string maxTimeMS", command: { find: "items", maxTimeMS: "10" }, code: 2, codeName: "BadValue" },
    { name: "a negative maxTimeMS", command: { find: "items", maxTimeMS: -1 }, code: 2, codeName: "BadValue" },
  ];
  for (const t of cases) {
    it(t.name, async () => {
      await expectError(() => db.command(t.command), { code: t.code, codeName: t.codeName });
    });
  }

  it("leaves the data alone when a statement is refused", async () => {
    await expectError(
      () =>
        db.command({
          update: "items",
          updates: [{ q: { _id: 1 }, u: { $set: { name: "changed" } }, sort: { qty: 1 } }],
        }),
      { code: 40415 },
    );
    expectOrdered(await db.collection("items").findOne({ _id: 1 as never }), { _id: 1, name: "a", qty: 5 });
  });

  it("updateOne and replaceOne with the driver's sort option are refused (7.0 has no sort for them)", async () => {
    await expectError(() => db.collection("items").updateOne({}, { $set: { x: 1 } }, { sort: { qty: -1 } } as never), {
      code: 40415,
    });
    await expectError(() => db.collection("items").replaceOne({}, { name: "z" }, { sort: { qty: -1 } } as never), {
      code: 40415,
    });
    expect(await db.collection("items").countDocuments({ x: 1 })).toBe(0);
  });
});

describe("the fields every command takes are accepted", () => {
  it("comment, maxTimeMS, readConcern, writeConcern and the API version on reads and writes", async () => {
    const find = await db.command({
      find: "items",
      filter: { _id: 1 },
      comment: "c",
      maxTimeMS: 1000,
      readConcern: { level: "local" },
    });
    expectOrdered(find.cursor.firstBatch, [{ _id: 1, name: "a", qty: 5 }]);
    const write = await db.command({
      insert: "items",
      documents: [{ _id: 50 }],
      comment: { tag: 1 },
      writeConcern: { w: 1 },
      ordered: true,
      bypassDocumentValidation: false,
    });
    expect(write.n).toBe(1);
    const del = await db.command({ delete: "items", deletes: [{ q: { _id: 50 }, limit: 1 }], comment: "x" });
    expect(del.n).toBe(1);
  });

  it("a driver session and its options", async () => {
    const session = db.client.startSession();
    try {
      const docs = await db
        .collection("items")
        .find({ qty: { $gte: 10 } }, { session, comment: "s", maxTimeMS: 2000, batchSize: 1, allowDiskUse: true })
        .toArray();
      expectOrdered(docs, [
        { _id: 2, name: "b", qty: 10 },
        { _id: 3, name: "c", qty: 15 },
      ]);
    } finally {
      await session.endSession();
    }
  });

  it("every driver helper the portal uses", async () => {
    const coll = db.collection("helpers");
    await coll.insertMany([{ _id: 1, v: 1 } as never, { _id: 2, v: 2 } as never], { ordered: false });
    await coll.updateOne({ _id: 1 } as never, { $set: { w: 1 } }, { upsert: true, hint: { _id: 1 } });
    await coll.updateMany({}, [{ $set: { z: "$v" } }], { let: { k: 1 } });
    await coll.replaceOne({ _id: 2 } as never, { v: 20 });
    await coll.findOneAndUpdate(
      { _id: 1 } as never,
      { $inc: { v: 1 } },
      { returnDocument: "after", projection: { v: 1 }, sort: { _id: 1 } },
    );
    await coll.bulkWrite([
      { insertOne: { document: { _id: 3, v: 3 } as never } },
      { deleteOne: { filter: { _id: 3 } as never } },
    ]);
    expect(await coll.countDocuments({})).toBe(2);
    expect(await coll.estimatedDocumentCount()).toBe(2);
    expect(await coll.distinct("v")).toEqual([2, 20]);
    expectOrdered(await coll.find({}).sort({ _id: 1 }).toArray(), [
      { _id: 1, v: 2, w: 1, z: 1 },
      { _id: 2, v: 20 },
    ]);
  });
});

describe("let: variables for $expr and pipelines", () => {
  it("find", async () => {
    const docs = await db
      .collection("items")
      .find({ $expr: { $gt: ["$qty", "$$min"] } }, { let: { min: 8 } })
      .toArray();
    expectOrdered(docs, [
      { _id: 2, name: "b", qty: 10 },
      { _id: 3, name: "c", qty: 15 },
    ]);
  });

  it("find with a let value that is an expression", async () => {
    const docs = await db
      .collection("items")
      .find({ $expr: { $eq: ["$qty", "$$target"] } }, { let: { target: { $add: [5, 5] } } })
      .toArray();
    expectOrdered(docs, [{ _id: 2, name: "b", qty: 10 }]);
  });

  it("aggregate, in $match, $project and $group", async () => {
    const docs = await db
      .collection("items")
      .aggregate(
        [
          { $match: { $expr: { $gte: ["$qty", "$$min"] } } },
          { $project: { name: 1, scaled: { $multiply: ["$qty", "$$factor"] } } },
          { $group: { _id: null, total: { $sum: "$scaled" }, label: { $first: "$$label" } } },
        ],
        { let: { min: 10, factor: 2, label: "big" } },
      )
      .toArray();
    expectOrdered(docs, [{ _id: null, total: 50, label: "big" }]);
  });

  it("aggregate: an undefined variable is refused", async () => {
    await expectError(
      () =>
        db
          .collection("items")
          .aggregate([{ $match: { $expr: { $eq: ["$qty", "$$nope"] } } }])
          .toArray(),
      { code: 17276, codeName: "Location17276" },
    );
    await expectError(
      () =>
        db
          .collection("items")
          .find({ $expr: { $eq: ["$qty", "$$nope"] } })
          .toArray(),
      { code: 17276, codeName: "Location17276" },
    );
  });

  it("a variable name must start with a lower-case letter", async () => {
    await expectError(
      () =>
        db
          .collection("items")
          .find({}, { let: { Bad: 1 } })
          .toArray(),
      { code: 16867 },
    );
  });

  it("update: the filter and a pipeline update", async () => {
    await reset(db, "let_update", [
      { _id: 1, qty: 5 },
      { _id: 2, qty: 10 },
    ]);
    const r = await db
      .collection("let_update")
      .updateMany(
        { $expr: { $gte: ["$qty", "$$min"] } },
        [{ $set: { qty: { $add: ["$qty", "$$inc"] }, tag: "$$tag" } }],
        {
          let: { min: 10, inc: 1, tag: "x" },
        },
      );
    expect(r.modifiedCount).toBe(1);
    expectOrdered(await db.collection("let_update").find().sort({ _id: 1 }).toArray(), [
      { _id: 1, qty: 5 },
      { _id: 2, qty: 11, tag: "x" },
    ]);
  });

  it("update: an operator update whose filter uses a variable", async () => {
    await reset(db, "let_update2", [
      { _id: 1, qty: 5 },
      { _id: 2, qty: 10 },
    ]);
    await db
      .collection("let_update2")
      .updateOne({ $expr: { $eq: ["$qty", "$$q"] } }, { $set: { hit: true } }, { let: { q: 5 } });
    expectOrdered(await db.collection("let_update2").find().sort({ _id: 1 }).toArray(), [
      { _id: 1, qty: 5, hit: true },
      { _id: 2, qty: 10 },
    ]);
  });

  it("delete", async () => {
    await reset(db, "let_delete", [
      { _id: 1, qty: 5 },
      { _id: 2, qty: 10 },
    ]);
    const r = await db.collection("let_delete").deleteMany({ $expr: { $lt: ["$qty", "$$max"] } }, { let: { max: 7 } });
    expect(r.deletedCount).toBe(1);
    expectOrdered(await db.collection("let_delete").find().toArray(), [{ _id: 2, qty: 10 }]);
  });

  it("findAndModify", async () => {
    await reset(db, "let_fam", [
      { _id: 1, qty: 5 },
      { _id: 2, qty: 10 },
    ]);
    const after = await db
      .collection("let_fam")
      .findOneAndUpdate({ $expr: { $eq: ["$qty", "$$q"] } }, [{ $set: { qty: { $multiply: ["$qty", "$$f"] } } }], {
        let: { q: 10, f: 3 },
        returnDocument: "after",
      });
    expectOrdered(after, { _id: 2, qty: 30 });
    const removed = await db
      .collection("let_fam")
      .findOneAndDelete({ $expr: { $eq: ["$qty", "$$q"] } }, { let: { q: 5 } });
    expectOrdered(removed, { _id: 1, qty: 5 });
  });

  it("bulkWrite", async () => {
    await reset(db, "let_bulk", [
      { _id: 1, qty: 5 },
      { _id: 2, qty: 10 },
    ]);
    await db
      .collection("let_bulk")
      .bulkWrite(
        [
          { updateOne: { filter: { $expr: { $eq: ["$qty", "$$a"] } }, update: [{ $set: { seen: "$$a" } }] } },
          { deleteOne: { filter: { $expr: { $eq: ["$qty", "$$b"] } } } },
        ],
        { let: { a: 5, b: 10 } },
      );
    expectOrdered(await db.collection("let_bulk").find().toArray(), [{ _id: 1, qty: 5, seen: 5 }]);
  });
});

describe("_id", () => {
  const refused: { name: string; id: unknown; code: number }[] = [
    { name: "a $-prefixed field in _id", id: { $a: 1 }, code: 52 },
    { name: "a $-prefixed field nested in _id", id: { a: { $b: 1 } }, code: 52 },
    { name: "an array", id: [1, 2], code: 2 },
    { name: "a regular expression", id: /a/, code: 2 },
  ];
  for (const t of refused) {
    it(`refuses ${t.name}`, async () => {
      await expectError(() => db.collection("ids").insertOne({ _id: t.id as never }), { code: t.code });
      expect(await db.collection("ids").countDocuments({})).toBe(0);
    });
  }

  it("puts _id first on insert", async () => {
    await db.collection("ids").insertOne({ b: 1, _id: 7 as never, a: 2 });
    expectOrdered(await db.collection("ids").findOne({ _id: 7 as never }), { _id: 7, b: 1, a: 2 });
  });
});
