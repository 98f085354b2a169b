/** Sort specifications: a $sort document normalised (with $meta textScore), and documents compared by one. */
import { compareValues, sortValue } from "../bson-order";
import { MongoCommandError } from "../errors";
import { textScores } from "../expressions";
import { type Doc, isPlainObject, pathValues } from "../values";
import type { SortSpec } from "./plan";

/** The sort key of MongoDB's textScore sort (descending score). */
export const TEXT_SCORE_FIELD = "$textScore";

export function normaliseSort(sort: Doc | undefined): SortSpec | undefined {
  if (!sort || Object.keys(sort).length === 0) return undefined;
  const out: SortSpec = [];
  for (const [k, v] of Object.entries(sort)) {
    if (v === 1 || v === -1) out.push([k, v]);
    else if (typeof v === "number" && Number.isInteger(v) && v !== 0) out.push([k, v > 0 ? 1 : -1]);
    else if (isPlainObject(v) && v.$meta === "textScore") out.push([TEXT_SCORE_FIELD, -1]);
    else if (isPlainObject(v) && "$meta" in v)
      throw new MongoCommandError("BadValue", `unknown $meta sort: ${JSON.stringify(v)}`);
    else throw new MongoCommandError("BadValue", "$sort key ordering must be 1 (for ascending) or -1 (for descending)");
  }
  return out;
}

/** The value a document sorts by on one field (arrays: their smallest element ascending, largest descending). */
export function sortKeyOf(doc: Doc, field: string, direction: 1 | -1): unknown {
  if (field === TEXT_SCORE_FIELD) return textScores.get(doc) ?? 0;
  if (!field.includes(".")) {
    const v = doc[field];
    return Array.isArray(v) ? sortValue(v, direction) : v;
  }
  const values = pathValues(doc, field);
  if (values.length === 1) return values[0];
  return sortValue(values, direction);
}

export function compareDocs(a: Doc, b: Doc, sort: SortSpec): number {
  for (const [field, dir] of sort) {
    const c = compareValues(sortKeyOf(a, field, dir), sortKeyOf(b, field, dir));
    if (c !== 0) return c * dir;
  }
  return 0;
}
