import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FileRefusedError, type ReadStats, readXlsxRows, type SourceRow, XLSX_LIMITS, type XlsxLimits } from "./index";
import { type BombEntry, SHEET_CLOSE, SHEET_OPEN, xlsxBomb, zipOf } from "./test-support/zip-bombs";

/**
 * Files made to cost the reader more than their size: long runs of markup before the rows, parts past their own
 * caps, packages with too many, repeated or overlapping entries, rows that hide their count. Each is read within
 * bounded work (the characters the reader scans stay proportional to what it inflates) or refused naming its cap.
 */

const MB = 1024 * 1024;

async function rowsOf(file: Buffer, limits: XlsxLimits = XLSX_LIMITS, options = {}): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of readXlsxRows(Readable.from([file]), limits, options)) rows.push(row);
  return rows;
}

const newStats = (): ReadStats => ({ inflatedBytes: 0, scannedChars: 0, longestCarry: 0 });

/** `text` repeated to about `bytes` bytes (whole copies only: markup is never cut). */
const block = (text: string, bytes = MB) => Buffer.from(text.repeat(Math.floor(bytes / text.length)));

const ONE_ROW = '<row r="1"><c r="A1" t="inlineStr"><is><t>ok</t></is></c></row>';

/** A sheet whose rows come after `megabytes` MB of `filler` markup, placed `where` (before or inside sheetData). */
function prefixed(filler: string, megabytes: number, where: "before-sheetData" | "before-first-row"): BombEntry {
  const head = SHEET_OPEN.replace("<sheetData>", "");
  return where === "before-sheetData"
    ? {
        name: "",
        prefix: `${head}<cols>`,
        repeat: block(filler),
        times: megabytes,
        suffix: `</cols><sheetData>${ONE_ROW}</sheetData></worksheet>`,
      }
    : { name: "", prefix: SHEET_OPEN, repeat: block(filler), times: megabytes, suffix: `${ONE_ROW}${SHEET_CLOSE}` };
}

describe("readXlsxRows: work proportional to the inflated size", () => {
  for (const where of ["before-sheetData", "before-first-row"] as const) {
    it(`reads a sheet with 48 MB of markup ${where.replaceAll("-", " ")}, each character scanned once`, async () => {
      const file = await xlsxBomb({ sheetRows: prefixed('<col min="1" max="1" width="9"/>', 48, where) });
      expect(file.length).toBeLessThan(MB); // a few hundred KB that inflate to 48 MB
      const stats = newStats();
      expect(await rowsOf(file, XLSX_LIMITS, { stats })).toEqual([{ line: 1, cells: ["ok"] }]);
      expect(stats.inflatedBytes).toBeGreaterThan(48 * MB);
      // Only the token a chunk cut is kept and scanned again: never the prefix read so far.
      expect(stats.scannedChars).toBeLessThan(stats.inflatedBytes * 1.01);
      expect(stats.longestCarry).toBeLessThan(1024);
    });
  }

  it("reads one row of 32 MB of cells without scanning it again chunk after chunk", async () => {
    const file = await xlsxBomb({
      sheetRows: {
        name: "",
        prefix: `${SHEET_OPEN}<row r="1">`,
        repeat: block('<c r="A1"><v>1</v></c>'),
        times: 32,
        suffix: `</row>${SHEET_CLOSE}`,
      },
    });
    const stats = newStats();
    expect(await rowsOf(file, XLSX_LIMITS, { stats })).toEqual([{ line: 1, cells: [1] }]);
    expect(stats.scannedChars).toBeLessThan(stats.inflatedBytes * 1.01);
  });

  it("scans a tag just under the token cap a few times, not once per piece of text it spans", async () => {
    const tag = `<col min="1" max="1" style="${"s".repeat(900 * 1024)}"/>`;
    const file = await xlsxBomb({
      sheetRows: {
        name: "",
        prefix: `${SHEET_OPEN.replace("<sheetData>", "")}<cols>`,
        repeat: Buffer.from(tag),
        times: 20,
        suffix: `</cols><sheetData>${ONE_ROW}</sheetData></worksheet>`,
      },
    });
    const stats = newStats();
    expect(await rowsOf(file, XLSX_LIMITS, { stats })).toEqual([{ line: 1, cells: ["ok"] }]);
    expect(stats.longestCarry).toBeGreaterThan(800 * 1024);
    expect(stats.scannedChars).toBeLessThan(stats.inflatedBytes * 4);
  });

  it("reads a number format of 300 KB of unclosed brackets (a pattern tried each one to the end)", async () => {
    const format = `<numFmts count="1"><numFmt numFmtId="170" formatCode="${"[".repeat(300_000)}yyyy"/></numFmts>`;
    const styles = `<styleSheet>${format}<cellXfs><xf numFmtId="0"/><xf numFmtId="170"/></cellXfs></styleSheet>`;
    const file = await xlsxBomb({
      extra: [{ name: "xl/styles.xml", bytes: Buffer.from(styles) }],
      sheetRows: {
        name: "",
        bytes: Buffer.from(`${SHEET_OPEN}<row r="1"><c r="A1" s="1"><v>45292</v></c></row>${SHEET_CLOSE}`),
      },
    });
    expect(await rowsOf(file)).toEqual([{ line: 1, cells: [new Date(Date.UTC(2024, 0, 1))] }]);
  });

  it("stops between two inflated chunks when its signal is aborted, with the signal's reason", async () => {
    const file = await xlsxBomb({ sheetRows: prefixed("<x/>", 32, "before-first-row") });
    const stop = new AbortController();
    const stats = newStats();
    const reading = rowsOf(file, XLSX_LIMITS, { signal: stop.signal, stats });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort(new Error("job given up"));
    await expect(reading).rejects.toThrow("job given up");
    expect(stats.inflatedBytes).toBeLessThan(32 * MB);
  });

  it("reads a package spooled to a temporary file as it reads one in memory", async () => {
    const file = await xlsxBomb({
      sheetRows: {
        name: "",
        prefix: SHEET_OPEN,
        repeat: Buffer.from(Array.from({ length: 100 }, (_, i) => `<row><c r="A1"><v>${i}</v></c></row>`).join("")),
        times: 50,
        suffix: SHEET_CLOSE,
      },
    });
    const inMemory = await rowsOf(file);
    expect(inMemory).toHaveLength(5_000);
    expect(await rowsOf(file, XLSX_LIMITS, { spoolFromBytes: 1024 })).toEqual(inMemory);
  });
});

