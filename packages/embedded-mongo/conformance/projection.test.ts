/**
 * find's projection (and findAndModify's fields) as MongoDB documents it, compared with field order:
 * included fields in the document's order with _id first, computed fields after them in the projection's
 * order, $slice and $elemMatch, and the errors for mixed projections. Runnable against a real MongoDB.
 */
import type { Db, Document } from "mongodb";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Conformance, connect, expectError, expectOrdered, reset } from "./harness";

let c: Conformance;
let db: Db;

const DOC = {
  _id: 1,
  name: "ann",
  qty: 5,
  grades: [70, 85, 90],
  size: { h: 14, w: 21, uom: "cm" },
  parts: [{ p: 1, q: 2 }, { p: 3, q: 4 }, 7],
};

beforeAll(async () => {
  c = await connect("projection");
  db = c.db;
  await reset(db, "p", [DOC]);
});
afterAll(async () => {
  await c?.close();
});

type Case = { name: string; projection: Document; expected: Document };

const CASES: Case[] = [
  {
    name: "an inclusion: the document's order, _id first",
    projection: { qty: 1, name: 1 },
    expected: { _id: 1, name: "ann", qty: 5 },
  },
  { name: "_id left out", projection: { _id: 0, qty: 1 }, expected: { qty: 5 } },
  { name: "only _id", projection: { _id: 1 }, expected: { _id: 1 } },
  { name: "an exclusion", projection: { grades: 0, parts: 0, size: 0 }, expected: { _id: 1, name: "ann", qty: 5 } },
  {
    name: "_id excluded only",
    projection: { _id: 0 },
    expected: {
      name: "ann",
      qty: 5,
      grades: [70, 85, 90],
      size: { h: 14, w: 21, uom: "cm" },
      parts: [{ p: 1, q: 2 }, { p: 3, q: 4 }, 7],
    },
  },
  {
    name: "dotted paths keep the sub-document's order",
    projection: { "size.uom": 1, "size.h": 1 },
    expected: { _id: 1, size: { h: 14, uom: "cm" } },
  },
  {
    name: "a dotted path through an array of documents",
    projection: { "parts.q": 1 },
    expected: { _id: 1, parts: [{ q: 2 }, { q: 4 }] },
  },
  {
    name: "a dotted exclusion through an array",
    projection: { "parts.q": 0, grades: 0, size: 0 },
    expected: { _id: 1, name: "ann", qty: 5, parts: [{ p: 1 }, { p: 3 }, 7] },
  },
  {
    name: "computed fields after the included ones",
    projection: { total: { $add: ["$qty", 1] }, name: 1, first: { $arrayElemAt: ["$grades", 0] } },
    expected: { _id: 1, name: "ann", total: 6, first: 70 },
  },
  {
    name: "$slice keeps the other fields",
    projection: { grades: { $slice: 2 }, parts: 0, size: 0 },
    expected: { _id: 1, name: "ann", qty: 5, grades: [70, 85] },
  },
  {
    name: "$slice [skip, limit] with an inclusion",
    projection: { grades: { $slice: [1, 1] }, name: 1 },
    expected: { _id: 1, name: "ann", grades: [85] },
  },
  {
    name: "$slice from the end",
    projection: { grades: { $slice: -1 }, name: 1 },
    expected: { _id: 1, name: "ann", grades: [90] },
  },
  { name: "$elemMatch", projection: { grades: { $elemMatch: { $gte: 80 } } }, expected: { _id: 1, grades: [85] } },
  {
    name: "$elemMatch without a match leaves the field out",
    projection: { grades: { $elemMatch: { $gte: 100 } }, name: 1 },
    expected: { _id: 1, name: "ann" },
  },
];

describe("find projections", () => {
  for (const t of CASES) {
    it(t.name, async () => {
      expectOrdered(await db.collection("p").findOne({}, { projection: t.projection }), t.expected);
    });
  }

  const refused: { name: string; projection: Document; code: number }[] = [
    { name: "an exclusion in an inclusion", projection: { name: 1, qty: 0 }, code: 31254 },
    { name: "an inclusion in an exclusion", projection: { name: 0, qty: 1 }, code: 31253 },
    { name: "a path collision", projection: { size: 1, "size.h": 1 }, code: 31250 },
  ];
  for (const t of refused) {
    it(`refuses ${t.name}`, async () => {
      await expectError(() => db.collection("p").findOne({}, { projection: t.projection }), { code: t.code });
    });
  }
});

describe("findAndModify fields", () => {
  it("projects the returned document as find does", async () => {
    await reset(db, "fam", [DOC]);
    const after = await db
      .collection("fam")
      .findOneAndUpdate(
        { _id: 1 as never },
        { $set: { qty: 6 } },
        { projection: { qty: 1, name: 1 }, returnDocument: "after" },
      );
    expectOrdered(after, { _id: 1, name: "ann", qty: 6 });
    const before = await db
      .collection("fam")
      .findOneAndDelete({ _id: 1 as never }, { projection: { _id: 0, size: 1 } });
    expectOrdered(before, { size: { h: 14, w: 21, uom: "cm" } });
  });
});
