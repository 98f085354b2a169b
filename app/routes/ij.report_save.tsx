// Screen: FP&A: /ij/report_save (forecasts per unit and month, responsibles).
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { z } from "zod";
import { canWriteRoute, requireRouteAccess } from "~/features/access/auth.server";
import { PageDialog } from "~/features/access/page-dialog";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { BUSINESS_UNITS, formatAmount, parseBrazilianNumber } from "~/models/reports.fields";
import { HeaderRow, MonthField, UnitSelect } from "~/features/reports-and-financial/fields";
import { optionalMonth } from "~/features/reports-and-financial/month-param";
import { TreeToggle, useCollapsedRows, visibleInTree } from "~/features/reports-and-financial/tree-rows";
import { Alert } from "~/shared/ui/alert";
import { TabsNav } from "~/shared/ui/tabs-nav";
import { messages, reportsTexts as t } from "~/messages";
import { findResponsible, fpaReport } from "~/models/fpa.server";
import { isBusinessUnit, setForecast } from "~/models/ledger.server";
import { addMonthsToDate, monthKeyOfDate, monthLabelOfDate, monthStartOfKey } from "~/shared/months";

export const meta: MetaFunction = () => [{ title: t.fpaTitle }];

const TABS = ["current", "variances"] as const;
type Tab = (typeof TABS)[number];

/** The page's URL state: unit and month (the filter), tab, the row being edited, and the saved notice. */
const paramsSchema = z.object({
  company: z.enum(BUSINESS_UNITS).nullable().catch(null),
  period: optionalMonth,
  tab: z.enum(TABS).catch("current"),
  edit: z.string().max(40).nullable().catch(null),
  saved: z.literal("1").nullable().catch(null),
  view: z.literal("filter").nullable().catch(null),
});