describe("readXlsxRows: every part within its own cap", () => {
  it("refuses styles.xml past its cap, naming it", async () => {
    const file = await xlsxBomb({
      extra: [
        {
          name: "xl/styles.xml",
          prefix: '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>',
          repeat: block('<xf numFmtId="14"/>'),
          times: 9,
          suffix: "</cellXfs></styleSheet>",
        },
      ],
    });
    await expect(rowsOf(file)).rejects.toThrow(FileRefusedError);
    await expect(rowsOf(file)).rejects.toThrow(
      "Arquivo recusado: os estilos da planilha (styles.xml) passam de 8 MB descompactados.",
    );
  });

  it("refuses workbook.xml and its relationships past their caps, naming them", async () => {
    const parts = (workbook: BombEntry, rels: BombEntry) =>
      zipOf([
        workbook,
        rels,
        { name: "xl/worksheets/sheet1.xml", bytes: Buffer.from(`${SHEET_OPEN}${ONE_ROW}${SHEET_CLOSE}`) },
      ]);
    const big = (name: string, open: string, tag: string, close: string, megabytes: number): BombEntry => ({
      name,
      prefix: open,
      repeat: block(tag),
      times: megabytes,
      suffix: close,
    });
    const small = (name: string, xml: string): BombEntry => ({ name, bytes: Buffer.from(xml) });
    const workbook = big(
      "xl/workbook.xml",
      "<workbook><definedNames>",
      '<definedName name="a">A1</definedName>',
      "</definedNames></workbook>",
      5,
    );
    const rels = big(
      "xl/_rels/workbook.xml.rels",
      "<Relationships>",
      '<Relationship Id="x" Target="y"/>',
      "</Relationships>",
      3,
    );
    await expect(
      rowsOf(await parts(workbook, small("xl/_rels/workbook.xml.rels", "<Relationships/>"))),
    ).rejects.toThrow("Arquivo recusado: a descrição da pasta de trabalho (workbook.xml) passa de 4 MB descompactada.");
    await expect(rowsOf(await parts(small("xl/workbook.xml", "<workbook/>"), rels))).rejects.toThrow(
      "Arquivo recusado: as relações da pasta de trabalho (workbook.xml.rels) passam de 2 MB descompactadas.",
    );
  });

  it("counts the cells a row spreads to: rows of one far cell, repeated, are refused, not padded on", async () => {
    const file = await xlsxBomb({
      sheetRows: {
        name: "",
        prefix: SHEET_OPEN,
        repeat: block('<row><c r="XFD1"><v>1</v></c></row>'),
        times: 2,
        suffix: SHEET_CLOSE,
      },
    });
    await expect(rowsOf(file, { ...XLSX_LIMITS, cells: 10_000_000 })).rejects.toThrow(
      "Arquivo recusado: a planilha passa de 10.000.000 células " +
        "(as vazias antes do último valor de cada linha contam).",
    );
  });
});

