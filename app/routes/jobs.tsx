// Screen: Layout of /jobs/*.
import { guardedLayoutLoader } from "~/platform/auth/prefix-guard.server";

// Layout of /jobs/*: a session; each child route checks its own rule (app/access.ts).
export const loader = guardedLayoutLoader("routes/jobs");
export { GuardedLayout as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
