import { createHash } from "node:crypto";
import { EJSON } from "bson";
import { type Document, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { dashboardTexts } from "~/messages";
import { dataStates, readCachedCharts, storeCachedChart } from "~/models/dashboard-cache.server";
import {
  CHART_COLLECTIONS,
  CHART_PIPELINE_STAGES,
  type ChartKind,
  type DashboardChart,
  dashboardChartSchema,
} from "~/models/dashboards.server";
import { FORECAST } from "~/models/forecast.server";
import { HR_AUX } from "~/models/hr.server";
import { trackBackgroundWork } from "~/shared/background-work.server";
import { CPF_FIELD, maskCpfCell, maskCpfsInText } from "~/shared/cpf";

/**
 * The native dashboard provider: each chart's aggregation pipeline, stored with the dashboard record by
 * an administrator, runs against its collection. Nothing from the request enters a pipeline. A stored
 * definition is checked again at every read (stages and collections against allowlists), because the
 * record may have been written by hand; every run is capped in rows and time.
 */

export const CHART_ROW_CAP = 500;
export const CHART_TIME_BUDGET_MS = 5_000;

import type { ChartRow, ChartValue } from "~/models/dashboards.fields";

export type { ChartRow, ChartValue } from "~/models/dashboards.fields";

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
  !!value &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  !(value instanceof Date) &&
  !(value as { _bsontype?: string })._bsontype;

function assertNoForbiddenOperator(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) assertNoForbiddenOperator(item);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (FORBIDDEN_OPERATORS.has(key)) throw new ChartDefinitionError(dashboardTexts.chartOperatorNotAllowed(key));
    assertNoForbiddenOperator(inner);
  }
}

/** Checks one pipeline level: every stage allowlisted, sub-pipelines and `from` collections included. */
function assertAllowedPipeline(pipeline: unknown): asserts pipeline is Document[] {
  if (!Array.isArray(pipeline)) throw new ChartDefinitionError(dashboardTexts.chartPipelineNotList);
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) throw new ChartDefinitionError(dashboardTexts.chartPipelineNotList);
    const keys = Object.keys(stage);
    if (keys.length !== 1 || !keys[0].startsWith("$")) throw new ChartDefinitionError(dashboardTexts.chartStageShape);
    const [name] = keys;
    if (!ALLOWED_STAGES.has(name)) throw new ChartDefinitionError(dashboardTexts.chartStageNotAllowed(name));
    const body = stage[name];
    if (name === "$lookup" || name === "$graphLookup") {
      const from = isPlainObject(body) ? body.from : undefined;
      // A $lookup without `from` reads a $documents sub-pipeline; $documents is not allowed either.
      if (!isChartCollection(from))
        throw new ChartDefinitionError(dashboardTexts.chartCollectionNotAllowed(String(from ?? "")));
      if (name === "$lookup" && isPlainObject(body) && body.pipeline !== undefined)
        assertAllowedPipeline(body.pipeline);
    }
    if (name === "$facet") {
      if (!isPlainObject(body)) throw new ChartDefinitionError(dashboardTexts.chartPipelineNotList);
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
    throw new ChartDefinitionError(dashboardTexts.chartPipelineNotEjson);
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
  if (bsonType === "Decimal128" || bsonType === "Long" || bsonType === "Int32" || bsonType === "Double")
    return Number(String(value));
  if (bsonType) return String(value);
  return JSON.stringify(value);
}

/** Collections whose rows hold CPFs (HR auxiliary data). */
const CPF_COLLECTIONS: ReadonlySet<string> = new Set([HR_AUX]);
function maskChartCell(field: string, value: ChartValue, readsCpfs: boolean): ChartValue {
  if (CPF_FIELD.test(field)) return maskCpfCell(value);
  return readsCpfs && typeof value === "string" ? maskCpfsInText(value) : value;
}

