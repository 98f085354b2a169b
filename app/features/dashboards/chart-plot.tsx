import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartData } from "./format";
import { fieldLabel, formatCompact, formatLabel, formatNumber, PALETTE, seriesKeys } from "./format";

/**
 * A bar, line or pie chart drawn with Recharts (browser only: see ChartCard). The drawing is hidden from
 * assistive technology (the card's table carries the numbers), so Recharts' keyboard layer is off: a focusable
 * element inside aria-hidden content is a trap for keyboard and screen-reader users (axe: aria-hidden-focus).
 */
export default function Plot({ chart }: { chart: ChartData }) {
  const labels = chart.labels ?? {};
  const tooltipFormatter = (value: unknown, name: unknown) => [
    typeof value === "number" ? formatNumber(value) : String(value),
    fieldLabel(String(name), labels),
  ];
  const series = seriesKeys(chart.rows);
  const tick = { fontSize: 12 };
  const xTick = (v: unknown) => formatLabel(v as string);
  if (chart.kind === "pie") {
    const key = series.includes("value") ? "value" : series[0];
    return (
      <ResponsiveContainer width="100%" height="100%">
        <PieChart accessibilityLayer={false}>
          <Pie
            data={chart.rows}
            dataKey={key}
            nameKey="label"
            outerRadius="75%"
            isAnimationActive={false}
            label={(e: { name?: unknown }) => formatLabel((e.name ?? "") as string)}
          >
            {chart.rows.map((_, i) => (
              <Cell key={i} fill={PALETTE[i % PALETTE.length]} />
            ))}
          </Pie>
          <Tooltip
            formatter={(v: unknown) => (typeof v === "number" ? formatNumber(v) : String(v))}
            labelFormatter={xTick}
          />
        </PieChart>
      </ResponsiveContainer>
    );
  }
  const Chart = chart.kind === "line" ? LineChart : BarChart;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <Chart data={chart.rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="label" tick={tick} tickFormatter={xTick} />
        <YAxis tick={tick} tickFormatter={(v: number) => formatCompact(v)} width={64} />
        <Tooltip formatter={tooltipFormatter} labelFormatter={xTick} />
        {series.length > 1 ? <Legend formatter={(v: unknown) => fieldLabel(String(v), labels)} /> : null}
        {series.map((key, i) =>
          chart.kind === "line" ? (
            <Line
              key={key}
              type="monotone"
              dataKey={key}
              stroke={PALETTE[i % PALETTE.length]}
              dot={false}
              isAnimationActive={false}
            />
          ) : (
            <Bar key={key} dataKey={key} fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ),
        )}
      </Chart>
    </ResponsiveContainer>
  );
}
