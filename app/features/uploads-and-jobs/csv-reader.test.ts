import { isUtf8 } from "node:buffer";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { type SourceRow, UnreadableFileError } from "xlsx-reader";
import { type CsvRecord, CsvRecordParser, CsvSyntaxError, MAX_RECORD_CHARS } from "~/platform/import/csv";
import { readCsvBatches, sniffDelimiter } from "~/platform/import/readers.server";
import { Random } from "~/seed/random";

/**
 * The worker's CSV reader against csv-parse, which it replaced: same records and cells on generated
 * and tricky inputs (chunked at random places, in every encoding the reader accepts), the same inputs
 * refused, and physical line numbers.
 */

type Parsed = { ok: true; rows: Array<{ line: number; cells: string[] }> } | { ok: false; message: string };

/** What the worker did before: encoding and delimiter from the first 64 KB, then csv-parse with its options. */
function csvParseReference(bytes: Buffer): Parsed {
  const head = bytes.subarray(0, 64 * 1024);
  const encoding = [0, 1, 2, 3].some((cut) => cut <= head.length && isUtf8(head.subarray(0, head.length - cut)))
    ? "utf8"
    : "latin1";
  const delimiter = sniffDelimiter(head.toString(encoding).split(/\r?\n/, 1)[0] ?? "");
  try {
    const records = parse(bytes, {
      delimiter,
      encoding,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as Array<{
      record: string[];
      info: { lines: number };
    }>;
    return { ok: true, rows: records.map((r) => ({ line: r.info.lines, cells: r.record })) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** The bytes cut at `cuts` random places, as a stream delivers them. */
function chunksOf(bytes: Buffer, random: Random, cuts: number): Buffer[] {
  const points = Array.from({ length: cuts }, () => random.int(0, bytes.length)).sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

async function readWithReader(chunks: Buffer[]): Promise<Parsed> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  try {
    for await (const batch of readCsvBatches(
      (async function* () {
        yield* chunks;
      })(),
    )) {
      for (const row of batch as SourceRow[]) rows.push({ line: row.line, cells: row.cells as string[] });
    }
    return { ok: true, rows };
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableFileError);
    return { ok: false, message: (error as Error).message };
  }
}

function parseText(text: string, delimiter: string, pieces: string[] = [text]): CsvRecord[] {
  const parser = new CsvRecordParser(delimiter);
  const out: CsvRecord[] = [];
  for (const piece of pieces) parser.push(piece, out);
  parser.end(out);
  return out;
}

const cellsOf = (p: Parsed) => (p.ok ? p.rows.map((r) => r.cells) : p.message);
const linesOf = (p: Parsed) => (p.ok ? p.rows.map((r) => r.line) : null);

function encode(text: string, encoding: "utf8" | "utf8-bom" | "latin1" | "utf16le-bom"): Buffer {
  switch (encoding) {
    case "utf8":
      return Buffer.from(text, "utf8");
    case "utf8-bom":
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
    case "latin1":
      return Buffer.from(text, "latin1");
    case "utf16le-bom":
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  }
}

describe("CSV reader: tricky inputs", () => {
  it("reads quoted fields with delimiters, doubled quotes and line breaks, numbering physical lines", () => {
    const text = 'sku;desc\r\nA1;"um; dois"\r\n"A2";"diz ""oi"""\r\nA3;"linha 1\r\nlinha 2\nlinha 3"\r\n\r\nA4;fim';
    expect(parseText(text, ";")).toEqual([
      { line: 1, cells: ["sku", "desc"] },
      { line: 2, cells: ["A1", "um; dois"] },
      { line: 3, cells: ["A2", 'diz "oi"'] },
      { line: 6, cells: ["A3", "linha 1\r\nlinha 2\nlinha 3"] },
      { line: 8, cells: ["A4", "fim"] },
    ]);
  });

  it("keeps csv-parse's record rules: first line break sets the delimiter, empty lines skipped, trailing delimiter kept", () => {
    // A `\n` file: a `\r` before a `\n` is field text, as csv-parse kept it.
    expect(parseText("a;b\nc;d\r\n\n;\n \ne;", ";")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["c", "d\r"] },
      { line: 4, cells: ["", ""] },
      { line: 5, cells: [" "] },
      { line: 6, cells: ["e", ""] },
    ]);
    // A `\r\n` file: a lone `\n` is field text, and still a physical line.
    expect(parseText("a,b\r\nc,d\ne,f\r\n", ",")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 3, cells: ["c", "d\ne", "f"] },
    ]);
    // An old Mac file.
    expect(parseText('x;y\r"1";2\r\r3;4', ";")).toEqual([
      { line: 1, cells: ["x", "y"] },
      { line: 2, cells: ["1", "2"] },
      { line: 4, cells: ["3", "4"] },
    ]);
    expect(parseText('""\n"";""', ";")).toEqual([
      { line: 1, cells: [""] },
      { line: 2, cells: ["", ""] },
    ]);
    expect(parseText("", ";")).toEqual([]);
    expect(parseText("\n\n", ";")).toEqual([]);
    expect(parseText("\r\n\r\n", ";")).toEqual([]);
    // In a `\n` file a line holding only `\r` is a record with that text, as in csv-parse (the worker skips it as blank).
    expect(parseText("\n\r\n", ";")).toEqual([{ line: 2, cells: ["\r"] }]);
  });

  it("gives the same records whatever the chunk boundaries, including between \\r and \\n and around quotes", () => {
    const text = 'h1;h2\r\n"a""b";"c\r\nd"\r\nx;"y"\r\n"z";\r\n';
    const whole = parseText(text, ";");
    for (let cut = 0; cut <= text.length; cut++) {
      expect(parseText(text, ";", [text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
    expect(parseText(text, ";", [...text])).toEqual(whole);
  });

  it("refuses malformed quoting with a Portuguese message naming the line", () => {
    const error = (text: string) => {
      try {
        parseText(text, ";");
      } catch (e) {
        expect(e).toBeInstanceOf(CsvSyntaxError);
        return (e as Error).message;
      }
      return null;
    };
    expect(error('a;b\nc;d"e\n')).toBe("aspas no meio de um campo sem aspas (linha 2, coluna 2)");
    expect(error('a;b\n"c"d;e\n')).toBe('caractere "d" depois das aspas que fecham um campo (linha 2, coluna 1)');
    expect(error('a;b\nc;"d\ne\n')).toBe("aspas abertas na linha 2 não foram fechadas até o fim do arquivo");
    expect(error('a;b\r\n"c"\nd\r\n')).toBe('caractere "\\n" depois das aspas que fecham um campo (linha 2, coluna 1)');
  });

  it("stops at a record longer than the limit instead of buffering the rest of the file", () => {
    const parser = new CsvRecordParser(";");
    const out: CsvRecord[] = [];
    parser.push('a;b\nc;"', out);
    const block = "x".repeat(64 * 1024);
    expect(() => {
      for (let i = 0; i <= MAX_RECORD_CHARS / block.length; i++) parser.push(block, out);
    }).toThrow(/linha 2 com mais de 1048576 caracteres/);
    expect(out).toEqual([{ line: 1, cells: ["a", "b"] }]);
  });
});

describe("CSV reader: encodings and delimiter", () => {
  const text = "sku;descrição\r\nA1;Café com açúcar\r\n";
  const expected = [
    { line: 1, cells: ["sku", "descrição"] },
    { line: 2, cells: ["A1", "Café com açúcar"] },
  ];

  it.each(["utf8", "utf8-bom", "latin1", "utf16le-bom"] as const)("reads %s, cut anywhere", async (encoding) => {
    const bytes = encode(text, encoding);
    const random = new Random(7, encoding);
    for (let i = 0; i < 20; i++) {
      const result = await readWithReader(chunksOf(bytes, random, random.int(1, 6)));
      expect(result).toEqual({ ok: true, rows: expected });
    }
    expect(await readWithReader([bytes])).toEqual(csvParseReference(bytes));
  });

  it("chooses , or ; by the header line and judges the encoding by the first 64 KB", async () => {
    expect(await readWithReader([Buffer.from("a,b;c,d\n1,2;3,4\n")])).toEqual({
      ok: true,
      rows: [
        { line: 1, cells: ["a", "b;c", "d"] },
        { line: 2, cells: ["1", "2;3", "4"] },
      ],
    });
    // Valid UTF-8 in the first 64 KB: a Latin-1 byte further on reads as U+FFFD, as before.
    const late = Buffer.concat([Buffer.from(`h;v\n${"x;y\n".repeat(20_000)}`), Buffer.from("z;\xe9\n", "latin1")]);
    const result = await readWithReader(chunksOf(late, new Random(3), 40));
    expect(result.ok && result.rows.at(-1)).toEqual({ line: 20_002, cells: ["z", "\ufffd"] });
    expect(result).toEqual(csvParseReference(late));
  });
});

describe("CSV reader: differential against csv-parse", () => {
  const BREAKS = { lf: ["\n"], crlf: ["\r\n"], cr: ["\r"], mixed: ["\n", "\r\n", "\r"] } as const;
  const ENCODINGS = ["utf8", "utf8-bom", "latin1", "utf16le-bom"] as const;

  function randomInput(random: Random, breaks: readonly string[]): string {
    const delimiter = random.pick([";", ","]);
    const tokens = [
      "a",
      "b",
      "7",
      " ",
      "é",
      "ç",
      delimiter,
      delimiter,
      random.pick([";", ","]),
      '"',
      '"',
      '""',
      ...breaks,
      ...breaks,
    ];
    if (random.chance(0.5)) tokens.push("😀");
    // A header with the delimiter so the sniffed delimiter is the one the body uses, most of the time.
    let text = random.chance(0.8) ? `h1${delimiter}h2${delimiter}h3${random.pick(breaks)}` : "";
    const length = random.int(0, 40);
    for (let i = 0; i < length; i++) text += random.pick(tokens);
    return text;
  }

  it.each(Object.keys(BREAKS) as Array<keyof typeof BREAKS>)(
    "matches csv-parse on generated inputs (%s line breaks)",
    async (kind) => {
      const random = new Random(20260415, kind);
      let refused = 0;
      for (let n = 0; n < 1500; n++) {
        const text = randomInput(random, BREAKS[kind]);
        const encoding = random.pick(ENCODINGS);
        if (encoding === "latin1" && /😀/.test(text)) continue;
        const bytes = encode(text, encoding);
        const reference = csvParseReference(bytes);
        const actual = await readWithReader(chunksOf(bytes, random, random.int(0, 5)));
        const context = `${JSON.stringify(text)} as ${encoding}`;
        expect(actual.ok, `${context}: ${JSON.stringify(reference)} vs ${JSON.stringify(actual)}`).toBe(reference.ok);
        if (!reference.ok) {
          refused++;
          expect(actual.ok ? "" : actual.message, context).toMatch(/^CSV inválido: /);
          continue;
        }
        expect(cellsOf(actual), context).toEqual(cellsOf(reference));
        if (kind === "mixed") {
          // Lines only grow, and never past the file's last line.
          const lines = linesOf(actual)!;
          const physical = 1 + text.split(/\r\n|\r|\n/).length - 1;
          lines.forEach((line, i) => {
            expect(line, context).toBeGreaterThanOrEqual(i > 0 ? lines[i - 1] : 1);
          });
          if (lines.length > 0) expect(lines.at(-1)!, context).toBeLessThanOrEqual(physical);
        } else {
          // csv-parse counts a `\r\n` inside quotes as two lines; with every `\r\n` written as `\n` its
          // numbers are the physical ones, and the records are the same.
          const singleCharBreaks = encode(text.replaceAll("\r\n", "\n"), encoding);
          expect(linesOf(actual), context).toEqual(linesOf(csvParseReference(singleCharBreaks)));
        }
      }
      // The generator reaches both outcomes.
      expect(refused).toBeGreaterThan(50);
      expect(refused).toBeLessThan(1400);
    },
  );

  it("reads generated tables back exactly, with the line each record ends on", () => {
    const random = new Random(99, "tables");
    const values = [
      "",
      " ",
      "a",
      "Produto 1",
      "x;y",
      "x,y",
      'diz "oi"',
      '"',
      "l1\nl2",
      "l1\r\nl2",
      "l1\rl2",
      "l2\n",
      "é😀",
      "  trailing  ",
    ];
    // Line breaks that are not the file's record delimiter may stand unquoted once the first record's end
    // (and the character after it) has set the delimiter: csv-parse kept them as text, and they are
    // physical lines all the same.
    const textBreaks = { "\n": ["\r"], "\r\n": ["\n", "\r"], "\r": ["\n"] } as const;
    for (let n = 0; n < 1500; n++) {
      const delimiter = random.pick([";", ","]);
      const rd = random.pick(["\n", "\r\n", "\r"] as const);
      const rows: string[][] = [];
      const rowCount = random.int(1, 8);
      for (let r = 0; r < rowCount; r++) rows.push(Array.from({ length: random.int(1, 5) }, () => random.pick(values)));
      let text = "";
      const ends: Array<{ at: number; delimited: boolean }> = [];
      rows.forEach((cells, r) => {
        if (r > 0 && random.chance(0.2)) text += rd; // an empty line
        text += cells
          .map((cell, c) => {
            const mustQuote = /[;,"\r\n]/.test(cell) || (cells.length === 1 && cell === "");
            if (mustQuote || random.chance(0.3)) return `"${cell.replaceAll('"', '""')}"`;
            if (r > 1 && random.chance(0.2)) {
              const extra = random.pick(textBreaks[rd]);
              cells[c] = random.chance(0.5) ? `${cell}${extra}` : `${extra}${cell}`;
            }
            return cells[c];
          })
          .join(delimiter);
        const delimited = r < rows.length - 1 || random.chance(0.5);
        ends.push({ at: text.length, delimited });
        if (delimited) text += rd;
      });
      // The line a record ends on: 1 + the line breaks before its delimiter (at the end of the file: before
      // its last character, so a trailing break kept as text does not open a line of its own).
      const breaks = [...text.matchAll(/\r\n|\r|\n/g)].map((m) => m.index + m[0].length);
      const expected = rows.map((cells, r) => {
        const { at, delimited } = ends[r];
        return { line: 1 + breaks.filter((end) => (delimited ? end <= at : end < at)).length, cells };
      });
      const cuts = Array.from({ length: random.int(0, 4) }, () => random.int(0, text.length)).sort((a, b) => a - b);
      const pieces = [0, ...cuts].map((from, k) => text.slice(from, k < cuts.length ? cuts[k] : text.length));
      expect(parseText(text, delimiter, pieces), JSON.stringify(text)).toEqual(expected);
    }
  });
});
