import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { RouteId } from "~/access";
import { requireRouteAccess } from "./auth.server";

/**
 * The layout routes of /ij, /captura, /repo, /user and /jobs, and their not-found splats. The layout needs a
 * session (its own rule); each child route guards its own loader and action with its own rule, because client
 * navigations and `.data` requests run only the loaders they need.
 */
export function guardedLayoutLoader(routeId: RouteId) {
  return async ({ request }: LoaderFunctionArgs) => {
    await requireRouteAccess(routeId, request);
    return null;
  };
}

/** A splat under a protected prefix: its own rule first (sign-in), then 404 for every method. */
export function guardedNotFound(routeId: RouteId) {
  return async ({ request }: LoaderFunctionArgs | ActionFunctionArgs): Promise<never> => {
    await requireRouteAccess(routeId, request);
    throw new Response("Not Found", { status: 404, statusText: "Not Found" });
  };
}
