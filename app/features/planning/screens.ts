import type { FilterKind } from "~/features/planning/planning";
import { planningTexts } from "./texts";

/**
 * The two filter → results flows built on the same screens (docs/decisions.md "Planning"):
 * /ij/plan → /ij/plan_edit (page counted from 1 in the URL), and the report filter /ij/report_create →
 * /ij/report_preview (page index from 0 in the URL, spec 001 §4). Pure: used by routes, server and browser.
 */
export type PlanningScreen = {
  kind: FilterKind;
  /** Recorded with each save. */
  save: "plan_edit" | "report_preview";
  filterPath: string;
  resultsPath: string;
  /** How the URL counts pages: from 1, or the page index from 0. */
  pageBase: 0 | 1;
  title: string;
};

export const PLAN_SCREEN: PlanningScreen = {
  kind: "plan",
  save: "plan_edit",
  filterPath: "/ij/plan",
  resultsPath: "/ij/plan_edit",
  pageBase: 1,
  title: planningTexts.planningTitle,
};

export const REPORT_SCREEN: PlanningScreen = {
  kind: "report",
  save: "report_preview",
  filterPath: "/ij/report_create",
  resultsPath: "/ij/report_preview",
  pageBase: 0,
  title: planningTexts.reportPreviewTitle,
};

/** URL parameters of a results page that are not its data: dialogs and the group-edit preview (with its one-time save id). */
export const DIALOG_PARAMS = ["groupEdit", "history", "saved", "check"] as const;
export const BATCH_PARAMS = ["percent", "op", "batchId"] as const;

/** `search` without the given parameters (null-safe), as "?…" or "". */
export function searchWithout(search: string, names: readonly string[], set: Record<string, string> = {}): string {
  const params = new URLSearchParams(search);
  for (const name of names) params.delete(name);
  for (const [k, v] of Object.entries(set)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The localStorage key of the planning filter (spec 001 §2, §3 "formFilter"); forgotten when signed out. */
export { FORM_FILTER_KEY } from "~/shared/browser-state";
