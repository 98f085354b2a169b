/** The explain command, in the shape mongod gives (queryPlanner, executionStats, serverInfo). */
import { collectionName, docArg, numberArg } from "./args";
import { MongoCommandError } from "./errors";
import { ExecContext } from "./exec";
import { compileFilter } from "./filters";
import { planQuery } from "./planner/choose";
import { planStage } from "./planner/explain";
import { normaliseSort } from "./planner/sort";
import type { ReadOutcome } from "./profiler";
import { type RunnerState, readAggregate, readCount, readDistinct, readFind } from "./reads";
import { notablescanOf } from "./stages/stage";
import { type Doc, isPlainObject } from "./values";

export async function explain(runner: RunnerState, cmd: Doc, db: string): Promise<Doc> {
  const inner = cmd.explain;
  if (!isPlainObject(inner)) throw new MongoCommandError("BadValue", "explain command requires a nested object");
  const verbosity = typeof cmd.verbosity === "string" ? cmd.verbosity : "allPlansExecution";
  if (!["queryPlanner", "executionStats", "allPlansExecution"].includes(verbosity)) {
    throw new MongoCommandError(
      "FailedToParse",
      `verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}`,
    );
  }
  const name = Object.keys(inner)[0];
  const innerDb = typeof inner.$db === "string" ? inner.$db : db;
  const withStats = verbosity !== "queryPlanner";
  let out: ReadOutcome;
  let wrap: (stage: Doc) => Doc = (stage) => stage;
  switch (name) {
    case "find": {
      out = await readFind(runner, { ...inner, batchSize: undefined }, innerDb, true);
      const skip = numberArg(inner.skip, "skip");
      const limit = Math.abs(numberArg(inner.limit, "limit"));
      const q = out.plans[0];
      wrap = (stage) => {
        let s = stage;
        if (q.blockingSort) {
          s = {
            stage: "SORT",
            sortPattern: docArg(inner.sort, "sort"),
            memLimit: 104857600,
            ...(limit > 0 ? { limitAmount: skip + limit } : {}),
            type: "simple",
            inputStage: s,
          };
          if (skip > 0) s = { stage: "SKIP", skipAmount: skip, inputStage: s };
        } else {
          if (skip > 0) s = { stage: "SKIP", skipAmount: skip, inputStage: s };
          if (limit > 0) s = { stage: "LIMIT", limitAmount: limit, inputStage: s };
        }
        if (isPlainObject(inner.projection) && Object.keys(inner.projection).length > 0) {
          s = { stage: "PROJECTION_DEFAULT", transformBy: inner.projection, inputStage: s };
        }
        return s;
      };
      break;
    }
    case "count":
      out = await readCount(runner, inner, innerDb, true);
      wrap = (stage) => ({ stage: "COUNT", inputStage: stage });
      break;
    case "distinct":
      if (typeof inner.key !== "string" || inner.key === "")
        throw new MongoCommandError("BadValue", "distinct needs a string 'key'");
      out = await readDistinct(runner, inner, innerDb, true);
      break;
    case "aggregate":
      out = await readAggregate(runner, inner, innerDb);
      break;
    case "update":
    case "delete":
    case "findAndModify":
    case "findandmodify": {
      const coll = runner.catalog.getCollection(innerDb, collectionName(inner));
      const stmt =
        name === "update"
          ? Array.isArray(inner.updates)
            ? inner.updates[0]
            : undefined
          : name === "delete"
            ? Array.isArray(inner.deletes)
              ? inner.deletes[0]
              : undefined
            : inner;
      const filter = docArg(
        isPlainObject(stmt) ? (name === "findAndModify" || name === "findandmodify" ? stmt.query : stmt.q) : undefined,
        "filter",
      );
      const sort =
        isPlainObject(stmt) && stmt.sort !== undefined ? normaliseSort(docArg(stmt.sort, "sort")) : undefined;
      const q = planQuery(coll, `${innerDb}.${collectionName(inner)}`, filter, compileFilter(filter), {
        sort,
        hint: isPlainObject(stmt) ? stmt.hint : undefined,
        notablescan: notablescanOf(runner.params),
      });
      const ctx = new ExecContext();
      out = { docs: [], plans: [q], stats: { keysExamined: 0, docsExamined: 0 }, ctx, nReturned: 0 };
      wrap = (stage) => ({ stage: name === "delete" ? "DELETE" : "UPDATE", inputStage: stage });
      break;
    }
    default:
      throw new MongoCommandError("CommandNotFound", `Explain failed due to unknown command: ${name}`);
  }
  const q = out.plans[0];
  const forCount = out.countOnly === true;
  const winningPlan =
    out.stages && name === "distinct"
      ? out.stages[0]
      : q
        ? wrap(planStage(q.plan, q, forCount))
        : wrap({ stage: "COUNT" });
  const queryPlanner: Doc = {
    namespace: q?.ns ?? `${innerDb}.${String(inner[name])}`,
    indexFilterSet: false,
    parsedQuery: q?.filter ?? {},
    maxIndexedOrSolutionsReached: false,
    maxIndexedAndSolutionsReached: false,
    maxScansToExplodeReached: false,
    winningPlan,
    rejectedPlans: q ? q.rejected.map((p) => planStage(p, q, forCount)) : [],
  };
  const executionStats: Doc = {
    executionSuccess: true,
    nReturned: out.nReturned ?? out.docs.length,
    executionTimeMillis: Math.round(out.ctx.elapsedMs),
    totalKeysExamined: out.stats.keysExamined,
    totalDocsExamined: out.stats.docsExamined,
    executionStages: {
      ...winningPlan,
      nReturned: out.nReturned ?? out.docs.length,
      executionTimeMillisEstimate: Math.round(out.ctx.elapsedMs),
    },
  };
  if (verbosity === "allPlansExecution") executionStats.allPlansExecution = [];
  const serverInfo = { host: "127.0.0.1", port: 0, version: "7.0.0", gitVersion: "embedded-mongo" };
  const base: Doc = { explainVersion: "1" };
  const restStages = name === "aggregate" ? (out.stages ?? []) : [];
  if (name === "aggregate" && (restStages.length > 0 || out.countOnly)) {
    const cursorStage: Doc = { queryPlanner };
    if (withStats) cursorStage.executionStats = executionStats;
    base.stages = [
      { $cursor: cursorStage, nReturned: out.nReturned ?? out.docs.length },
      ...restStages.map((s) => ({ ...s })),
    ];
  } else {
    base.queryPlanner = queryPlanner;
    if (withStats) base.executionStats = executionStats;
  }
  return { ...base, command: inner, serverInfo, serverParameters: { notablescan: runner.params.notablescan }, ok: 1 };
}
