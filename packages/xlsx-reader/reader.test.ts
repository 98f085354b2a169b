import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { readXlsxRows, type SourceRow } from "./index";
import { readXlsxRowsExceljs } from "./test-support/exceljs-reader";
import { zipOf } from "./test-support/zip-bombs";

/**
 * The reader against the exceljs-based one it replaced (kept in test-support/exceljs-reader.ts as the
 * reference): the same rows, cell for cell and type for type, on files exceljs writes, on hand-written parts that
 * reach each branch of the format, and on every .xlsx under the portal's test/fixtures.
 */

type Read = (source: Readable) => AsyncGenerator<SourceRow>;

/** Rows with each cell tagged by its type, so that 1 and "1", a Date and its time, NaN and NaN compare as meant. */
async function rowsOf(read: Read, file: Buffer): Promise<unknown> {
  const rows: unknown[] = [];
  try {
    for await (const row of read(Readable.from([file]))) {
      rows.push({
        line: Number.isNaN(row.line) ? "NaN" : row.line,
        cells: row.cells.map((cell) =>
          cell instanceof Date
            ? `date:${cell.getTime()}`
            : typeof cell === "number"
              ? `number:${cell}`
              : cell === null || cell === undefined
                ? null
                : `${typeof cell}:${cell}`,
        ),
      });
    }
  } catch (error) {
    return { rows, error: (error as Error).name };
  }
  return rows;
}

/**
 * The rows of both readers, expected equal. exceljs decodes each inflated chunk of a part on its own (16 KB from its
 * unzipper), so a character of several bytes cut by a chunk's end reads as "\uFFFD\uFFFD"; the new reader decodes
 * the part as a whole. With `cutCharacters`, those cells, and only those, may differ (and must be whole here).
 */
async function expectSameRows(file: Buffer, options: { cutCharacters?: boolean } = {}) {
  const reference = (await rowsOf(readXlsxRowsExceljs, file)) as { line: unknown; cells: unknown[] }[];
  const rows = (await rowsOf(readXlsxRows, file)) as { line: unknown; cells: unknown[] }[];
  let cut = 0;
  if (options.cutCharacters && Array.isArray(reference) && Array.isArray(rows) && rows.length === reference.length)
    reference.forEach((row, i) => {
      row.cells.forEach((cell, j) => {
        const mine = rows[i].cells[j];
        if (
          typeof cell === "string" &&
          cell.includes("\uFFFD") &&
          typeof mine === "string" &&
          !mine.includes("\uFFFD")
        ) {
          expect(mine.length).toBe(cell.length - 1); // two bytes of one character, each read as U+FFFD
          row.cells[j] = mine;
          cut++;
        }
      });
    });
  // exceljs read a formula showing 0, "" or an error, or not calculated, as "[object Object]"; the new reader reads
  // what the spreadsheet shows (the cached value, or an empty cell). Those cells, and only those, may differ.
  let formulas = 0;
  if (Array.isArray(reference) && Array.isArray(rows) && rows.length === reference.length)
    reference.forEach((row, i) => {
      row.cells.forEach((cell, j) => {
        if (cell === "string:[object Object]" && rows[i].cells[j] !== cell) {
          row.cells[j] = rows[i].cells[j] ?? null;
          formulas++;
        }
      });
    });
  // An empty cell at a row's end is not a cell.
  if (Array.isArray(reference) && Array.isArray(rows) && rows.length === reference.length)
    reference.forEach((row, i) => {
      while (row.cells.length > rows[i].cells.length && row.cells[row.cells.length - 1] === null) row.cells.pop();
    });
  expect(rows).toEqual(reference);
  return { rows, cut, formulas };
}

