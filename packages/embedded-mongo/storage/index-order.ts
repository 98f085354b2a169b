/**
 * Index order by numbers, for the builds that sort millions of entries: each key field's values as a column of
 * numbers in their BSON order (ranks, dates' times, an ObjectId's three words), entries packed into one exact number
 * each where they fit, and the sorts (in runs, pausing between them) that order positions by them.
 */
import { compareValues } from "../bson-order";
import { mergeSortedRuns } from "../merge-runs";
import { isPacked } from "../object-id";

/** `items` sorted by `compare` in runs of 65,536 merged pairwise, pausing between steps. */
export async function sortInRuns<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  pause: () => Promise<void>,
): Promise<T[]> {
  const SLICE = 65_536;
  const runs: T[][] = [];
  for (let from = 0; from < items.length; from += SLICE) {
    runs.push(items.slice(from, from + SLICE).sort(compare));
    await pause();
  }
  return mergeSortedRuns(runs, compare, pause);
}

/** Each document position's rank by _id (`rank`), and the position of each rank (`at`). */
export type IdRanks = { rank: Float64Array; at: Uint32Array };

/** Compares the ObjectIds at two positions by their three words (idWordColumns): their byte order. */
export function compareIdWordsAt([w0, w1, w2]: Float64Array[]): (i: number, j: number) => number {
  return (i, j) => w0[i] - w0[j] || w1[i] - w1[j] || w2[i] - w2[j];
}

/** The ranks of the documents' ObjectIds, in their byte order. */
export async function idRanksOf(idWords: Float64Array[], size: number, pause: () => Promise<void>): Promise<IdRanks> {
  const all = Array.from({ length: size }, (_, i) => i);
  const at = Uint32Array.from(await sortInRuns(all, compareIdWordsAt(idWords), pause));
  const rank = new Float64Array(size);
  for (let r = 0; r < size; r++) rank[at[r]] = r;
  return { rank, at };
}

/**
 * The positions in index order, sorted as numbers: each entry's number is its key columns' ranks (reversed for a
 * descending field) read as the digits of a mixed-radix number, then its document's id rank (ties go by _id, as the
 * comparison does). When the digits so far would pass 2^53 (no longer exact), they are first replaced by their dense
 * ranks (at most one per entry). A key holding `_id` ends there: the id rank, in that field's direction, decides,
 * and the fields after it never do. A native sort of numbers takes a fraction of a comparison sort's time.
 * Undefined when even dense ranks would not fit (over ~94 M documents): the caller compares instead.
 */
export async function packedOrder(
  sorting: SortColumns,
  positions: number[],
  ids: IdRanks,
  pause: () => Promise<void>,
  idKey?: { field: number; descending: boolean },
): Promise<number[] | undefined> {
  const count = positions.length;
  const size = ids.at.length;
  const LIMIT = Number.MAX_SAFE_INTEGER + 1;
  if (size * size > LIMIT) return undefined;
  const keys = new Float64Array(count);
  let span = 1;
  for (let c = 0; c < sorting.columns.length; c++) {
    if (idKey && sorting.fieldOf[c] >= idKey.field) break;
    const column = sorting.columns[c];
    const digits = new Float64Array(count);
    for (let k = 0; k < count; k++) digits[k] = column[positions[k]];
    // ObjectId words become ranks; other columns hold ranks already.
    const radix = sorting.rankCounts[c] ?? (await toDenseRanks(digits, pause));
    if (span * radix > LIMIT) span = await toDenseRanks(keys, pause);
    const descending = sorting.directions[c] < 0;
    for (let k = 0; k < count; k++) keys[k] = keys[k] * radix + (descending ? radix - 1 - digits[k] : digits[k]);
    span *= radix;
    await pause();
  }
  if (span * size > LIMIT) await toDenseRanks(keys, pause);
  const reversed = idKey?.descending === true;
  for (let k = 0; k < count; k++) {
    const rank = ids.rank[positions[k]];
    keys[k] = keys[k] * size + (reversed ? size - 1 - rank : rank);
  }
  const sorted = await sortNumbers(keys, pause);
  const order = new Array<number>(count);
  for (let k = 0; k < count; k++) {
    const digit = sorted[k] % size;
    order[k] = ids.at[reversed ? size - 1 - digit : digit];
  }
  return order;
}

