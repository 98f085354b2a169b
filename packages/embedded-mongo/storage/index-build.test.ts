/**
 * Index builds on a collection with data run beside the other commands (as mongod's do): other commands are
 * answered while the build runs, the writes made meanwhile are in the index when it goes in, a duplicate written
 * meanwhile fails a unique build, and a drop meanwhile aborts it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Collection, type Db, MongoServerError, ObjectId } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stopHarness } from "../test-helpers";
import { setIndexBuildSlice } from "./index-build";

// Enough documents that sorting their entries takes several slices: the build yields to other commands.
const N = 60_000;

let h: Harness | undefined;
// Every pause of a build yields (not only after 8 ms of work): the commands sent meanwhile get in on any machine.
beforeAll(() => setIndexBuildSlice(0));
afterAll(() => setIndexBuildSlice(undefined));
afterEach(async () => {
  await stopHarness(h);
  h = undefined;
});

type Row = { _id: number; group: number; tag: string };

async function filled(db: Db): Promise<Collection<Row>> {
  const rows = db.collection<Row>("rows");
  for (let i = 0; i < N; i += 10_000) {
    await rows.insertMany(
      Array.from({ length: 10_000 }, (_, k) => ({ _id: i + k, group: (i + k) % 97, tag: `t${(i + k) % 13}` })),
    );
  }
  await warm();
  return rows;
}

/** Connections open beforehand, so the commands sent meanwhile need no handshake of their own. */
async function warm(): Promise<void> {
  await Promise.all(Array.from({ length: 6 }, () => h!.client.db("admin").command({ ping: 1 })));
}

/** Starts createIndexes and, once it is under way, runs `meanwhile`; says which finished first. */
async function during(
  build: Promise<unknown>,
  meanwhile: () => Promise<void>,
): Promise<{ order: string[]; build: unknown }> {
  const order: string[] = [];
  const built = build.then(
    (r) => {
      order.push("build");
      return r;
    },
    (e: unknown) => {
      order.push("build");
      return e;
    },
  );
  await meanwhile();
  order.push("meanwhile");
  return { order, build: await built };
}

/** The _ids a query finds through the index, and through a collection scan. */
async function both(
  rows: Collection<Row>,
  filter: Record<string, unknown>,
  index: string,
): Promise<[number[], number[]]> {
  const viaIndex = (await rows.find(filter).hint(index).project({ _id: 1 }).toArray())
    .map((d) => d._id)
    .sort((a, b) => a - b);
  const scanned = (await rows.find(filter).hint({ $natural: 1 }).project({ _id: 1 }).toArray())
    .map((d) => d._id)
    .sort((a, b) => a - b);
  return [viaIndex, scanned];
}

