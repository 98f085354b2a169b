import { data } from "@remix-run/node";
import { z } from "zod";
import { forecastLocks, readWindow } from "~/models/forecast.server";
import { type CalendarDate, monthLabel, monthStartDate, parseMonthKey } from "~/shared/months";
import { formatPtBr2, parsePtBrNumber } from "~/shared/numbers";
import { redirectWithToast } from "~/shared/toast.server";
import { lockMessage } from "./cycle/server-texts";
import { reviewPath } from "./forecast-filter";
import type { AccountLine } from "./forecast-grid-rules";
import { isEditableMonth } from "./release-points";
import { loadReviewGrid, type Review, writeReviewCells } from "./review.server";
import { SPREAD_MODES, type SpreadMode, type SpreadPage, spreadTotal } from "./spread";

export { SPREAD_MODES, type SpreadPage };

import { forecastTexts } from "./texts";
import { previousScenario } from "./variance";

/**
 * "Distribuir total" of the forecast review (`…/{rf}/{cost_center_concat}/distribuir`), without JavaScript: a GET form
 * (account, total, how) shows the spread as a preview of the account's open months; its POST saves it as one save
 * through the review's own write path (edit window, cycle state, conflicts since the preview), each cell's history
 * saying "distribuído". The weights of "like the previous RF" are that RF's forecast for the same months, of "like last
 * year's actuals" the actuals twelve months before; a base without a positive weight falls back to evenly.
 */

const formSchema = z.object({
  conta: z.string().max(300).default(""),
  total: z.string().max(40).default(""),
  modo: z.enum(SPREAD_MODES).catch("igual"),
  pesos: z.string().max(2000).default(""),
});

type Form = z.infer<typeof formSchema>;

async function weightsFor(
  review: Review,
  mode: SpreadMode,
  account: string,
  months: readonly number[],
  typed: string,
): Promise<number[] | null> {
  if (mode === "igual") return months.map(() => 1);
  if (mode === "pesos") {
    const parts = typed.split(";").map((p) => parsePtBrNumber(p.trim()));
    if (parts.length !== months.length || parts.some((p) => !p.ok || p.empty || p.value < 0)) return null;
    return parts.map((p) => (p.ok ? p.value : 0));
  }
  const { calendar, costCenter } = review;
  const shift = mode === "realizado_ano_anterior" ? -12 : 0;
  const rf = mode === "rf_anterior" ? previousScenario(calendar).name : "actual";
  const from = monthStartDate(Math.min(...months) + shift);
  const to = monthStartDate(Math.max(...months) + shift + 1);
  const window = await readWindow(rf, costCenter.cost_center_concat, from, to);
  const entry = window.find((w) => w._id.account === account);
  return months.map((m) => {
    const i = entry ? entry.months.findIndex((d) => d.getTime() === monthStartDate(m + shift).getTime()) : -1;
    const value = i < 0 || !entry ? null : mode === "rf_anterior" ? entry.forecasts[i] : entry.values[i];
    return value === null ? Number.NaN : value;
  });
}

type Computed = {
  line: AccountLine;
  months: number[];
  indexes: number[];
  spread?: { values: number[]; note: string | null };
};

