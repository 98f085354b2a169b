import { useEffect, useRef, useState } from "react";
import {
  barRect,
  type CartesianLayout,
  cartesianLayout,
  linePath,
  numberAt,
  pieSlices,
  round,
  VIEW,
} from "./chart-geometry";
import type { ChartData } from "./format";
import { fieldLabel, formatCompact, formatLabel, formatNumber, PALETTE, seriesKeys } from "./format";

/**
 * A bar, line or pie chart as an SVG, drawn on the server (chart-geometry.ts) and scaled to the card; the page's
 * script draws it again at the card's measured width (so text keeps its size) and adds the tooltip of the category or
 * slice under the pointer. The drawing is hidden from assistive technology (the card's table carries the numbers), so
 * nothing in it takes the keyboard's focus.
 */

type Tip = { x: number; title: string; lines: { color: string; text: string }[] };
type DrawingProps = {
  chart: ChartData;
  names: string[];
  width: number;
  active: number | null;
  onActive: (i: number) => void;
};

/** Narrower cards are drawn at this width and scaled down. */
const MIN_WIDTH = 240;

const colour = (i: number) => PALETTE[i % PALETTE.length];
/** Long category names are cut in the drawing (the table and the tooltip have them whole). */
const cut = (text: string, max = 22) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const axisLabel = (name: string) => cut(name, 16);

export function ChartPlot({ chart }: { chart: ChartData }) {
  const [active, setActive] = useState<number | null>(null);
  const { ref, width } = useCardWidth();
  const names = chart.rows.map((row) => formatLabel(row.label ?? null));
  const series = seriesKeys(chart.rows);
  const props: DrawingProps = { chart, names, width, active, onActive: setActive };
  return (
    <div ref={ref} className="chart-plot" onPointerLeave={() => setActive(null)}>
      {chart.kind === "pie" ? <PieDrawing {...props} /> : <CartesianDrawing {...props} />}
      {chart.kind !== "pie" && series.length > 1 ? (
        <Legend names={series.map((key) => fieldLabel(key, chart.labels))} />
      ) : null}
      {active === null ? null : <TipBox tip={tipOf(chart, names, active, width)} width={width} />}
    </div>
  );
}

