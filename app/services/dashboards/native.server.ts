import { EJSON } from "bson";
import { ObjectId, type Document } from "mongodb";
import { getDb } from "~/db.server";
import { messages } from "~/messages";
import { CHART_COLLECTIONS, CHART_PIPELINE_STAGES, dashboardChartSchema, type ChartKind, type DashboardChart } from "~/models/dashboards.server";

/**
 * The native dashboard provider: each chart's aggregation pipeline, stored with the dashboard record by
 * an administrator, runs against its collection. Nothing from the request enters a pipeline. A stored
 * definition is checked again at every read (stages and collections against allowlists), because the
 * record may have been written by hand; every run is capped in rows and time.
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
  /** Header / legend names of result fields, from the chart definition. */
  labels: Record<string, string>;
  /** Set when the chart could not run; the page shows it in an alert in place of the chart. */
  error?: string;
};

/** A definition problem whose message (Portuguese, from messages.ts) is safe to show. */
class ChartDefinitionError extends Error {
  override name = "ChartDefinitionError";
}

const ALLOWED_STAGES: ReadonlySet<string> = new Set(CHART_PIPELINE_STAGES);
const ALLOWED_COLLECTIONS: ReadonlySet<string> = new Set(CHART_COLLECTIONS);
/** Operators that run code, at any depth of an expression. */
const FORBIDDEN_OPERATORS: ReadonlySet<string> = new Set(["$where", "$function", "$accumulator"]);

function isChartCollection(name: unknown): name is string {
  return typeof name === "string" && ALLOWED_COLLECTIONS.has(name);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) && !(value as { _bsontype?: string })._bsontype;

function assertNoForbiddenOperator(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) assertNoForbiddenOperator(item);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (FORBIDDEN_OPERATORS.has(key)) throw new ChartDefinitionError(messages.chartOperatorNotAllowed(key));
    assertNoForbiddenOperator(inner);
  }
}

/** Checks one pipeline level: every stage allowlisted, sub-pipelines and `from` collections included. */
function assertAllowedPipeline(pipeline: unknown): asserts pipeline is Document[] {
  if (!Array.isArray(pipeline)) throw new ChartDefinitionError(messages.chartPipelineNotList);
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) throw new ChartDefinitionError(messages.chartPipelineNotList);
    const keys = Object.keys(stage);
    if (keys.length !== 1 || !keys[0].startsWith("$")) throw new ChartDefinitionError(messages.chartStageShape);
    const [name] = keys;
    if (!ALLOWED_STAGES.has(name)) throw new ChartDefinitionError(messages.chartStageNotAllowed(name));
    const body = stage[name];
    if (name === "$lookup" || name === "$graphLookup") {
      const from = isPlainObject(body) ? body.from : undefined;
      // A $lookup without `from` reads a $documents sub-pipeline; $documents is not allowed either.
      if (!isChartCollection(from)) throw new ChartDefinitionError(messages.chartCollectionNotAllowed(String(from ?? "")));
      if (name === "$lookup" && isPlainObject(body) && body.pipeline !== undefined) assertAllowedPipeline(body.pipeline);
    }
    if (name === "$facet") {
      if (!isPlainObject(body)) throw new ChartDefinitionError(messages.chartPipelineNotList);
      for (const inner of Object.values(body)) assertAllowedPipeline(inner);
    }
  }
}

/** Parses a stored pipeline (EJSON text) and checks it; throws a ChartDefinitionError with a readable message. */
export function parseStoredPipeline(text: string): Document[] {
  let parsed: unknown;
  try {
    parsed = EJSON.parse(text, { relaxed: false });
  } catch {
    throw new ChartDefinitionError(messages.chartPipelineNotEjson);
  }
  assertAllowedPipeline(parsed);
  assertNoForbiddenOperator(parsed);
  return parsed;
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

/** The stored shape of a chart; a record written by hand may hold anything. */
function errorResult(index: number, raw: unknown, error: string): ChartResult {
  const title = isPlainObject(raw) && typeof raw.title === "string" && raw.title ? raw.title : messages.chartUntitled;
  return { id: `chart-${index + 1}`, title, kind: "table", rows: [], labels: {}, error };
}

/** Runs one chart. A failure becomes the chart's `error`, so one broken chart leaves the others drawn. */
export async function runChart(raw: unknown, index = 0): Promise<ChartResult> {
  const parsed = dashboardChartSchema.safeParse(raw);
  if (!parsed.success) return errorResult(index, raw, messages.chartInvalidDefinition);
  const chart: DashboardChart = parsed.data;
  const base = { id: chart.id, title: chart.title, kind: chart.kind, labels: chart.labels ?? {} };
  let pipeline: Document[];
  try {
    if (!isChartCollection(chart.collection)) throw new ChartDefinitionError(messages.chartCollectionNotAllowed(chart.collection));
    pipeline = [...parseStoredPipeline(chart.pipeline), { $limit: CHART_ROW_CAP }];
  } catch (error) {
    if (error instanceof ChartDefinitionError) return { ...base, rows: [], error: error.message };
    throw error;
  }
  try {
    const db = await getDb();
    const documents = await db.collection(chart.collection).aggregate(pipeline, { maxTimeMS: CHART_TIME_BUDGET_MS }).toArray();
    const rows = documents.map((doc) => Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, toChartValue(v)])));
    return { ...base, rows };
  } catch (error) {
    // The database's own wording stays in the log; the page gets a sentence in Portuguese.
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(JSON.stringify({ level: "warn", msg: "dashboard chart failed", chart: chart.id, reason }));
    return { ...base, rows: [], error: messages.chartRunFailed };
  }
}

/** Runs every chart of a dashboard at once. A `charts` that is not a list shows one error, not a 500. */
export async function runCharts(charts: unknown): Promise<ChartResult[]> {
  if (charts === undefined || charts === null) return [];
  if (!Array.isArray(charts)) return [{ id: "charts", title: messages.chartFailed, kind: "table", rows: [], labels: {}, error: messages.chartsInvalid }];
  return Promise.all(charts.map((chart, index) => runChart(chart, index)));
}
