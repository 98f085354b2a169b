// Screen: Layout of /ij/report/* (the report readers' rule).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";

/** /ij/report/*: the report list (index), the online viewer and the review page share the report readers' rule. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.report", request);
  return null;
}

export default function ReportsLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
