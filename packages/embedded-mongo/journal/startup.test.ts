/**
 * A start from a snapshot with a manifest: collections load in the background, smallest first, with the journal
 * replayed over each.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BSON, type MongoClient, ObjectId } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { ORDER_VERSION } from "../bson-order";
import { loadedStatus, withServer } from "../test-helpers";
import { encodeRecord } from "./records";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("start-up from a snapshot", () => {
  it("serves every collection with its indexes, the journal replayed over the snapshot", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-startup-"));
    dirs.push(dir);
    const pad = "x".repeat(1_000);
    await withServer(dir, async (c) => {
      const db = c.db("app");
      await db.collection("small").insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
      await db.collection("big").createIndex({ k: 1 });
      await db
        .collection("big")
        .insertMany(Array.from({ length: 1_500 }, (_, i) => ({ _id: i, k: i % 10, pad })) as never[]);
    });
    // Over 1 MB of journal at stop: compacted into a snapshot that starts with a manifest.
    expect(fs.statSync(path.join(dir, "journal.log")).size).toBe(0);
    await withServer(dir, async (c) => {
      const db = c.db("app");
      await db.collection("small").insertOne({ _id: 3 } as never);
      await db.collection("big").updateOne({ _id: 7 } as never, { $set: { k: 99 } });
      await db.collection("big").deleteOne({ _id: 8 } as never);
      await db.collection("fresh").insertOne({ _id: "f" } as never);
    });
    await withServer(dir, async (c) => {
      const db = c.db("app");
      expect(await db.collection("small").countDocuments({ _id: { $gte: 1 } } as never)).toBe(3);
      expect(await db.collection("big").estimatedDocumentCount()).toBe(1_499);
      expect((await db.collection("big").find({ k: 99 }).toArray()).map((d) => d._id)).toEqual([7]);
      expect(await db.collection("big").countDocuments({ k: 8 })).toBe(149);
      const e = await db.collection("big").find({ k: 99 }).explain();
      expect(JSON.stringify(e.queryPlanner.winningPlan)).toContain('"indexName":"k_1"');
      expect(await db.collection("fresh").findOne({})).toEqual({ _id: "f" });
      expect((await db.listCollections().toArray()).map((x) => x.name).sort()).toEqual(["big", "fresh", "small"]);
      // Benches wait on serverStatus for the background load to end before they measure.
      let status = await c.db("admin").command({ serverStatus: 1 });
      for (let tries = 0; status.embedded.loading && tries < 100; tries++) {
        await new Promise((r) => setTimeout(r, 50));
        status = await c.db("admin").command({ serverStatus: 1 });
      }
      // small and big: their documents changed in the journal since the snapshot, their recorded orders taken and the
      // records applied over them; fresh is only in the journal: sorted.
      expect(status.embedded).toEqual({
        loading: false,
        indexBuilds: { inOrder: 3, sorted: 1, uncompared: 3 },
        cold: 0,
      });
      expect(status.mem.resident).toBeGreaterThan(0);
    });
  });

  it("builds the indexes from the order the snapshot recorded, with the same answers as a sort", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-startup-"));
    dirs.push(dir);
    const docs = Array.from({ length: 4_000 }, (_, i) => ({
      _id: i,
      cat: `c${(i * 7) % 13}`,
      n: (i * 31) % 1_000,
      when: new Date(1e12 + ((i * 97) % 4_000) * 1e5),
      pad: "x".repeat(300),
    }));
    const queries = async (c: MongoClient) => {
      const coll = c.db("app").collection("items");
      return [
        (await coll.find({ cat: "c5" }).sort({ cat: 1 }).limit(5).toArray()).map((d) => d._id),
        (
          await coll
            .find({ n: { $gte: 990 } })
            .sort({ n: -1, _id: 1 })
            .toArray()
        ).map((d) => d._id),
        (
          await coll
            .find({ when: { $lt: new Date(1e12 + 5e6) } })
            .sort({ when: 1 })
            .toArray()
        ).map((d) => d._id),
        await coll.countDocuments({ tag: { $exists: true } }),
        (await coll.find({}).sort({ _id: -1 }).limit(3).toArray()).map((d) => d._id),
      ];
    };
    let before: unknown;
    await withServer(dir, async (c) => {
      const coll = c.db("app").collection("items");
      await coll.createIndexes([
        { key: { cat: 1 } },
        { key: { n: -1, cat: 1 } },
        { key: { when: 1 } },
        { key: { tag: 1 }, sparse: true },
      ]);
      await coll.insertMany(docs.map((d, i) => (i % 50 === 0 ? { ...d, tag: i } : d)) as never[]);
      before = await queries(c);
    });
    await withServer(dir, async (c) => {
      const status = await loadedStatus(c);
      // Written at a stop, while nothing changed: every order recorded sorted, taken without comparing its entries.
      expect(status.embedded.indexBuilds).toEqual({ inOrder: 5, sorted: 0, uncompared: 5 });
      expect(await queries(c)).toEqual(before);
    });
    // A snapshot from before the orders were recorded: sorted once, rewritten after the load, then in order.
    const file = path.join(dir, "snapshot.bson");
    const bytes = fs.readFileSync(file);
    const kept: Buffer[] = [];
    for (let pos = 0; pos < bytes.length; ) {
      const end = pos + 8 + bytes.readUInt32LE(pos);
      if (bytes[pos + 8] !== 9) kept.push(bytes.subarray(pos, end));
      pos = end;
    }
    expect(Buffer.concat(kept).length).toBeLessThan(bytes.length);
    fs.writeFileSync(file, Buffer.concat(kept));
    await withServer(dir, async (c) => {
      expect((await loadedStatus(c)).embedded.indexBuilds).toEqual({ inOrder: 0, sorted: 5, uncompared: 0 });
      expect(await queries(c)).toEqual(before);
      for (let tries = 0; fs.statSync(file).size <= Buffer.concat(kept).length && tries < 200; tries++)
        await new Promise((r) => setTimeout(r, 50));
    });
    await withServer(dir, async (c) => {
      expect((await loadedStatus(c)).embedded.indexBuilds).toEqual({ inOrder: 5, sorted: 0, uncompared: 5 });
      expect(await queries(c)).toEqual(before);
    });
    // The marks of another version of the order (a release whose comparisons changed): every order is compared.
    const marked = fs.readFileSync(file);
    const rewritten: Buffer[] = [];
    let marks = 0;
    for (let pos = 0; pos < marked.length; ) {
      const end = pos + 8 + marked.readUInt32LE(pos);
      const body = marked[pos + 8] === 9 ? BSON.deserialize(marked.subarray(pos + 9, end)) : undefined;
      if (body && body.s === ORDER_VERSION) {
        rewritten.push(Buffer.from(encodeRecord(9, { ...body, s: ORDER_VERSION + 1 })));
        marks++;
      } else rewritten.push(marked.subarray(pos, end));
      pos = end;
    }
    expect(marks).toBe(5);
    fs.writeFileSync(file, Buffer.concat(rewritten));
    await withServer(dir, async (c) => {
      expect((await loadedStatus(c)).embedded.indexBuilds).toEqual({ inOrder: 5, sorted: 0, uncompared: 0 });
      expect(await queries(c)).toEqual(before);
    });
  });

  it("applies a journal of puts and deletes over a large collection loaded in its recorded order, with a write's answers", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-startup-"));
    dirs.push(dir);
    const entry = (n: number) => ({
      _id: new ObjectId(),
      n,
      at: new Date(1e12 + n * 1e5),
      actor: { email: `user${n % 17}@x.test` },
      event: `e${n % 5}`,
      pad: "x".repeat(400),
    });
    const specs = [
      { key: { n: 1 }, unique: true },
      { key: { "actor.email": 1, n: -1 } },
      { key: { event: 1, n: -1 } },
      { key: { at: 1 } },
    ];
    // Each query read through its index (hint) and by a collection scan: they must agree with each other, and with
    // the server that made the writes.
    const queries: [filter: object, sort: Record<string, 1 | -1>, index: object][] = [
      [{ n: { $gte: 2_990 } }, { n: -1 }, { n: 1 }],
      [{ "actor.email": "user3@x.test" }, { n: -1 }, { "actor.email": 1, n: -1 }],
      [{ event: "e2", n: { $lt: 40 } }, { n: 1 }, { event: 1, n: -1 }],
      [{ at: { $lt: new Date(1e12 + 30 * 1e5) } }, { at: 1 }, { at: 1 }],
    ];
    const answers = async (c: MongoClient) => {
      const log = c.db("app").collection("log");
      const out: string[][] = [];
      for (const [filter, sort, index] of queries)
        for (const hint of [index, { $natural: 1 }])
          out.push((await log.find(filter, { hint }).sort(sort).toArray()).map((d) => `${d.n}:${d.actor.email}`));
      return out;
    };
    await withServer(dir, async (c) => {
      const log = c.db("app").collection("log");
      await log.createIndexes(specs as never);
      await log.insertMany(Array.from({ length: 3_000 }, (_, i) => entry(i + 1)) as never[]);
    });
    // Over 1 MB of journal at stop: a snapshot with every index's order recorded sorted.
    expect(fs.statSync(path.join(dir, "journal.log")).size).toBe(0);
    let expected: string[][] = [];
    await withServer(dir, async (c) => {
      const log = c.db("app").collection("log");
      for (let n = 3_001; n <= 3_005; n++) await log.insertOne(entry(n) as never);
      await log.insertMany([entry(3_006), entry(3_007)] as never[]);
      await log.updateOne({ n: 2_995 }, { $set: { "actor.email": "user3@x.test" } });
      await log.updateOne({ n: 7 }, { $set: { at: new Date(1e12), pad: "y" } });
      await log.updateOne({ n: 12 }, { $set: { pad: "z" } });
      await log.deleteOne({ n: 2_999 });
      await log.deleteOne({ n: 3_003 });
      expected = await answers(c);
      // Through the index and by a scan, the same answer.
      for (let q = 0; q < expected.length; q += 2) expect(expected[q]).toEqual(expected[q + 1]);
    });
    expect(fs.statSync(path.join(dir, "journal.log")).size).toBeGreaterThan(0);
    await withServer(dir, async (c) => {
      const status = await loadedStatus(c);
      // _id and the four indexes in their recorded order, none sorted: the records went in as writes.
      expect(status.embedded.indexBuilds).toEqual({ inOrder: 5, sorted: 0, uncompared: 5 });
      expect(await answers(c)).toEqual(expected);
      expect(expected[0].slice(0, 3)).toEqual(["3007:user15@x.test", "3006:user14@x.test", "3005:user13@x.test"]);
      expect(expected[2]).toContain("2995:user3@x.test");
      expect(expected[6][0]).toBe("7:user7@x.test");
      // The unique index holds the journal's entries: the next append still collides with the last one.
      const log = c.db("app").collection("log");
      await expect(log.insertOne(entry(3_007) as never)).rejects.toThrow(/duplicate key/);
      expect(await log.countDocuments({})).toBe(3_005);
    });
    // Written to before anything reads it: each index is built from its order, with the journal's writes, then takes
    // the new ones.
    await withServer(dir, async (c) => {
      const log = c.db("app").collection("log");
      await log.insertOne(entry(3_008) as never);
      await log.updateOne({ n: 3_006 }, { $set: { "actor.email": "user3@x.test" } });
      // An array in a key field: the index becomes multikey at once (the planner reads that before the tree).
      await log.insertOne({ ...entry(20), _id: new ObjectId(), n: 3_009, event: ["e2", "e9"] } as never);
      const now = await answers(c);
      for (let q = 0; q < now.length; q += 2) expect(now[q]).toEqual(now[q + 1]);
      expect(now[0].slice(0, 2)).toEqual(["3009:user3@x.test", "3008:user16@x.test"]);
      expect(now[2].slice(0, 3)).toEqual(["3009:user3@x.test", "3006:user3@x.test", "2995:user3@x.test"]);
    });
  });
});
