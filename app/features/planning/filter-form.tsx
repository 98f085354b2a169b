import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import {
  ATTRIBUTES,
  type AttributeOptions,
  type AttributeParam,
  CHANNELS,
  DATE_MAX,
  DATE_MIN,
  type FilterErrors,
  type FormFilter,
  fromFormFilter,
  parseFilter,
  SKU_LIST_LIMIT,
  type SkuMode,
  type SkuOption,
} from "~/features/planning/planning";
import { Alert } from "~/shared/ui/alert";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { LabelledInput } from "./fields";
import { PlanningHeader, Spinner } from "./planning-header";
import { FORM_FILTER_KEY, type PlanningScreen } from "./screens";
import { planningTexts } from "./texts";
import "./planning.css";

/** What the filter screens' loader sends (features/planning/filter.server.ts). */
export type FilterScreenData = {
  values: Omit<FormFilter, "skuMode">;
  skuMode: SkuMode;
  skuSearch: string;
  options: AttributeOptions;
  skuResults: SkuOption[];
  selectedSkus: SkuOption[];
  errors: FilterErrors;
  restorable: boolean;
};

type Values = Omit<FormFilter, "skuMode">;
type ListName = "sku" | "chanel" | AttributeParam;

const EMPTY: Values = {
  dateStart: "",
  dateEnd: "",
  sku: [],
  chanel: [],
  ...(Object.fromEntries(ATTRIBUTES.map((a) => [a.param, []])) as unknown as Record<AttributeParam, string[]>),
};

function Errors({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="field__error">
      {messages.join(" ")}
    </p>
  );
}

function Checklist({
  name,
  legend,
  options,
  values,
  onToggle,
  errors,
  labelOf = (v) => v || planningTexts.emptyValue,
  bare = false,
}: {
  name: ListName;
  legend: string;
  /** Inside a fieldset of its own (the channel section): no second border and legend. */
  bare?: boolean;
  options: readonly string[];
  values: readonly string[];
  onToggle: (name: ListName, value: string, on: boolean) => void;
  errors?: string[];
  labelOf?: (value: string) => string;
}) {
  const errorId = useId();
  const items = (
    <div className="planning-checklist__items">
      {options.map((option) => (
        <label key={option}>
          <input
            type="checkbox"
            name={name}
            value={option}
            checked={values.includes(option)}
            onChange={(e) => onToggle(name, option, e.target.checked)}
            aria-describedby={bare && errors?.length ? errorId : undefined}
          />{" "}
          {labelOf(option)}
        </label>
      ))}
    </div>
  );
  if (bare) {
    return (
      <>
        {items}
        <Errors id={errorId} messages={errors} />
      </>
    );
  }
  return (
    <fieldset className="planning-checklist" aria-describedby={errors?.length ? errorId : undefined}>
      <legend>{legend}</legend>
      {items}
      <Errors id={errorId} messages={errors} />
    </fieldset>
  );
}

/**
 * The filter screen of both flows (spec 001 §2): 1 Period (From/To), 2 SKU (specific SKUs from a searchable
 * list, or SKU attributes; the report filter offers both lists), 3 Channel (planning only). A GET form whose
 * action is the results screen, so the filter lands in the URL and works without JavaScript; with JavaScript
 * the same checks as the server run before leaving, Generate report waits for a channel, the SKU search
 * answers as you type, and the planning filter is kept under `formFilter` (and restored on a bare /ij/plan).
 */
