/**
 * Merges sorted runs pairwise into one sorted array. Stable: on a tie the item of the earlier run comes first, so
 * runs cut from a stable order stay stable. `pause` is awaited whenever the output count hits a multiple of
 * `mask + 1` and after every round, so a sort of millions of entries never holds the event loop for long (the
 * caller decides whether a pause yields).
 */
export async function mergeSortedRuns<T>(
  runs: T[][],
  compare: (a: T, b: T) => number,
  pause: () => Promise<void> | void,
  mask = 65_535,
): Promise<T[]> {
  while (runs.length > 1) {
    const next: T[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      if (r + 1 === runs.length) {
        next.push(runs[r]);
        continue;
      }
      const a = runs[r];
      const b = runs[r + 1];
      const out: T[] = new Array(a.length + b.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < a.length && j < b.length) {
        out[k++] = compare(a[i], b[j]) <= 0 ? a[i++] : b[j++];
        if ((k & mask) === 0) await pause();
      }
      while (i < a.length) out[k++] = a[i++];
      while (j < b.length) out[k++] = b[j++];
      next.push(out);
    }
    runs = next;
    await pause();
  }
  return runs[0] ?? [];
}
