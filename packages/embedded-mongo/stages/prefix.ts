/** The leading stages of a pipeline that the query planner answers instead of the stage chain. */
import { MongoCommandError } from "../errors";
import type { SortSpec } from "../planner/plan";
import { normaliseSort } from "../planner/sort";
import { type Doc, isPlainObject } from "../values";
import { positive, stageName } from "./stage";

export type Prefix = { filter: Doc; sort?: SortSpec; skip: number; limit: number; rest: Doc[]; hasText: boolean };

/**
 * Splits off the leading stages the planner answers: $match (merged), then $sort, $skip, $limit. A top-level
 * pipeline's (pipeline.ts) and a $lookup or $unionWith sub-pipeline's (sub-pipeline.ts) alike.
 */
export function splitPrefix(pipeline: Doc[]): Prefix {
  const matches: Doc[] = [];
  let i = 0;
  while (i < pipeline.length && isPlainObject(pipeline[i]) && stageName(pipeline[i]) === "$match") {
    const m = pipeline[i].$match;
    if (!isPlainObject(m))
      throw new MongoCommandError("BadValue", "the match filter must be an expression in an object");
    if (i > 0 && JSON.stringify(m).includes('"$text"')) {
      throw new MongoCommandError("BadValue", "$match with $text is only allowed as the first pipeline stage");
    }
    matches.push(m);
    i++;
  }
  const filter = matches.length === 0 ? {} : matches.length === 1 ? matches[0] : { $and: matches };
  let sort: SortSpec | undefined;
  if (i < pipeline.length && stageName(pipeline[i]) === "$sort" && isPlainObject(pipeline[i].$sort)) {
    sort = normaliseSort(pipeline[i].$sort as Doc);
    if (!sort) throw new MongoCommandError("BadValue", "$sort stage must have at least one sort key");
    i++;
  }
  let skip = 0;
  let limit = 0;
  if (i < pipeline.length && stageName(pipeline[i]) === "$skip" && typeof pipeline[i].$skip === "number") {
    skip = positive(pipeline[i].$skip, "$skip", true);
    i++;
  }
  if (i < pipeline.length && stageName(pipeline[i]) === "$limit" && typeof pipeline[i].$limit === "number") {
    limit = positive(pipeline[i].$limit, "$limit", false);
    i++;
  }
  return { filter, sort, skip, limit, rest: pipeline.slice(i), hasText: "$text" in filter };
}
