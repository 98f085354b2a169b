// Screen: Not found under /user.
import { guardedNotFound } from "~/platform/auth/prefix-guard.server";

// Any other address under /user: a session (its own rule), then 404.
export const loader = guardedNotFound("routes/user.$");
export const action = loader;
export { NotFoundUnder as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
