// Screen: Spread a total: /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}/distribuir ("Distribuir total").
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { spreadPath } from "~/features/forecast/forecast-filter";
import { resolveReview } from "~/features/forecast/review.server";
import { SPREAD_MODES, SPREAD_SCOPES, type SpreadPage } from "~/features/forecast/spread";
import { loadSpreadPage, saveSpread } from "~/features/forecast/spread.server";
import { spreadBaseTexts, spreadSignTexts } from "~/features/forecast/spread-texts";
import { forecastTexts } from "~/messages";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { portalToday } from "~/shared/clock.server";
import { ChoiceFieldset } from "~/shared/forms/choice-fieldset";
import { SpreadPreviewForm } from "~/shared/forms/spread-preview-form";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/forecast/forecast.css";

export const meta: MetaFunction = () => [{ title: forecastTexts.spreadTitle }];

/**
 * The review's editors spread a total over an account's open months: the form is a GET (its answer the preview), the
 * save a POST that computes the spread again and writes it as one save of the review (features/forecast/spread.server.ts).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir";
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir",
    request,
  );
  const lookup = await resolveReview(params, user);
  if (!lookup.ok) throw data(lookup.message, { status: lookup.status });
  return loadSpreadPage(lookup.review, new URL(request.url), portalToday(), canWriteRoute(user, id));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir",
    request,
    "write",
  );
  const lookup = await resolveReview(params, user, "write");
  if (!lookup.ok) throw data(lookup.message, { status: lookup.status });
  return saveSpread(lookup.review, request, user, portalToday());
}

export default function SpreadTotalPage() {
  const loaded = useLoaderData<typeof loader>() as SpreadPage;
  const posted = useActionData<typeof action>() as SpreadPage | undefined;
  const page = posted ?? loaded;
  const action = spreadPath(page.rf, page.costCenter);
  const monthsText = page.openMonths.map((m) => m.label).join(", ");
  return (
    <section aria-labelledby="spread-title" className="spread">
      <p>
        <Link to={page.reviewHref}>{forecastTexts.spreadBack}</Link>
      </p>
      <h1 id="spread-title">
        {forecastTexts.spreadTitle} · {page.rf} · {page.costCenter}
      </h1>
      {page.error ? <Alert tone="error">{page.error}</Alert> : null}
      {page.openMonths.length > 0 ? (
        <Form method="get" action={action} className="spread__form">
          <p>{forecastTexts.spreadIntro(page.openMonths.length)}</p>
          <ChoiceFieldset
            legend={forecastTexts.spreadAccounts}
            name="conta"
            choices={page.accounts.map((a) => a.account)}
            checked={(account) => page.chosen.includes(account)}
            multiple
            className="spread__accounts"
            choiceClassName="spread__choice"
          />
          <div className="field">
            <label htmlFor="spread-total">{forecastTexts.spreadTotal}</label>
            <input
              id="spread-total"
              name="total"
              inputMode="decimal"
              defaultValue={page.values.total}
              required
              aria-describedby="spread-total-hint"
            />
            <small id="spread-total-hint">{spreadSignTexts.totalHint}</small>
            <label className="spread__choice">
              <input type="checkbox" name="estorno" value="1" defaultChecked={page.values.reversal} />{" "}
              {spreadSignTexts.confirm}
            </label>
          </div>
          <ChoiceFieldset
            legend={forecastTexts.spreadMode}
            name="modo"
            choices={SPREAD_MODES}
            labelOf={(mode) => forecastTexts.spreadModes[mode]}
            checked={(mode) => page.values.mode === mode}
            choiceClassName="spread__choice"
          />
          <div className="field">
            <label htmlFor="spread-profile">{spreadBaseTexts.profileLabel}</label>
            <select
              id="spread-profile"
              name="perfil"
              defaultValue={page.values.profile}
              aria-describedby="spread-profile-hint"
            >
              {page.profiles.length === 0 ? <option value="">{spreadBaseTexts.profileNone}</option> : null}
              {page.profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <small id="spread-profile-hint">{spreadBaseTexts.profileHint}</small>
          </div>
          <ChoiceFieldset
            legend={forecastTexts.spreadScope}
            name="alcance"
            choices={SPREAD_SCOPES}
            labelOf={(scope) => forecastTexts.spreadScopes[scope]}
            checked={(scope) => page.values.scope === scope}
            choiceClassName="spread__choice"
            hint={{ id: "spread-scope-hint", text: forecastTexts.spreadScopeHint }}
          />
          <div className="field">
            <label htmlFor="spread-weights">{forecastTexts.spreadWeights}</label>
            <input
              id="spread-weights"
              name="pesos"
              defaultValue={page.values.weights}
              aria-describedby="spread-weights-hint"
            />
            <small id="spread-weights-hint">{forecastTexts.spreadWeightsHint(monthsText)}</small>
          </div>
          <button type="submit" className="button button--secondary">
            {forecastTexts.spreadPreview}
          </button>
        </Form>
      ) : null}
      {page.preview ? (
        <SpreadPreviewForm
          action={action}
          title={forecastTexts.spreadPreviewTitle}
          note={page.preview.note}
          headers={[
            forecastTexts.spreadAccount,
            forecastTexts.spreadMonth,
            forecastTexts.spreadCurrent,
            forecastTexts.spreadNew,
          ]}
          rows={page.preview.rows}
          carried={[
            ...page.chosen.map((account) => ["conta", account] as const),
            ["alcance", page.values.scope],
            ["total", page.values.total],
            ["modo", page.values.mode],
            ["pesos", page.values.weights],
            ["perfil", page.values.profile],
            ...(page.values.reversal ? [["estorno", "1"] as const] : []),
            ["olds", page.preview.olds],
            ["stamps", page.preview.stamps],
          ]}
          confirm={forecastTexts.spreadConfirm}
        />
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
