import { formatPercent, formatPtBr2, roundTo, roundTo2 } from "~/shared/numbers";
import { type AnnualTotal, RELEASE_POINT_NAMES, type Scenario, scenarioName } from "./release-points";

/**
 * The review's variance columns: RF(n) − RF(n−1) per month, forecast − actual for closed months and the
 * year's total beside the previous RF's. Pure: the loader computes every figure from the rows the grid shows (and the
 * previous RF's and the actuals' rows over the same months); the grid and the Excel export only format them.
 */

/** The toggleable column groups, in the order the grid and the export show them (`?cols=total,rf,actual`). */
export const VARIANCE_GROUPS = ["total", "rf", "actual"] as const;
export type VarianceGroup = (typeof VARIANCE_GROUPS)[number];
export const VARIANCE_PARAM = "cols";

/** The groups a URL asks for: `cols=rf,actual` or `cols=rf&cols=actual` (a GET form's checkboxes); others ignored. */
export function parseVarianceColumns(params: URLSearchParams): VarianceGroup[] {
  const asked = new Set(
    params
      .getAll(VARIANCE_PARAM)
      .flatMap((v) => v.split(","))
      .map((v) => v.trim().toLowerCase()),
  );
  return VARIANCE_GROUPS.filter((g) => asked.has(g));
}

/** RF2 y → RF1 y, RF3 y → RF2 y, RF4 y → RF3 y, RF1 y → RF4 (y−1). */
export function previousScenario(scenario: Scenario): Scenario {
  const at = RELEASE_POINT_NAMES.indexOf(scenario.releasePoint);
  const releasePoint = at === 0 ? RELEASE_POINT_NAMES[RELEASE_POINT_NAMES.length - 1] : RELEASE_POINT_NAMES[at - 1];
  const year = at === 0 ? scenario.year - 1 : scenario.year;
  return { name: scenarioName(releasePoint, year), releasePoint, year };
}

/** A difference and its percentage of the base; null shows "—" (no value to compare, or a zero base for `pct`). */
export type Diff = { abs: number | null; pct: number | null };

/** An amount as a screen shows it, in whole cents (rounded half away from zero: roundTo2). */
const cents = (value: number) => Math.round(roundTo2(value) * 100);

/**
 * current − base as the two are shown: each rounded to cents first, so that the Δ shown is exactly the difference of
 * the two amounts shown beside it (docs/decisions.md "Comparisons reconcile"); % = that difference / |shown base| ×
 * 100, to one decimal (half away from zero), null for a base shown as 0,00.
 */
export function difference(current: number | null, base: number | null): Diff {
  if (current === null || base === null) return { abs: null, pct: null };
  const [a, b] = [cents(current), cents(base)];
  const diff = a - b;
  return { abs: diff / 100 || 0, pct: b === 0 ? null : roundTo((diff * 100) / Math.abs(b), 1) || 0 };
}

export const formatVarianceAmount = (value: number | null | undefined): string =>
  value === null || value === undefined ? "—" : formatPtBr2(value);
/** "12,3%", or "—" for no value (a zero base): never ∞ or NaN. */
export const formatVariancePercent = (value: number | null | undefined): string =>
  value === null || value === undefined || !Number.isFinite(value) ? "—" : formatPercent(value, 1);

/** A year's total beside the compared one, both over the same months (TotalMonths), and the difference. */
export type TotalDiff = Diff & { current: number; previous: number | null };

/** The months of an annual total a comparison covers (those both sides hold): how many, of how many, which. */
export type TotalMonths = { compared: number; of: number; indexes: number[] };

/** A total's compared months as its labels say them (month keys: "2027-01"). */
export const comparedMonthsOf = (months: TotalMonths | undefined, keys: readonly string[]) =>
  months && { compared: months.compared, of: months.of, keys: months.indexes.map((i) => keys[i]) };

/** Whether a total's comparison covers fewer months than the total sums: the grid then shows both over those. */
export const partialComparison = (months: TotalMonths | undefined) =>
  months !== undefined && months.compared < months.of;

/** A row's differences against a saved version (`?versao=`): per month, and per annual total. */
export type VersionFigures = { months: Diff[]; total: TotalDiff[] };

/**
 * The saved version the grid is compared with, added by the versions feature (versions/review-variance.server.ts),
 * and per annual total the months its window holds too.
 */
export type VersionComparison = { id: string; name: string; totalMonths?: TotalMonths[] };

/** The variance figures of one grid row (an account, a group's total or the cost centre's total). */
export type VarianceFigures = {
  /** Per month of the window: this RF's shown value − the previous RF's (empty unless the group is on). */
  rf: Diff[];
  /** Per month: forecast − actual, null where the month is not closed for this row (empty unless the group is on). */
  actual: (Diff | null)[];
  /** Per annual total: this RF's and the previous RF's over the months both windows hold, and the difference. */
  total: TotalDiff[];
  /** Against the saved version compared with, when one is. */
  version?: VersionFigures;
};

export type VariancePayload = {
  /** The groups shown, in VARIANCE_GROUPS order. */
  columns: VarianceGroup[];
  /** The previous RF's name ("RF4 2026"), and whether it has records of this cost centre in the window. */
  previousRf: string;
  previousFound: boolean;
  /** Month positions with at least one closed cell: the forecast − actual columns. */
  closedMonths: number[];
  /** In the grid's account line order. */
  lines: VarianceFigures[];
  groups: VarianceFigures[];
  grand: VarianceFigures;
  /** The saved version compared with (`?versao=`), when one is. */
  version?: VersionComparison;
  /** Per annual total (when the group is shown): which of its months both RFs' windows hold, and how many of how many. */
  totalMonths: TotalMonths[];
};

