import { data } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import { buildGroups, type ForecastGridPayload, type WindowRecord } from "~/features/forecast/forecast-grid-rules";
import { checkSave, FORECAST_SAVE_BODY_MAX_BYTES, SAVE_MAX_CELLS } from "~/features/forecast/forecast-save";
import {
  annualTotals,
  editWindowOf,
  isOpenForEditing,
  parseScenario,
  type ScenarioCalendar,
  scenarioCalendar,
  windowMonths,
} from "~/features/forecast/release-points";
import { buildVariance, previousScenario, type VarianceGroup } from "~/features/forecast/variance";
import { COST_CENTER_CONCAT_MAX } from "~/models/forecast.fields";
import {
  type CellWrite,
  type Conflict,
  type CostCenterInfo,
  findCostCenter,
  readWindow,
  readWindowWithPrevious,
  saveForecastCells,
  type WindowAccount,
} from "~/models/forecast.server";
import { type ForecastReader, readsCostCentre, writesCostCentre } from "~/models/forecast-readers.server";
import { recordEdit } from "~/platform/audit/data-events.server";
import { recordAccessRefused } from "~/platform/audit/record.server";
import { formatDateTime } from "~/shared/dates";
import {
  type CalendarDate,
  dayLabel,
  type Month,
  monthKey,
  monthLabel,
  monthOfDate,
  monthOfDay,
  monthStartDate,
} from "~/shared/months";
import { formatPtBr2 } from "~/shared/numbers";
import { readLimitedJson } from "~/shared/request-body.server";
import { createToastHeaders } from "~/shared/toast.server";
import { uiTexts } from "~/shared/ui/texts";
import { lockMessage } from "./cycle/server-texts";
import { reviewPath } from "./forecast-filter";
import type { ReviewFacts } from "./review-page-texts";
import { forecastTexts } from "./texts";

/** The audit trail's names of a grid save (the dataset is the round trip's, excel.server.ts FORECAST_DATASET). */
const FORECAST_EDIT_DATASET = "forecast";
const REVIEW_SCREEN = "/ij/report_preview_edit_schneider/{rf}/{cost_center_concat}";
/** The route a refused review is recorded under in the audit trail, whichever of its pages was asked for. */
const REVIEW_ROUTE_ID = "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";

/**
 * The review's server side, shared by the edit route and its resource routes: the route parameters resolved to a
 * scenario and a cost centre the user may read, the grid's data, the save and a cell's history. The routes guard
 * first (requireRouteAccess with their own id) and then call these.
 */

export type Review = { calendar: ScenarioCalendar; costCenter: CostCenterInfo };

/** Who opens a review: the signed-in user (or an edited export's sender), by e-mail and permission type. */
export type ReviewReader = ForecastReader & { name?: string };

/**
 * A review that cannot be shown: 404 when the URL names no scenario or cost centre with records, 403 (the portal's
 * refusal, recorded in the audit trail) when the reader may not read the cost centre's forecast.
 */
export type ReviewRefusal = { ok: false; status: 403 | 404; message: string };

export type ReviewLookup = { ok: true; review: Review } | ReviewRefusal;

/**
 * What a page does with the cost centre: reads it, or writes its figures (a save, a spread, an edited export): each
 * asks its side of the forecast's one rule (readsCostCentre, writesCostCentre).
 */
export type ReviewUse = "read" | "write";

/**
 * The review a URL names, before its cost centre is known to exist and to be the reader's: the scenario parsed, the
 * cost centre as named (`found` reads its record and asks the forecast's read rule). The review's page starts its
 * grid's reads with `found`, so that they go to the database together, and answers none of them unless `found` is;
 * every other route resolves first (resolveReview).
 */
export type ReviewStart =
  | { ok: true; review: Review; found: Promise<{ ok: true; costCenter: CostCenterInfo } | ReviewRefusal> }
  | ReviewRefusal;

