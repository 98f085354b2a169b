/**
 * A start that leaves documents cold (cold.ts) and indexes deferred: every answer is the one the documents give
 * decoded, key order included, before and after writes, and through the snapshot a stop writes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Binary, BSON, type MongoClient, ObjectId } from "mongodb";

const { EJSON } = BSON;

import { afterEach, describe, expect, it, vi } from "vitest";
import { checkSnapshotsOnThreadFrom } from "./checksums";
import { coldDocument, coldState, holdWarmUp, openColdFile, releaseColdFile, warm } from "./cold";
import { loadedStatus, withServer } from "./test-helpers";

const dirs: string[] = [];
afterEach(() => {
  holdWarmUp(false);
  checkSnapshotsOnThreadFrom(64 * 1024 * 1024);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The server's own section of serverStatus, once the data directory has loaded. */
async function status(c: MongoClient) {
  return (await loadedStatus(c)).embedded as {
    loading: boolean;
    cold: number;
    indexBuilds: { inOrder: number; sorted: number; uncompared: number };
  };
}

/** Every value type a stored document holds, the `_id` first; some `_id`s of a type a cold start does not read. */
function row(i: number): Record<string, unknown> {
  const _id =
    i % 500 === 0
      ? { part: i }
      : i % 3 === 0
        ? `s${i}`
        : i % 3 === 1
          ? new ObjectId(i.toString(16).padStart(24, "0"))
          : i;
  return {
    _id,
    cat: ["água", "brasa", "cedro", "duna"][i % 4],
    n: i % 7 === 0 ? i + 0.5 : i,
    when: new Date(Date.UTC(2026, 0, 1) + (i % 40) * 86_400_000),
    flag: i % 2 === 0,
    none: null,
    nested: { a: i, list: [i, `v${i}`] },
    tags: [`t${i % 5}`, `t${i % 3}`],
    ...(i % 11 === 0 ? { price: new Binary(Buffer.from([i % 256, 1, 2])) } : {}),
    ...(i % 13 === 0 ? { big: 2 ** 40 + i } : {}),
  };
}

