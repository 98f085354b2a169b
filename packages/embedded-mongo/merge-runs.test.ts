import { describe, expect, it } from "vitest";
import { mergeSortedRuns } from "./merge-runs";

describe("mergeSortedRuns", () => {
  it("merges any number of sorted runs into one sorted array, the earlier run first on ties", async () => {
    // 5 runs of 1,000 items keyed 0..99: many ties across runs; `at` records the original position.
    const runs = Array.from({ length: 5 }, (_, r) =>
      Array.from({ length: 1_000 }, (_, i) => ({ key: (i * 7 + r * 13) % 100, at: r * 1_000 + i })).sort(
        (a, b) => a.key - b.key || a.at - b.at,
      ),
    );
    const merged = await mergeSortedRuns(
      runs,
      (a, b) => a.key - b.key,
      () => undefined,
    );
    expect(merged).toHaveLength(5_000);
    const expected = runs.flat().sort((a, b) => a.key - b.key || a.at - b.at);
    expect(merged).toEqual(expected);
  });

  it("pauses every mask + 1 items written and after each round", async () => {
    const runs = [
      [1, 3, 5, 7],
      [2, 4, 6, 8],
      [0, 9],
    ];
    let pauses = 0;
    const merged = await mergeSortedRuns(
      runs,
      (a, b) => a - b,
      () => void pauses++,
      3,
    );
    expect(merged).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Round 1 merges runs 1 and 2: a pause at the 4th item written (the 8th is copied after [1, 3, 5, 7] ran
    // out), then one at the round's end; round 2 merges 8 + 2 items: pauses at the 4th and the 8th (9 is still
    // waiting on the other side), then the round's end. 1 + 1 + 2 + 1.
    expect(pauses).toBe(5);
  });

  it("gives an empty array for no runs and the run itself for one", async () => {
    expect(
      await mergeSortedRuns(
        [],
        (a: number, b: number) => a - b,
        () => undefined,
      ),
    ).toEqual([]);
    expect(
      await mergeSortedRuns(
        [[1, 2]],
        (a, b) => a - b,
        () => undefined,
      ),
    ).toEqual([1, 2]);
  });
});