export function startReview(params: Params, reader: ReviewReader, use: ReviewUse = "read"): ReviewStart {
  const scenario = parseScenario(params.rf ?? "");
  if (!scenario) return { ok: false, status: 404, message: forecastTexts.invalidScenario };
  const cost_center_concat = params.cost_center_concat ?? "";
  if (cost_center_concat.length === 0 || cost_center_concat.length > COST_CENTER_CONCAT_MAX)
    return { ok: false, status: 404, message: forecastTexts.unknownReview };
  const calendar = scenarioCalendar(scenario);
  return {
    ok: true,
    review: { calendar, costCenter: { cost_center_concat, cost_center: "", level_descr: "" } },
    found: allowedCostCenter(scenario.name, cost_center_concat, reader, use),
  };
}

/**
 * The cost centre's record, if the reader may read it, or write it for `use` "write" (the forecast's one rule,
 * readsCostCentre and writesCostCentre in app/models/forecast-readers.server.ts, which an upload's rows ask too). A
 * cost centre outside the reader's scope is refused whether it exists or not, so a refusal tells nothing of another's
 * data.
 */
async function allowedCostCenter(
  rf: string,
  cost_center_concat: string,
  reader: ReviewReader,
  use: ReviewUse,
): Promise<{ ok: true; costCenter: CostCenterInfo } | ReviewRefusal> {
  // Both in this turn: the preparer's record is read with the cost centre's (and the page's other reads).
  const [found, allowed] = await Promise.all([
    findCostCenter(rf, cost_center_concat),
    use === "write" ? writesCostCentre(reader, cost_center_concat) : readsCostCentre(reader, cost_center_concat),
  ]);
  if (!allowed) {
    await recordAccessRefused(
      reader,
      { routeId: REVIEW_ROUTE_ID, path: reviewPath(rf, cost_center_concat).slice(0, 200) },
      "notAllowed",
      { rf, cost_center_concat },
    );
    return { ok: false, status: 403, message: uiTexts.forbidden };
  }
  if (!found) return { ok: false, status: 404, message: forecastTexts.unknownReview };
  return { ok: true, costCenter: found };
}

/**
 * The scenario and cost centre of `/ij/report_preview_edit_schneider/:rf/:cost_center_concat`, if both exist and the
 * reader may read the cost centre's forecast (`use` "write": change its figures): every page and POST of the review,
 * its export and an edited export sent back come through here.
 */
export async function resolveReview(
  params: Params,
  reader: ReviewReader,
  use: ReviewUse = "read",
): Promise<ReviewLookup> {
  const start = startReview(params, reader, use);
  if (!start.ok) return start;
  const found = await start.found;
  if (!found.ok) return found;
  return { ok: true, review: { calendar: start.review.calendar, costCenter: found.costCenter } };
}

