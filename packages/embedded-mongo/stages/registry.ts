/**
 * The aggregation stages by name: each name's factory builds its stage from the specification. A name that is
 * not here is refused: by name for mongod's stages the embedded server does not run, as unrecognised otherwise.
 */
import { MongoCommandError } from "../errors";
import { addFieldsStage } from "./add-fields";
import { bucketStage } from "./bucket";
import { bucketAutoStage } from "./bucket-auto";
import { countStage } from "./count";
import { facetStage } from "./facet";
import { fallbackStage, MINGO_STAGES } from "./fallback";
import { groupStage, sortByCountStage } from "./group";
import { lookupStage } from "./lookup";
import { matchStage } from "./match";
import { mergeStage } from "./merge";
import { outStage } from "./out";
import { projectStage, unsetStage } from "./project";
import { replaceRootStage, replaceWithStage } from "./replace-root";
import { limitStage, skipStage } from "./skip-limit";
import { sortStage } from "./sort";
import type { StageFactory } from "./stage";
import { unionWithStage } from "./union-with";
import { unwindStage } from "./unwind";

/** Stage name → factory (a Map: only these exact names, never an inherited property). */
export const STAGES: ReadonlyMap<string, StageFactory> = new Map<string, StageFactory>([
  ["$match", matchStage],
  ["$skip", skipStage],
  ["$limit", limitStage],
  ["$sort", sortStage],
  ["$count", countStage],
  ["$group", groupStage],
  ["$sortByCount", sortByCountStage],
  ["$addFields", addFieldsStage],
  ["$set", addFieldsStage],
  ["$project", projectStage],
  ["$unset", unsetStage],
  ["$unwind", unwindStage],
  ["$bucket", bucketStage],
  ["$bucketAuto", bucketAutoStage],
  ["$replaceRoot", replaceRootStage],
  ["$replaceWith", replaceWithStage],
  ["$facet", facetStage],
  ["$lookup", lookupStage],
  ["$unionWith", unionWithStage],
  ["$out", outStage],
  ["$merge", mergeStage],
  ...[...MINGO_STAGES].map((name): [string, StageFactory] => [name, fallbackStage]),
]);

/** mongod 7.0's other stages: refused by name rather than answered wrongly. */
export const MONGOD_STAGES = new Set([
  "$changeStream",
  "$changeStreamSplitLargeEvent",
  "$collStats",
  "$currentOp",
  "$geoNear",
  "$indexStats",
  "$listLocalSessions",
  "$listSampledQueries",
  "$listSearchIndexes",
  "$listSessions",
  "$planCacheStats",
  "$search",
  "$searchMeta",
  "$shardedDataDistribution",
  "$vectorSearch",
]);

/** The factory of a stage name, or the error mongod answers for a name it does not run here. */
export function stageFactory(name: string): StageFactory {
  const factory = STAGES.get(name);
  if (factory) return factory;
  if (MONGOD_STAGES.has(name))
    throw new MongoCommandError("IllegalOperation", `the ${name} stage is not supported by the embedded server`);
  throw new MongoCommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
}