/**
 * A chart's rows as every screen shows HR data (spec 001 §5, "CPF is always masked"): a field named like a CPF is
 * masked in any chart; in a chart that reads HR auxiliary data (itself or through a $lookup) every CPF inside a text
 * is masked too: a renamed field, a group key, a label built with $concat, a looked-up list. Masking twice is
 * harmless.
 */
export function maskChartCpfs(rows: readonly ChartRow[], readsCpfs: boolean): ChartRow[] {
  return rows.map((row) => {
    const out: ChartRow = {};
    for (const [field, value] of Object.entries(row)) out[field] = maskChartCell(field, value, readsCpfs);
    return out;
  });
}

/** The stored shape of a chart; a record written by hand may hold anything. */
function errorResult(index: number, raw: unknown, error: string): ChartResult {
  const title =
    isPlainObject(raw) && typeof raw.title === "string" && raw.title ? raw.title : dashboardTexts.chartUntitled;
  return { id: `chart-${index + 1}`, title, kind: "table", rows: [], labels: {}, error };
}

/**
 * The rows of a collection a viewer may see (e.g. HR auxiliary data of the viewer's branches): a chart over that
 * collection runs behind a leading `$match` on `field`; a chart that reaches it through a `$lookup` is not run.
 */
export type RowFilter = { collection: string; field: string; values: readonly string[] };

/** Runs one chart. A failure becomes the chart's `error`, so one broken chart leaves the others drawn. */
export async function runChart(
  raw: unknown,
  index = 0,
  maxTimeMS = CHART_TIME_BUDGET_MS,
  filter?: RowFilter,
): Promise<ChartResult> {
  const parsed = dashboardChartSchema.safeParse(raw);
  if (!parsed.success) return errorResult(index, raw, dashboardTexts.chartInvalidDefinition);
  const chart: DashboardChart = parsed.data;
  const base = { id: chart.id, title: chart.title, kind: chart.kind, labels: chart.labels ?? {} };
  let pipeline: Document[];
  try {
    if (!isChartCollection(chart.collection))
      throw new ChartDefinitionError(dashboardTexts.chartCollectionNotAllowed(chart.collection));
    const scoped =
      filter && filter.collection === chart.collection
        ? [{ $match: { [filter.field]: { $in: filter.values.map(String) } } }]
        : [];
    pipeline = [...scoped, ...parseStoredPipeline(chart.pipeline), { $limit: CHART_ROW_CAP }];
  } catch (error) {
    if (error instanceof ChartDefinitionError) return { ...base, rows: [], error: error.message };
    throw error;
  }
  try {
    const db = await getDb();
    const documents = await db.collection(chart.collection).aggregate(pipeline, { maxTimeMS }).toArray();
    const rows = documents.map((doc) => Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, toChartValue(v)])));
    const readsCpfs = identityOf(chart).reads.some((name) => CPF_COLLECTIONS.has(name));
    // Masked before anything keeps or shows them: the figure cache, the screen, the weekly workbook.
    return { ...base, rows: maskChartCpfs(rows, readsCpfs) };
  } catch (error) {
    // The database's own wording stays in the log; the page gets a sentence in Portuguese.
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(JSON.stringify({ level: "warn", msg: "dashboard chart failed", chart: chart.id, reason }));
    return { ...base, rows: [], error: dashboardTexts.chartRunFailed };
  }
}

/**
 * How long cached figures are trusted without a change being announced: the bound on how stale a chart
 * can be after a write that did not call noteDataChanged (and did not change a document count). Every
 * write the portal makes to a chart collection announces itself, so this only bounds writes made outside
 * the portal (another system writing to the database) and the worker's heartbeats after a job's first.
 * Each time it passes, a dashboard in use recomputes its figures behind the views (a scan of up to 1 M
 * rows at scale 10), hence minutes rather than seconds.
 */
export const CHART_CACHE_MAX_AGE_MS = 10 * 60_000;