/** The card's width in pixels once the browser has measured it; VIEW's (the server's drawing) until then. */
function useCardWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>(VIEW.width);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry.contentRect.width);
      if (measured > 0) setWidth(Math.max(MIN_WIDTH, measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

function TipBox({ tip, width }: { tip: Tip; width: number }) {
  const share = tip.x / width;
  const shift = share < 0.3 ? "0" : share > 0.7 ? "-100%" : "-50%";
  return (
    <div className="chart-plot__tip" style={{ left: `${round(share * 100)}%`, transform: `translateX(${shift})` }}>
      <strong>{tip.title}</strong>
      {tip.lines.map((line) => (
        <span key={line.text}>
          <i style={{ background: line.color }} />
          {line.text}
        </span>
      ))}
    </div>
  );
}

/** What the tooltip of row `i` says: its category, then each series' value (a pie: its one value). */
function tipOf(chart: ChartData, names: string[], i: number, width: number): Tip {
  const row = chart.rows[i];
  const series = seriesKeys(chart.rows);
  if (chart.kind === "pie") {
    const slice = pieSlices(
      chart.rows.map((r) => numberAt(r, pieKey(series))),
      width,
    ).find((s) => s.index === i);
    return {
      x: slice?.labelX ?? width / 2,
      title: names[i],
      lines: [{ color: colour(i), text: formatNumber(slice?.value ?? 0) }],
    };
  }
  const layout = cartesianLayout(chart.rows, series, names, width);
  return {
    x: layout.bands[i].center,
    title: names[i],
    lines: series.map((key, j) => {
      const value = numberAt(row, key);
      return {
        color: colour(j),
        text: `${fieldLabel(key, chart.labels)}: ${value === null ? "—" : formatNumber(value)}`,
      };
    }),
  };
}

const pieKey = (series: string[]) => (series.includes("value") ? "value" : series[0]);

function CartesianDrawing({ chart, names, width, active, onActive }: DrawingProps) {
  const series = seriesKeys(chart.rows);
  const layout = cartesianLayout(chart.rows, series, names.map(axisLabel), width);
  const { plot, bands } = layout;
  const zero = layout.y(0);
  return (
    <svg className="chart-plot__svg" viewBox={`0 0 ${width} ${VIEW.height}`} aria-hidden="true">
      <Axes layout={layout} names={names} />
      {active === null ? null : <rect className="chart-plot__cursor" {...bandRect(bands[active])} />}
      {series.map((key, j) =>
        chart.kind === "line" ? (
          <path
            key={key}
            className="chart-plot__line"
            stroke={colour(j)}
            d={linePath(
              chart.rows.map((row, i) => {
                const v = numberAt(row, key);
                return v === null ? null : { x: bands[i].center, y: layout.y(v) };
              }),
            )}
          />
        ) : (
          <g key={key} fill={colour(j)}>
            {chart.rows.map((row, i) => {
              const v = numberAt(row, key);
              // A zero draws nothing (a bar of no height); the table beside the drawing still says 0.
              if (v === null || v === 0) return null;
              const bar = barRect(bands[i], j, series.length, layout.y(v), zero);
              return <rect key={i} className="chart-plot__bar" {...roundRect(bar)} />;
            })}
          </g>
        ),
      )}
      {bands.map((band, i) => (
        <rect key={i} className="chart-plot__hit" {...bandRect(band)} onPointerEnter={() => onActive(i)} />
      ))}
      <line className="chart-plot__axis" x1={plot.x} x2={plot.x + plot.width} y1={round(zero)} y2={round(zero)} />
    </svg>
  );
}

function Axes({ layout, names }: { layout: CartesianLayout; names: string[] }) {
  const { plot, ticks, bands, labelEvery } = layout;
  return (
    <>
      <g className="chart-plot__grid">
        {ticks.map((t) => (
          <line key={t.value} x1={plot.x} x2={plot.x + plot.width} y1={round(t.y)} y2={round(t.y)} />
        ))}
      </g>
      <g className="chart-plot__labels" textAnchor="end">
        {ticks.map((t) => (
          <text key={t.value} x={plot.x - 8} y={round(t.y)} dy="0.32em">
            {formatCompact(t.value)}
          </text>
        ))}
      </g>
      <g className="chart-plot__labels" textAnchor="middle">
        {bands.map((band, i) =>
          i % labelEvery === 0 ? (
            <text key={i} x={round(band.center)} y={plot.y + plot.height + 16}>
              {axisLabel(names[i])}
            </text>
          ) : null,
        )}
      </g>
    </>
  );
}

/** The series' names under the drawing, wrapping on a narrow card. */
function Legend({ names }: { names: string[] }) {
  return (
    <ul className="chart-plot__legend">
      {names.map((name, j) => (
        <li key={name}>
          <i style={{ background: colour(j) }} />
          {name}
        </li>
      ))}
    </ul>
  );
}

function PieDrawing({ chart, names, width, onActive }: DrawingProps) {
  const slices = pieSlices(
    chart.rows.map((row) => numberAt(row, pieKey(seriesKeys(chart.rows)))),
    width,
  );
  return (
    <svg className="chart-plot__svg" viewBox={`0 0 ${width} ${VIEW.height}`} aria-hidden="true">
      {slices.map((s) => (
        <path
          key={s.index}
          className="chart-plot__slice"
          d={s.path}
          fill={colour(s.index)}
          onPointerEnter={() => onActive(s.index)}
        />
      ))}
      <g className="chart-plot__labels">
        {slices.map((s) => (
          <text key={s.index} x={s.labelX} y={s.labelY} dy="0.32em" textAnchor={s.anchor} fill={colour(s.index)}>
            {cut(names[s.index])}
          </text>
        ))}
      </g>
    </svg>
  );
}

const bandRect = (band: { x: number; y: number; width: number; height: number }) =>
  roundRect({ x: band.x, y: band.y, width: band.width, height: band.height });

function roundRect(r: { x: number; y: number; width: number; height: number }) {
  return { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) };
}
