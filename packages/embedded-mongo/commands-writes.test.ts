import { type Db, type Document, MongoBulkWriteError, MongoClient, MongoServerError, ObjectId } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmbeddedMongo } from "./index";
import { type Harness, startHarness, stopHarness } from "./test-helpers";

let h: Harness;
let db: Db;
let dbCounter = 0;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await stopHarness(h);
});
beforeEach(() => {
  db = h.client.db(`cmd_${++dbCounter}`);
});

// Test documents use numbers and strings as _id, as applications may.
/** A document of any shape (the driver's Document), with the _id kinds these tests use. */
type Loose = Document & { _id?: number | string | ObjectId };
function col(name: string) {
  return db.collection<Loose>(name);
}

async function serverError(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

describe("writes", () => {
  it("inserts, generating and keeping _id", async () => {
    const c = col("w");
    const one = await c.insertOne({ a: 1 });
    expect(one.insertedId).toBeInstanceOf(ObjectId);
    const many = await c.insertMany([{ _id: "x" as unknown as ObjectId, a: 2 }, { a: 3 }]);
    expect(many.insertedCount).toBe(2);
    expect(await c.findOne({ _id: "x" as unknown as ObjectId })).toEqual({ _id: "x", a: 2 });
    const raw = await db.command({ insert: "w", documents: [{ b: 1 }] });
    expect(raw).toMatchObject({ n: 1, ok: 1 });
    const stored = await c.findOne({ b: 1 });
    expect(Object.keys(stored!)[0]).toBe("_id");
  });

  it("updates with operators, upsert, $setOnInsert, arrayFilters and pipelines", async () => {
    const c = col("u");
    await c.insertMany([
      { _id: 1, n: 1, items: [{ q: 1 }, { q: 5 }] },
      { _id: 2, n: 2, items: [] },
    ]);
    expect(await c.updateOne({ _id: 1 }, { $inc: { n: 10 }, $push: { items: { q: 9 } } } as never)).toMatchObject({
      matchedCount: 1,
      modifiedCount: 1,
    });
    expect(await c.updateOne({ _id: 1 }, { $set: { n: 11 } })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    await c.updateOne({ _id: 1 }, { $set: { "items.$[big].q": 0 } }, { arrayFilters: [{ "big.q": { $gte: 5 } }] });
    expect((await c.findOne({ _id: 1 }))?.items).toEqual([{ q: 1 }, { q: 0 }, { q: 0 }]);
    const up = await c.updateOne({ code: "z" }, { $set: { v: 1 }, $setOnInsert: { created: true } }, { upsert: true });
    expect(up.upsertedCount).toBe(1);
    expect(await c.findOne({ _id: up.upsertedId! })).toEqual({ _id: up.upsertedId, code: "z", v: 1, created: true });
    await c.updateOne({ code: "z" }, { $set: { v: 2 }, $setOnInsert: { created: false } }, { upsert: true });
    expect(await c.findOne({ code: "z" }, { projection: { _id: 0 } })).toEqual({ code: "z", v: 2, created: true });
    // An upsert's insert may name its _id ($setOnInsert or $set); a match leaves $setOnInsert's _id alone.
    const named = { $inc: { n: 1 }, $setOnInsert: { _id: "w1" } } as never;
    expect(await c.updateOne({ code: "w" }, named, { upsert: true })).toMatchObject({ upsertedId: "w1" });
    expect(await c.updateOne({ code: "w" }, named, { upsert: true })).toMatchObject({ matchedCount: 1 });
    expect(await c.findOne({ code: "w" })).toEqual({ _id: "w1", code: "w", n: 2 });
    expect(
      (await serverError(c.updateOne({ _id: 7 }, { $setOnInsert: { _id: 8 } } as never, { upsert: true }))).code,
    ).toBe(66);
    await c.updateMany({}, [{ $set: { double: { $multiply: [{ $ifNull: ["$n", 0] }, 2] } } }]);
    expect((await c.findOne({ _id: 2 }))?.double).toBe(4);
    await c.replaceOne({ _id: 2 }, { replaced: true });
    expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, replaced: true });
    const immutable = await serverError(c.updateOne({ _id: 2 }, { $set: { _id: 3 } }));
    expect(immutable.code).toBe(66);
    const unknownOp = await serverError(c.updateOne({ _id: 2 }, { $frob: { a: 1 } } as never));
    expect(unknownOp.code).toBe(9);
  });

  it("deletes one or many", async () => {
    const c = col("d");
    await c.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await c.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(2);
  });

  it("findOneAndUpdate/Replace/Delete return the document (driver 6 default)", async () => {
    const c = col("f");
    await c.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);
    expect(await c.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } })).toEqual({ _id: 1, n: 1 });
    expect(
      await c.findOneAndUpdate(
        { _id: 1 },
        { $inc: { n: 1 } },
        { returnDocument: "after", projection: { n: 1, _id: 0 } },
      ),
    ).toEqual({ n: 3 });
    expect(await c.findOneAndUpdate({ _id: 9 }, { $set: { n: 9 } })).toBeNull();
    const upserted = await c.findOneAndUpdate(
      { _id: 9 },
      { $set: { n: 9 } },
      { upsert: true, returnDocument: "after" },
    );
    expect(upserted).toEqual({ _id: 9, n: 9 });
    const meta = await c.findOneAndUpdate({ _id: 2 }, { $set: { n: 20 } }, { includeResultMetadata: true });
    expect(meta.ok).toBe(1);
    expect(meta.value).toEqual({ _id: 2, n: 2 });
    expect(meta.lastErrorObject).toMatchObject({ n: 1, updatedExisting: true });
    expect(await c.findOneAndReplace({ _id: 2 }, { r: 1 }, { returnDocument: "after" })).toEqual({ _id: 2, r: 1 });
    expect(await c.findOneAndDelete({}, { sort: { _id: -1 } })).toEqual({ _id: 9, n: 9 });
    expect(await c.countDocuments()).toBe(2);
  });

  it("bulkWrite mixes operations and reports counts", async () => {
    const c = col("b");
    const result = await c.bulkWrite([
      { insertOne: { document: { _id: 1, v: 1 } } },
      { insertOne: { document: { _id: 2, v: 2 } } },
      { updateOne: { filter: { _id: 1 }, update: { $set: { v: 10 } } } },
      { updateMany: { filter: {}, update: { $inc: { v: 1 } } } },
      { replaceOne: { filter: { _id: 3 }, replacement: { v: 3 }, upsert: true } },
      { deleteOne: { filter: { _id: 2 } } },
    ]);
    expect(result).toMatchObject({
      insertedCount: 2,
      matchedCount: 3,
      modifiedCount: 3,
      upsertedCount: 1,
      deletedCount: 1,
    });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 11 },
      { _id: 3, v: 3 },
    ]);
  });
});

