// Screen: Changes to review: /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}/alteracoes.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { type ChangeRow, loadChanges } from "~/features/forecast/cycle/changes.server";
import { changesTexts as t } from "~/features/forecast/cycle/changes-texts";
import { resolveReview } from "~/features/forecast/review.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { type ColumnDef, DataTable, type DataTableColumnMeta } from "~/shared/ui/data-table";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/forecast/cycle/cycle.css";

export const meta: MetaFunction = () => [{ title: t.title }];

/**
 * The review's readers see what changed in a cost centre's forecast since what a reviewer last saw or decided (the
 * last return or approval, else the first submission), and which that is (features/forecast/cycle/changes.server.ts);
 * 50 cells a page (`?page=`).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.alteracoes",
    request,
  );
  const lookup = await resolveReview(params, user);
  if (!lookup.ok) throw data(lookup.message, { status: lookup.status });
  return data(await loadChanges(lookup.review, new URL(request.url)), {
    headers: { "Cache-Control": "private, no-store" },
  });
}

/** Amounts and counts line up on the right. */
const NUMBER: DataTableColumnMeta<ChangeRow> = { cellClassName: "changes__number" };

const COLUMNS: ColumnDef<ChangeRow, unknown>[] = [
  { id: "account", header: t.account, cell: ({ row }) => row.original.account },
  { id: "month", header: t.month, cell: ({ row }) => row.original.month },
  { id: "old", header: t.old, cell: ({ row }) => row.original.old, meta: NUMBER },
  { id: "new", header: t.new, cell: ({ row }) => row.original.new, meta: NUMBER },
  { id: "who", header: t.who, cell: ({ row }) => row.original.who },
  { id: "when", header: t.when, cell: ({ row }) => row.original.when },
  { id: "count", header: t.count, cell: ({ row }) => String(row.original.count), meta: NUMBER },
];

export default function ChangesToReviewPage() {
  const page = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="changes-title" className="changes">
      <p>
        <Link to={page.reviewHref}>{t.back}</Link>
      </p>
      <h1 id="changes-title">
        {t.title} · {page.rf} · {page.costCenter}
      </h1>
      <p data-testid="changes-since">{page.since}</p>
      <DataTable
        columns={COLUMNS}
        rows={page.rows}
        getRowId={(row) => `${row.account}\u0000${row.month}`}
        rowCount={page.total}
        page={page.page}
        pageSize={page.pageSize}
        pageSizeOptions={[page.pageSize]}
        emptyText={t.empty}
        caption={t.caption}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