/** A workbook written by exceljs's streaming writer, as the portal's exports are, with every kind of cell. */
async function writtenByExceljs(options: { sharedStrings: boolean; streaming?: boolean }): Promise<Buffer> {
  const fill = (workbook: ExcelJS.Workbook | ExcelJS.stream.xlsx.WorkbookWriter) => {
    const sheet = workbook.addWorksheet("Planejamento");
    sheet.columns = [
      { key: "text", width: 20 },
      { key: "int", width: 10, style: { numFmt: "#,##0" } },
      { key: "dec", width: 10, style: { numFmt: "#,##0.00" } },
      { key: "date", width: 12, style: { numFmt: "dd/mm/yyyy" } },
      { key: "time", width: 18, style: { numFmt: "dd/mm/yyyy hh:mm:ss" } },
      { key: "hidden", hidden: true },
      { key: "other" },
      { key: "last" },
    ];
    const texts = [
      "simples",
      "  espaços  ",
      "ação <b> & \"aspas\" 'apóstrofo'",
      "&amp;lt; já escapado",
      "_x0041_ escape",
      "linha\nquebrada",
      "emoji 🚀 e ção",
      "=não é fórmula",
      "",
      "x".repeat(5000),
    ];
    sheet.addRow(["Título", "Inteiro", "Decimal", "Data", "Data e hora", "Oculta", "Outra", "Última"]);
    for (let i = 0; i < 300; i++) {
      const row: ExcelJS.CellValue[] = [
        texts[i % texts.length],
        i * 1000 - 5,
        i / 7,
        new Date(Date.UTC(2020, i % 12, (i % 28) + 1)),
        new Date(Date.UTC(1900, 0, 1 + i, 13, 30, 15)),
        i % 3 === 0 ? null : `oculta ${i}`,
      ];
      switch (i % 9) {
        case 0:
          row.push(true, false);
          break;
        case 1:
          row.push({ formula: "B2*2", result: 42 });
          break;
        case 2:
          row.push({ formula: 'A2&"x"', result: "texto & <fórmula>" });
          break;
        case 3:
          row.push({ richText: [{ text: "rico " }, { font: { bold: true }, text: "negrito & <tag>" }] });
          break;
        case 4:
          row.push({ error: "#N/A" });
          break;
        case 5:
          row.push(null, null, 7);
          break;
        case 6:
          row.push({ text: "link", hyperlink: "https://example.com" });
          break;
        case 7:
          row.push(Number.MAX_SAFE_INTEGER, -0.000001);
          break;
        default:
          break;
      }
      const added = sheet.addRow(row);
      if (i % 50 === 7) sheet.addRow([]); // an empty row
      if (i === 10) added.getCell(8).value = new Date(Date.UTC(1900, 1, 28)); // around the 1900 leap-year bug
      if (i === 11) added.getCell(8).value = new Date(Date.UTC(1900, 2, 1));
      if ("commit" in added && typeof added.commit === "function" && i % 100 === 0) added.commit();
    }
    const second = workbook.addWorksheet("Segunda");
    second.addRow(["não", "é", "lida"]);
    return [sheet, second];
  };
  if (options.streaming === false) {
    const workbook = new ExcelJS.Workbook();
    fill(workbook);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useSharedStrings: options.sharedStrings,
    useStyles: true,
  });
  for (const sheet of fill(writer)) (sheet as unknown as { commit(): void }).commit();
  await writer.commit();
  return Buffer.concat(chunks);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const NS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
