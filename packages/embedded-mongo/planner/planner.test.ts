/**
 * The query planner as a caller sees it through the driver: which index explain() reports for
 * each query shape, how much of the index a paged read examines, counts from the index,
 * $lookup through the foreign index, notablescan, maxTimeMS and yielding.
 */
import { type Collection, type Document, MongoServerError } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stopHarness } from "../test-helpers";

let h: Harness;
type FileDoc = { _id: number; [field: string]: unknown };
let files: Collection<FileDoc>;
const N = 12_000;

beforeAll(async () => {
  h = await startHarness();
  files = h.client.db("plan").collection<FileDoc>("files");
  await files.insertMany(
    Array.from({ length: N }, (_, i) => ({
      _id: i,
      user: `u${i % 40}`,
      at: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      status: i % 9 === 0 ? 2 : 0,
      progress: i % 101,
      tags: [`t${i % 3}`, `k${i % 5}`],
      name: `file-${String(i).padStart(5, "0")}.csv`,
    })),
  );
  await files.createIndexes([
    { key: { at: -1, _id: -1 }, name: "at_desc" },
    { key: { user: 1, at: -1, _id: -1 }, name: "user_at" },
    { key: { status: 1, progress: 1 }, name: "status_progress" },
    { key: { tags: 1 }, name: "tags" },
    { key: { name: 1 }, name: "name" },
  ]);
}, 60_000);

afterAll(() => stopHarness(h));

/** The stages of a plan, depth first. */
function stages(plan: Document): Document[] {
  const out: Document[] = [plan];
  for (const child of [plan.inputStage, ...(plan.inputStages ?? [])]) if (child) out.push(...stages(child));
  return out;
}

function scanOf(explain: Document): { stage: string; indexName?: string; bounds?: Document } {
  const plan = explain.queryPlanner?.winningPlan ?? explain.stages?.[0]?.$cursor?.queryPlanner?.winningPlan;
  const leaf = stages(plan).find((s) =>
    ["IXSCAN", "COLLSCAN", "COUNT_SCAN", "IDHACK", "EOF", "DISTINCT_SCAN"].includes(s.stage),
  );
  return { stage: leaf?.stage, indexName: leaf?.indexName, bounds: leaf?.indexBounds };
}

