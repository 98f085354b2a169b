/**
 * Reading an XLSX alone: today's reader (packages/xlsx-reader) against the exceljs-based one it replaced
 * (packages/xlsx-reader/test-support/exceljs-reader.ts), in the same run, on files like the portal's planning
 * exports: 16 columns of text, integers, decimals and dates with number formats, written by exceljs's streaming
 * WorkbookWriter with shared strings off (as the portal writes them) and on (as Excel and LibreOffice write them).
 * Prints the median ms of each reader, their ratio and the rows read (which must be the same).
 *
 *   npx tsx bench/xlsx-read/run.ts [--sizes 10000,100000] [--runs 3] [--only old|new] [--keep DIR] [--from DIR]
 *
 * --keep DIR writes the files there; --from DIR reads them from there instead of writing them (so that a CPU profile
 * holds the reading alone): node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/xlsx-read/run.ts
 * --from DIR --sizes 100000 --runs 1 --only old
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { PassThrough, Readable } from "node:stream";
import { parseArgs } from "node:util";
import ExcelJS from "exceljs";
import type { SourceRow } from "xlsx-reader";
import { readXlsxRows } from "xlsx-reader";
import { readXlsxRowsExceljs } from "../../packages/xlsx-reader/test-support/exceljs-reader";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    keep: { type: "string" },
    from: { type: "string" },
  },
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const REGIONS = ["Sudeste", "Sul", "Nordeste", "Norte", "Centro-Oeste"];
const STATUS = ["Planejado", "Em revisão", "Aprovado", "Cancelado"];

/** A planning export of `rows` rows × 16 columns, as exceljs's streaming writer writes it. */
async function planningFile(rows: number, sharedStrings: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: sharedStrings, useStyles: true });
  const sheet = workbook.addWorksheet("Planejamento");
  const int = { numFmt: "#,##0" };
  const dec = { numFmt: "#,##0.00" };
  const date = { numFmt: "dd/mm/yyyy" };
  sheet.columns = [
    { header: "_id", key: "id", width: 26 },
    { header: "Código", key: "code", width: 12 },
    { header: "Produto", key: "product", width: 30 },
    { header: "Categoria", key: "category", width: 16 },
    { header: "Região", key: "region", width: 14 },
    { header: "Filial", key: "branch", width: 10 },
    { header: "Quantidade", key: "qty", width: 12, style: int },
    { header: "Quantidade anterior", key: "qtyPrev", width: 12, style: int },
    { header: "Preço", key: "price", width: 12, style: dec },
    { header: "Valor", key: "value", width: 14, style: dec },
    { header: "Margem %", key: "margin", width: 10, style: dec },
    { header: "Início", key: "start", width: 12, style: date },
    { header: "Fim", key: "end", width: 12, style: date },
    { header: "Situação", key: "status", width: 12 },
    { header: "Semana", key: "week", width: 8, style: int },
    { header: "Observação", key: "note", width: 30 },
  ];
  for (let i = 0; i < rows; i++) {
    const qty = (i * 37) % 5000;
    const price = ((i * 7919) % 100000) / 100;
    sheet
      .addRow({
        id: (0x65a1b2c3d4e5f6a7b8c9d0e1n + BigInt(i)).toString(16).padStart(24, "0"),
        code: `P${String(i % 20000).padStart(6, "0")}`,
        product: `Produto de planejamento nº ${i % 20000} – linha ${i % 37}`,
        category: `Categoria ${i % 40}`,
        region: REGIONS[i % REGIONS.length],
        branch: `F${i % 300}`,
        qty,
        qtyPrev: (qty * 3) % 5000,
        price,
        value: Math.round(qty * price * 100) / 100,
        margin: ((i * 13) % 10000) / 100,
        start: new Date(Date.UTC(2026, i % 12, (i % 28) + 1)),
        end: new Date(Date.UTC(2027, i % 12, (i % 28) + 1)),
        status: STATUS[i % STATUS.length],
        week: (i % 52) + 1,
        note: i % 5 === 0 ? `Revisar com a área comercial (${i})` : null,
      })
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

async function readAll(read: (source: Readable) => AsyncGenerator<SourceRow>, file: Buffer) {
  let rows = 0;
  let cells = 0;
  for await (const row of read(Readable.from([file]))) {
    rows++;
    cells += row.cells.length;
  }
  return { rows, cells };
}

async function timed(read: (source: Readable) => AsyncGenerator<SourceRow>, file: Buffer, runs: number) {
  const ms: number[] = [];
  let counted = { rows: 0, cells: 0 };
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    counted = await readAll(read, file);
    ms.push(performance.now() - start);
  }
  return { ms: median(ms), all: ms, ...counted };
}

async function main() {
  const runs = Number(args.runs);
  console.log(`node ${process.version}, ${runs} run(s) each, median ms`);
  for (const size of args.sizes.split(",").map(Number)) {
    for (const sharedStrings of [false, true]) {
      const name = `planning-${size}-${sharedStrings ? "sst" : "inline"}.xlsx`;
      const file = args.from ? await readFile(`${args.from}/${name}`) : await planningFile(size, sharedStrings);
      const label = `${size.toLocaleString("en")} rows × 16, shared strings ${sharedStrings ? "on " : "off"}`;
      if (args.keep) {
        await mkdir(args.keep, { recursive: true });
        await writeFile(`${args.keep}/${name}`, file);
      }
      const old = args.only === "new" ? null : await timed(readXlsxRowsExceljs, file, runs);
      const fresh = args.only === "old" ? null : await timed(readXlsxRows, file, runs);
      const fmt = (r: typeof old) => (r ? `${Math.round(r.ms)} ms [${r.all.map(Math.round).join(", ")}]` : "-");
      const ratio = old && fresh ? `${(old.ms / fresh.ms).toFixed(1)}×` : "-";
      const same =
        old && fresh ? (old.rows === fresh.rows && old.cells === fresh.cells ? "same rows" : "ROWS DIFFER") : "";
      console.log(
        `${label} (${(file.length / 1024 / 1024).toFixed(1)} MB): exceljs ${fmt(old)} · new ${fmt(fresh)} · ratio ${ratio} · ${(old ?? fresh)?.rows} rows ${same}`,
      );
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