// cellXfs: 0 General, 1 built-in date 14, 2 custom date, 3 custom number with quotes and brackets, 4 date-time 22,
// 5 [h]:mm (a duration: a date for exceljs), 6 "\s"-escaped text, 7 built-in 46, 8 custom number 164 missing
const STYLES = `<?xml version="1.0" encoding="UTF-8"?><styleSheet ${NS}><numFmts count="4"><numFmt numFmtId="165" formatCode="dd/mm/yyyy;@"/><numFmt numFmtId="166" formatCode="[Red]#,##0.00&quot;dias&quot;"/><numFmt numFmtId="167" formatCode="[h]:mm"/><numFmt numFmtId="168" formatCode="0.00\\s"/></numFmts><fonts count="1"><font><sz val="11"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="14" fontId="0"/></cellStyleXfs><cellXfs count="9"><xf numFmtId="0" fontId="0" xfId="0"/><xf numFmtId="14" fontId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" xfId="0"/><xf numFmtId="166" fontId="0" xfId="0"/><xf numFmtId="22" fontId="0" xfId="0"/><xf numFmtId="167" fontId="0" xfId="0"/><xf numFmtId="168" fontId="0" xfId="0"/><xf numFmtId="46" fontId="0" xfId="0"/><xf numFmtId="164" fontId="0" xfId="0"/></cellXfs></styleSheet>`;
const SHARED = `<?xml version="1.0" encoding="UTF-8"?>
<sst ${NS} count="8" uniqueCount="8">
  <si><t>plain</t></si>
  <si><t xml:space="preserve">  spaced &amp; &lt;escaped&gt; &#233;&#xE7; </t></si>
  <si><r><t>rich </t></r><r><rPr><b/><sz val="11"/></rPr><t xml:space="preserve">runs</t></r></si>
  <si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si>
  <si><t/></si>
  <si><r><t/></r></si>
  <si><t>linha1&#13;
linha2</t></si>
  <si><t>&amp;lt;double&amp;gt; _x0041_</t></si>
</sst>`;

