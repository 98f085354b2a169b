// Screen: Spread a total of a SKU in a channel: /ij/plan_edit/distribuir ("Distribuir total").
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PLANNING_SPREAD_MODES, type PlanningSpreadPage } from "~/features/planning/spread";
import { loadPlanningSpread, savePlanningSpread } from "~/features/planning/spread.server";
import { planningTexts as t } from "~/features/planning/texts";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { ChoiceFieldset } from "~/shared/forms/choice-fieldset";
import { SpreadPreviewForm } from "~/shared/forms/spread-preview-form";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/planning/planning.css";

export const meta: MetaFunction = () => [{ title: t.spreadTitle }];

/**
 * The planning grid's editors spread a total of one SKU in one channel over the filter's months (a GET form whose
 * answer is the preview; a POST that saves it: features/planning/spread.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit_.distribuir", request);
  return loadPlanningSpread(new URL(request.url), canWriteRoute(user, "routes/ij.plan_edit_.distribuir"));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit_.distribuir", request, "write");
  return savePlanningSpread(request, user);
}

export default function PlanningSpreadScreen() {
  const loaded = useLoaderData<typeof loader>() as PlanningSpreadPage;
  const posted = useActionData<typeof action>() as PlanningSpreadPage | undefined;
  const page = posted ?? loaded;
  const monthsText = page.months.map((m) => m.label).join(", ");
  return (
    <section aria-labelledby="spread-title" className="spread">
      <p>
        <Link to={page.backHref}>{t.spreadBack}</Link>
      </p>
      <h1 id="spread-title">
        {t.spreadTitle}
        {page.row ? ` · ${page.row.sku} · ${page.row.channel}` : ""}
      </h1>
      {page.error ? <Alert tone="error">{page.error}</Alert> : null}
      {page.row ? (
        <Form method="get" action={page.action.split("?")[0]} className="spread__form">
          {[...new URLSearchParams(page.action.split("?")[1] ?? "")].map(([name, value], i) => (
            <input key={`${name}${i}`} type="hidden" name={name} value={value} />
          ))}
          <p>{t.spreadIntro(page.months.length, page.row.sku, page.row.channel)}</p>
          <div className="field">
            <label htmlFor="spread-total">{t.spreadTotal}</label>
            <input id="spread-total" name="total" inputMode="numeric" defaultValue={page.values.total} required />
          </div>
          <ChoiceFieldset
            legend={t.spreadMode}
            name="modo"
            choices={PLANNING_SPREAD_MODES}
            labelOf={(mode) => t.spreadModes[mode]}
            checked={(mode) => page.values.mode === mode}
            choiceClassName="spread__choice"
          />
          <div className="field">
            <label htmlFor="spread-weights">{t.spreadWeights}</label>
            <input id="spread-weights" name="pesos" defaultValue={page.values.weights} aria-describedby="spread-hint" />
            <small id="spread-hint">{t.spreadWeightsHint(monthsText)}</small>
          </div>
          <button type="submit" className="button button--secondary">
            {t.spreadPreview}
          </button>
        </Form>
      ) : null}
      {page.preview ? (
        <SpreadPreviewForm
          action={page.action}
          title={t.spreadPreviewTitle}
          note={page.preview.note}
          headers={[t.spreadMonth, t.spreadCurrent, t.spreadNew]}
          rows={page.preview.rows}
          carried={[
            ["linha", page.row?.id ?? ""],
            ["total", page.values.total],
            ["modo", page.values.mode],
            ["pesos", page.values.weights],
            ["state", page.preview.state],
          ]}
          confirm={t.spreadConfirm}
        />
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
