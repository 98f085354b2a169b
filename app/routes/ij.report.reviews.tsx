// Screen: Product reviews: /ij/report/reviews.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { ChartCard } from "~/features/dashboards/chart-card";
import { messages, reportsTexts as t } from "~/messages";
import { gradeDistribution, listReviewsPage } from "~/models/reports-reviews.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { formatDate } from "~/shared/dates";
import { pageNumber } from "~/shared/pagination";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { useHydrated } from "~/shared/ui/use-hydrated";

export const meta: MetaFunction = () => [{ title: t.reviewsTitle }];

const GRADES = ["1", "2", "3", "4", "5"] as const;
const paramsSchema = z.object({ nota: z.enum(GRADES).nullable().catch(null), page: pageNumber });

/**
 * /ij/report/reviews — the review/score rows of spec 001 §3 (docs/decisions.md: shown under Relatorios): the
 * distribution of the grades 1–5 as a bar chart (Recharts, loaded in the browser only) and the reviews, 20 a
 * page, newest first, filtered by grade in the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.report.reviews", request);
  const url = new URL(request.url);
  const params = paramsSchema.parse({
    nota: url.searchParams.get("nota"),
    page: url.searchParams.get("page") ?? undefined,
  });
  const [list, distribution] = await Promise.all([
    listReviewsPage(params.nota ? Number(params.nota) : null, params.page),
    gradeDistribution(),
  ]);
  return {
    nota: params.nota ?? "",
    distribution: distribution.map((d) => ({ label: t.gradeLabel(d.nota), value: d.count })),
    list: {
      total: list.total,
      page: list.page,
      pageSize: list.pageSize,
      rows: list.rows.map((r) => ({
        id: String(r._id),
        score: r.score,
        product: `${r.id_produto} - ${r.nome_produto}`,
        nota: r.nota,
        recommends: r.recomenda_produto ? t.yes : t.no,
        sentiment: r.sentiment,
        comment: r.comentario,
        date: formatDate(r.date),
      })),
    },
  };
}

type Row = Awaited<ReturnType<typeof loader>>["list"]["rows"][number];

export default function ReviewsPage() {
  const { nota, distribution, list } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const columns = useMemo<ColumnDef<Row, unknown>[]>(
    () => [
      { id: "date", header: t.columnDateRef, cell: ({ row }) => row.original.date },
      { id: "product", header: t.columnProduct, cell: ({ row }) => row.original.product },
      { id: "nota", header: t.columnGrade, cell: ({ row }) => row.original.nota },
      { id: "score", header: t.columnScore, cell: ({ row }) => row.original.score.toFixed(3).replace(".", ",") },
      { id: "recommends", header: t.columnRecommends, cell: ({ row }) => row.original.recommends },
      { id: "sentiment", header: t.columnSentiment, cell: ({ row }) => row.original.sentiment },
      { id: "comment", header: t.columnComment, cell: ({ row }) => row.original.comment },
    ],
    [],
  );
  return (
    <section className="report-page">
      <h1>{t.reviewsTitle}</h1>
      <div className="reviews-chart">
        <ChartCard
          chart={{
            id: "review-grades",
            title: t.reviewsChart,
            kind: "bar",
            rows: distribution,
            labels: { value: t.reviewsCaption },
          }}
        />
      </div>
      <Form method="get" className="report-filters">
        <div className="field">
          <label htmlFor="reviews-grade">{t.reviewsGradeFilter}</label>
          <select
            id="reviews-grade"
            name="nota"
            defaultValue={nota}
            key={nota}
            onChange={hydrated ? (e) => e.currentTarget.form?.requestSubmit() : undefined}
          >
            <option value="">{t.all}</option>
            {GRADES.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </div>
        {hydrated ? null : (
          <button type="submit" className="button button--secondary">
            {t.filter}
          </button>
        )}
      </Form>
      <DataTable
        columns={columns}
        rows={list.rows}
        getRowId={(r) => r.id}
        rowCount={list.total}
        page={list.page}
        pageSize={list.pageSize}
        emptyText={messages.noDataFound}
        caption={t.reviewsCaption}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