describe("index selection (explain)", () => {
  it("uses an index for equality, ranges, $in, prefixes and regex prefixes", async () => {
    expect(scanOf(await files.find({ user: "u7" }).explain())).toMatchObject({ stage: "IXSCAN", indexName: "user_at" });
    expect(scanOf(await files.find({ at: { $gte: new Date(Date.UTC(2026, 0, 5)) } }).explain())).toMatchObject({
      stage: "IXSCAN",
      indexName: "at_desc",
    });
    expect(scanOf(await files.find({ user: { $in: ["u1", "u2"] } }).explain())).toMatchObject({
      stage: "IXSCAN",
      indexName: "user_at",
    });
    expect(scanOf(await files.find({ status: 0, progress: { $lt: 100 } }).explain())).toMatchObject({
      stage: "IXSCAN",
      indexName: "status_progress",
      bounds: { status: ["[0, 0]"], progress: ["[-inf, 100)"] },
    });
    expect(scanOf(await files.find({ name: /^file-0001/ }).explain())).toMatchObject({
      stage: "IXSCAN",
      indexName: "name",
    });
    expect(scanOf(await files.find({ tags: "t1" }).explain())).toMatchObject({ stage: "IXSCAN", indexName: "tags" });
    expect(scanOf(await files.find({ _id: 5 }).explain())).toMatchObject({ stage: "IDHACK" });
    expect(scanOf(await files.find({ progress: 3 }).explain())).toMatchObject({ stage: "COLLSCAN" });
  });

  it("gives the same documents as a scan would", async () => {
    const indexed = await files
      .find({ status: 0, progress: { $gte: 10, $lt: 12 } })
      .sort({ _id: 1 })
      .toArray();
    const scanned = await files
      .find({ status: 0, progress: { $gte: 10, $lt: 12 } })
      .sort({ _id: 1 })
      .hint({ $natural: 1 })
      .toArray();
    expect(indexed.length).toBeGreaterThan(0);
    expect(indexed).toEqual(scanned);
    const multikey = await files
      .find({ tags: { $all: ["t1", "k2"] } })
      .sort({ _id: 1 })
      .toArray();
    expect(multikey.every((d) => (d.tags as string[]).includes("t1") && (d.tags as string[]).includes("k2"))).toBe(
      true,
    );
    expect(multikey).toHaveLength(N / 15);
    // Overlapping intervals of one field (a prefix inside another) give each document once, merged in order too.
    const overlapping = { name: { $in: [/^file-001/, /^file-0012/] }, user: { $in: ["u1", "u2", "u3"] } };
    const viaName = await files.find(overlapping).hint("name").toArray();
    const viaScan = await files.find(overlapping).hint({ $natural: 1 }).toArray();
    expect(viaName.map((d) => d._id).sort((a, b) => a - b)).toEqual(viaScan.map((d) => d._id));
    expect(viaScan.length).toBeGreaterThan(0);
    const merged = await files
      .find({ user: { $in: ["u1", "u2"] }, name: { $in: [/^file-00/, /^file-000/] } })
      .sort({ at: -1 })
      .toArray();
    expect(merged.map((d) => d._id)).toEqual(
      (
        await files
          .find({ user: { $in: ["u1", "u2"] }, name: { $in: [/^file-00/, /^file-000/] } })
          .hint({ $natural: 1 })
          .toArray()
      )
        .sort((a, b) => (b.at as Date).getTime() - (a.at as Date).getTime())
        .map((d) => d._id),
    );
  });

  it("sorts a whole collection in memory in chunks, in order and stable, when no index serves the sort", async () => {
    // progress has no index of its own: all 12,000 documents go through the chunked sort and its merges.
    const sorted = await files.find({}).sort({ progress: -1 }).toArray();
    expect(sorted).toHaveLength(N);
    const expected = (await files.find({}).hint({ $natural: 1 }).toArray()).sort(
      (a, b) => (b.progress as number) - (a.progress as number),
    );
    // The chunked sort is stable like Array.prototype.sort: ties keep the natural order.
    expect(sorted.map((d) => d._id)).toEqual(expected.map((d) => d._id));
  });

  it("walks an index in sort order and stops after skip + limit", async () => {
    const e = await files.find({ user: "u3" }).sort({ at: -1, _id: -1 }).skip(40).limit(20).explain("executionStats");
    expect(scanOf(e)).toMatchObject({ stage: "IXSCAN", indexName: "user_at" });
    expect(stages(e.queryPlanner.winningPlan).some((s) => s.stage === "SORT")).toBe(false);
    expect(e.executionStats.nReturned).toBe(20);
    expect(e.executionStats.totalKeysExamined).toBeLessThanOrEqual(60);
    const page = await files.find({ user: "u3" }).sort({ at: -1, _id: -1 }).skip(40).limit(20).toArray();
    const all = (await files.find({ user: "u3" }).hint({ $natural: 1 }).toArray()).sort(
      (a, b) => (b.at as Date).getTime() - (a.at as Date).getTime(),
    );
    expect(page.map((d) => d._id)).toEqual(all.slice(40, 60).map((d) => d._id));
  });

  it("pages a whole collection by an index without reading the skipped keys", async () => {
    const e = await files.find({}).sort({ _id: 1 }).skip(9000).limit(20).explain("executionStats");
    expect(scanOf(e)).toMatchObject({ stage: "IXSCAN", indexName: "_id_" });
    expect(e.executionStats.totalKeysExamined).toBe(20);
    expect((await files.find({}).sort({ _id: 1 }).skip(9000).limit(3).toArray()).map((d) => d._id)).toEqual([
      9000, 9001, 9002,
    ]);
  });

  it("pages newest first (a backward walk) without reading the skipped keys, up to and past the end", async () => {
    const e = await files.find({}).sort({ _id: -1 }).skip(9000).limit(20).explain("executionStats");
    expect(scanOf(e)).toMatchObject({ stage: "IXSCAN", indexName: "_id_" });
    expect(stages(e.queryPlanner.winningPlan).find((s) => s.stage === "IXSCAN")?.direction).toBe("backward");
    expect(e.executionStats.totalKeysExamined).toBe(20);
    const ids = async (skip: number, limit: number) =>
      (await files.find({}).sort({ _id: -1 }).skip(skip).limit(limit).toArray()).map((d) => d._id);
    expect(await ids(9000, 3)).toEqual([N - 9001, N - 9002, N - 9003]);
    expect(await ids(N - 2, 5)).toEqual([1, 0]);
    expect(await ids(N, 5)).toEqual([]);
    expect(await ids(N + 7, 5)).toEqual([]);
    // A range walked backward: the skip counts from its end.
    const ranged = async (skip: number) =>
      (
        await files
          .find({ _id: { $gte: 100, $lt: 200 } })
          .sort({ _id: -1 })
          .skip(skip)
          .limit(3)
          .toArray()
      ).map((d) => d._id);
    expect(await ranged(0)).toEqual([199, 198, 197]);
    expect(await ranged(98)).toEqual([101, 100]);
    expect(await ranged(100)).toEqual([]);
  });

  it("merges the points of an $in in sort order", async () => {
    const e = await files
      .find({ user: { $in: ["u1", "u2"] } })
      .sort({ at: -1 })
      .limit(5)
      .explain();
    expect(stages(e.queryPlanner.winningPlan).map((s) => s.stage)).toContain("SORT_MERGE");
    const got = await files
      .find({ user: { $in: ["u1", "u2"] } })
      .sort({ at: -1 })
      .limit(5)
      .toArray();
    expect(got.map((d) => d._id)).toEqual([11962, 11961, 11922, 11921, 11882]);
  });

  it("merges hundreds of points in order at any depth, each input scan showing its own point's bounds", async () => {
    const users = Array.from({ length: 35 }, (_, i) => `u${i}`);
    const query = { user: { $in: users }, status: 0 };
    const all = (await files.find(query).hint({ $natural: 1 }).toArray()).sort(
      (a, b) => (b.at as Date).getTime() - (a.at as Date).getTime() || b._id - a._id,
    );
    for (const skip of [0, 137, all.length - 3]) {
      const got = await files.find(query).sort({ at: -1, _id: -1 }).skip(skip).limit(20).toArray();
      expect(got.map((d) => d._id)).toEqual(all.slice(skip, skip + 20).map((d) => d._id));
    }
    const e = await files.find(query).sort({ at: -1, _id: -1 }).limit(20).explain();
    const merge = stages(e.queryPlanner.winningPlan).find((s) => s.stage === "SORT_MERGE")!;
    expect(merge.inputStages).toHaveLength(35);
    // Merged on the index keys: a document is fetched when its key comes out, not one per point up front.
    const deep = await files.find(query).sort({ at: -1, _id: -1 }).skip(137).limit(20).explain("executionStats");
    expect(deep.executionStats.nReturned).toBe(20);
    expect(deep.executionStats.totalDocsExamined).toBeLessThan(157 + 35);
    expect(merge.inputStages[0].indexBounds).toEqual({
      user: ['["u0", "u0"]'],
      at: ["[MaxKey, MinKey]"],
      _id: ["[MaxKey, MinKey]"],
    });
  });

  it("a merge of hundreds of points stays in order, without repeats or losses, across getMores while others write", async () => {
    const rows = h.client.db("plan").collection<{ _id: number; g: number; t: number }>("merge_writes");
    await rows.insertMany(Array.from({ length: 20_000 }, (_, i) => ({ _id: i, g: i % 400, t: (i * 7919) % 20_000 })));
    await rows.createIndex({ g: 1, t: -1 });
    const groups = Array.from({ length: 300 }, (_, i) => i);
    const cursor = rows
      .find({ g: { $in: groups } })
      .sort({ t: -1 })
      .batchSize(50);
    const seen: { _id: number; t: number }[] = [];
    let round = 0;
    for await (const doc of cursor) {
      seen.push(doc);
      // Between batches another client inserts rows (some in the groups read) and deletes rows of other groups.
      if (seen.length % 50 === 0 && round < 40) {
        round++;
        await rows.insertOne({ _id: 100_000 + round, g: round % 2 === 0 ? 5 : 350, t: 30_000 + round });
        await rows.deleteOne({ _id: 399 - (round % 50) });
      }
    }
    const ids = seen.map((d) => d._id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].t).toBeGreaterThanOrEqual(seen[i].t);
    const untouched = (await rows.find({ g: { $in: groups }, _id: { $lt: 100_000 } }).toArray()).map((d) => d._id);
    expect(ids.filter((id) => id < 100_000).sort((a, b) => a - b)).toEqual(untouched.sort((a, b) => a - b));
    await rows.drop();
  });

  it("weighs a walk in sort order by how often its documents match: a tenth of a channel is read through the narrower index", async () => {
    // 20,000 rows over 4 channels and 10 brands: two channels hold 10,000 rows, one brand 1,000 of them.
    const rows = h.client
      .db("plan")
      .collection<{ _id: number; channel: string; brand: string; at: Date; month: number }>("rows");
    await rows.insertMany(
      Array.from({ length: 20_000 }, (_, i) => ({
        _id: i,
        channel: `c${i % 4}`,
        brand: `b${Math.floor(i / 4) % 10}`,
        at: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
        month: i % 12,
      })),
    );
    await rows.createIndexes([
      { key: { channel: 1, at: -1, _id: -1 }, name: "channel_at" },
      { key: { brand: 1, channel: 1, month: 1 }, name: "brand_channel_month" },
    ]);
    const filter = { channel: { $in: ["c0", "c1"] }, brand: "b3", month: { $gte: 0 } };
    const page = (skip: number) => rows.find(filter).sort({ at: -1, _id: -1 }).skip(skip).limit(20);
    const all = (await rows.find(filter).hint({ $natural: 1 }).toArray()).sort(
      (a, b) => b.at.getTime() - a.at.getTime(),
    );
    expect(all).toHaveLength(1000);

    // Page 10 (200 wanted): walking the channels in date order would read ~2,000 documents for 200 matches; the
    // brand's 1,000 keys, sorted, cost less.
    const e = await page(180).explain("executionStats");
    expect(scanOf(e)).toMatchObject({ stage: "IXSCAN", indexName: "brand_channel_month" });
    expect(e.executionStats.totalDocsExamined).toBeLessThanOrEqual(1000);
    expect((await page(180).toArray()).map((d) => d._id)).toEqual(all.slice(180, 200).map((d) => d._id));

    // With the brand held in date order, a deep page reads what it skips and returns (and the next head of each
    // channel's walk, which the merge holds).
    await rows.createIndex({ brand: 1, channel: 1, at: -1, _id: -1 }, { name: "brand_channel_at" });
    const deep = await page(900).explain("executionStats");
    expect(scanOf(deep)).toMatchObject({ stage: "IXSCAN", indexName: "brand_channel_at" });
    expect(deep.executionStats.totalDocsExamined).toBeLessThanOrEqual(920 + 2);
    expect((await page(900).toArray()).map((d) => d._id)).toEqual(all.slice(900, 920).map((d) => d._id));
    await rows.drop();
  });

  it("takes an exact scan that gives the sort (or none is asked) over every other plan, and no exact scan that leaves a sort to do", async () => {
    // user_at holds { user } exactly, in the sort's order: nothing reads fewer keys.
    expect(scanOf(await files.find({ user: "u7" }).sort({ at: -1 }).limit(5).explain())).toMatchObject({
      stage: "IXSCAN",
      indexName: "user_at",
    });
    // status_progress holds the filter exactly but not in date order: walking at_desc and testing reads ~4 per result.
    const sorted = files
      .find({ status: 0, progress: { $lt: 50 } })
      .sort({ at: -1, _id: -1 })
      .limit(5);
    expect(scanOf(await sorted.explain())).toMatchObject({ stage: "IXSCAN", indexName: "at_desc" });
    const expected = (
      await files
        .find({ status: 0, progress: { $lt: 50 } })
        .hint({ $natural: 1 })
        .toArray()
    ).sort((a, b) => (b.at as Date).getTime() - (a.at as Date).getTime());
    expect((await sorted.toArray()).map((d) => d._id)).toEqual(expected.slice(0, 5).map((d) => d._id));
    // Without a sort the exact scan wins.
    expect(
      scanOf(
        await files
          .find({ status: 0, progress: { $lt: 50 } })
          .limit(5)
          .explain(),
      ),
    ).toMatchObject({ stage: "IXSCAN", indexName: "status_progress" });
  });

  it("counts from the index", async () => {
    const e = await files
      .aggregate([{ $match: { user: "u3" } }, { $group: { _id: 1, n: { $sum: 1 } } }])
      .explain("executionStats");
    expect(scanOf(e)).toMatchObject({ stage: "COUNT_SCAN", indexName: "user_at" });
    expect(await files.countDocuments({ user: "u3" })).toBe(N / 40);
    expect(await files.countDocuments({ status: 0, progress: { $lt: 50 } })).toBe(
      (
        await files
          .find({ status: 0, progress: { $lt: 50 } })
          .hint({ $natural: 1 })
          .toArray()
      ).length,
    );
  });

  it("counts a cross product of thousands of points from the index (1,000 $in values × 4 values of the next field)", async () => {
    const rows = h.client.db("plan").collection<{ _id: number; sku: string; channel: string; at: number }>("cross");
    await rows.insertMany(
      Array.from({ length: 8_000 }, (_, i) => ({ _id: i, sku: `s${i % 2_000}`, channel: `c${i % 5}`, at: i })),
    );
    await rows.createIndex({ sku: 1, channel: 1, at: 1 });
    const skus = Array.from({ length: 1_000 }, (_, i) => `s${i * 2}`);
    const query = { sku: { $in: skus }, channel: { $in: ["c0", "c1", "c2", "c3"] } };
    const e = await h.client.db("plan").command({ explain: { count: "cross", query }, verbosity: "executionStats" });
    expect(scanOf(e)).toMatchObject({ stage: "COUNT_SCAN", indexName: "sku_1_channel_1_at_1" });
    const expected = (await rows.find(query).hint({ $natural: 1 }).toArray()).length;
    expect(expected).toBeGreaterThan(0);
    expect(await rows.countDocuments(query)).toBe(expected);
    await rows.drop();
  });

  it("reads distinct values from an index", async () => {
    const e = await h.client
      .db("plan")
      .command({ explain: { distinct: "files", key: "user" }, verbosity: "queryPlanner" });
    expect(stages(e.queryPlanner.winningPlan).map((s) => s.stage)).toContain("DISTINCT_SCAN");
    expect((await files.distinct("user")).length).toBe(40);
  });

  it("reads the distinct values a filter on the same field allows from the index, one seek per value", async () => {
    const query = { user: { $in: ["u3", "u39", "nobody", "u3"] } };
    const e = await h.client
      .db("plan")
      .command({ explain: { distinct: "files", key: "user", query }, verbosity: "executionStats" });
    expect(scanOf(e)).toMatchObject({ stage: "DISTINCT_SCAN", indexName: "user_at" });
    expect(e.executionStats.totalKeysExamined).toBeLessThanOrEqual(2);
    expect((await files.distinct("user", query)).sort()).toEqual(["u3", "u39"]);
    expect((await files.distinct("user", { user: { $gte: "u37" } })).sort()).toEqual([
      "u37",
      "u38",
      "u39",
      "u4",
      "u5",
      "u6",
      "u7",
      "u8",
      "u9",
    ]);
    // An array field's other elements belong to the matched documents: read from the documents, not the bounds.
    expect((await files.distinct("tags", { tags: "t0" })).sort()).toEqual(["k0", "k1", "k2", "k3", "k4", "t0"]);
    // A filter on another field too reads the documents.
    expect((await files.distinct("user", { user: "u3", status: 2 })).length).toBeLessThanOrEqual(1);
  });

  it("joins through the foreign collection's index", async () => {
    const users = h.client.db("plan").collection<{ _id: string; name: string }>("users");
    await users.insertMany(Array.from({ length: 40 }, (_, i) => ({ _id: `u${i}`, name: `User ${i}` })));
    const joined = await users
      .aggregate([
        { $match: { _id: "u5" } },
        { $lookup: { from: "files", localField: "_id", foreignField: "user", as: "files" } },
        { $project: { n: { $size: "$files" } } },
      ])
      .toArray();
    expect(joined).toEqual([{ _id: "u5", n: N / 40 }]);
  });
});

