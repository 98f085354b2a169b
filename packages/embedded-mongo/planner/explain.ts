/**
 * Explain: a plan described in the shape MongoDB's explain uses (stage / inputStage / indexName / indexBounds), and
 * its one-line summary.
 */
import type { Index } from "../storage/indexes";
import { describeTextQuery } from "../text";
import type { Doc } from "../values";
import { boundsText, intervalText } from "./bounds";
import type { IndexScanPlan, KeyRange, Plan, PlannedQuery } from "./plan";

function indexBounds(plan: IndexScanPlan): Doc {
  const out: Doc = {};
  plan.index.fields.forEach((f, i) => {
    const dir = (plan.index.directions[i] * plan.direction) as 1 | -1;
    const intervals = dir === 1 ? plan.fieldIntervals[i] : [...plan.fieldIntervals[i]].reverse();
    out[f] = intervals.map((iv) => intervalText(iv, dir));
  });
  return out;
}

/** The bounds of one exploded range of a plan, field by field, in scan order. */
function rangeBounds(plan: IndexScanPlan, r: KeyRange): Doc {
  const out: Doc = {};
  plan.index.fields.forEach((f, i) => {
    const [a, b] = plan.direction === 1 ? [r.start[i], r.end[i]] : [r.end[i], r.start[i]];
    out[f] = [`${a.inc ? "[" : "("}${boundsText(a.v)}, ${boundsText(b.v)}${b.inc ? "]" : ")"}`];
  });
  return out;
}

function multiKeyPaths(index: Index): Doc {
  const out: Doc = {};
  for (const f of index.fields) out[f] = index.multikeyFields.has(f) ? [f] : [];
  return out;
}

export function planStage(plan: Plan, q: Pick<PlannedQuery, "filter" | "sort">, forCount = false): Doc {
  const filterOf = (exact: boolean) => (exact || Object.keys(q.filter).length === 0 ? {} : { filter: q.filter });
  switch (plan.kind) {
    case "eof":
      return { stage: "EOF" };
    case "idhack":
      return { stage: "IDHACK" };
    case "collscan":
      return { stage: "COLLSCAN", ...filterOf(false), direction: plan.direction === 1 ? "forward" : "backward" };
    case "ixscan": {
      const ix = {
        stage: forCount && plan.exact && !plan.index.isMultikey ? "COUNT_SCAN" : "IXSCAN",
        keyPattern: { ...plan.index.spec.key },
        indexName: plan.index.name,
        isMultiKey: plan.index.isMultikey,
        multiKeyPaths: multiKeyPaths(plan.index),
        isUnique: plan.index.unique,
        isSparse: plan.index.spec.sparse === true,
        isPartial: !!plan.index.spec.partialFilterExpression,
        indexVersion: 2,
        direction: plan.direction === 1 ? "forward" : "backward",
        indexBounds: indexBounds(plan),
      };
      if (ix.stage === "COUNT_SCAN") return ix;
      if (plan.mergeSort) {
        return {
          stage: "FETCH",
          ...filterOf(plan.exact),
          // One scan per exploded point, each with its own bounds (as MongoDB shows them).
          inputStage: {
            stage: "SORT_MERGE",
            sortPattern: Object.fromEntries(q.sort ?? []),
            inputStages: plan.ranges.map((r) => ({ ...ix, indexBounds: rangeBounds(plan, r) })),
          },
        };
      }
      return { stage: "FETCH", ...filterOf(plan.exact), inputStage: ix };
    }
    case "or":
      return {
        stage: "SUBPLAN",
        inputStage: {
          stage: "FETCH",
          filter: q.filter,
          inputStage: {
            stage: "OR",
            inputStages: plan.branches.map((b) => planStage(b, { filter: {}, sort: undefined })),
          },
        },
      };
    case "text":
      return {
        stage: "TEXT_MATCH",
        indexPrefix: {},
        indexName: plan.index.name,
        parsedTextQuery: describeTextQuery(plan.query),
        textIndexVersion: 3,
        inputStage: {
          stage: "FETCH",
          inputStage: {
            stage: "TEXT_OR",
            inputStages: plan.query.termsForBounds.map((term) => ({
              stage: "IXSCAN",
              keyPattern: { ...plan.index.spec.key },
              indexName: plan.index.name,
              isMultiKey: true,
              isUnique: false,
              isSparse: false,
              isPartial: false,
              indexVersion: 2,
              direction: "backward",
              indexBounds: {},
              term,
            })),
          },
        },
      };
  }
}

/** A one-line summary as the profiler and the logs write it: "IXSCAN { user: 1 }", "COLLSCAN". */
export function planSummary(plan: Plan, forCount = false): string {
  switch (plan.kind) {
    case "eof":
      return "EOF";
    case "idhack":
      return "IDHACK";
    case "collscan":
      return "COLLSCAN";
    case "ixscan": {
      const keys = Object.entries(plan.index.spec.key)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ");
      return `${forCount && plan.exact && !plan.index.isMultikey ? "COUNT_SCAN" : "IXSCAN"} { ${keys} }`;
    }
    case "or":
      return plan.branches.map((b) => planSummary(b)).join(", ");
    case "text":
      return `IXSCAN { _fts: "text", _ftsx: 1 }`;
  }
}