export function FilterForm({ screen, data }: { screen: PlanningScreen; data: FilterScreenData }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const fetcher = useFetcher<FilterScreenData>();
  const ids = { search: useId(), errors: useId() };
  const isPlan = screen.kind === "plan";
  const [values, setValues] = useState<Values>(data.values);
  const [skuMode, setSkuMode] = useState<SkuMode>(data.skuMode);
  const [search, setSearch] = useState(data.skuSearch);
  const [clientErrors, setClientErrors] = useState<FilterErrors | null>(null);
  const [known, setKnown] = useState<Map<string, string>>(
    () => new Map(data.selectedSkus.map((s) => [s.sku, s.description])),
  );
  const searchTimer = useRef<ReturnType<typeof setTimeout>>();

  // The filter kept in the browser fills the form once, as the page first shows (later loads never overwrite it).
  const restoreChecked = useRef(false);
  useEffect(() => {
    if (restoreChecked.current) return;
    restoreChecked.current = true;
    if (!isPlan || !data.restorable) return;
    const stored = fromFormFilter(window.localStorage.getItem(FORM_FILTER_KEY));
    if (!stored) return;
    const { skuMode: storedMode, ...rest } = stored;
    setValues(rest);
    setSkuMode(storedMode);
    // Descriptions of the restored SKUs arrive with the next search; until then the code is shown.
  }, [isPlan, data.restorable]);

  const results = fetcher.data?.skuResults ?? data.skuResults;
  useEffect(() => {
    setKnown((current) => {
      const next = new Map(current);
      for (const s of results) if (!next.has(s.sku)) next.set(s.sku, s.description);
      return next;
    });
  }, [results]);

  const errors = clientErrors ?? data.errors;
  const hasErrors = Object.keys(errors).length > 0;
  const toggle = (name: ListName, value: string, on: boolean) =>
    setValues((v) => ({ ...v, [name]: on ? [...v[name], value] : v[name].filter((x) => x !== value) }));

  const onSearch = (text: string) => {
    setSearch(text);
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(
      () => fetcher.load(`${screen.filterPath}?skuSearch=${encodeURIComponent(text)}`),
      250,
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(event.currentTarget).entries()) if (typeof v === "string") params.append(k, v);
    const parsed = parseFilter(params, screen.kind);
    if (!parsed.ok) {
      event.preventDefault();
      setClientErrors(parsed.errors);
      return;
    }
    setClientErrors(null);
    if (isPlan) window.localStorage.setItem(FORM_FILTER_KEY, JSON.stringify({ ...values, skuMode }));
  };

  const skuChoices = useMemo(() => {
    const chosen = values.sku.map((sku) => ({ sku, description: known.get(sku) ?? "" }));
    return [...chosen, ...results.filter((r) => !values.sku.includes(r.sku))];
  }, [values.sku, results, known]);

  const generating = navigation.state !== "idle" && navigation.location?.pathname === screen.resultsPath;
  const noChannel = isPlan && values.chanel.length === 0;

  return (
    <section className="planning">
      <PlanningHeader screen={screen} step={1} />
      {hasErrors ? (
        <div id={ids.errors}>
          <Alert tone="error">{planningTexts.filterInvalid}</Alert>
        </div>
      ) : null}
      <Form
        method="get"
        action={screen.resultsPath}
        className="planning-filter"
        noValidate={hydrated}
        onSubmit={onSubmit}
      >
        {/* Generate report's mark: the results page answers it with "Report generated successfully." once. */}
        <input type="hidden" name="generated" value="1" />
        <fieldset className="planning-filter__section">
          <legend>1 {planningTexts.period}</legend>
          <div className="planning-filter__dates">
            <LabelledInput
              label={planningTexts.from}
              type="date"
              name="dateStart"
              min={DATE_MIN}
              max={DATE_MAX}
              value={values.dateStart}
              onChange={(e) => setValues((v) => ({ ...v, dateStart: e.target.value }))}
              errors={errors.dateStart}
            />
            <LabelledInput
              label={planningTexts.to}
              type="date"
              name="dateEnd"
              min={
                values.dateStart && values.dateStart > DATE_MIN && values.dateStart <= DATE_MAX
                  ? values.dateStart
                  : DATE_MIN
              }
              max={DATE_MAX}
              value={values.dateEnd}
              onChange={(e) => setValues((v) => ({ ...v, dateEnd: e.target.value }))}
              errors={errors.dateEnd}
            />
          </div>
        </fieldset>

        <fieldset className="planning-filter__section">
          <legend>2 {planningTexts.sku}</legend>
          {isPlan ? (
            <div className="planning-filter__modes" role="radiogroup" aria-label={planningTexts.sku}>
              <label>
                <input
                  type="radio"
                  name="skuMode"
                  value="sku"
                  checked={skuMode === "sku"}
                  onChange={() => setSkuMode("sku")}
                />{" "}
                {planningTexts.skuModeSpecific}
              </label>
              <label>
                <input
                  type="radio"
                  name="skuMode"
                  value="attributes"
                  checked={skuMode === "attributes"}
                  onChange={() => setSkuMode("attributes")}
                />{" "}
                {planningTexts.skuModeAttributes}
              </label>
            </div>
          ) : null}

          <div className="planning-filter__skus">
            <div className="planning-filter__search">
              <div className="field">
                <label htmlFor={ids.search}>{planningTexts.skuSearchLabel}</label>
                <input
                  id={ids.search}
                  type="search"
                  name={hydrated ? undefined : "skuSearch"}
                  value={search}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={64}
                  onChange={(e) => onSearch(e.target.value)}
                  onKeyDown={(e) => {
                    // Enter searches the list instead of generating the report.
                    if (e.key === "Enter") {
                      e.preventDefault();
                      onSearch(search);
                    }
                  }}
                />
              </div>
              {hydrated ? null : (
                <button type="submit" className="button button--secondary" formAction={screen.filterPath}>
                  {planningTexts.skuSearchButton}
                </button>
              )}
            </div>
            <p className="planning-filter__hint">{planningTexts.skuSearchHint(SKU_LIST_LIMIT)}</p>
            <Checklist
              name="sku"
              legend={`${planningTexts.sku} · ${planningTexts.skuSelected(values.sku.length)}`}
              options={skuChoices.map((s) => s.sku)}
              values={values.sku}
              onToggle={toggle}
              errors={errors.sku}
              labelOf={(sku) => {
                const description = known.get(sku);
                return description ? `${sku} — ${description}` : sku;
              }}
            />
            {skuChoices.length === 0 ? <p className="planning-filter__hint">{planningTexts.skuNoMatch}</p> : null}
          </div>

          <div className="planning-filter__attributes">
            {ATTRIBUTES.map((a) => (
              <Checklist
                key={a.param}
                name={a.param}
                legend={planningTexts.attributes[a.param]}
                options={data.options[a.param]}
                values={values[a.param]}
                onToggle={toggle}
                errors={errors[a.param]}
              />
            ))}
          </div>
        </fieldset>

        {isPlan ? (
          <fieldset className="planning-filter__section">
            <legend>3 {planningTexts.channel}</legend>
            <Checklist
              name="chanel"
              legend={planningTexts.channel}
              options={CHANNELS}
              values={values.chanel}
              onToggle={toggle}
              errors={errors.chanel}
              bare
            />
          </fieldset>
        ) : null}

        <div className="planning-filter__actions">
          <Link
            className="button button--secondary"
            to={screen.filterPath}
            onClick={() => {
              setValues(EMPTY);
              setSearch("");
              setClientErrors(null);
            }}
          >
            {planningTexts.reset}
          </Link>
          <button type="submit" className="button button--primary" disabled={(hydrated && noChannel) || generating}>
            {planningTexts.generateReport}
          </button>
          {generating ? <Spinner /> : null}
        </div>
      </Form>
    </section>
  );
}
