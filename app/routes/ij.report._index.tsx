// Screen: Report list: /ij/report (name, origin, competency range, page).

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { answerDownload, downloadFailure, readDownloadForm } from "~/features/reports-and-financial/download.server";
import { DownloadButton, useDownloadOutcome } from "~/features/reports-and-financial/download-button";
import { reportPagesFor } from "~/features/reports-and-financial/links.server";
import { optionalMonth } from "~/features/reports-and-financial/month-param";
import { subscriptionStateOf } from "~/features/subscriptions/pages.server";
import { SubscribeForm } from "~/features/subscriptions/subscribe-form";
import { jobTexts, messages, subscriptionTexts, reportsTexts as t } from "~/messages";
import { REPORT_ORIGIN_FILTERS, REPORT_ORIGINS, type ReportOriginFilter } from "~/models/reports.fields";
import { findReport, listReportsPage } from "~/models/reports.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { formatDateTime } from "~/shared/dates";
import { ID_PARAM_MAX } from "~/shared/limits";
import { monthLabelOfDate, monthStartOfKey } from "~/shared/months";
import { pageNumber } from "~/shared/pagination";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: t.reportsTitle }];

const ORIGIN_LABELS: Record<ReportOriginFilter, string> = {
  automatico: t.originAutomatico,
  manual: t.originManual,
  todas: t.originAll,
};
const NAME_MAX = 200;

/** The list's URL state (spec 001 §2, §5): name, origin (automatico by default), competency range, page. */
const filtersSchema = z.object({
  name: z.string().max(NAME_MAX).catch(""),
  origin: z.enum(REPORT_ORIGIN_FILTERS).catch("automatico"),
  from: optionalMonth,
  to: optionalMonth,
  page: pageNumber,
});

