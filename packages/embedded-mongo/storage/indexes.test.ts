/** An ordered index built from a snapshot's recorded order: taken when it holds, sorted otherwise. */
import { describe, expect, it } from "vitest";
import type { IndexSpec } from "../index-spec";
import { entryId } from "./index-entry";
import { Index } from "./indexes";

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
