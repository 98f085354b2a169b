import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";
import { columnKeys, fieldLabel, formatCompact, formatLabel, formatNumber, formatValue, PALETTE, seriesKeys, type ChartRow } from "./format";
import "./charts.css";
import "~/components/ui/data-table.css";

export type ChartKind = "kpi" | "bar" | "line" | "pie" | "table";
export type ChartData = { id: string; title: string; kind: ChartKind; rows: ChartRow[]; labels?: Record<string, string>; error?: string };
type Labels = Readonly<Record<string, string>>;

/** A data table of chart rows; also the screen-reader fallback of the drawn charts. */
export function ChartDataTable({ rows, caption, labels = {}, hidden = false }: { rows: ChartRow[]; caption: string; labels?: Labels; hidden?: boolean }) {
  const keys = columnKeys(rows);
  return (
    <div className={hidden ? "visually-hidden" : "chart-table"}>
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

function Plot({ chart }: { chart: ChartData }) {
  const labels = chart.labels ?? {};
  const tooltipFormatter = (value: unknown, name: unknown) => [typeof value === "number" ? formatNumber(value) : String(value), fieldLabel(String(name), labels)];
  const series = seriesKeys(chart.rows);
  const tick = { fontSize: 12 };
  const xTick = (v: unknown) => formatLabel(v as string);
  if (chart.kind === "pie") {
    const key = series.includes("value") ? "value" : series[0];
    return (
      <ResponsiveContainer width="100%" height="100%">
        <PieChart>
          <Pie data={chart.rows} dataKey={key} nameKey="label" outerRadius="75%" isAnimationActive={false} label={(e: { name?: unknown }) => formatLabel((e.name ?? "") as string)}>
            {chart.rows.map((_, i) => (
              <Cell key={i} fill={PALETTE[i % PALETTE.length]} />
            ))}
          </Pie>
          <Tooltip formatter={(v: unknown) => (typeof v === "number" ? formatNumber(v) : String(v))} labelFormatter={xTick} />
        </PieChart>
      </ResponsiveContainer>
    );
  }
  const Chart = chart.kind === "line" ? LineChart : BarChart;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <Chart data={chart.rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="label" tick={tick} tickFormatter={xTick} />
        <YAxis tick={tick} tickFormatter={(v: number) => formatCompact(v)} width={64} />
        <Tooltip formatter={tooltipFormatter} labelFormatter={xTick} />
        {series.length > 1 ? <Legend formatter={(v: unknown) => fieldLabel(String(v), labels)} /> : null}
        {series.map((key, i) =>
          chart.kind === "line" ? (
            <Line key={key} type="monotone" dataKey={key} stroke={PALETTE[i % PALETTE.length]} dot={false} isAnimationActive={false} />
          ) : (
            <Bar key={key} dataKey={key} fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ),
        )}
      </Chart>
    </ResponsiveContainer>
  );
}

/** One native chart: its title, the drawing (or the text for kpi/table) and a table for screen readers. */
export function ChartCard({ chart }: { chart: ChartData }) {
  const headingId = `chart-${chart.id}`;
  let body;
  if (chart.error) {
    body = (
      <Alert tone="error" title={messages.chartFailed}>
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
        <div className="chart-card__plot" aria-hidden="true">
          <Plot chart={chart} />
        </div>
        <ChartDataTable rows={chart.rows} caption={`${messages.chartTableFallback}: ${chart.title}`} labels={chart.labels} hidden />
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
