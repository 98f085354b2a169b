import { ObjectId } from "mongodb";
import { z } from "zod";
import { findVersion, listVersions, readVersionRows } from "~/models/forecast-versions.server";
import { formatDate } from "~/shared/dates";
import { monthOfDate, parseMonthKey } from "~/shared/months";
import { roundTo2 } from "~/shared/numbers";
import type { ForecastGridPayload } from "../forecast-grid-rules";
import { parseScenario, scenarioCalendar } from "../release-points";
import type { Review } from "../review.server";
import {
  type Diff,
  difference,
  previousScenario,
  type TotalDiff,
  type TotalMonths,
  type VarianceFigures,
  type VariancePayload,
  type VersionFigures,
} from "../variance";
import { versionTexts as t } from "./texts";

/**
 * The review grid's "vs versão" group: the grid's shown values against a saved version of the cost centre
 * (`?versao=<id>`), per month and per annual total, at every row (accounts, group totals, the cost centre's total).
 * Added to the grid's variance payload by the review's loader after the grid is built, from the version's row of this
 * cost centre; the versions the select offers are this RF's and the previous RF's that hold it (choicesOf).
 */

export const VERSION_PARAM = "versao";
const CHOICES_MAX = 50;

const sumOrNull = (values: readonly (number | null)[]) =>
  values.some((v) => v !== null) ? values.reduce<number>((s, v) => s + (v ?? 0), 0) : null;

type Measures = { shown: (number | null)[]; version: (number | null)[] };

/** Both sides of each annual total over the same months: those the version's window holds too (TotalMonths). */
function figuresOf(m: Measures, totals: readonly TotalMonths[]): VersionFigures {
  const months: Diff[] = m.shown.map((v, i) => difference(v ?? 0, m.version[i]));
  const total: TotalDiff[] = totals.map((t) => {
    const current = t.indexes.reduce((s, i) => s + (m.shown[i] ?? 0), 0);
    const previous = sumOrNull(t.indexes.map((i) => m.version[i]));
    return {
      current: roundTo2(current) || 0,
      previous: previous === null ? null : roundTo2(previous) || 0,
      ...difference(current, previous),
    };
  });
  return { months, total };
}

function addUp(rows: readonly Measures[], monthCount: number): Measures {
  const sum: Measures = { shown: [], version: [] };
  for (let i = 0; i < monthCount; i++) {
    sum.shown.push(rows.reduce((s, r) => s + (r.shown[i] ?? 0), 0));
    sum.version.push(sumOrNull(rows.map((r) => r.version[i])));
  }
  return sum;
}

const emptyFigures = (): VarianceFigures => ({ rf: [], actual: [], total: [] });

/**
 * The versions a review may be compared with, of this RF and the previous RF: the cost centre's own approvals first
 * (each with its day: a reopened cost centre may have several), then the company's versions; each newest first.
 */
async function choicesOf(review: Review) {
  const rfs = [review.calendar.name, previousScenario(review.calendar).name];
  const cc = [review.costCenter.cost_center_concat];
  const [own, company] = await Promise.all([
    listVersions(rfs, 0, CHOICES_MAX, cc, "approval"),
    listVersions(rfs, 0, CHOICES_MAX, cc, "company"),
  ]);
  return [
    ...own.rows.map((v) => ({ id: v._id.toHexString(), name: t.approvalChoice(v.name, formatDate(v.created_at)) })),
    ...company.rows.map((v) => ({ id: v._id.toHexString(), name: v.name })),
  ];
}

/**
 * Per annual total, its months (grid positions) that the version's RF window holds: a version keeps what its RF showed
 * there, so a version of another RF (the previous one) is compared over the months both windows hold.
 */
function heldMonths(rf: string, months: readonly string[], totals: ForecastGridPayload["totals"]): TotalMonths[] {
  const scenario = parseScenario(rf);
  const window = scenario ? scenarioCalendar(scenario) : null;
  const held = (i: number) => {
    const month = parseMonthKey(months[i]);
    return !window || (month !== null && month >= window.firstMonth && month <= window.lastMonth);
  };
  return totals.map((t) => {
    const indexes = t.indexes.filter(held);
    return { compared: indexes.length, of: t.indexes.length, indexes };
  });
}

/** `?versao=`: a version's id, else nothing asked. */
const versionParam = z
  .string()
  .regex(/^[0-9a-f]{24}$/)
  .nullable()
  .catch(null);

/** The version's amounts of each account of this cost centre, on the grid's months. */
async function versionValues(id: string, review: Review, months: readonly string[]) {
  const version = await findVersion(new ObjectId(id), [review.costCenter.cost_center_concat]);
  if (!version) return null;
  const [row] = await readVersionRows(version._id, [review.costCenter.cost_center_concat]);
  const values = new Map<string, (number | null)[]>();
  if (row) {
    const first = monthOfDate(row.first_month);
    for (const account of row.accounts)
      values.set(
        account.account,
        months.map((key) => account.amounts[(parseMonthKey(key) ?? 0) - first] ?? null),
      );
  }
  return { version, values };
}

/**
 * Offers the versions, and with `?versao=` adds the comparison to the grid's variance payload (creating one with no
 * other group on). An unknown version leaves the grid as it was.
 */
export async function compareReviewWithVersion(
  gridRead: ForecastGridPayload | Promise<ForecastGridPayload>,
  review: Review,
  params: URLSearchParams,
): Promise<void> {
  // The choices are read while the grid is (one command with its reads, when the page starts both in one turn).
  const [choices, grid] = await Promise.all([choicesOf(review), gridRead]);
  grid.versionChoices = choices;
  const asked = versionParam.parse(params.get(VERSION_PARAM));
  if (!asked) return;
  const found = await versionValues(asked, review, grid.months);
  if (!found) return;
  const monthCount = grid.months.length;
  const groupMeasures = grid.groups.map((group) =>
    group.accounts.map(
      (a): Measures => ({
        shown: a.values.slice(),
        version: found.values.get(a.account) ?? new Array<number | null>(monthCount).fill(null),
      }),
    ),
  );
  const groupSums = groupMeasures.map((rows) => addUp(rows, monthCount));
  const totalMonths = heldMonths(found.version.rf, grid.months, grid.totals);
  const variance: VariancePayload = grid.variance ?? {
    columns: [],
    previousRf: previousScenario(review.calendar).name,
    previousFound: false,
    closedMonths: [],
    lines: groupMeasures.flat().map(emptyFigures),
    groups: groupSums.map(emptyFigures),
    grand: emptyFigures(),
    totalMonths: [],
  };
  groupMeasures.flat().forEach((m, i) => {
    variance.lines[i].version = figuresOf(m, totalMonths);
  });
  groupSums.forEach((m, i) => {
    variance.groups[i].version = figuresOf(m, totalMonths);
  });
  variance.grand.version = figuresOf(addUp(groupSums, monthCount), totalMonths);
  variance.version = { id: found.version._id.toHexString(), name: found.version.name, totalMonths };
  grid.variance = variance;
}