function sheetXml(rows: string, before = "", after = ""): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><dimension ref="A1:Z99"/>${before}<sheetData>${rows}</sheetData>${after}</worksheet>`;
}

function handWritten(options: {
  sheet: string;
  sheet2?: string;
  date1904?: boolean;
  shared?: string;
}): Promise<Buffer> {
  const workbook = `<?xml version="1.0" encoding="UTF-8"?><workbook ${NS}>${options.date1904 ? '<workbookPr date1904="1"/>' : "<workbookPr/>"}<sheets><sheet name="Um" sheetId="1" r:id="rId1"/><sheet name="Dois" sheetId="2" r:id="rId2"/></sheets></workbook>`;
  return zipOf([
    { name: "[Content_Types].xml", bytes: Buffer.from(CONTENT_TYPES) },
    { name: "_rels/.rels", bytes: Buffer.from(ROOT_RELS) },
    { name: "xl/workbook.xml", bytes: Buffer.from(workbook) },
    { name: "xl/_rels/workbook.xml.rels", bytes: Buffer.from(WORKBOOK_RELS) },
    { name: "xl/styles.xml", bytes: Buffer.from(STYLES) },
    { name: "xl/sharedStrings.xml", bytes: Buffer.from(options.shared ?? SHARED) },
    { name: "xl/worksheets/sheet1.xml", bytes: Buffer.from(options.sheet) },
    {
      name: "xl/worksheets/sheet2.xml",
      bytes: Buffer.from(options.sheet2 ?? sheetXml('<row r="1"><c r="A1"><v>2</v></c></row>')),
    },
  ]);
}

const EVERY_CELL = [
  // shared strings: plain, spaced with entities, rich, phonetic, empty, empty rich, CR/LF, double-escaped; out of range
  `<row r="1" spans="1:10">${[0, 1, 2, 3, 4, 5, 6, 7, 99].map((i, c) => `<c r="${String.fromCharCode(65 + c)}1" t="s"><v>${i}</v></c>`).join("")}</row>`,
  // numbers in each style: general, date 14, custom date, custom number, date-time, [h]:mm, \s, 46, missing 164
  `<row r="2">${[0, 1, 2, 3, 4, 5, 6, 7, 8].map((s, c) => `<c r="${String.fromCharCode(65 + c)}2" s="${s}"><v>45292.5</v></c>`).join("")}</row>`,
  // the 1900 leap-year bug and small serials
  `<row r="3"><c r="A3" s="1"><v>59</v></c><c r="B3" s="1"><v>60</v></c><c r="C3" s="1"><v>61</v></c><c r="D3" s="1"><v>0</v></c><c r="E3" s="1"><v>1</v></c><c r="F3" s="4"><v>0.999999</v></c><c r="G3" s="1"><v>-1</v></c></row>`,
  // inline strings (plain, rich: exceljs keeps the last run), str formulas, double-escaped entities, booleans, errors
  `<row r="5"><c r="A5" t="inlineStr"><is><t>inline &amp;amp; &lt;x&gt;</t></is></c><c r="B5" t="inlineStr"><is><r><t>um </t></r><r><rPr><b/></rPr><t>dois</t></r></is></c><c r="C5" t="str"><f>A5&amp;"!"</f><v>inline &amp;lt;!&amp;gt; &amp;foo;</v></c><c r="D5" t="b"><v>1</v></c><c r="E5" t="b"><v>0</v></c><c r="F5" t="e"><v>#DIV/0!</v></c><c r="G5" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="H5" t="b"><f>TRUE()</f><v>1</v></c></row>`,
  // formulas: cached number, with a date style, without a cached value, shared formula children with and without one
  `<row r="6"><c r="A6"><f>1+1</f><v>2</v></c><c r="B6" s="1"><f>TODAY()</f><v>45000</v></c><c r="C6"><f>1+2</f></c><c r="D6"><f t="shared" ref="D6:F6" si="0">A6*2</f><v>4</v></c><c r="E6"><f t="shared" si="0"/><v>6</v></c><c r="F6"><f t="shared" si="0"/></c></row>`,
  // empty and odd cells: no value, empty <v/>, a style only, a number with spaces, scientific notation, a "d" cell
  `<row r="7"><c r="A7" s="1"/><c r="B7"><v/></c><c r="C7" s="2"><v></v></c><c r="D7"><v> 12 </v></c><c r="E7"><v>1.5E+3</v></c><c r="F7" t="d"><v>2024-01-31T00:00:00</v></c><c r="G7" t="b"><v/></c><c r="H7" t="s"><v/></c><c r="J7" t="inlineStr"/></row>`,
  // a row style that is a date: cells without their own style inherit it
  `<row r="8" s="1" customFormat="1"><c r="A8"><v>45000</v></c><c r="B8" s="3"><v>45000</v></c><c r="C8" s="0"><v>45000</v></c><c r="D8" t="s"><v>0</v></c></row>`,
  // empty rows, self-closing and not; a row out of order; a gap of columns; cells out of order and repeated
  `<row r="9"/><row r="10" spans="1:3"></row><row r="4"><c r="C4"><v>3</v></c></row><row r="11"><c r="Z11"><v>26</v></c><c r="B11"><v>2</v></c><c r="B11" t="inlineStr"><is><t>again</t></is></c></row>`,
  // pretty-printed cells: whitespace around values, CR/LF, comments, CDATA (dropped by exceljs), entities
  `<row r="12">
    <c r="A12" t="inlineStr">
      <is>
        <t xml:space="preserve"> a\r\nb &#x1F600; &#65; </t>
      </is>
    </c>
    <!-- a comment <c r="B12"><v>9</v></c> -->
    <c r="C12"><v>1<!-- x -->2</v></c>
    <c r="D12" t="str"><v><![CDATA[cdata]]>after</v></c>
    <c r="E12" t='inlineStr'><is><t>single 'quotes' "x"</t></is></c>
  </row>`,
  // attributes in another order, with a namespace prefix beside them
  `<row r="13" x14ac:dyDescent="0.25" ht="15"><c s="1" t="n" r="A13"><v>44000</v></c><c t="s" r="B13"><v>2</v></c><c r="C13" t="inlineStr" s="1"><is><t>texto</t></is></c></row>`,
].join("");

