import { type Db, Decimal128, type Document, Long, MongoServerError, type ObjectId } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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

  it("$lookup with localField and a pipeline: the equality and the pipeline's first $match read through one index", async () => {
    const notices = col("notices");
    await notices.createIndex({ to: 1, read_at: 1 });
    await notices.insertMany(
      Array.from({ length: 300 }, (_, i) => ({
        _id: i,
        to: i % 3 === 0 ? "ana" : "bia",
        // Unread: the field missing or null (both match `read_at: null`).
        ...(i < 6 ? (i % 2 === 0 ? {} : { read_at: null }) : { read_at: new Date(2026, 0, 1 + (i % 28)) }),
      })),
    );
    await col("sessions").insertMany([{ _id: "s1", email: "ana" }, { _id: "s2", email: "bia" }, { _id: "s3" }]);
    await db.command({ profile: 2 });
    const out = await col("sessions")
      .aggregate([
        {
          $lookup: {
            from: "notices",
            localField: "email",
            foreignField: "to",
            pipeline: [{ $match: { read_at: null } }, { $count: "n" }],
            as: "unread",
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    await db.command({ profile: 0 });
    // Unread: ana 0 and 3, bia 1, 2, 4 and 5; a session without an e-mail matches the notices without `to`: none.
    expect(out.map((s) => [s._id, s.unread])).toEqual([
      ["s1", [{ n: 2 }]],
      ["s2", [{ n: 4 }]],
      ["s3", []],
    ]);
    const [entry] = await db
      .collection("system.profile")
      .find({ ns: `${db.databaseName}.sessions` })
      .toArray();
    // Each session's unread notices come from the index's bounds, not from every notice of its user (100 and 200).
    expect(entry.docsExamined).toBeLessThan(3 + 6 + 6);
  });

  it("$unionWith: a sub-pipeline's leading $sort, $skip and $limit read through an index and stop early", async () => {
    const jobs = col("jobs");
    await jobs.createIndex({ changed: -1, _id: -1 });
    await jobs.createIndex({ who: 1, changed: 1 });
    await jobs.insertMany(
      Array.from({ length: 2_000 }, (_, i) => ({ _id: i, changed: (i * 7919) % 2_000, who: i % 5 })),
    );
    await col("views").insertOne({ _id: "v", user: "ana" });
    await db.command({ profile: 2 });
    const out = await col("views")
      .aggregate([
        { $match: { user: "ana" } },
        {
          $unionWith: {
            coll: "jobs",
            pipeline: [
              { $match: {} },
              { $sort: { changed: -1, _id: -1 } },
              { $skip: 20 },
              { $limit: 5 },
              { $project: { changed: 1 } },
            ],
          },
        },
        {
          $unionWith: {
            coll: "jobs",
            pipeline: [{ $match: { who: 3 } }, { $sort: { changed: 1 } }, { $skip: 1 }, { $limit: 2 }],
          },
        },
      ])
      .toArray();
    await db.command({ profile: 0 });
    const byChanged = Array.from({ length: 2_000 }, (_, i) => ({ _id: i, changed: (i * 7919) % 2_000, who: i % 5 }));
    const newest = [...byChanged].sort((a, b) => b.changed - a.changed || b._id - a._id).slice(20, 25);
    const fourth = byChanged
      .filter((d) => d.who === 3)
      .sort((a, b) => a.changed - b.changed)
      .slice(1, 3);
    expect(out).toEqual([
      { _id: "v", user: "ana" },
      ...newest.map(({ _id, changed }) => ({ _id, changed })),
      ...fourth,
    ]);
    const [entry] = await db
      .collection("system.profile")
      .find({ ns: `${db.databaseName}.views` })
      .toArray();
    // Each sub-pipeline reads in its index's order and stops: 25 and 3 documents, not 2,000 each.
    expect(entry.docsExamined).toBeLessThan(1 + 25 + 3 + 5);
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
