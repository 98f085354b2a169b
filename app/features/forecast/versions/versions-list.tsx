import { Form, Link } from "@remix-run/react";
import { formatPtBr2 } from "~/shared/numbers";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { REASON_MAX, VERSIONS_PAGE_SIZE, type VersionListRow } from "./limits";
import { versionTexts as t } from "./texts";

/** The versions' list: name, RF, kind, when, by whom, total; open, compare, export and (SYSTEM ADMIN) delete. */

function DeleteForm({ row }: { row: VersionListRow }) {
  return (
    <details className="versions__delete">
      <summary>{t.delete}</summary>
      <Form method="post" aria-label={t.deleteOf(row.name)}>
        <input type="hidden" name="intent" value="excluir" />
        <input type="hidden" name="id" value={row.id} />
        <label>
          {t.reason}
          <textarea name="motivo" required maxLength={REASON_MAX} rows={2} />
        </label>
        <button type="submit" className="button button--danger">
          {t.confirmDelete}
        </button>
      </Form>
    </details>
  );
}

function columnsOf(canDelete: boolean, scoped: boolean): ColumnDef<VersionListRow, unknown>[] {
  return [
    { id: "name", header: t.name, accessorFn: (r) => r.name },
    { id: "rf", header: t.rf, accessorFn: (r) => r.rf },
    { id: "kind", header: t.kind, accessorFn: (r) => r.kind },
    { id: "when", header: t.when, accessorFn: (r) => r.when },
    { id: "by", header: t.by, accessorFn: (r) => r.by },
    {
      id: "total",
      header: scoped ? t.totalScoped : t.total,
      cell: ({ row }) => <span className="versions__num">{formatPtBr2(row.original.total)}</span>,
    },
    {
      id: "actions",
      header: t.actions,
      cell: ({ row }) => (
        <div className="versions__actions">
          <Link to={row.original.openHref}>{t.open}</Link>
          <Link to={row.original.compareHref}>{t.compare}</Link>
          <a href={row.original.exportHref} download>
            {t.export}
          </a>
          {canDelete ? <DeleteForm row={row.original} /> : null}
        </div>
      ),
    },
  ];
}

export function VersionsList({
  rows,
  total,
  page,
  canDelete,
  scoped,
}: {
  rows: VersionListRow[];
  total: number;
  page: number;
  canDelete: boolean;
  scoped: boolean;
}) {
  return (
    <DataTable
      columns={columnsOf(canDelete, scoped)}
      rows={rows}
      getRowId={(r) => r.id}
      rowCount={total}
      page={page}
      pageSize={VERSIONS_PAGE_SIZE}
      emptyText={t.empty}
      caption={t.title}
    />
  );
}
