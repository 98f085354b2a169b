/** Catalogue internals a caller cannot observe through the driver: the ordered indexes and their bookkeeping. */
import { describe, expect, it } from "vitest";
import { BTree, type Entry } from "./btree";
import { compareValues } from "./bson-order";
import { Catalog, DocMap, entryId, Index, type IndexSpec } from "./storage";

function seeded() {
  const catalog = new Catalog();
  const coll = catalog.createCollection("db", "c");
  for (let i = 0; i < 1000; i++)
    catalog.insert(coll, { _id: i, cat: `c${i % 10}`, tags: [`t${i % 3}`], pair: { a: i % 2 } });
  return { catalog, coll };
}

const ids = (index: Index) => [...index.tree.entries()].map((e) => entryId(e));

/** Entries of two values (the second a label, as an index's id), ordered by the first. */
const byFirst = (a: Entry, b: Entry) => {
  // A comparison must only ever see whole entries (never a slot past a leaf's end).
  if (typeof a[0] !== "number" || typeof b[0] !== "number")
    throw new Error(`compared ${String(a[0])} with ${String(b[0])}`);
  return a[0] - b[0];
};
const E = (v: number): Entry => [v, `id${v}`];
const V = (e: Entry | undefined) => e?.[0] as number;
/** The tree's first values in order; each entry must come back whole. */
const values = (tree: BTree) =>
  [...tree.entries()].map((e) => {
    if (e.length !== 2 || e[1] !== `id${V(e)}`) throw new Error(`entry ${JSON.stringify(e)} came back torn`);
    return V(e);
  });

describe("the counted B+ tree", () => {
  it("keeps entries ordered through random inserts and deletes, and answers ranks and seeks", () => {
    const tree = new BTree(byFirst, 2);
    const present = new Set<number>();
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let step = 0; step < 20000; step++) {
      const v = Math.floor(rand() * 5000);
      if (present.has(v) && rand() < 0.5) {
        expect(tree.delete(E(v))).toBe(true);
        present.delete(v);
      } else if (!present.has(v)) {
        tree.insert(E(v));
        present.add(v);
      }
    }
    const sorted = [...present].sort((a, b) => a - b);
    expect(values(tree)).toEqual(sorted);
    expect(tree.size).toBe(sorted.length);
    for (const probe of [0, 17, 2500, 4999, 6000]) {
      const expected = sorted.filter((v) => v < probe).length;
      expect(tree.rankOf((e) => V(e) - probe)).toBe(expected);
      const { pos } = tree.seek((e) => V(e) - probe);
      expect(V(BTree.entryAt(pos))).toBe(sorted[expected]);
    }
    expect(V(BTree.entryAt(tree.atRank(10)))).toBe(sorted[10]);
    const bulk = new BTree(byFirst, 2);
    bulk.load(sorted.map(E));
    expect(values(bulk)).toEqual(sorted);
    expect(V(BTree.entryAt(bulk.atRank(sorted.length - 1)))).toBe(sorted.at(-1));
    for (const v of sorted) expect(bulk.delete(E(v))).toBe(true);
    expect(bulk.size).toBe(0);
  });
});

