// Any other address under /jobs: the access table first, then 404 (see app/utils/prefix-guard.server.ts).
export { prefixSplatLoader as loader, prefixSplatAction as action } from "~/utils/prefix-guard.server";
export { NotFoundUnder as default, PrefixErrorBoundary as ErrorBoundary } from "~/components/layout/prefix-routes";
