import type { CalendarDate } from "~/shared/months";
import { roundTo, roundTo2 } from "~/shared/numbers";
import type { PermissionType } from "~/shared/permissions";
import { shownLabel } from "../cycle/texts";
import { columnSetupOf, valueColumns } from "./columns";
import { buildConsolidated, type ConsolidatedModel } from "./consolidated.server";
import { type ConsolidatedQuery, isOpen } from "./query";
import { consolidatedTexts as t } from "./texts";
import { type TreeRow, visibleRows } from "./tree";

/**
 * "Exportar Excel" of the consolidated view: exactly what the screen shows, in the viewer's scope. Every row of the
 * tree is in the file with its outline level (company 0, area 1, cost centre 2, group 3, account 4; totals above
 * their details; the sheet declares the deepest level, so Excel shows its outline buttons), and the rows the screen
 * keeps closed are hidden and their groups collapsed, so the file opens as the screen was and each level opens and
 * closes in Excel. Amounts are numbers in cents (format #,##0.00, shown with the reader's separators: 1.234,56 in a
 * pt-BR Excel), percentages numbers with 0,0%; "—" where the screen shows it. The headers are the screen's, months of
 * a comparison included.
 */

const AMOUNT_FORMAT = "#,##0.00";
const PERCENT_FORMAT = "0.0%";

const stateLabel = (row: TreeRow) => (row.state ? shownLabel(row.state) : "");

/** An amount as the file holds it: in cents, rounded half away from zero (roundTo2, docs/decisions.md). */
const excelAmount = (value: number) => roundTo2(value) || 0;

export async function consolidatedXlsx(
  parsed: { query: ConsolidatedQuery; invalid: boolean },
  user: { email: string; type: PermissionType },
  today: CalendarDate,
): Promise<{ response: Response; model: ConsolidatedModel }> {
  const model = await buildConsolidated(parsed, user, today);
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet(t.excelSheet, {
    views: [{ state: "frozen", xSplit: 2, ySplit: 1 }],
    properties: { outlineProperties: { summaryBelow: false, summaryRight: false } } as never,
  });
  const columns = valueColumns(columnSetupOf(model));
  sheet.columns = [
    { header: t.excelLevel, key: "level", width: 16 },
    { header: t.rowLabel, key: "label", width: 48 },
    { header: t.excelState, key: "state", width: 14 },
    ...columns.map((c) => ({ header: c.tag ? `${c.header} ${c.tag}` : c.header, key: c.id, width: 16 })),
  ];
  sheet.getRow(1).font = { bold: true };
  const shown = new Set(visibleRows(model.rows, (key, depth) => isOpen(model.query, key, depth)).map((r) => r.key));
  for (const row of model.rows) {
    const added = sheet.addRow({
      level: t.excelLevels[row.kind],
      label: `${"  ".repeat(Math.max(0, row.depth + 1))}${row.label}`,
      state: stateLabel(row),
    });
    columns.forEach((column, i) => {
      const cell = added.getCell(4 + i);
      const value = column.value(row);
      if (value === null) {
        // The screen's "—" for a missing figure or a zero base; an empty month stays empty.
        cell.value = column.id.startsWith("m_") || column.id === "total" ? null : t.dash;
        cell.alignment = { horizontal: "right" };
        return;
      }
      cell.value = column.kind === "percent" ? roundTo(value / 100, 3) : excelAmount(value);
      cell.numFmt = column.kind === "percent" ? PERCENT_FORMAT : AMOUNT_FORMAT;
    });
    added.outlineLevel = row.depth + 1;
    // A level the screen keeps closed is a collapsed group in Excel (its "+" button), the others open ("−").
    const closed = row.hasChildren && row.depth >= 0 && !isOpen(model.query, row.key, row.depth);
    Object.defineProperty(added, "collapsed", { value: closed });
    if (row.depth < 2) added.font = { bold: true };
    if (!shown.has(row.key)) added.hidden = true;
  }
  // A view narrowed to a version's cost centres says so under its rows, as the screen does above them.
  if (model.restricted) {
    sheet.addRow({});
    sheet.addRow({ label: model.restricted }).font = { italic: true };
  }
  // Excel shows its outline buttons (1 2 3 4 5) for the levels the sheet's properties declare: the deepest used.
  sheet.properties.outlineLevelRow = Math.max(0, ...model.rows.map((r) => r.depth + 1));
  const buffer = await workbook.xlsx.writeBuffer();
  const response = new Response(new Uint8Array(buffer as ArrayBuffer), {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${t.excelFile(model.rf ?? "rf")}"`,
      "Cache-Control": "private, no-store",
    },
  });
  return { response, model };
}