describe("a sorted batch into the B+ tree (insertSorted)", () => {
  /** Everything a reader relies on: order both ways, ranks, seeks through the separators, and deletes. */
  function expectTree(tree: BTree, present: Set<number>) {
    const sorted = [...present].sort((a, b) => a - b);
    expect(tree.size).toBe(sorted.length);
    expect(values(tree)).toEqual(sorted);
    const back: number[] = [];
    const pos = tree.end();
    while (BTree.stepBack(pos)) back.push(V(BTree.entryAt(pos)));
    expect(back.reverse()).toEqual(sorted);
    for (let r = 0; r < sorted.length; r += 97) expect(V(BTree.entryAt(tree.atRank(r)))).toBe(sorted[r]);
    for (let k = 0; k < sorted.length; k += 89) {
      const v = sorted[k];
      expect(tree.rankOf((e) => V(e) - v)).toBe(k);
      expect(V(BTree.entryAt(tree.seek((e) => V(e) - v).pos))).toBe(v);
    }
  }

  let seed = 11;
  const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const batchOf = (present: Set<number>, n: number, pick: () => number) => {
    const out = new Set<number>();
    while (out.size < n) {
      const v = pick();
      if (!present.has(v)) out.add(v);
    }
    return [...out].sort((a, b) => a - b);
  };

  /** A tree whose leaves keep one reference per entry (the id), as an index that keeps documents does. */
  const byReference = () =>
    new BTree(byFirst, 2, (ref, out) => ((out[0] = Number(String(ref).slice(2))), (out[1] = ref)));
  const picks: [string, (round: number) => number][] = [
    ["spread over the tree", () => Math.floor(rand() * 1e7)],
    ["appended after every key", (i: number) => 1e7 + i * 100_000 + Math.floor(rand() * 100_000)],
    ["before every key", (i: number) => -1e7 - i * 100_000 - Math.floor(rand() * 100_000)],
    ["dense in one narrow range", () => 5e6 + Math.floor(rand() * 100_000)],
  ];
  it.each([
    ...picks.map(([name, pick]) => [`${name}, values in the leaves`, pick, () => new BTree(byFirst, 2)] as const),
    ...picks.map(([name, pick]) => [`${name}, references in the leaves`, pick, byReference] as const),
  ])("holds the same entries as one insert each: %s", (_name, pick, makeTree) => {
    const bulk = makeTree();
    const present = new Set<number>();
    // Batches from one entry up to more than the tree held before, into an empty tree first.
    for (const [round, n] of [1, 2, 63, 64, 65, 500, 3_000, 10_000, 7, 20_000].entries()) {
      const batch = batchOf(present, n, () => pick(round));
      bulk.insertSorted(batch.map(E));
      for (const v of batch) present.add(v);
      expectTree(bulk, present);
    }
    // Single inserts and deletes keep working on what the batches built.
    for (const v of batchOf(present, 2_000, () => Math.floor(rand() * 2e7) - 1e7)) {
      bulk.insert(E(v));
      present.add(v);
    }
    const all = [...present];
    for (let i = 0; i < all.length; i += 2) {
      expect(bulk.delete(E(all[i]))).toBe(true);
      present.delete(all[i]);
    }
    expectTree(bulk, present);
  });
});

describe("ordered indexes", () => {
  it("hold one entry per key in BSON order and follow updates and deletes", async () => {
    const { catalog, coll } = seeded();
    await catalog.createIndexesAsync(coll, [{ v: 2, key: { cat: 1 }, name: "cat_1" }], () => true);
    const index = coll.indexes.get("cat_1") as Index;
    expect(index.tree.size).toBe(1000);
    const keys = [...index.tree.entries()].map((e) => index.keyIn(e));
    for (let i = 1; i < keys.length; i++) expect(compareValues(keys[i - 1], keys[i])).toBeLessThanOrEqual(0);
    const doc = coll.docs.get("n4")!;
    catalog.replace(coll, doc, { ...doc, cat: "zz" });
    expect(ids(index).at(-1)).toBe("n4");
    catalog.remove(coll, coll.docs.get("n4")!);
    expect(index.tree.size).toBe(999);
    expect(coll.idIndex.tree.size).toBe(999);
  });

  it("mark multikey fields and leave sparse documents out", async () => {
    const { catalog, coll } = seeded();
    await catalog.createIndexesAsync(coll, [{ v: 2, key: { tags: 1, cat: 1 }, name: "tags_cat" }], () => true);
    const index = coll.indexes.get("tags_cat") as Index;
    expect([...index.multikeyFields]).toEqual(["tags"]);
    await catalog.createIndexesAsync(coll, [{ v: 2, key: { missing: 1 }, name: "sparse", sparse: true }], () => true);
    expect((coll.indexes.get("sparse") as Index).tree.size).toBe(0);
    expect((coll.indexes.get("sparse") as Index).complete).toBe(false);
  });
});

