// Screen: Forecast review filter: /ij/report_create_schneider (period and cost centre).

import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useId, useState } from "react";
import { Breadcrumb } from "~/features/forecast/breadcrumb";
import { myCostCentres } from "~/features/forecast/cycle/board.server";
import { BOARD_PATH } from "~/features/forecast/cycle/board-links";
import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { cycleLinksFor } from "~/features/forecast/cycle/cycle.server";
import { type MyCostCentres as MyCostCentresData, MyCostCentresTable } from "~/features/forecast/cycle/my-cost-centres";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { redirectToDefaultView } from "~/features/saved-views/views.server";
import { COST_CENTER_CONCAT_MAX } from "~/models/forecast.fields";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/forecast/forecast.css";
import "~/features/forecast/cycle/cycle.css";
import { useChoicesInAddress } from "~/features/forecast/filter-address";
import { CALENDAR_PATH, resolveCostCenter, reviewPath, sortScenarios } from "~/features/forecast/forecast-filter";
import { scenarioOpenOn } from "~/features/forecast/release-points";
import { forecastTexts } from "~/messages";
import { listCostCenters, listScenarioNames } from "~/models/forecast.server";
import { forecastScopeOf, inForecastScope } from "~/models/forecast-readers.server";
import { portalToday } from "~/shared/clock.server";
import { Alert } from "~/shared/ui/alert";
import { useHydrated } from "~/shared/ui/use-hydrated";

export const meta: MetaFunction = () => [{ title: forecastTexts.filterTitle }];

/**
 * /ij/report_create_schneider: the forecast review's filter (spec 001 §2). Period and Cost Center come from `distinct`;
 * the form is a GET, so it works without JavaScript and the choices live in the URL. "Generate Review" (intent=generate)
 * goes to /ij/report_preview_edit_schneider/{period}/{cost_center}; without it the URL only preselects (the review's
 * breadcrumb comes back that way; the address follows the fields as they change, so a view or a bookmark keeps them).
 * The cost centre field is searchable: the list's entry equal to the text, or the only one containing it; the list
 * holds the cost centres whose forecast the user may read.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_create_schneider", request);
  await redirectToDefaultView(user, request);
  const links = cycleLinksFor(user.type);
  const url = new URL(request.url);
  const [names, all, own, scope] = await Promise.all([
    listScenarioNames(),
    listCostCenters(),
    myCostCentres(user.email, portalToday(), reviewPath),
    forecastScopeOf(user),
  ]);
  // Only the cost centres the user may read (a preparer: those they prepare).
  const costCenters = all.filter((cc) => inForecastScope(scope, cc));
  const scenarios = sortScenarios(names);
  const open = scenarioOpenOn(portalToday())?.name;
  const rf = (url.searchParams.get("rf") ?? "").slice(0, 40);
  const costCenter = (url.searchParams.get("cost_center") ?? "").slice(0, COST_CENTER_CONCAT_MAX);
  let error: string | null = null;
  if (url.searchParams.get("intent") === "generate") {
    const choice = resolveCostCenter(costCenter, costCenters);
    if (!rf || choice.kind === "empty") error = forecastTexts.filterIncomplete;
    else if (!scenarios.includes(rf)) error = forecastTexts.unknownPeriod;
    else if (choice.kind === "found") throw redirect(reviewPath(rf, choice.cost_center_concat));
    else
      error =
        choice.kind === "ambiguous"
          ? forecastTexts.ambiguousCostCenter(costCenter, choice.count)
          : forecastTexts.unknownCostCenter(costCenter);
  }
  return data(
    {
      scenarios: scenarios.map((name) => ({ name, open: name === open })),
      costCenters,
      rf: scenarios.includes(rf) ? rf : "",
      costCenter,
      error,
      links,
      /** The viewer's own cost centres in the RF shown today (null: none), and every one they prepare (the picker marks them). */
      mine: own.mine,
      preparedByMe: own.prepared,
    },
    { status: error ? 400 : 200 },
  );
}

