/**
 * Multi-document writes (updateMany, deleteMany, update pipelines): they work in slices and let other
 * connections in between, as MongoDB yields; each document changes atomically, a document another client
 * changed or removed meanwhile is read again (never overwritten with a stale copy, never brought back),
 * and a $set pipeline gives the same documents, indexes and journal as before.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, MongoServerError } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JournalIo, nodeIo } from "./journal/io";
import { Journal } from "./journal/journal";
import { contiguousRuns, encodeRecord, readRecords } from "./journal/records";
import { Catalog } from "./storage/catalog";
import { type Harness, startHarness, stopHarness } from "./test-helpers";

type Row = {
  _id: number;
  k: string;
  n: number;
  v: number;
  flag?: boolean;
  at?: Date;
  revision?: number;
  nested?: unknown;
  gone?: number;
};

let h: Harness;
let other: MongoClient;
const tempDirs: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  other = new MongoClient(h.server.uri);
  await other.connect();
});
afterAll(async () => {
  await other.close();
  await stopHarness(h);
});
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Enough documents, with indexes to maintain, that a multi-document write spans many slices. */
const N = 20_000;

async function fill(name: string): Promise<void> {
  const coll = h.client.db("multi").collection<Row>(name);
  const rows: Row[] = Array.from({ length: N }, (_, i) => ({
    _id: i,
    k: `k${i % 50}`,
    n: 0,
    v: i % 1000,
    flag: true,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  }));
  for (let i = 0; i < N; i += 5000) await coll.insertMany(rows.slice(i, i + 5000));
  await coll.createIndexes([{ key: { k: 1, at: -1 } }, { key: { at: -1 } }, { key: { v: 1 } }, { key: { n: 1 } }]);
}

/**
 * Runs `write`, and meanwhile reads the first and the last document of the collection (by _id) from another
 * connection until the write answers. Returns whether some read pair saw the write half done: the first
 * document already written and the last one not yet — only possible if reads were served while it ran.
 */
async function readWhile<T>(
  name: string,
  write: () => Promise<T>,
  written: (doc: Row | null) => boolean,
): Promise<{ result: T; sawHalfDone: boolean; reads: number }> {
  const coll = other.db("multi").collection<Row>(name);
  let done = false;
  let sawHalfDone = false;
  let reads = 0;
  const reader = (async () => {
    while (!done) {
      const first = await coll.findOne({ _id: 0 });
      const last = await coll.findOne({ _id: N - 1 });
      reads++;
      if (!done && written(first) && !written(last)) sawHalfDone = true;
    }
  })();
  const result = await write().finally(() => {
    done = true;
  });
  await reader;
  return { result, sawHalfDone, reads };
}

describe("multi-document writes let other clients in", () => {
  it("a reader is answered while a large pipeline updateMany runs, and every document ends updated once", async () => {
    await fill("pipe");
    const coll = h.client.db("multi").collection<Row>("pipe");
    const now = new Date(Date.UTC(2027, 0, 1));
    const { result, sawHalfDone } = await readWhile(
      "pipe",
      () =>
        coll.updateMany({}, [
          {
            $set: {
              v: { $floor: { $divide: [{ $add: [{ $multiply: [{ $ifNull: ["$v", 0] }, 150] }, 50] }, 100] } },
              at: now,
              revision: { $add: [{ $ifNull: ["$revision", 0] }, 1] },
            },
          },
        ]),
      (doc) => doc?.revision === 1,
    );
    expect(sawHalfDone).toBe(true);
    expect(result.matchedCount).toBe(N);
    expect(result.modifiedCount).toBe(N);
    expect(await coll.countDocuments({ revision: 1 })).toBe(N);
    expect(await coll.findOne({ _id: 7 })).toMatchObject({ v: Math.floor((7 * 150 + 50) / 100), revision: 1, at: now });
    // The indexes on the changed field answer with the new values only.
    expect(await coll.countDocuments({ at: now })).toBe(N);
    expect(await coll.countDocuments({ at: { $lt: now } })).toBe(0);
    expect(await coll.find({ k: "k3", at: now }).hint({ k: 1, at: -1 }).toArray()).toHaveLength(N / 50);
    // v 999 became 1499 (20 rows), and nothing is indexed above it.
    expect(await coll.countDocuments({ v: 1499 })).toBe(N / 1000);
    expect(await coll.countDocuments({ v: { $gt: 1499 } })).toBe(0);
  });

  it("a reader is answered while a large deleteMany runs", async () => {
    await fill("del");
    const coll = h.client.db("multi").collection<Row>("del");
    const { result, sawHalfDone } = await readWhile(
      "del",
      () => coll.deleteMany({ flag: true }),
      (doc) => doc === null,
    );
    expect(sawHalfDone).toBe(true);
    expect(result.deletedCount).toBe(N);
    expect(await coll.countDocuments({})).toBe(0);
    expect(await coll.countDocuments({ v: 5 })).toBe(0);
  });

  it("an operator updateMany neither loses a concurrent $inc, nor revives a deleted document, nor changes one that stopped matching", async () => {
    await fill("ops");
    const coll = h.client.db("multi").collection<Row>("ops");
    const mine = other.db("multi").collection<Row>("ops");
    let done = false;
    let incs = 0;
    let interleaved = false;
    const update = coll.updateMany({ flag: true }, { $inc: { n: 1 } }).finally(() => (done = true));
    // While the update runs: increment the last document, remove one near the end, and unflag another.
    while (!done) {
      const first = await mine.findOne({ _id: 0 });
      if (done) break;
      if (first?.n === 1) {
        await mine.updateOne({ _id: N - 1 }, { $inc: { n: 10 } });
        incs++;
        if (!interleaved) {
          interleaved = true;
          await mine.deleteOne({ _id: N - 2 });
          await mine.updateOne({ _id: N - 3 }, { $set: { flag: false } });
        }
      }
    }
    const result = await update;
    expect(interleaved).toBe(true);
    const last = await coll.findOne({ _id: N - 1 });
    // Every increment of the other client counts, plus the updateMany's own.
    expect(last?.n).toBe(incs * 10 + 1);
    expect(await coll.findOne({ _id: N - 2 })).toBeNull();
    expect(await coll.findOne({ _id: N - 3 })).toMatchObject({ n: 0, flag: false });
    expect(result.matchedCount).toBe(N - 2);
    expect(await coll.countDocuments({ n: 1 })).toBe(N - 3);
    expect(await coll.countDocuments({ n: 0 })).toBe(1);
  });
});

