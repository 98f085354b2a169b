import { Readable } from "node:stream";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { readXlsxRows } from "xlsx-reader";
import { xlsxBuffer } from "#test/upload-fixtures";

/** Rewrites an XLSX with its zip entries in the given order (the rest after them, in their order). */
async function reorderEntries(buffer: Buffer, first: string[]): Promise<Buffer> {
  const source = await JSZip.loadAsync(buffer);
  const names = Object.keys(source.files).filter((n) => !source.files[n].dir);
  const order = [...first, ...names.filter((n) => !first.includes(n))];
  const target = new JSZip();
  for (const name of order) target.file(name, await source.files[name].async("nodebuffer"));
  return target.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

async function readAll(buffer: Buffer) {
  const rows = [];
  for await (const row of readXlsxRows(Readable.from([buffer]))) rows.push(row);
  return rows;
}

describe("readXlsxRows", () => {
  const table = [
    ["channel", "marca", "yearMonthDay"],
    ["FSS", "Marca Z", "2026-03-01"],
  ];

  it("reads the first worksheet with its row numbers", async () => {
    expect(await readAll(await xlsxBuffer(table))).toEqual([
      { line: 1, cells: table[0] },
      { line: 2, cells: table[1] },
    ]);
  });

  // Writers do not agree on entry order; exceljs itself may put the shared strings before the sheet
  // and the workbook part last, which makes its streaming reader parse the sheet before the workbook.
  it("reads a workbook whose shared strings come before the sheet and the workbook part last", async () => {
    const reordered = await reorderEntries(await xlsxBuffer(table), [
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/_rels/workbook.xml.rels",
      "xl/sharedStrings.xml",
      "xl/styles.xml",
      "xl/worksheets/sheet1.xml",
    ]);
    expect(await readAll(reordered)).toEqual([
      { line: 1, cells: table[0] },
      { line: 2, cells: table[1] },
    ]);
  });
});
