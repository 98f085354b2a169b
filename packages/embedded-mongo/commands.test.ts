import {
  Decimal128,
  Long,
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
  type Db,
  type Document,
} from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmbeddedMongo } from "./index";
import { startHarness, stopHarness, type Harness } from "./test-helpers";

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
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = { _id?: number | string | ObjectId; [key: string]: any };
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

describe("handshake and admin commands", () => {
  it("answers hello with the fields the driver needs and no topologyVersion", async () => {
    const hello = await db.admin().command({ hello: 1 });
    expect(hello).toMatchObject({
      ok: 1,
      helloOk: true,
      isWritablePrimary: true,
      maxWireVersion: 21,
      maxWriteBatchSize: 100000,
      readOnly: false,
    });
    expect(hello.logicalSessionTimeoutMinutes).toBe(30);
    expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    expect(hello.maxMessageSizeBytes).toBe(48_000_000);
    expect(hello.localTime).toBeInstanceOf(Date);
    expect(typeof hello.connectionId).toBe("number");
    expect(hello).not.toHaveProperty("topologyVersion");
    const legacy = await db.admin().command({ isMaster: 1 });
    expect(legacy.ismaster).toBe(true);
  });

  it("answers ping and buildInfo", async () => {
    expect(await db.admin().ping()).toMatchObject({ ok: 1 });
    const info = await db.admin().buildInfo();
    expect(info.version).toBe("7.0.0");
    expect(info.versionArray).toEqual([7, 0, 0, 0]);
  });

  it("rejects an unknown command with CommandNotFound (59)", async () => {
    const error = await serverError(db.command({ frobnicate: 1 }));
    expect(error.code).toBe(59);
    expect(error.codeName).toBe("CommandNotFound");
    expect(error.message).toBe("no such command: 'frobnicate'");
  });

  it("matches command names exactly, with only mongod's own lower-case aliases", async () => {
    for (const name of ["isMaster", "ismaster"]) expect((await db.admin().command({ [name]: 1 })).ismaster).toBe(true);
    for (const name of ["buildInfo", "buildinfo"])
      expect((await db.admin().command({ [name]: 1 })).version).toBe("7.0.0");
    await col("fam").insertOne({ _id: 1, n: 0 });
    const spellings = ["findAndModify", "findandmodify"];
    for (const [i, name] of spellings.entries()) {
      const reply = await db.command({ [name]: "fam", query: { _id: 1 }, update: { $inc: { n: 1 } }, new: true });
      expect(reply.value).toEqual({ _id: 1, n: i + 1 });
    }

    // Names inherited by every JavaScript object, and other spellings, are unknown commands.
    for (const name of [
      "constructor",
      "toString",
      "valueOf",
      "hasOwnProperty",
      "__defineGetter__",
      "PING",
      "Ping",
      "HELLO",
      "ISMASTER",
      "BuildInfo",
      "FIND",
    ]) {
      const error = await serverError(db.command({ [name]: 1 }));
      expect({ name, code: error.code, codeName: error.codeName, message: error.message }).toEqual({
        name,
        code: 59,
        codeName: "CommandNotFound",
        message: `no such command: '${name}'`,
      });
    }
  });

  it("lists, creates and drops collections and databases", async () => {
    await db.createCollection("a");
    await col("b").insertOne({ x: 1 });
    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    expect(names).toEqual(["a", "b"]);
    expect((await db.listCollections({ name: "a" }, { nameOnly: true }).toArray()).map((c) => c.name)).toEqual(["a"]);
    const created = await serverError(db.createCollection("a"));
    expect(created.code).toBe(48);
    const dbs = await db.admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).toContain(db.databaseName);
    expect(await col("a").drop()).toBe(true);
    expect(await col("never-existed").drop()).toBe(true);
    expect(await db.dropDatabase()).toBe(true);
    expect(await db.listCollections().toArray()).toEqual([]);
  });

  it("refuses transactions with a clear error", async () => {
    const session = h.client.startSession();
    try {
      session.startTransaction();
      const error = await serverError(col("t").insertOne({ a: 1 }, { session }));
      expect(error.code).toBe(20);
      expect(error.message).toMatch(/replica set/);
    } finally {
      await session.endSession();
    }
  });
});

