// Screen: HR auxiliary data, branch picker: /ij/rh (Auxiliar Padrão, step 1).
import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useId, useState } from "react";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM, resolveMonthRange } from "~/features/hr/month-range";
import { MonthRangeFields } from "~/features/hr/month-range-fields";
import { branchMatches, hrGridPath } from "~/features/hr/paths";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { monthKey } from "~/shared/months";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/hr/hr.css";
import { getConfig } from "~/config.server";
import { hrTexts } from "~/messages";
import { branchScopeOf, listBranches } from "~/models/hr.server";
import { Alert } from "~/shared/ui/alert";
import { useHydrated } from "~/shared/ui/use-hydrated";

export const meta: MetaFunction = () => [{ title: hrTexts.title }];

/**
 * /ij/rh — "Auxiliar Padrão", step 1 (spec 001 §2): pick a Filial (the distinct branches the user may see,
 * searchable) and a month range; Generate Review goes to /ij/rh_edit/{filial}?mes_inicio=…&mes_fim=….
 * A GET form: the choice lives in the URL, and the loader sends "Generate Review" on to the grid, so the
 * page works without JavaScript (where the search box filters through the server).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh", request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const requested = (url.searchParams.get("filial") ?? "").slice(0, 200);
  const months = resolveMonthRange(
    { from: url.searchParams.get(MONTH_FROM_PARAM), to: url.searchParams.get(MONTH_TO_PARAM) },
    { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth },
  );
  const scope = await branchScopeOf(user.email);
  const branches = await listBranches(scope);
  // A reader who may see one branch only has nothing to pick: it comes preselected.
  const selected = branches.includes(requested) ? requested : branches.length === 1 ? branches[0] : null;
  let error: string | null = null;
  if (url.searchParams.get("intent") === "generate") {
    if (!selected) error = hrTexts.chooseBranch;
    else if (months.ok) throw redirect(hrGridPath(selected, months.range));
  }
  return {
    branches,
    q,
    selected,
    // What the month inputs show: the range as "YYYY-MM", or the text that was refused.
    months: months.ok
      ? { from: monthKey(months.range.from), to: monthKey(months.range.to) }
      : { from: months.from, to: months.to },
    monthError: months.ok ? null : months.error,
    error,
    scoped: scope.kind === "stores",
  };
}

export default function HrPickerPage() {
  const { branches, q, selected, months, monthError, error, scoped } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [query, setQuery] = useState(q);
  const [choice, setChoice] = useState<string | null>(selected);
  const searchId = useId();
  const listId = useId();
  const shown = branches.filter((name) => name === choice || branchMatches(name, query));
  const busy = navigation.state !== "idle";

  return (
    <section className="hr-page" aria-labelledby="hr-title" aria-busy={busy}>
      <p className="hr-breadcrumb">
        <span aria-current="page">{hrTexts.filtering}</span>
      </p>
      <h1 id="hr-title">{hrTexts.title}</h1>
      <p className="hr-page__intro">{hrTexts.pickerIntro}</p>
      {scoped ? <p className="hr-page__note">{hrTexts.scopedNote(branches.length)}</p> : null}

      {/* key: a new URL (back/forward) resets the box, the choice and the months to what it holds. */}
      <Form
        method="get"
        className="hr-picker"
        key={`${q}\u0000${selected ?? ""}\u0000${months.from}\u0000${months.to}`}
      >
        <fieldset className="hr-picker__branches">
          <legend>{hrTexts.filial}</legend>
          <div className="hr-picker__search">
            <div className="field">
              <label htmlFor={searchId}>{hrTexts.branchSearchLabel}</label>
              <input
                id={searchId}
                name="q"
                type="search"
                autoComplete="off"
                maxLength={100}
                placeholder={hrTexts.branchSearchPlaceholder}
                aria-controls={listId}
                value={query}
                onChange={(event) => setQuery(event.currentTarget.value)}
                onKeyDown={(event) => {
                  // With JavaScript the list filters as one types; Enter picks the only match instead of reloading.
                  if (event.key !== "Enter" || !hydrated) return;
                  event.preventDefault();
                  const matches = branches.filter((name) => branchMatches(name, query));
                  if (matches.length === 1) setChoice(matches[0]);
                }}
              />
            </div>
            {/* The first submit button: Enter in the search box filters when scripts are off. */}
            {hydrated ? null : (
              <button type="submit" name="intent" value="filter" className="button button--secondary">
                {hrTexts.branchFilter}
              </button>
            )}
          </div>
          <p className="hr-picker__count" aria-live="polite">
            {branches.length === 0
              ? scoped
                ? hrTexts.noBranchesScoped
                : hrTexts.noBranches
              : shown.length === 0
                ? hrTexts.noBranchMatches(query)
                : hrTexts.branchCount(shown.length, branches.length)}
          </p>
          <div className="hr-picker__list" id={listId} role="radiogroup" aria-label={hrTexts.branchListLabel}>
            {shown.map((name) => (
              <label key={name} className="hr-picker__option">
                <input
                  type="radio"
                  name="filial"
                  value={name}
                  checked={choice === name}
                  onChange={() => setChoice(name)}
                />
                <span>{name}</span>
              </label>
            ))}
          </div>
        </fieldset>

        <MonthRangeFields from={months.from} to={months.to} error={monthError} />

        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="hr-picker__actions">
          {/* Enabled only with a branch chosen (spec 001 §5); before hydration the server checks it instead. */}
          <button
            type="submit"
            name="intent"
            value="generate"
            className="button button--primary"
            disabled={hydrated && (choice === null || busy)}
          >
            {hrTexts.generateReview}
          </button>
        </div>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
