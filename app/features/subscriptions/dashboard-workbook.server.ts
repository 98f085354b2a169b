import ExcelJS from "exceljs";
import type { ChartValue } from "~/models/dashboards.fields";
import type { ChartResult } from "~/services/dashboards/native.server";
import { CPF_FIELD, maskCpfCell } from "~/shared/cpf";
import { formatDateTime } from "~/shared/dates";
import { subscriptionTexts as t } from "./texts";

/**
 * A dashboard's figures as an XLSX (the weekly e-mail's attachment): one sheet per chart, in the dashboard's order;
 * row 1 the chart's title, row 2 its column headers (the chart's labels), then its rows as the screen has them. A
 * chart the screen shows as an error (e.g. one that would reach rows outside the viewer's branches) gets its message
 * and no figures. A column named like a CPF (by its field or its header) holds it masked, as the HR grid shows it,
 * whatever figures it is given (the charts mask theirs already). Dates as every export writes them (app/shared/dates.ts):
 * a chart's ISO day is a date cell (dd/mm/yyyy), its ISO instant the portal's date and time in its zone.
 */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}(T00:00:00(\.000)?Z)?$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_FORMAT = "dd/mm/yyyy";

/** A chart's value as a cell: a day as a date, an instant as the portal's text, anything else as it is. */
function cellOf(value: ChartValue): string | number | boolean | Date | null {
  if (typeof value !== "string") return value;
  if (ISO_DAY.test(value)) return new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) return formatDateTime(value);
  return value;
}

const SHEET_NAME_MAX = 31;

function sheetName(index: number, title: string, used: Set<string>): string {
  const clean = title.replace(/[[\]:*?/\\]/g, " ").trim();
  const prefix = `${index + 1} `;
  let name = `${prefix}${clean}`.slice(0, SHEET_NAME_MAX).trim() || t.sheetChart(index + 1);
  if (used.has(name.toLowerCase())) name = t.sheetChart(index + 1);
  used.add(name.toLowerCase());
  return name;
}

export async function dashboardWorkbook(label: string, charts: readonly ChartResult[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Journey Portal";
  workbook.title = label;
  const used = new Set<string>();
  charts.forEach((chart, index) => {
    const sheet = workbook.addWorksheet(sheetName(index, chart.title, used));
    sheet.addRow([chart.title]).font = { bold: true };
    if (chart.error) {
      sheet.addRow([`${t.sheetUnavailable}: ${chart.error}`]);
      return;
    }
    // The columns the chart names first, in its definition's order; then any other field of its rows.
    const keys = Object.keys(chart.labels).filter((k) => chart.rows.some((row) => Object.hasOwn(row, k)));
    for (const row of chart.rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    const headers = keys.map((k) => chart.labels[k] ?? k);
    const cpfColumn = keys.map((k, i) => CPF_FIELD.test(k) || CPF_FIELD.test(headers[i]));
    sheet.addRow(headers).font = { bold: true };
    for (const row of chart.rows) {
      const added = sheet.addRow(
        keys.map((k, i) => (cpfColumn[i] ? maskCpfCell(row[k]) : cellOf(row[k] ?? null)) ?? null),
      );
      added.eachCell((cell) => {
        if (cell.value instanceof Date) cell.numFmt = DAY_FORMAT;
      });
    }
  });
  if (charts.length === 0) workbook.addWorksheet(t.sheetChart(1)).addRow([label]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