/**
 * /ij/report: generated and uploaded reports, 20 a page by their last status change, newest first; download
 * per row, and "open online" in the portal's viewer (a new tab), disabled for reports without an online copy.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report._index", request);
  const pages = reportPagesFor(user);
  const url = new URL(request.url);
  const get = (k: string) => url.searchParams.get(k) ?? undefined;
  const f = filtersSchema.parse({
    name: get("name"),
    origin: get("origin"),
    from: get("from"),
    to: get("to"),
    page: get("page"),
  });
  const filters = { name: f.name, origin: f.origin, from: f.from ?? "", to: f.to ?? "" };
  // "Assinar" the origin listed (one origin, not both).
  const subscription = f.origin === "todas" ? null : await subscriptionStateOf(user.email, "report_origin", f.origin);
  if (f.from && f.to && f.from > f.to) return { pages, filters, subscription, error: t.periodRangeInvalid, list: null };
  const list = await listReportsPage(
    { name: f.name, origin: f.origin, from: monthStartOfKey(f.from), to: monthStartOfKey(f.to) },
    f.page,
  );
  return {
    pages,
    filters,
    subscription,
    error: null,
    list: {
      ...list,
      items: list.items.map((r) => ({
        id: r.id,
        name: r.name,
        origin: ORIGIN_LABELS[r.origin],
        originValue: r.origin,
        dateRef: monthLabelOfDate(r.dateRef),
        statusChangeDate: formatDateTime(r.statusChangeDate),
        user: r.user,
        hasUrl: r.hasUrl,
      })),
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRouteAccess("routes/ij.report._index", request);
  const fields = await readDownloadForm(request, {
    reportId: z.string().trim().min(1).max(ID_PARAM_MAX),
    origin: z.enum(REPORT_ORIGINS),
  });
  if (!fields) return downloadFailure(400);
  // Only a report of the origin the row was listed under: another origin's id is refused like an unknown one.
  const report = await findReport(fields.reportId, fields.origin);
  return answerDownload(
    report ? { bucket: report.bucket, key: report.originalFile, filename: report.originalName } : null,
    fields.mode,
  );
}

type Row = NonNullable<Awaited<ReturnType<typeof loader>>["list"]>["items"][number];
const FETCHER = "report-download";

export default function ReportListPage() {
  const { pages, filters, subscription, error, list } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const downloadError = useDownloadOutcome(FETCHER, actionData && !actionData.ok ? actionData.error : null);

  const columns = useMemo<ColumnDef<Row, unknown>[]>(
    () => [
      { id: "name", header: t.columnName, cell: ({ row }) => row.original.name },
      { id: "origin", header: t.columnOrigin, cell: ({ row }) => row.original.origin },
      {
        id: "dateRef",
        header: t.columnDateRef,
        cell: ({ row }) => <span className="report-num">{row.original.dateRef}</span>,
      },
      {
        id: "statusChangeDate",
        header: t.columnStatusChange,
        cell: ({ row }) => <span className="job-date">{row.original.statusChangeDate}</span>,
      },
      { id: "user", header: t.columnUser, cell: ({ row }) => row.original.user },
      {
        id: "actions",
        header: t.columnActions,
        cell: ({ row }) => (
          <div className="report-actions">
            <DownloadButton
              fetcherKey={FETCHER}
              fields={{ reportId: row.original.id, origin: row.original.originValue }}
              label={jobTexts.downloadOf(row.original.name)}
              text={jobTexts.download}
            />
            {row.original.hasUrl ? (
              <Link
                className="button button--secondary button--small"
                to={`/ij/report/${row.original.id}/view`}
                target="_blank"
                rel="noopener"
                aria-label={t.openOnlineOf(row.original.name)}
              >
                {t.openOnline}
              </Link>
            ) : (
              <button
                type="button"
                className="button button--secondary button--small"
                disabled
                title={t.noOnlineCopy}
                aria-label={`${t.openOnline}: ${t.noOnlineCopy}`}
              >
                {t.openOnline}
              </button>
            )}
          </div>
        ),
      },
    ],
    [],
  );

  return (
    <section className="report-page report-page--list" aria-busy={navigation.state === "loading"}>
      <h1>{t.reportsTitle}</h1>
      <ul className="report-links" aria-label={t.reportLinks}>
        {pages.map((p) => (
          <li key={p.to}>
            <Link to={p.to}>{p.label}</Link>
          </li>
        ))}
      </ul>
      {/* A GET form: the filters live in the URL (bookmarks, back and forward); a new filter starts at page 1. */}
      <Form method="get" className="report-filters" key={JSON.stringify(filters)}>
        <div className="field">
          <label htmlFor="report-name">{t.filterName}</label>
          <input
            id="report-name"
            name="name"
            type="search"
            defaultValue={filters.name}
            maxLength={NAME_MAX}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor="report-origin">{t.filterOrigin}</label>
          <select id="report-origin" name="origin" defaultValue={filters.origin}>
            {REPORT_ORIGIN_FILTERS.map((o) => (
              <option key={o} value={o}>
                {ORIGIN_LABELS[o]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="report-from">{t.filterFrom}</label>
          <input
            id="report-from"
            name="from"
            type="month"
            defaultValue={filters.from}
            min="1950-12"
            max="2030-12"
            placeholder="AAAA-MM"
          />
        </div>
        <div className="field">
          <label htmlFor="report-to">{t.filterTo}</label>
          <input
            id="report-to"
            name="to"
            type="month"
            defaultValue={filters.to}
            min="1950-12"
            max="2030-12"
            placeholder="AAAA-MM"
          />
        </div>
        <button type="submit" className="button button--primary">
          {t.filter}
        </button>
        <Link to="/ij/report" className="button button--secondary">
          {t.clearFilters}
        </Link>
      </Form>
      {subscription ? (
        <SubscribeForm
          kind="report_origin"
          object={subscription.object}
          subscribed={subscription.subscribed}
          label={subscriptionTexts.subscribeReports(ORIGIN_LABELS[filters.origin])}
        />
      ) : null}
      <div className="report-page__alerts">
        {downloadError ? <Alert tone="error">{downloadError}</Alert> : null}
        {error ? <Alert tone="warning">{error}</Alert> : null}
      </div>
      {list ? (
        <>
          <p className="report-muted">{t.reportsCount(list.total)}</p>
          <DataTable
            columns={columns}
            rows={list.items}
            getRowId={(row) => row.id}
            rowCount={list.total}
            page={list.page}
            pageSize={list.pageSize}
            emptyText={messages.noDataFound}
            caption={t.reportsCaption}
          />
        </>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
