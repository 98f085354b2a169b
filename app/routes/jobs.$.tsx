// Screen: Not found under /jobs.
import { guardedNotFound } from "~/platform/auth/prefix-guard.server";

// Any other address under /jobs: a session (its own rule), then 404.
export const loader = guardedNotFound("routes/jobs.$");
export const action = loader;
export { NotFoundUnder as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
