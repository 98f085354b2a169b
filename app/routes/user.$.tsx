import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";

/**
 * Any other address under /user: the access table answers first (redirect when signed out, 403 when the
 * type may not open the path), then 404 for an allowed path that has no screen.
 */
async function guardThenNotFound(request: Request): Promise<never> {
  await requireAccess(request);
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export const loader = ({ request }: LoaderFunctionArgs) => guardThenNotFound(request);
export const action = ({ request }: ActionFunctionArgs) => guardThenNotFound(request);

// A component, so the error renders inside the page shell instead of as a bare resource response.
export default function NotFoundUnder() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