export type VarianceInput = {
  columns: readonly VarianceGroup[];
  previousRf: string;
  /** The grid's groups: `values` are what the grid shows (actuals before `firstForecastIndex`, forecasts from it). */
  groups: readonly { accounts: readonly { account: string; values: readonly (number | null)[] }[] }[];
  monthCount: number;
  firstForecastIndex: number;
  totals: readonly AnnualTotal[];
  /** The previous RF's shown values per account over the same months (absent account: no record). */
  previous: ReadonlyMap<string, readonly (number | null)[]>;
  /** Month positions inside the previous RF's window (both ends included), and its first forecast month's position. */
  previousWindow: { from: number; to: number; firstForecastIndex: number };
  /** The "actual" scenario's values per account over the same months. */
  actual: ReadonlyMap<string, readonly (number | null)[]>;
  /** Months before this position are before the current month (a month is closed: before it, with an actual). */
  currentMonthIndex: number;
};

/** One row's measures before they become differences; totals add these up (variance of sums, not of percentages). */
type Measures = {
  shown: (number | null)[];
  previous: (number | null)[];
  /** Per month, for closed cells: [forecast, actual] (forecast null when there is none to compare), else null. */
  closed: ([number | null, number] | null)[];
};

const sumOrNull = (values: readonly (number | null)[]) =>
  values.some((v) => v !== null) ? values.reduce<number>((s, v) => s + (v ?? 0), 0) : null;

function addUp(rows: readonly Measures[], monthCount: number): Measures {
  const sum: Measures = { shown: [], previous: [], closed: [] };
  for (let m = 0; m < monthCount; m++) {
    // As the grid's totals: an empty cell counts 0.
    sum.shown.push(rows.reduce((s, r) => s + (r.shown[m] ?? 0), 0));
    sum.previous.push(sumOrNull(rows.map((r) => r.previous[m])));
    const closed = rows.map((r) => r.closed[m]).filter((c) => c !== null);
    // Only the cells with both sides count, so that the difference compares like with like.
    const paired = closed.filter((c): c is [number, number] => c[0] !== null);
    sum.closed.push(
      closed.length === 0
        ? null
        : paired.length === 0
          ? [null, 0]
          : [paired.reduce((s, c) => s + c[0], 0), paired.reduce((s, c) => s + c[1], 0)],
    );
  }
  return sum;
}

function figuresOf(measures: Measures, input: VarianceInput): VarianceFigures {
  const on = new Set(input.columns);
  return {
    rf: on.has("rf") ? measures.shown.map((v, m) => difference(v, measures.previous[m])) : [],
    actual: on.has("actual") ? measures.closed.map((c) => (c === null ? null : difference(c[0], c[1]))) : [],
    total: on.has("total")
      ? input.totals.map((t) => {
          // The same months on both sides: those of the year the previous RF's window holds too.
          const months = comparedMonths(t, input.previousWindow);
          const current = months.reduce((s, i) => s + (measures.shown[i] ?? 0), 0);
          const previous = sumOrNull(months.map((i) => measures.previous[i]));
          return {
            current: roundTo2(current) || 0,
            previous: previous === null ? null : roundTo2(previous) || 0,
            ...difference(current, previous),
          };
        })
      : [],
  };
}

/** The year's months (positions) the previous RF's window holds too: a year's total compares only these. */
function comparedMonths(total: AnnualTotal, window: VarianceInput["previousWindow"]): number[] {
  return total.indexes.filter((i) => i >= window.from && i <= window.to);
}

/** Every row's variance figures: accounts, then each group's and the cost centre's totals from the same measures. */
export function buildVariance(input: VarianceInput): VariancePayload {
  const { monthCount, firstForecastIndex, previousWindow, currentMonthIndex } = input;
  const inPrevious = (m: number) => m >= previousWindow.from && m <= previousWindow.to;
  const groupMeasures = input.groups.map((group) =>
    group.accounts.map((account): Measures => {
      const previous = input.previous.get(account.account);
      const actual = input.actual.get(account.account);
      const measures: Measures = { shown: [], previous: [], closed: [] };
      for (let m = 0; m < monthCount; m++) {
        const shown = account.values[m] ?? null;
        const before = previous && inPrevious(m) ? (previous[m] ?? null) : null;
        measures.shown.push(shown);
        measures.previous.push(before);
        const actualValue = actual?.[m] ?? null;
        if (actualValue === null || m >= currentMonthIndex) {
          measures.closed.push(null);
          continue;
        }
        const forecast = m >= firstForecastIndex ? shown : m >= previousWindow.firstForecastIndex ? before : null;
        measures.closed.push([forecast, actualValue]);
      }
      return measures;
    }),
  );
  const lines = groupMeasures.flat();
  const groupSums = groupMeasures.map((rows) => addUp(rows, monthCount));
  const grand = addUp(groupSums, monthCount);
  const closedMonths = Array.from({ length: monthCount }, (_, m) => m).filter((m) => grand.closed[m] !== null);
  return {
    columns: [...input.columns],
    previousRf: input.previousRf,
    previousFound: input.previous.size > 0,
    closedMonths: input.columns.includes("actual") ? closedMonths : [],
    lines: lines.map((m) => figuresOf(m, input)),
    groups: groupSums.map((m) => figuresOf(m, input)),
    grand: figuresOf(grand, input),
    totalMonths: input.columns.includes("total")
      ? input.totals.map((t): TotalMonths => {
          const indexes = comparedMonths(t, previousWindow);
          return { compared: indexes.length, of: t.indexes.length, indexes };
        })
      : [],
  };
}
