import { describe, expect, it } from "vitest";
import { useTestDatabase } from "./db";
import { expectIndexedQueries, recordQueryPlans } from "./query-plans";

const testDb = useTestDatabase();

async function rows() {
  const db = await testDb.db();
  const c = db.collection<{ _id: number; user: string; n: number }>("rows");
  if ((await c.estimatedDocumentCount()) === 0) {
    await c.insertMany(Array.from({ length: 1500 }, (_, i) => ({ _id: i, user: `u${i % 10}`, n: i })));
    await c.createIndex({ user: 1, n: -1 });
    await db.collection("small").insertMany([{ k: 1 }, { k: 2 }]);
  }
  return { db, c };
}

describe("expectIndexedQueries", () => {
  it("passes indexed queries through and returns their result", async () => {
    const { db, c } = await rows();
    const page = await expectIndexedQueries(db, () => c.find({ user: "u3" }).sort({ n: -1 }).limit(2).toArray());
    expect(page.map((d) => d._id)).toEqual([1493, 1483]);
    // A small collection may be scanned.
    expect(await expectIndexedQueries(db, () => db.collection("small").find({ k: 2 }).toArray())).toHaveLength(1);
  });

  it("fails on a scan of a large collection and names it, even when the code under test swallowed the error", async () => {
    const { db, c } = await rows();
    await expect(expectIndexedQueries(db, () => c.find({ n: 7 }).toArray())).rejects.toThrow(
      /rows \(1500 documents\) refused by notablescan: .*"filter":\{"n":7\}/,
    );
    const swallowed = () => c.countDocuments({ n: { $gt: 3 } }).catch(() => -1);
    await expect(expectIndexedQueries(db, swallowed)).rejects.toThrow(/1 query read a collection without an index/);
  });

  it("records each query's plan", async () => {
    const { db, c } = await rows();
    const { plans } = await recordQueryPlans(db, async () => {
      await c.findOne({ _id: 4 });
      await c.countDocuments({ user: "u1" });
    });
    expect(plans.map((p) => p.planSummary)).toEqual(["IDHACK", "COUNT_SCAN { user: 1, n: -1 }"]);
  });
});