/** The account's line and open months, and the spread the form asks for (or why not). */
async function compute(
  review: Review,
  today: CalendarDate,
  form: Form,
  wantSpread: boolean,
  canWrite: boolean,
): Promise<{ page: SpreadPage; computed: Computed | null }> {
  const { grid } = await loadReviewGrid(review, today, true);
  const accounts = grid.groups.flatMap((g) => g.accounts.map((a) => ({ account: a.account, label: a.label })));
  const page: SpreadPage = {
    rf: review.calendar.name,
    costCenter: review.costCenter.cost_center_concat,
    reviewHref: reviewPath(review.calendar.name, review.costCenter.cost_center_concat),
    accounts,
    account: form.conta,
    openMonths: [],
    values: { total: form.total, mode: form.modo, weights: form.pesos },
    error: null,
    preview: null,
  };
  if (!canWrite) return { page: { ...page, error: forecastTexts.spreadReadOnly }, computed: null };
  // A submitted or approved cost centre, or a day outside the edit month: nothing to spread (the save would refuse).
  const [lock] = (
    await forecastLocks([{ rf: review.calendar.name, cost_center_concat: review.costCenter.cost_center_concat }], today)
  ).values();
  if (lock)
    return {
      page: { ...page, error: lockMessage(lock, review.costCenter.cost_center_concat, review.calendar.name) },
      computed: null,
    };
  const monthNumbers = grid.months.map((key) => parseMonthKey(key) ?? 0);
  const indexes = monthNumbers.flatMap((m, i) => (isEditableMonth(review.calendar, m, today) ? [i] : []));
  page.openMonths = indexes.map((i) => ({ key: grid.months[i], label: monthLabel(monthNumbers[i]) }));
  if (indexes.length === 0) return { page: { ...page, error: forecastTexts.spreadClosed }, computed: null };
  if (!form.conta) return { page, computed: null };
  const line = grid.groups.flatMap((g) => g.accounts).find((a) => a.account === form.conta);
  if (!line) return { page: { ...page, error: forecastTexts.spreadUnknownAccount }, computed: null };
  const months = indexes.map((i) => monthNumbers[i]);
  const computed: Computed = { line, months, indexes };
  if (!wantSpread) return { page, computed };
  const total = parsePtBrNumber(form.total);
  if (!total.ok || total.empty) return { page: { ...page, error: forecastTexts.spreadTotalInvalid }, computed };
  const weights = await weightsFor(review, form.modo, line.account, months, form.pesos);
  if (!weights) return { page: { ...page, error: forecastTexts.spreadWeightsInvalid(months.length) }, computed };
  const spread = spreadTotal(total.value, weights, 2);
  const note = spread.fellBack ? forecastTexts.spreadFellBack(forecastTexts.spreadModes[form.modo]) : null;
  computed.spread = { values: spread.values, note };
  const current = (i: number) => line.values[i] ?? 0;
  page.preview = {
    rows: indexes.map((i, k) => ({
      key: grid.months[i],
      label: monthLabel(monthNumbers[i]),
      current: formatPtBr2(current(i)),
      next: formatPtBr2(spread.values[k]),
    })),
    note,
    // What the preview was computed against: a save refuses cells changed since.
    olds: indexes.map((i) => current(i)).join(";"),
    stamps: indexes.map((i) => line.stamps[i] ?? 0).join(";"),
  };
  return { page, computed };
}

function formOf(params: URLSearchParams | FormData): Form {
  const get = (name: string) => {
    const value = params.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return formSchema.parse({ conta: get("conta"), total: get("total"), modo: get("modo"), pesos: get("pesos") });
}

export async function loadSpreadPage(
  review: Review,
  url: URL,
  today: CalendarDate,
  canWrite: boolean,
): Promise<SpreadPage> {
  const form = formOf(url.searchParams);
  return (await compute(review, today, form, url.searchParams.has("total"), canWrite)).page;
}

const savedState = z.object({
  olds: z.string().max(20_000),
  stamps: z.string().max(20_000),
});

/** The POST: the spread computed again on the server from the form, saved against the preview's values. */
export async function saveSpread(
  review: Review,
  request: Request,
  author: { email: string; name: string; type?: string | null },
  today: CalendarDate,
) {
  const body = await request.formData().catch(() => null);
  const form = formOf(body ?? new FormData());
  const state = savedState.safeParse({ olds: body?.get("olds"), stamps: body?.get("stamps") });
  const { page, computed } = await compute(review, today, form, true, true);
  if (page.error || !computed?.spread || !state.success)
    return data({ ...page, error: page.error ?? forecastTexts.spreadTotalInvalid }, { status: 400 });
  const olds = state.data.olds.split(";").map(Number);
  const stamps = state.data.stamps.split(";").map(Number);
  const numbers = [...olds, ...stamps];
  if (
    olds.length !== computed.months.length ||
    stamps.length !== computed.months.length ||
    numbers.some((n) => !Number.isFinite(n))
  )
    return data({ ...page, error: forecastTexts.spreadChanged }, { status: 409 });
  const { spread } = computed;
  const cells = computed.months.map((m, k) => ({
    account: computed.line.account,
    month: monthStartDate(m),
    old: olds[k],
    value: spread.values[k],
    at: stamps[k],
  }));
  const written = await writeReviewCells(review, cells, author, "spread");
  if (!written.body.ok)
    return data(
      { ...page, error: written.body.conflicts ? forecastTexts.spreadChanged : written.body.message },
      { status: written.status },
    );
  return redirectWithToast(page.reviewHref, {
    type: "success",
    description: [forecastTexts.spreadSaved(cells.length), spread.note].filter(Boolean).join(" "),
  });
}