describe("notablescan", () => {
  it("refuses a collection scan above the size threshold with NoQueryExecutionPlans (291), and allows indexed queries", async () => {
    const admin = h.client.db("admin");
    await admin.command({ setParameter: 1, notablescan: true, notablescanMinDocuments: 1000 });
    try {
      const error = await files
        .find({ progress: 3 })
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(291);
      expect((error as MongoServerError).message).toMatch(/No indexed plans available, and running with 'notablescan'/);
      // countDocuments({}) is a collection scan on a real server too; estimatedDocumentCount is not.
      expect(((await files.countDocuments({}).catch((e: unknown) => e)) as MongoServerError).code).toBe(291);
      expect(await files.estimatedDocumentCount()).toBe(N);
      expect(await files.countDocuments({ user: "u1" })).toBe(N / 40);
      await files.updateOne({ user: "u1", at: { $exists: true } }, { $set: { seen: true } });
      expect(
        ((await files.updateMany({ progress: 1 }, { $set: { x: 1 } }).catch((e: unknown) => e)) as MongoServerError)
          .code,
      ).toBe(291);
      // A small collection (under the threshold) may still be scanned.
      const small = h.client.db("plan").collection("small");
      await small.insertMany([{ a: 1 }, { a: 2 }]);
      expect(await small.find({ a: 2 }).toArray()).toHaveLength(1);
      expect(
        (await admin.command({ getParameter: 1, notablescan: 1, notablescanMinDocuments: 1 })).notablescanMinDocuments,
      ).toBe(1000);
    } finally {
      await admin.command({ setParameter: 1, notablescan: false, notablescanMinDocuments: 0 });
    }
  });
});