describe("documents moved within the index a multi update walks", () => {
  it("are updated once each, even when another client moves them ahead of the scan", async () => {
    const coll = h.client.db("multi").collection<{ _id: number; v: number; n: number }>("moves");
    const M = 60_000;
    for (let i = 0; i < M; i += 10_000)
      await coll.insertMany(Array.from({ length: 10_000 }, (_, j) => ({ _id: i + j, v: i + j, n: 0 })));
    await coll.createIndex({ v: 1 });
    const mover = other.db("multi").collection<{ _id: number; v: number; n: number }>("moves");
    let done = false;
    let moved = 0;
    const update = coll.updateMany({ v: { $gte: 0 } }, { $inc: { n: 1 } }).finally(() => (done = true));
    // Meanwhile: move documents from the start of the v index to its end, over and over.
    while (!done) {
      await mover.updateOne({ _id: moved % 1000 }, { $inc: { v: 10_000_000 } });
      moved++;
    }
    const result = await update;
    expect(moved).toBeGreaterThan(0);
    expect(result.matchedCount).toBe(M);
    expect(await coll.countDocuments({ n: { $ne: 1 } })).toBe(0);
  });
});

describe("a collection dropped while a multi-document write yields", () => {
  it("stops the write (QueryPlanKilled), and nothing of it comes back after a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-drop-"));
    tempDirs.push(dir);
    let disk = await startHarness(dir);
    const reader = new MongoClient(disk.server.uri);
    const coll = () => disk.client.db("d").collection<Row>("gone");
    const rows: Row[] = Array.from({ length: N }, (_, i) => ({ _id: i, k: `k${i % 50}`, n: 0, v: i % 1000 }));
    for (let i = 0; i < N; i += 5000) await coll().insertMany(rows.slice(i, i + 5000));
    // Indexes on the field the update changes: each document costs index work, so the update spans many slices.
    await coll().createIndexes([{ key: { n: 1 } }, { key: { k: 1, n: 1 } }, { key: { v: 1, n: -1 } }]);
    let done = false;
    let dropped = false;
    const update = coll()
      .updateMany({}, [{ $set: { n: { $add: ["$n", 1] } } }])
      .then(
        () => "finished",
        (e: MongoServerError) => e,
      )
      .finally(() => (done = true));
    const theirs = reader.db("d").collection<Row>("gone");
    while (!done && !dropped) {
      const first = await theirs.findOne({ _id: 0 });
      if (first?.n === 1 && !done) {
        await theirs.drop();
        dropped = true;
      }
    }
    const outcome = await update;
    expect(dropped).toBe(true);
    // The update was still running when the drop arrived (it had only begun): it stops there.
    expect(outcome).toBeInstanceOf(MongoServerError);
    expect((outcome as MongoServerError).code).toBe(175);
    const names = async () => (await disk.client.db("d").listCollections().toArray()).map((c) => c.name);
    expect(await names()).not.toContain("gone");
    await reader.close();
    await stopHarness(disk);
    disk = await startHarness(dir);
    expect(await names()).not.toContain("gone");
    expect(await coll().countDocuments({})).toBe(0);
    await stopHarness(disk);
  });
});