describe("an index built from a snapshot's recorded order", () => {
  type Row = Record<string, unknown>;
  const docsOf = (n: number): Row[] =>
    Array.from({ length: n }, (_, i) => ({ _id: i, cat: `c${(i * 7) % 13}`, v: i % 5 === 0 ? undefined : i % 17 }));
  const noPause = async () => undefined;
  const mapOf = (docs: Row[]) => new Map(docs.map((d) => [`n${d._id}`, d]));
  /** What a start hands the index: each document's entry in file order, and the order a snapshot recorded. */
  const storedFor = (index: Index, docs: Row[], order: Uint32Array, sorted = false) => {
    const values: unknown[] = [];
    const kinds = new Uint8Array(docs.length);
    docs.forEach((d, at) => {
      kinds[at] = index.entryInto(`n${d._id}`, d, values, at * index.width);
    });
    return { values: index.keepsDocuments ? undefined : values, kinds, order, sorted, docs };
  };
  /** The index built by sorting, and the order a snapshot of it would record (positions into `docs`). */
  function recorded(spec: IndexSpec, docs: Row[]) {
    const sorted = new Index(spec);
    sorted.build(mapOf(docs), "db.c");
    const at = new Map(docs.map((d, i) => [`n${d._id}`, i]));
    return {
      order: Uint32Array.from([...sorted.tree.entries()].map((e) => at.get(entryId(e))!)),
      entries: [...sorted.tree.entries()],
    };
  }

  it("takes the order when it holds: the same entries as a sort, for plain, compound, descending, sparse and partial indexes", async () => {
    const docs = docsOf(3_000);
    const specs: IndexSpec[] = [
      { v: 2, key: { cat: 1 }, name: "cat_1" },
      { v: 2, key: { cat: 1, v: -1 }, name: "cat_v" },
      { v: 2, key: { v: 1 }, name: "v_sparse", sparse: true },
      { v: 2, key: { v: 1 }, name: "v_partial", partialFilterExpression: { v: { $gt: 3 } } },
    ];
    for (const spec of specs) {
      const { order, entries } = recorded(spec, docs);
      const index = new Index(spec);
      expect(await index.buildAsync(mapOf(docs), "db.c", noPause, storedFor(index, docs, order)), spec.name).toBe(true);
      expect([...index.tree.entries()], spec.name).toEqual(entries);
    }
  });

  it("sorts instead when the order does not hold, and ends with the same entries", async () => {
    const docs = docsOf(1_000);
    const spec: IndexSpec = { v: 2, key: { cat: 1 }, name: "cat_1" };
    const { order } = recorded(spec, docs);
    const swapped = order.slice();
    [swapped[10], swapped[11]] = [swapped[11], swapped[10]];
    const repeated = order.slice();
    repeated[5] = repeated[6];
    const beyond = order.slice();
    beyond[0] = docs.length;
    const changed = docs.map((d) => (d._id === order[0] ? { ...d, cat: "zz" } : d));
    const multikey = docs.map((d) => (d._id === 3 ? { ...d, cat: ["a", "b"] } : d));
    const cases: [string, Row[], Uint32Array][] = [
      ["two entries swapped", docs, swapped],
      ["one document twice", docs, repeated],
      ["a position past the documents", docs, beyond],
      ["one document missing", docs, order.subarray(1)],
      ["a document changed after the order was written", changed, order],
      ["a document that became multikey", multikey, order],
    ];
    for (const [label, list, positions] of cases) {
      const expected = new Index(spec);
      expected.build(mapOf(list), "db.c");
      const index = new Index(spec);
      expect(await index.buildAsync(mapOf(list), "db.c", noPause, storedFor(index, list, positions)), label).toBe(
        false,
      );
      expect([...index.tree.entries()], label).toEqual([...expected.tree.entries()]);
      expect([...index.multikeyFields], label).toEqual([...expected.multikeyFields]);
    }
  });

  it("takes an order recorded sorted without comparing its entries, but still refuses one that does not fit the documents", async () => {
    const docs = docsOf(2_000);
    for (const spec of [
      { v: 2, key: { cat: 1, v: -1 }, name: "cat_v" },
      { v: 2, key: { cat: 1 }, name: "cat_1" },
    ] as IndexSpec[]) {
      const { order, entries } = recorded(spec, docs);
      const index = new Index(spec);
      expect(await index.buildAsync(mapOf(docs), "db.c", noPause, storedFor(index, docs, order, true)), spec.name).toBe(
        true,
      );
      expect([...index.tree.entries()], spec.name).toEqual(entries);
      // Recorded sorted means not compared: two entries swapped are taken as written.
      const swapped = order.slice();
      [swapped[10], swapped[11]] = [swapped[11], swapped[10]];
      const trusting = new Index(spec);
      expect(
        await trusting.buildAsync(mapOf(docs), "db.c", noPause, storedFor(trusting, docs, swapped, true)),
        spec.name,
      ).toBe(true);
      // What is still checked: each document once, and all of them.
      for (const bad of [order.subarray(1), Uint32Array.from([order[0], ...order.subarray(0, order.length - 1)])]) {
        const expected = new Index(spec);
        expected.build(mapOf(docs), "db.c");
        const checked = new Index(spec);
        expect(
          await checked.buildAsync(mapOf(docs), "db.c", noPause, storedFor(checked, docs, bad, true)),
          spec.name,
        ).toBe(false);
        expect([...checked.tree.entries()], spec.name).toEqual([...expected.tree.entries()]);
      }
    }
  });

  it("keeps the multikey fields that a one-element array shows, when the order holds", async () => {
    const docs = docsOf(200).map((d) => (d._id === 7 ? { ...d, cat: ["c0"] } : d));
    const spec: IndexSpec = { v: 2, key: { cat: 1 }, name: "cat_1" };
    const { order, entries } = recorded(spec, docs);
    const index = new Index(spec);
    expect(await index.buildAsync(mapOf(docs), "db.c", noPause, storedFor(index, docs, order))).toBe(true);
    expect([...index.tree.entries()]).toEqual(entries);
    expect([...index.multikeyFields]).toEqual(["cat"]);
  });

  it("refuses a sparse index's order that leaves out a document with the key", async () => {
    const docs = docsOf(500);
    const spec: IndexSpec = { v: 2, key: { v: 1 }, name: "v_sparse", sparse: true };
    const { order, entries } = recorded(spec, docs);
    const index = new Index(spec);
    expect(
      await index.buildAsync(mapOf(docs), "db.c", noPause, storedFor(index, docs, order.subarray(0, order.length - 1))),
    ).toBe(false);
    expect([...index.tree.entries()]).toEqual(entries);
  });

  it("still refuses duplicate keys in a unique index whose order is not marked sorted", async () => {
    const docs = [
      { _id: 1, k: "a" },
      { _id: 2, k: "a" },
    ];
    const index = new Index({ v: 2, key: { k: 1 }, name: "k_1", unique: true });
    await expect(
      index.buildAsync(mapOf(docs), "db.c", noPause, storedFor(index, docs, Uint32Array.from([0, 1]))),
    ).rejects.toThrow(/duplicate key/);
    // A marked order was walked from the unique tree itself: it is taken as it is, and the index then enforces.
    const docsOk = [
      { _id: 1, k: "a" },
      { _id: 2, k: "b" },
    ];
    const marked = new Index({ v: 2, key: { k: 1 }, name: "k_1", unique: true });
    expect(marked.takesUncompared(storedFor(marked, docsOk, Uint32Array.from([0, 1]), true))).toBe(true);
    expect(
      await marked.buildAsync(
        mapOf(docsOk),
        "db.c",
        noPause,
        storedFor(marked, docsOk, Uint32Array.from([0, 1]), true),
      ),
    ).toBe(true);
    expect(() => marked.checkUnique({ _id: 3, k: "b" }, "3", "db.c")).toThrow(/duplicate key/);
  });
});

