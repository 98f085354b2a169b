/** The counted B+ tree: order, ranks, seeks and bounds, single inserts and deletes, sorted batches and bulk loads. */
import { describe, expect, it } from "vitest";
import { BTree, type Entry } from "./btree";

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
    new BTree(byFirst, 2, (ref, out) => {
      out[0] = Number(String(ref).slice(2));
      out[1] = ref;
    });
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

describe("the B+ tree against a sorted array, on random data", () => {
  let seed = 2024;
  const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  /** Distinct random values, in random order. */
  const randomValues = (n: number, span: number) => {
    const out = new Set<number>();
    while (out.size < n) out.add(Math.floor(rand() * span) - span / 2);
    return [...out];
  };
  const ascending = (a: number, b: number) => a - b;
  /** The values at or after `lo` and before `hi`, walked from a seek. */
  const walk = (tree: BTree, lo: number, hi: number) => {
    const out: number[] = [];
    const { pos } = tree.seek((e) => V(e) - lo);
    for (let e = BTree.entryAt(pos); e !== undefined && V(e) < hi; pos.i++, e = BTree.entryAt(pos)) out.push(V(e));
    return out;
  };

  it("iterates in order, both ways, after inserts in random order and deletes of a random half", () => {
    const tree = new BTree(byFirst, 2);
    const all = randomValues(5_000, 1e6);
    for (const v of all) tree.insert(E(v));
    const sorted = [...all].sort(ascending);
    expect(tree.size).toBe(sorted.length);
    expect(values(tree)).toEqual(sorted);
    const kept = new Set(sorted);
    for (const v of all) {
      if (rand() < 0.5) continue;
      expect(tree.delete(E(v))).toBe(true);
      kept.delete(v);
    }
    const remaining = [...kept].sort(ascending);
    expect(tree.size).toBe(remaining.length);
    expect(values(tree)).toEqual(remaining);
    const back: number[] = [];
    const pos = tree.end();
    while (BTree.stepBack(pos)) back.push(V(BTree.entryAt(pos)));
    expect(back).toEqual([...remaining].reverse());
    expect(V(BTree.entryAt(tree.first()))).toBe(remaining[0]);
  });

  it("answers a delete of an absent entry with false and leaves the tree as it was", () => {
    const tree = new BTree(byFirst, 2);
    const all = randomValues(1_000, 10_000);
    for (const v of all) tree.insert(E(v));
    const present = new Set(all);
    for (let probe = -6_000; probe < 6_000; probe += 37)
      if (!present.has(probe)) expect(tree.delete(E(probe))).toBe(false);
    expect(values(tree)).toEqual([...all].sort(ascending));
    for (const v of all) expect(tree.delete(E(v))).toBe(true);
    expect(tree.size).toBe(0);
    expect([...tree.entries()]).toEqual([]);
    expect(BTree.entryAt(tree.first())).toBeUndefined();
    expect(BTree.stepBack(tree.end())).toBe(false);
  });

  it("walks a range from its lower bound to its upper bound, and counts it by ranks, inclusive or exclusive", () => {
    const tree = new BTree(byFirst, 2);
    const all = randomValues(4_000, 100_000);
    for (const v of all) tree.insert(E(v));
    const sorted = [...all].sort(ascending);
    for (let k = 0; k < 200; k++) {
      // Bounds that lie on entries, between them, and outside them.
      const a = rand() < 0.3 ? sorted[Math.floor(rand() * sorted.length)] : Math.floor(rand() * 120_000) - 60_000;
      const b = rand() < 0.3 ? sorted[Math.floor(rand() * sorted.length)] : Math.floor(rand() * 120_000) - 60_000;
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      const expected = sorted.filter((v) => v >= lo && v < hi);
      expect(walk(tree, lo, hi), `[${lo}, ${hi})`).toEqual(expected);
      expect(tree.rankOf((e) => V(e) - hi) - tree.rankOf((e) => V(e) - lo)).toBe(expected.length);
      // An exclusive lower bound: the first entry after `lo`.
      const after = tree.seek((e) => (V(e) <= lo ? -1 : 1));
      const firstAfter = sorted.find((v) => v > lo);
      expect(V(BTree.entryAt(after.pos))).toBe(firstAfter);
      expect(after.rank).toBe(sorted.filter((v) => v <= lo).length);
      // Backwards from the upper bound, down to the lower one.
      const back: number[] = [];
      const { pos } = tree.seek((e) => V(e) - hi);
      while (BTree.stepBack(pos) && V(BTree.entryAt(pos)) >= lo) back.push(V(BTree.entryAt(pos)));
      expect(back.reverse()).toEqual(expected);
    }
  });

  it("finds the entry at each rank, and none past the end", () => {
    const tree = new BTree(byFirst, 2);
    const all = randomValues(3_000, 1e5);
    for (const v of all) tree.insert(E(v));
    const sorted = [...all].sort(ascending);
    for (let r = 0; r < sorted.length; r += 7) expect(V(BTree.entryAt(tree.atRank(r)))).toBe(sorted[r]);
    expect(BTree.entryAt(tree.atRank(sorted.length))).toBeUndefined();
    expect(BTree.lastValueAt(tree.atRank(0))).toBe(`id${sorted[0]}`);
  });

  it("holds the same entries whether loaded sorted, built from flat values, or inserted one by one", () => {
    const all = randomValues(10_000, 1e7);
    const sorted = [...all].sort(ascending);
    const loaded = new BTree(byFirst, 2);
    loaded.load(sorted.map(E));
    const built = new BTree(byFirst, 2);
    const flat = sorted.flatMap((v) => [v, `id${v}`]);
    const builder = built.builder();
    for (let k = 0; k < sorted.length; k++) builder.push(flat, k * 2);
    builder.finish();
    const inserted = new BTree(byFirst, 2);
    for (const v of all) inserted.insert(E(v));
    for (const tree of [loaded, built, inserted]) {
      expect(values(tree)).toEqual(sorted);
      expect(walk(tree, -1e6, 1e6)).toEqual(sorted.filter((v) => v >= -1e6 && v < 1e6));
    }
    // A tree loaded in bulk takes single inserts and deletes after it.
    const extra = randomValues(500, 1e7).filter((v) => !all.includes(v));
    for (const v of extra) loaded.insert(E(v));
    for (const v of sorted.slice(0, 1_000)) expect(loaded.delete(E(v))).toBe(true);
    expect(values(loaded)).toEqual([...sorted.slice(1_000), ...extra].sort(ascending));
    loaded.clear();
    expect(loaded.size).toBe(0);
  });

  it("gives the same answers when its leaves keep references that expand into the entries", () => {
    const expanding = new BTree(byFirst, 2, (ref, out) => {
      out[0] = Number(String(ref).slice(2));
      out[1] = ref;
    });
    const plain = new BTree(byFirst, 2);
    const all = randomValues(3_000, 1e6);
    for (const v of all) {
      expanding.insert(E(v));
      plain.insert(E(v));
    }
    for (const v of all.slice(0, 1_000)) {
      expect(expanding.delete(E(v))).toBe(true);
      plain.delete(E(v));
    }
    expect(values(expanding)).toEqual(values(plain));
    for (let k = 0; k < 50; k++) {
      const lo = Math.floor(rand() * 1e6) - 5e5;
      expect(walk(expanding, lo, lo + 50_000)).toEqual(walk(plain, lo, lo + 50_000));
    }
    expect(BTree.lastValueAt(expanding.first())).toBe(BTree.lastValueAt(plain.first()));
  });
});