describe("an index build on a collection with data", () => {
  it("answers other commands while it runs, and the writes made meanwhile are in the index", async () => {
    h = await startHarness();
    const rows = await filled(h.client.db("build_meanwhile"));
    const { order, build } = await during(rows.createIndex({ group: 1, tag: 1 }, { name: "group_tag" }), async () => {
      // Sent at once, each on a connection of its own: they arrive while the build runs.
      await Promise.all([
        h!.client.db("admin").command({ ping: 1 }),
        rows.insertOne({ _id: N + 1, group: 5, tag: "newer" }),
        rows.updateOne({ _id: 5 }, { $set: { group: 6 } }),
        rows.deleteOne({ _id: 102 }),
        rows.updateOne({ _id: 199 }, { $set: { tag: "changed" } }),
      ]);
    });
    expect(build).toBe("group_tag");
    expect(order).toEqual(["meanwhile", "build"]);
    for (const filter of [
      { group: 5 },
      { group: 6 },
      { group: 5, tag: "newer" },
      { group: 199 % 97, tag: "changed" },
      { group: 199 % 97, tag: `t${199 % 13}` },
    ]) {
      const [viaIndex, scanned] = await both(rows, filter, "group_tag");
      expect(viaIndex).toEqual(scanned);
    }
    const [group5] = await both(rows, { group: 5 }, "group_tag");
    expect(group5).toContain(N + 1);
    expect(group5).not.toContain(5);
    expect(group5).not.toContain(102);
    expect((await both(rows, { group: 6 }, "group_tag"))[0]).toContain(5);
  });

  it("fails a unique build when a duplicate is written meanwhile, and lists no such index", async () => {
    h = await startHarness();
    const rows = await filled(h.client.db("build_duplicate"));
    await rows.updateMany({}, [{ $set: { serial: "$_id" } }]);
    const { build } = await during(
      rows.createIndex({ serial: 1 }, { unique: true, name: "serial_unique" }),
      async () => {
        await rows.insertOne({ _id: N + 1, group: 1, tag: "x", serial: 7 } as Row);
      },
    );
    expect(build).toBeInstanceOf(MongoServerError);
    expect((build as MongoServerError).code).toBe(11000);
    expect((build as MongoServerError).message).toMatch(
      /Index build failed: build_duplicate\.rows: E11000 duplicate key error .* index: serial_unique dup key: \{ serial: 7 \}/,
    );
    expect((await rows.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it("is aborted when its collection is dropped meanwhile", async () => {
    h = await startHarness();
    const db = h.client.db("build_drop");
    const rows = await filled(db);
    const { build } = await during(rows.createIndex({ tag: 1 }, { name: "tag" }), async () => {
      await rows.drop();
      await rows.insertOne({ _id: 1, group: 1, tag: "after" });
    });
    expect(build).toBeInstanceOf(MongoServerError);
    expect((build as MongoServerError).code).toBe(276);
    expect((build as MongoServerError).codeName).toBe("IndexBuildAborted");
    expect((await rows.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  it("puts the indexes of one command in together: a unique one failing leaves none, a conflict between them builds none", async () => {
    h = await startHarness();
    const db = h.client.db("build_together");
    const rows = await filled(db);
    const failed = await db
      .command({
        createIndexes: "rows",
        indexes: [
          { key: { tag: 1 }, name: "tag" },
          { key: { group: 1 }, name: "group_unique", unique: true },
          { key: { group: 1, tag: 1 }, name: "group_tag" },
        ],
      })
      .catch((e: unknown) => e);
    expect((failed as MongoServerError).code).toBe(11000);
    expect((failed as MongoServerError).message).toMatch(
      /^Index build failed: build_together\.rows: E11000 duplicate key error .* index: group_unique dup key: \{ group: /,
    );
    expect((await rows.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);

    const conflict = await db
      .command({
        createIndexes: "rows",
        indexes: [
          { key: { tag: 1 }, name: "same" },
          { key: { group: 1 }, name: "same" },
        ],
      })
      .catch((e: unknown) => e);
    expect((conflict as MongoServerError).codeName).toBe("IndexKeySpecsConflict");
    expect((await rows.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);

    const twice = await db.command({
      createIndexes: "rows",
      indexes: [
        { key: { tag: 1 }, name: "tag" },
        { key: { tag: 1 }, name: "tag" },
        { key: { group: 1 }, name: "group" },
      ],
    });
    expect(twice).toMatchObject({ numIndexesBefore: 1, numIndexesAfter: 3 });
    expect((await rows.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "tag", "group"]);
  });

  it("goes in once when the same index is asked for twice at the same time", async () => {
    h = await startHarness();
    const db = h.client.db("build_twice");
    const rows = await filled(db);
    const replies = await Promise.all([
      db.command({ createIndexes: "rows", indexes: [{ key: { tag: 1 }, name: "tag" }] }),
      db.command({ createIndexes: "rows", indexes: [{ key: { tag: 1 }, name: "tag" }] }),
    ]);
    expect(replies.map((r) => r.numIndexesAfter)).toEqual([2, 2]);
    expect(replies.filter((r) => r.note === "all indexes already exist")).toHaveLength(1);
    expect((await rows.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "tag"]);
  });

  it("is on disk with the writes made meanwhile: a restart has the same index", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "index-build-"));
    try {
      h = await startHarness(path.join(dir, "db"));
      const rows = await filled(h.client.db("build_disk"));
      await during(rows.createIndex({ group: 1 }, { name: "group" }), async () => {
        await rows.updateOne({ _id: 9 }, { $set: { group: 200 } });
      });
      await stopHarness(h);
      h = await startHarness(path.join(dir, "db"));
      const again = h.client.db("build_disk").collection<Row>("rows");
      expect((await again.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "group"]);
      const [viaIndex, scanned] = await both(again, { group: 200 }, "group");
      expect(viaIndex).toEqual([9]);
      expect(scanned).toEqual([9]);
    } finally {
      await stopHarness(h);
      h = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("builds from existing data the same index that inserts build: order, sparse, descending keys, arrays, duplicates", async () => {
    h = await startHarness();
    const db = h.client.db("build_same");
    // Scalars and dates only (ranked by value), and the same with a document among them (compared as values).
    const scalars = [
      3,
      -1,
      2.5,
      0,
      -0,
      "b",
      "a",
      "",
      "é",
      null,
      undefined,
      new Date(Date.UTC(2026, 0, 2)),
      new Date(Date.UTC(2025, 5, 1)),
      true,
      false,
      Number.NaN,
    ];
    const docs = Array.from({ length: 3_000 }, (_, i) => {
      const doc: Record<string, unknown> = {
        _id: i,
        a: scalars[i % scalars.length],
        b: scalars[(i * 7) % scalars.length],
      };
      if (doc.a === undefined) delete doc.a;
      if (doc.b === undefined) delete doc.b;
      return doc;
    });
    const mixed = docs.map((d, i) => (i % 50 === 0 ? { ...d, b: { x: i % 3 } } : d));
    // ObjectIds (in byte order, every word of them varying, some with the high bit set), for _id and for b.
    const oid = (i: number) => new ObjectId(((i * 2_654_435_761) >>> 0).toString(16).padStart(8, "0").repeat(3));
    const ids = docs.map((d, i) => ({ ...d, _id: oid(i), b: oid(i % 700) }));
    // ObjectId _ids (sorted as one number per entry) with numbers and dates in the keys, and with keys whose
    // ranks pass 2^53 together (their leading digits made dense part-way).
    const numbers = docs.map((_, i) => ({
      _id: oid(i),
      a: [3, -1, 2.5, 0, -0, 1e300, -7][i % 7],
      b: new Date(Date.UTC(2026, 0, 1 + (i % 40))),
    }));
    const word = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
    const varied = (i: number) => new ObjectId(word(i * 2_654_435_761) + word(i * 40_503 + 7) + word(i * 9_973 + 11));
    const tail = (i: number) => new ObjectId(word(0) + word(0) + word(i));
    // a and c: three independent words of 500 and 250 values (past 2^53 together); b decides within equal a and c.
    const wide = docs.map((_, i) => ({ _id: oid(i), a: varied(i % 500), c: varied(i % 250), b: tail(i % 37) }));
    const specs: { key: Record<string, 1 | -1>; name: string; sparse?: boolean }[] = [
      { key: { a: 1, b: -1 }, name: "a_b" },
      { key: { a: 1, _id: -1 }, name: "a_id" },
      { key: { b: 1, _id: 1, a: -1 }, name: "b_id_a" },
      { key: { a: 1, c: -1, b: 1 }, name: "a_c_b" },
      { key: { b: -1 }, name: "b_desc" },
      { key: { a: 1 }, name: "a_sparse", sparse: true },
    ];
    const read = async (name: string) => {
      const out: Record<string, unknown[]> = {};
      // Through the index and without a sort: in the order the index holds its entries.
      for (const { name: index } of specs) {
        out[index] = (await db.collection(name).find({}).hint(index).project({ _id: 1 }).toArray()).map((d) =>
          String(d._id),
        );
      }
      return out;
    };
    for (const [label, rows] of [
      ["scalars", docs],
      ["mixed", mixed],
      ["ids", ids],
      ["numbers", numbers],
      ["wide", wide],
    ] as const) {
      await db.collection(`inserted_${label}`).createIndexes(specs);
      await db.collection(`inserted_${label}`).insertMany(rows.map((d) => ({ ...d })));
      await db.collection(`built_${label}`).insertMany(rows.map((d) => ({ ...d })));
      await db.collection(`built_${label}`).createIndexes(specs);
      const built = await read(`built_${label}`);
      expect(built, label).toEqual(await read(`inserted_${label}`));
      // The sparse index leaves out the documents without `a`.
      expect(built.a_sparse, label).toHaveLength(rows.filter((d) => "a" in d).length);
    }
    // The index is read in its own order (not re-sorted): the order of the keys themselves, ties by _id.
    const inOrder = await db.collection("built_scalars").find({}).hint("b_desc").project({ _id: 1, b: 1 }).toArray();
    expect(inOrder.slice(0, 200).map((d) => d.b instanceof Date)).toContain(true);

    // A document with an array in a key field: the build takes the general path, the queries see each element.
    await db
      .collection("built_multikey")
      .insertMany([...docs.map((d) => ({ ...d })), { _id: "arr", a: ["b", 3], b: 1 }]);
    await db.collection("built_multikey").createIndex({ a: 1 }, { name: "a" });
    const viaIndex = await db.collection("built_multikey").find({ a: "b" }).hint("a").project({ _id: 1 }).toArray();
    const scanned = await db
      .collection("built_multikey")
      .find({ a: "b" })
      .hint({ $natural: 1 })
      .project({ _id: 1 })
      .toArray();
    expect(viaIndex.map((d) => String(d._id)).sort()).toEqual(scanned.map((d) => String(d._id)).sort());
    expect(viaIndex.map((d) => d._id)).toContain("arr");

    // A unique index over duplicates that are already there: refused, and not created.
    const error = await db
      .collection("built_scalars")
      .createIndex({ b: 1 }, { unique: true, name: "b_unique" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(11000);
    expect((error as MongoServerError).message).toMatch(
      /^Index build failed: build_same\.built_scalars: E11000 duplicate key error collection: build_same\.built_scalars index: b_unique dup key: \{ b: /,
    );
    expect((await db.collection("built_scalars").listIndexes().toArray()).map((i) => i.name)).not.toContain("b_unique");
  });
});