/**
 * /ij/report_save — the FP&A report (spec 001 §2 "FP&A report page" on the "generic editable report table";
 * docs/decisions.md): Filtering (unit and month) / Report, with the header (period, country, functional area,
 * responsible person, user, cost centre), tabs Current and Variances, a tree of rows by parentId in a 600 px
 * table, and row editing of the forecast (rf_n) with undo for the finance planners; a save shows "Editing saved
 * successfully" with Close. Everything lives in the URL, so it works without JavaScript and with back/forward.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_save", request);
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
  const canEdit = canWriteRoute(user, "routes/ij.report_save");
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

const saveSchema = z.object({
  intent: z.literal("save"),
  company: z.enum(BUSINESS_UNITS),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  account: z.string().regex(/^[\d.]{1,40}$/),
  rf_n: z.string().max(40),
});

type ActionResult = { error: string };

/** Saves one row's forecast (finance planners only); the value is a Brazilian-format number. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_save", request, "write");
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
    user: user.email,
  });
  if (!saved) return data<ActionResult>({ error: t.rowNotFound }, { status: 404 });
  const url = new URL(request.url);
  url.searchParams.delete("edit");
  url.searchParams.set("saved", "1");
  return redirect(`${url.pathname}${url.search}`);
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

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

function ReportHeader({ header }: { header: NonNullable<LoaderData["header"]> }) {
  const items: [string, string][] = [
    [t.period, header.period],
    [t.country, header.country],
    [t.functionalArea, header.functionalArea],
    [t.personResponsible, header.personResponsible],
    [t.userResponsible, header.userResponsible],
    [t.costCenter, header.costCenter],
  ];
  return (
    <dl className="report-header">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

type TreeRow = { id: string; parentId: string | null; type: "step" | "row"; acc_description: string };

function indent(row: TreeRow, rows: readonly TreeRow[]): string | undefined {
  const parent = rows.find((r) => r.id === row.parentId);
  if (!parent) return undefined;
  return parent.parentId ? "tree-indent-2" : "tree-indent-1";
}

function useTree<Row extends TreeRow>(rows: readonly Row[]) {
  const collapsed = useCollapsedRows();
  const items = rows.map((r) => ({ key: r.id, parentKey: r.parentId }));
  const hasChildren = new Set(rows.map((r) => r.parentId));
  const labelCell = (row: Row) => (
    <th scope="row" className={indent(row, rows)}>
      {hasChildren.has(row.id) ? (
        <TreeToggle
          label={row.acc_description}
          open={!collapsed.keys.has(row.id)}
          onToggle={() => collapsed.toggle(row.id)}
        />
      ) : null}
      {row.acc_description}
    </th>
  );
  const hidden = (row: Row) =>
    !visibleInTree({ key: row.id, parentKey: row.parentId }, items, collapsed.keys) || undefined;
  return { labelCell, hidden };
}

function CurrentTable({
  rows,
  params,
  canEdit,
  editLink,
  undoLink,
}: {
  rows: NonNullable<LoaderData["report"]>["current"];
  params: LoaderData["params"];
  canEdit: boolean;
  editLink: (id: string) => string;
  undoLink: string;
}) {
  const { labelCell, hidden } = useTree(rows);
  return (
    <div className="tree-table tree-table--600">
      <table>
        <caption className="visually-hidden">{t.tabCurrent}</caption>
        <thead>
          <HeaderRow
            first="acc_description"
            numeric={["priorY", "priorM", "actual", "rf_n"]}
            extra={canEdit ? <th scope="col">{t.columnActions}</th> : null}
          />
        </thead>
        <tbody>
          {rows.map((row) => {
            const editing = canEdit && row.type === "row" && params.edit === row.id;
            return (
              <tr
                key={row.id}
                className={`tree-row tree-row--${row.type}${editing ? " tree-row--edited" : ""}`}
                hidden={hidden(row)}
                data-row-key={row.id}
              >
                {labelCell(row)}
                <td className="report-num">{formatAmount(row.priorY)}</td>
                <td className="report-num">{formatAmount(row.priorM)}</td>
                <td className="report-num">{formatAmount(row.actual)}</td>
                <td className="report-num">
                  {editing ? (
                    <Form method="post" id={`fpa-edit-${row.id}`} preventScrollReset className="report-inline-form">
                      <input type="hidden" name="intent" value="save" />
                      <input type="hidden" name="company" value={params.company ?? ""} />
                      <input type="hidden" name="period" value={params.period ?? ""} />
                      <input type="hidden" name="account" value={row.id} />
                      <input
                        className="tree-input"
                        name="rf_n"
                        aria-label={`rf_n ${row.acc_description}`}
                        defaultValue={formatAmount(row.rf_n)}
                        inputMode="decimal"
                        autoFocus
                      />
                    </Form>
                  ) : (
                    formatAmount(row.rf_n)
                  )}
                </td>
                {canEdit ? (
                  <td>
                    {row.type !== "row" ? null : editing ? (
                      <div className="report-actions">
                        <button
                          type="submit"
                          form={`fpa-edit-${row.id}`}
                          className="button button--primary button--small"
                        >
                          {t.fpaSave}
                        </button>
                        <Link
                          to={undoLink}
                          preventScrollReset
                          replace
                          className="button button--secondary button--small"
                        >
                          {t.fpaUndo}
                        </Link>
                      </div>
                    ) : (
                      <Link
                        to={editLink(row.id)}
                        preventScrollReset
                        className="button button--secondary button--small"
                        aria-label={t.fpaEditOf(row.acc_description)}
                      >
                        {t.fpaEdit}
                      </Link>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function VarianceTable({ rows }: { rows: NonNullable<LoaderData["report"]>["variances"] }) {
  const { labelCell, hidden } = useTree(rows);
  return (
    <div className="tree-table tree-table--600">
      <table>
        <caption className="visually-hidden">{t.tabVariances}</caption>
        <thead>
          <HeaderRow first="acc_description" numeric={["priorY", "rfY", "priorM", "rfM", "actualRF"]} />
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={`tree-row tree-row--${row.type}`} hidden={hidden(row)} data-row-key={row.id}>
              {labelCell(row)}
              <td className="report-num">{formatAmount(row.priorY)}</td>
              <td className="report-num">{formatAmount(row.rfY)}</td>
              <td className="report-num">{formatAmount(row.priorM)}</td>
              <td className="report-num">{formatAmount(row.rfM)}</td>
              <td className="report-num">{row.actualRF === null ? "–" : `${formatAmount(row.actualRF)}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
