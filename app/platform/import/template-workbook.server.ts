import { PassThrough, Readable } from "node:stream";
import type { TemplateInfo } from "./catalog.server";
import { templateTexts } from "./texts";

/**
 * A template as an XLSX download: sheet 1 the header row and one example row, marked (what the worker reads: the first
 * sheet; a row equal to the example is ignored there),
 * sheet 2 one line per column (name, type, unit, required, rule, description). Written with exceljs's streaming
 * writer, loaded on the first download.
 */
export function templateWorkbookResponse(info: TemplateInfo): Response {
  const out = new PassThrough();
  void (async () => {
    const { default: Excel } = await import("exceljs");
    const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const t = templateTexts;
    const data = workbook.addWorksheet(t.sheetData, { views: [{ state: "frozen", ySplit: 1 }] });
    data.columns = info.columns.map((c) => ({
      header: c.name,
      key: c.name,
      width: Math.max(14, c.name.length + 4, String(c.example).length + 2),
    }));
    data.getRow(1).font = { bold: true };
    data.getRow(1).commit();
    // The example row stays where people look for it, marked as one: grey italics and a note. The import recognises it
    // by its values, not by its marks (a CSV has none): import/example-row.ts.
    const example = data.addRow(info.columns.map((c) => c.example));
    example.font = { italic: true, color: { argb: "FF6B6B6B" } };
    example.getCell(1).note = t.exampleNote;
    example.commit();
    data.commit();
    const help = workbook.addWorksheet(t.sheetColumns);
    help.columns = [
      { header: t.helpColumn, key: "name", width: 26 },
      { header: t.helpType, key: "type", width: 12 },
      { header: t.helpUnit, key: "unit", width: 12 },
      { header: t.helpRequired, key: "required", width: 12 },
      { header: t.helpRule, key: "rule", width: 70 },
      { header: t.helpDescription, key: "description", width: 50 },
    ];
    help.getRow(1).font = { bold: true };
    help.getRow(1).commit();
    for (const c of info.columns) {
      help
        .addRow({
          name: c.name,
          type: c.type,
          unit: c.unit,
          required: c.required ? t.yes : t.no,
          rule: c.rule,
          description: c.description,
        })
        .commit();
    }
    help.addRow({}).commit();
    help.addRow({ name: t.helpWriteMode, rule: info.writeModeText }).commit();
    help.addRow({ name: t.helpFeeds, rule: info.feeds }).commit();
    if (info.allOrNothing) help.addRow({ name: t.helpAllOrNothing, rule: t.allOrNothingText }).commit();
    help.addRow({ name: t.helpExample, rule: t.exampleText }).commit();
    help.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error as Error));
  const fileName = `modelo_${info.id}.xlsx`;
  return new Response(Readable.toWeb(out) as ReadableStream, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
