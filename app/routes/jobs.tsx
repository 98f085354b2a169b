// Layout and guard of /jobs/* (see app/utils/prefix-guard.server.ts).
export { prefixLayoutLoader as loader } from "~/utils/prefix-guard.server";
export { GuardedLayout as default, PrefixErrorBoundary as ErrorBoundary } from "~/components/layout/prefix-routes";