describe("reads", () => {
  beforeEach(async () => {
    await col("people").insertMany(
      Array.from({ length: 250 }, (_, i) => ({
        _id: i,
        name: `p${i}`,
        group: i % 5,
        tags: i % 2 ? ["odd"] : ["even"],
      })),
    );
  });

  it("find with sort, skip, limit and projection", async () => {
    const docs = await col("people")
      .find({ group: 2 }, { projection: { name: 1 } })
      .sort({ _id: -1 })
      .skip(1)
      .limit(3)
      .toArray();
    expect(docs).toEqual([
      { _id: 242, name: "p242" },
      { _id: 237, name: "p237" },
      { _id: 232, name: "p232" },
    ]);
  });

  it("projects top-level fields as mongod does: inclusion in the document's order, exclusion, _id rules, other shapes", async () => {
    const c = col("shapes");
    await c.insertOne({ _id: 1, b: 2, a: 1, c: { d: 4, e: 5 }, f: [1, 2, 3] });
    const one = async (projection: Document) => (await c.find({ _id: 1 }, { projection }).toArray())[0];
    // Inclusion keeps the stored order (b before a), _id unless excluded; a named field that is absent stays absent.
    expect(Object.keys(await one({ a: 1, b: true, missing: 1 }))).toEqual(["_id", "b", "a"]);
    expect(await one({ _id: 0, a: 1 })).toEqual({ a: 1 });
    expect(await one({ _id: 1 })).toEqual({ _id: 1 });
    expect(await one({ _id: 0 })).toEqual({ b: 2, a: 1, c: { d: 4, e: 5 }, f: [1, 2, 3] });
    expect(await one({ c: 0, f: false })).toEqual({ _id: 1, b: 2, a: 1 });
    expect(await one({ _id: 0, c: 0 })).toEqual({ b: 2, a: 1, f: [1, 2, 3] });
    // Dotted paths and operators keep their meaning (mingo's projection).
    expect(await one({ "c.d": 1 })).toEqual({ _id: 1, c: { d: 4 } });
    expect(await one({ a: 1, f: { $slice: 2 } })).toEqual({ _id: 1, a: 1, f: [1, 2] });
    // A mix of inclusion and exclusion is refused, as mongod refuses it.
    expect((await serverError(c.find({}, { projection: { a: 1, b: 0 } }).toArray())).message).toMatch(
      /exclusion|inclusion/i,
    );
  });
  it("iterates large results through getMore and kills cursors", async () => {
    const all = await col("people").find({}, { batchSize: 7 }).toArray();
    expect(all).toHaveLength(250);
    expect(all.map((d) => d._id)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    const cursor = col("people").find({}, { batchSize: 2 });
    await cursor.next();
    await cursor.close();
    const raw = await db.command({ find: "people", batchSize: 2 });
    // The driver's db.command() promotes the Int64 cursor id to a JS number.
    expect(Number(raw.cursor.id)).toBeGreaterThan(0);
    const killed = await db.command({ killCursors: "people", cursors: [raw.cursor.id] });
    expect(killed.cursorsKilled).toHaveLength(1);
    const gone = await serverError(db.command({ getMore: raw.cursor.id, collection: "people" }));
    expect(gone.code).toBe(43);
  });

  it("counts, estimates and distincts", async () => {
    const people = col("people");
    expect(await people.countDocuments()).toBe(250);
    expect(await people.countDocuments({ group: 1 })).toBe(50);
    expect(await people.countDocuments({ group: 1 }, { skip: 10, limit: 5 })).toBe(5);
    expect(await people.countDocuments({ group: 99 })).toBe(0);
    expect(await people.estimatedDocumentCount()).toBe(250);
    expect((await people.distinct("group")).sort()).toEqual([0, 1, 2, 3, 4]);
    expect((await people.distinct("tags", { group: 0 })).sort()).toEqual(["even", "odd"]);
    expect(await col("missing").countDocuments()).toBe(0);
    expect(await col("missing").find().toArray()).toEqual([]);
  });

  it("aggregates with $group, $sort, $lookup, $facet, $unwind and $count", async () => {
    await col("groups").insertMany([
      { _id: 0, label: "zero" },
      { _id: 1, label: "one" },
    ]);
    const grouped = await db
      .collection("people")
      .aggregate([
        { $match: { group: { $lt: 2 } } },
        { $group: { _id: "$group", n: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(grouped).toEqual([
      { _id: 0, n: 50 },
      { _id: 1, n: 50 },
    ]);
    const joined = await db
      .collection("people")
      .aggregate([
        { $match: { _id: { $in: [0, 1] } } },
        { $lookup: { from: "groups", localField: "group", foreignField: "_id", as: "g" } },
        { $project: { label: { $first: "$g.label" } } },
      ])
      .toArray();
    expect(joined).toEqual([
      { _id: 0, label: "zero" },
      { _id: 1, label: "one" },
    ]);
    const [facets] = await db
      .collection("people")
      .aggregate([
        {
          $facet: {
            total: [{ $count: "n" }],
            tags: [{ $unwind: "$tags" }, { $group: { _id: "$tags", c: { $sum: 1 } } }, { $sort: { _id: 1 } }],
          },
        },
      ])
      .toArray();
    expect(facets).toEqual({
      total: [{ n: 250 }],
      tags: [
        { _id: "even", c: 125 },
        { _id: "odd", c: 125 },
      ],
    });
  });

  it("never lets an aggregation change stored documents", async () => {
    await col("nested").insertOne({ _id: 1, a: { b: 1 } });
    const out = await col("nested")
      .aggregate([{ $set: { "a.c": 2 } }, { $addFields: { "a.b": 5 } }])
      .toArray();
    expect(out).toEqual([{ _id: 1, a: { b: 5, c: 2 } }]);
    expect(await col("nested").findOne({ _id: 1 })).toEqual({ _id: 1, a: { b: 1 } });
  });

  it("keeps a stable snapshot for an open cursor", async () => {
    const cursor = col("people").find({}, { batchSize: 10 });
    const first = await cursor.next();
    await col("people").deleteMany({});
    await col("people").insertOne({ _id: 999 });
    const rest = await cursor.toArray();
    expect(first?._id).toBe(0);
    expect(rest).toHaveLength(249);
    expect(rest.at(-1)?._id).toBe(249);
  });

  it("refuses Decimal128 and 64-bit integers beyond 2^53 with BadValue (2)", async () => {
    const people = col("people");
    const decimal = await serverError(people.insertOne({ price: Decimal128.fromString("1.10") }));
    expect(decimal.code).toBe(2);
    expect(decimal.message).toMatch(/Decimal128/);
    const badFilter = await serverError(people.find({ price: Decimal128.fromString("1.10") }).toArray());
    expect(badFilter.codeName).toBe("BadValue");
    const big = await serverError(people.find({ n: Long.fromString("9007199254740993") }).toArray());
    expect(big.code).toBe(2);
    const update = await serverError(
      people.updateOne({ _id: 1 }, { $set: { n: Long.fromString("9223372036854775807") } }),
    );
    expect(update.code).toBe(2);
    // 64-bit integers within 2^53 are fine.
    await people.insertOne({ _id: "long", n: Long.fromNumber(42) });
    expect((await people.findOne({ _id: "long" }))?.n).toBe(42);
  });

  it("refuses a collation instead of silently ignoring it", async () => {
    const error = await serverError(
      col("people")
        .find({ name: "P1" }, { collation: { locale: "pt", strength: 2 } })
        .toArray(),
    );
    expect(error.code).toBe(2);
    expect(error.message).toMatch(/collation/);
    expect(
      await col("people")
        .find({ name: "p1" }, { collation: { locale: "simple" } })
        .toArray(),
    ).toHaveLength(1);
  });

  it("reports a bad query operator as BadValue", async () => {
    const error = await serverError(
      col("people")
        .find({ name: { $nope: 1 } })
        .toArray(),
    );
    expect(error.code).toBe(2);
  });
});

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
