// Screen: Jobs dashboard: /jobs/dashboard/{id}, an executed-jobs dashboard.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useLoaderData, useParams } from "@remix-run/react";
import { DashboardView } from "~/features/dashboards/dashboard-view";
import { dashboardTexts } from "~/messages";
import { PANEL_TYPES } from "~/models/dashboards.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { loadDashboardScreen } from "~/platform/dashboards/dashboards.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.dashboard.panelLabel ?? dashboardTexts.dashboardPageTitle },
];

/** /jobs/dashboard/{id}: an executed-jobs dashboard (panelType 2), full size with a loading overlay. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/jobs.dashboard.$id", request);
  return loadDashboardScreen(user, params.id, PANEL_TYPES.executedJobs);
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname !== nextUrl.pathname || currentUrl.search !== nextUrl.search ? defaultShouldRevalidate : false;

export default function ExecutedJobsDashboard() {
  const data = useLoaderData<typeof loader>();
  const { id = "" } = useParams();
  return <DashboardView key={id} data={data} renewUrl={`/jobs/dashboard/${encodeURIComponent(id)}/embed-url`} full />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