/** Replaces each number of `values` by its rank among their distinct values (0 and −0 are one); returns how many. */
async function toDenseRanks(values: Float64Array, pause: () => Promise<void>): Promise<number> {
  const distinct = await sortNumbers(values.slice(), pause);
  let d = 0;
  for (let k = 0; k < distinct.length; k++) if (d === 0 || distinct[k] !== distinct[d - 1]) distinct[d++] = distinct[k];
  const ranks = distinct.subarray(0, d);
  for (let k = 0; k < values.length; k++) {
    values[k] = rankIn(ranks, values[k]);
    if ((k & 65_535) === 65_535) await pause();
  }
  return d;
}

/** The index of `value` in `sorted` (ascending, distinct, holding it). */
function rankIn(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** `keys` sorted ascending, natively in slices of 65,536 then merged pairwise, pausing between steps. */
async function sortNumbers(keys: Float64Array, pause: () => Promise<void>): Promise<Float64Array> {
  const SLICE = 65_536;
  for (let from = 0; from < keys.length; from += SLICE) {
    keys.subarray(from, Math.min(keys.length, from + SLICE)).sort();
    await pause();
  }
  let from: Float64Array = keys;
  let to: Float64Array = new Float64Array(keys.length);
  for (let width = SLICE; width < keys.length; width *= 2) {
    for (let start = 0; start < keys.length; start += 2 * width) {
      const middle = Math.min(start + width, keys.length);
      const end = Math.min(start + 2 * width, keys.length);
      let i = start;
      let j = middle;
      let k = start;
      while (i < middle && j < end) to[k++] = from[i] <= from[j] ? from[i++] : from[j++];
      while (i < middle) to[k++] = from[i++];
      while (j < end) to[k++] = from[j++];
      await pause();
    }
    [from, to] = [to, from];
  }
  return from;
}

/**
 * For each key field, a number per document position whose order is the BSON order of the field's values, when
 * the field holds only scalars and dates: the dense rank of the value where it holds only numbers (no NaN), of the
 * time where it holds only valid dates, else the value's rank among the field's distinct values (values that compare
 * equal share a rank: null and missing, 1 and 1.0); an ObjectId's three words. Undefined when some value is of
 * another kind (compared as values). With `shared` (every document at `positions`), a field's columns come
 * from and go to `shared.byField`: the indexes of one build that hold a field make its columns once.
 */
export async function sortColumns(
  values: unknown[],
  w: number,
  n: number,
  positions: number[],
  size: number,
  directions: (1 | -1)[],
  pause: () => Promise<void>,
  shared?: { fields: string[]; byField: Map<string, FieldColumns> },
): Promise<SortColumns | undefined> {
  const out: SortColumns = { columns: [], directions: [], rankCounts: [], fieldOf: [] };
  for (let f = 0; f < n; f++) {
    const known = shared?.byField.get(shared.fields[f]);
    const made = known ?? (await fieldColumns(values, w, f, positions, size, pause));
    if (!made) return undefined;
    if (shared && !known) shared.byField.set(shared.fields[f], made);
    for (let c = 0; c < made.columns.length; c++) {
      out.columns.push(made.columns[c]);
      out.directions.push(directions[f]);
      out.rankCounts.push(made.rankCounts[c]);
      out.fieldOf.push(f);
    }
  }
  return out;
}

/** One key field's columns (three for ObjectIds, else one) and their rank counts, as sortColumns describes. */
export type FieldColumns = { columns: Float64Array[]; rankCounts: (number | undefined)[] };

/** The columns of key field `f` (sortColumns), numbers and times as their dense ranks. */
async function fieldColumns(
  values: unknown[],
  w: number,
  f: number,
  positions: number[],
  size: number,
  pause: () => Promise<void>,
): Promise<FieldColumns | undefined> {
  let numbers = true;
  let dates = true;
  let ids = true;
  for (let k = 0; k < positions.length && (numbers || dates || ids); k++) {
    const v = values[positions[k] * w + f];
    if (numbers && !(typeof v === "number" && !Number.isNaN(v))) numbers = false;
    if (dates && !(v instanceof Date && !Number.isNaN(v.getTime()))) dates = false;
    if (ids && !isPacked(v)) ids = false;
  }
  // An ObjectId in byte order: its three 32-bit words, unsigned, one column each.
  if (ids)
    return {
      columns: idWordColumns(size, positions, (p) => values[p * w + f])!,
      rankCounts: [undefined, undefined, undefined],
    };
  const column = new Float64Array(size);
  if (numbers || dates) {
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k];
      const v = values[p * w + f];
      column[p] = numbers ? (v as number) : (v as Date).getTime();
    }
    // Ranked over the whole column: a position left out (0) may add a rank, which changes no entry's order.
    return { columns: [column], rankCounts: [await toDenseRanks(column, pause)] };
  }
  // Strings, dates (by time) and the other scalars in maps of their own: "1" and 1 are distinct values.
  const strings = new Map<string, number>();
  const times = new Map<number, number>();
  const others = new Map<unknown, number>();
  const distinct: unknown[] = [];
  for (let k = 0; k < positions.length; k++) {
    const p = positions[k];
    const v = values[p * w + f];
    const t = typeof v;
    let map: Map<unknown, number>;
    let key: unknown = v;
    if (t === "string") map = strings as Map<unknown, number>;
    else if (v instanceof Date) {
      map = times as Map<unknown, number>;
      key = v.getTime();
    } else if (t === "number" || t === "boolean" || v === null || v === undefined) map = others;
    else return undefined;
    let slot = map.get(key);
    if (slot === undefined) {
      slot = distinct.length;
      distinct.push(v);
      map.set(key, slot);
    }
    column[p] = slot;
  }
  const byValue = distinct.map((_, i) => i).sort((a, b) => compareValues(distinct[a], distinct[b]));
  const rankOfSlot = new Float64Array(distinct.length);
  let rank = 0;
  for (let k = 0; k < byValue.length; k++) {
    if (k > 0 && compareValues(distinct[byValue[k - 1]], distinct[byValue[k]]) !== 0) rank++;
    rankOfSlot[byValue[k]] = rank;
  }
  for (let k = 0; k < positions.length; k++) column[positions[k]] = rankOfSlot[column[positions[k]]];
  return { columns: [column], rankCounts: [distinct.length === 0 ? 0 : rank + 1] };
}

/**
 * The three 32-bit words (unsigned) of the ObjectId at each of `positions`, in columns of `size` by position; undefined
 * when one of them is not an ObjectId.
 */
export function idWordColumns(
  size: number,
  positions: Iterable<number>,
  idAt: (position: number) => unknown,
): Float64Array[] | undefined {
  const words = [new Float64Array(size), new Float64Array(size), new Float64Array(size)];
  for (const p of positions) {
    const id = idAt(p);
    if (!isPacked(id)) return undefined;
    words[0][p] = id.w0 >>> 0;
    words[1][p] = id.w1 >>> 0;
    words[2][p] = id.w2 >>> 0;
  }
  return words;
}

/** Numbers in the order of an index's key values (sortColumns): one column per value, or three per ObjectId. */
export type SortColumns = {
  columns: Float64Array[];
  directions: (1 | -1)[];
  /** Per column: how many distinct ranks it holds (0..n−1) when its numbers are ranks, else undefined. */
  rankCounts: (number | undefined)[];
  /** Per column: the key field it comes from (an ObjectId field gives three columns). */
  fieldOf: number[];
};
