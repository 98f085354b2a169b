import { SHOWN_CODES, type ShownCode } from "~/models/forecast-cycle.fields";
import { byPtBr } from "~/shared/collation";

/**
 * The cycle at the company's level and per area: how many cost centres are in each state, and the share of the
 * shown year's amount each state holds. Shares of a total of zero are null ("—"). Pure.
 */

export type StateFigures = { code: ShownCode; count: number; amount: number; share: number | null };
export type SummaryRow = { area: string | null; total: number; count: number; states: StateFigures[] };

export type SummaryCentre = { level: string; state: ShownCode; amount: number };

function summarise(area: string | null, centres: readonly SummaryCentre[]): SummaryRow {
  const total = centres.reduce((s, c) => s + c.amount, 0);
  return {
    area,
    total,
    count: centres.length,
    states: SHOWN_CODES.map((code) => {
      const of = centres.filter((c) => c.state === code);
      const amount = of.reduce((s, c) => s + c.amount, 0);
      return { code, count: of.length, amount, share: total === 0 ? null : (amount / total) * 100 };
    }),
  };
}

/** The company's row first, then one per area by name. */
export function cycleSummary(centres: readonly SummaryCentre[]): SummaryRow[] {
  const levels = [...new Set(centres.map((c) => c.level))].sort(byPtBr);
  return [
    summarise(null, centres),
    ...levels.map((l) =>
      summarise(
        l,
        centres.filter((c) => c.level === l),
      ),
    ),
  ];
}

/**
 * Shares shown with one decimal that still add up to 100,0 %: each rounded down to a tenth, the tenths left given to
 * the largest remainders (when the shares are not all of one sign, the plain rounding).
 */
export function displayShares(shares: readonly (number | null)[]): (number | null)[] {
  const known = shares.filter((s): s is number => s !== null);
  if (known.length === 0 || known.some((s) => s < 0))
    return shares.map((s) => (s === null ? null : Math.round(s * 10) / 10));
  const tenths = shares.map((s) => (s === null ? 0 : Math.floor(s * 10 + 1e-9)));
  let left = 1000 - tenths.reduce((a, b) => a + b, 0);
  const order = shares
    .map((s, i) => ({ i, rest: s === null ? -1 : s * 10 - tenths[i] }))
    .sort((x, y) => y.rest - x.rest);
  for (const { i } of order) {
    if (left <= 0) break;
    if (shares[i] === null) continue;
    tenths[i]++;
    left--;
  }
  return shares.map((s, i) => (s === null ? null : tenths[i] / 10));
}
