// Screen: Layout of /captura/*.
import { guardedLayoutLoader } from "~/platform/auth/prefix-guard.server";

// Layout of /captura/*: a session; each child route checks its own rule (app/access.ts).
export const loader = guardedLayoutLoader("routes/captura");
export { GuardedLayout as default, PrefixErrorBoundary as ErrorBoundary } from "~/shared/layout/prefix-routes";
