/** Ordered indexes: their keys in BSON order, multikey and sparse bookkeeping, and their order read in slices. */
import { describe, expect, it } from "vitest";
import { compareValues } from "../bson-order";
import { Catalog } from "./catalog";
import { entryId } from "./index-entry";
import { Index } from "./indexes";

function seeded() {
  const catalog = new Catalog();
  const coll = catalog.createCollection("db", "c");
  for (let i = 0; i < 1000; i++)
    catalog.insert(coll, { _id: i, cat: `c${i % 10}`, tags: [`t${i % 3}`], pair: { a: i % 2 } });
  return { catalog, coll };
}

const ids = (index: Index) => [...index.tree.entries()].map((e) => entryId(e));

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
