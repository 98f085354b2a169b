/**
 * What classifying a stored file from its content costs where it is read for that alone (hr-file-view.server.ts
 * classifyStoredObject: the header and the first rows): the first download of a file stored before classes existed or
 * not yet taken by a worker, and an explorer document as the worker takes it. (A data file's job classifies the rows it
 * reads anyway: no second read.) Against a floor measured in the same run: reading every row of the same file through
 * the same reader. A CSV, and an XLSX written with shared strings (the reader takes the whole shared-strings part
 * before the first row, so that file is the dear case).
 *
 *   npx tsx bench/ingest/classify-cost.ts        (BENCH_ROWS to change the size, BENCH_ROUNDS the repetitions)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import ExcelJS from "exceljs";

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const HEADER = ["sku", "material_description", "marca", "category_sku", "hero", "abcd", "data_validade_sku"];
const row = (i: number) => [`SKU${i}`, `Produto ${i}`, `Marca ${i % 7}`, `CAT${i % 5}`, "hero", "A", "2027-12-31"];

async function xlsxFile(file: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const sheet = workbook.addWorksheet("Dados");
  sheet.addRow(HEADER).commit();
  for (let i = 0; i < ROWS; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await workbook.commit();
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jp-classify-bench-"));
  process.env.DATA_DIR = dir;
  process.env.LOG_LEVEL = "warn";
  (await import("../../app/datasets.server")).registerPortalDatasets();
  const { classifyStoredObject } = await import("../../app/platform/import/hr-file-view.server");
  const { generateStorageKey, getLocalStore, LOCAL_BUCKET, openReadStream } = await import(
    "../../app/services/storage.server"
  );
  const { readCsvBatches } = await import("../../app/platform/import/readers.server");
  const { readXlsxRows } = await import("xlsx-reader");
  try {
    const csvKey = generateStorageKey("bench.csv");
    const csv = [HEADER, ...Array.from({ length: ROWS }, (_, i) => row(i))].map((r) => r.join(";")).join("\n");
    await getLocalStore().putStream(csvKey, Readable.from([Buffer.from(csv)]), { maxBytes: 1e10 });
    const xlsxKey = generateStorageKey("bench.xlsx");
    const xlsxPath = path.join(dir, "bench.xlsx");
    await xlsxFile(xlsxPath);
    await getLocalStore().putStream(xlsxKey, fs.createReadStream(xlsxPath), { maxBytes: 1e10 });

    const readAll = async (key: string) => {
      const { stream } = await openReadStream(LOCAL_BUCKET, key);
      let n = 0;
      if (key.endsWith(".xlsx")) for await (const _ of readXlsxRows(stream)) n++;
      else for await (const batch of readCsvBatches(stream)) n += batch.length;
      return n;
    };
    const time = async (work: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    console.log(`rows: ${ROWS.toLocaleString("en")}, rounds: ${ROUNDS}, load average ${os.loadavg()[0].toFixed(1)}`);
    for (const [label, key, size] of [
      ["CSV", csvKey, Buffer.byteLength(csv)],
      ["XLSX (shared strings)", xlsxKey, fs.statSync(xlsxPath).size],
    ] as const) {
      const floor: number[] = [];
      const classify: number[] = [];
      let classified = "";
      for (let r = 0; r < ROUNDS; r++) {
        floor.push(await time(() => readAll(key)));
        classify.push(
          await time(async () => {
            const found = await classifyStoredObject(LOCAL_BUCKET, key);
            classified = `${found.dataClass}/${found.by}`;
          }),
        );
      }
      const f = median(floor);
      const c = median(classify);
      console.log(
        `${label}, ${(size / 1e6).toFixed(1)} MB: read every row ${f.toFixed(0)} ms (floor);` +
          ` classify ${c.toFixed(1)} ms (${classified}) = ${((c / f) * 100).toFixed(1)} % of the floor`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
