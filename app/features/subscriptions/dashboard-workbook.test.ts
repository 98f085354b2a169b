import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { dashboardWorkbook } from "./dashboard-workbook.server";

/**
 * The weekly e-mail's workbook writes a chart's dates as the portal writes them for people (app/shared/dates.ts): a
 * moment as the portal's date and time, in its zone, and a day as a date cell, as every export does.
 */

async function firstSheet(buffer: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook.worksheets[0];
}

describe("a dashboard's workbook", () => {
  it("writes a moment as '29 nov 26 02:04:09' (the portal's zone), a day as a date cell, the rest as they are", async () => {
    const sheet = await firstSheet(
      await dashboardWorkbook("Painel", [
        {
          id: "c",
          title: "Cargas",
          kind: "table",
          labels: { at: "Quando", day: "Dia", name: "Nome", n: "Linhas" },
          rows: [{ at: "2026-11-29T05:04:09.000Z", day: "2026-11-29", name: "2026-11-29 relatório", n: 3 }],
        },
      ]),
    );
    const row = sheet.getRow(3);
    expect(row.getCell(1).value).toBe("29 nov 26 02:04:09");
    expect(row.getCell(2).value).toEqual(new Date(Date.UTC(2026, 10, 29)));
    expect(row.getCell(2).numFmt).toBe("dd/mm/yyyy");
    expect(row.getCell(3).value).toBe("2026-11-29 relatório");
    expect(row.getCell(4).value).toBe(3);
  });
});
