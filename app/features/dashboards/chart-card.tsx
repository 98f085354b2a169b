import type { ReactNode } from "react";
import { Alert } from "~/shared/ui/alert";
import { ChartPlot } from "./chart-plot";
import { type ChartRow, columnKeys, fieldLabel, formatNumber, formatValue, seriesKeys } from "./format";
import { dashboardTexts } from "./texts";
import "./charts.css";
import "~/shared/ui/data-table.css";

import type { ChartData } from "./format";

export type { ChartData, ChartKind } from "./format";

type Labels = Readonly<Record<string, string>>;

/** A data table of chart rows; also the screen-reader fallback of the drawn charts. */
export function ChartDataTable({
  rows,
  caption,
  labels = {},
  hidden = false,
}: {
  rows: ChartRow[];
  caption: string;
  labels?: Labels;
  hidden?: boolean;
}) {
  const keys = columnKeys(rows);
  return (
    // A visible table may scroll: it is then a named region the keyboard can reach and scroll (WCAG 2.1.1).
    <div
      className={hidden ? "visually-hidden" : "chart-table"}
      {...(hidden ? {} : { role: "region", "aria-label": caption, tabIndex: 0 })}
    >
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {keys.map((key) => (
              <th key={key} scope="col">
                {fieldLabel(key, labels)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {keys.map((key) => {
                const value = row[key] ?? null;
                return (
                  <td key={key} className={typeof value === "number" ? "num" : undefined}>
                    {formatValue(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Kpi({ rows, labels }: { rows: ChartRow[]; labels: Labels }) {
  const row = rows[0] ?? {};
  const keys = seriesKeys([row]);
  const ordered = keys.includes("value") ? ["value", ...keys.filter((k) => k !== "value")] : keys;
  return (
    <dl className="chart-kpi">
      {ordered.map((key) => (
        <div key={key}>
          <dt>{fieldLabel(key, labels)}</dt>
          <dd>{formatNumber(Number(row[key]))}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One native chart: its title, the drawing (or the text for kpi/table) and a table for screen readers. */
export function ChartCard({ chart }: { chart: ChartData }) {
  const headingId = `chart-${chart.id}`;
  let body: ReactNode;
  if (chart.error) {
    body = (
      <Alert tone="error" title={dashboardTexts.chartFailed}>
        {chart.error}
      </Alert>
    );
  } else if (chart.kind === "kpi") {
    body = <Kpi rows={chart.rows} labels={chart.labels ?? {}} />;
  } else if (chart.kind === "table") {
    body = <ChartDataTable rows={chart.rows} caption={chart.title} labels={chart.labels} />;
  } else {
    body = (
      <>
        {/* The drawing, hidden from assistive technology: the table below carries its numbers. */}
        <div className="chart-card__plot" aria-hidden="true">
          <ChartPlot chart={chart} />
        </div>
        <ChartDataTable
          rows={chart.rows}
          caption={`${dashboardTexts.chartTableFallback}: ${chart.title}`}
          labels={chart.labels}
          hidden
        />
      </>
    );
  }
  return (
    <figure className={`chart-card chart-card--${chart.kind}`} aria-labelledby={headingId} data-chart-kind={chart.kind}>
      <h2 className="chart-card__title" id={headingId}>
        {chart.title}
      </h2>
      {body}
    </figure>
  );
}