/** The reads, each answer as extended JSON (key order counts). */
async function reads(c: MongoClient): Promise<string[]> {
  const rows = c.db("app").collection("rows");
  return [
    await rows
      .find({ cat: "água", n: { $gte: 100, $lt: 900 } })
      .sort({ cat: 1, n: 1 })
      .toArray(),
    await rows.find({ cat: "cedro" }).sort({ cat: 1, when: -1, _id: -1 }).limit(25).toArray(),
    await rows
      .find({ cat: "brasa", when: { $gte: new Date(Date.UTC(2026, 0, 20)) } })
      .sort({ cat: 1, when: -1, _id: -1 })
      .skip(10)
      .limit(10)
      .toArray(),
    await rows.countDocuments({ cat: "duna", n: { $lt: 2_000 } }),
    await rows
      .aggregate([
        { $match: { cat: { $in: ["água", "duna"] } } },
        { $group: { _id: "$cat", total: { $sum: "$n" }, count: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray(),
    await rows
      .find({ flag: true, "nested.a": { $gt: 2_900 } })
      .sort({ _id: 1 })
      .toArray(),
    await rows
      .find({ _id: { $gte: 1_000, $lt: 1_100 } } as never)
      .sort({ _id: 1 })
      .toArray(),
    await rows
      .find({}, { projection: { cat: 1, tags: 1 } })
      .sort({ _id: -1 })
      .limit(30)
      .toArray(),
    await rows.distinct("cat"),
    await rows
      .find({ price: { $exists: true } })
      .sort({ n: 1 })
      .limit(5)
      .toArray(),
  ].map((answer) => EJSON.stringify(answer, { relaxed: false }));
}

describe("a start from cold documents", () => {
  it("answers reads and writes as the decoded documents would, before the background pass and after", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-cold-"));
    dirs.push(dir);
    const count = 3_000;
    let before: string[] = [];
    await withServer(dir, async (c) => {
      const rows = c.db("app").collection("rows");
      // Indexes that keep documents: the collection can load cold.
      await rows.createIndexes([{ key: { cat: 1, n: 1 } }, { key: { cat: 1, when: -1, _id: -1 } }]);
      await rows.insertMany(Array.from({ length: count }, (_, i) => row(i)) as never[]);
      // An index of one field: its entries are copies of the values, read from the documents' bytes.
      await c.db("app").collection("plain").createIndex({ k: 1 });
      await c
        .db("app")
        .collection("plain")
        .insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, k: i % 9, pad: "y".repeat(4_000) })) as never[]);
      before = await reads(c);
    });
    expect(fs.statSync(path.join(dir, "journal.log")).size).toBe(0);

    holdWarmUp(true);
    await withServer(dir, async (c) => {
      const s = await status(c);
      // Every row but the six whose `_id` is a document, and the plain collection's 300.
      expect(s.cold).toBe(count - count / 500 + 300);
      // An index-served read decodes only what it returns; a count none.
      const page = await c
        .db("app")
        .collection("rows")
        .find({ cat: "cedro" })
        .sort({ cat: 1, when: -1, _id: -1 })
        .limit(25)
        .toArray();
      expect(EJSON.stringify(page, { relaxed: false })).toBe(before[1]);
      expect(await c.db("app").collection("plain").countDocuments({ k: 4 })).toBe(33);
      expect((await status(c)).cold).toBe(s.cold - 25);
      expect(
        (await c.db("app").collection("plain").find({ k: 4 }).sort({ k: 1, _id: 1 }).limit(2).toArray()).map(
          (d) => d._id,
        ),
      ).toEqual([4, 13]);

      const rows = c.db("app").collection("rows");
      expect((await rows.updateOne({ _id: 5 } as never, { $set: { cat: "água", n: -5 } })).modifiedCount).toBe(1);
      expect((await rows.updateMany({ cat: "duna", n: { $gte: 2_500 } }, { $inc: { n: 10_000 } })).modifiedCount).toBe(
        125,
      );
      expect((await rows.deleteMany({ cat: "cedro", n: { $lt: 100 } })).deletedCount).toBe(25);
      await rows.insertOne({ _id: "late", cat: "água", n: 152, when: new Date(0) } as never);
      expect(await rows.findOne({ _id: 5 } as never, { projection: { _id: 1, cat: 1, n: 1, when: 1 } })).toEqual({
        _id: 5,
        cat: "água",
        n: -5,
        when: new Date(Date.UTC(2026, 0, 6)),
      });
      expect((await rows.find({ cat: "água", n: { $lt: 0 } }).toArray()).map((d) => d._id)).toEqual([5]);
      expect(await rows.countDocuments({ cat: "duna", n: { $gte: 10_000 } })).toBe(125);
      expect((await rows.find({ cat: "água", n: 152 }).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([
        152,
        "late",
      ]);
      // More than 1 MB of journal: the stop writes a snapshot while most rows are still cold.
      await c
        .db("app")
        .collection("other")
        .insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, pad: "z".repeat(5_000) })) as never[]);
      expect((await status(c)).cold).toBeGreaterThan(2_000);
    });
    expect(fs.statSync(path.join(dir, "journal.log")).size).toBe(0);

    // Cold again (the scans among the reads decode every row), then decoded by the background pass: the same answers.
    const after = await withServer(dir, async (c) => {
      // The rows, the plain collection (copied as it was into the new snapshot) and the other one (only `_id`).
      expect((await status(c)).cold).toBe(count - count / 500 - 25 + 1 + 300 + 300);
      return reads(c);
    });
    expect(after).not.toEqual(before);
    holdWarmUp(false);
    await withServer(dir, async (c) => {
      const rows = c.db("app").collection("rows");
      for (let tries = 0; (await status(c)).cold > 0 && tries < 200; tries++)
        await new Promise((r) => setTimeout(r, 25));
      expect((await status(c)).cold).toBe(0);
      expect(await reads(c)).toEqual(after);
      expect(await rows.countDocuments({})).toBe(count - 25 + 1);
      expect(EJSON.stringify(await rows.findOne({ _id: 2_996 } as never), { relaxed: false })).toBe(
        EJSON.stringify(row(2_996), { relaxed: false }),
      );
      expect(await c.db("app").collection("other").estimatedDocumentCount()).toBe(300);
    });
  });

  it("builds a deferred index the moment a write needs it, and a stop keeps the data", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-cold-"));
    dirs.push(dir);
    await withServer(dir, async (c) => {
      const rows = c.db("app").collection("rows");
      await rows.createIndex({ g: 1, k: 1 });
      await rows.insertMany(
        Array.from({ length: 2_000 }, (_, i) => ({ _id: i, g: i % 4, k: i, pad: "p".repeat(600) })) as never[],
      );
    });
    holdWarmUp(true);
    await withServer(dir, async (c) => {
      const rows = c.db("app").collection("rows");
      expect((await status(c)).cold).toBe(2_000);
      // The first thing the collection sees is a write: every index is built before it goes in.
      await rows.insertOne({ _id: 5_000, g: 1, k: -1 } as never);
      expect((await rows.find({ g: 1 }).sort({ g: 1, k: 1 }).limit(3).toArray()).map((d) => d._id)).toEqual([
        5_000, 1, 5,
      ]);
      const e = await rows.find({ g: 1 }).sort({ g: 1, k: 1 }).explain();
      expect(JSON.stringify(e.queryPlanner.winningPlan)).toContain('"indexName":"g_1_k_1"');
      await expect(rows.insertOne({ _id: 7 } as never)).rejects.toMatchObject({ code: 11000 });
    });
    holdWarmUp(false);
    await withServer(dir, async (c) => {
      const rows = c.db("app").collection("rows");
      expect(await rows.countDocuments({ g: 1 })).toBe(501);
      expect(await rows.findOne({ _id: 1_999 } as never)).toEqual({ _id: 1_999, g: 3, k: 1_999, pad: "p".repeat(600) });
    });
  });

  it("writes a snapshot that copies the records of cold documents and numbers them as stored, and starts from it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-cold-"));
    dirs.push(dir);
    const rows = Array.from({ length: 2_000 }, (_, i) => ({
      _id: i,
      g: i % 4,
      k: (i * 7) % 2_000,
      pad: "q".repeat(600),
    }));
    await withServer(dir, async (c) => {
      await c
        .db("app")
        .collection("rows")
        .createIndexes([{ key: { g: 1, k: 1 } }, { key: { k: 1, g: 1 } }]);
      await c
        .db("app")
        .collection("rows")
        .insertMany(rows as never[]);
    });
    holdWarmUp(true);
    await withServer(dir, async (c) => {
      // A change that is not a document's: the next snapshot copies the documents' records and numbers them.
      await c.db("app").collection("rows").dropIndex("k_1_g_1");
      await c
        .db("app")
        .collection("other")
        .insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, pad: "z".repeat(5_000) })) as never[]);
      expect((await status(c)).cold).toBe(2_000);
    });
    expect(fs.statSync(path.join(dir, "journal.log")).size).toBe(0);
    holdWarmUp(false);
    await withServer(dir, async (c) => {
      const coll = c.db("app").collection("rows");
      for (let tries = 0; (await status(c)).cold > 0 && tries < 200; tries++)
        await new Promise((r) => setTimeout(r, 25));
      // Both `_id` indexes and g_1_k_1, each from its recorded order, taken without comparing its entries.
      expect((await status(c)).indexBuilds).toEqual({ inOrder: 3, sorted: 0, uncompared: 3 });
      expect((await coll.indexes()).map((i) => i.name)).toEqual(["_id_", "g_1_k_1"]);
      const expected = rows.filter((r) => r.g === 2).sort((a, b) => a.k - b.k);
      expect(await coll.find({ g: 2 }).sort({ g: 1, k: 1 }).toArray()).toEqual(expected);
      expect(
        (
          await coll
            .find({ _id: { $gte: 1_990 } } as never)
            .sort({ _id: 1 })
            .toArray()
        ).map((d) => d._id),
      ).toEqual(rows.slice(1_990).map((r) => r._id));
    });
  });

  it("builds a text index at its first search, or at the first write, with the answers it gave before", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-cold-"));
    dirs.push(dir);
    const words = ["cedro", "brasa", "duna", "água", "vento"];
    const search = async (c: MongoClient, term: string): Promise<[unknown, number][]> =>
      (
        await c
          .db("app")
          .collection("notes")
          .find({ $text: { $search: term } }, { projection: { score: { $meta: "textScore" } } })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => [d._id, d.score]);
    let before: [unknown, number][][] = [];
    await withServer(dir, async (c) => {
      const notes = c.db("app").collection("notes");
      await notes.createIndex({ body: "text" });
      await notes.insertMany(
        Array.from({ length: 1_500 }, (_, i) => ({
          _id: i,
          body: `${words[i % 5]} ${words[(i * 3) % 5]} ${"texto ".repeat(200)}`,
        })) as never[],
      );
      before = [await search(c, "cedro"), await search(c, "vento água")];
    });
    holdWarmUp(true);
    await withServer(dir, async (c) => {
      expect((await status(c)).cold).toBe(1_500);
      expect([await search(c, "cedro"), await search(c, "vento água")]).toEqual(before);
    });
    await withServer(dir, async (c) => {
      await c
        .db("app")
        .collection("notes")
        .insertOne({ _id: 9_999, body: "cedro novo" } as never);
      const [first, second] = before;
      expect((await search(c, "cedro")).map(([id]) => id)).toEqual([...first.map(([id]) => id), 9_999]);
      expect(await search(c, "vento água")).toEqual(second);
    });
  });

  for (const [how, from] of [
    ["on a thread", 0],
    ["by the start itself", Number.MAX_SAFE_INTEGER],
  ] as const) {
    it(`checks the snapshot's checksums ${how}: a sound one loads, a corrupt one answers nothing`, async () => {
      checkSnapshotsOnThreadFrom(from);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-cold-"));
      dirs.push(dir);
      let before: string[] = [];
      await withServer(dir, async (c) => {
        await c
          .db("app")
          .collection("rows")
          .createIndexes([{ key: { cat: 1, n: 1 } }, { key: { cat: 1, when: -1, _id: -1 } }]);
        await c
          .db("app")
          .collection("rows")
          .insertMany(Array.from({ length: 3_000 }, (_, i) => row(i)) as never[]);
        // More than 1 MB of journal: the stop writes a snapshot.
        await c
          .db("app")
          .collection("other")
          .insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, pad: "z".repeat(5_000) })) as never[]);
        before = await reads(c);
      });
      expect(await withServer(dir, reads)).toEqual(before);

      // One byte of one row's text changed, past the middle of the file: its record fails its checksum.
      const file = path.join(dir, "snapshot.bson");
      const bytes = fs.readFileSync(file);
      const at = bytes.indexOf("cedro", Math.floor(bytes.length / 2));
      expect(at).toBeGreaterThan(0);
      bytes[at] = "C".charCodeAt(0);
      fs.writeFileSync(file, bytes);
      const logged = vi.mocked(console.error).mockImplementation(() => undefined);
      await withServer(dir, async (c) => {
        const rows = c.db("app").collection("rows");
        await expect(rows.findOne({ cat: "Cedro" })).rejects.toThrow(/could not be loaded: .* is corrupt at byte/);
        await expect(rows.countDocuments({})).rejects.toThrow(/could not be loaded/);
      });
      expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([
        expect.stringMatching(/snapshot .* is corrupt at byte \d+; restore it from a backup/),
      ]);
    });
  }

  it("keeps the snapshot open while the start makes cold documents, though readers warmed every one made so far", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-cold-"));
    dirs.push(dir);
    const rows = [0, 1, 2].map((i) => BSON.serialize({ _id: `r${i}`, n: i, text: "ç".repeat(i + 1) }));
    const file = path.join(dir, "rows.bson");
    fs.writeFileSync(file, Buffer.concat(rows));
    const all = Buffer.concat(rows);
    const opened = openColdFile(file, {});
    const before = coldState.count;
    const first = coldDocument(all, 0, opened, 0)!;
    warm(first);
    expect(coldState.count).toBe(before);
    // The start goes on: the next documents are read back from the same file.
    const second = coldDocument(all, rows[0].length, opened, rows[0].length)!;
    const third = coldDocument(all, rows[0].length + rows[1].length, opened, rows[0].length + rows[1].length)!;
    releaseColdFile(opened);
    warm(second);
    warm(third);
    expect([first, second, third]).toEqual([0, 1, 2].map((i) => ({ _id: `r${i}`, n: i, text: "ç".repeat(i + 1) })));
    expect(opened.fd).toBe(-1);
  });
});
