// Screen: Layout of /user/*.
import { guardedLayoutLoader } from "~/platform/auth/prefix-guard.server";

// Layout of /user/*: a session; each child route checks its own rule (app/access.ts).
export const loader = guardedLayoutLoader("routes/user");
export { GuardedLayout as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
