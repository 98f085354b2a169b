/**
 * A compaction copies from the current snapshot what has not changed since it was written: a collection's whole
 * section, or its documents when only its indexes changed (journal/snapshot.ts snapshotChunks). Each test checks
 * what a restart reads back, and the compaction's own figures for what it copied.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Catalog } from "../storage/catalog";
import type { Collection } from "../storage/collection";
import { entryId } from "../storage/index-entry";
import { type Doc, keyOf } from "../values";
import { setCompactionThreshold } from "./compaction";
import { Journal } from "./journal";

const dirs: string[] = [];
const open: Journal[] = [];

afterEach(async () => {
  for (const j of open.splice(0)) await j.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(dir: string): Promise<{ catalog: Catalog; journal: Journal }> {
  const catalog = new Catalog();
  const journal = await Journal.open(dir, catalog);
  open.push(journal);
  await journal.loaded;
  return { catalog, journal };
}

async function stop(journal: Journal): Promise<void> {
  await journal.close();
  open.splice(open.indexOf(journal), 1);
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "compaction-copy-"));
  dirs.push(dir);
  return dir;
}

/** Every document of a collection in _id order, and the ids an index gives in its order. */
function contents(coll: Collection | undefined) {
  if (!coll) return undefined;
  const docs = [...coll.docs.values()].sort((x, y) => (keyOf(x._id) < keyOf(y._id) ? -1 : 1));
  const orders = Object.fromEntries(
    coll.orderedIndexes().map((index) => [index.name, [...index.tree.entries()].map(entryId)]),
  );
  return { docs, orders };
}

async function seeded(dir: string) {
  const { catalog, journal } = await start(dir);
  const a = catalog.ensureCollection("d", "a");
  await catalog.createIndexesAsync(a, [{ v: 2, key: { k: 1, n: -1 }, name: "k_n" }], () => true);
  for (let i = 0; i < 600; i++) catalog.insert(a, { _id: i, k: `k${i % 7}`, n: i % 11, text: "x".repeat(i % 50) });
  const b = catalog.ensureCollection("d", "b");
  await catalog.createIndexesAsync(b, [{ v: 2, key: { g: 1 }, name: "g" }], () => true);
  for (let i = 0; i < 300; i++) catalog.insert(b, { _id: `b${i}`, g: i % 3 });
  await journal.sync();
  return { catalog, journal, a, b };
}

