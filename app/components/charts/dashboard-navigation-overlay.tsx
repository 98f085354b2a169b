import { useNavigation } from "@remix-run/react";
import { messages } from "~/messages";
import "./dashboard-navigation-overlay.css";

type NavigationLike = { state: string; location?: { pathname: string } | null };

const JOBS_DASHBOARD_PAGE = /^\/jobs\/dashboard\/[^/]+\/?$/;

/** Whether the router is on its way to an executed-jobs dashboard, whose loader fetches the embed address. */
export function isDashboardNavigationPending(navigation: NavigationLike): boolean {
  return navigation.state !== "idle" && !!navigation.location && JOBS_DASHBOARD_PAGE.test(navigation.location.pathname);
}

/** The overlay itself; `pending` comes from the router (see DashboardNavigationOverlay). */
export function DashboardLoadingStatus({ pending }: { pending: boolean }) {
  // The live region stays in the page, empty when idle, so screen readers announce the text when it appears.
  return (
    <div role="status" aria-live="polite" className={pending ? "route-loading-overlay" : "visually-hidden"} data-pending={pending || undefined}>
      {pending ? <span className="route-loading-overlay__label">{messages.dashboardLoading}</span> : null}
    </div>
  );
}

/**
 * The loading overlay of /jobs/dashboard/{id} (spec 000 §2) while its loader asks for the embed address.
 * Rendered by the root route, because a navigation that starts outside /jobs has no /jobs layout mounted
 * until the address has arrived.
 */
export function DashboardNavigationOverlay() {
  return <DashboardLoadingStatus pending={isDashboardNavigationPending(useNavigation())} />;
}
