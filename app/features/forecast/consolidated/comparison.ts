import { type ConsolidatedQuery, consolidatedHref, type FigureSource, sourceToken } from "./query";
import { consolidatedTexts as t } from "./texts";

/**
 * What the consolidated view says about its comparison, beside the figures: the months both sides cover (the compared
 * totals sum only these, docs/decisions.md "Comparisons reconcile"), the compared figures' year, and for actuals of a
 * year that has none yet, why every difference is "—" and where the last year with actuals is. Pure.
 */

/** A side of the view as resolved: per month of the view, whether it covers it; for actuals, their last year. */
export type CoveredSide = { covered: readonly boolean[]; lastYear?: number | null };

/** "Vs Realizado" of a year without actuals: the year, the last year with actuals the viewer may read, its link. */
export type ActualNote = { year: number; lastYear: number | null; href: string | null };

/** The month positions both sides cover (all of the shown side's when nothing is compared). */
export function commonMonths(shown: CoveredSide, other: CoveredSide | null): number[] {
  return shown.covered.flatMap((covered, i) => (covered && (other?.covered[i] ?? true) ? [i] : []));
}

const isActualOf = (source: FigureSource | null, year: number) =>
  source?.kind === "actual" && (source.year === undefined || source.year === year);

/**
 * The note for a side showing the view's year's actuals where there are none yet: the link keeps the view and puts the
 * last year with actuals in that side's place (`vs=realizado:2026`), so it is a bookmark and works without JavaScript.
 */
export function actualNoteOf(
  query: ConsolidatedQuery,
  year: number,
  base: CoveredSide | null,
  compared: CoveredSide | null,
): ActualNote | null {
  const sides = [
    { source: query.base, side: base, key: "base" as const },
    { source: query.compare, side: compared, key: "compare" as const },
  ];
  const empty = sides.find((s) => s.side && isActualOf(s.source, year) && !s.side.covered.some(Boolean));
  if (!empty?.side) return null;
  const lastYear = empty.side.lastYear ?? null;
  if (lastYear === null || lastYear === year) return { year, lastYear: null, href: null };
  const actual: FigureSource = { kind: "actual", year: lastYear };
  return { year, lastYear, href: consolidatedHref({ ...query, [empty.key]: actual }) };
}

/** The actuals of another year asked for, as options of the selects (so that they show as chosen). */
export function actualYearOptions(query: ConsolidatedQuery): { token: string; label: string }[] {
  const years = [query.base, query.compare].flatMap((s) => (s?.kind === "actual" && s.year ? [s.year] : []));
  return [...new Set(years)].map((y) => ({
    token: sourceToken({ kind: "actual", year: y }),
    label: t.sources.actualOf(y),
  }));
}
