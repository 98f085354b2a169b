import type { Collection, Document, Filter } from "mongodb";
import { aggregateTogether } from "./reads-together.server";

/**
 * The number of documents a filter matches, read the cheap way: an empty filter from the collection's
 * metadata (`estimatedDocumentCount`; `countDocuments({})` reads every document on MongoDB), any other
 * filter with `countDocuments`, which an index on the filtered fields answers without reading documents.
 */
export function countMatching<T extends Document>(collection: Collection<T>, filter: Filter<T>): Promise<number> {
  return Object.keys(filter).length === 0 ? collection.estimatedDocumentCount() : collection.countDocuments(filter);
}

/**
 * countMatching for a page's reads: a filter's count goes with the request's other reads of the same turn
 * (reads-together.server.ts) as the pipeline `countDocuments` sends; an empty filter stays the metadata count.
 */
export async function countMatchingTogether<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
): Promise<number> {
  if (Object.keys(filter).length === 0) return collection.estimatedDocumentCount();
  const [counted] = await aggregateTogether<{ n: number }>(collection.collectionName, [
    { $match: filter },
    { $group: { _id: 1, n: { $sum: 1 } } },
  ]);
  return counted?.n ?? 0;
}
