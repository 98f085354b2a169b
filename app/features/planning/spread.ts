/** "Distribuir total" of the planning grid: its modes and the page's data (the server side: spread.server.ts). */

export const PLANNING_SPREAD_MODES = ["igual", "ano_anterior", "pesos"] as const;
export type PlanningSpreadMode = (typeof PLANNING_SPREAD_MODES)[number];

export type PlanningSpreadPage = {
  /** The results on the same filter, and this page's address (the filter and the row kept). */
  backHref: string;
  action: string;
  row: { id: string; sku: string; channel: string } | null;
  months: { key: string; label: string }[];
  values: { total: string; mode: PlanningSpreadMode; weights: string };
  error: string | null;
  preview: {
    rows: { key: string; label: string; current: string; next: string }[];
    note: string | null;
    /** The rows and revisions the preview read: a save refuses rows changed since. */
    state: string;
  } | null;
};