export default function ForecastFilterPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <>
      <section className="forecast-filter">
        <Breadcrumb filterHref={null} />
        <h1>{forecastTexts.filterTitle}</h1>
        <p>{forecastTexts.filterIntro}</p>
        {page.error ? <Alert tone="error">{page.error}</Alert> : null}
        {page.scenarios.length === 0 ? (
          <Alert tone="info">{forecastTexts.noScenarios}</Alert>
        ) : (
          // Keyed by the URL's choices so Back and Forward show the choices of that address.
          <FilterForm key={`${page.rf}\u0000${page.costCenter}`} page={page} />
        )}
        {page.mine ? <MyCostCentres mine={page.mine} /> : null}
        <p className="forecast-filter__calendar">
          <Link to={CALENDAR_PATH}>{forecastTexts.calendarLink}</Link>
          {page.links.board ? (
            <>
              {" · "}
              <Link to={BOARD_PATH}>{boardTexts.title}</Link>
            </>
          ) : null}
          {page.links.preparers ? (
            <>
              {" · "}
              <Link to="/ij/forecast_preparers">{boardTexts.preparersLink}</Link>
            </>
          ) : null}
        </p>
      </section>
      <SaveViewForm />
    </>
  );
}

function FilterForm({ page }: { page: ReturnType<typeof useLoaderData<typeof loader>> }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const id = useId();
  const [rf, setRf] = useState(page.rf);
  const [costCenter, setCostCenter] = useState(page.costCenter);
  useChoicesInAddress(rf, costCenter);
  const ready = rf !== "" && resolveCostCenter(costCenter, page.costCenters).kind === "found";
  const mine = new Set(page.preparedByMe);
  const busy = navigation.state !== "idle";
  return (
    <Form method="get" className="forecast-filter__form card">
      <div className="field">
        <label htmlFor={`${id}-period`}>{forecastTexts.period}</label>
        <select id={`${id}-period`} name="rf" value={rf} onChange={(event) => setRf(event.target.value)}>
          <option value="">{forecastTexts.periodPlaceholder}</option>
          {page.scenarios.map((s) => (
            <option key={s.name} value={s.name}>
              {s.open ? `${s.name} (${forecastTexts.periodOpenSuffix})` : s.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-cost-center`}>{forecastTexts.costCenter}</label>
        <input
          id={`${id}-cost-center`}
          name="cost_center"
          type="search"
          list={`${id}-cost-centers`}
          value={costCenter}
          maxLength={COST_CENTER_CONCAT_MAX}
          autoComplete="off"
          placeholder={forecastTexts.costCenterPlaceholder}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setCostCenter(event.target.value)}
        />
        <datalist id={`${id}-cost-centers`}>
          {page.costCenters.map((c) => (
            <option key={c} value={c} label={mine.has(c) ? boardTexts.mineOption : undefined} />
          ))}
        </datalist>
        <span id={`${id}-hint`} className="forecast-filter__hint">
          {forecastTexts.costCenterHint}
        </span>
      </div>
      {/* Enabled before the JavaScript loads (the server checks the choices); then only with both chosen. */}
      <button
        type="submit"
        name="intent"
        value="generate"
        className="button button--primary"
        disabled={busy || (hydrated && !ready)}
      >
        {forecastTexts.generateReview}
      </button>
      {/* With JavaScript the address follows the fields; without it, this GET (no intent) writes them there. */}
      {hydrated ? null : (
        <button type="submit" className="button button--secondary">
          {forecastTexts.applyChoices}
        </button>
      )}
    </Form>
  );
}

/** "Meus centros de custo": a preparer's own cost centres, each with its state, the days left and its review. */
function MyCostCentres({ mine }: { mine: MyCostCentresData }) {
  return (
    <section className="forecast-filter__mine" aria-labelledby="forecast-mine-title">
      <h2 id="forecast-mine-title">{boardTexts.mineTitle}</h2>
      <MyCostCentresTable mine={mine} intro={boardTexts.mineIntro(mine.rf)} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
