// Screen: Cockpit filter: /ij/cockpit (period, business unit, report, categories).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { type CategoryOption, dependentOptions, REPORT_LABELS } from "~/features/reports-and-financial/cockpit-filters";
import { readCockpitParams } from "~/features/reports-and-financial/cockpit-params.server";
import { MonthField, UnitSelect } from "~/features/reports-and-financial/fields";
import { reportsTexts as t } from "~/messages";
import { listAccounts } from "~/models/ledger.server";
import { CATEGORY1_OPTIONS, LEDGER_REPORTS, type LedgerReport } from "~/models/reports.fields";
import { addMonthsToDate, monthKeyOfDate } from "~/shared/months";
import { useHydrated } from "~/shared/ui/use-hydrated";

export const meta: MetaFunction = () => [{ title: t.cockpitTitle }];

/**
 * /ij/cockpit: 1. Period; 2. Filters (Business Unit, Report, Category 1, and Category 2 and 3 listing what lies
 * under the choices above them). Generate report opens /ij/cockpit_preview with the filters in its URL; Reset
 * clears the form. Without JavaScript the dependent lists are refreshed by "Atualizar listas" (the same GET
 * form, sent to this page).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.cockpit", request);
  const params = readCockpitParams(new URL(request.url));
  const accounts = await listAccounts();
  const options: CategoryOption[] = accounts.map((a) => ({
    category1: a.category1,
    category2: a.category2,
    category3: a.category3,
    workingCapital: a.workingCapital,
  }));
  return { params: { ...params, period: params.period ?? monthKeyOfDate(addMonthsToDate(new Date(), -1)) }, options };
}

type Choice = { report: LedgerReport; category1: string; category2: string; category3: string };

export default function CockpitFilterPage() {
  const { params, options } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const initial: Choice = {
    report: params.report,
    category1: params.category1 ?? "",
    category2: params.category2 ?? "",
    category3: params.category3 ?? "",
  };
  const [choice, setChoice] = useState<Choice>(initial);
  const [unitError, setUnitError] = useState<string | null>(null);
  const lists = dependentOptions(options, {
    report: choice.report,
    category1: (CATEGORY1_OPTIONS as readonly string[]).includes(choice.category1)
      ? (choice.category1 as (typeof CATEGORY1_OPTIONS)[number])
      : null,
    category2: choice.category2 || null,
  });
  // A choice that no longer fits the lists above it is dropped (e.g. Category 2 after a new Category 1).
  const category1 = lists.category1.includes(choice.category1 as never) ? choice.category1 : "";
  const category2 = lists.category2.includes(choice.category2) ? choice.category2 : "";
  const category3 = lists.category3.includes(choice.category3) ? choice.category3 : "";
  const set = (patch: Partial<Choice>) => setChoice((c) => ({ ...c, ...patch }));

  return (
    <section className="report-page">
      <h1>{t.cockpitTitle}</h1>
      {/* noValidate: a missing unit gets the portal's message, not the browser's bubble (in the browser's language). */}
      <Form
        method="get"
        action="/ij/cockpit_preview"
        className="cockpit-form"
        key={JSON.stringify(params)}
        noValidate
        onSubmit={(event) => {
          const unit = event.currentTarget.elements.namedItem("unit") as HTMLSelectElement | null;
          if (unit && !unit.value) {
            event.preventDefault();
            setUnitError(t.unitRequired);
            unit.focus();
          } else setUnitError(null);
        }}
        onReset={() => {
          setUnitError(null);
          setChoice({ report: "BALANCE_SHEET", category1: "", category2: "", category3: "" });
        }}
      >
        <section aria-labelledby="cockpit-period">
          <h2 id="cockpit-period">{t.cockpitSectionPeriod}</h2>
          <div className="report-filters">
            <MonthField id="cockpit-period-input" name="period" defaultValue={params.period} />
          </div>
        </section>
        <section aria-labelledby="cockpit-filters">
          <h2 id="cockpit-filters">{t.cockpitSectionFilters}</h2>
          <div className="report-filters">
            <UnitSelect
              id="cockpit-unit"
              name="unit"
              label={t.businessUnit}
              defaultValue={params.unit ?? ""}
              required
              error={unitError}
            />
            <div className="field">
              <label htmlFor="cockpit-report">{t.report}</label>
              <select
                id="cockpit-report"
                name="report"
                value={choice.report}
                onChange={(e) => set({ report: e.target.value as LedgerReport })}
              >
                {LEDGER_REPORTS.map((r) => (
                  <option key={r} value={r}>
                    {REPORT_LABELS[r]}
                  </option>
                ))}
              </select>
            </div>
            <CategorySelect
              id="cockpit-category1"
              name="category1"
              label={t.category1}
              value={category1}
              values={lists.category1}
              onChange={(v) => set({ category1: v, category2: "", category3: "" })}
            />
            <CategorySelect
              id="cockpit-category2"
              name="category2"
              label={t.category2}
              value={category2}
              values={lists.category2}
              onChange={(v) => set({ category2: v, category3: "" })}
            />
            <CategorySelect
              id="cockpit-category3"
              name="category3"
              label={t.category3}
              value={category3}
              values={lists.category3}
              onChange={(v) => set({ category3: v })}
            />
          </div>
        </section>
        <div className="report-actions">
          <button type="submit" className="button button--primary">
            {t.generateReport}
          </button>
          {hydrated ? (
            <button type="reset" className="button button--secondary">
              {t.reset}
            </button>
          ) : (
            <>
              <button type="submit" formAction="/ij/cockpit" className="button button--secondary">
                {t.updateLists}
              </button>
              <Link to="/ij/cockpit" className="button button--secondary">
                {t.reset}
              </Link>
            </>
          )}
        </div>
      </Form>
    </section>
  );
}

function CategorySelect({
  id,
  name,
  label,
  value,
  values,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  values: readonly string[];
  onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t.all}</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
