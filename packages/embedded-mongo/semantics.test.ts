/**
 * Examples from MongoDB's documentation (query, update and aggregation
 * tutorials), run through the driver, with the outputs the documentation shows.
 */
import type { Db } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stopHarness } from "./test-helpers";

let h: Harness;
let db: Db;

beforeAll(async () => {
  h = await startHarness();
  db = h.client.db("semantics");
});
afterAll(async () => {
  await stopHarness(h);
});

async function items(collection: string, filter: object): Promise<string[]> {
  const docs = await db.collection(collection).find(filter).sort({ item: 1 }).toArray();
  return docs.map((d) => d.item as string);
}

describe("querying documents (inventory tutorial)", () => {
  beforeAll(async () => {
    await db.collection("inventory").insertMany([
      { item: "journal", qty: 25, size: { h: 14, w: 21, uom: "cm" }, status: "A" },
      { item: "notebook", qty: 50, size: { h: 8.5, w: 11, uom: "in" }, status: "A" },
      { item: "paper", qty: 100, size: { h: 8.5, w: 11, uom: "in" }, status: "D" },
      { item: "planner", qty: 75, size: { h: 22.85, w: 30, uom: "cm" }, status: "D" },
      { item: "postcard", qty: 45, size: { h: 10, w: 15.25, uom: "cm" }, status: "A" },
    ]);
    await db.collection("inventory").createIndex({ status: 1 });
  });

  it("equality, $in, AND and OR conditions", async () => {
    expect(await items("inventory", { status: "D" })).toEqual(["paper", "planner"]);
    expect(await items("inventory", { status: { $in: ["A", "D"] } })).toHaveLength(5);
    expect(await items("inventory", { status: "A", qty: { $lt: 30 } })).toEqual(["journal"]);
    expect(await items("inventory", { $or: [{ status: "A" }, { qty: { $lt: 30 } }] })).toEqual([
      "journal",
      "notebook",
      "postcard",
    ]);
    expect(await items("inventory", { status: "A", $or: [{ qty: { $lt: 30 } }, { item: /^p/ }] })).toEqual([
      "journal",
      "postcard",
    ]);
  });

  it("embedded documents and dotted paths", async () => {
    expect(await items("inventory", { size: { h: 14, w: 21, uom: "cm" } })).toEqual(["journal"]);
    expect(await items("inventory", { size: { w: 21, h: 14, uom: "cm" } })).toEqual([]);
    expect(await items("inventory", { "size.uom": "in" })).toEqual(["notebook", "paper"]);
    expect(await items("inventory", { "size.h": { $lt: 15 } })).toEqual(["journal", "notebook", "paper", "postcard"]);
    expect(await items("inventory", { "size.h": { $lt: 15 }, "size.uom": "in", status: "D" })).toEqual(["paper"]);
  });
});

describe("querying arrays", () => {
  beforeAll(async () => {
    await db.collection("arrays").insertMany([
      { item: "journal", qty: 25, tags: ["blank", "red"], dim_cm: [14, 21] },
      { item: "notebook", qty: 50, tags: ["red", "blank"], dim_cm: [14, 21] },
      { item: "paper", qty: 100, tags: ["red", "blank", "plain"], dim_cm: [14, 21] },
      { item: "planner", qty: 75, tags: ["blank", "red"], dim_cm: [22.85, 30] },
      { item: "postcard", qty: 45, tags: ["blue"], dim_cm: [10, 15.25] },
    ]);
    await db.collection("arrays").createIndex({ tags: 1 });
  });

  it("matches whole arrays, elements, $all, $elemMatch, positions and $size", async () => {
    expect(await items("arrays", { tags: ["red", "blank"] })).toEqual(["notebook"]);
    expect(await items("arrays", { tags: { $all: ["red", "blank"] } })).toEqual([
      "journal",
      "notebook",
      "paper",
      "planner",
    ]);
    expect(await items("arrays", { tags: "red" })).toEqual(["journal", "notebook", "paper", "planner"]);
    expect(await items("arrays", { dim_cm: { $gt: 25 } })).toEqual(["planner"]);
    expect(await items("arrays", { dim_cm: { $gt: 15, $lt: 20 } })).toEqual([
      "journal",
      "notebook",
      "paper",
      "postcard",
    ]);
    expect(await items("arrays", { dim_cm: { $elemMatch: { $gt: 22, $lt: 30 } } })).toEqual(["planner"]);
    expect(await items("arrays", { "dim_cm.1": { $gt: 25 } })).toEqual(["planner"]);
    expect(await items("arrays", { tags: { $size: 3 } })).toEqual(["paper"]);
  });
});