describe("wire protocol details", () => {
  it("does not reply to moreToCome (w:0) writes, and still applies them in order", async () => {
    const single = new MongoClient(h.server.uri, { maxPoolSize: 1 });
    try {
      const c = single.db(db.databaseName).collection<Loose>("fire");
      const result = await c.insertOne({ _id: 1, v: "unacknowledged" }, { writeConcern: { w: 0 } });
      expect(result.acknowledged).toBe(false);
      await c.updateOne({ _id: 1 }, { $set: { v: "again" } }, { writeConcern: { w: 0 } });
      expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, v: "again" });
    } finally {
      await single.close();
    }
  });

  it("caps a batch at 16 MB and hands the rest out through getMore", async () => {
    const big = "x".repeat(1024 * 1024);
    await col("big").insertMany(Array.from({ length: 40 }, (_, i) => ({ _id: i, big })));
    const raw = await db.command({ find: "big", batchSize: 1000, projection: { _id: 1, big: 1 } });
    expect(raw.cursor.firstBatch.length).toBeGreaterThan(0);
    expect(raw.cursor.firstBatch.length).toBeLessThan(16);
    expect(await col("big").countDocuments()).toBe(40);
    const ids = (await col("big").find({}, { batchSize: 1000 }).toArray()).map((d) => d._id);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});

