// Screen: Not found under /captura.
import { guardedNotFound } from "~/platform/auth/prefix-guard.server";

// Any other address under /captura: a session (its own rule), then 404.
export const loader = guardedNotFound("routes/captura.$");
export const action = loader;
export { NotFoundUnder as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
