import { FACETS, type Facet } from "~/models/explorer-search";

/** The explorer's addresses: the result list and a document, each keeping the search (so "back" returns to the same page). */

export const EXPLORER_PATH = "/ij/explorer";

/** The parameters that describe a result page (anything else in the URL is dropped). */
const RESULT_PARAMS = ["search", "exactPh", ...FACETS, "page", "pageSize"] as const;

export function resultParams(search: string): URLSearchParams {
  const current = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of RESULT_PARAMS) {
    const value = current.get(name);
    if (value !== null && value !== "") kept.set(name, value);
  }
  return kept;
}

const withQuery = (path: string, params: URLSearchParams) => {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

export function documentHref(id: string, search: string): string {
  return withQuery(`${EXPLORER_PATH}/${id}`, resultParams(search));
}

export function resultsHref(search: string): string {
  return withQuery(EXPLORER_PATH, resultParams(search));
}

/** The result list with a facet chosen (or removed: null), back on page 1. */
export function facetHref(search: string, facet: Facet, value: string | null): string {
  const params = resultParams(search);
  if (value === null) params.delete(facet);
  else params.set(facet, value);
  params.delete("page");
  return withQuery(EXPLORER_PATH, params);
}

/** The result list without any facet, back on page 1. */
export function clearFacetsHref(search: string): string {
  const params = resultParams(search);
  for (const facet of FACETS) params.delete(facet);
  params.delete("page");
  return withQuery(EXPLORER_PATH, params);
}