describe("update operators", () => {
  it("$inc on top-level and embedded fields", async () => {
    const products = db.collection("products");
    await products.insertOne({ _id: 1, sku: "abc123", quantity: 10, metrics: { orders: 2, ratings: 3.5 } } as never);
    await products.updateOne({ sku: "abc123" }, { $inc: { quantity: -2, "metrics.orders": 1 } });
    expect(await products.findOne({ _id: 1 } as never)).toEqual({
      _id: 1,
      sku: "abc123",
      quantity: 8,
      metrics: { orders: 3, ratings: 3.5 },
    });
  });

  it("$push with $each, $sort and $slice", async () => {
    const students = db.collection("students");
    await students.insertOne({
      _id: 5,
      quizzes: [
        { wk: 1, score: 10 },
        { wk: 2, score: 8 },
        { wk: 3, score: 5 },
        { wk: 4, score: 6 },
      ],
    } as never);
    await students.updateOne(
      { _id: 5 } as never,
      {
        $push: {
          quizzes: {
            $each: [
              { wk: 5, score: 8 },
              { wk: 6, score: 7 },
              { wk: 7, score: 6 },
            ],
            $sort: { score: -1 },
            $slice: 3,
          },
        },
      } as never,
    );
    expect((await students.findOne({ _id: 5 } as never))?.quizzes).toEqual([
      { wk: 1, score: 10 },
      { wk: 2, score: 8 },
      { wk: 5, score: 8 },
    ]);
  });

  it("$pull with a condition across many documents", async () => {
    const stores = db.collection("stores");
    await stores.insertMany([
      {
        _id: 1,
        fruits: ["apples", "pears", "oranges", "grapes", "bananas"],
        vegetables: ["carrots", "celery", "squash", "carrots"],
      },
      {
        _id: 2,
        fruits: ["plums", "kiwis", "oranges", "bananas", "apples"],
        vegetables: ["broccoli", "zucchini", "carrots", "onions"],
      },
    ] as never[]);
    await stores.updateMany({}, { $pull: { fruits: { $in: ["apples", "oranges"] }, vegetables: "carrots" } } as never);
    expect(await stores.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, fruits: ["pears", "grapes", "bananas"], vegetables: ["celery", "squash"] },
      { _id: 2, fruits: ["plums", "kiwis", "bananas"], vegetables: ["broccoli", "zucchini", "onions"] },
    ]);
  });

  it("$addToSet, $unset, $rename, $min/$max and $currentDate", async () => {
    const c = db.collection("misc");
    await c.insertOne({ _id: 1, letters: ["a", "b"], low: 5, high: 5, old: 1, gone: true } as never);
    await c.updateOne(
      { _id: 1 } as never,
      {
        $addToSet: { letters: { $each: ["b", "c"] } },
        $unset: { gone: "" },
        $rename: { old: "renamed" },
        $min: { low: 2 },
        $max: { high: 9 },
      } as never,
    );
    await c.updateOne({ _id: 1 } as never, { $currentDate: { at: true } });
    const doc = await c.findOne({ _id: 1 } as never);
    expect(doc).toMatchObject({ letters: ["a", "b", "c"], low: 2, high: 9, renamed: 1 });
    expect(doc).not.toHaveProperty("gone");
    expect(doc?.at).toBeInstanceOf(Date);
  });
});

