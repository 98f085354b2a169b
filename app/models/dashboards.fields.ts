/** A cell and a row of a chart's result, as the chart cache stores them and the browser receives them. Browser-safe. */
export type ChartValue = string | number | boolean | null;
export type ChartRow = Record<string, ChartValue>;
