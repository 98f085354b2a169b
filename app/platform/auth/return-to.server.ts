import type { ServerBuild } from "@remix-run/node";
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";
import { type AccessContext, canAccessRoute, isRouteId, type PermissionType, routeRule } from "~/access";
import { hasControlCharacter } from "~/shared/control-characters";
import { RETURN_TO_MAX, RETURN_TO_PARAM } from "./return-to-param";

/**
 * The page a signed-out visitor asked for, carried through the sign-in (spec 000 §2 "Session expiry").
 *
 * A guard that sends a visitor to sign in puts the page's address in `?redirectTo=` (pageAddressOf). After
 * sign-in the portal goes back there only when the address is a path of this origin, the ROUTER's own matching
 * (the built route manifest, matched by Remix's matcher: case-insensitive, decoded) finds a page for it, and the
 * user's type may open every route of that match (canAccessRoute, the rules the guards apply); else the type's
 * landing. Nothing is decided from the path's text, so `//host`, `/\host`, `https://…`, a resource route
 * (downloads, JSON) or a page the type may not open never becomes a redirect.
 */

/** Transport parameters of Remix data requests, never part of the page's own address. */
const TRANSPORT_PARAMS = ["_routes", "_data", "index"];
const BASE = "http://portal.invalid";

export type RouteManifest = ServerBuild["routes"];

/** A path on this origin: one leading slash, no scheme, host or backslash trick, no control characters. */
export function isLocalPath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\") || hasControlCharacter(path, true))
    return false;
  try {
    return new URL(path, BASE).origin === BASE;
  } catch {
    return false;
  }
}

/**
 * The address of the page a GET request was for (a document or its `.data` request), without the transport
 * parameters; null for other methods (a form post's page is its referrer's, which no route matched for us).
 */
export function pageAddressOf(request: Request): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const url = new URL(request.url);
  let pathname = url.pathname;
  if (pathname.endsWith(".data")) pathname = pathname === "/_root.data" ? "/" : pathname.slice(0, -".data".length);
  for (const name of TRANSPORT_PARAMS) url.searchParams.delete(name);
  const search = url.searchParams.toString();
  const address = `${pathname}${search ? `?${search}` : ""}`;
  return address !== "/" && address.length <= RETURN_TO_MAX && isLocalPath(address) ? address : null;
}

/** `/?expired=1…` (the session-expired modal; `null`: the plain sign-in page) with the page to return to, when there is one. */
export function signInPath(expiredParam: string | null, returnTo: string | null): string {
  const params = new URLSearchParams(expiredParam ? { [expiredParam]: "1" } : {});
  if (returnTo) params.set(RETURN_TO_PARAM, returnTo);
  const query = params.toString();
  return query ? `/?${query}` : "/";
}

type Tree = AgnosticRouteObject & { id: string };

/** The manifest as the router's route objects (what @remix-run/server-runtime builds from the same manifest). */
export function routeTree(routes: RouteManifest): Tree[] {
  const byParent = new Map<string | undefined, RouteManifest[string][]>();
  for (const route of Object.values(routes)) {
    const list = byParent.get(route.parentId) ?? [];
    list.push(route);
    byParent.set(route.parentId, list);
  }
  const build = (parentId: string | undefined): Tree[] =>
    (byParent.get(parentId) ?? []).map((r) => {
      const base = { id: r.id, path: r.path, caseSensitive: r.caseSensitive };
      return (r.index ? { ...base, index: true } : { ...base, children: build(r.id) }) as Tree;
    });
  return build(undefined);
}

/**
 * Where a user of `type` goes back to after sign-in: `path` when it is a page of this portal the type may open,
 * else null (the caller then uses the type's landing). The login page itself and public pages are no return.
 */
export function returnPathFor(
  path: unknown,
  type: PermissionType | "" | null | undefined,
  routes: RouteManifest | null,
  context: AccessContext,
): string | null {
  if (!routes || typeof path !== "string" || path.length > RETURN_TO_MAX || !isLocalPath(path)) return null;
  const url = new URL(path, BASE);
  const matches = matchRoutes(routeTree(routes), url.pathname);
  if (!matches) return null;
  const ids = matches.map((m) => (m.route as Tree).id);
  const leaf = ids[ids.length - 1];
  // A resource route (a download, JSON) is no page to land on.
  if (!routes[leaf]?.module?.default) return null;
  if (!isRouteId(leaf) || routeRule(leaf).kind === "public") return null;
  if (!ids.every((id) => isRouteId(id) && canAccessRoute(type, id, context))) return null;
  return `${url.pathname}${url.search}`;
}

let manifest: Promise<RouteManifest | null> | undefined;

/**
 * The route manifest of the running build (the module the host serves), read once. Null where there is no
 * build (unit tests import the route modules directly): no return then, the landing as before.
 */
export function runningRouteManifest(): Promise<RouteManifest | null> {
  manifest ??= import("virtual:remix/server-build").then(
    (build) => build.routes,
    () => null,
  );
  return manifest;
}
