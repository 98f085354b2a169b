// Screen: Fiscal asset: /ij/fiscal (Ativo Fiscal per unit).

import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { z } from "zod";
import { recordEdit } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { PageDialog } from "~/shared/forms/page-dialog";
import { ID_PARAM_MAX } from "~/shared/limits";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { answerDownload, downloadFailure, downloadFields } from "~/features/reports-and-financial/download.server";
import { DownloadButton, useDownloadOutcome } from "~/features/reports-and-financial/download-button";
import { UnitSelect } from "~/features/reports-and-financial/fields";
import { messages, reportsTexts as t } from "~/messages";
import {
  findFiscalItem,
  findObservation,
  fiscalYearTable,
  listFiscalItems,
  saveObservation,
} from "~/models/fiscal.server";
import { BUSINESS_UNITS, FISCAL_OBSERVATION_MAX, formatAmount } from "~/models/reports.fields";
import { monthLabelOfDate } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";

export const meta: MetaFunction = () => [{ title: t.fiscalPageTitle }];

const paramsSchema = z.object({
  company: z.enum(BUSINESS_UNITS).catch(BUSINESS_UNITS[0]),
  modal: z.literal("1").nullable().catch(null),
});

/**
 * /ij/fiscal — the fiscal asset page (spec 001 §2; docs/decisions.md): per unit, the modal "Ativo Fiscal" with
 * the tax-asset accounts at the close of the two latest years, the observations (Confirm saves, Cancel closes)
 * and, below, the items with their worksheet and document, downloaded from the store. The unit and the open
 * modal live in the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.fiscal", request);
  const url = new URL(request.url);
  const params = paramsSchema.parse({
    company: url.searchParams.get("company") ?? undefined,
    modal: url.searchParams.get("modal"),
  });
  const [table, items, observation] = await Promise.all([
    fiscalYearTable(params.company),
    listFiscalItems(params.company),
    findObservation(params.company),
  ]);
  return {
    params,
    table: { ...table, months: table.months.map((m) => monthLabelOfDate(m)) },
    items: items.map((i) => ({
      id: String(i._id),
      description: i.description,
      year: i.year,
      value: i.value,
      worksheet: i.worksheet.name,
      document: i.document.name,
    })),
    observation: observation?.text ?? "",
  };
}

const observationSchema = z.object({
  intent: z.literal("observations"),
  company: z.enum(BUSINESS_UNITS),
  text: z.string().max(FISCAL_OBSERVATION_MAX, t.observationsTooLong(FISCAL_OBSERVATION_MAX)),
});
const downloadSchema = z.object({
  ...downloadFields,
  company: z.enum(BUSINESS_UNITS),
  itemId: z.string().min(1).max(ID_PARAM_MAX),
  file: z.enum(["worksheet", "document"]),
});

type ActionResult = { ok: false; error: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.fiscal", request, "write");
  const form = await request.formData().catch(() => null);
  const fields = form ? Object.fromEntries(form) : {};
  if (fields.intent === "download") {
    const parsed = downloadSchema.safeParse(fields);
    if (!parsed.success) return downloadFailure(400);
    const item = await findFiscalItem(parsed.data.company, parsed.data.itemId);
    const file = item ? item[parsed.data.file] : null;
    return answerDownload(file ? { bucket: file.bucket, key: file.key, filename: file.name } : null, parsed.data.mode);
  }
  const parsed = observationSchema.safeParse(fields);
  if (!parsed.success) {
    const tooLong = parsed.error.issues.find((i) => i.path[0] === "text");
    return data<ActionResult>({ ok: false, error: tooLong?.message ?? messages.badRequest }, { status: 400 });
  }
  await saveObservation(parsed.data.company, parsed.data.text.trim(), user.email);
  // The audit trail: the company's observations saved (the screen shows them, with who and when).
  await recordEdit({
    actor: user,
    dataset: "fiscal",
    screen: "/ij/fiscal",
    rows: 1,
    historyLink: `/ij/fiscal?company=${parsed.data.company}`,
    details: { company: parsed.data.company, what: "observations" },
  });
  return redirect(`/ij/fiscal?company=${parsed.data.company}`);
}

const FETCHER = "fiscal-download";

export default function FiscalAssetPage() {
  const { params, table, items, observation } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigate = useNavigate();
  const downloadError = useDownloadOutcome(
    FETCHER,
    actionData && !actionData.ok && !params.modal ? actionData.error : null,
  );
  const pageUrl = `/ij/fiscal?company=${params.company}`;
  return (
    <section className="report-page">
      <h1>{t.fiscalPageTitle}</h1>
      <Form method="get" className="report-filters">
        <UnitSelect key={params.company} id="fiscal-company" name="company" defaultValue={params.company} />
        <button type="submit" className="button button--secondary">
          {t.filter}
        </button>
        <Link to={`${pageUrl}&modal=1`} className="button button--primary" preventScrollReset>
          {t.openFiscal}
        </Link>
      </Form>
      <div className="report-page__alerts">{downloadError ? <Alert tone="error">{downloadError}</Alert> : null}</div>
      <section aria-labelledby="fiscal-observations">
        <h2 id="fiscal-observations">{t.observations}</h2>
        <p className="fiscal-observations__text" data-testid="fiscal-observation">
          {observation || "—"}
        </p>
      </section>
      <h2>{t.itemsTitle}</h2>
      <div className="tree-table scroll-area" tabIndex={0} role="region" aria-label={t.itemsTitle}>
        <table>
          <caption className="visually-hidden">{t.itemsTitle}</caption>
          <thead>
            <tr>
              <th scope="col">{t.columnDescription}</th>
              <th scope="col">{t.columnYear}</th>
              <th scope="col" className="report-num">
                {t.columnValue}
              </th>
              <th scope="col">{t.columnWorksheet}</th>
              <th scope="col">{t.columnDocument}</th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr>
                <td colSpan={5}>{messages.noDataFound}</td>
              </tr>
            ) : (
              items.map((item) => (
                <tr key={item.id}>
                  <th scope="row">{item.description}</th>
                  <td>{item.year}</td>
                  <td className="report-num">{formatAmount(item.value)}</td>
                  <td>
                    <DownloadButton
                      fetcherKey={FETCHER}
                      fields={{ company: params.company, itemId: item.id, file: "worksheet" }}
                      label={`${t.columnWorksheet}: ${item.worksheet}`}
                      text={item.worksheet}
                    />
                  </td>
                  <td>
                    <DownloadButton
                      fetcherKey={FETCHER}
                      fields={{ company: params.company, itemId: item.id, file: "document" }}
                      label={`${t.columnDocument}: ${item.document}`}
                      text={item.document}
                    />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <PageDialog
        open={params.modal === "1"}
        onClose={() => navigate(pageUrl, { replace: true, preventScrollReset: true })}
        title={t.fiscalTitle}
      >
        {table.years.length === 0 ? (
          <p>{messages.noDataFound}</p>
        ) : (
          <table className="fiscal-table">
            <caption className="visually-hidden">{t.fiscalTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{t.columnDescription}</th>
                {table.years.map((y, i) => (
                  <th key={y} scope="col" className="report-num" title={table.months[i]}>
                    {y}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={r.account}>
                  <th scope="row">{r.description}</th>
                  {r.values.map((v, i) => (
                    <td key={i} className="report-num">
                      {formatAmount(v)}
                    </td>
                  ))}
                </tr>
              ))}
              <tr>
                <th scope="row">{t.total}</th>
                {table.totals.map((v, i) => (
                  <td key={i} className="report-num">
                    <strong>{formatAmount(v)}</strong>
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        )}
        <Form method="post" className="fiscal-observations" preventScrollReset>
          <input type="hidden" name="intent" value="observations" />
          <input type="hidden" name="company" value={params.company} />
          {actionData && !actionData.ok ? <Alert tone="error">{actionData.error}</Alert> : null}
          <div className="field">
            <label htmlFor="fiscal-observation-text">{t.observations}</label>
            <textarea
              id="fiscal-observation-text"
              name="text"
              maxLength={FISCAL_OBSERVATION_MAX}
              defaultValue={observation}
            />
          </div>
          <div className="dialog__footer">
            <Link to={pageUrl} replace preventScrollReset className="button button--secondary">
              {t.cancel}
            </Link>
            <button type="submit" className="button button--primary">
              {t.confirm}
            </button>
          </div>
        </Form>
      </PageDialog>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
