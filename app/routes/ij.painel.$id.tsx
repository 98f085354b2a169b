// Screen: Dashboard: /ij/painel/{id}, an Intelligent Journey dashboard.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useLoaderData, useParams } from "@remix-run/react";
import { DashboardView } from "~/features/dashboards/dashboard-view";
import { subscriptionStateOf } from "~/features/subscriptions/pages.server";
import { SUBSCRIPTIONS_PATH } from "~/features/subscriptions/paths";
import { SubscribeForm } from "~/features/subscriptions/subscribe-form";
import { dashboardTexts, subscriptionTexts } from "~/messages";
import { PANEL_TYPES } from "~/models/dashboards.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { loadDashboardScreen } from "~/platform/dashboards/dashboards.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.dashboard.panelLabel ?? dashboardTexts.dashboardPageTitle },
];

/** /ij/painel/{id}: an Intelligent Journey dashboard (panelType 1). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.painel.$id", request);
  const screen = await loadDashboardScreen(user, params.id, PANEL_TYPES.intelligentJourney);
  // A native dashboard can be followed (its figures weekly by e-mail).
  const subscription =
    screen.view.provider === "native"
      ? await subscriptionStateOf(user.email, "dashboard", String(screen.dashboard.painelId))
      : null;
  return { ...screen, subscription };
}

// An open QuickSight session must not be replaced by an unrelated revalidation (e.g. after another form's action);
// "Assinar" / "Cancelar assinatura" posts for this page (a native dashboard), which then shows the new state.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formAction,
  defaultShouldRevalidate,
}) =>
  formAction === SUBSCRIPTIONS_PATH || currentUrl.pathname !== nextUrl.pathname || currentUrl.search !== nextUrl.search
    ? defaultShouldRevalidate
    : false;

export default function IntelligentJourneyDashboard() {
  const data = useLoaderData<typeof loader>();
  const { id = "" } = useParams();
  return (
    <>
      {data.subscription ? (
        <SubscribeForm
          kind="dashboard"
          object={data.subscription.object}
          subscribed={data.subscription.subscribed}
          label={subscriptionTexts.subscribeDashboard}
        />
      ) : null}
      <DashboardView key={id} data={data} renewUrl={`/ij/painel/${encodeURIComponent(id)}/embed-url`} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
