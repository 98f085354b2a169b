import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { z } from "zod";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Highlighted } from "~/components/explorer/highlighted";
import "~/components/explorer/explorer.css";
import { DataTable } from "~/components/ui/data-table";
import { formatDayMonthYear } from "~/domain/dates";
import { parsePaging } from "~/domain/pagination";
import { parseSearch, SEARCH_MAX_LENGTH, type SearchQuery } from "~/domain/search";
import { messages } from "~/messages";
import { EXPLORER_PAGE_SIZES, searchExplorer } from "~/models/explorer.server";
import { NAV_LABELS } from "~/access";

export const meta: MetaFunction = () => [{ title: NAV_LABELS.explorer }];

/**
 * The explorer's URL state (spec 001 §3: search, exactPh, page, pageSize): a bookmark or the browser's
 * back/forward gives the same search. Anything malformed falls back to no search, page 1 and 20.
 */
const searchSchema = z.object({
  search: z.string().max(2_000).catch(""),
  exactPh: z.enum(["1"]).optional().catch(undefined),
});

/** /ij/explorer: search the company's documents, words or an exact phrase, 20 or 40 results a page. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const url = new URL(request.url);
  const params = searchSchema.parse({ search: url.searchParams.get("search") ?? undefined, exactPh: url.searchParams.get("exactPh") ?? undefined });
  const paging = parsePaging(url, EXPLORER_PAGE_SIZES);
  const search = params.search.slice(0, SEARCH_MAX_LENGTH);
  const exact = params.exactPh === "1";
  const query = parseSearch(search, exact);
  const pageSizes = [...EXPLORER_PAGE_SIZES];
  if (!query) return { search, exact, query: null, results: null, pageSizes };
  const found = await searchExplorer(query, paging);
  return {
    search,
    exact,
    query,
    pageSizes,
    results: {
      rows: found.items.map((hit) => ({ ...hit, date: formatDayMonthYear(hit.date) })),
      total: found.total,
      page: found.page,
      pageSize: found.pageSize,
    },
  };
}

type Row = { id: string; title: string; body: string; source: string; category: string; date: string };

function resultColumns(query: SearchQuery | null): ColumnDef<Row, unknown>[] {
  return [
    {
      id: "document",
      header: messages.searchColumnDocument,
      cell: ({ row }) => (
        <div className="explorer-hit">
          <p className="explorer-hit__title">
            <Highlighted text={row.original.title} query={query} />
          </p>
          <p className="explorer-hit__body">
            <Highlighted text={row.original.body} query={query} />
          </p>
        </div>
      ),
    },
    { id: "category", header: messages.searchColumnCategory, cell: ({ row }) => row.original.category },
    { id: "source", header: messages.searchColumnSource, cell: ({ row }) => row.original.source },
    { id: "date", header: messages.searchColumnDate, cell: ({ row }) => <span className="explorer-date">{row.original.date}</span> },
  ];
}

export default function ExplorerPage() {
  const { search, exact, query, results, pageSizes } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/ij/explorer";
  const columns = useMemo(() => resultColumns(query), [query]);

  return (
    <section className="explorer" aria-busy={searching}>
      <h1>{NAV_LABELS.explorer}</h1>
      {/* A GET form: the search lives in the URL; Enter in the box submits it, with or without JavaScript. */}
      <Form method="get" className="explorer-form" role="search" key={`${search}\u0000${exact}`}>
        <div className="field explorer-form__box">
          <label htmlFor="explorer-search">{messages.searchLabel}</label>
          <input
            id="explorer-search"
            name="search"
            type="search"
            defaultValue={search}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={messages.searchPlaceholder}
            autoComplete="off"
          />
        </div>
        <label className="explorer-form__exact">
          <input type="checkbox" name="exactPh" value="1" defaultChecked={exact} />
          {messages.exactPhrase}
        </label>
        {results ? <input type="hidden" name="pageSize" value={results.pageSize} /> : null}
        <button type="submit" className="button button--primary" disabled={searching}>
          {messages.searchButton}
        </button>
      </Form>

      {!results ? (
        <p className="explorer__hint">{messages.searchHint}</p>
      ) : (
        <>
          <p className="explorer__count" aria-live="polite">
            {results.total > 0 ? messages.searchResultCount(results.total) : null}
          </p>
          <DataTable
            columns={columns}
            rows={results.rows}
            getRowId={(row) => row.id}
            rowCount={results.total}
            page={results.page}
            pageSize={results.pageSize}
            pageSizeOptions={pageSizes}
            emptyText={messages.noSearchResults}
            caption={messages.searchResultsCaption}
          />
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