describe("readXlsxRows: the package's entries", () => {
  it("refuses a package of more entries than the cap", async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ name: `xl/media/p${i}.bin`, bytes: Buffer.from("x") }));
    await expect(rowsOf(await xlsxBomb({ extra: many }))).rejects.toThrow(
      "Arquivo recusado: o pacote XLSX passa de 10.000 partes (entradas ZIP).",
    );
  });

  it("refuses two entries of the same name", async () => {
    const styles = { name: "xl/styles.xml", bytes: Buffer.from("<styleSheet/>") };
    await expect(rowsOf(await xlsxBomb({ extra: [styles, styles] }))).rejects.toThrow(
      "Arquivo recusado: o pacote XLSX tem duas partes (entradas ZIP) com o mesmo nome.",
    );
  });

  it("refuses entries whose bytes overlap", async () => {
    await expect(rowsOf(overlapping())).rejects.toThrow(
      "Arquivo recusado: o pacote XLSX tem partes (entradas ZIP) que ocupam os mesmos bytes.",
    );
  });
});

describe("readXlsxRows: rows are counted, whatever their r says", () => {
  const sheet = (rows: string) =>
    xlsxBomb({ sheetRows: { name: "", bytes: Buffer.from(`${SHEET_OPEN}${rows}${SHEET_CLOSE}`) } });
  const fifty = (r: (i: number) => string) =>
    Array.from({ length: 50 }, (_, i) => `<row${r(i)}><c r="A${i + 1}"><v>1</v></c></row>`).join("");

  it("refuses rows without r past the row cap", async () => {
    await expect(rowsOf(await sheet(fifty(() => "")), { ...XLSX_LIMITS, rows: 20 })).rejects.toThrow(
      "Arquivo recusado: a planilha passa de 20 linhas.",
    );
  });

  it("refuses rows repeating one r past the row cap", async () => {
    await expect(rowsOf(await sheet(fifty(() => ' r="1"')), { ...XLSX_LIMITS, rows: 20 })).rejects.toThrow(
      "Arquivo recusado: a planilha passa de 20 linhas.",
    );
  });

  it("numbers a row without r after the row before it", async () => {
    const rows = await rowsOf(await sheet(fifty((i) => (i === 0 ? ' r="7"' : ""))));
    expect(rows.map((row) => row.line)).toEqual(Array.from({ length: 50 }, (_, i) => 7 + i));
  });
});

/**
 * A package whose sheet part's stored bytes hold a whole second entry, header and data, that the directory lists
 * too: two readers of the same file could each read a different sheet.
 */
function overlapping(): Buffer {
  const local = (name: string, data: Buffer) => {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(crc32(data) >>> 0, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    return Buffer.concat([header, Buffer.from(name), data]);
  };
  const central = (name: string, data: Buffer, offset: number) => {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt32LE(crc32(data) >>> 0, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(Buffer.byteLength(name), 28);
    header.writeUInt32LE(offset, 42);
    return Buffer.concat([header, Buffer.from(name)]);
  };
  const inner = Buffer.from(`${SHEET_OPEN}<row r="1"><c r="A1"><v>2</v></c></row>${SHEET_CLOSE}`);
  const innerEntry = local("xl/worksheets/sheet2.xml", inner);
  const outer = Buffer.concat([
    Buffer.from(`${SHEET_OPEN}${ONE_ROW}${SHEET_CLOSE}<!--`),
    innerEntry,
    Buffer.from("-->"),
  ]);
  const outerName = "xl/worksheets/sheet1.xml";
  const outerEntry = local(outerName, outer);
  const innerOffset = 30 + outerName.length + outer.indexOf(innerEntry);
  const directory = Buffer.concat([
    central(outerName, outer, 0),
    central("xl/worksheets/sheet2.xml", inner, innerOffset),
  ]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(2, 8);
  end.writeUInt16LE(2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(outerEntry.length, 16);
  return Buffer.concat([outerEntry, directory, end]);
}