/** The collections a stored pipeline reads: its own and every `$lookup`/`$graphLookup` `from`, at any depth. */
function collectionsRead(chart: DashboardChart): { reads: string[]; lookups: string[] } {
  const out = new Set<string>([chart.collection]);
  const lookups = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isPlainObject(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      if ((key === "$lookup" || key === "$graphLookup") && isPlainObject(inner) && typeof inner.from === "string") {
        out.add(inner.from);
        lookups.add(inner.from);
      }
      visit(inner);
    }
  };
  try {
    visit(EJSON.parse(chart.pipeline, { relaxed: false }));
  } catch {
    // an unreadable pipeline fails in runChart with its own message
  }
  return { reads: [...out].filter(isChartCollection), lookups: [...lookups] };
}

/** What a chart's definition tells the cache: the digest of its collection and pipeline, and the collections it reads. */
type ChartIdentity = { digest: string; reads: string[]; lookups: string[] };
/**
 * Every view needs each chart's identity; the pipeline is parsed and hashed once per definition, not per view.
 * Keyed by the definition's text itself, so an edited chart simply gets a new entry.
 */
const identities = new Map<string, ChartIdentity>();
const IDENTITIES_MAX = 1_000;

function identityOf(chart: DashboardChart): ChartIdentity {
  const text = `${chart.collection}\u0000${chart.pipeline}`;
  let known = identities.get(text);
  if (!known) {
    if (identities.size >= IDENTITIES_MAX) identities.clear();
    known = { digest: createHash("sha1").update(text).digest("base64url"), ...collectionsRead(chart) };
    identities.set(text, known);
  }
  return known;
}

/** Charts being computed in this process, so concurrent views of a stale chart wait for one run. */
const computing = new Map<string, Promise<ChartResult>>();
/** Computations that failed, kept a little while so views do not start them again and again. */
const failed = new Map<string, { result: ChartResult; until: number }>();
const FAILURE_MEMORY_MS = 30_000;
/**
 * A computation for the cache may take this long (it runs once per data change, then every view reads
 * its result); a view waits for it only CHART_TIME_BUDGET_MS, then shows the previous figures or says
 * they are being computed.
 */
export const CHART_COMPUTE_BUDGET_MS = 120_000;
/**
 * The form of the rows the cache keeps, part of every key: raised when what a row may show changes (2: CPFs masked),
 * so figures cached in an older form are never shown again.
 */
const CACHED_ROWS_FORM = 2;

/**
 * Runs every chart of a dashboard, reading each chart's figures from the cache while the data it
 * reads is unchanged, and computing (once, however many views wait) when it changed. `scope` names
 * the dashboard (tenant and dashboardId). A `charts` that is not a list shows one error, not a 500.
 */
