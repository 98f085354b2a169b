import { useState } from "react";
import { QuickSightDashboard, type QuickSightEmbed } from "~/features/dashboards/quicksight-dashboard";
import { messages } from "~/messages";
import { Alert } from "~/shared/ui/alert";
import { ChartCard, type ChartData } from "./chart-card";
import { dashboardTexts } from "./texts";
import "./charts.css";

export type DashboardViewData = {
  dashboard: { painelId: number; panelLabel: string; panelType: number };
  view:
    | { provider: "native"; charts: ChartData[] }
    | {
        provider: "quicksight";
        embed: QuickSightEmbed | null;
        error: string | null;
      };
};

/**
 * One dashboard: the native charts, or the embedded QuickSight dashboard. `full` is the executed-jobs
 * variant: full size, with a loading overlay while the embedded frame loads (while the loader fetches the
 * embed address, the root route's DashboardNavigationOverlay covers the page).
 * The route keys this component on the id, so a new id starts from scratch.
 */
export function DashboardView({
  data,
  renewUrl,
  full = false,
}: {
  data: DashboardViewData;
  renewUrl: string;
  full?: boolean;
}) {
  const { view } = data;
  const [embedLoading, setEmbedLoading] = useState(view.provider === "quicksight" && view.embed !== null);
  const showOverlay = full && embedLoading;

  return (
    <section
      className={full ? "dashboard dashboard--full" : "dashboard"}
      aria-busy={showOverlay || undefined}
      data-provider={view.provider}
    >
      <h1>{data.dashboard.panelLabel}</h1>
      {showOverlay ? (
        <div className="loading-overlay" role="status">
          {messages.dashboardLoading}
        </div>
      ) : null}
      {view.provider === "native" ? (
        view.charts.length === 0 ? (
          <Alert tone="info">{dashboardTexts.dashboardNoCharts}</Alert>
        ) : (
          <div className="dashboard__grid">
            {view.charts.map((chart) => (
              <ChartCard key={chart.id} chart={chart} />
            ))}
          </div>
        )
      ) : view.embed ? (
        <QuickSightDashboard embed={view.embed} renewUrl={renewUrl} onLoadingChange={setEmbedLoading} />
      ) : (
        <Alert tone="error" title={dashboardTexts.dashboardEmbedFailedTitle}>
          {view.error ?? dashboardTexts.dashboardUnexpected}
        </Alert>
      )}
    </section>
  );
}
