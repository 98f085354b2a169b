// Screen: Not found: any address no other route matches (404 page).
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

/**
 * Any address no other route matches. Its loader answers 404, so the root loader runs as for every page and the
 * 404 page is the portal's own: inside the layout, with the tenant's brand, theme and (signed in) menus, and no
 * hydration mismatch (spec 000 error pages).
 */
export async function loader(): Promise<never> {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
