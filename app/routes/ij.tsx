import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";

/**
 * Layout and guard of /ij/*: every document request below it passes the access table for its own path
 * (a redirect to / when signed out, 403 when the type or the feature flag does not allow it). The child
 * routes guard their loaders and actions too, because client navigations fetch only the routes that change.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  return null;
}

export default function GuardedLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
