// Screen: Explorer search: /ij/explorer (search, exact phrase, facets, results).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { FacetsNav } from "~/features/explorer/facets";
import { Highlighted } from "~/features/explorer/highlighted";
import { documentHref } from "~/features/explorer/urls";
import { NAV_LABELS } from "~/navigation-labels";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/explorer/explorer.css";
import { explorerTexts, messages } from "~/messages";
import { EXPLORER_PAGE_SIZES, searchExplorer } from "~/models/explorer.server";
import {
  parseFacetFilters,
  parseSearch,
  SEARCH_MAX_LENGTH,
  SEARCH_MAX_WORDS,
  type Segment,
} from "~/models/explorer-search";
import { formatDate } from "~/shared/dates";
import { parsePaging } from "~/shared/pagination";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";

export const meta: MetaFunction = () => [{ title: NAV_LABELS.explorer }];

/** `exactPh=1` asks for the exact phrase (spec 001 §3); anything else is a word search. */
const exactSchema = z.enum(["1"]).optional().catch(undefined);

/**
 * /ij/explorer: search the company's documents — every word (Portuguese stems, plural and singular, the last word
 * also as the start of a longer one) or an exact phrase — most relevant first, 20 or 40 a page, narrowed by
 * source, category and year. The URL holds the search (spec 001 §3: search, exactPh, page, pageSize; the facets:
 * source, category, year), so back/forward and bookmarks repeat it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.explorer", request);
  const url = new URL(request.url);
  const raw = url.searchParams.get("search") ?? "";
  const exact = exactSchema.parse(url.searchParams.get("exactPh") ?? undefined) === "1";
  const paging = parsePaging(url, EXPLORER_PAGE_SIZES);
  const filters = parseFacetFilters(url.searchParams);
  // The box shows at most what was searched; a longer text (a pasted page, a forged link) is cut, and said so.
  const search = raw.slice(0, SEARCH_MAX_LENGTH);
  const query = parseSearch(raw, exact);
  const pageSizes = [...EXPLORER_PAGE_SIZES];
  if (!query) return { search, exact, filters, pageSizes, results: null, notices: [] as string[] };
  const found = await searchExplorer(query, { ...paging, filters });
  const notices: string[] = [];
  if (query.dropped.cut) notices.push(explorerTexts.textCut(SEARCH_MAX_LENGTH));
  if (query.dropped.words.length > 0) notices.push(explorerTexts.wordsDropped(SEARCH_MAX_WORDS, query.dropped.words));
  if (found.ignored.length > 0) notices.push(explorerTexts.commonWordsIgnored(found.ignored));
  return {
    search,
    exact,
    filters,
    pageSizes,
    notices,
    results: {
      rows: found.items.map((hit) => ({ ...hit, date: formatDate(hit.date) })),
      total: found.total,
      page: found.page,
      pageSize: found.pageSize,
      facets: found.facets,
    },
  };
}

type Row = { id: string; title: Segment[]; snippet: Segment[]; source: string; category: string; date: string };

function resultColumns(search: string): ColumnDef<Row, unknown>[] {
  return [
    {
      id: "document",
      header: messages.searchColumnDocument,
      cell: ({ row }) => (
        <div className="explorer-hit">
          <p className="explorer-hit__title">
            <Link to={documentHref(row.original.id, search)} className="explorer-hit__link">
              <Highlighted segments={row.original.title} />
            </Link>
          </p>
          <p className="explorer-hit__body">
            <Highlighted segments={row.original.snippet} />
          </p>
        </div>
      ),
    },
    { id: "category", header: messages.searchColumnCategory, cell: ({ row }) => row.original.category },
    { id: "source", header: messages.searchColumnSource, cell: ({ row }) => row.original.source },
    {
      id: "date",
      header: messages.searchColumnDate,
      cell: ({ row }) => <span className="explorer-date">{row.original.date}</span>,
    },
  ];
}

export default function ExplorerPage() {
  const { search, exact, filters, results, pageSizes, notices } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/ij/explorer";
  const columns = useMemo(() => resultColumns(location.search), [location.search]);

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
            // biome-ignore lint/a11y/noAutofocus: a page for searching: the box has the focus on arrival
            autoFocus
          />
        </div>
        <label className="explorer-form__exact">
          <input type="checkbox" name="exactPh" value="1" defaultChecked={exact} />
          {messages.exactPhrase}
        </label>
        {/* A new search keeps the chosen facets and page size, and starts on page 1. */}
        {Object.entries(filters).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {results ? <input type="hidden" name="pageSize" value={results.pageSize} /> : null}
        <button type="submit" className="button button--primary" disabled={searching}>
          {messages.searchButton}
        </button>
      </Form>

      {notices.length > 0 ? (
        <Alert tone="warning">
          {notices.map((notice) => (
            <p key={notice} className="explorer__notice">
              {notice}
            </p>
          ))}
        </Alert>
      ) : null}

      {!results ? (
        <p className="explorer__hint">{messages.searchHint}</p>
      ) : (
        <div className="explorer__layout">
          <FacetsNav facets={results.facets} filters={filters} />
          <div className="explorer__results">
            <p className="explorer__count" aria-live="polite">
              {results.total > 0 ? `${messages.searchResultCount(results.total)} · ${explorerTexts.rankedNote}` : null}
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
          </div>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
