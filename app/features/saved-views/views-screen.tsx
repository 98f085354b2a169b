import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { savedViewTexts } from "./texts";
import type { ViewRow } from "./views.server";
import "./saved-views.css";

/** /user/visoes: the user's views with their share links, the default per screen, deleting. */

const { columns: headers } = savedViewTexts;

function actionForm(intent: string, row: ViewRow, label: string, text: string) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={row.id} />
      <button type="submit" className="button button--secondary button--small" aria-label={label}>
        {text}
      </button>
    </Form>
  );
}

const COLUMNS: ColumnDef<ViewRow, unknown>[] = [
  {
    id: "name",
    header: headers.name,
    meta: { rowHeader: true },
    cell: ({ row }) =>
      row.original.canOpen ? (
        <Link to={row.original.href} aria-label={savedViewTexts.openLabel(row.original.name)}>
          {row.original.name}
        </Link>
      ) : (
        row.original.name
      ),
  },
  { id: "screen", header: headers.screen, accessorKey: "screen" },
  {
    id: "link",
    header: headers.link,
    cell: ({ row }) => (
      <input
        className="saved-views__link"
        readOnly
        value={row.original.shareUrl}
        aria-label={savedViewTexts.linkLabel(row.original.name)}
      />
    ),
  },
  { id: "isDefault", header: headers.isDefault, accessorFn: (r) => (r.isDefault ? savedViewTexts.yes : "") },
  {
    id: "actions",
    header: headers.actions,
    cell: ({ row }) => (
      <div className="saved-views__actions">
        {!row.original.canDefault
          ? null
          : row.original.isDefault
            ? actionForm(
                "undefault",
                row.original,
                savedViewTexts.unsetDefaultLabel(row.original.name),
                savedViewTexts.unsetDefault,
              )
            : actionForm(
                "default",
                row.original,
                savedViewTexts.defaultLabel(row.original.name),
                savedViewTexts.makeDefault,
              )}
        {actionForm("delete", row.original, savedViewTexts.removeLabel(row.original.name), savedViewTexts.remove)}
      </div>
    ),
  },
];

export function ViewsScreen() {
  const { rows } = useLoaderData<{ rows: ViewRow[] }>();
  const result = useActionData<{ error?: string }>();
  return (
    <section aria-labelledby="views-title" className="saved-views">
      <h1 id="views-title">{savedViewTexts.title}</h1>
      <p>{savedViewTexts.intro}</p>
      {result?.error ? <Alert tone="error">{result.error}</Alert> : null}
      <DataTable
        columns={COLUMNS}
        rows={rows}
        getRowId={(r) => r.id}
        emptyText={savedViewTexts.empty}
        caption={savedViewTexts.title}
        paging={false}
      />
    </section>
  );
}
