import { Form, Link } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { type ListState, PREPARERS_PAGE_SIZE, PREPARERS_PATH, PREPARERS_TEMPLATE_PATH, preparersHref } from "./paths";
import { CostCentersTable, ProposalsTable, RefusedRowsTable, UnmatchedTable } from "./preparers-tables";
import type { ScreenData, ScreenError } from "./screen-data";
import { preparersTexts as t } from "./texts";

/** The preparers' screen (/ij/forecast_preparers): every form a plain GET or POST, so it works without JavaScript. */

export type { ScreenData, ScreenError } from "./screen-data";

export function PreparersScreen({ data, error, busy }: { data: ScreenData; error: ScreenError; busy: boolean }) {
  const { state } = data;
  const here = preparersHref(state);
  return (
    <section className="forecast-preparers" aria-labelledby="forecast-preparers-title">
      <h1 id="forecast-preparers-title">{t.title}</h1>
      <p>{t.intro}</p>

      {data.notice ? <NoticeBox notice={data.notice} /> : null}
      {error && !data.rows.some((r) => r.costCenter === error.costCenter) ? (
        <Alert tone="error">{error.message}</Alert>
      ) : null}
      {data.removing ? <RemoveConfirmation removing={data.removing} state={state} busy={busy} /> : null}

      <div className="forecast-preparers__tools">
        <Form method="get" action={PREPARERS_PATH} className="forecast-preparers__filter">
          <fieldset>
            <legend>{t.filterLegend}</legend>
            <label className="field">
              <span>{t.searchLabel}</span>
              <input type="search" name="q" defaultValue={state.q} placeholder={t.searchPlaceholder} maxLength={200} />
            </label>
            <label className="forecast-preparers__check">
              <input type="checkbox" name="sem" value="1" defaultChecked={state.without} />
              <span>{t.withoutPreparerLabel}</span>
            </label>
            <button type="submit" className="button button--primary">
              {t.filterButton}
            </button>
            {state.q || state.without ? <Link to={PREPARERS_PATH}>{t.clearFilter}</Link> : null}
          </fieldset>
        </Form>
        <Form method="get" action={PREPARERS_PATH}>
          {state.q ? <input type="hidden" name="q" value={state.q} /> : null}
          {state.without ? <input type="hidden" name="sem" value="1" /> : null}
          {state.page > 1 ? <input type="hidden" name="page" value={state.page} /> : null}
          <input type="hidden" name="sugerir" value="1" />
          <button type="submit" className="button button--secondary">
            {t.suggestButton}
          </button>
        </Form>
      </div>

      {data.suggestion ? <SuggestionBox suggestion={data.suggestion} state={state} busy={busy} /> : null}

      <CostCenterList data={data} error={error} here={here} busy={busy} />

      <section className="forecast-preparers__template card" aria-labelledby="forecast-preparers-template">
        <h2 id="forecast-preparers-template">{t.templateTitle}</h2>
        <p>{t.templateHelp}</p>
        <p>
          <a className="button button--secondary" href={PREPARERS_TEMPLATE_PATH} download>
            {t.templateDownload}
          </a>
        </p>
        <Form method="post" action={PREPARERS_TEMPLATE_PATH} encType="multipart/form-data" reloadDocument>
          <label className="field">
            <span>{t.templateUploadLabel}</span>
            <input type="file" name="arquivo" accept=".xlsx,.csv" required />
          </label>
          <button type="submit" className="button button--primary">
            {t.templateUploadButton}
          </button>
        </Form>
      </section>
    </section>
  );
}

function NoticeBox({ notice }: { notice: NonNullable<ScreenData["notice"]> }) {
  return (
    <Alert tone={notice.tone} title={notice.title}>
      <p>{notice.text}</p>
      {notice.refused && notice.refused.rows.length > 0 ? (
        <>
          <RefusedRowsTable rows={notice.refused.rows} />
          {notice.refused.more > 0 ? <p>{t.refusedMore(notice.refused.more)}</p> : null}
        </>
      ) : null}
    </Alert>
  );
}

