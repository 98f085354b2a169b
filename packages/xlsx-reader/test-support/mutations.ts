import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { expect } from "vitest";
import { UnreadableFileError } from "../errors";
import type { SourceRow } from "../limits";

/**
 * Valid workbooks mutated at random (a fixed seed, so every run tries the same files): bytes of the package flipped,
 * cut or repeated, its directory's numbers changed, and the XML of its parts cut, spliced and sprinkled with markup.
 * The reader's fuzz test (fuzz.test.ts) reads them in process, the portal's (xlsx-thread.fuzz.test.ts) on the thread.
 */

/** How many mutated workbooks are read; every ON_THREAD_EVERY-th is read on the thread too (the portal's test). */
export const CASES = 320;
export const ON_THREAD_EVERY = 16;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function exceljsWorkbook(sharedStrings: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: sharedStrings, useStyles: true });
  const sheet = workbook.addWorksheet("Dados");
  sheet.columns = [
    { key: "a", width: 12 },
    { key: "b", width: 10, style: { numFmt: "#,##0.00" } },
    { key: "c", width: 12, style: { numFmt: "dd/mm/yyyy" } },
    { key: "d" },
  ];
  sheet.addRow(["Nome", "Valor", "Data", "Outro"]).commit();
  for (let i = 0; i < 40; i++)
    sheet
      .addRow([
        `linha ${i} ção & <x>`,
        i * 1.5,
        new Date(Date.UTC(2024, i % 12, 1)),
        i % 3 ? { formula: "B2*2", result: i } : true,
      ])
      .commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

const SPRINKLES = [
  "<",
  ">",
  "/>",
  "</row>",
  "<row>",
  '<row r="0">',
  '<c r="XFD1"><v>1</v></c>',
  '<c r="A1" t="s"><v>999999</v></c>',
  "<!--",
  "-->",
  "<![CDATA[",
  "]]>",
  "<?x",
  '"',
  "'",
  "&",
  "&#xD800;",
  "&#x110000;",
  "&#99999999999;",
  "&amp;lt;",
  "</sheetData>",
  "<sheetData>",
  "<sheetData/>",
  "\u0000",
  "\uFFFF",
  "é",
];

type Mutation = (bytes: Buffer, next: () => number) => Promise<Buffer>;

const pick = <T>(items: readonly T[], next: () => number) => items[Math.floor(next() * items.length)];
const at = (length: number, next: () => number) => Math.floor(next() * Math.max(1, length));

/** Bytes of the package flipped, cut, repeated or rewritten (the directory's and headers' numbers among them). */
const packageMutations: Mutation[] = [
  async (bytes, next) => {
    const out = Buffer.from(bytes);
    for (let n = 1 + at(16, next); n > 0; n--) out[at(out.length, next)] ^= 1 << at(8, next);
    return out;
  },
  async (bytes, next) => bytes.subarray(0, at(bytes.length, next)),
  async (bytes, next) => {
    const from = at(bytes.length, next);
    const piece = bytes.subarray(from, from + at(4096, next));
    const into = at(bytes.length, next);
    return Buffer.concat([bytes.subarray(0, into), piece, bytes.subarray(into)]);
  },
  async (bytes, next) => {
    // a 16- or 32-bit number of the end record or of the central directory, set to an edge value
    const out = Buffer.from(bytes);
    const directory = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const base = next() < 0.5 ? out.length - 22 : Math.max(0, directory);
    const where = base + at(46, next);
    const value = pick([0, 1, 0xffff, 0xffffffff, out.length, 0x7fffffff], next);
    if (where + 4 <= out.length) out.writeUInt32LE(value >>> 0, where);
    return out;
  },
];

/** The XML of one part cut, spliced or sprinkled with markup, the package written again. */
const xmlMutation: Mutation = async (bytes, next) => {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files).filter((name) => name.endsWith(".xml") || name.endsWith(".rels"));
  const name = pick(names, next);
  let xml = await zip.file(name)!.async("string");
  for (let n = 1 + at(6, next); n > 0; n--) {
    const where = at(xml.length, next);
    const choice = next();
    if (choice < 0.4) xml = xml.slice(0, where) + pick(SPRINKLES, next) + xml.slice(where);
    else if (choice < 0.6) xml = xml.slice(0, where) + xml.slice(where + at(200, next));
    else if (choice < 0.8)
      xml = xml.slice(0, where) + xml.slice(at(xml.length, next)).slice(0, 2000) + xml.slice(where);
    else xml = xml.slice(0, where);
  }
  zip.file(name, xml);
  if (next() < 0.2) zip.file(name.replace(/\.xml$/, "2.xml"), xml); // another part of a name the reader looks for
  return zip.generateAsync({
    type: "nodebuffer",
    compression: next() < 0.3 ? "STORE" : "DEFLATE",
    streamFiles: next() < 0.5,
  });
};

export type Outcome = { rows: SourceRow[] } | { error: string; message: string };

/** The rows read, or the error: which must be the reader's own. */
export async function outcomeOf(rows: AsyncGenerator<SourceRow>): Promise<Outcome> {
  const read: SourceRow[] = [];
  try {
    for await (const row of rows) read.push(row);
    return { rows: read };
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableFileError);
    return { error: (error as Error).name, message: (error as Error).message };
  }
}

/** The workbooks the cases mutate: two written by exceljs (shared strings off and on) and one by LibreOffice. */
export async function fuzzSeeds(): Promise<Buffer[]> {
  const libreOffice = new URL("../../../test/fixtures/real-clients/forecast-libreoffice.xlsx", import.meta.url);
  return [await exceljsWorkbook(false), await exceljsWorkbook(true), readFileSync(fileURLToPath(libreOffice))];
}

/** The file of case `n`: one of `seeds`, mutated as the case's own seed says. */
export async function mutatedWorkbook(n: number, seeds: Buffer[]): Promise<Buffer> {
  const next = random(0x5eed + n);
  const seed = seeds[n % seeds.length];
  const mutation = next() < 0.5 ? xmlMutation : pick(packageMutations, next);
  try {
    return await mutation(seed, next);
  } catch {
    return await pick(packageMutations, next)(seed, next); // jszip could not open what an earlier cut left
  }
}
