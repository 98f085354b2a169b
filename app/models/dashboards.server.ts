import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Dashboards (spec 000 §3 "Dashboard record"), listed per tenant sorted by painelId. */

export const DASHBOARDS = "dashboards";

/** 1 = Intelligent Journey dashboard, 2 = executed-jobs dashboard. */
export const PANEL_TYPES = { intelligentJourney: 1, executedJobs: 2 } as const;
export type PanelType = (typeof PANEL_TYPES)[keyof typeof PANEL_TYPES];

export const CHART_KINDS = ["kpi", "bar", "line", "pie", "table"] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/**
 * A chart of the native dashboard provider. `pipeline` is an aggregation pipeline stored as a relaxed
 * EJSON string (read it with `EJSON.parse`), because MongoDB restricts `$`-prefixed keys inside stored
 * documents; only read-only stages are used ($match, $group, $sort, $project, $limit, $unwind,
 * $addFields, $count, $facet, $lookup).
 * Result convention: each output document has `label` (the category / x value) and one numeric field
 * per series (a `kpi` returns one document with `value`; a `table` shows its fields as columns).
 */
export type DashboardChart = {
  id: string;
  title: string;
  kind: ChartKind;
  collection: string;
  pipeline: string;
};

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
  { collection: DASHBOARDS, key: { cliente: 1, dashboardId: 1 }, options: { unique: true, name: "cliente_dashboardId_unique" } },
];
