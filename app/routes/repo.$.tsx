// Screen: Not found under /repo.
import { guardedNotFound } from "~/platform/auth/prefix-guard.server";

// Any other address under /repo: a session (its own rule), then 404.
export const loader = guardedNotFound("routes/repo.$");
export const action = loader;
export { NotFoundUnder as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
