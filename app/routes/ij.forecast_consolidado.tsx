// Screen: Consolidated forecast by area, cost centre, account group and account: /ij/forecast_consolidado.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { columnSetupOf, valueColumns } from "~/features/forecast/consolidated/columns";
import { ComparisonNotes } from "~/features/forecast/consolidated/comparison-notes";
import { buildConsolidated, parseConsolidatedQuery } from "~/features/forecast/consolidated/consolidated.server";
import { ConsolidatedControls, SaveVersionForm } from "~/features/forecast/consolidated/consolidated-controls";
import { ConsolidatedTable } from "~/features/forecast/consolidated/consolidated-table";
import { CycleSummaryTable } from "~/features/forecast/consolidated/cycle-summary-table";
import { consolidatedHref, isOpen, versionsHref } from "~/features/forecast/consolidated/query";
import { consolidatedTexts as t } from "~/features/forecast/consolidated/texts";
import { visibleRows } from "~/features/forecast/consolidated/tree";
import { BOARD_PATH } from "~/features/forecast/cycle/board-links";
import { saveNamedVersion } from "~/features/forecast/versions/versions.server";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { redirectToDefaultView } from "~/features/saved-views/views.server";
import { messages } from "~/messages";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { portalToday } from "~/shared/clock.server";
import { readLimitedText } from "~/shared/request-body.server";
import { redirectWithToast } from "~/shared/toast.server";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/forecast/cycle/cycle.css";
import "~/shared/ui/data-table.css";
import "~/features/forecast/consolidated/consolidated.css";
import { VERSION_SAVE_FORM_MAX_BYTES } from "~/features/forecast/versions/limits";

export const meta: MetaFunction = () => [{ title: t.title }];

/**
 * /ij/forecast_consolidado?rf=&ver=&vs=&cols=&aprovados=&nivel=&abrir=&fechar=: the RF's figures as a tree, in the
 * viewer's scope (docs/decisions.md "Forecast consolidated and versions"); the open rows only are sent.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_consolidado", request);
  await redirectToDefaultView(user, request);
  const model = await buildConsolidated(parseConsolidatedQuery(new URL(request.url).searchParams), user, portalToday());
  const { rows, ...rest } = model;
  return {
    ...rest,
    rows: visibleRows(rows, (key, depth) => isOpen(model.query, key, depth)),
    canSave: canWriteRoute(user, "routes/ij.forecast_consolidado"),
    excelHref: consolidatedHref(model.query, true),
  };
}

/** POST intent=salvar: a version of the live RF (reviewers and SYSTEM ADMIN: the route's write rule). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_consolidado", request, "write");
  const text = await readLimitedText(request, VERSION_SAVE_FORM_MAX_BYTES).catch(() => null);
  const form = text === null ? null : new URLSearchParams(text);
  if (form?.get("intent") !== "salvar") return data({ saveError: messages.badRequest }, { status: 400 });
  const outcome = await saveNamedVersion(form, user);
  if (!outcome.ok) return data({ saveError: outcome.field ? t.saveNameRequired : outcome.message }, { status: 400 });
  return redirectWithToast(versionsHref(outcome.version.rf), { description: t.saved(outcome.version.name) });
}

export default function ConsolidatedForecastPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const columns = valueColumns(columnSetupOf(page));
  return (
    <>
      <section className="consolidated">
        <h1>{t.title}</h1>
        <p>{t.intro}</p>
        <p className="consolidated__links">
          <Link to={versionsHref(page.rf)}>{t.versionsLink}</Link>
          {page.scope === null ? (
            <>
              {" · "}
              <Link to={`${BOARD_PATH}${page.rf ? `?rf=${encodeURIComponent(page.rf)}` : ""}`}>{t.statusLink}</Link>
            </>
          ) : null}
        </p>
        {page.notices.map((notice) => (
          <Alert key={notice} tone="warning">
            {notice}
          </Alert>
        ))}
        {page.scope ? (
          <Alert tone="info">{page.scope.length > 0 ? t.scopeNote(page.scope.length) : t.scopeNone}</Alert>
        ) : null}
        {page.rf === null ? (
          <Alert tone="info">{t.noScenarios}</Alert>
        ) : (
          <>
            <ConsolidatedControls
              query={page.query}
              scenarios={page.scenarios}
              options={page.options}
              excelHref={page.excelHref}
            />
            {page.canSave ? <SaveVersionForm rf={page.rf} error={actionData?.saveError} /> : null}
            {page.query.approvedOnly ? <p className="consolidated__note">{t.approvedNote}</p> : null}
            <ComparisonNotes page={page} />
            <ConsolidatedTable
              rows={page.rows}
              columns={columns}
              query={page.query}
              rf={page.rf}
              caption={t.tableCaption(page.rf, page.baseLabel)}
            />
            {page.rows.length <= 1 ? <p>{t.empty}</p> : null}
            <h2>{t.cycleTitle}</h2>
            <CycleSummaryTable rows={page.summary} rf={page.rf} />
          </>
        )}
      </section>
      <SaveViewForm />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
