/**
 * Indexes of two or more top-level fields keep each entry's document instead of copies of its key values
 * (index-tree.ts IndexTree, "Entries that are documents"). What a caller must see: every read through such an index
 * answers the stored version of each document, after updates that moved its key and after updates that left it
 * alone; an array in a key field turns the index multikey with the same answers; a restart builds it in the
 * order the snapshot recorded.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Journal } from "../journal/journal";
import { planQuery } from "../planner/choose";
import { PAUSE } from "../planner/scan";
import { normaliseSort } from "../planner/sort";
import { openSource } from "../planner/sources";
import { type Harness, startHarness, stopHarness } from "../test-helpers";
import { type Doc, keyOf } from "../values";
import { Catalog } from "./catalog";
import { Index } from "./indexes";

type Row = { _id: number; k: string; at: Date; n: number; note?: string; tags?: string[] };

const N = 3_000;
const rows = (): Row[] =>
  Array.from({ length: N }, (_, i) => ({
    _id: i,
    k: `k${i % 30}`,
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    n: i % 7,
  }));

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await stopHarness(h);
  h = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function filled(dbPath?: string) {
  h = await startHarness(dbPath);
  const coll = h.client.db("t").collection<Row>("rows");
  await coll.createIndexes([
    { key: { k: 1, at: -1 }, name: "k_at" },
    { key: { n: 1, k: 1 }, name: "n_k" },
  ]);
  // On disk, over a megabyte of journal: the stop then writes a snapshot.
  await coll.insertMany(rows().map((r) => (dbPath ? { ...r, pad: "x".repeat(500) } : r)));
  return coll;
}

describe("an index whose entries are documents", () => {
  it("keeps documents only for two or more top-level fields, not partial", () => {
    expect(new Index({ v: 2, key: { k: 1, at: -1 }, name: "a" }).keepsDocuments).toBe(true);
    expect(new Index({ v: 2, key: { k: 1, at: -1 }, name: "b", sparse: true }).keepsDocuments).toBe(true);
    expect(new Index({ v: 2, key: { k: 1 }, name: "c" }).keepsDocuments).toBe(false);
    expect(new Index({ v: 2, key: { "x.k": 1, at: 1 }, name: "d" }).keepsDocuments).toBe(false);
    expect(
      new Index({ v: 2, key: { k: 1, at: 1 }, name: "e", partialFilterExpression: { n: { $gt: 1 } } }).keepsDocuments,
    ).toBe(false);
  });

  it("answers the stored version after updates that leave its key alone, through scans, merges and skips", async () => {
    const coll = await filled();
    for (const round of [1, 2, 3]) {
      // Leaves k, at and n alone: neither index is visited by the update.
      const updated = await coll.updateMany({ k: { $in: ["k1", "k2"] } }, { $set: { note: `round ${round}` } });
      expect(updated.modifiedCount).toBe(200);
      const scanned = await coll.find({ k: "k1" }).hint("k_at").toArray();
      expect(scanned).toHaveLength(100);
      expect(new Set(scanned.map((d) => d.note))).toEqual(new Set([`round ${round}`]));
      // Several points merged in the sort's order (SORT_MERGE), one page deep.
      const merged = await coll
        .find({ k: { $in: ["k1", "k2", "k3"] } })
        .sort({ at: -1 })
        .skip(40)
        .limit(20)
        .hint("k_at")
        .toArray();
      expect(merged.map((d) => d._id)).toEqual(
        rows()
          .filter((r) => ["k1", "k2", "k3"].includes(r.k))
          .sort((a, b) => b.at.getTime() - a.at.getTime())
          .slice(40, 60)
          .map((r) => r._id),
      );
      expect(merged.every((d) => d.k === "k3" || d.note === `round ${round}`)).toBe(true);
      expect(await coll.countDocuments({ n: 1, k: "k1" })).toBe(rows().filter((r) => r.n === 1 && r.k === "k1").length);
    }
  });

  it("moves an entry whose key an update changes, and forgets a deleted document", async () => {
    const coll = await filled();
    await coll.updateMany({ k: "k4" }, { $set: { note: "before the move" } });
    await coll.updateMany({ k: "k4" }, { $set: { k: "moved" } });
    expect(await coll.countDocuments({ k: "k4" })).toBe(0);
    const moved = await coll.find({ k: "moved" }).sort({ at: -1 }).hint("k_at").toArray();
    expect(moved).toHaveLength(100);
    expect(moved.every((d) => d.note === "before the move")).toBe(true);
    await coll.deleteMany({ k: "moved", n: { $lt: 3 } });
    const left = await coll.find({ k: "moved" }).hint("k_at").toArray();
    expect(left.map((d) => d.n).every((n) => n >= 3)).toBe(true);
    expect(await coll.countDocuments({ n: 0, k: "moved" })).toBe(0);
  });

  it("turns multikey when a key field holds an array, with the same answers as before and the array's elements found", async () => {
    const coll = await filled();
    await coll.updateMany({ k: "k5" }, { $set: { note: "kept" } });
    const before = await coll
      .find({ k: { $in: ["k5", "k6"] } })
      .sort({ at: -1 })
      .hint("k_at")
      .toArray();
    await coll.insertOne({ _id: N, k: ["k5", "k9"] as unknown as string, at: new Date(0), n: 1 });
    const plan = await coll.find({ k: "k9" }).hint("k_at").explain("queryPlanner");
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('"isMultiKey":true');
    expect((await coll.find({ k: "k9" }).hint("k_at").toArray()).map((d) => d._id)).toContain(N);
    const after = await coll
      .find({ k: { $in: ["k5", "k6"] } })
      .sort({ at: -1 })
      .hint("k_at")
      .toArray();
    expect(after.slice(0, -1)).toEqual(before);
    expect(after.at(-1)?._id).toBe(N);
  });

  it("is built at a restart in the order the snapshot recorded, though its entries held older versions", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-doc-entries-"));
    dirs.push(dir);
    const coll = await filled(dir);
    await coll.updateMany({}, { $inc: { n: 0.5 } });
    await coll.updateMany({ k: "k7" }, { $set: { note: "last" } });
    const expected = await coll
      .find({ k: { $in: ["k7", "k8"] } })
      .sort({ at: -1 })
      .hint("k_at")
      .toArray();
    await stopHarness(h);
    h = await startHarness(dir);
    let status = await h.client.db("admin").command({ serverStatus: 1 });
    for (let tries = 0; status.embedded.loading && tries < 200; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      status = await h.client.db("admin").command({ serverStatus: 1 });
    }
    expect(status.embedded.indexBuilds).toEqual({ inOrder: 3, sorted: 0, uncompared: 3 });
    const again = h.client.db("t").collection<Row>("rows");
    expect(
      await again
        .find({ k: { $in: ["k7", "k8"] } })
        .sort({ at: -1 })
        .hint("k_at")
        .toArray(),
    ).toEqual(expected);
  });

  it("trades the older versions its entries held for the stored ones when a snapshot is written", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-doc-entries-"));
    dirs.push(dir);
    const catalog = new Catalog();
    const journal = await Journal.open(dir, catalog);
    const coll = catalog.ensureCollection("d", "c");
    await catalog.createIndexesAsync(coll, [{ v: 2, key: { k: 1, n: 1 }, name: "k_n" }], () => true);
    const docs: Doc[] = Array.from({ length: 200 }, (_, i) => ({ _id: i, k: `k${i % 5}`, n: i }));
    for (const doc of docs) catalog.insert(coll, doc);
    for (const doc of docs) catalog.replace(coll, doc, { ...doc, note: "updated" });
    await journal.sync();
    const index = coll.indexes.get("k_n") as Index;
    const held = () => [...index.tree.entries()].map((e) => e[e.length - 1] as Doc);
    // The update left k and n alone: the entries still hold the first versions.
    expect(held().filter((doc) => doc.note === "updated")).toHaveLength(0);
    journal.compact();
    expect(held()).toHaveLength(200);
    expect(held().every((doc) => coll.docs.get(keyOf(doc._id)) === doc)).toBe(true);
    await journal.close();
  });

  it("does not hand out, after a yield, a merge head's document that was deleted or replaced meanwhile", async () => {
    const catalog = new Catalog();
    const coll = catalog.ensureCollection("d", "c");
    await catalog.createIndexesAsync(coll, [{ v: 2, key: { k: 1, at: -1 }, name: "k_at" }], () => true);
    const docs: Doc[] = ["a", "b", "c"].flatMap((k, j) =>
      [0, 1, 2].map((i) => ({ _id: j * 10 + i, k, at: new Date(1000 * (i * 3 + j)) })),
    );
    for (const doc of docs) catalog.insert(coll, doc);
    const filter = { k: { $in: ["a", "b", "c"] } };
    const matcher = (doc: Doc) => ["a", "b", "c"].includes(doc.k as string);
    const q = planQuery(coll, "d.c", filter, matcher, { sort: normaliseSort({ at: -1 }), hint: "k_at" });
    const source = openSource(coll, q, { keysExamined: 0, docsExamined: 0 }, () => matcher);
    // The SORT_MERGE on index entries (only the entry that comes out is fetched).
    expect(source.constructor.name).toBe("EntryMergeScan");
    const pull = () => {
      const out: Doc[] = [];
      for (let doc = source.next(); doc !== undefined; doc = source.next()) if (doc !== PAUSE) out.push(doc);
      return out;
    };
    // Newest first: c2 (8 s), b2 (7 s), a2 (6 s), c1 … The first read fills every scan's head: b2's and a2's are held.
    expect((source.next() as Doc)._id).toBe(22);
    source.save();
    catalog.remove(coll, coll.docs.get(keyOf(12))!);
    catalog.replace(coll, coll.docs.get(keyOf(2))!, { ...coll.docs.get(keyOf(2))!, note: "replaced during the yield" });
    source.restore();
    const rest = pull();
    expect(rest.map((d) => d._id)).toEqual([2, 21, 11, 1, 20, 10, 0]);
    expect(rest[0].note).toBe("replaced during the yield");
  });
});
