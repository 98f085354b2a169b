import type { EntryContext } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

/**
 * The entry context a document renders with, its route manifest cut to the routes that render can reach.
 *
 * For every document, Remix's `<RemixServer>` builds a route object of every route of the build, hands the whole
 * table to React Router, which copies it into data routes and matches it again while rendering; measured behind the
 * portal's table, that is most of what an empty document costs above a two-route one (docs/performance.md). Yet the
 * render reads the manifest only for the routes it renders (the matched ones) and for what it tells the browser with
 * lazy route discovery: the matched routes and those matching each parent path of the URL (`getPartialManifest`, so
 * that index and pathless children of the parents need no discovery). Those are exactly the routes kept here, so the
 * page, its links, scripts and the manifest the browser receives are what the whole table gives.
 *
 * The cut manifest is remembered per build and per (pathname, matched routes), REMEMBERED_CUTS of them before the
 * memory starts over. Everything else in the context is the same object (the render writes into the static handler's
 * context and the render meta, which Remix reads afterwards).
 */

type AssetsManifest = EntryContext["manifest"];
type RouteNode = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteNode[] };
type Build = { tree: RouteNode[]; cuts: Map<string, AssetsManifest> };

export const REMEMBERED_CUTS = 5_000;

const builds = new WeakMap<AssetsManifest, Build>();

function buildOf(manifest: AssetsManifest): Build {
  let known = builds.get(manifest);
  if (known) return known;
  const children = new Map<string, RouteNode[]>();
  for (const route of Object.values(manifest.routes)) {
    const parent = route.parentId ?? "";
    const list = children.get(parent) ?? [];
    list.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive });
    children.set(parent, list);
  }
  const attach = (nodes: RouteNode[]): RouteNode[] =>
    nodes.map((node) => {
      const below = children.get(node.id);
      return below ? { ...node, children: attach(below) } : node;
    });
  known = { tree: attach(children.get("") ?? []), cuts: new Map() };
  builds.set(manifest, known);
  return known;
}

/** The routes the render of `pathname` reads: the matched ones and those of each parent path (getPartialManifest). */
function reachedRoutes(tree: RouteNode[], pathname: string, matched: readonly string[], basename: string): Set<string> {
  const ids = new Set(matched);
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  const table = tree as Parameters<typeof matchRoutes>[0];
  for (const path of paths)
    for (const match of matchRoutes(table, path, basename) ?? []) ids.add(String(match.route.id));
  return ids;
}

/** `context` with its manifest cut to the routes its render reaches (the same context when a route is unknown). */
export function renderContext(context: EntryContext): EntryContext {
  const { manifest, staticHandlerContext } = context;
  const build = buildOf(manifest);
  const matched = staticHandlerContext.matches.map((m) => m.route.id);
  const pathname = staticHandlerContext.location.pathname;
  const key = `${pathname}\u0000${matched.join("\u0001")}`;
  let cut = build.cuts.get(key);
  if (!cut) {
    const routes: AssetsManifest["routes"] = {};
    for (const id of reachedRoutes(build.tree, pathname, matched, staticHandlerContext.basename || "/")) {
      const route = manifest.routes[id];
      if (!route) return context;
      routes[id] = route;
    }
    cut = { ...manifest, routes };
    if (build.cuts.size >= REMEMBERED_CUTS) build.cuts.clear();
    build.cuts.set(key, cut);
  }
  return { ...context, manifest: cut };
}