describe("update pipelines", () => {
  it("$set/$addFields/$unset give MongoDB's documents: stage order, dotted paths, missing values", async () => {
    const coll = h.client.db("multi").collection("shapes");
    await coll.insertMany([
      { _id: 1, a: 2, b: { c: 1, d: 4 }, gone: 1 },
      { _id: 2, a: 3, b: { d: 1 }, gone: 2 },
      { _id: 3 },
    ] as never[]);
    const r = await coll.updateMany({}, [
      { $set: { a: { $multiply: [{ $ifNull: ["$a", 0] }, 10] }, copy: "$a", "b.c": 9, none: "$missing" } },
      { $addFields: { sum: { $add: ["$a", 1] } } },
      { $unset: "gone" },
    ]);
    expect(r.matchedCount).toBe(3);
    expect(r.modifiedCount).toBe(3);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      // "copy" saw the stage's input (a was 2); "sum" the previous stage's output (a is 20).
      { _id: 1, a: 20, b: { c: 9, d: 4 }, copy: 2, sum: 21 },
      { _id: 2, a: 30, b: { d: 1, c: 9 }, copy: 3, sum: 31 },
      // A dotted path creates the documents it needs; a missing field stays missing.
      { _id: 3, b: { c: 9 }, a: 0, sum: 1 },
    ]);
  });

  it("a pipeline that changes nothing modifies nothing, and one that would change _id is refused", async () => {
    const coll = h.client.db("multi").collection<{ _id: number; a: number }>("same");
    await coll.insertMany([
      { _id: 1, a: 1 },
      { _id: 2, a: 1 },
    ] as never[]);
    const same = await coll.updateMany({}, [{ $set: { a: { $add: [0, "$a"] } } }]);
    expect(same).toMatchObject({ matchedCount: 2, modifiedCount: 0 });
    const refused = await coll.updateMany({}, [{ $set: { _id: 5 } }]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MongoServerError);
    expect((refused as MongoServerError).code).toBe(66);
    expect((refused as MongoServerError).message).toMatch(/\(immutable\) field '_id' was found to have been altered/);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 1 },
      { _id: 2, a: 1 },
    ]);
  });

  it("a duplicate key stops a multi update where it happened: the documents before it stay written, and are counted", async () => {
    const coll = h.client.db("multi").collection<{ _id: number; u: number; n: number }>("uniq");
    await coll.createIndex({ u: 1 }, { unique: true });
    await coll.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i, u: i, n: 0 })));
    const failed = await coll
      .updateMany({}, [{ $set: { u: { $cond: [{ $gte: ["$_id", 150] }, 0, { $add: ["$u", 1000] }] }, n: 1 } }])
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(MongoServerError);
    expect((failed as MongoServerError).code).toBe(11000);
    // _id 0..149 were moved to 1000+; _id 150 would take u: 0, which no one holds any more — _id 151 collides with it.
    expect(await coll.countDocuments({ n: 1 })).toBe(151);
    expect(await coll.countDocuments({ u: { $gte: 1000 } })).toBe(150);
    expect(await coll.findOne({ _id: 151 })).toEqual({ _id: 151, u: 151, n: 0 });
  });

  it("the changes reach the journal: a restart sees them, indexes included", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-multi-"));
    tempDirs.push(dir);
    let disk = await startHarness(dir);
    const coll = () => disk.client.db("d").collection<Row>("rows");
    await coll().createIndex({ v: 1 });
    await coll().insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: i, k: "k", n: 0, v: i })));
    await coll().updateMany({ v: { $gte: 1000 } }, [{ $set: { v: { $multiply: ["$v", 2] }, revision: 1 } }]);
    await coll().deleteMany({ v: { $lt: 500 } });
    await stopHarness(disk);
    disk = await startHarness(dir);
    expect(await coll().countDocuments({})).toBe(2500);
    expect(await coll().countDocuments({ revision: 1 })).toBe(2000);
    expect(await coll().findOne({ _id: 2999 })).toMatchObject({ v: 5998, revision: 1 });
    expect(await coll().countDocuments({ v: { $gte: 2000, $lt: 2002 } })).toBe(1);
    await stopHarness(disk);
  });
});