describe("the profiler", () => {
  it("records each operation's plan summary in system.profile", async () => {
    const db = h.client.db("plan");
    await db.command({ profile: 2 });
    await files.find({ user: "u9" }).limit(1).toArray();
    await files.find({ progress: 7 }).toArray();
    await db.command({ profile: 0 });
    const entries = await db.collection("system.profile").find({ ns: "plan.files" }).toArray();
    expect(entries.map((e) => e.planSummary)).toEqual(["IXSCAN { user: 1, at: -1, _id: -1 }", "COLLSCAN"]);
    expect(entries[1].docsExamined).toBe(N);
  });
});

describe("the plan cache", () => {
  type Row = { _id: number; a: number; b: number };
  const summaries = async (name: string, run: () => Promise<unknown>): Promise<string[]> => {
    const db = h.client.db("plan");
    await db.command({ profile: 2 });
    try {
      await run();
    } finally {
      await db.command({ profile: 0 });
    }
    const entries = await db
      .collection("system.profile")
      .find({ ns: `plan.${name}`, op: { $in: ["query", "command"] } })
      .toArray();
    await db.command({ profile: 0 });
    await db
      .collection("system.profile")
      .drop()
      .catch(() => undefined);
    return entries.map((e) => e.planSummary);
  };

  it("plans a repeated query again when an index is created or dropped", async () => {
    const rows = h.client.db("plan").collection<Row>("cache_indexes");
    await rows.insertMany(Array.from({ length: 2_000 }, (_, i) => ({ _id: i, a: i % 10, b: i % 500 })));
    await rows.createIndex({ a: 1 }, { name: "a" });
    const query = () => rows.find({ a: 3, b: 7 }).toArray();
    const expected = (await rows.find({ a: 3, b: 7 }).hint({ $natural: 1 }).toArray()).map((d) => d._id);
    expect(await summaries("cache_indexes", query)).toEqual(["IXSCAN { a: 1 }"]);
    // b narrows to 4 keys where a holds 200: the new index wins at once, and loses its place once dropped.
    await rows.createIndex({ b: 1 }, { name: "b" });
    expect(await summaries("cache_indexes", query)).toEqual(["IXSCAN { b: 1 }"]);
    expect((await query()).map((d) => d._id)).toEqual(expected);
    await rows.dropIndex("b");
    expect(await summaries("cache_indexes", query)).toEqual(["IXSCAN { a: 1 }"]);
    expect((await query()).map((d) => d._id)).toEqual(expected);
    // The same name on another key: the kept choice named the dropped index, which no write keeps up to date.
    await rows.dropIndex("a");
    await rows.createIndex({ b: 1 }, { name: "a" });
    expect(await summaries("cache_indexes", query)).toEqual(["IXSCAN { b: 1 }"]);
    await rows.insertOne({ _id: 5_000, a: 3, b: 7 });
    expect((await query()).map((d) => d._id)).toEqual([...expected, 5_000]);
  });

  it("keeps a plan for 1,000 writes to the collection's documents, then plans again on the data as it is", async () => {
    const rows = h.client.db("plan").collection<Row>("cache_writes");
    // a = 1 on 10 documents, b = 1 on 1,990: a wins.
    await rows.insertMany(Array.from({ length: 2_000 }, (_, i) => ({ _id: i, a: i < 10 ? 1 : 0, b: i < 10 ? 0 : 1 })));
    await rows.createIndexes([
      { key: { a: 1 }, name: "a" },
      { key: { b: 1 }, name: "b" },
    ]);
    const count = () => rows.countDocuments({ a: 1, b: 1 });
    expect(await summaries("cache_writes", count)).toEqual(["IXSCAN { a: 1 }"]);
    // 999 writes turn the shares around (a = 1 on 1,009 documents, b = 1 on 1,000); the kept plan still runs, and counts right.
    for (let i = 10; i < 1_009; i++) await rows.updateOne({ _id: i }, { $set: { a: 1, b: i < 1_000 ? 0 : 1 } });
    expect(await summaries("cache_writes", count)).toEqual(["IXSCAN { a: 1 }"]);
    expect(await count()).toBe(9);
    // The 1,000th write: planned again, b now holds fewer keys (999 against 1,009).
    await rows.updateOne({ _id: 1_500 }, { $set: { b: 0 } });
    expect(await summaries("cache_writes", count)).toEqual(["IXSCAN { b: 1 }"]);
    expect(await count()).toBe(9);
  });

  it("keeps one plan per filter, sort and limit, the filter's values by type: each query answers its own documents", async () => {
    const rows = h.client.db("plan").collection<{ _id: number; v: unknown; w: number }>("cache_types");
    await rows.insertMany([
      { _id: 1, v: 5, w: 1 },
      { _id: 2, v: "5", w: 1 },
      { _id: 3, v: new Date(5), w: 1 },
      { _id: 4, v: 5, w: 2 },
    ]);
    await rows.createIndexes([
      { key: { v: 1 }, name: "v" },
      { key: { w: 1 }, name: "w" },
    ]);
    for (let round = 0; round < 2; round++) {
      expect((await rows.find({ v: 5, w: 1 }).toArray()).map((d) => d._id)).toEqual([1]);
      expect((await rows.find({ v: "5", w: 1 }).toArray()).map((d) => d._id)).toEqual([2]);
      expect((await rows.find({ v: new Date(5), w: 1 }).toArray()).map((d) => d._id)).toEqual([3]);
      expect((await rows.find({ v: 5 }).sort({ w: -1 }).limit(1).toArray()).map((d) => d._id)).toEqual([4]);
      expect(await rows.countDocuments({ v: 5 })).toBe(2);
      expect(await rows.distinct("w", { v: 5 })).toEqual([1, 2]);
    }
  });

  it("is not used by explain, which lists every candidate of a query the cache holds", async () => {
    await files
      .find({ status: 0, progress: { $lt: 50 } })
      .sort({ at: -1, _id: -1 })
      .limit(5)
      .toArray();
    const e = await files
      .find({ status: 0, progress: { $lt: 50 } })
      .sort({ at: -1, _id: -1 })
      .limit(5)
      .explain();
    expect(scanOf(e)).toMatchObject({ stage: "IXSCAN", indexName: "at_desc" });
    expect(e.queryPlanner.rejectedPlans.length).toBeGreaterThan(0);
  });
});

