/**
 * Ingest benchmark of an all-or-nothing template: the worker imports a forecast CSV of valid rows (spooled
 * while the file is checked, then applied to `forecast` by upsert), against baselines measured in the same run:
 * - a plain insertMany of the same documents, in the worker's batch size, into a collection with forecast's indexes;
 * - reading and checking the file alone (the CSV reader and the template's cell rules, no writes);
 * - their sum: the floor of an upload that checks every row before it writes any.
 * Also the bench process's peak RSS while the worker runs (the worker runs in it, as in the web process).
 *
 *   npx tsx bench/ingest/datasets.ts     from the repository root
 *     BENCH_INGEST_ROWS=…                another size (default 300,000)
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startDatabase } from "./database";

const ROWS = Number(process.env.BENCH_INGEST_ROWS ?? 300_000);
const HEADER =
  "rf;cost_center_concat;cost_center;level_descr;group_level_2;data_ref;account_concat;acc_description;value;forecast";
const MONTHS = 24;

/** Row i: cost centres × accounts × 24 months of RF1 2026, every key distinct. */
function cells(i: number): string[] {
  const month = i % MONTHS;
  const account = Math.floor(i / MONTHS) % 500;
  const center = Math.floor(i / (MONTHS * 500));
  const dataRef = `${2025 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}`;
  return [
    "RF1 2026",
    `CC${9000 + center} - Centro ${center}`,
    `CC${9000 + center}`,
    "Comercial",
    `Grupo ${account % 12}`,
    dataRef,
    `${4100000 + account} - Conta ${account}`,
    `Conta ${account}`,
    "0",
    `${(i % 9973) * 10},50`,
  ];
}

async function main() {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "jp-bench-datasets-"));
  const db = await startDatabase();
  Object.assign(process.env, {
    MONGODB_URI: db.uri,
    DATA_DIR: dataDir,
    DATABASE_NAME: "bench_datasets",
    LOG_LEVEL: "silent",
  });
  const app = await import("./worker-entry");
  const { indexes: forecastIndexes } = await import("../../app/models/forecast.server");
  const mongo = await app.getDb();
  await app.applyIndexes(mongo);
  await app.applyIndexes(
    mongo,
    forecastIndexes.filter((d) => d.collection === "forecast").map((d) => ({ ...d, collection: "baseline" })),
  );

  const key = app.generateStorageKey("forecast.csv");
  const target = app.getLocalStore().resolve(key);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const out = fs.createWriteStream(target);
  out.write(`${HEADER}\n`);
  for (let i = 0; i < ROWS; i++)
    if (!out.write(`${cells(i).join(";")}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((r) => out.end(r));
  const bytes = (await fsp.stat(target)).size;

  // Baseline: the same rows as documents, straight into insertMany.
  const header = HEADER.split(";");
  let t = performance.now();
  let batch: Record<string, unknown>[] = [];
  for (let i = 0; i < ROWS; i++) {
    const row = cells(i);
    const doc: Record<string, unknown> = {};
    header.forEach((h, k) => {
      doc[h] = row[k];
    });
    batch.push(doc);
    if (batch.length === app.INGEST_BATCH_SIZE) {
      await mongo.collection("baseline").insertMany(batch, { ordered: false });
      batch = [];
    }
  }
  if (batch.length) await mongo.collection("baseline").insertMany(batch, { ordered: false });
  const baselineMs = performance.now() - t;
  await mongo
    .collection("baseline")
    .drop()
    .catch(() => undefined);

  // Reading and checking alone: the reader, the template's cell rules and its documents, nothing written.
  t = performance.now();
  let checked = 0;
  {
    let found: ReturnType<typeof app.detectTemplate> = null;
    const cell = { value: undefined as unknown };
    for await (const rows of app.readCsvBatches(fs.createReadStream(target))) {
      for (const row of rows) {
        if (!found) {
          found = app.detectTemplate(row.cells);
          if (!found) throw new Error("the bench file's header is not the forecast template's");
          continue;
        }
        const values: Record<string, unknown> = {};
        let ok = true;
        found.template.columns.forEach((column, k) => {
          const value = row.cells[found!.indexes[k]];
          if (
            app.checkCell(column.rule, value, typeof value === "string" ? value.trim() : app.cellText(value), cell) !==
            null
          )
            ok = false;
          values[column.name] = cell.value;
        });
        if (ok && found.template.load.mode === "all-or-nothing" && found.template.load.toDoc(values)) checked++;
      }
    }
  }
  const checkMs = performance.now() - t;
  if (checked !== ROWS) throw new Error(`checked ${checked} of ${ROWS} rows`);

  // The worker, end to end, with the bench process's RSS sampled.
  await app.registerFile({
    originalName: "forecast.csv",
    key,
    bucket: app.LOCAL_BUCKET,
    user: "bench@local",
    operator: true,
  });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heapPeak = 0;
  const sampler = setInterval(() => {
    const memory = process.memoryUsage();
    rssPeak = Math.max(rssPeak, memory.rss);
    heapPeak = Math.max(heapPeak, memory.heapUsed + memory.external);
  }, 100);
  t = performance.now();
  const outcome = await app.processNextJob({ name: "bench-worker", leaseMs: 60_000 });
  const workerMs = performance.now() - t;
  clearInterval(sampler);
  const stored = await mongo.collection("forecast").countDocuments({});

  await app.closeDb();
  db.stop();
  await fsp.rm(dataDir, { recursive: true, force: true });

  const rate = (ms: number) => Math.round(ROWS / (ms / 1000));
  const fmt = (n: number) => n.toLocaleString("pt-BR");
  console.log(
    `load average                        ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `rows                                ${fmt(ROWS)} forecast rows (${(bytes / 1024 / 1024).toFixed(0)} MB CSV, all valid)`,
  );
  console.log(
    `baseline plain insertMany           ${fmt(rate(baselineMs))} rows/s (${(baselineMs / 1000).toFixed(1)} s)`,
  );
  console.log(`reading and checking alone          ${fmt(rate(checkMs))} rows/s (${(checkMs / 1000).toFixed(1)} s)`);
  console.log(
    `floor: check all, then insert all   ${fmt(rate(checkMs + baselineMs))} rows/s (${((checkMs + baselineMs) / 1000).toFixed(1)} s)`,
  );
  console.log(`worker: spool, then apply (upsert)  ${fmt(rate(workerMs))} rows/s (${(workerMs / 1000).toFixed(1)} s)`);
  console.log(
    `ratio worker / baseline             ${((baselineMs / workerMs) * 100).toFixed(1)} %; worker / floor ${(((checkMs + baselineMs) / workerMs) * 100).toFixed(1)} %   (target ≥ 50.000 rows/s: ${rate(workerMs) >= 50_000 ? "met" : "not met"})`,
  );
  console.log(
    `bench process RSS                   ${(rssBefore / 1048576).toFixed(0)} MB before, ${(rssPeak / 1048576).toFixed(0)} MB peak (target ≤ 400 MB); heap + external peak ${(heapPeak / 1048576).toFixed(0)} MB`,
  );
  console.log(
    `result                              ${outcome?.kind === "done" ? outcome.message : outcome?.kind}; forecast holds ${fmt(stored)}`,
  );
}

await main();
