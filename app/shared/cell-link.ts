/**
 * A grid opened at one of its cells, as a link names it: `?celula=<account>:<YYYY-MM>` (the row's key and the month),
 * `&historico=1` to show the cell's history too, and the fragment `#celula`, the id the grid gives that cell (so the
 * browser scrolls to it even without JavaScript). Written by the audit trail's links and a thread's "Voltar", read by
 * the grid's loader. Pure: the server and the browser build and read the same addresses.
 */

export const CELL_PARAM = "celula";
export const CELL_HISTORY_PARAM = "historico";
/** The id of the cell a link opens the grid at (one per page). */
export const CELL_FRAGMENT = "celula";

/** The longest row key a link carries (a forecast account, as the save takes it). */
const KEY_MAX = 300;
const MONTH_KEY = /^\d{4}-(0[1-9]|1[0-2])$/;

export type LinkedCell = { key: string; month: string; history: boolean };

/** The grid at `base` (a path without a query) opened at a row's month, with its history shown when asked. */
export function cellHref(base: string, key: string, month: string, options: { history?: boolean } = {}): string {
  const params = new URLSearchParams({ [CELL_PARAM]: `${key}:${month}` });
  if (options.history) params.set(CELL_HISTORY_PARAM, "1");
  return `${base}?${params.toString().replace(/\+/g, "%20")}#${CELL_FRAGMENT}`;
}

/**
 * The cell a grid's URL names, or null when it names none or a malformed one. The month is what follows the last ":"
 * (a key may hold ":" itself); nothing else of the URL is read.
 */
export function linkedCell(params: URLSearchParams): LinkedCell | null {
  const value = params.get(CELL_PARAM);
  if (value === null || value.length > KEY_MAX + 8) return null;
  const at = value.lastIndexOf(":");
  if (at <= 0) return null;
  const key = value.slice(0, at);
  const month = value.slice(at + 1);
  if (key.length > KEY_MAX || key.trim() !== key || !MONTH_KEY.test(month)) return null;
  return { key, month, history: params.get(CELL_HISTORY_PARAM) === "1" };
}
