import type { Collection, Document, Filter } from "mongodb";

/**
 * The number of documents a filter matches, read the cheap way: an empty filter from the collection's
 * metadata (`estimatedDocumentCount`; `countDocuments({})` reads every document on MongoDB), any other
 * filter with `countDocuments`, which an index on the filtered fields answers without reading documents.
 */
export function countMatching<T extends Document>(collection: Collection<T>, filter: Filter<T>): Promise<number> {
  return Object.keys(filter).length === 0 ? collection.estimatedDocumentCount() : collection.countDocuments(filter);
}
