import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "~/auth.server";

/**
 * The layout routes of /ij, /captura, /repo, /user and /jobs: every document request below them passes the
 * access table for its own path (a redirect to / when signed out, 403 when the type or the feature flag does
 * not allow it). Child routes guard their loaders and actions too, because client navigations fetch only the
 * routes that change.
 */
export async function prefixLayoutLoader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  return null;
}

/**
 * The splat routes under those prefixes: the access table answers first (redirect when signed out, 403 when the
 * type may not open the path), then 404 for an allowed path that has no screen.
 */
async function guardThenNotFound(request: Request): Promise<never> {
  await requireAccess(request);
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export const prefixSplatLoader = ({ request }: LoaderFunctionArgs) => guardThenNotFound(request);
export const prefixSplatAction = ({ request }: ActionFunctionArgs) => guardThenNotFound(request);
