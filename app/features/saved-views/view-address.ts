import { type ViewScreen, viewScreenAt } from "./screens";
import { savedViewTexts } from "./texts";

/**
 * The address a view keeps, read from what "Salvar visão" posts: a portal path of a screen that keeps views (its
 * segments checked, screens.ts), and of its query only the screen's own parameters, each pair exactly as the address
 * holds it (same order, same escapes); the others (a notice's one-time answer, a dialog, a job followed) are left out.
 * A value beyond its parameter's bound refuses the save. Never another origin: what is kept is a path and a query.
 */

/** The whole text posted, and its query. */
const TEXT_MAX = 2_300;
export const QUERY_MAX = 2_000;
const BASE = "http://portal.invalid";

export type ViewAddress = { screen: string; query: string };
/** `back`: the screen's address to answer on (null: not a screen that keeps views). */
export type AddressCheck = { ok: true; address: ViewAddress } | { ok: false; error: string; back: string | null };

/** A query string's name or value as a form encodes it ("+" a space), or null when its escapes are not UTF-8. */
function formDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** The screen's own pairs of `search`, as written; or the name of the first parameter whose value is refused. */
function keptQuery(search: string, screen: ViewScreen): { query: string } | { refused: string } {
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const pair of search.slice(1).split("&")) {
    const at = pair.indexOf("=");
    const name = formDecoded(at < 0 ? pair : pair.slice(0, at));
    if (name === null || !Object.hasOwn(screen.params, name)) continue;
    const rule = screen.params[name];
    const value = formDecoded(at < 0 ? "" : pair.slice(at + 1));
    if (value === null || (value !== "" && !rule.value.test(value)) || (seen.has(name) && !rule.many))
      return { refused: name };
    seen.add(name);
    kept.push(pair);
  }
  return { query: kept.length > 0 ? `?${kept.join("&")}` : "" };
}

export function checkViewAddress(text: unknown): AddressCheck {
  const refused = { ok: false as const, error: savedViewTexts.errors.screen, back: null };
  if (typeof text !== "string" || text.length > TEXT_MAX || !text.startsWith("/") || text.startsWith("//"))
    return refused;
  let url: URL;
  try {
    url = new URL(text, BASE);
  } catch {
    return refused;
  }
  const at = url.origin === BASE ? viewScreenAt(url.pathname) : null;
  if (!at) return refused;
  const back = `${url.pathname}${url.search.length <= QUERY_MAX ? url.search : ""}`;
  if (url.search.length > QUERY_MAX) return { ok: false, error: savedViewTexts.errors.queryLong, back };
  const kept = keptQuery(url.search, at.screen);
  if ("refused" in kept) return { ok: false, error: savedViewTexts.errors.param(kept.refused), back };
  return { ok: true, address: { screen: url.pathname, query: kept.query } };
}

/** A portal address of a screen that keeps views, split into its path and kept query; null for anything else. */
export function viewAddressOf(text: unknown): ViewAddress | null {
  const check = checkViewAddress(text);
  return check.ok ? check.address : null;
}
