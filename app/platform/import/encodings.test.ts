import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvEncodingOf, readCsvBatches } from "./readers.server";

/**
 * The encodings a CSV arrives in. Excel in Portuguese saves "CSV (separado por vírgulas)" in Windows-1252 without a
 * BOM, and autocorrect puts bytes 0x80–0x9F in it (en dash, curly quotes…), which Latin-1 would read as control
 * characters; "Texto Unicode" is UTF-16 LE with a BOM, tab-separated.
 */

/** The 27 characters Windows-1252 puts at 0x80–0x9F (0x81, 0x8D, 0x8F, 0x90 and 0x9D are undefined). */
const WINDOWS_1252_HIGH: ReadonlyArray<[byte: number, char: string]> = [
  [0x80, "€"],
  [0x82, "‚"],
  [0x83, "ƒ"],
  [0x84, "„"],
  [0x85, "…"],
  [0x86, "†"],
  [0x87, "‡"],
  [0x88, "ˆ"],
  [0x89, "‰"],
  [0x8a, "Š"],
  [0x8b, "‹"],
  [0x8c, "Œ"],
  [0x8e, "Ž"],
  [0x91, "‘"],
  [0x92, "’"],
  [0x93, "“"],
  [0x94, "”"],
  [0x95, "•"],
  [0x96, "–"],
  [0x97, "—"],
  [0x98, "˜"],
  [0x99, "™"],
  [0x9a, "š"],
  [0x9b, "›"],
  [0x9c, "œ"],
  [0x9e, "ž"],
  [0x9f, "Ÿ"],
];

async function rowsOf(bytes: Buffer, chunk = bytes.length): Promise<string[][]> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  const rows: string[][] = [];
  for await (const batch of readCsvBatches(Readable.from(chunks)))
    for (const row of batch) rows.push(row.cells.map(String));
  return rows;
}

describe("CSV encodings", () => {
  it.each(WINDOWS_1252_HIGH.map(([byte, char]) => [byte.toString(16), byte, char] as const))(
    "reads byte 0x%s of a Windows-1252 file as its character",
    async (_hex, byte, char) => {
      // "Comercial <byte> Sul;1.234,50" with "Área" (0xC1, a Latin-1 letter) before it: not valid UTF-8, no BOM.
      const bytes = Buffer.concat([
        Buffer.from("descr;valor\r\n\xc1rea ", "latin1"),
        Buffer.from([byte]),
        Buffer.from(" Sul;1.234,50\r\n", "latin1"),
      ]);
      expect(csvEncodingOf(bytes).encoding).toBe("windows-1252");
      expect(await rowsOf(bytes)).toEqual([
        ["descr", "valor"],
        [`Área ${char} Sul`, "1.234,50"],
      ]);
    },
  );

  it("reads every Windows-1252 character in one cell, whatever the chunks the file arrives in", async () => {
    const text = WINDOWS_1252_HIGH.map(([, char]) => char).join("");
    const bytes = Buffer.concat([
      Buffer.from("descr\n", "latin1"),
      Buffer.from(WINDOWS_1252_HIGH.map(([byte]) => byte)),
      Buffer.from(" S\xe3o Jo\xe3o\n", "latin1"),
    ]);
    for (const chunk of [1, 2, 7, bytes.length])
      expect(await rowsOf(bytes, chunk)).toEqual([["descr"], [`${text} São João`]]);
  });

  it("reads a UTF-8 file with or without a BOM, and UTF-16 LE with a BOM (Texto Unicode), tab-separated", async () => {
    const expected = [
      ["descr", "valor"],
      ["Comercial – Sul “A”", "1.234,50"],
    ];
    const utf8 = "descr;valor\nComercial – Sul “A”;1.234,50\n";
    expect(await rowsOf(Buffer.from(utf8))).toEqual(expected);
    expect(await rowsOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(utf8)]))).toEqual(expected);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("descr\tvalor\r\nComercial – Sul “A”\t1.234,50\r\n", "utf16le"),
    ]);
    expect(csvEncodingOf(utf16).encoding).toBe("utf-16le");
    for (const chunk of [1, 3, utf16.length]) expect(await rowsOf(utf16, chunk)).toEqual(expected);
  });
});
