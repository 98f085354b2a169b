import { Form, Link } from "@remix-run/react";
import { AUDIT_EVENTS, AUDIT_OUTCOMES } from "~/models/audit.fields";
import { CYCLE_ACTIONS } from "~/models/forecast-cycle.fields";
import { type ColumnDef, DataTable, type DataTableColumnMeta } from "~/shared/ui/data-table";
import type { AuditDetail, AuditRow, AuditSearch } from "./list.server";
import { AUDIT_EXPORT_PATH, AUDIT_FORMAT_PARAM, AUDIT_PARAMS, AUDIT_PATH } from "./params";
import { auditTexts as t } from "./texts";
import "./audit.css";

/**
 * The audit screen (/user/audit): a GET filter form (the filters live in the URL and work without JavaScript), the
 * page of entries newest first with links to the older and newer pages, the entry open in detail (`?entrada=<n>`),
 * and the export links, which carry the same filters.
 */

// The loader's own types (type-only: nothing of the server module reaches the browser).
type Values = AuditSearch["values"];
type Row = AuditRow;
type Detail = AuditDetail;

export type AuditScreenProps = {
  values: Values;
  error: string | null;
  rows: Row[];
  olderThan: number | null;
  newerThan: number | null;
  paged: boolean;
  detail: Detail | null;
  detailMissing: boolean;
};

const PARAMS: Record<keyof Values, string> = {
  from: AUDIT_PARAMS.from,
  to: AUDIT_PARAMS.to,
  user: AUDIT_PARAMS.user,
  event: AUDIT_PARAMS.event,
  dataset: AUDIT_PARAMS.dataset,
  outcome: AUDIT_PARAMS.outcome,
  object: AUDIT_PARAMS.object,
  action: AUDIT_PARAMS.action,
};

