import { Form, Link } from "@remix-run/react";
import { formatPtBr2 } from "~/shared/numbers";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { APPROVALS_PAGE_PARAM, REASON_MAX, VERSIONS_PAGE_SIZE, type VersionListRow } from "./limits";
import { versionTexts as t } from "./texts";

/**
 * The versions' list: name, RF, kind, when, by whom, total; open, compare, export and (SYSTEM ADMIN) delete; an
 * approval's cost centre, and its review compared with it.
 */

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

function actionsOf(canDelete: boolean): ColumnDef<VersionListRow, unknown> {
  return {
    id: "actions",
    header: t.actions,
    cell: ({ row }) => (
      <div className="versions__actions">
        <Link to={row.original.openHref}>{t.open}</Link>
        <Link to={row.original.compareHref}>{t.compare}</Link>
        {row.original.reviewHref ? <Link to={row.original.reviewHref}>{t.compareInReview}</Link> : null}
        <a href={row.original.exportHref} download>
          {t.export}
        </a>
        {canDelete ? <DeleteForm row={row.original} /> : null}
      </div>
    ),
  };
}

function columnsOf(canDelete: boolean, scoped: boolean, approvals: boolean): ColumnDef<VersionListRow, unknown>[] {
  return [
    ...(approvals
      ? [{ id: "cc", header: t.costCenter, accessorFn: (r: VersionListRow) => r.costCenter, meta: { rowHeader: true } }]
      : []),
    {
      id: "name",
      header: t.name,
      cell: ({ row }) => <span className="versions__wrap">{row.original.name}</span>,
      meta: { rowHeader: !approvals },
    },
    { id: "rf", header: t.rf, accessorFn: (r) => r.rf },
    ...(approvals ? [] : [{ id: "kind", header: t.kind, accessorFn: (r: VersionListRow) => r.kind }]),
    { id: "when", header: t.when, accessorFn: (r) => r.when },
    { id: "by", header: t.by, cell: ({ row }) => <span className="versions__wrap">{row.original.by}</span> },
    {
      id: "total",
      header: scoped ? t.totalScoped : t.total,
      cell: ({ row }) => <span className="versions__num">{formatPtBr2(row.original.total)}</span>,
    },
    actionsOf(canDelete),
  ];
}

export type VersionSectionPage = { rows: VersionListRow[]; total: number; page: number };

/**
 * The list in two sections, each paged on the server: the versions people saved and the closings, newest first; then
 * the approvals, under their cost centre (the first row of each cost centre on a page starts its group).
 */
export function VersionsList({
  company,
  approvals,
  canDelete,
  scoped,
}: {
  company: VersionSectionPage;
  approvals: VersionSectionPage;
  canDelete: boolean;
  scoped: boolean;
}) {
  const groupStarts = new Set(
    approvals.rows.filter((r, i) => i === 0 || approvals.rows[i - 1].costCenter !== r.costCenter).map((r) => r.id),
  );
  return (
    <>
      <section>
        <h2>{t.companyTitle}</h2>
        <p>{t.companyHint}</p>
        <DataTable
          columns={columnsOf(canDelete, scoped, false)}
          rows={company.rows}
          getRowId={(r) => r.id}
          rowCount={company.total}
          page={company.page}
          pageSize={VERSIONS_PAGE_SIZE}
          emptyText={t.empty}
          caption={t.companyTitle}
        />
      </section>
      <section>
        <h2>{t.approvalsTitle}</h2>
        <p>{t.approvalsHint}</p>
        <DataTable
          columns={columnsOf(canDelete, scoped, true)}
          rows={approvals.rows}
          getRowId={(r) => r.id}
          rowCount={approvals.total}
          page={approvals.page}
          pageSize={VERSIONS_PAGE_SIZE}
          pageParam={APPROVALS_PAGE_PARAM}
          emptyText={t.approvalsEmpty}
          caption={t.approvalsTitle}
          className="versions__approvals"
          rowAttributes={(r) => ({
            className: groupStarts.has(r.id) ? "versions__group-start" : undefined,
            "data-cost-center": r.costCenter ?? undefined,
          })}
        />
      </section>
    </>
  );
}