function RemoveConfirmation({
  removing,
  state,
  busy,
}: {
  removing: NonNullable<ScreenData["removing"]>;
  state: ListState;
  busy: boolean;
}) {
  return (
    <div className="forecast-preparers__confirm card" role="alertdialog" aria-labelledby="forecast-preparers-remove">
      <h2 id="forecast-preparers-remove">{t.removeTitle}</h2>
      <p>{t.removePrompt(removing.email, removing.costCenter)}</p>
      {removing.warning ? <Alert tone="warning">{removing.warning}</Alert> : null}
      <Form method="post" action={preparersHref(state)}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="cost_center_concat" value={removing.costCenter} />
        <input type="hidden" name="user" value={removing.email} />
        <input type="hidden" name="confirm" value="1" />
        <button type="submit" className="button button--primary" disabled={busy}>
          {t.removeConfirm}
        </button>{" "}
        <Link to={preparersHref(state)}>{t.cancel}</Link>
      </Form>
    </div>
  );
}

function SuggestionBox({
  suggestion,
  state,
  busy,
}: {
  suggestion: NonNullable<ScreenData["suggestion"]>;
  state: ListState;
  busy: boolean;
}) {
  return (
    <section className="forecast-preparers__suggestion card" aria-labelledby="forecast-preparers-suggestion">
      <h2 id="forecast-preparers-suggestion">{t.suggestTitle}</h2>
      <p>{t.suggestIntro}</p>
      {suggestion.responsibles === 0 ? <Alert tone="info">{t.noResponsibles}</Alert> : null}
      {suggestion.already > 0 ? <p>{t.suggestAlready(suggestion.already)}</p> : null}
      {suggestion.proposals.length === 0 ? (
        suggestion.responsibles > 0 ? (
          <p>{t.suggestNone}</p>
        ) : null
      ) : (
        <>
          <ProposalsTable proposals={suggestion.proposals} />
          <Form method="post" action={preparersHref(state)}>
            <input type="hidden" name="intent" value="suggest" />
            {suggestion.pairs.map((pair) => (
              <input key={pair} type="hidden" name="par" value={pair} />
            ))}
            <button type="submit" className="button button--primary" disabled={busy}>
              {t.suggestApply(suggestion.proposals.length)}
            </button>
          </Form>
        </>
      )}
      {suggestion.unmatched.length > 0 ? (
        <>
          <h3>{t.unmatchedTitle}</h3>
          <UnmatchedTable unmatched={suggestion.unmatched} />
        </>
      ) : null}
      <p>
        <Link to={preparersHref(state)}>{t.suggestClose}</Link>
      </p>
    </section>
  );
}

function CostCenterList({
  data,
  error,
  here,
  busy,
}: {
  data: ScreenData;
  error: ScreenError;
  here: string;
  busy: boolean;
}) {
  const { state } = data;
  if (data.rows.length === 0) return <Alert tone="info">{data.anyCostCenter ? t.noMatch : t.noCostCenters}</Alert>;
  const from = (data.page - 1) * PREPARERS_PAGE_SIZE + 1;
  const to = from + data.rows.length - 1;
  return (
    <>
      <p aria-live="polite">{t.shown(from, to, data.total)}</p>
      <CostCentersTable data={data} error={error} here={here} busy={busy} />
      {data.pageCount > 1 ? (
        <nav aria-label={t.pagerLabel} className="forecast-preparers__pager">
          {data.page > 1 ? <Link to={preparersHref({ ...state, page: data.page - 1 })}>{t.previous}</Link> : null}{" "}
          <span>{t.pageOf(data.page, data.pageCount)}</span>{" "}
          {data.page < data.pageCount ? (
            <Link to={preparersHref({ ...state, page: data.page + 1 })}>{t.next}</Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
