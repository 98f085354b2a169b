import { data } from "@remix-run/node";
import { z } from "zod";
import { forecastLocks } from "~/models/forecast.server";
import { type CalendarDate, monthLabel, monthStartDate, parseMonthKey } from "~/shared/months";
import { formatPtBr2, parsePtBrNumber } from "~/shared/numbers";
import { spreadOverRows } from "~/shared/spread";
import { redirectWithToast } from "~/shared/toast.server";
import { lockMessage } from "./cycle/server-texts";
import { reviewPath } from "./forecast-filter";
import type { AccountLine } from "./forecast-grid-rules";
import { isEditableMonth } from "./release-points";
import { loadReviewGrid, type Review, writeReviewCells } from "./review.server";
import { SPREAD_MODES, SPREAD_SCOPES, type SpreadPage } from "./spread";
import { spreadProfiles, spreadWeights } from "./spread-bases.server";
import { checkSpreadSign, type SpreadSignCheck } from "./spread-sign";
import { spreadBaseTexts, spreadSignTexts } from "./spread-texts";

export { SPREAD_MODES, type SpreadPage };

import { forecastTexts } from "./texts";

/**
 * "Distribuir total" of the forecast review (`…/{rf}/{cost_center_concat}/distribuir`), without JavaScript: a GET form
 * (accounts, total, how, and for several accounts whether each takes the total or shares it) shows the spread as a
 * preview of the accounts' open months; its POST saves it as one save through the review's own write path (edit
 * window, cycle state, conflicts since the preview), each cell's history saying "distribuído". The grid's dialog reads
 * the same preview. The bases (evenly, like the previous RF, last year's actuals or a stored seasonality profile, typed
 * weights) are spread-bases.server.ts; a month without a base takes the even share and is named, a base without a
 * positive weight falls back to evenly (~/shared/spread). A total shared by several accounts goes by each account's
 * weight: its base's sum (the previous RF, last year's actuals), else its current open months.
 * A total against an account's sign is a reversal, confirmed (`estorno`) and bounded (spread-sign.ts), or refused.
 */

/** Accounts one spread may take (a cost centre has a few dozen). */
const ACCOUNTS_MAX = 200;

const formSchema = z.object({
  contas: z.array(z.string().max(300)).max(ACCOUNTS_MAX).default([]),
  total: z.string().max(40).default(""),
  modo: z.enum(SPREAD_MODES).catch("igual"),
  pesos: z.string().max(2000).default(""),
  /** A stored seasonality profile's id (mode "perfil"); anything else is none. */
  perfil: z
    .string()
    .regex(/^[0-9a-f]{24}$/i)
    .catch(""),
  alcance: z.enum(SPREAD_SCOPES).catch("cada"),
  /** The preparer confirms a reversal (a total against an account's sign). */
  estorno: z.literal("1").optional().catch(undefined),
});

type Form = z.infer<typeof formSchema>;

type Computed = {
  lines: AccountLine[];
  months: number[];
  indexes: number[];
  spread?: { values: number[][]; note: string | null };
};

/** Each chosen account's weight when one total is shared: its base's sum ("like …"), else its open months' sum. */
function rowWeightsOf(form: Form, lines: readonly AccountLine[], indexes: readonly number[], weights: number[][]) {
  const sum = (values: readonly number[]) => values.reduce((a, v) => a + (Number.isFinite(v) ? v : 0), 0);
  if (form.modo === "rf_anterior" || form.modo === "realizado_ano_anterior") return weights.map(sum);
  return lines.map((line) => sum(indexes.map((i) => line.values[i] ?? 0)));
}

/** Why a spread against an account's sign is refused, or null when it is not. */
function signRefusal(check: SpreadSignCheck): string | null {
  if (check.ok) return null;
  return check.reason === "unconfirmed"
    ? spreadSignTexts.unconfirmed(check.accounts)
    : spreadSignTexts.tooLarge(check.account, `R$ ${formatPtBr2(check.limit)}`);
}

/**
 * The months each account's base does not cover, spread evenly: one sentence per set of months, naming the accounts
 * when the spread's accounts differ in them.
 */
function unbasedNotes(lines: readonly AccountLine[], unbased: readonly number[][], monthLabels: readonly string[]) {
  const bySet = new Map<string, { months: string[]; accounts: string[] }>();
  lines.forEach((line, r) => {
    if (unbased[r].length === 0) return;
    const key = unbased[r].join(",");
    const entry = bySet.get(key) ?? { months: unbased[r].map((k) => monthLabels[k]), accounts: [] };
    entry.accounts.push(line.account);
    bySet.set(key, entry);
  });
  const every = bySet.size === 1 && [...bySet.values()][0].accounts.length === lines.length;
  return [...bySet.values()].map((e) => spreadBaseTexts.unbased(e.months, every ? undefined : e.accounts));
}

/** What the spread says beside its figures: months or accounts without a base, a total shared evenly, a reversal. */
function noteOf(
  form: Form,
  lines: readonly AccountLine[],
  spread: { fellBack: readonly boolean[]; unbased: readonly number[][]; sharedFellBack: boolean },
  monthLabels: readonly string[],
  reversals: readonly string[],
) {
  const { fellBack, sharedFellBack } = spread;
  const notes: string[] = [];
  const without = lines.filter((_, i) => fellBack[i]).map((l) => l.account);
  if (without.length > 0 && form.modo !== "igual")
    notes.push(
      lines.length === 1
        ? forecastTexts.spreadFellBack(forecastTexts.spreadModes[form.modo])
        : forecastTexts.spreadFellBackOf(forecastTexts.spreadModes[form.modo], without),
    );
  notes.push(...unbasedNotes(lines, spread.unbased, monthLabels));
  if (sharedFellBack) notes.push(forecastTexts.spreadSharedEvenly);
  if (reversals.length > 0) notes.push(spreadSignTexts.confirmedNote(reversals));
  return notes.length > 0 ? notes.join(" ") : null;
}