export async function runCharts(
  charts: unknown,
  scope = "dashboard",
  filters: readonly RowFilter[] = [],
): Promise<ChartResult[]> {
  if (charts === undefined || charts === null) return [];
  if (!Array.isArray(charts))
    return [
      {
        id: "charts",
        title: dashboardTexts.chartFailed,
        kind: "table",
        rows: [],
        labels: {},
        error: dashboardTexts.chartsInvalid,
      },
    ];
  const parsed = charts.map((raw) => dashboardChartSchema.safeParse(raw));
  const valid = parsed.flatMap((p) => (p.success && isChartCollection(p.data.collection) ? [p.data] : []));
  const identity = new Map(valid.map((chart) => [chart, identityOf(chart)]));
  // The filters that apply to a chart (every collection it reads that the viewer sees in part): its figures are cached
  // per set of rows it may read.
  const filtersOf = (chart: DashboardChart) => filters.filter((f) => identity.get(chart)!.reads.includes(f.collection));
  const filterKey = (applying: readonly RowFilter[]) =>
    applying.map((f) => `|${f.collection}.${f.field}:${[...f.values].sort().join("\u0001")}`).join("");
  const keyOf = (chart: DashboardChart) =>
    `${scope}:${chart.id}:${identity.get(chart)!.digest}:${CACHED_ROWS_FORM}${filterKey(filtersOf(chart))}`;
  const collections = [...new Set([...identity.values()].flatMap((id) => id.reads))];
  const [states, cached] = await Promise.all([dataStates(collections), readCachedCharts(valid.map(keyOf))]);
  const now = Date.now();
  return Promise.all(
    charts.map((raw, index) => {
      const p = parsed[index];
      if (!p.success || !identity.has(p.data)) return runChart(raw, index);
      const chart = p.data;
      const applying = filtersOf(chart);
      const unapplied = applying.find(
        (f) => f.collection !== chart.collection || identity.get(chart)!.lookups.includes(f.collection),
      );
      if (unapplied) {
        // Rows it may not see would reach the figures through a $lookup: not run for this viewer.
        return {
          id: chart.id,
          title: chart.title,
          kind: chart.kind,
          labels: chart.labels ?? {},
          rows: [],
          error:
            unapplied.collection === FORECAST
              ? dashboardTexts.chartCostCentresNotAllowed
              : dashboardTexts.chartRowsNotAllowed,
        };
      }
      // At most one is left: the one on the chart's own collection, applied as a leading $match.
      const filter = applying[0];
      const key = keyOf(chart);
      const fingerprint = identity
        .get(chart)!
        .reads.map((name) => states.get(name))
        .join(",");
      const hit = cached.get(key);
      // Figures of the same data state: shown at once. Past the maximum age they are recomputed behind the view
      // (nothing announced a change; the age only bounds what an unannounced write can leave stale).
      const sameData = hit !== undefined && hit.fingerprint === fingerprint;
      const cachedResult = sameData
        ? { id: chart.id, title: chart.title, kind: chart.kind, labels: chart.labels ?? {}, rows: hit.rows }
        : undefined;
      if (cachedResult && now - hit!.computedAt.getTime() < CHART_CACHE_MAX_AGE_MS) return cachedResult;
      const flight = `${key}|${fingerprint}`;
      const recent = failed.get(flight);
      if (recent && recent.until > now) return recent.result;
      let running = computing.get(flight);
      if (!running) {
        // A view that read the cache before another's computation stored its figures, and arrives after it ended, takes
        // those figures instead of computing them again.
        const storedMeanwhile = readCachedCharts([key]).then((found) => {
          const fresh = found.get(key);
          const newer =
            fresh &&
            fresh.fingerprint === fingerprint &&
            (!hit || fresh.computedAt.getTime() > hit.computedAt.getTime());
          return newer
            ? { id: chart.id, title: chart.title, kind: chart.kind, labels: chart.labels ?? {}, rows: fresh.rows }
            : null;
        });
        running = storedMeanwhile
          .then(
            (stored) =>
              stored ??
              runChart(raw, index, CHART_COMPUTE_BUDGET_MS, filter).then(async (result) => {
                if (!result.error)
                  await storeCachedChart({ _id: key, fingerprint, rows: result.rows, computedAt: new Date() }).catch(
                    () => undefined,
                  );
                else failed.set(flight, { result, until: Date.now() + FAILURE_MEMORY_MS });
                return result;
              }),
          )
          .finally(() => computing.delete(flight));
        computing.set(flight, trackBackgroundWork(running));
      }
      if (cachedResult) {
        running.catch(() => undefined);
        return cachedResult;
      }
      // The view waits a bounded time; meanwhile the previous figures (if any) stand in.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>(
        (resolve) => (timer = setTimeout(() => resolve(undefined), CHART_TIME_BUDGET_MS)),
      );
      return Promise.race([running, late]).then((done) => {
        clearTimeout(timer);
        if (done) return done;
        const base = { id: chart.id, title: chart.title, kind: chart.kind, labels: chart.labels ?? {} };
        return hit ? { ...base, rows: hit.rows } : { ...base, rows: [], error: dashboardTexts.chartComputing };
      });
    }),
  );
}
