// Screen: Not found under /ij.
import { guardedNotFound } from "~/platform/auth/prefix-guard.server";

// Any other address under /ij: a session (its own rule), then 404.
export const loader = guardedNotFound("routes/ij.$");
export const action = loader;
export { NotFoundUnder as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
