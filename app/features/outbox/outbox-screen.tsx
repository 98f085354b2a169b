import { Form, Link } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import type { OutboxData } from "./outbox.server";
import { OUTBOX_PARAMS, OUTBOX_PATH as PATH } from "./params";
import { outboxTexts as t } from "./texts";
import "./outbox.css";

// The loader's own types (type-only: nothing of the server module reaches the browser).
type Row = OutboxData["rows"][number];
type Message = NonNullable<OutboxData["message"]>;

/** The list's address with `changes` applied (null removes a parameter), page and filter kept. */
function withParams(search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

function MessagePanel({ message, closeHref }: { message: Message; closeHref: string }) {
  return (
    <section className="outbox-message" aria-labelledby="outbox-message-title">
      <h2 id="outbox-message-title">{message.subject}</h2>
      <dl>
        <dt>{t.messageTo}</dt>
        <dd>{message.to}</dd>
        <dt>{t.messageFrom}</dt>
        <dd>{message.from}</dd>
        <dt>{t.messageWhen}</dt>
        <dd>{message.when}</dd>
        {message.attachments.length > 0 ? (
          <>
            <dt>{t.messageAttachments}</dt>
            <dd>{message.attachments.join(", ")}</dd>
          </>
        ) : null}
      </dl>
      <pre className="outbox-message__text">{message.text}</pre>
      {message.links.length > 0 ? (
        <nav aria-label={t.messageLinks}>
          <ul className="outbox-message__links">
            {message.links.map((link) => (
              <li key={link.href}>
                {link.href.startsWith("/") ? (
                  <Link to={link.href}>{link.text}</Link>
                ) : (
                  <a href={link.href}>{link.text}</a>
                )}
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p>
        <Link to={closeHref} preventScrollReset>
          {t.close}
        </Link>
      </p>
    </section>
  );
}

/** /user/emails: the filter (a GET form), the opened message, and the server-paged list. */
export function OutboxScreen({ data, search }: { data: OutboxData; search: string }) {
  const columns: ColumnDef<Row, unknown>[] = [
    { id: "when", header: t.columnWhen, cell: ({ row }) => row.original.when },
    { id: "to", header: t.columnTo, cell: ({ row }) => row.original.to },
    {
      id: "subject",
      header: t.columnSubject,
      cell: ({ row }) => (
        <Link
          to={withParams(search, { [OUTBOX_PARAMS.message]: row.original.id })}
          aria-label={t.openOf(row.original.subject)}
          preventScrollReset
        >
          {row.original.subject}
        </Link>
      ),
    },
    { id: "attachments", header: t.columnAttachments, cell: ({ row }) => String(row.original.attachments) },
  ];
  return (
    <section className="outbox-page" aria-labelledby="outbox-title">
      <h1 id="outbox-title">{t.title}</h1>
      <p className="outbox-page__intro">{t.intro}</p>
      <Form method="get" action={PATH} className="outbox-filter">
        <div className="field">
          <label htmlFor="outbox-to">{t.filterLabel}</label>
          <input
            id="outbox-to"
            type="search"
            name={OUTBOX_PARAMS.to}
            defaultValue={data.to}
            key={data.to}
            maxLength={200}
            autoComplete="off"
          />
        </div>
        <button type="submit" className="button button--primary">
          {t.filter}
        </button>
        {data.to ? <Link to={PATH}>{t.clear}</Link> : null}
      </Form>
      {data.error ? <Alert tone="error">{data.error}</Alert> : null}
      {data.messageMissing ? <Alert tone="error">{t.notFound}</Alert> : null}
      {data.message ? (
        <MessagePanel message={data.message} closeHref={withParams(search, { [OUTBOX_PARAMS.message]: null })} />
      ) : null}
      <DataTable
        columns={columns}
        rows={data.rows}
        getRowId={(row) => row.id}
        rowCount={data.total}
        page={data.page}
        pageSize={data.pageSize}
        pageSizeOptions={data.pageSizes}
        emptyText={t.empty}
        caption={t.caption}
        highlightedRowId={data.message?.id ?? null}
      />
    </section>
  );
}
