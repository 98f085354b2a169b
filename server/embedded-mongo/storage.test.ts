/** Catalogue internals a caller cannot observe through the driver: index use. */
import { describe, expect, it } from "vitest";
import { Catalog, Index } from "./storage";

function seeded() {
  const catalog = new Catalog();
  const coll = catalog.createCollection("db", "c");
  for (let i = 0; i < 1000; i++) catalog.insert(coll, { _id: i, cat: `c${i % 10}`, tags: [`t${i % 3}`], pair: { a: i % 2 } });
  return { catalog, coll };
}

describe("equality lookups on indexed fields", () => {
  it("read only the matching documents, not the whole collection", () => {
    const { catalog, coll } = seeded();
    expect(coll.select({ cat: "c1" }).docs).toHaveLength(1000); // no index yet: a full scan
    catalog.createIndex(coll, { v: 2, key: { cat: 1 }, name: "cat_1" });
    const byCat = coll.select({ cat: "c1" });
    expect(byCat.docs).toHaveLength(100);
    expect(byCat.exact).toBe(true);
    expect(coll.select({ cat: { $in: ["c1", "c2"] } }).docs).toHaveLength(200);
    const narrowed = coll.select({ cat: "c1", _id: { $gt: 500 } });
    expect(narrowed.docs).toHaveLength(100);
    expect(narrowed.exact).toBe(false); // the range still has to be tested
    expect(coll.select({ _id: 7 }).docs).toEqual([{ _id: 7, cat: "c7", tags: ["t1"], pair: { a: 1 } }]);
  });

  it("use multikey and compound-prefix indexes, and follow updates and deletes", () => {
    const { catalog, coll } = seeded();
    catalog.createIndex(coll, { v: 2, key: { tags: 1 }, name: "tags_1" });
    catalog.createIndex(coll, { v: 2, key: { "pair.a": 1, cat: 1 }, name: "pair" });
    expect(coll.select({ tags: "t0" }).docs).toHaveLength(334);
    expect(coll.select({ "pair.a": 1 }).docs).toHaveLength(500);
    const doc = coll.docs.get("n4")!; // tags ["t1"]
    catalog.replace(coll, doc, { ...doc, tags: ["t0"] });
    expect(coll.select({ tags: "t0" }).docs).toHaveLength(335);
    catalog.remove(coll, coll.docs.get("n0")!);
    expect(coll.select({ tags: "t0" }).docs).toHaveLength(334);
  });

  it("do not use sparse or partial indexes, which leave documents out", () => {
    const { catalog, coll } = seeded();
    catalog.createIndex(coll, { v: 2, key: { cat: 1 }, name: "cat_sparse", sparse: true });
    expect(coll.select({ cat: "c1" }).docs).toHaveLength(1000);
  });
});

describe("compound index keys over top-level fields", () => {
  it("are the keys the general (dotted path) computation gives", () => {
    const samples: unknown[] = [undefined, null, 1, 1.5, "x", "", true, new Date(5), [], [1, 2, 2], ["x", 1], { n: [1] }, [[1]]];
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
