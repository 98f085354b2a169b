import type { RollupView } from "~/models/forecast-consolidated.server";
import type { VersionRow } from "~/models/forecast-versions.server";
import { type Month, monthOfDate, yearOfMonth } from "~/shared/months";

/**
 * Figure sets: per cost centre and account, one amount per month of the view (null: none). The live RF and the
 * previous RF show what the review shows (app/features/forecast/review.server.ts): in the months before the RF's
 * first forecast month the record's `value`, taken from the "actual" scenario when the RF's record has none (an
 * account with only actuals appears), from it on the `forecast`; months outside the RF's window have none. Actuals
 * are the "actual" scenario's `value`; a version holds what the RF showed when it was saved. Pure.
 */

export type FigureLine = { account: string; label: string; group: string; amounts: (number | null)[] };
export type CentreInfo = { cost_center_concat: string; cost_center: string; level: string };
export type FigureSet = {
  months: readonly Month[];
  lines: Map<string, Map<string, FigureLine>>;
  centres: Map<string, CentreInfo>;
};

/** The months of a scenario shown as actuals before `firstForecastMonth`, inside [firstMonth, lastMonth]. */
export type ScenarioRule = { firstMonth: Month; lastMonth: Month; firstForecastMonth: Month };

const emptySet = (months: readonly Month[]): FigureSet => ({ months, lines: new Map(), centres: new Map() });

function lineOf(set: FigureSet, cc: string, account: { account: string; label: string; group: string }): FigureLine {
  let lines = set.lines.get(cc);
  if (!lines) set.lines.set(cc, (lines = new Map()));
  let line = lines.get(account.account);
  if (!line) {
    line = {
      account: account.account,
      label: account.label,
      group: account.group,
      amounts: set.months.map(() => null),
    };
    lines.set(account.account, line);
  }
  return line;
}

const centreOf = (r: { cost_center_concat: string; cost_center: string; level_descr: string }): CentreInfo => ({
  cost_center_concat: r.cost_center_concat,
  cost_center: r.cost_center,
  level: r.level_descr,
});

/** An account's stored amount of one month (null outside its arrays). */
const at = (first: Month, list: readonly (number | null)[], m: Month) => list[m - first] ?? null;

/** A scenario's figures as its review shows them, over `months`. */
export function scenarioFigures(
  scenario: readonly RollupView[],
  actuals: readonly RollupView[],
  rule: ScenarioRule,
  months: readonly Month[],
): FigureSet {
  const set = emptySet(months);
  const actualBy = new Map(actuals.map((r) => [r.cost_center_concat, r]));
  for (const rollup of scenario) {
    if (rollup.accounts.length === 0) continue;
    set.centres.set(rollup.cost_center_concat, centreOf(rollup));
    const first = monthOfDate(rollup.first_month);
    for (const account of rollup.accounts) {
      const line = lineOf(set, rollup.cost_center_concat, account);
      months.forEach((m, i) => {
        if (m < rule.firstMonth || m > rule.lastMonth) return;
        line.amounts[i] = m < rule.firstForecastMonth ? at(first, account.values, m) : at(first, account.forecasts, m);
      });
    }
    // Actual months without a value of the RF take the actuals' (the review's rule), adding accounts if need be.
    const actual = actualBy.get(rollup.cost_center_concat);
    if (!actual) continue;
    const actualFirst = monthOfDate(actual.first_month);
    for (const account of actual.accounts) {
      months.forEach((m, i) => {
        if (m < rule.firstMonth || m > rule.lastMonth || m >= rule.firstForecastMonth) return;
        const value = at(actualFirst, account.values, m);
        if (value === null) return;
        const line = lineOf(set, rollup.cost_center_concat, account);
        if (line.amounts[i] === null) line.amounts[i] = value;
      });
    }
  }
  return set;
}

/**
 * The "actual" scenario's values over `months`, or, `shift` months apart, those of the same months of another year
 * (−12: the year before), each at the position of the view's month it is compared with.
 */
export function actualFigures(actuals: readonly RollupView[], months: readonly Month[], shift = 0): FigureSet {
  const set = emptySet(months);
  for (const rollup of actuals) {
    if (rollup.accounts.length === 0) continue;
    set.centres.set(rollup.cost_center_concat, centreOf(rollup));
    const first = monthOfDate(rollup.first_month);
    for (const account of rollup.accounts) {
      const amounts = months.map((m) => at(first, account.values, m + shift));
      if (amounts.some((a) => a !== null)) lineOf(set, rollup.cost_center_concat, account).amounts = amounts;
    }
  }
  return set;
}

/** A version's rows over `months`. */
export function versionFigures(rows: readonly VersionRow[], months: readonly Month[]): FigureSet {
  const set = emptySet(months);
  for (const row of rows) {
    set.centres.set(row.cost_center_concat, centreOf(row));
    const first = monthOfDate(row.first_month);
    for (const account of row.accounts)
      lineOf(set, row.cost_center_concat, account).amounts = months.map((m) => at(first, account.amounts, m));
  }
  return set;
}

/** The sum of a set's amounts over `months` (null counts 0). */
export function setTotal(set: FigureSet): number {
  let total = 0;
  for (const lines of set.lines.values())
    for (const line of lines.values()) for (const a of line.amounts) total += a ?? 0;
  return total;
}

/** The view's month positions where a set has any figure (the actuals cover the months recorded so far). */
export function filledMonths(set: FigureSet): boolean[] {
  const filled = set.months.map(() => false);
  for (const lines of set.lines.values())
    for (const line of lines.values())
      line.amounts.forEach((a, i) => {
        if (a !== null) filled[i] = true;
      });
  return filled;
}

/** The last year in which the "actual" scenario's rollups hold a value (null: none). */
export function lastYearWithValues(actuals: readonly RollupView[]): number | null {
  let last: Month | null = null;
  for (const rollup of actuals) {
    const first = monthOfDate(rollup.first_month);
    for (const account of rollup.accounts)
      for (let i = account.values.length - 1; i >= 0; i--)
        if (account.values[i] !== null) {
          if (last === null || first + i > last) last = first + i;
          break;
        }
  }
  return last === null ? null : yearOfMonth(last);
}
