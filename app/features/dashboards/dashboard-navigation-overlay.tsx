import { useNavigation } from "@remix-run/react";
import { uiTexts } from "~/shared/ui/texts";
import "./dashboard-navigation-overlay.css";

type NavigationLike = { state: string; location?: { pathname: string } | null };

/** The two dashboard pages, /ij/painel/{id} and /jobs/dashboard/{id} (matched as the router does: any case). */
const DASHBOARD_PAGE = /^\/(ij\/painel|jobs\/dashboard)\/[^/]+\/?$/i;

/** Whether the router is on its way to a dashboard (a switch, Back or Forward), whose loader fetches its figures. */
export function isDashboardNavigationPending(navigation: NavigationLike): boolean {
  return navigation.state !== "idle" && !!navigation.location && DASHBOARD_PAGE.test(navigation.location.pathname);
}

/** The overlay itself; `pending` comes from the router (see DashboardNavigationOverlay). */
export function DashboardLoadingStatus({ pending }: { pending: boolean }) {
  // The live region stays in the page, empty when idle, so screen readers announce the text when it appears.
  return (
    <div
      role="status"
      aria-live="polite"
      className={pending ? "route-loading-overlay" : "visually-hidden"}
      data-pending={pending || undefined}
    >
      {pending ? <span className="route-loading-overlay__label">{uiTexts.dashboardLoading}</span> : null}
    </div>
  );
}

/**
 * The loading state of the dashboards (spec 000 §2: /jobs/dashboard/{id} "shows a loading overlay while
 * loading": /ij/painel/{id} too) from the moment a switch, Back or Forward starts until the new
 * dashboard is there. It covers the page area opaquely, so the previous dashboard's figures are never seen under
 * the new one's name. Rendered by the root route, because a navigation that starts in another section has no
 * layout of the target's section mounted until its data has arrived.
 */
export function DashboardNavigationOverlay() {
  return <DashboardLoadingStatus pending={isDashboardNavigationPending(useNavigation())} />;
}