describe("readXlsxRows gives exceljs's rows", () => {
  it("on the portal's exports (exceljs's streaming writer, shared strings off)", async () => {
    const { rows } = await expectSameRows(await writtenByExceljs({ sharedStrings: false }));
    expect(rows.length).toBeGreaterThan(300);
  });

  it("with shared strings on, as Excel and LibreOffice write", async () => {
    await expectSameRows(await writtenByExceljs({ sharedStrings: true }));
  });

  it("on a workbook written whole by exceljs (its parts in another order)", async () => {
    await expectSameRows(await writtenByExceljs({ sharedStrings: true, streaming: false }));
  });

  it("on every kind of cell, style, string and row the format has", async () => {
    const { rows, formulas } = await expectSameRows(await handWritten({ sheet: sheetXml(EVERY_CELL) }));
    expect(rows.length).toBe(13);
    // A formula showing an error reads as the error; one never calculated, or a shared child without a value, empty.
    expect(formulas).toBe(3);
    const byLine = new Map((rows as { line: number; cells: unknown[] }[]).map((r) => [r.line, r.cells]));
    expect(byLine.get(5)?.[6]).toBe("string:#DIV/0!");
    expect(byLine.get(6)?.[2]).toBeNull();
    expect(byLine.get(6)?.[5] ?? null).toBeNull();
  });

  it("reads a formula showing 0 or an empty text as 0 and as an empty text", async () => {
    const sheet = sheetXml(
      '<row r="1"><c r="A1"><f>A2*0</f><v>0</v></c><c r="B1" t="str"><f>""</f><v></v></c><c r="C1"><f>1+1</f><v>2</v></c></row>',
    );
    const { rows } = await expectSameRows(await handWritten({ sheet }));
    expect(rows).toEqual([{ line: 1, cells: ["number:0", "string:", "number:2"] }]);
  });

  it("with the 1904 date system", async () => {
    await expectSameRows(await handWritten({ sheet: sheetXml(EVERY_CELL), date1904: true }));
  });

  it("reading only the first sheet, past the columns' and other parts before and after sheetData", async () => {
    const sheet = sheetXml(
      '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
      '<sheetViews><sheetView workbookViewId="0"/></sheetViews><cols><col min="1" max="1" width="9" hidden="1" style="1"/></cols>',
      '<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells><rowBreaks count="1"><brk id="1"/></rowBreaks>',
    );
    await expectSameRows(await handWritten({ sheet }));
  });

  it("on a sheet with no rows", async () => {
    await expectSameRows(await handWritten({ sheet: sheetXml("").replace("<sheetData></sheetData>", "<sheetData/>") }));
    await expectSameRows(await handWritten({ sheet: sheetXml("") }));
  });

  it("on a large sheet, read across many inflated chunks (accents cut by a chunk's end read whole)", async () => {
    const rows = Array.from(
      { length: 20_000 },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>ção ${i}</t></is></c><c r="B${i + 1}" s="1"><v>${40000 + i}</v></c><c r="C${i + 1}" t="s"><v>${i % 8}</v></c></row>`,
    ).join("");
    const { rows: read, cut } = await expectSameRows(await handWritten({ sheet: sheetXml(rows) }), {
      cutCharacters: true,
    });
    expect(cut).toBeGreaterThan(0); // exceljs cut some "ç" in two; they read whole now
    expect(read).toHaveLength(20_000);
    expect(read[19_999]).toEqual({
      line: 20_000,
      cells: ["string:ção 19999", `date:${Date.UTC(2064, 3, 7)}`, "string:&lt;double&gt; _x0041_"],
    });
  });

  const fixtures = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? fixtures(file) : name.endsWith(".xlsx") ? [file] : [];
    });
  const root = fileURLToPath(new URL("../../test/fixtures", import.meta.url));
  const files = fixtures(root);
  it("finds the fixtures", () => expect(files.length).toBeGreaterThan(0));
  for (const file of files) {
    it(`on ${path.relative(root, file)}`, async () => {
      await expectSameRows(readFileSync(file));
    });
  }

  it("refuses what is not an XLSX as unreadable", async () => {
    await expect(rowsOf(readXlsxRows, Buffer.from("a;b\n1;2\n"))).resolves.toMatchObject({
      error: "UnreadableFileError",
    });
  });
});