describe("the batch save's arithmetic", () => {
  it("$floor, $ceil, $min and $max follow MongoDB: null and missing, negative values, BSON order across types", async () => {
    const coll = h.client.db("multi").collection("math");
    await coll.insertMany([
      { _id: 1, x: -2.5, y: 5 },
      { _id: 2, x: null, y: "a" },
      { _id: 3, y: new Date(Date.UTC(2026, 0, 1)) },
    ] as never[]);
    const out = await coll
      .aggregate([
        {
          $addFields: {
            floor: { $floor: "$x" },
            ceil: { $ceil: "$x" },
            min: { $min: ["$x", "$y", 3] },
            max: { $max: ["$x", "$y"] },
            none: { $min: ["$missing", null] },
            capped: {
              $min: [
                1000,
                { $floor: { $divide: [{ $add: [{ $multiply: [{ $ifNull: ["$x", 0] }, 110] }, 50] }, 100] } },
              ],
            },
          },
        },
        { $sort: { _id: 1 } },
        { $unset: ["x", "y"] },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, floor: -3, ceil: -2, min: -2.5, max: 5, none: null, capped: -3 },
      { _id: 2, floor: null, ceil: null, min: 3, max: "a", none: null, capped: 0 },
      { _id: 3, floor: null, ceil: null, min: 3, max: new Date(Date.UTC(2026, 0, 1)), none: null, capped: 0 },
    ]);
  });
});

describe("the journal's records", () => {
  const sizes = [
    10,
    70_000,
    10,
    1_500_000,
    3,
    900_000,
    64 * 1024,
    20,
    ...Array.from({ length: 5000 }, (_, i) => 100 + (i % 300)),
  ];
  const docs = sizes.map((n, i) => ({ _id: i, s: String.fromCharCode(97 + (i % 26)).repeat(n) }));

  it("small and large records, mixed, read back as written", () => {
    const records = docs.map((d, i) => encodeRecord(1 + (i % 2), { n: "d.c", d }));
    const read: [number, unknown][] = [];
    const all = Buffer.concat(records);
    expect(readRecords(all, (type, body) => read.push([type, body.d]))).toBe(all.length);
    expect(read).toEqual(docs.map((d, i) => [1 + (i % 2), d]));
    // Written as runs of adjacent records (what the journal does): the same bytes, in fewer writes.
    const runs = contiguousRuns(records);
    expect(runs.length).toBeLessThan(records.length / 10);
    expect(Buffer.concat(runs).equals(all)).toBe(true);
  });

  it("survive a restart, with a multi update over them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-records-"));
    tempDirs.push(dir);
    let disk = await startHarness(dir);
    const coll = () => disk.client.db("d").collection<{ _id: number; s: string }>("blobs");
    for (let i = 0; i < docs.length; i += 500) await coll().insertMany(docs.slice(i, i + 500));
    await coll().updateMany({ _id: { $lt: 8 } }, [{ $set: { s: { $concat: ["$s", "!"] } } }]);
    await stopHarness(disk);
    disk = await startHarness(dir);
    const back = await coll().find().sort({ _id: 1 }).toArray();
    expect(back.map((d) => d.s)).toEqual(docs.map((d, i) => (i < 8 ? `${d.s}!` : d.s)));
    await stopHarness(disk);
  });
});

describe("the journal's sync", () => {
  it("waits for the batch being written even when nothing new is pending, and fails with it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-sync-"));
    tempDirs.push(dir);
    let release!: (error?: Error) => void;
    let blocked = false;
    const io: JournalIo = {
      ...nodeIo,
      async write(fd, data) {
        if (blocked)
          await new Promise<void>((resolve, reject) => (release = (error) => (error ? reject(error) : resolve())));
        return nodeIo.write(fd, data);
      },
    };
    const catalog = new Catalog();
    const journal = await Journal.open(dir, catalog, io);
    const coll = catalog.ensureCollection("d", "c");
    await journal.sync();

    blocked = true;
    catalog.insert(coll, { _id: 1 });
    const first = journal.sync();
    // A second caller whose records were taken by the first flush (nothing left pending) must not be told they are on disk yet.
    let second: "pending" | "resolved" | "rejected" = "pending";
    void journal.sync().then(
      () => (second = "resolved"),
      () => (second = "rejected"),
    );
    await new Promise((r) => setImmediate(r));
    expect(second).toBe("pending");
    release();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(second).toBe("resolved");

    catalog.insert(coll, { _id: 2 });
    const failing = journal.sync().catch((e: Error) => e);
    let third: "pending" | "resolved" | "rejected" = "pending";
    void journal.sync().then(
      () => (third = "resolved"),
      () => (third = "rejected"),
    );
    await new Promise((r) => setImmediate(r));
    release(Object.assign(new Error("EIO: i/o error"), { code: "EIO" }));
    expect(await failing).toBeInstanceOf(Error);
    await new Promise((r) => setImmediate(r));
    expect(third).toBe("rejected");
    expect(coll.docs.size).toBe(1);
    blocked = false;
    await journal.close();
  });
});