/** A review refused: what a page's loader or action throws (the error boundary shows 403 and 404 in Portuguese). */
export function reviewRefusal(refusal: ReviewRefusal): Response {
  return new Response(refusal.message, {
    status: refusal.status,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

export type { ReviewFacts };

function factsOf(calendar: ScenarioCalendar): ReviewFacts {
  const afterEdit = monthStartDate(calendar.editMonth + 1);
  const lastEditDay = new Date(afterEdit.getTime() - 86_400_000);
  return {
    anchor: dayLabel(calendar.anchor),
    editMonth: monthLabel(calendar.editMonth),
    from: monthLabel(calendar.firstMonth),
    to: monthLabel(calendar.lastMonth),
    lastEditDay: dayLabel({
      year: lastEditDay.getUTCFullYear(),
      month: lastEditDay.getUTCMonth() + 1,
      day: lastEditDay.getUTCDate(),
    }),
  };
}

/** A window's entries as the grid's records (month positions from the window's first month). */
function windowRecords(accounts: readonly WindowAccount[], firstMonth: Month): WindowRecord[] {
  return accounts.flatMap(({ _id, label, months: cellMonths, values, forecasts, edited }) =>
    cellMonths.map((month, i) => ({
      account_concat: _id.account,
      acc_description: label,
      group_level_2: _id.group,
      monthIndex: monthOfDate(month) - firstMonth,
      value: values[i],
      forecast: forecasts[i],
      edited: edited[i] !== false,
      editedAt: edited[i] === false ? 0 : (edited[i] as Date).getTime(),
    })),
  );
}

/** Each account's shown values (buildGroups' rule: actuals before `firstForecastIndex`, forecasts from it). */
function shownByAccount(records: readonly WindowRecord[], monthCount: number, firstForecastIndex: number) {
  return new Map(
    buildGroups(records, monthCount, firstForecastIndex).flatMap((g) => g.accounts.map((a) => [a.account, a.values])),
  );
}

/**
 * The grid of a review: the window's months, actuals then forecasts by account group, and whether it may change now.
 * With variance columns asked for (`?cols=`, parseVarianceColumns), it also reads the previous RF's and the actuals'
 * records over the same months and adds their figures (app/features/forecast/variance.ts) to the payload.
 */
export async function loadReviewGrid(
  review: Review,
  today: CalendarDate,
  canWrite: boolean,
  varianceColumns: readonly VarianceGroup[] = [],
) {
  const { calendar, costCenter } = review;
  const months = windowMonths(calendar);
  const from = monthStartDate(calendar.firstMonth);
  const to = monthStartDate(calendar.lastMonth + 1);
  const previousCalendar = scenarioCalendar(previousScenario(calendar));
  const withVariance = varianceColumns.length > 0;
  const read = withVariance
    ? await readWindowWithPrevious(calendar.name, previousCalendar.name, costCenter.cost_center_concat, from, to)
    : { current: await readWindow(calendar.name, costCenter.cost_center_concat, from, to), previous: [], actuals: [] };
  const firstForecastIndex = calendar.firstForecastMonth - calendar.firstMonth;
  const open = isOpenForEditing(calendar, today);
  const totals = annualTotals(months);
  const groups = buildGroups(windowRecords(read.current, calendar.firstMonth), months.length, firstForecastIndex);
  const grid: ForecastGridPayload = {
    months: months.map(monthKey),
    firstForecastIndex,
    editable: open && canWrite,
    totals,
    groups,
  };
  if (withVariance) {
    const previousFirstForecast = previousCalendar.firstForecastMonth - calendar.firstMonth;
    grid.variance = buildVariance({
      columns: varianceColumns,
      previousRf: previousCalendar.name,
      groups,
      monthCount: months.length,
      firstForecastIndex,
      totals,
      previous: shownByAccount(windowRecords(read.previous, calendar.firstMonth), months.length, previousFirstForecast),
      previousWindow: {
        from: previousCalendar.firstMonth - calendar.firstMonth,
        to: previousCalendar.lastMonth - calendar.firstMonth,
        firstForecastIndex: previousFirstForecast,
      },
      // The "actual" scenario's `value` in every month.
      actual: shownByAccount(windowRecords(read.actuals, calendar.firstMonth), months.length, months.length),
      currentMonthIndex: monthOfDay(today) - calendar.firstMonth,
    });
  }
  return {
    rf: calendar.name,
    costCenter,
    facts: factsOf(calendar),
    open,
    editWindow: editWindowOf(calendar, today),
    canWrite,
    grid,
  };
}

// ---------------------------------------------------------------------------------------------
// Save

/** A save's JSON body may hold a full grid's changes (20,000 cells are ~1.5 MB). */

export type ConflictView = { account: string; month: string; current: number; text: string };

export type SaveReply = { ok: true; saved: number } | { ok: false; message: string; conflicts?: ConflictView[] };

function conflictView(conflict: Conflict): ConflictView {
  const when = conflict.at ? formatDateTime(conflict.at) : "—";
  return {
    account: conflict.account,
    month: monthKey(monthOfDate(conflict.month)),
    current: conflict.current,
    text: forecastTexts.conflictCell(conflict.by ?? "—", when, formatPtBr2(conflict.current)),
  };
}

/**
 * Saves the changed cells of one review: the body is checked in full (checkSave) before anything is written, and the
 * model refuses cells that are missing or were changed by someone else since they were loaded.
 */
export async function saveReview(
  request: Request,
  review: Review,
  author: { email: string; name: string; type?: string | null },
  today: CalendarDate,
) {
  const reply = (body: SaveReply, status = 200) => data<SaveReply>(body, { status });
  const body = await readLimitedJson(request, FORECAST_SAVE_BODY_MAX_BYTES);
  if (!body.ok)
    return reply(
      {
        ok: false,
        message: body.status === 413 ? forecastTexts.tooManyCells(SAVE_MAX_CELLS) : forecastTexts.invalidSave,
      },
      body.status,
    );
  const check = checkSave(body.value, review.calendar, today);
  if (!check.ok) return reply({ ok: false, message: check.message }, check.status);
  const cells = check.cells.map((c) => ({ ...c, month: monthStartDate(c.month) }));
  const written = await writeReviewCells(review, cells, author);
  // A save is confirmed as an Excel import is: the portal's toast, not a dialog to close.
  if (!written.body.ok) return reply(written.body, written.status);
  const headers = await createToastHeaders({ type: "success", description: uiTexts.saved });
  return data<SaveReply>(written.body, { status: written.status, headers });
}

/**
 * Writes checked cells of one review (the grid's save, a spread) through the forecast's one write rule, records the
 * edit in the audit trail before answering, and says what happened in the review's words. `via`: what made the
 * change, kept in each cell's history.
 */
export async function writeReviewCells(
  review: Review,
  cells: CellWrite[],
  author: { email: string; name: string; type?: string | null },
  via?: "spread",
): Promise<{ status: number; body: SaveReply }> {
  // The audit trail: the cells written (value before → after), with the review (where each cell's history opens),
  // before the reply.
  const audited = (written: readonly CellWrite[]) =>
    recordEdit({
      actor: author,
      dataset: FORECAST_EDIT_DATASET,
      screen: REVIEW_SCREEN,
      rows: written.length,
      cells: written.map((c) => ({
        account: c.account,
        month: monthKey(monthOfDate(c.month)),
        old: c.old,
        new: c.value,
      })),
      historyLink: reviewPath(review.calendar.name, review.costCenter.cost_center_concat),
      object: {
        kind: "costCentre",
        id: review.costCenter.cost_center_concat,
        label: `${review.calendar.name} · ${review.costCenter.cost_center_concat}`,
      },
      details: {
        rf: review.calendar.name,
        cost_center_concat: review.costCenter.cost_center_concat,
        ...(via ? { via } : {}),
      },
    });
  const { calendar, costCenter } = review;
  const result = await saveForecastCells(calendar.name, costCenter.cost_center_concat, cells, author, new Date(), via);
  switch (result.kind) {
    case "saved":
      await audited(result.written);
      return { status: 200, body: { ok: true, saved: result.count } };
    case "missing": {
      const month = monthLabel(monthOfDate(result.month));
      return {
        status: 400,
        body: {
          ok: false,
          message: result.knownAccount
            ? forecastTexts.cellMissing(result.account, month)
            : forecastTexts.rowRefused(result.account),
        },
      };
    }
    case "frozen":
    case "closed":
    case "upcoming":
      return {
        status: 409,
        body: { ok: false, message: lockMessage(result, costCenter.cost_center_concat, calendar.name) },
      };
    case "conflicts": {
      await audited(result.written);
      const message =
        result.saved > 0
          ? forecastTexts.conflictsAfterSave(result.saved, result.conflicts.length)
          : forecastTexts.conflicts(result.conflicts.length);
      return { status: 409, body: { ok: false, message, conflicts: result.conflicts.map(conflictView) } };
    }
  }
}