describe("aggregation", () => {
  beforeAll(async () => {
    await db.collection("sales").insertMany([
      { _id: 1, item: "abc", price: 10, quantity: 2, date: new Date("2014-03-01T08:00:00Z") },
      { _id: 2, item: "jkl", price: 20, quantity: 1, date: new Date("2014-03-01T09:00:00Z") },
      { _id: 3, item: "xyz", price: 5, quantity: 10, date: new Date("2014-03-15T09:00:00Z") },
      { _id: 4, item: "xyz", price: 5, quantity: 20, date: new Date("2014-04-04T11:21:39.736Z") },
      { _id: 5, item: "abc", price: 10, quantity: 10, date: new Date("2014-04-04T21:23:13.331Z") },
      { _id: 6, item: "def", price: 7.5, quantity: 5, date: new Date("2015-06-04T05:08:13Z") },
      { _id: 7, item: "def", price: 7.5, quantity: 10, date: new Date("2015-09-10T08:43:00Z") },
      { _id: 8, item: "abc", price: 10, quantity: 5, date: new Date("2016-02-06T20:20:13Z") },
    ] as never[]);
  });

  it("$group by item with a $match on the total", async () => {
    const out = await db
      .collection("sales")
      .aggregate([
        { $group: { _id: "$item", totalSaleAmount: { $sum: { $multiply: ["$price", "$quantity"] } } } },
        { $match: { totalSaleAmount: { $gte: 100 } } },
        { $sort: { totalSaleAmount: -1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: "abc", totalSaleAmount: 170 },
      { _id: "xyz", totalSaleAmount: 150 },
      { _id: "def", totalSaleAmount: 112.5 },
    ]);
  });

  it("$group by null", async () => {
    const out = await db
      .collection("sales")
      .aggregate([
        {
          $group: {
            _id: null,
            totalSaleAmount: { $sum: { $multiply: ["$price", "$quantity"] } },
            averageQuantity: { $avg: "$quantity" },
            count: { $sum: 1 },
          },
        },
      ])
      .toArray();
    expect(out).toEqual([{ _id: null, totalSaleAmount: 452.5, averageQuantity: 7.875, count: 8 }]);
  });

  it("$group by day of year in 2014", async () => {
    const out = await db
      .collection("sales")
      .aggregate([
        { $match: { date: { $gte: new Date("2014-01-01"), $lt: new Date("2015-01-01") } } },
        {
          $group: {
            _id: { $dateToString: { format: "%Y-%m-%d", date: "$date" } },
            totalSaleAmount: { $sum: { $multiply: ["$price", "$quantity"] } },
            averageQuantity: { $avg: "$quantity" },
            count: { $sum: 1 },
          },
        },
        { $sort: { totalSaleAmount: -1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: "2014-04-04", totalSaleAmount: 200, averageQuantity: 15, count: 2 },
      { _id: "2014-03-15", totalSaleAmount: 50, averageQuantity: 10, count: 1 },
      { _id: "2014-03-01", totalSaleAmount: 40, averageQuantity: 1.5, count: 2 },
    ]);
  });

  it("$unwind an array field", async () => {
    await db.collection("clothing").insertOne({ _id: 1, item: "ABC1", sizes: ["S", "M", "L"] } as never);
    expect(
      await db
        .collection("clothing")
        .aggregate([{ $unwind: "$sizes" }])
        .toArray(),
    ).toEqual([
      { _id: 1, item: "ABC1", sizes: "S" },
      { _id: 1, item: "ABC1", sizes: "M" },
      { _id: 1, item: "ABC1", sizes: "L" },
    ]);
  });

  it("$lookup with an equality match", async () => {
    await db.collection("orders").insertMany([
      { _id: 1, item: "almonds", price: 12, quantity: 2 },
      { _id: 2, item: "pecans", price: 20, quantity: 1 },
    ] as never[]);
    await db.collection("warehouse").insertMany([
      { _id: 1, sku: "almonds", description: "product 1", instock: 120 },
      { _id: 2, sku: "bread", description: "product 2", instock: 80 },
      { _id: 3, sku: "cashews", description: "product 3", instock: 60 },
      { _id: 4, sku: "pecans", description: "product 4", instock: 70 },
    ] as never[]);
    const out = await db
      .collection("orders")
      .aggregate([{ $lookup: { from: "warehouse", localField: "item", foreignField: "sku", as: "inventory_docs" } }])
      .toArray();
    expect(out).toEqual([
      {
        _id: 1,
        item: "almonds",
        price: 12,
        quantity: 2,
        inventory_docs: [{ _id: 1, sku: "almonds", description: "product 1", instock: 120 }],
      },
      {
        _id: 2,
        item: "pecans",
        price: 20,
        quantity: 1,
        inventory_docs: [{ _id: 4, sku: "pecans", description: "product 4", instock: 70 }],
      },
    ]);
  });

  it("$count after a $match", async () => {
    await db
      .collection("scores")
      .insertMany([88, 92, 97, 71, 79, 83].map((score, i) => ({ _id: i + 1, subject: "History", score })) as never[]);
    expect(
      await db
        .collection("scores")
        .aggregate([{ $match: { score: { $gt: 80 } } }, { $count: "passing_scores" }])
        .toArray(),
    ).toEqual([{ passing_scores: 4 }]);
  });
});

describe("values that only look alike when written out", () => {
  it("keeps apart _ids and group keys whose strings hold the separators of documents and arrays", async () => {
    const c = db.collection<{ _id: unknown; tags?: string[] }>("lookalikes");
    // Written naively, { a: 'x,"b":sy' } and { a: "x", b: "y" } read the same, as do ["a,sb"] and ["a", "b"].
    await c.insertMany([
      { _id: { a: 'x,"b":sy' }, tags: ["a,sb"] },
      { _id: { a: "x", b: "y" }, tags: ["a", "b"] },
      { _id: 3, tags: ["a,sb"] },
    ]);
    expect(await c.countDocuments({})).toBe(3);
    expect(await c.findOne({ _id: { a: "x", b: "y" } })).toEqual({ _id: { a: "x", b: "y" }, tags: ["a", "b"] });
    const groups = await c.aggregate([{ $group: { _id: "$tags", n: { $sum: 1 } } }, { $sort: { n: -1 } }]).toArray();
    expect(groups).toEqual([
      { _id: ["a,sb"], n: 2 },
      { _id: ["a", "b"], n: 1 },
    ]);
    expect((await c.distinct("tags")).sort()).toEqual(["a", "a,sb", "b"]);
  });
});
