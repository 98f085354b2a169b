import { dashboardTexts } from "./texts";

/** pt-BR presentation of chart values (pure, shared by the charts and their table fallbacks). */

import type { ChartRow, ChartValue } from "~/models/dashboards.fields";
import { formatCalendarDate, formatDateTime } from "~/shared/dates";
import { monthStartDate, parseMonthKey } from "~/shared/months";

export type { ChartRow, ChartValue } from "~/models/dashboards.fields";

export type ChartKind = "kpi" | "bar" | "line" | "pie" | "table";
/** One chart as a dashboard page receives it. */
export type ChartData = {
  id: string;
  title: string;
  kind: ChartKind;
  rows: ChartRow[];
  labels?: Record<string, string>;
  error?: string;
};

const integerFormat = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });
const decimalFormat = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat("pt-BR", { notation: "compact", maximumFractionDigits: 1 });
const monthFormat = new Intl.DateTimeFormat("pt-BR", { month: "short", year: "numeric", timeZone: "UTC" });

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? integerFormat.format(value) : decimalFormat.format(value);
}

/** Axis ticks: short (1,2 mil; 3,4 mi). */
export function formatCompact(value: number): string {
  return Math.abs(value) < 10_000 ? formatNumber(value) : compactFormat.format(value);
}

/**
 * A category or x value: ISO months and days read as pt-BR months and dates (no zone: they name a month or a day), an
 * ISO instant as the portal's date and time (app/shared/dates.ts), numbers with pt-BR separators.
 */
export function formatLabel(value: ChartValue): string {
  if (value === null) return "—";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? dashboardTexts.chartYes : dashboardTexts.chartNo;
  const month = parseMonthKey(value);
  if (month !== null) return monthFormat.format(monthStartDate(month)).replace(". de ", "/").replace(" de ", "/");
  if (/^\d{4}-\d{2}-\d{2}(T00:00:00(\.000)?Z)?$/.test(value))
    return formatCalendarDate(`${value.slice(0, 10)}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return formatDateTime(date);
  }
  return value;
}

/** Any cell, for tables. */
export function formatValue(value: ChartValue): string {
  return formatLabel(value);
}

/**
 * The header of a result field: the chart definition's label when it has one ("concluidos" →
 * "Concluídos"), else `label` as the category and other names humanized.
 */
export function fieldLabel(key: string, labels: Readonly<Record<string, string>> = {}): string {
  if (Object.hasOwn(labels, key) && labels[key]) return labels[key];
  if (key === "label") return dashboardTexts.chartCategory;
  if (key === "value") return dashboardTexts.chartTotal;
  return humanize(key);
}

/** A field name as a header: "em_andamento" → "Em andamento". */
export function humanize(key: string): string {
  const text = key.replace(/[_-]+/g, " ").trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : key;
}

/** The numeric series of rows shaped `{ label, <series>: number, … }`, in first-seen order. */
export function seriesKeys(rows: readonly ChartRow[], labelKey = "label"): string[] {
  const keys: string[] = [];
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (key !== labelKey && key !== "_id" && typeof value === "number" && !keys.includes(key)) keys.push(key);
    }
  }
  return keys;
}

/** All columns of rows, in first-seen order (for table charts). */
export function columnKeys(rows: readonly ChartRow[]): string[] {
  const keys: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
  return keys;
}

/** A fixed palette readable on white, cycled per series. */
export const PALETTE = ["#0b5cad", "#f39200", "#2e8540", "#b0306f", "#6a4fb3", "#00838f", "#8d6e00", "#c62828"];