describe("compound index keys over top-level fields", () => {
  it("are the keys the general (dotted path) computation gives", () => {
    const samples: unknown[] = [
      undefined,
      null,
      1,
      1.5,
      "x",
      "",
      true,
      new Date(5),
      [],
      [1, 2, 2],
      ["x", 1],
      { n: [1] },
      [[1]],
    ];
    for (const sparse of [false, true]) {
      const top = new Index({ v: 2, key: { a: 1, b: -1 }, name: "ab", sparse });
      const nested = new Index({ v: 2, key: { "x.a": 1, "x.b": -1 }, name: "xab", sparse });
      for (const a of samples) {
        for (const b of samples) {
          const doc: Record<string, unknown> = {};
          if (a !== undefined) doc.a = a;
          if (b !== undefined) doc.b = b;
          expect(top.keysOf(doc)).toEqual(nested.keysOf({ x: doc }));
        }
      }
    }
  });
});

describe("an index's order read in slices (a snapshot's IndexOrder records)", () => {
  it("visits every entry once, in order, whatever the slice size, including slices that end at a leaf's end", async () => {
    const { catalog, coll } = seeded();
    await catalog.createIndexesAsync(coll, [{ v: 2, key: { cat: 1, _id: -1 }, name: "cat_id" }], () => true);
    for (const index of [coll.idIndex, coll.indexes.get("cat_id") as Index]) {
      const whole = ids(index);
      for (let limit = 1; limit <= 150; limit++) {
        const seen: string[] = [];
        let last: ReturnType<Index["eachIdAfter"]>;
        let slices = 0;
        do {
          last = index.eachIdAfter(last, limit, (id) =>
            seen.push(typeof id === "string" ? id : `n${(id as { _id: number })._id}`),
          );
          if (++slices > 2 * whole.length) throw new Error(`limit ${limit}: the slices never end`);
        } while (last !== undefined);
        expect(seen, `limit ${limit}`).toEqual(whole);
      }
    }
  });
});

