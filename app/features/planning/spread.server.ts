import { data } from "@remix-run/node";
import { ObjectId } from "mongodb";
import { z } from "zod";
import type { PlanningFilter } from "~/models/planning.fields";
import { QUANTITY_MAX } from "~/models/planning.fields";
import {
  planningPairRows,
  planningPairValues,
  planningRowById,
  SPREAD_MONTHS_MAX,
  saveQuantities,
} from "~/models/planning-queries.server";
import { recordEdit } from "~/platform/audit/data-events.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { monthOfDate, monthStartDate } from "~/shared/months";
import { parsePtBrNumber } from "~/shared/numbers";
import { spreadTotal } from "~/shared/spread";
import { redirectWithToast } from "~/shared/toast.server";
import { PLANNING_DATASET } from "./excel.server";
import { filterSearchParams, parseFilter } from "./planning";
import { formatCompetencyMonth } from "./planning-dates";
import { PLANNING_SPREAD_PATH } from "./row-paths";
import { PLAN_SCREEN } from "./screens";
import { PLANNING_SPREAD_MODES, type PlanningSpreadMode, type PlanningSpreadPage } from "./spread";
import { planningTexts as t } from "./texts";

/**
 * "Distribuir total" of the planning grid (`/ij/plan_edit/distribuir?linha=<row>&<filter>`): a total of one SKU in one
 * channel over the filter's months that have a row, in whole units (the remainder on the last month), evenly, like the
 * same months a year earlier (a month without one a year earlier: the even share, named), or by typed weights (a base
 * without a positive weight: evenly, said). The GET form shows
 * the preview; the POST computes it again and saves it as one individual save of those rows, checked against the
 * revisions the preview read ("distribuído" in each row's history). Without JavaScript as with it: a page of its own.
 */

const formSchema = z.object({
  linha: z
    .string()
    .regex(/^[0-9a-f]{24}$/i)
    .catch(""),
  total: z.string().max(40).default(""),
  modo: z.enum(PLANNING_SPREAD_MODES).catch("igual"),
  pesos: z.string().max(2000).default(""),
});
type Form = z.infer<typeof formSchema>;
type Mode = PlanningSpreadMode;

const pt = (n: number) => n.toLocaleString("pt-BR");

