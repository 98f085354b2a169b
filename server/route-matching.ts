import { createRequire } from "node:module";

/**
 * Route matching that remembers its answers. React Router's `matchRoutes` flattens the route
 * table, ranks it and compiles each route's pattern into a regular expression on every call, and a path
 * that matches nothing is tried against every route. A document request calls it once in Remix's own
 * matching and once per parent path of the URL (lazy route discovery's partial manifest, built by
 * `<Scripts>`), each time on a fresh copy of the same route table: a large share of the CPU of a page's
 * framework work.
 *
 * The answer depends only on the table's shape (ids, paths, index and case flags, nesting), the path and
 * the basename. It is kept per shape and path as the matched routes' ids with their params and pathnames,
 * and rebuilt on the route objects of the call, so a caller gets exactly what the library would have
 * returned: the same route objects of its own table, fresh match objects. Tables without unique ids, and
 * locations that are neither a string nor an object with a pathname, go to the library as before.
 *
 * Installed by replacing the `matchRoutes` export of the one `@remix-run/router` the server loads (the
 * callers above read it from the module object at call time). If a release stops calling through the
 * export, matching is simply no longer remembered: results never depend on this module.
 */

export type RouteLike = {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteLike[];
};
type Params = Record<string, string | undefined>;
type Match = { params: Params; pathname: string; pathnameBase: string; route: RouteLike };
type MatchRoutes = (routes: RouteLike[], location: unknown, basename?: string) => Match[] | null;
type Skeleton = Array<{ id: string; params: Params; pathname: string; pathnameBase: string }> | null;
type Table = { answers: Map<string, Skeleton>; byId: Map<string, RouteLike> };

/** Paths remembered per table shape before the memory starts over (URLs carry ids and names). */
export const REMEMBERED_PATHS = 5_000;

/** A matchRoutes that remembers its answers, over `original`. */
export function rememberingMatchRoutes(original: MatchRoutes): MatchRoutes {
  const answersByShape = new Map<string, Map<string, Skeleton>>();
  const tables = new WeakMap<RouteLike[], Table | null>();

  const tableOf = (routes: RouteLike[]): Table | null => {
    let table = tables.get(routes);
    if (table !== undefined) return table;
    const byId = new Map<string, RouteLike>();
    const parts: string[] = [];
    let usable = true;
    const walk = (list: RouteLike[]) => {
      parts.push("[");
      for (const route of list) {
        if (typeof route.id !== "string" || byId.has(route.id)) usable = false;
        else byId.set(route.id, route);
        parts.push(
          `${route.id}\u0001${route.path ?? "\u0002"}\u0001${route.index === true ? 1 : 0}${route.caseSensitive === true ? 1 : 0}\u0001`,
        );
        if (route.children?.length) walk(route.children);
      }
      parts.push("]");
    };
    walk(routes);
    if (usable) {
      const shape = parts.join("");
      let answers = answersByShape.get(shape);
      if (!answers) answersByShape.set(shape, (answers = new Map()));
      table = { answers, byId };
    } else table = null;
    tables.set(routes, table);
    return table;
  };

  return function matchRoutes(routes, location, basename = "/") {
    // Matching reads only a location's pathname (React Router's own rendering passes `{ pathname }`).
    const path = typeof location === "string" ? `s${location}` : hasPathname(location) ? `p${location.pathname}` : null;
    const table = path !== null && Array.isArray(routes) ? tableOf(routes) : null;
    if (!table) return original(routes, location, basename);
    const key = `${basename}\u0000${path}`;
    let skeleton = table.answers.get(key);
    if (skeleton === undefined) {
      const matches = original(routes, location, basename);
      skeleton =
        matches === null
          ? null
          : matches.map((m) => ({
              id: m.route.id as string,
              params: { ...m.params },
              pathname: m.pathname,
              pathnameBase: m.pathnameBase,
            }));
      if (table.answers.size >= REMEMBERED_PATHS) table.answers.clear();
      table.answers.set(key, skeleton);
      return matches;
    }
    return skeleton === null
      ? null
      : skeleton.map((m) => ({
          params: { ...m.params },
          pathname: m.pathname,
          pathnameBase: m.pathnameBase,
          route: table.byId.get(m.id)!,
        }));
  };
}

/** A location object with a pathname: matching reads nothing else of it (search and hash play no part). */
function hasPathname(location: unknown): location is { pathname: string } {
  if (typeof location !== "object" || location === null) return false;
  const { pathname } = location as { pathname?: unknown };
  return typeof pathname === "string";
}

let installed = false;

/** Replaces the `matchRoutes` of the `@remix-run/router` that Remix's server code loads (once). */
export function installRouteMatchingMemory(): void {
  if (installed) return;
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes };
  router.matchRoutes = rememberingMatchRoutes(router.matchRoutes);
  installed = true;
}
