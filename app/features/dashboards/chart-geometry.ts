import type { ChartRow } from "./format";

/**
 * Where a chart's marks go (pure, no DOM), in an SVG's coordinate space of one unit per pixel: the server draws at
 * VIEW's width, which the page scales to the card until the browser has measured the card and draws at its width.
 */

/** The drawing's coordinate space before the card is measured (about a card's width at 1366 px), and its height. */
export const VIEW = { width: 560, height: 280 } as const;
/** The y axis's labels (Recharts' 64 px axis, as the charts had), then the plot. */
const LEFT = 72;
const RIGHT = 16;
const TOP = 12;
/** Room for the x axis's labels. */
const X_AXIS = 24;
/** Average width of a character of the 12 px axis labels, to space the category labels. */
const CHAR_WIDTH = 6.6;

export type Rect = { x: number; y: number; width: number; height: number };
export type Band = Rect & { center: number };
export type Tick = { value: number; y: number };
export type CartesianLayout = {
  plot: Rect;
  ticks: Tick[];
  /** One band per row, left to right. */
  bands: Band[];
  /** The y coordinate of a value. */
  y: (value: number) => number;
  /** Every how many categories a label is written (so labels do not overlap). */
  labelEvery: number;
};

/** A row's value of `key` when it is a finite number. */
export function numberAt(row: ChartRow, key: string): number | null {
  const value = row[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A round step of about `raw`: 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * power;
}

/** About `count` round ticks from below `min` to above `max`, zero included. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const lo = Math.min(0, min);
  let hi = Math.max(0, max);
  if (hi === lo) hi = lo + 1;
  const step = niceStep((hi - lo) / (count - 1));
  const ticks: number[] = [];
  for (let i = Math.floor(lo / step); i <= Math.ceil(hi / step); i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** The plot area, y scale and category bands of a bar or line chart of `series` over `rows`. */
export function cartesianLayout(
  rows: readonly ChartRow[],
  series: readonly string[],
  labels: readonly string[],
  viewWidth: number = VIEW.width,
): CartesianLayout {
  const values = rows.flatMap((row) => series.map((key) => numberAt(row, key)).filter((v) => v !== null));
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  const plot: Rect = {
    x: LEFT,
    y: TOP,
    width: viewWidth - LEFT - RIGHT,
    height: VIEW.height - TOP - X_AXIS,
  };
  const lo = ticks[0];
  const hi = ticks[ticks.length - 1];
  const y = (value: number) => plot.y + plot.height - ((value - lo) / (hi - lo)) * plot.height;
  const width = plot.width / Math.max(1, rows.length);
  const bands = rows.map((_, i) => {
    const x = plot.x + i * width;
    return { x, y: plot.y, width, height: plot.height, center: x + width / 2 };
  });
  const widest = Math.max(0, ...labels.map((l) => l.length)) * CHAR_WIDTH + 8;
  return {
    plot,
    ticks: ticks.map((value) => ({ value, y: y(value) })),
    bands,
    y,
    labelEvery: Math.max(1, Math.ceil(widest / width)),
  };
}

/** The bars of one band: `count` side by side in the middle 80 % of the band, the `index`-th of them. */
export function barRect(band: Band, index: number, count: number, top: number, bottom: number): Rect {
  const group = band.width * 0.8;
  const width = group / count;
  return {
    x: band.x + band.width * 0.1 + index * width,
    y: Math.min(top, bottom),
    width: Math.max(1, width - (count > 1 ? 1 : 0)),
    height: Math.abs(bottom - top),
  };
}

/** An SVG path through the points, broken where a value is missing. */
export function linePath(points: readonly ({ x: number; y: number } | null)[]): string {
  let path = "";
  let pen = false;
  for (const p of points) {
    if (!p) {
      pen = false;
      continue;
    }
    path += `${pen ? "L" : "M"}${round(p.x)} ${round(p.y)}`;
    pen = true;
  }
  return path;
}

export type Slice = {
  index: number;
  value: number;
  path: string;
  labelX: number;
  labelY: number;
  anchor: "start" | "middle" | "end";
};

/** The pie's slices of the positive values, clockwise from twelve o'clock (a lone slice is a full disc). */
export function pieSlices(values: readonly (number | null)[], viewWidth: number = VIEW.width): Slice[] {
  const cx = viewWidth / 2;
  const cy = VIEW.height / 2;
  // A quarter of a narrow card's width leaves room for the labels beside the pie.
  const r = Math.min(viewWidth / 4, (VIEW.height / 2) * 0.75);
  const positive = values.map((v, index) => ({ index, value: v ?? 0 })).filter((s) => s.value > 0);
  const total = positive.reduce((s, v) => s + v.value, 0);
  const at = (turn: number, radius: number) => ({
    x: cx + radius * Math.sin(turn * 2 * Math.PI),
    y: cy - radius * Math.cos(turn * 2 * Math.PI),
  });
  let start = 0;
  return positive.map(({ index, value }) => {
    const end = start + value / total;
    const a = at(start, r);
    const b = at(end, r);
    const path =
      positive.length === 1
        ? `M${round(cx - r)} ${round(cy)}A${round(r)} ${round(r)} 0 1 1 ${round(cx + r)} ${round(cy)}A${round(r)} ${round(r)} 0 1 1 ${round(cx - r)} ${round(cy)}Z`
        : `M${round(cx)} ${round(cy)}L${round(a.x)} ${round(a.y)}A${round(r)} ${round(r)} 0 ${end - start > 0.5 ? 1 : 0} 1 ${round(b.x)} ${round(b.y)}Z`;
    const label = at((start + end) / 2, r + 12);
    start = end;
    return {
      index,
      value,
      path,
      labelX: round(label.x),
      labelY: round(label.y),
      anchor: label.x < cx - 1 ? ("end" as const) : label.x > cx + 1 ? ("start" as const) : ("middle" as const),
    };
  });
}

/** Coordinates to a tenth of a unit: the same text on the server and in the browser, and short. */
export function round(n: number): number {
  return Math.round(n * 10) / 10;
}
