/**
 * What index builds share: the documents as arrays by position (snapshotOf), the order of a flat build's entries
 * (flatOrder, by the numbers of index-order.ts where the values allow), the pause between slices of a build beside
 * the commands, and the shapes a start's loads hand the builds and count them in.
 */
import { compareValues } from "../bson-order";
import type { Doc } from "../values";
import { compareIds } from "./index-entry";
import {
  compareIdWordsAt,
  type FieldColumns,
  type IdRanks,
  idRanksOf,
  idWordColumns,
  packedOrder,
  sortColumns,
  sortInRuns,
} from "./index-order";

/** A start's recorded order of an index left to build later (Index.defer): the snapshot's documents in file order. */
export type DeferredOrder = {
  docs: Doc[];
  ids: string[];
  order: Uint32Array;
  ns: string;
  docMap: Map<string, Doc>;
  /**
   * Writes made since the index was deferred (a journal's over the load, then the commands'), in order: made once the
   * order is built (IndexTree.keptForLater).
   */
  after?: [write: "add" | "remove", idKey: string, doc: Doc][];
};

/** A snapshot's documents in file order, each index's recorded order, and which of these were recorded sorted. */
export type StoredOrders = {
  docs: Doc[];
  ids: string[];
  orders: Map<string, Uint32Array>;
  sorted: Set<string>;
  /** The documents were loaded cold (cold.ts): every one the journal did not change since the snapshot. */
  cold: boolean;
};

/**
 * How a load built a collection's indexes: from the snapshot's recorded order, or by sorting; `uncompared`: of those in
 * order, the ones taken without comparing their entries (recorded sorted: StoredOrder).
 */
export type IndexBuildCounts = { inOrder: number; sorted: number; uncompared: number };

/**
 * A start's builds of one collection's indexes; `unrecorded`: indexes whose order a snapshot records that were sorted
 * instead (their recorded order missing, or not holding).
 */
export type CollectionBuildCounts = IndexBuildCounts & { unrecorded: number };

/**
 * What the builds from one snapshot share: the three words of each document's _id when all are ObjectIds (null: not
 * all are), and their ranks (`idRanks`, made by the first build that sorts by numbers); `keepOrderAt`: each index a
 * sort builds keeps the order it sorted (Index.builtOrder), valid while the collection's docWrites is this;
 * `columns`: each key field's columns (sortColumns), made by the first build that holds the field.
 */
export type BuildShared = {
  idWords?: Float64Array[] | null;
  idRanks?: IdRanks;
  keepOrderAt?: number;
  columns?: Map<string, FieldColumns>;
};

/** A collection's documents and their ids as two arrays by position (what a build sorts). */
export function snapshotOf(docs: Map<string, Doc>): { ids: string[]; docs: Doc[] } {
  const ids = new Array<string>(docs.size);
  const list = new Array<Doc>(docs.size);
  let at = 0;
  for (const [idKey, doc] of docs) {
    ids[at] = idKey;
    list[at++] = doc;
  }
  return { ids, docs: list };
}

/**
 * The positions of a flat build's entries (Index.sortFlat: `values` holds each document's key values then its id
 * key, `fields.length + 1` values a document) in index order, and the comparison of two positions' keys.
 */
export async function flatOrder(
  values: unknown[],
  fields: string[],
  dirs: (1 | -1)[],
  positions: number[],
  docs: Doc[],
  pause: () => Promise<void>,
  shared: BuildShared,
): Promise<{ sorted: number[]; compareKeysAt: (i: number, j: number) => number }> {
  const n = fields.length;
  const w = n + 1;
  // Each key value replaced by a number in the same order (sortColumns), where every value is a scalar or a
  // date: a comparison is then a few comparisons of numbers.
  // Every document has an entry: a field's column is the same for each index of the command that holds it.
  const byField = positions.length === docs.length ? (shared.columns ??= new Map()) : undefined;
  const sorting = await sortColumns(values, w, n, positions, docs.length, dirs, pause, byField && { fields, byField });
  const columns = sorting?.columns ?? [];
  const columnDirs = sorting?.directions ?? [];
  const compareKeysAt = sorting
    ? (i: number, j: number): number => {
        for (let c = 0; c < columns.length; c++) {
          const a = columns[c][i];
          const b = columns[c][j];
          if (a !== b) return a < b ? -columnDirs[c] : columnDirs[c];
        }
        return 0;
      }
    : (i: number, j: number): number => {
        const a = i * w;
        const b = j * w;
        for (let f = 0; f < n; f++) {
          const c = compareValues(values[a + f], values[b + f]);
          if (c !== 0) return c * dirs[f];
        }
        return 0;
      };
  // Equal keys go by the documents' ids (their keyOf strings); for ObjectIds that is the order of their words.
  if (sorting && shared.idWords === undefined)
    shared.idWords = idWordColumns(docs.length, docs.keys(), (p) => docs[p]._id) ?? null;
  const idWords = sorting ? shared.idWords : undefined;
  const compareIdsAt = idWords
    ? compareIdWordsAt(idWords)
    : (i: number, j: number): number => compareIds(values[i * w + n] as string, values[j * w + n] as string);
  const compare = (i: number, j: number): number => compareKeysAt(i, j) || compareIdsAt(i, j);
  // Where the key's ranks and the ids' ranks fit in one exact number per entry: a native sort of those numbers.
  if (sorting && idWords && !shared.idRanks) shared.idRanks = await idRanksOf(idWords, docs.length, pause);
  const idField = fields.indexOf("_id");
  const idKey = idField < 0 ? undefined : { field: idField, descending: dirs[idField] < 0 };
  const sorted =
    (sorting && idWords && (await packedOrder(sorting, positions, shared.idRanks!, pause, idKey))) ||
    (await sortInRuns(positions, compare, pause));
  return { sorted, compareKeysAt };
}

let buildSliceMs = 8;

/** Tests: index builds yield at every pause (0) instead of after 8 ms of work; undefined restores the default. */
export function setIndexBuildSlice(ms: number | undefined): void {
  buildSliceMs = ms ?? 8;
}

/** A pause for long work beside the commands: yields to them once the current slice has run for 8 ms. */
export function slicePause(): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < buildSliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    start = performance.now();
  };
}