describe("indexes", () => {
  it("creates, lists and drops indexes", async () => {
    const c = col("i");
    expect(await c.createIndex({ a: 1, b: -1 })).toBe("a_1_b_-1");
    expect(await c.createIndex({ a: 1, b: -1 })).toBe("a_1_b_-1");
    await c.createIndex({ email: 1 }, { unique: true, name: "by_email" });
    const specs = await c.indexes();
    expect(specs).toEqual([
      { v: 2, key: { _id: 1 }, name: "_id_" },
      { v: 2, key: { a: 1, b: -1 }, name: "a_1_b_-1" },
      { v: 2, key: { email: 1 }, name: "by_email", unique: true },
    ]);
    const conflict = await serverError(c.createIndex({ email: 1 }, { name: "other" }));
    expect(conflict.code).toBe(85);
    await c.dropIndex("a_1_b_-1");
    const missing = await serverError(c.dropIndex("nope"));
    expect(missing.code).toBe(27);
    await c.dropIndexes();
    expect((await c.indexes()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it("listIndexes on a missing collection is NamespaceNotFound (26)", async () => {
    const error = await serverError(col("ghost").indexes());
    expect(error.code).toBe(26);
    expect(error.codeName).toBe("NamespaceNotFound");
    expect(error.message).toBe(`ns does not exist: ${db.databaseName}.ghost`);
  });

  it("enforces a unique index on insert with MongoDB's error shape", async () => {
    const c = col("users");
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertOne({ email: "a@x.com" });
    const single = await serverError(c.insertOne({ email: "a@x.com" }));
    expect(single.code).toBe(11000);
    expect(single.message).toBe(
      `E11000 duplicate key error collection: ${db.databaseName}.users index: email_1 dup key: { email: "a@x.com" }`,
    );
    expect(single.keyPattern).toEqual({ email: 1 });
    expect(single.keyValue).toEqual({ email: "a@x.com" });

    const bulk = await c.insertMany([{ email: "b@x.com" }, { email: "a@x.com" }, { email: "c@x.com" }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(bulk).toBeInstanceOf(MongoBulkWriteError);
    const bulkError = bulk as MongoBulkWriteError;
    expect(bulkError.code).toBe(11000);
    expect(bulkError.result.insertedCount).toBe(1);
    expect(bulkError.writeErrors).toMatchObject([{ index: 1, code: 11000 }]);
    expect(await c.countDocuments()).toBe(2);

    const unordered = await c
      .insertMany([{ email: "a@x.com" }, { email: "d@x.com" }], { ordered: false })
      .catch((e: MongoBulkWriteError) => e);
    expect(unordered).toBeInstanceOf(MongoBulkWriteError);
    expect((unordered as MongoBulkWriteError).result.insertedCount).toBe(1);
  });

  it("leaves every index holding exactly the documents a batch stored, after duplicates stop or skip some of it", async () => {
    const c = col("batched");
    await c.createIndexes([{ key: { code: 1 }, unique: true }, { key: { group: 1, at: -1 } }, { key: { at: 1 } }]);
    const row = (i: number, code = `c${i}`) => ({
      _id: i,
      code,
      group: `g${i % 3}`,
      at: new Date(Date.UTC(2026, 0, 1 + (i % 20))),
    });
    // Ordered: the duplicate _id at 40 stops the batch; the document after it is not inserted.
    const ordered = await c
      .insertMany([...Array.from({ length: 40 }, (_, i) => row(i)), row(5), row(100)])
      .catch((e: MongoBulkWriteError) => e);
    expect((ordered as MongoBulkWriteError).result.insertedCount).toBe(40);
    // Unordered: duplicates of _id and of the unique code are skipped, the rest go in.
    const unordered = await c
      .insertMany([row(200), row(3), row(201, "c7"), row(202), row(202)], { ordered: false })
      .catch((e: MongoBulkWriteError) => e);
    expect([(unordered as MongoBulkWriteError).writeErrors].flat().map((w) => w.index)).toEqual([1, 2, 4]);
    const stored = [...Array.from({ length: 40 }, (_, i) => row(i)), row(200), row(202)];
    const expected = (
      pick: (r: ReturnType<typeof row>) => boolean,
      order: (a: ReturnType<typeof row>, b: ReturnType<typeof row>) => number,
    ) =>
      stored
        .filter(pick)
        .sort(order)
        .map((r) => r._id);
    expect(
      (await c.find({ group: "g1" }).sort({ at: -1, _id: -1 }).hint("group_1_at_-1").toArray()).map((d) => d._id),
    ).toEqual(
      expected(
        (r) => r.group === "g1",
        (a, b) => b.at.getTime() - a.at.getTime() || b._id - a._id,
      ),
    );
    expect((await c.find({}).sort({ at: 1, _id: 1 }).hint("at_1").toArray()).map((d) => d._id)).toEqual(
      expected(
        () => true,
        (a, b) => a.at.getTime() - b.at.getTime() || a._id - b._id,
      ),
    );
    expect(await c.countDocuments({ at: { $gte: new Date(Date.UTC(2026, 0, 10)) } })).toBe(
      stored.filter((r) => r.at >= new Date(Date.UTC(2026, 0, 10))).length,
    );
    expect(await c.countDocuments({ code: "c7" })).toBe(1);
  });

  it("enforces _id uniqueness", async () => {
    const c = col("ids");
    await c.insertOne({ _id: 1 } as never);
    const error = await serverError(c.insertOne({ _id: 1 } as never));
    expect(error.code).toBe(11000);
    expect(error.message).toContain("index: _id_ dup key: { _id: 1 }");
    expect(error.keyValue).toEqual({ _id: 1 });
  });

  it("enforces compound unique indexes on update, upsert and findAndModify", async () => {
    const c = col("pairs");
    await c.createIndex({ tenant: 1, code: 1 }, { unique: true });
    await c.insertMany([
      { tenant: "a", code: 1 },
      { tenant: "a", code: 2 },
      { tenant: "b", code: 1 },
    ]);
    const update = await serverError(c.updateOne({ tenant: "a", code: 2 }, { $set: { code: 1 } }));
    expect(update.code).toBe(11000);
    expect(update.keyPattern).toEqual({ tenant: 1, code: 1 });
    expect(update.keyValue).toEqual({ tenant: "a", code: 1 });
    const upsert = await serverError(c.updateOne({ tenant: "b", code: 9 }, { $set: { code: 1 } }, { upsert: true }));
    expect(upsert.code).toBe(11000);
    const fam = await serverError(c.findOneAndUpdate({ tenant: "b" }, { $set: { tenant: "a" } }));
    expect(fam.code).toBe(11000);
    expect(fam.codeName).toBe("DuplicateKey");
    expect(fam.keyValue).toEqual({ tenant: "a", code: 1 });
    const raw = await db.command({
      update: "pairs",
      updates: [{ q: { code: 2 }, u: { $set: { tenant: "b", code: 1 } } }],
    });
    expect(raw.writeErrors[0]).toMatchObject({
      index: 0,
      code: 11000,
      keyPattern: { tenant: 1, code: 1 },
      keyValue: { tenant: "b", code: 1 },
    });
    expect(raw.writeErrors[0].errmsg).toMatch(
      /^E11000 duplicate key error collection: .*pairs index: tenant_1_code_1 dup key: \{ tenant: "b", code: 1 \}$/,
    );
    // Nothing changed.
    expect(
      await c
        .find({}, { projection: { _id: 0 } })
        .sort({ tenant: 1, code: 1 })
        .toArray(),
    ).toEqual([
      { tenant: "a", code: 1 },
      { tenant: "a", code: 2 },
      { tenant: "b", code: 1 },
    ]);
  });

  it("deletes expired documents through a TTL index", async () => {
    const ttlServer = await startEmbeddedMongo({ ttlIntervalMs: 30 });
    const client = new MongoClient(ttlServer.uri);
    try {
      const c = client.db("ttl").collection<Loose>("sessions");
      await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
      await c.insertMany([
        { _id: "old", expiresAt: new Date(Date.now() - 1000) },
        { _id: "new", expiresAt: new Date(Date.now() + 3_600_000) },
        { _id: "no-date", expiresAt: "not a date" },
      ]);
      await expect
        .poll(async () => (await c.find().sort({ _id: 1 }).toArray()).map((d) => d._id), { timeout: 2000 })
        .toEqual(["new", "no-date"]);
    } finally {
      await client.close();
      await ttlServer.stop();
    }
  });

  it("fails to build a unique index over duplicates", async () => {
    const c = col("dups");
    await c.insertMany([{ k: 1 }, { k: 1 }]);
    const error = await serverError(c.createIndex({ k: 1 }, { unique: true }));
    expect(error.code).toBe(11000);
    expect((await c.indexes()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it("honours sparse and partial unique indexes", async () => {
    const c = col("sparse");
    await c.createIndex({ sso: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ a: 1 }, { a: 2 }, { sso: "x" }]);
    expect((await serverError(c.insertOne({ sso: "x" }))).code).toBe(11000);
    const p = col("partial");
    await p.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await p.insertMany([
      { email: "a", active: false },
      { email: "a", active: true },
    ]);
    expect((await serverError(p.insertOne({ email: "a", active: true }))).code).toBe(11000);
  });

  it("answers equality queries on indexed fields, including multikey and compound prefixes", async () => {
    const c = col("lookup");
    await c.createIndex({ tags: 1 });
    await c.createIndex({ city: 1, age: 1 });
    await c.insertMany([
      { _id: 1, tags: ["a", "b"], city: "Rio", age: 30 },
      { _id: 2, tags: ["b"], city: "Rio", age: 20 },
      { _id: 3, tags: [], city: "SP", age: 20 },
    ]);
    expect((await c.find({ tags: "b" }).toArray()).map((d) => d._id)).toEqual([1, 2]);
    expect((await c.find({ city: "Rio", age: { $gt: 25 } }).toArray()).map((d) => d._id)).toEqual([1]);
    expect(
      (
        await c
          .find({ city: { $in: ["SP", "Rio"] } })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => d._id),
    ).toEqual([1, 2, 3]);
    await c.updateOne({ _id: 2 }, { $set: { city: "SP" } });
    expect((await c.find({ city: "SP" }).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([2, 3]);
    await c.deleteOne({ _id: 3 });
    expect((await c.find({ city: "SP" }).toArray()).map((d) => d._id)).toEqual([2]);
  });
});