describe("a documents map given a start's documents (DocMap.adopt)", () => {
  const adopted = () => {
    const map = new DocMap();
    const docs = Array.from({ length: 40_000 }, (_, i) => ({ _id: i }));
    map.adopt(
      docs.map((d) => String(d._id)),
      docs,
    );
    return { map, docs };
  };

  it("counts them before they are in the map, and answers every call as a map that held them first", () => {
    const { map, docs } = adopted();
    expect(map.size).toBe(40_000);
    expect(map.get("39999")).toBe(docs[39_999]);
    map.set("new", { _id: "new" });
    map.delete("0");
    expect(map.size).toBe(40_000);
    expect(map.has("0")).toBe(false);
    const keys = [...map.keys()];
    expect(keys.slice(0, 2)).toEqual(["1", "2"]);
    expect(keys.at(-1)).toBe("new");
  });

  it("puts them in a slice at a time, and a call between slices finds them all", async () => {
    const { map, docs } = adopted();
    let pauses = 0;
    const settling = map.settleAsync(async () => {
      pauses++;
      // The first pause: part of them are in the map.
      if (pauses === 1) {
        expect(map.size).toBe(40_000);
        expect(map.get("39999")).toBe(docs[39_999]);
        expect([...map.values()]).toEqual(docs);
      }
    });
    await settling;
    expect(pauses).toBe(1);
    expect(map.size).toBe(40_000);
    expect([...map.values()].map((d) => d._id)).toEqual(docs.map((d) => d._id));
  });

  it("sets a new document after the adopted ones, and clear drops them", () => {
    const first = adopted();
    first.map.set("0", { _id: 0, changed: true });
    expect(first.map.size).toBe(40_000);
    expect(first.map.get("0")).toEqual({ _id: 0, changed: true });
    const second = adopted();
    second.map.clear();
    expect(second.map.size).toBe(0);
    expect([...second.map.values()]).toEqual([]);
    expect(() => first.map.adopt(["x"], [{ _id: "x" }])).toThrow(/not empty/);
  });
});
