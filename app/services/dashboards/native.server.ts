import { EJSON } from "bson";
import { ObjectId, type Document } from "mongodb";
import { getDb } from "~/db.server";
import type { ChartKind, DashboardChart } from "~/models/dashboards.server";

/**
 * The native dashboard provider: each chart's aggregation pipeline, stored with the dashboard record by
 * an administrator, runs against its collection. Nothing from the request enters a pipeline. Every
 * run is capped in rows and time so a bad definition cannot hold the server.
 */

export const CHART_ROW_CAP = 500;
export const CHART_TIME_BUDGET_MS = 5_000;

/** A cell of a chart result as the browser receives it. */
export type ChartValue = string | number | boolean | null;
export type ChartRow = Record<string, ChartValue>;

export type ChartResult = {
  id: string;
  title: string;
  kind: ChartKind;
  rows: ChartRow[];
  /** Set when the pipeline could not run; the page shows it in an alert in place of the chart. */
  error?: string;
};

/** Stages that write, run code or inspect the server are refused even from an administrator's record. */
const FORBIDDEN_STAGES = new Set(["$out", "$merge", "$currentOp", "$listSessions", "$function", "$accumulator"]);

function containsForbiddenOperator(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = containsForbiddenOperator(item);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === "object" && !(value instanceof Date) && !(value as { _bsontype?: string })._bsontype) {
    for (const [key, inner] of Object.entries(value)) {
      if (FORBIDDEN_STAGES.has(key) || key === "$where") return key;
      const found = containsForbiddenOperator(inner);
      if (found) return found;
    }
  }
  return undefined;
}

/** Parses a stored pipeline (EJSON text) and checks its shape; throws an Error with a readable message. */
export function parseStoredPipeline(text: string): Document[] {
  let parsed: unknown;
  try {
    parsed = EJSON.parse(text, { relaxed: false });
  } catch {
    throw new Error("pipeline is not valid EJSON");
  }
  if (!Array.isArray(parsed) || parsed.some((stage) => !stage || typeof stage !== "object" || Array.isArray(stage))) {
    throw new Error("pipeline must be a list of stages");
  }
  for (const stage of parsed as Document[]) {
    if (Object.keys(stage).length !== 1 || !Object.keys(stage)[0].startsWith("$")) throw new Error("each stage must have exactly one $operator");
  }
  const forbidden = containsForbiddenOperator(parsed);
  if (forbidden) throw new Error(`the operator ${forbidden} is not allowed in a dashboard pipeline`);
  return parsed as Document[];
}

/** A result value as plain JSON the charts can draw. */
export function toChartValue(value: unknown): ChartValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof ObjectId) return value.toHexString();
  const bsonType = (value as { _bsontype?: string })._bsontype;
  if (bsonType === "Decimal128" || bsonType === "Long" || bsonType === "Int32" || bsonType === "Double") return Number(String(value));
  if (bsonType) return String(value);
  return JSON.stringify(value);
}

const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,119}$/;

/** Runs one chart. A failure becomes the chart's `error`, so one broken chart leaves the others drawn. */
export async function runChart(chart: DashboardChart): Promise<ChartResult> {
  const base = { id: chart.id, title: chart.title, kind: chart.kind };
  try {
    if (!COLLECTION_NAME.test(chart.collection) || chart.collection.startsWith("system.")) {
      throw new Error(`invalid collection name`);
    }
    const pipeline = [...parseStoredPipeline(chart.pipeline), { $limit: CHART_ROW_CAP }];
    const db = await getDb();
    const documents = await db.collection(chart.collection).aggregate(pipeline, { maxTimeMS: CHART_TIME_BUDGET_MS }).toArray();
    const rows = documents.map((doc) => Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, toChartValue(v)])));
    return { ...base, rows };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...base, rows: [], error: reason };
  }
}

/** Runs every chart of a dashboard at once. */
export async function runCharts(charts: readonly DashboardChart[] | undefined): Promise<ChartResult[]> {
  return Promise.all((charts ?? []).map(runChart));
}