describe("a compaction copies what did not change since the snapshot", () => {
  it("copies an unchanged collection whole and encodes a changed one; a restart reads both back, every index in its recorded order", async () => {
    const dir = tempDir();
    const { catalog, journal, b } = await seeded(dir);
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 0,
      documentsCopied: 0,
      documentsEncoded: 900,
      ordersFromBuilds: 0,
    });
    catalog.insert(b, { _id: "b-new", g: 9 });
    await journal.sync();
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 1,
      documentsCopied: 600,
      documentsEncoded: 301,
      ordersFromBuilds: 0,
    });
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 2,
      documentsCopied: 901,
      documentsEncoded: 0,
      ordersFromBuilds: 0,
    });
    const before = { a: contents(catalog.getCollection("d", "a")), b: contents(catalog.getCollection("d", "b")) };
    await stop(journal);

    const again = await start(dir);
    expect({
      a: contents(again.catalog.getCollection("d", "a")),
      b: contents(again.catalog.getCollection("d", "b")),
    }).toEqual(before);
    expect(again.catalog.indexBuilds).toEqual({ inOrder: 4, sorted: 0, uncompared: 4 });
    // Loaded as the file holds them: the next compaction copies both.
    again.journal.compact();
    expect(again.journal.lastCompaction).toEqual({
      sectionsCopied: 2,
      documentsCopied: 901,
      documentsEncoded: 0,
      ordersFromBuilds: 0,
    });
    await stop(again.journal);
    const third = await start(dir);
    expect({
      a: contents(third.catalog.getCollection("d", "a")),
      b: contents(third.catalog.getCollection("d", "b")),
    }).toEqual(before);
  });

  it("copies the documents of a collection whose indexes changed, and writes the orders of its new index", async () => {
    const dir = tempDir();
    const { catalog, journal, a } = await seeded(dir);
    journal.compact();
    await catalog.createIndexesAsync(a, [{ v: 2, key: { n: 1, text: 1 }, name: "n_text" }], () => true);
    catalog.dropIndex(a, "k_n");
    await journal.sync();
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 1,
      documentsCopied: 900,
      documentsEncoded: 0,
      ordersFromBuilds: 1,
    });
    const before = contents(a);
    expect(Object.keys(before!.orders).sort()).toEqual(["_id_", "n_text"]);
    await stop(journal);
    const again = await start(dir);
    expect(contents(again.catalog.getCollection("d", "a"))).toEqual(before);
    expect(again.catalog.indexBuilds).toEqual({ inOrder: 4, sorted: 0, uncompared: 4 });
  });

  it("encodes again after an update, a delete, a drop of the collection or of its database", async () => {
    const dir = tempDir();
    const { catalog, journal, a, b } = await seeded(dir);
    journal.compact();
    const doc = a.docs.get(keyOf(7)) as Doc;
    catalog.replace(a, doc, { ...doc, text: "changed" });
    catalog.remove(b, b.docs.get(keyOf("b3")) as Doc);
    await journal.sync();
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 0,
      documentsCopied: 0,
      documentsEncoded: 899,
      ordersFromBuilds: 0,
    });
    await stop(journal);
    const second = await start(dir);
    expect(second.catalog.getCollection("d", "a")!.docs.get(keyOf(7))!.text).toBe("changed");
    expect(second.catalog.getCollection("d", "b")!.docs.has(keyOf("b3"))).toBe(false);
    second.catalog.dropCollection("d", "b");
    const b2 = second.catalog.ensureCollection("d", "b");
    second.catalog.insert(b2, { _id: "only", g: 1 });
    await second.journal.sync();
    second.journal.compact();
    expect(second.journal.lastCompaction).toEqual({
      sectionsCopied: 1,
      documentsCopied: 600,
      documentsEncoded: 1,
      ordersFromBuilds: 0,
    });
    second.catalog.dropDatabase("d");
    const a2 = second.catalog.ensureCollection("d", "a");
    second.catalog.insert(a2, { _id: 1, k: "after the drop" });
    await second.journal.sync();
    second.journal.compact();
    expect(second.journal.lastCompaction).toEqual({
      sectionsCopied: 0,
      documentsCopied: 0,
      documentsEncoded: 1,
      ordersFromBuilds: 0,
    });
    await stop(second.journal);
    const again = await start(dir);
    expect([...again.catalog.dbs.get("d")!.keys()]).toEqual(["a"]);
    expect([...again.catalog.getCollection("d", "a")!.docs.values()]).toEqual([{ _id: 1, k: "after the drop" }]);
  });

  it("does not copy a collection that a journal replayed at the start changed", async () => {
    const dir = tempDir();
    const { catalog, journal, b } = await seeded(dir);
    journal.compact();
    catalog.insert(b, { _id: "journaled", g: 2 });
    await journal.sync();
    // A crash: the journal keeps the insert, the snapshot does not have it.
    const copy = tempDir();
    for (const f of ["snapshot.bson", "journal.log"]) fs.copyFileSync(path.join(dir, f), path.join(copy, f));
    const again = await start(copy);
    expect(again.catalog.getCollection("d", "b")!.docs.has(keyOf("journaled"))).toBe(true);
    again.journal.compact();
    expect(again.journal.lastCompaction).toEqual({
      sectionsCopied: 1,
      documentsCopied: 600,
      documentsEncoded: 301,
      ordersFromBuilds: 0,
    });
    await stop(again.journal);
    const third = await start(copy);
    expect(third.catalog.getCollection("d", "b")!.docs.get(keyOf("journaled"))).toEqual({ _id: "journaled", g: 2 });
  });

  it("in the background: a collection copied before a write to it gets the write from the journal, and is encoded at the next compaction", async () => {
    const dir = tempDir();
    const { catalog, journal, a, b } = await seeded(dir);
    journal.compact();
    const first = journal.lastCompaction;
    setCompactionThreshold(64 * 1024);
    try {
      for (let i = 1000; i < 4000; i++) catalog.insert(a, { _id: i, k: `k${i % 7}`, n: i % 11, text: "y".repeat(100) });
      // The flush passes the threshold: a compaction starts beside the commands; b, the smaller, comes first.
      await journal.sync();
      catalog.insert(b, { _id: "during", g: 5 });
      catalog.replace(b, b.docs.get(keyOf("b1")) as Doc, { _id: "b1", g: 1, note: "during" });
      await journal.sync();
      await expect.poll(() => journal.lastCompaction !== first, { timeout: 20_000, interval: 10 }).toBe(true);
      expect(journal.lastCompaction).toEqual({
        sectionsCopied: 1,
        documentsCopied: 300,
        documentsEncoded: 3600,
        ordersFromBuilds: 0,
      });
    } finally {
      setCompactionThreshold(undefined);
    }
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 1,
      documentsCopied: 3600,
      documentsEncoded: 301,
      ordersFromBuilds: 0,
    });
    const before = { a: contents(a), b: contents(catalog.getCollection("d", "b")) };
    await stop(journal);
    const again = await start(dir);
    expect({
      a: contents(again.catalog.getCollection("d", "a")),
      b: contents(again.catalog.getCollection("d", "b")),
    }).toEqual(before);
    expect(again.catalog.getCollection("d", "b")!.docs.get(keyOf("b1"))).toEqual({ _id: "b1", g: 1, note: "during" });
  });

  it("writes the order an index build sorted as it is, unless the documents changed since the build", async () => {
    const dir = tempDir();
    const { catalog, journal, a, b } = await seeded(dir);
    journal.compact();
    await catalog.createIndexesAsync(a, [{ v: 2, key: { n: 1, k: 1 }, name: "n_k" }], () => true);
    // A document in the middle of the build's order: the positions it sorted are no longer the file's.
    catalog.insert(a, { _id: -1, k: "k3", n: 5 });
    await journal.sync();
    journal.compact();
    expect(journal.lastCompaction).toMatchObject({ documentsEncoded: 601, ordersFromBuilds: 0 });
    await catalog.createIndexesAsync(b, [{ v: 2, key: { g: 1, _id: -1 }, name: "g_id" }], () => true);
    await journal.sync();
    journal.compact();
    expect(journal.lastCompaction).toEqual({
      sectionsCopied: 1,
      documentsCopied: 901,
      documentsEncoded: 0,
      ordersFromBuilds: 1,
    });
    const before = { a: contents(a), b: contents(b) };
    await stop(journal);
    const again = await start(dir);
    expect({
      a: contents(again.catalog.getCollection("d", "a")),
      b: contents(again.catalog.getCollection("d", "b")),
    }).toEqual(before);
    expect(again.catalog.indexBuilds).toEqual({ inOrder: 6, sorted: 0, uncompared: 6 });
  });
});