/** The accounts' lines and open months, and the spread the form asks for (or why not). */
async function compute(
  review: Review,
  today: CalendarDate,
  form: Form,
  wantSpread: boolean,
  canWrite: boolean,
): Promise<{ page: SpreadPage; computed: Computed | null }> {
  const { grid } = await loadReviewGrid(review, today, true);
  const accounts = grid.groups.flatMap((g) => g.accounts.map((a) => ({ account: a.account, label: a.label })));
  const chosen = [...new Set(form.contas.filter((c) => c.length > 0))];
  const page: SpreadPage = {
    rf: review.calendar.name,
    costCenter: review.costCenter.cost_center_concat,
    reviewHref: reviewPath(review.calendar.name, review.costCenter.cost_center_concat),
    accounts,
    chosen,
    openMonths: [],
    profiles: await spreadProfiles(),
    values: {
      total: form.total,
      mode: form.modo,
      weights: form.pesos,
      profile: form.perfil,
      scope: form.alcance,
      reversal: form.estorno === "1",
    },
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
  if (chosen.length === 0) return { page, computed: null };
  const byAccount = new Map(grid.groups.flatMap((g) => g.accounts).map((a) => [a.account, a]));
  const lines = chosen.map((c) => byAccount.get(c));
  if (lines.some((l) => !l)) return { page: { ...page, error: forecastTexts.spreadUnknownAccount }, computed: null };
  const found = lines as AccountLine[];
  const months = indexes.map((i) => monthNumbers[i]);
  const computed: Computed = { lines: found, months, indexes };
  if (!wantSpread) return { page, computed };
  const total = parsePtBrNumber(form.total);
  if (!total.ok || total.empty) return { page: { ...page, error: forecastTexts.spreadTotalInvalid }, computed };
  const base = await spreadWeights(review, form.modo, chosen, months, { weights: form.pesos, profile: form.perfil });
  if (!base.ok) return { page: { ...page, error: base.error }, computed };
  const weights = base.weights;
  const shared = found.length > 1 && form.alcance === "repartido" ? rowWeightsOf(form, found, indexes, weights) : null;
  const spread = spreadOverRows(total.value, weights, shared, 2);
  const sign = checkSpreadSign(found, indexes, spread.values, form.estorno === "1");
  const refused = signRefusal(sign);
  if (refused) return { page: { ...page, error: refused }, computed };
  const labels = indexes.map((i) => monthLabel(monthNumbers[i]));
  const note = noteOf(form, found, spread, labels, sign.ok ? sign.reversals : []);
  computed.spread = { values: spread.values, note };
  page.preview = {
    rows: found.flatMap((line, r) =>
      indexes.map((i, k) => ({
        account: line.account,
        key: grid.months[i],
        label: labels[k],
        current: formatPtBr2(line.values[i] ?? 0),
        next: formatPtBr2(spread.values[r][k]),
        value: spread.values[r][k],
      })),
    ),
    note,
    // What the preview was computed against (account by account, month by month): a save refuses cells changed since.
    olds: found.flatMap((line) => indexes.map((i) => line.values[i] ?? 0)).join(";"),
    stamps: found.flatMap((line) => indexes.map((i) => line.stamps[i] ?? 0)).join(";"),
  };
  return { page, computed };
}

function formOf(params: URLSearchParams | FormData): Form {
  const get = (name: string) => {
    const value = params.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const contas = params.getAll("conta").filter((c): c is string => typeof c === "string");
  return formSchema.parse({
    contas: contas.slice(0, ACCOUNTS_MAX),
    total: get("total"),
    modo: get("modo"),
    pesos: get("pesos"),
    perfil: get("perfil"),
    alcance: get("alcance"),
    estorno: get("estorno"),
  });
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
  olds: z.string().max(200_000),
  stamps: z.string().max(200_000),
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
  const count = computed.lines.length * computed.months.length;
  if (olds.length !== count || stamps.length !== count || [...olds, ...stamps].some((n) => !Number.isFinite(n)))
    return data({ ...page, error: forecastTexts.spreadChanged }, { status: 409 });
  const { spread } = computed;
  const cells = computed.lines.flatMap((line, r) =>
    computed.months.map((m, k) => {
      const at = r * computed.months.length + k;
      return {
        account: line.account,
        month: monthStartDate(m),
        old: olds[at],
        value: spread.values[r][k],
        at: stamps[at],
      };
    }),
  );
  const written = await writeReviewCells(review, cells, author, "spread");
  if (!written.body.ok)
    return data(
      { ...page, error: written.body.conflicts ? forecastTexts.spreadChanged : written.body.message },
      { status: written.status },
    );
  return redirectWithToast(page.reviewHref, {
    type: "success",
    description: [forecastTexts.spreadSaved(computed.months.length, computed.lines.length), spread.note]
      .filter(Boolean)
      .join(" "),
  });
}
