/** The addresses of the preparers' screen and template, and the URL state the screen keeps (browser-safe). */

export const PREPARERS_PATH = "/ij/forecast_preparers";
export const PREPARERS_TEMPLATE_PATH = "/ij/forecast_preparers/modelo";
export const PREPARERS_PAGE_SIZE = 20;

/** The list's state in the URL: the cost-centre text, "sem responsável" and the page. */
export type ListState = { q: string; without: boolean; page: number };

/** The list's parameters (only those set), for links and redirects that keep the list where it was. */
export function listParams(state: Partial<ListState>): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.without) params.set("sem", "1");
  if (state.page && state.page > 1) params.set("page", String(state.page));
  return params;
}

/** The screen with the list's state and `extra` parameters. */
export function preparersHref(state: Partial<ListState>, extra: Record<string, string | number> = {}): string {
  const params = listParams(state);
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  const query = params.toString();
  return query ? `${PREPARERS_PATH}?${query}` : PREPARERS_PATH;
}
