// Screen: Cockpit table: /ij/cockpit_preview (balance sheet or working capital, comments and files).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useState } from "react";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { cockpitSearch, REPORT_LABELS } from "~/features/reports-and-financial/cockpit-filters";
import { cockpitPreviewAction, loadCockpitPreview } from "~/features/reports-and-financial/cockpit-preview.server";
import { CockpitRowDetails } from "~/features/reports-and-financial/cockpit-row-details";
import { COCKPIT_FILE_FETCHER, CockpitTable } from "~/features/reports-and-financial/cockpit-table";
import { useDownloadOutcome } from "~/features/reports-and-financial/download-button";
import { messages, reportsTexts as t } from "~/messages";
import { Alert } from "~/shared/ui/alert";

export const meta: MetaFunction = () => [{ title: t.cockpitPreviewTitle }];

/**
 * /ij/cockpit_preview: the balance-sheet (or working-capital) table of the chosen unit — the chosen month
 * beside the month before, Dif. $, Dif. %, Comments and Files, categories expandable to their accounts. A
 * row's details (`row` in the URL) hold its comment form and its files (upload, download).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.cockpit_preview", request);
  return loadCockpitPreview(request);
}

/** A row's comment, a row's file (multipart) or a file's download (features/reports-and-financial/cockpit-preview.server.ts). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.cockpit_preview", request);
  return cockpitPreviewAction(request, user.email, user);
}

export default function CockpitPreviewPage() {
  const { params, error, table, selected } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const downloadError = useDownloadOutcome(
    COCKPIT_FILE_FETCHER,
    actionData && !actionData.ok ? actionData.error : null,
  );
  const [comment, setComment] = useState(selected?.comment ?? "");
  const filterLink = `/ij/cockpit${cockpitSearch(params)}`;
  const detailsLink = (key: string | null) => `${location.pathname}${cockpitSearch(params, key ? { row: key } : {})}`;

  if (error || !table) {
    return (
      <section className="report-page">
        <h1>{t.cockpitPreviewTitle}</h1>
        <Alert tone="error">{error}</Alert>
        <Link to={filterLink}>{t.backToFilter}</Link>
      </section>
    );
  }
  const unit = params.unit ?? "";
  const period = params.period ?? "";
  return (
    <section className="report-page">
      <nav className="report-breadcrumb" aria-label="breadcrumb">
        <ol>
          <li>
            <Link to={filterLink}>{t.cockpitTitle}</Link>
          </li>
          <li aria-current="page">{REPORT_LABELS[params.report]}</li>
        </ol>
      </nav>
      <h1>
        {REPORT_LABELS[params.report]} · {unit}
      </h1>
      <div className="report-page__alerts">{downloadError ? <Alert tone="error">{downloadError}</Alert> : null}</div>
      {!table.hasData ? <Alert tone="info">{messages.noDataFound}</Alert> : null}
      <CockpitTable
        title={REPORT_LABELS[params.report]}
        months={table.months}
        rows={table.rows}
        unit={unit}
        period={period}
        detailsLink={detailsLink}
      />
      {selected ? (
        <CockpitRowDetails
          key={selected.key}
          selected={selected}
          unit={unit}
          period={period}
          error={actionData && !actionData.ok ? actionData.error : null}
          comment={comment}
          onCommentChange={setComment}
          closeLink={detailsLink(null)}
        />
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
