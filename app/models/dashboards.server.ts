import type { ObjectId } from "mongodb";
import { z } from "zod";
import { ID_PARAM_MAX } from "~/shared/limits";
import { EXPLORER_DOCUMENTS } from "./explorer.server";
import { FILES } from "./files.server";
import { FINANCIAL_REPORTS } from "./financial.server";
import { FORECAST } from "./forecast.server";
import { HR_AUX } from "./hr.server";
import type { IndexDeclaration } from "./indexes";
import { MASTER_DATA_COLLECTION_NAMES, MASTER_DATA_COLLECTIONS } from "./master-data.server";
import { PLANNING_QUANTITY } from "./planning.server";
import { REPORTS } from "./reports.server";

/** Dashboards (spec 000 §3 "Dashboard record"), listed per tenant sorted by painelId. */

export const DASHBOARDS = "dashboards";

/** 1 = Intelligent Journey dashboard, 2 = executed-jobs dashboard. */
export const PANEL_TYPES = { intelligentJourney: 1, executedJobs: 2 } as const;
export type PanelType = (typeof PANEL_TYPES)[keyof typeof PANEL_TYPES];

export const CHART_KINDS = ["kpi", "bar", "line", "pie", "table"] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/**
 * The only stages a stored chart pipeline may use, at any depth ($facet and $lookup sub-pipelines too):
 * read-only reshaping. Anything else ($unionWith, $collStats, $indexStats, $planCacheStats, $documents,
 * $out, $merge, $currentOp …) is refused when the chart is read, whoever stored it.
 */
export const CHART_PIPELINE_STAGES = [
  "$match",
  "$group",
  "$sort",
  "$project",
  "$limit",
  "$skip",
  "$unwind",
  "$addFields",
  "$set",
  "$unset",
  "$count",
  "$facet",
  "$lookup",
  "$graphLookup",
  "$replaceRoot",
  "$replaceWith",
  "$sortByCount",
  "$bucket",
  "$bucketAuto",
] as const;

/**
 * The business collections a chart may read, as its own collection or as `$lookup`/`$graphLookup` `from`.
 * Accounts, sessions, sign-in records, mail and the dashboards themselves are deliberately absent.
 */
export const CHART_COLLECTIONS: readonly string[] = [
  FILES,
  MASTER_DATA_COLLECTIONS,
  ...MASTER_DATA_COLLECTION_NAMES,
  PLANNING_QUANTITY,
  FORECAST,
  HR_AUX,
  REPORTS,
  FINANCIAL_REPORTS,
  EXPLORER_DOCUMENTS,
];

/**
 * A chart of the native dashboard provider. `pipeline` is an aggregation pipeline stored as a relaxed
 * EJSON string (read it with `EJSON.parse`), because MongoDB restricts `$`-prefixed keys inside stored
 * documents; only the stages of CHART_PIPELINE_STAGES, over CHART_COLLECTIONS.
 * Result convention: each output document has `label` (the category / x value) and one numeric field
 * per series (a `kpi` returns one document with `value`; a `table` shows its fields as columns).
 * `labels` names result fields for people (table headers, legend, tooltip), e.g. `{ usuario: "Usuário" }`.
 */
/** A native chart as stored on its dashboard record (checked again each time it runs). */
export const dashboardChartSchema = z.object({
  id: z.string().min(1).max(ID_PARAM_MAX),
  title: z.string().min(1).max(300),
  kind: z.enum(CHART_KINDS),
  collection: z.string().min(1).max(120),
  /** A relaxed EJSON array (MongoDB restricts `$` keys in stored documents). */
  pipeline: z.string(),
  labels: z.record(z.string().max(100)).optional(),
});
export type DashboardChart = z.infer<typeof dashboardChartSchema>;

export type DashboardRecord = {
  _id?: ObjectId;
  dashboardId: string;
  panelLabel: string;
  panelType: PanelType;
  /** The sort key of the menu. */
  painelId: number;
  /** The tenant id (config.tenantId). */
  cliente: string;
  /** Only for the native dashboard provider. */
  charts?: DashboardChart[];
};

export const indexes: IndexDeclaration[] = [
  { collection: DASHBOARDS, key: { cliente: 1, painelId: 1 }, options: { name: "cliente_painelId" } },
  {
    collection: DASHBOARDS,
    key: { cliente: 1, dashboardId: 1 },
    options: { unique: true, name: "cliente_dashboardId_unique" },
  },
];
