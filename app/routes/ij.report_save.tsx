// Screen: FP&A: /ij/report_save (forecasts per unit and month, responsibles).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { MonthField, UnitSelect } from "~/features/reports-and-financial/fields";
import { loadFpaReport, saveFpaForecast } from "~/features/reports-and-financial/fpa-report.server";
import { CurrentTable, ReportHeader, VarianceTable } from "~/features/reports-and-financial/fpa-tables";
import { messages, reportsTexts as t } from "~/messages";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { PageDialog } from "~/shared/forms/page-dialog";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { TabsNav } from "~/shared/ui/tabs-nav";

export const meta: MetaFunction = () => [{ title: t.fpaTitle }];

/**
 * /ij/report_save — the FP&A report (spec 001 §2 "FP&A report page" on the "generic editable report table";
 * docs/decisions.md): Filtering (unit and month) / Report, with the header (period, country, functional area,
 * responsible person, user, cost centre), tabs Current and Variances, a tree of rows by parentId in a 600 px
 * table, and row editing of the forecast (rf_n) with undo for the finance planners; a save shows "Editing saved
 * successfully" with Close. Everything lives in the URL, so it works without JavaScript and with back/forward.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_save", request);
  return loadFpaReport(request, canWriteRoute(user, "routes/ij.report_save"));
}

/** Saves one row's forecast (finance planners only); the value is a Brazilian-format number. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_save", request, "write");
  return saveFpaForecast(request, user.email, user);
}

export default function FpaReportPage() {
  const { params, defaults, canEdit, report, header } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigate = useNavigate();
  const with_ = (changes: Record<string, string | null>) => {
    const search = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) search.delete(k);
      else search.set(k, v);
    }
    return `${location.pathname}?${search}`;
  };
  const showFilter = !report && (!params.company || !params.period || params.view === "filter");

  return (
    <section className="report-page">
      <nav className="report-breadcrumb" aria-label="breadcrumb">
        <ol>
          <li>
            {showFilter ? (
              <span aria-current="page">{t.breadcrumbFiltering}</span>
            ) : (
              <Link to={with_({ view: "filter", edit: null, saved: null })}>{t.breadcrumbFiltering}</Link>
            )}
          </li>
          <li>
            {showFilter ? <span>{t.breadcrumbReport}</span> : <span aria-current="page">{t.breadcrumbReport}</span>}
          </li>
        </ol>
      </nav>
      <h1>{t.fpaTitle}</h1>
      {showFilter ? (
        <Form method="get" className="report-filters">
          <UnitSelect id="fpa-company" name="company" defaultValue={defaults.company} />
          <MonthField id="fpa-period" name="period" defaultValue={defaults.period} />
          <button type="submit" className="button button--primary">
            {t.generateReport}
          </button>
        </Form>
      ) : (
        <>
          {header ? <ReportHeader header={header} /> : null}
          <TabsNav
            label={t.fpaTitle}
            current={params.tab}
            tabs={[
              { id: "current", label: t.tabCurrent, to: with_({ tab: "current", edit: null, saved: null }) },
              { id: "variances", label: t.tabVariances, to: with_({ tab: "variances", edit: null, saved: null }) },
            ]}
          />
          {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
          {!canEdit ? <p className="report-muted">{t.fpaReadOnly}</p> : null}
          {!report ? (
            <Alert tone="info">{messages.noDataFound}</Alert>
          ) : params.tab === "current" ? (
            <CurrentTable
              rows={report.current}
              params={params}
              canEdit={canEdit}
              editLink={(id) => with_({ edit: id, saved: null })}
              undoLink={with_({ edit: null })}
            />
          ) : (
            <VarianceTable rows={report.variances} />
          )}
        </>
      )}
      <PageDialog
        open={params.saved === "1"}
        onClose={() => navigate(with_({ saved: null }), { replace: true, preventScrollReset: true })}
        title={messages.editingSaved}
        footer={
          <Link to={with_({ saved: null })} replace preventScrollReset className="button button--primary">
            {messages.close}
          </Link>
        }
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
