import { useNavigation } from "@remix-run/react";
import { useState } from "react";
import { QuickSightDashboard } from "~/components/quicksight/quicksight-dashboard";
import { Alert } from "~/components/ui/alert";
import { dashboardTexts } from "~/services/dashboards/texts";
import { ChartCard, type ChartData } from "./chart-card";
import "./charts.css";

export type DashboardViewData = {
  dashboard: { painelId: number; panelLabel: string; panelType: number };
  view:
    | { provider: "native"; charts: ChartData[] }
    | {
        provider: "quicksight";
        embed: { embedUrl: string; sessionExpiresAt: string; toolbar: { resetDisabled: boolean; undoRedoDisabled: boolean } } | null;
        error: string | null;
      };
};

/**
 * One dashboard: the native charts, or the embedded QuickSight dashboard. `full` is the executed-jobs
 * variant: full size, with a loading overlay while the embed address (or the next dashboard) loads.
 * The route keys this component on the id, so a new id starts from scratch.
 */
export function DashboardView({ data, renewUrl, full = false }: { data: DashboardViewData; renewUrl: string; full?: boolean }) {
  const navigation = useNavigation();
  const { view } = data;
  const [embedLoading, setEmbedLoading] = useState(view.provider === "quicksight" && view.embed !== null);
  const navigating = navigation.state === "loading" && navigation.location.pathname !== undefined;
  const showOverlay = full && (embedLoading || navigating);

  return (
    <section className={full ? "dashboard dashboard--full" : "dashboard"} aria-busy={showOverlay || undefined} data-provider={view.provider}>
      <h1>{data.dashboard.panelLabel}</h1>
      {showOverlay ? (
        <div className="loading-overlay" role="status">
          {dashboardTexts.loading}
        </div>
      ) : null}
      {view.provider === "native" ? (
        view.charts.length === 0 ? (
          <Alert tone="info">{dashboardTexts.noCharts}</Alert>
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
        <Alert tone="error" title={dashboardTexts.embedFailedTitle}>
          {view.error ?? dashboardTexts.unexpected}
        </Alert>
      )}
    </section>
  );
}