function formOf(params: URLSearchParams | FormData): Form {
  const get = (name: string) => {
    const value = params.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return formSchema.parse({ linha: get("linha"), total: get("total"), modo: get("modo"), pesos: get("pesos") });
}

async function weightsFor(mode: Mode, sku: string, channel: string, months: readonly Date[], typed: string) {
  if (mode === "igual") return months.map(() => 1);
  if (mode === "pesos") {
    const parts = typed.split(";").map((p) => parsePtBrNumber(p.trim()));
    if (parts.length !== months.length || parts.some((p) => !p.ok || p.empty || p.value < 0)) return null;
    return parts.map((p) => (p.ok ? p.value : 0));
  }
  const before = months.map((d) => monthStartDate(monthOfDate(d) - 12));
  const values = await planningPairValues(sku, channel, before);
  return before.map((d) => values.get(d.getTime()) ?? Number.NaN);
}

type Computed = {
  page: PlanningSpreadPage;
  rows: Awaited<ReturnType<typeof planningPairRows>>;
  values: number[] | null;
};

async function compute(url: URL, form: Form, wantSpread: boolean, canWrite: boolean): Promise<Computed> {
  const parsed = parseFilter(url.searchParams, "plan");
  const filter: PlanningFilter | null = parsed.ok ? parsed.filter : null;
  const query = filter ? filterSearchParams(filter, parsed.ok ? parsed.skuMode : undefined) : new URLSearchParams();
  const page: PlanningSpreadPage = {
    backHref: `${PLAN_SCREEN.resultsPath}?${query}`,
    action: `${PLANNING_SPREAD_PATH}?${new URLSearchParams([...query, ["linha", form.linha]])}`,
    row: null,
    months: [],
    values: { total: form.total, mode: form.modo, weights: form.pesos },
    error: null,
    preview: null,
  };
  const refuse = (error: string, rows: Computed["rows"] = []): Computed => ({
    page: { ...page, error },
    rows,
    values: null,
  });
  if (!canWrite) return refuse(t.spreadReadOnly);
  const row = filter && form.linha ? await planningRowById(form.linha) : null;
  if (!filter || !row) return refuse(t.spreadUnknownRow);
  const rows = await planningPairRows(filter, row.sku, row.channel);
  if (!rows.some((r) => r._id.equals(row._id))) return refuse(t.spreadUnknownRow);
  if (rows.length > SPREAD_MONTHS_MAX) return refuse(t.spreadTooManyMonths(SPREAD_MONTHS_MAX));
  page.row = { id: row._id.toHexString(), sku: row.sku, channel: row.channel };
  page.months = rows.map((r) => ({ key: r._id.toHexString(), label: formatCompetencyMonth(r.dateRef) }));
  if (!wantSpread) return { page, rows, values: null };
  const total = parsePtBrNumber(form.total);
  if (!total.ok || total.empty || !Number.isInteger(total.value) || total.value < 0 || total.value > QUANTITY_MAX)
    return refuse(t.spreadTotalInvalid, rows);
  const weights = await weightsFor(
    form.modo,
    row.sku,
    row.channel,
    rows.map((r) => r.dateRef),
    form.pesos,
  );
  if (!weights) return refuse(t.spreadWeightsInvalid(rows.length), rows);
  const spread = spreadTotal(total.value, weights, 0);
  const unbased = spread.unbased.map((i) => formatCompetencyMonth(rows[i].dateRef));
  const note =
    spread.fellBack && form.modo !== "igual"
      ? t.spreadFellBack(t.spreadModes[form.modo])
      : unbased.length > 0
        ? t.spreadUnbased(unbased)
        : null;
  page.preview = {
    rows: rows.map((r, i) => ({
      key: r._id.toHexString(),
      label: formatCompetencyMonth(r.dateRef),
      current: pt(r.valor),
      next: pt(spread.values[i]),
    })),
    note,
    state: rows.map((r) => `${r._id.toHexString()}:${r.revision}`).join(";"),
  };
  return { page, rows, values: spread.values };
}

export async function loadPlanningSpread(url: URL, canWrite: boolean): Promise<PlanningSpreadPage> {
  const form = formOf(url.searchParams);
  return (await compute(url, form, url.searchParams.has("total"), canWrite)).page;
}

const stateSchema = z.string().max(SPREAD_MONTHS_MAX * 40);

/** The POST: the spread computed again from the form, saved against the rows and revisions the preview read. */
export async function savePlanningSpread(request: Request, user: AuthenticatedUser) {
  const url = new URL(request.url);
  const body = await request.formData().catch(() => null);
  const form = formOf(body ?? new FormData());
  const state = stateSchema.safeParse(body?.get("state"));
  const { page, rows, values } = await compute(url, form, true, true);
  if (page.error || !values || !state.success)
    return data({ ...page, error: page.error ?? t.spreadTotalInvalid }, { status: 400 });
  // The preview's rows and revisions, in order, as they are now: any other set (a row added, changed since or gone)
  // is refused before anything is written, so a spread applies whole (its total stays exact).
  const read = state.data.split(";").map((part) => part.split(":"));
  const same = (i: number) => read[i][0] === rows[i]._id.toHexString() && read[i][1] === String(rows[i].revision);
  if (read.length !== rows.length || rows.some((_, i) => !same(i)))
    return data({ ...page, error: t.spreadChanged }, { status: 409 });
  const edits = rows.map((r, i) => ({
    id: new ObjectId(r._id.toHexString()),
    revision: Number(read[i][1]),
    valor: values[i],
  }));
  const parsed = parseFilter(url.searchParams, "plan");
  if (!parsed.ok) return data({ ...page, error: t.spreadUnknownRow }, { status: 400 });
  const outcome = await saveQuantities({
    user: user.email,
    screen: PLAN_SCREEN.save,
    filter: parsed.filter,
    edits,
    via: "spread",
  });
  if (outcome.kind !== "saved" || outcome.conflicts.length > 0)
    return data({ ...page, error: t.spreadChanged }, { status: 409 });
  await recordEdit({
    actor: user,
    dataset: PLANNING_DATASET,
    screen: PLAN_SCREEN.resultsPath,
    rows: outcome.saved,
    historyLink: page.backHref,
    details: { mode: "unitario", via: "spread" },
  });
  return redirectWithToast(page.backHref, { type: "success", description: t.spreadSaved(outcome.saved) });
}
