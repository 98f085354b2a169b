import { Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

/** The component of a guarded prefix layout route (/ij, /captura, /repo, /user, /jobs). */
export function GuardedLayout() {
  return <Outlet />;
}

/** The splat route's component: its loader always throws, so the error renders inside the page shell. */
export function NotFoundUnder() {
  return null;
}

export function PrefixErrorBoundary() {
  return <GeneralErrorBoundary />;
}
