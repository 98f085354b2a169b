import { parseScenario, scenarioCalendar } from "./release-points";

/**
 * The forecast review's addresses and the filter's choices (spec 001 §2 "Cost-centre forecast review"). Pure: the
 * filter's loader and its browser-side check decide alike.
 */

export const FILTER_PATH = "/ij/report_create_schneider";
export const CALENDAR_PATH = "/ij/report_preview_schneider";
const REVIEW_PREFIX = "/ij/report_preview_edit_schneider";

/** Both values are path segments: "RF1 2020" travels as RF1%202020 and comes back with its space (a "/" as %2F). */
export const reviewPath = (rf: string, cost_center_concat: string) =>
  `${REVIEW_PREFIX}/${encodeURIComponent(rf)}/${encodeURIComponent(cost_center_concat)}`;

export const historyPath = (rf: string, cost_center_concat: string, account: string, month: string) =>
  `${reviewPath(rf, cost_center_concat)}/history?${new URLSearchParams({ account, month })}`;

/** The comments of a review's cells (its own page): the commented cells, or one cell's thread. */
export const commentPath = (rf: string, cost_center_concat: string, account?: string, month?: string) =>
  `${reviewPath(rf, cost_center_concat)}/comentarios${
    account && month ? `?${new URLSearchParams({ conta: account, mes: month })}` : ""
  }`;

/** "Distribuir total" of a review (its own page). */
export const spreadPath = (rf: string, cost_center_concat: string) =>
  `${reviewPath(rf, cost_center_concat)}/distribuir`;

/** The filter, with the given choices preselected (the review's breadcrumb returns here; the field is named `cost_center`). */
export function filterPath(choice: { rf?: string; cost_center_concat?: string } = {}): string {
  const params = new URLSearchParams();
  if (choice.rf) params.set("rf", choice.rf);
  if (choice.cost_center_concat) params.set("cost_center", choice.cost_center_concat);
  const query = params.toString();
  return query ? `${FILTER_PATH}?${query}` : FILTER_PATH;
}

/** The RF scenarios, the most recent anchor first. */
export function sortScenarios(names: readonly string[]): string[] {
  const anchorOf = (name: string) => {
    const scenario = parseScenario(name);
    if (!scenario) return Number.NEGATIVE_INFINITY;
    const { anchor } = scenarioCalendar(scenario);
    return Date.UTC(anchor.year, anchor.month - 1, anchor.day);
  };
  // Each name's anchor once, not once per comparison.
  const keyed = names.map((name) => ({ name, anchor: anchorOf(name) }));
  keyed.sort((a, b) => b.anchor - a.anchor || a.name.localeCompare(b.name));
  return keyed.map((k) => k.name);
}

const normalize = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

export type CostCenterChoice =
  | { kind: "found"; cost_center_concat: string }
  | { kind: "empty" }
  | { kind: "none" }
  | { kind: "ambiguous"; count: number };

/**
 * The cost centre the searchable field names: the list's entry equal to the text (ignoring case, accents and extra
 * spaces), else the only entry that contains it ("marketing" → "CC1001 - Marketing"); several or none is no choice.
 */
export function resolveCostCenter(text: string, costCenters: readonly string[]): CostCenterChoice {
  const wanted = normalize(text);
  if (wanted === "") return { kind: "empty" };
  const exact = costCenters.find((c) => normalize(c) === wanted);
  if (exact) return { kind: "found", cost_center_concat: exact };
  const partial = costCenters.filter((c) => normalize(c).includes(wanted));
  if (partial.length === 1) return { kind: "found", cost_center_concat: partial[0] };
  return partial.length === 0 ? { kind: "none" } : { kind: "ambiguous", count: partial.length };
}