describe("time limits and yielding", () => {
  const slowFilter = { name: { $regex: "9\\.csv$" }, $expr: { $gt: [{ $strLenCP: "$name" }, 3] } };

  it("stops a query at maxTimeMS with MaxTimeMSExpired (50)", async () => {
    const error = await files
      .find(slowFilter)
      .maxTimeMS(1)
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(50);
    expect((error as MongoServerError).codeName).toBe("MaxTimeMSExpired");
    const agg = await files
      .aggregate([{ $match: slowFilter }, { $group: { _id: "$user", n: { $sum: 1 } } }], { maxTimeMS: 1 })
      .toArray()
      .catch((e: unknown) => e);
    expect((agg as MongoServerError).code).toBe(50);
  });

  it("lets other connections in while a long scan runs", async () => {
    const db = h.client.db("plan");
    const big = db.collection<FileDoc>("big");
    await big.insertMany(
      Array.from({ length: 80_000 }, (_, i) => ({ _id: i, name: `file-${i}.csv`, user: `u${i % 40}` })),
    );
    // Two more pooled connections, so the ping below does not wait for a connection to open.
    await Promise.all([db.command({ ping: 1 }), db.command({ ping: 1 }), db.command({ ping: 1 })]);
    await db.command({ profile: 2 });
    const order: string[] = [];
    const scan = big
      .aggregate([
        { $match: slowFilter },
        { $lookup: { from: "users", localField: "user", foreignField: "_id", as: "u" } },
        { $count: "n" },
      ])
      .toArray()
      .then(() => order.push("scan"));
    // Started after the scan, on another pooled connection: answered before the scan ends.
    await new Promise((r) => setImmediate(r));
    await db.command({ ping: 1 }).then(() => order.push("ping"));
    await scan;
    await db.command({ profile: 0 });
    expect(order).toEqual(["ping", "scan"]);
    const [entry] = await db
      .collection("system.profile")
      .find({ "command.aggregate": "big" })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    expect(entry.numYield).toBeGreaterThan(0);
  });
});
