// Screen: Financial statements: /ij/demo_financial (statement cards per unit and period).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { MIN_MONTH } from "~/features/reports-and-financial/competency-bounds";
import {
  ensureStatements,
  StatementGenerationError,
} from "~/features/reports-and-financial/documents-statements.server";
import { MonthField, UnitSelect } from "~/features/reports-and-financial/fields";
import { subscriptionStateOf } from "~/features/subscriptions/pages.server";
import { SubscribeForm } from "~/features/subscriptions/subscribe-form";
import { messages, subscriptionTexts, reportsTexts as t } from "~/messages";
import { findStatements } from "~/models/financial.server";
import { latestLedgerMonth } from "~/models/ledger.server";
import { BUSINESS_UNITS, FINANCIAL_REPORT_TYPES, type FinancialReportType } from "~/models/reports.fields";
import { addMonthsToDate, isMonthKey, monthKeyOfDate, monthLabelOfDate, monthStartOfKey } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";

export const meta: MetaFunction = () => [{ title: t.financialTitle }];

const TYPE_LABELS: Record<FinancialReportType, string> = { MONTHLY: t.monthly, ANNUAL: t.annual };

/** The latest period a statement may be asked for: the current month (UTC). */
function maxMonth(now = new Date()): string {
  return monthKeyOfDate(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
}

/** The request (spec 001 §3 "Financial report request": businessUnitID, type, dateRef), validated on the server. */
function requestSchema(now = new Date()) {
  const max = maxMonth(now);
  return z.object({
    company: z.enum(BUSINESS_UNITS, { errorMap: () => ({ message: t.companyInvalid }) }),
    type: z.enum(FINANCIAL_REPORT_TYPES, { errorMap: () => ({ message: t.typeInvalid }) }),
    period: z
      .string({ required_error: t.periodRequired })
      .refine(isMonthKey, t.periodRequired)
      .refine(
        (p) => monthStartOfKey(p) !== null && p >= MIN_MONTH && p <= max,
        t.periodOutOfRange(monthLabelOfDate(monthStartOfKey(MIN_MONTH)!), monthLabelOfDate(monthStartOfKey(max)!)),
      ),
  });
}

type StatementRequest = z.infer<ReturnType<typeof requestSchema>>;

/** MONTHLY: the month; ANNUAL: 1 January of the period's year (docs/decisions.md). */
function dateRefOf(request: StatementRequest): Date {
  const month = monthStartOfKey(request.period)!;
  return request.type === "ANNUAL" ? new Date(Date.UTC(month.getUTCFullYear(), 0, 1)) : month;
}

const resultUrl = (r: StatementRequest) =>
  `/ij/demo_financial?${new URLSearchParams({ company: r.company, type: r.type, period: r.period })}`;

/**
 * /ij/demo_financial: Company, Type (Monthly by default, Annual), period and Apply; the result shows the cards
 * "Financial Statement - Word" and "- Excel", each opening the document in the portal's viewer (a new tab),
 * dimmed and disabled when the document is absent. The chosen request lives in the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.demo_financial", request);
  const url = new URL(request.url);
  const lastClosed = monthKeyOfDate(addMonthsToDate(new Date(), -1));
  const parsed = requestSchema().safeParse({
    company: url.searchParams.get("company"),
    type: url.searchParams.get("type"),
    period: url.searchParams.get("period"),
  });
  const form = parsed.success
    ? parsed.data
    : { company: BUSINESS_UNITS[0], type: "MONTHLY" as const, period: lastClosed };
  // "Assinar" the statements of the unit shown.
  const subscription = await subscriptionStateOf(user.email, "financial_statements", form.company);
  if (!parsed.success) return { form, max: maxMonth(), subscription, result: null };
  const key = { businessUnitID: parsed.data.company, type: parsed.data.type, dateRef: dateRefOf(parsed.data) };
  const records = await findStatements(key);
  const card = (typeDocument: "DOCX" | "XLSX") => {
    const record = records.find((r) => r.typeDocument === typeDocument);
    return record?.url ? { id: String(record._id) } : null;
  };
  const ledgerFrom = key.dateRef;
  const ledgerTo =
    parsed.data.type === "ANNUAL" ? new Date(Date.UTC(key.dateRef.getUTCFullYear(), 11, 1)) : key.dateRef;
  const hasLedger = records.length > 0 || (await latestLedgerMonth(key.businessUnitID, ledgerFrom, ledgerTo)) !== null;
  return {
    form,
    max: maxMonth(),
    subscription,
    result: {
      heading: t.statementResultFor(
        parsed.data.company,
        TYPE_LABELS[parsed.data.type],
        parsed.data.type === "ANNUAL" ? String(key.dateRef.getUTCFullYear()) : monthLabelOfDate(key.dateRef),
      ),
      word: card("DOCX"),
      excel: card("XLSX"),
      notice: !hasLedger ? t.statementNoData : records.length === 0 ? t.statementNotGenerated : null,
    },
  };
}

type ActionResult = { error: string; fieldErrors?: Record<string, string> };

/**
 * Apply (spec 001 §7 "POST /report"): the recorded statements of the request, else generated now from the
 * ledger and recorded; then the result URL. Bad input: 400 with the field's message; a generation failure:
 * "Ocorreu um erro." (spec 001 §8) and nothing recorded.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.demo_financial", request);
  const form = await request.formData().catch(() => null);
  const parsed = requestSchema().safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return data<ActionResult>(
      { error: Object.values(fieldErrors)[0] ?? messages.badRequest, fieldErrors },
      { status: 400 },
    );
  }
  try {
    await ensureStatements(
      { businessUnitID: parsed.data.company, type: parsed.data.type, dateRef: dateRefOf(parsed.data) },
      user.email,
    );
  } catch (error) {
    if (!(error instanceof StatementGenerationError)) throw error;
    console.warn(
      JSON.stringify({ level: "warn", msg: "financial statement generation failed", reason: String(error.cause) }),
    );
    return data<ActionResult>({ error: messages.genericError });
  }
  return redirect(resultUrl(parsed.data));
}

function StatementCard({ title, doc }: { title: string; doc: { id: string } | null }) {
  if (!doc) {
    return (
      <div className="statement-card statement-card--disabled" aria-disabled="true" role="link">
        <p className="statement-card__title">{title}</p>
        <p className="report-muted">{t.cardUnavailable}</p>
      </div>
    );
  }
  return (
    <Link className="statement-card" to={`/ij/preview_financial?doc=${doc.id}`} target="_blank" rel="noopener">
      <p className="statement-card__title">{title}</p>
      <p className="report-muted">{t.cardOpen}</p>
    </Link>
  );
}

export default function FinancialStatementPage() {
  const { form, max, subscription, result } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData?.fieldErrors ?? {};
  return (
    <section className="report-page">
      <h1>{t.financialTitle}</h1>
      <Form method="post" className="report-filters" key={JSON.stringify(form)}>
        <UnitSelect id="fs-company" name="company" defaultValue={form.company} invalid={Boolean(errors.company)} />
        <div className="field">
          <label htmlFor="fs-type">{t.type}</label>
          <select id="fs-type" name="type" defaultValue={form.type} aria-invalid={errors.type ? true : undefined}>
            {FINANCIAL_REPORT_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <MonthField
          id="fs-period"
          name="period"
          defaultValue={form.period}
          max={max}
          invalid={Boolean(errors.period)}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {t.apply}
        </button>
      </Form>
      <SubscribeForm
        kind="financial_statements"
        object={subscription.object}
        subscribed={subscription.subscribed}
        label={subscriptionTexts.subscribeStatements(subscription.object)}
      />
      <div className="report-page__alerts">
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
      </div>
      {result ? (
        <section aria-label={t.statementsTitle}>
          <h2>{result.heading}</h2>
          {result.notice ? <Alert tone="info">{result.notice}</Alert> : null}
          <div className="statement-cards">
            <StatementCard title={t.wordCard} doc={result.word} />
            <StatementCard title={t.excelCard} doc={result.excel} />
          </div>
        </section>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
