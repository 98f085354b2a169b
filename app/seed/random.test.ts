import { describe, expect, it } from "vitest";
import { cnpjFromBase, isValidCnpj, isValidCpf, randomCnpj, randomCpf } from "./brazil";
import { monthStart, scaled } from "./context";
import { Random } from "./random";

describe("Random", () => {
  it("gives the same sequence for the same seed and label, and a different one otherwise", () => {
    const take = (r: Random) => Array.from({ length: 20 }, () => r.nextUint32());
    expect(take(new Random(42, "a"))).toEqual(take(new Random(42, "a")));
    expect(take(new Random(42, "a"))).not.toEqual(take(new Random(42, "b")));
    expect(take(new Random(42, "a"))).not.toEqual(take(new Random(43, "a")));
  });

  it("derives a stream from the seed and a label alone: what the parent drew before does not change it, nor does it draw", () => {
    const take = (r: Random) => Array.from({ length: 10 }, () => r.nextUint32());
    const fresh = new Random(42, "a");
    const used = new Random(42, "a");
    take(used);
    expect(take(fresh.derive("x"))).toEqual(take(used.derive("x")));
    expect(take(fresh.derive("x"))).not.toEqual(take(fresh.derive("y")));
    // Deriving drew nothing from the parent: it goes on as an untouched stream of the same seed would.
    expect(take(fresh)).toEqual(take(new Random(42, "a")));
  });

  it("keeps int() within its inclusive bounds and reaches both ends", () => {
    const r = new Random(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const n = r.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
      seen.add(n);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
    expect(() => r.int(5, 4)).toThrow(/max is below min/);
  });

  it("samples distinct items and picks by weight", () => {
    const r = new Random(7);
    const sample = r.sample([1, 2, 3, 4, 5, 6], 4);
    expect(new Set(sample).size).toBe(4);
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 5000; i++)
      counts[
        r.weighted([
          ["a", 9],
          ["b", 1],
        ] as const)
      ]++;
    expect(counts.a / 5000).toBeGreaterThan(0.85);
    expect(counts.a / 5000).toBeLessThan(0.95);
  });

  it("makes reproducible ObjectIds whose timestamp is the given date", () => {
    const at = new Date("2026-03-01T12:34:56Z");
    const a = new Random(9).objectId(at);
    const b = new Random(9).objectId(at);
    expect(a.toHexString()).toBe(b.toHexString());
    expect(a.getTimestamp().toISOString()).toBe("2026-03-01T12:34:56.000Z");
  });

  it("makes UUIDs in the version-4 layout", () => {
    expect(new Random(3).uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("Brazilian document numbers", () => {
  it("computes CPF and CNPJ check digits of known numbers", () => {
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("52998224726")).toBe(false);
    expect(isValidCpf("11111111111")).toBe(false);
    expect(cnpjFromBase("112223330001")).toBe("11222333000181");
    expect(isValidCnpj("11222333000181")).toBe(true);
    expect(isValidCnpj("11222333000182")).toBe(false);
  });

  it("generates only valid numbers", () => {
    const r = new Random(5);
    for (let i = 0; i < 500; i++) {
      expect(isValidCpf(randomCpf(r))).toBe(true);
      expect(isValidCnpj(randomCnpj(r))).toBe(true);
    }
  });
});

describe("seed context helpers", () => {
  it("scales volumes with a floor and computes UTC month starts", () => {
    expect(scaled({ scale: 0.01 }, 10_000, 20)).toBe(100);
    expect(scaled({ scale: 0.0001 }, 10_000, 20)).toBe(20);
    expect(monthStart(new Date("2026-01-31T23:00:00Z"), -1).toISOString()).toBe("2025-12-01T00:00:00.000Z");
    expect(monthStart(new Date("2026-11-15T00:00:00Z"), 2).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});
