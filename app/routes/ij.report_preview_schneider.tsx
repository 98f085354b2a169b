// Screen: Forecast review calendar: /ij/report_preview_schneider.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Breadcrumb } from "~/features/forecast/breadcrumb";
import { CalendarTable } from "~/features/forecast/calendar-table";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/forecast/forecast.css";
import { FILTER_PATH, filterPath, sortScenarios } from "~/features/forecast/forecast-filter";
import { isOpenForEditing, parseScenario, scenarioCalendar } from "~/features/forecast/release-points";
import { forecastTexts } from "~/messages";
import { countCostCenters, listScenarioNames } from "~/models/forecast.server";
import { portalToday } from "~/shared/clock.server";
import { dayLabel, monthLabel } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";

export const meta: MetaFunction = () => [{ title: forecastTexts.calendarTitle }];

/**
 * /ij/report_preview_schneider: the review calendar (the spec lists the route without its screen; docs/decisions.md).
 * Every period in the database with its anchor, edit month, window, whether it is open today and how many cost
 * centres it has; "Revisar" opens the filter with the period chosen.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.report_preview_schneider", request);
  const names = sortScenarios(await listScenarioNames());
  const counts = await countCostCenters(names);
  const today = portalToday();
  return {
    rows: names.map((name) => {
      const calendar = scenarioCalendar(parseScenario(name)!);
      return {
        name,
        anchor: dayLabel(calendar.anchor),
        editMonth: monthLabel(calendar.editMonth),
        window: forecastTexts.windowRange(monthLabel(calendar.firstMonth), monthLabel(calendar.lastMonth)),
        open: isOpenForEditing(calendar, today),
        costCenters: counts[name] ?? 0,
        href: filterPath({ rf: name }),
      };
    }),
  };
}

export default function ForecastCalendarPage() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <section className="forecast-calendar">
      <Breadcrumb filterHref={FILTER_PATH} current={forecastTexts.calendarTitle} />
      <h1>{forecastTexts.calendarTitle}</h1>
      <p>{forecastTexts.calendarIntro}</p>
      {rows.length === 0 ? <Alert tone="info">{forecastTexts.noScenarios}</Alert> : <CalendarTable rows={rows} />}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
