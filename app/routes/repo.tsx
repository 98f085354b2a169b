// Screen: Layout of /repo/*.
import { guardedLayoutLoader } from "~/platform/auth/prefix-guard.server";

// Layout of /repo/*: a session; each child route checks its own rule (app/access.ts).
export const loader = guardedLayoutLoader("routes/repo");
export { GuardedLayout as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
