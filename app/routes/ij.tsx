// Screen: Layout of /ij/*.
import { guardedLayoutLoader } from "~/platform/auth/prefix-guard.server";

// Layout of /ij/*: a session; each child route checks its own rule (app/access.ts).
export const loader = guardedLayoutLoader("routes/ij");
export { GuardedLayout as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
