import { BTree } from "../btree";
import { type Doc, pathValues } from "../values";
import type { Catalog } from "./catalog";
import { entryId } from "./index-entry";
import { Index } from "./indexes";

/**
 * Deletes documents whose TTL-indexed date field is older than the index's
 * expireAfterSeconds (arrays: the earliest date counts, as in MongoDB).
 * Walks the index from its start, so only expired entries are read.
 * Returns how many were removed.
 */
export function expireDocuments(catalog: Catalog, now = Date.now()): number {
  let removed = 0;
  if (catalog.loading) return 0;
  for (const colls of [...catalog.dbs.values()]) {
    for (const coll of [...colls.values()]) {
      for (const index of coll.indexes.values()) {
        const seconds = index.spec.expireAfterSeconds;
        if (typeof seconds !== "number" || !(index instanceof Index) || index.fields.length !== 1) continue;
        const field = index.fields[0];
        const cutoff = now - seconds * 1000;
        const expired = new Map<string, Doc>();
        // Dates sort after every other type; seek to the first date and walk while expired (both directions of the index).
        const ascending = index.directions[0] === 1;
        const { pos } = index.tree.seek((e) =>
          index.compareKeys(e[0], ascending ? new Date(-8.64e15) : new Date(cutoff)),
        );
        for (;;) {
          const e = BTree.entryAt(pos);
          if (!e) break;
          pos.i++;
          const key = e[0];
          if (!(key instanceof Date)) {
            if (ascending) break;
            continue;
          }
          if (key.getTime() > cutoff) {
            if (ascending) break;
            continue;
          }
          const id = entryId(e);
          const doc = coll.docs.get(id);
          if (!doc) continue;
          const dates = pathValues(doc, field).filter((v): v is Date => v instanceof Date);
          if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) <= cutoff) expired.set(id, doc);
        }
        for (const doc of expired.values()) catalog.remove(coll, doc);
        removed += expired.size;
      }
    }
  }
  return removed;
}