/** The filters as URL parameters, with `extra` added. */
function hrefOf(path: string, values: Values, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  for (const [key, param] of Object.entries(PARAMS)) {
    const value = values[key as keyof Values];
    if (value) params.set(param, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

function Filters({ values, error }: { values: Values; error: string | null }) {
  return (
    <Form method="get" action={AUDIT_PATH} className="audit-filters" aria-label={t.filtersLegend}>
      <div className="field">
        <label htmlFor="audit-from">{t.from}</label>
        <input id="audit-from" type="date" name={PARAMS.from} defaultValue={values.from} key={`f${values.from}`} />
      </div>
      <div className="field">
        <label htmlFor="audit-to">{t.to}</label>
        <input id="audit-to" type="date" name={PARAMS.to} defaultValue={values.to} key={`t${values.to}`} />
      </div>
      <div className="field">
        <label htmlFor="audit-user">{t.user}</label>
        <input
          id="audit-user"
          type="search"
          name={PARAMS.user}
          defaultValue={values.user}
          key={`u${values.user}`}
          maxLength={200}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor="audit-event">{t.event}</label>
        <select id="audit-event" name={PARAMS.event} defaultValue={values.event} key={`e${values.event}`}>
          <option value="">{t.any}</option>
          {AUDIT_EVENTS.map((event) => (
            <option key={event} value={event}>
              {t.eventLabels[event]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-dataset">{t.dataset}</label>
        <input
          id="audit-dataset"
          type="search"
          name={PARAMS.dataset}
          defaultValue={values.dataset}
          key={`d${values.dataset}`}
          maxLength={100}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor="audit-outcome">{t.outcome}</label>
        <select id="audit-outcome" name={PARAMS.outcome} defaultValue={values.outcome} key={`o${values.outcome}`}>
          <option value="">{t.any}</option>
          {AUDIT_OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {t.outcomeLabels[outcome]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-object">{t.object}</label>
        <input
          id="audit-object"
          type="search"
          name={PARAMS.object}
          defaultValue={values.object}
          key={`b${values.object}`}
          maxLength={200}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor="audit-action">{t.action}</label>
        <select id="audit-action" name={PARAMS.action} defaultValue={values.action} key={`a${values.action}`}>
          <option value="">{t.any}</option>
          {CYCLE_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {t.actionLabels[action]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button--primary">
        {t.filter}
      </button>
      <Link to={AUDIT_PATH}>{t.clear}</Link>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

function DetailPanel({ detail, closeHref }: { detail: Detail; closeHref: string }) {
  const fields: [string, string][] = [
    [t.fieldPosition, String(detail.n)],
    [t.fieldAt, detail.whenWithZone],
    [t.fieldActor, `${detail.who} — ${detail.actorName}`],
    [t.fieldActorType, detail.actorType],
    [t.fieldIp, detail.ip],
    [t.fieldEvent, detail.event],
    [t.fieldObject, detail.object],
    [t.fieldDataset, detail.dataset],
    [t.fieldOutcome, detail.outcome],
  ];
  return (
    <section className="audit-detail" aria-labelledby="audit-detail-title">
      <h2 id="audit-detail-title">{t.detailTitle(detail.n)}</h2>
      <dl>
        {fields.map(([label, value]) => (
          <div key={label} style={{ display: "contents" }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <dt>{t.fieldDetails}</dt>
        <dd>
          {detail.details.length > 0 ? (
            <table className="audit-detail__values">
              <tbody>
                {detail.details.map((d, i) => (
                  <tr key={`${i}:${d.label}`}>
                    <th scope="row">{d.label}</th>
                    <td>
                      {d.href && d.link ? (
                        <>
                          {d.value}{" "}
                          <Link to={d.href} aria-label={`${d.link}: ${d.value}`}>
                            {d.link}
                          </Link>
                        </>
                      ) : d.href ? (
                        <Link to={d.href}>{d.value}</Link>
                      ) : (
                        d.value
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            t.none
          )}
        </dd>
        <dt>{t.fieldPrev}</dt>
        <dd>
          <code>{detail.prev}</code>
        </dd>
        <dt>{t.fieldHash}</dt>
        <dd>
          <code>{detail.hash}</code>
        </dd>
      </dl>
      <p>
        <Link to={closeHref} preventScrollReset>
          {t.detailClose}
        </Link>
      </p>
    </section>
  );
}

const text = (id: keyof Row, header: string): ColumnDef<Row, unknown> => ({
  id,
  header,
  cell: ({ row }) => row.original[id],
});

/**
 * The page of entries, the open one set apart. Paged by seek with the screen's own links (older, newer), so the
 * table shows its rows whole.
 */
function AuditTable({
  rows,
  openN,
  entryHref,
}: {
  rows: Row[];
  openN: number | null;
  entryHref: (row: Row) => string;
}) {
  const columns: ColumnDef<Row, unknown>[] = [
    text("when", t.columnWhen),
    text("who", t.columnWho),
    text("actorType", t.columnType),
    text("ip", t.columnFrom),
    text("event", t.columnEvent),
    {
      id: "object",
      header: t.columnObject,
      cell: ({ row }) =>
        row.original.objectFilter ? (
          <Link to={row.original.objectFilter} title={t.filterByObject(row.original.object)}>
            {row.original.object}
          </Link>
        ) : (
          row.original.object
        ),
    },
    {
      ...text("outcome", t.columnOutcome),
      meta: { cellClassName: (row) => `audit-outcome--${row.outcomeCode}` } satisfies DataTableColumnMeta<Row>,
    },
    {
      id: "detail",
      header: t.columnDetail,
      cell: ({ row }) => (
        <Link to={entryHref(row.original)} aria-label={t.openEntry(row.original.n)} preventScrollReset>
          {t.open}
        </Link>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(row) => String(row.n)}
      paging={false}
      emptyText={t.empty}
      caption={t.title}
      className="audit-table"
      highlightedRowId={openN === null ? null : String(openN)}
    />
  );
}

export function AuditScreen(props: AuditScreenProps & { search: string }) {
  const { values, rows } = props;
  // The current page's cursor is kept when an entry is opened or closed.
  const current = new URLSearchParams(props.search);
  const cursor: Record<string, string> = {};
  for (const key of [AUDIT_PARAMS.before, AUDIT_PARAMS.after]) {
    const value = current.get(key);
    if (value && /^\d+$/.test(value)) cursor[key] = value;
  }
  const closeHref = hrefOf(AUDIT_PATH, values, cursor);
  return (
    <section className="audit-page" aria-labelledby="audit-title">
      <div className="audit-toolbar">
        <h1 id="audit-title" className="audit-page__title">
          {t.title}
        </h1>
        <div className="audit-pager">
          <a
            className="button button--secondary"
            href={hrefOf(AUDIT_EXPORT_PATH, values, { [AUDIT_FORMAT_PARAM]: "csv" })}
          >
            {t.exportCsv}
          </a>
          <a
            className="button button--secondary"
            href={hrefOf(AUDIT_EXPORT_PATH, values, { [AUDIT_FORMAT_PARAM]: "xlsx" })}
          >
            {t.exportXlsx}
          </a>
        </div>
      </div>
      <p className="audit-page__intro">{t.intro}</p>
      <Filters values={values} error={props.error} />
      <p className="audit-page__intro">{t.exportNote("100.000")}</p>
      {props.detail ? <DetailPanel detail={props.detail} closeHref={closeHref} /> : null}
      {props.detailMissing ? (
        <p className="field__error" role="alert">
          {t.detailNotFound}
        </p>
      ) : null}
      <AuditTable
        rows={rows}
        openN={props.detail?.n ?? null}
        entryHref={(row) => hrefOf(AUDIT_PATH, values, { ...cursor, [AUDIT_PARAMS.entry]: row.n })}
      />
      <nav className="audit-pager" aria-label={t.title}>
        {props.paged ? <Link to={hrefOf(AUDIT_PATH, values)}>{t.first}</Link> : null}
        {props.newerThan !== null ? (
          <Link to={hrefOf(AUDIT_PATH, values, { [AUDIT_PARAMS.after]: props.newerThan })}>{t.newer}</Link>
        ) : null}
        {props.olderThan !== null ? (
          <Link to={hrefOf(AUDIT_PATH, values, { [AUDIT_PARAMS.before]: props.olderThan })}>{t.older}</Link>
        ) : null}
        {rows.length > 0 ? <span>{t.pageNote(rows.length)}</span> : null}
      </nav>
    </section>
  );
}
