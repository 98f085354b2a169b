import { ObjectId } from "mongodb";
import { findVersion } from "~/models/forecast-versions.server";
import type { FigureSource } from "../consolidated/query";
import { versionTexts as t } from "./texts";

/**
 * A version that holds some cost centres only (an approval holds its one) narrows the consolidated view that shows or
 * compares it to those cost centres: otherwise the company's side would hold every other cost centre against nothing
 * (+11.000 % against one cost centre's approval). The screen and its export say so.
 */

export type VersionRestriction = {
  /** The cost centres the view holds: the versions', within the viewer's. */
  scope: string[];
  /** What the screen and the export say. */
  note: string;
  /** The top row's label. */
  companyLabel: string;
};

/** The restriction of a view showing `base` (and comparing with `compare`); null when neither is so narrowed. */
export async function versionRestriction(
  base: FigureSource,
  compare: FigureSource | null,
  scope: readonly string[] | null,
): Promise<VersionRestriction | null> {
  const ids = [base, compare].flatMap((s) => (s?.kind === "version" && ObjectId.isValid(s.id) ? [s.id] : []));
  if (ids.length === 0) return null;
  const headers = await Promise.all(ids.map((id) => findVersion(new ObjectId(id), scope)));
  const centres = [...new Set(headers.flatMap((h) => (h?.cost_center_concat ? [h.cost_center_concat] : [])))];
  const within = scope ? centres.filter((cc) => scope.includes(cc)) : centres;
  if (within.length === 0) return null;
  within.sort();
  return {
    scope: within,
    note: compare ? t.restrictedCompare(within) : t.restrictedView(within),
    companyLabel: t.restrictedCompany(within),
  };
}
