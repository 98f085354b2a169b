import { Form, Link } from "@remix-run/react";
import { type ConsolidatedQuery, consolidatedHref, MAX_LEVEL, openedTo, sourceToken } from "./query";
import { consolidatedTexts as t } from "./texts";

/**
 * The view's choices as a GET form (the URL keeps them: RF, figures shown and compared, comparison columns,
 * "somente aprovados"), the depth links, the export, and "Salvar versão" for those who may.
 */
export function ConsolidatedControls({
  query,
  scenarios,
  options,
  excelHref,
}: {
  query: ConsolidatedQuery;
  scenarios: readonly string[];
  options: readonly { token: string; label: string }[];
  excelHref: string;
}) {
  return (
    <>
      <Form method="get" className="consolidated__filters">
        <label>
          {t.rf}
          <select name="rf" defaultValue={query.rf ?? ""}>
            {scenarios.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.shown}
          <select name="ver" defaultValue={sourceToken(query.base)}>
            {options.map((o) => (
              <option key={o.token} value={o.token}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.compare}
          <select name="vs" defaultValue={query.compare ? sourceToken(query.compare) : ""}>
            <option value="">{t.noComparison}</option>
            {options.map((o) => (
              <option key={o.token} value={o.token}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="consolidated__checks">
          <legend>{t.columns}</legend>
          <label>
            <input type="checkbox" name="cols" value="total" defaultChecked={query.cols.includes("total")} />
            {t.columnTotal}
          </label>
          <label>
            <input type="checkbox" name="cols" value="mes" defaultChecked={query.cols.includes("mes")} />
            {t.columnMonths}
          </label>
        </fieldset>
        <label className="consolidated__check">
          <input type="checkbox" name="aprovados" value="1" defaultChecked={query.approvedOnly} />
          {t.approvedOnly}
        </label>
        {query.level > 0 ? <input type="hidden" name="nivel" value={query.level} /> : null}
        {query.open.map((key) => (
          <input key={`o${key}`} type="hidden" name="abrir" value={key} />
        ))}
        {query.closed.map((key) => (
          <input key={`c${key}`} type="hidden" name="fechar" value={key} />
        ))}
        <button type="submit" className="button button--secondary">
          {t.apply}
        </button>
        <a className="button button--secondary" href={excelHref} download>
          {t.export}
        </a>
      </Form>
      <p className="consolidated__levels">
        {t.expandTo}{" "}
        {t.levels.map((label, level) =>
          level === query.level && query.open.length === 0 && query.closed.length === 0 ? (
            <strong key={label} aria-current="true">
              {label}
            </strong>
          ) : (
            <Link key={label} to={consolidatedHref(openedTo(query, Math.min(level, MAX_LEVEL)))} preventScrollReset>
              {label}
            </Link>
          ),
        )}
      </p>
    </>
  );
}

/** "Salvar versão": a name, the RF in a hidden field (POST to the same page). */
export function SaveVersionForm({ rf, error }: { rf: string; error?: string | null }) {
  return (
    <details className="consolidated__save" open={Boolean(error)}>
      <summary>{t.saveTitle}</summary>
      <Form method="post" className="consolidated__save-form">
        <p>{t.saveHint}</p>
        <input type="hidden" name="intent" value="salvar" />
        <input type="hidden" name="rf" value={rf} />
        <label>
          {t.saveName}
          <input name="nome" required maxLength={120} aria-invalid={error ? true : undefined} />
        </label>
        {error ? <p className="consolidated__error">{error}</p> : null}
        <button type="submit" className="button">
          {t.saveButton}
        </button>
      </Form>
    </details>
  );
}
