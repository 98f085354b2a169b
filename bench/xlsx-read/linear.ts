/**
 * Whether the XLSX reader's cost grows with the inflated size and no faster: sheets inflating to 1, 2, 4, … 256 MB in
 * two shapes, read by readXlsxRows, and in the same run the floor, the same parts inflated alone with node:zlib.
 * Prints, for each size, the reader's ms per inflated MB (the median of `--runs` reads, and of more for the small
 * sizes), its ratio to the 1 MB figure (flat means ≈ 1×; the reader is linear while it stays within 2×) and its
 * ratio to the floor.
 *
 *   npx tsx bench/xlsx-read/linear.ts [--max 256] [--runs 3] [--shapes prefix,rows] [--thread]
 *
 * Shapes: `prefix`, a sheet whose only row comes after its whole size of markup (the shape that was quadratic:
 * `<cols>` of `<col/>` elements before <sheetData>); `rows`, a sheet of ordinary rows (inline text, numbers) to its
 * size. --thread reads on the bounded thread (app/shared/excel/xlsx-thread.server.ts, the package's worker module)
 * instead, as the request paths do.
 */
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { createInflateRaw } from "node:zlib";
import { readXlsxRows, type SourceRow } from "xlsx-reader";
import { SHEET_CLOSE, SHEET_OPEN, xlsxBomb } from "#test/zip-bombs";
import { readXlsxRowsOnThread } from "~/shared/excel/xlsx-thread.server";

const { values: args } = parseArgs({
  options: {
    max: { type: "string", default: "256" },
    runs: { type: "string", default: "3" },
    shapes: { type: "string", default: "prefix,rows" },
    thread: { type: "boolean", default: false },
  },
});

const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `megabytes` MB of `unit` repeated (whole copies), as a block of about 1 MB repeated. */
function repeated(unit: string, megabytes: number) {
  const copies = Math.floor(MB / unit.length);
  return { repeat: Buffer.from(unit.repeat(copies)), times: megabytes };
}

/** 1,024 distinct rows of 8 cells (inline text, integers, decimals), about 230 bytes each. */
function rowsBlock(): string {
  let xml = "";
  for (let r = 1; r <= 1024; r++)
    xml +=
      `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Produto ${r} – planejamento</t></is></c>` +
      `<c r="B${r}"><v>${r * 37}</v></c><c r="C${r}"><v>${(r * 7919) / 100}</v></c>` +
      `<c r="D${r}" t="inlineStr"><is><t>Filial ${r % 300}</t></is></c><c r="E${r}"><v>${r % 52}</v></c>` +
      `<c r="F${r}"><v>${r * 3}</v></c><c r="G${r}" t="inlineStr"><is><t>Região Sudeste</t></is></c>` +
      `<c r="H${r}"><v>0.${r}</v></c></row>`;
  return xml;
}

const SHAPES: Record<string, (megabytes: number) => Promise<Buffer>> = {
  prefix: (megabytes) =>
    xlsxBomb({
      sheetRows: {
        name: "",
        prefix: `${SHEET_OPEN.replace("<sheetData>", "")}<cols>`,
        ...repeated('<col min="1" max="1" width="9"/>', megabytes),
        suffix: `</cols><sheetData><row r="1"><c r="A1"><v>1</v></c></row>${SHEET_CLOSE}`,
      },
    }),
  rows: (megabytes) => {
    const block = rowsBlock();
    const copies = Math.max(1, Math.round(MB / block.length));
    return xlsxBomb({
      sheetRows: {
        name: "",
        prefix: SHEET_OPEN,
        repeat: Buffer.from(block.repeat(copies)),
        times: Math.max(1, Math.round((megabytes * MB) / (block.length * copies))),
        suffix: SHEET_CLOSE,
      },
    });
  },
};

/** The entries of a ZIP written by test/zip-bombs.ts zipOf (no extra fields): where each one's data is. */
function entriesOf(zip: Buffer): Array<{ start: number; size: number }> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    entries.push({ start: local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28), size });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The floor: every part inflated with node:zlib (same chunk size as the reader), its bytes counted and dropped. */
async function inflateOnly(zip: Buffer): Promise<number> {
  let bytes = 0;
  for (const entry of entriesOf(zip)) {
    const inflater = createInflateRaw({ chunkSize: 256 * 1024 });
    inflater.end(zip.subarray(entry.start, entry.start + entry.size));
    for await (const chunk of inflater as AsyncIterable<Buffer>) bytes += chunk.length;
  }
  return bytes;
}

async function readAll(zip: Buffer): Promise<number> {
  let rows = 0;
  const read: AsyncGenerator<SourceRow> = args.thread ? readXlsxRowsOnThread(zip) : readXlsxRows(Readable.from([zip]));
  for await (const _row of read) rows++;
  return rows;
}

async function timed(work: () => Promise<number>, runs: number): Promise<{ ms: number; result: number }> {
  const ms: number[] = [];
  let result = 0;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    result = await work();
    ms.push(performance.now() - start);
  }
  return { ms: median(ms), result };
}

async function main() {
  const runs = Number(args.runs);
  const sizes: number[] = [];
  for (let size = 1; size <= Number(args.max); size *= 2) sizes.push(size);
  console.log(
    `node ${process.version}, reader ${args.thread ? "on the bounded thread" : "in process"}, median of ${runs} run(s)`,
  );
  for (const shape of args.shapes.split(",")) {
    const make = SHAPES[shape];
    if (!make) throw new Error(`unknown shape ${shape}`);
    const warm = await make(16); // warm-up: the first reads compile the reader and the floor's loop
    for (let i = 0; i < 3; i++) await Promise.all([readAll(warm), inflateOnly(warm)]);
    console.log(`\nshape ${shape}`);
    console.log("  size | file KB | inflated MB | rows    | reader ms/MB | × 1 MB | floor ms/MB | × floor");
    let base = 0;
    for (const size of sizes) {
      const zip = await make(size);
      // Small sizes are read more often: a few ms are too few to time once.
      const times = Math.max(runs, Math.ceil(64 / size));
      const floor = await timed(() => inflateOnly(zip), times);
      const reader = await timed(() => readAll(zip), times);
      const inflatedMb = floor.result / MB;
      const perMb = reader.ms / inflatedMb;
      const floorPerMb = floor.ms / inflatedMb;
      if (size === 1) base = perMb;
      const cells = [
        `${String(size).padStart(4)} MB`,
        String(Math.round(zip.length / 1024)).padStart(7),
        inflatedMb.toFixed(1).padStart(11),
        String(reader.result).padEnd(7),
        perMb.toFixed(2).padStart(12),
        `${(perMb / base).toFixed(2).padStart(5)}×`,
        floorPerMb.toFixed(2).padStart(11),
        `${(perMb / floorPerMb).toFixed(1).padStart(6)}×`,
      ];
      console.log(cells.join(" | "));
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
