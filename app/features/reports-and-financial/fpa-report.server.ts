import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { messages, reportsTexts as t } from "~/messages";
import { findResponsible, fpaReport } from "~/models/fpa.server";
import { isBusinessUnit, setForecast } from "~/models/ledger.server";
import { BUSINESS_UNITS, parseBrazilianNumber } from "~/models/reports.fields";
import { recordEdit } from "~/platform/audit/data-events.server";
import type { AuditActorInput } from "~/platform/audit/record.server";
import { addMonthsToDate, isMonthKey, monthKeyOfDate, monthLabelOfDate, monthStartOfKey } from "~/shared/months";
import { optionalMonth } from "./month-param";

/** The loader and action behind /ij/report_save, the FP&A report (the route keeps the access checks and the page). */

export const FPA_TABS = ["current", "variances"] as const;

/** The page's URL state: unit and month (the filter), tab, the row being edited, and the saved notice. */
const paramsSchema = z.object({
  company: z.enum(BUSINESS_UNITS).nullable().catch(null),
  period: optionalMonth,
  tab: z.enum(FPA_TABS).catch("current"),
  edit: z.string().max(40).nullable().catch(null),
  saved: z.literal("1").nullable().catch(null),
  view: z.literal("filter").nullable().catch(null),
});

/** The report of the unit and month of the URL with its header, or only the filter's defaults when there is none. */
export async function loadFpaReport(request: Request, canEdit: boolean) {
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k);
  const params = paramsSchema.parse({
    company: get("company"),
    period: get("period"),
    tab: get("tab") ?? undefined,
    edit: get("edit"),
    saved: get("saved"),
    view: get("view"),
  });
  const defaults = {
    company: params.company ?? BUSINESS_UNITS[0],
    period: params.period ?? monthKeyOfDate(addMonthsToDate(new Date(), -1)),
  };
  if (!params.company || !params.period || params.view)
    return { params, defaults, canEdit, report: null, header: null };
  const month = monthStartOfKey(params.period)!;
  const [report, responsible] = await Promise.all([fpaReport(params.company, month), findResponsible(params.company)]);
  return {
    params,
    defaults,
    canEdit,
    report,
    header: {
      period: monthLabelOfDate(month),
      country: responsible?.country ?? "",
      functionalArea: responsible?.functionalArea ?? "",
      personResponsible: responsible?.personResponsible ?? "",
      userResponsible: responsible?.userResponsible ?? "",
      costCenter: responsible?.costCenter ?? "",
    },
  };
}

export type FpaPageData = Awaited<ReturnType<typeof loadFpaReport>>;

const saveSchema = z.object({
  intent: z.literal("save"),
  company: z.enum(BUSINESS_UNITS),
  period: z.string().refine(isMonthKey),
  account: z.string().regex(/^[\d.]{1,40}$/),
  rf_n: z.string().max(40),
});

type ActionResult = { error: string };

/** Saves one row's forecast; the value is a Brazilian-format number. A save returns to the page with `saved=1`. */
export async function saveFpaForecast(request: Request, email: string, actor: AuditActorInput = { email }) {
  const form = await request.formData().catch(() => null);
  const parsed = saveSchema.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return data<ActionResult>({ error: messages.badRequest }, { status: 400 });
  const value = parseBrazilianNumber(parsed.data.rf_n);
  if (value === null) return data<ActionResult>({ error: t.fpaValueInvalid }, { status: 400 });
  const month = monthStartOfKey(parsed.data.period);
  if (!month || !isBusinessUnit(parsed.data.company))
    return data<ActionResult>({ error: messages.badRequest }, { status: 400 });
  const saved = await setForecast({
    businessUnitID: parsed.data.company,
    account: parsed.data.account,
    month,
    forecast: value,
    user: email,
  });
  if (!saved) return data<ActionResult>({ error: t.rowNotFound }, { status: 404 });
  const url = new URL(request.url);
  url.searchParams.delete("edit");
  url.searchParams.set("saved", "1");
  // The audit trail: the row's forecast saved; the report on this filter is where it shows.
  await recordEdit({
    actor,
    dataset: "fpa",
    screen: "/ij/report_save",
    rows: 1,
    historyLink: `${url.pathname}${url.search}`,
    details: { company: parsed.data.company, account: parsed.data.account, period: parsed.data.period },
  });
  return redirect(`${url.pathname}${url.search}`);
}
