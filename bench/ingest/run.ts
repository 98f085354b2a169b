/**
 * Ingest benchmark: the worker imports a 1,000,000-row product-master CSV (1 % invalid rows) into
 * product_master / product_master_nok on the embedded server, against a baseline measured in the
 * same run: a plain insertMany (batches of the worker's size) of the same rows, already validated.
 * The embedded server runs in its own process (`npm run db -- --memory`), as a real one would.
 *
 *   npx tsx bench/ingest/run.ts        (BENCH_INGEST_ROWS=… to change the size)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient, ObjectId } from "mongodb";

const ROWS = Number(process.env.BENCH_INGEST_ROWS ?? 1_000_000);
const BAD_EVERY = 100;

const line = (i: number) =>
  `SKU${i};Produto ${i};Marca ${i % 17};CAT${i % 5};Principal ${i % 3};Sub ${i % 9};${i % BAD_EVERY === 0 ? "maybe" : i % 2 ? "hero" : "non-hero"};${"ABCD"[i % 4]};ativo;global;2027-12-31`;

async function startDatabase(): Promise<{ uri: string; stop: () => void }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(here, "../../server/embedded-mongo/cli.ts"), "--memory", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const uri = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /connection string: (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`database exited with ${code}`)));
  });
  return { uri, stop: () => child.kill("SIGTERM") };
}

async function main() {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "jp-bench-ingest-"));
  const db = await startDatabase();
  Object.assign(process.env, { MONGODB_URI: db.uri, DATA_DIR: dataDir, DATABASE_NAME: "bench_ingest", LOG_LEVEL: "silent" });

  const { getDb, closeDb } = await import("../../app/db.server");
  const { registerFile } = await import("../../app/models/file-jobs.server");
  const { processNextJob } = await import("../../app/import/worker-loop.server");
  const { INGEST_BATCH_SIZE } = await import("../../app/import/ingest.server");
  const { productTemplate } = await import("../../app/import/templates");
  const { generateStorageKey, getLocalStore, LOCAL_BUCKET } = await import("../../app/services/storage.server");
  const mongo = await getDb();

  // The source file, written once to the local store.
  const key = generateStorageKey("bench.csv");
  const target = getLocalStore().resolve(key);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const out = fs.createWriteStream(target);
  out.write(
    "sku;material_description;marca;category_sku;categoria_principal_sku;sub_categoria_sku;hero;abcd;plc_local;plc_global;data_validade_sku\n",
  );
  for (let i = 1; i <= ROWS; i++) if (!out.write(`${line(i)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((r) => out.end(r));
  const bytes = (await fsp.stat(target)).size;

  // Baseline: the same rows as documents, straight into insertMany.
  const fileId = new ObjectId();
  let t = performance.now();
  let batch: Record<string, unknown>[] = [];
  const header = productTemplate.headers;
  for (let i = 1; i <= ROWS; i++) {
    const cells = line(i).split(";");
    const doc: Record<string, unknown> = { urlPath: key, sourceFileId: fileId, _lineNumber: i + 1 };
    header.forEach((h, k) => (doc[h] = cells[k]));
    batch.push(doc);
    if (batch.length === INGEST_BATCH_SIZE) {
      await mongo.collection(i % BAD_EVERY === 0 ? "baseline_nok" : "baseline_ok").insertMany(batch, { ordered: false });
      batch = [];
    }
  }
  if (batch.length) await mongo.collection("baseline_ok").insertMany(batch, { ordered: false });
  const baselineMs = performance.now() - t;
  await mongo.collection("baseline_ok").drop().catch(() => undefined);
  await mongo.collection("baseline_nok").drop().catch(() => undefined);

  // The worker's own ceiling: stream-parse and validate the file, no database writes.
  const { readCsvRows } = await import("../../app/import/readers.server");
  const { detectLayout } = await import("../../app/import/templates");
  t = performance.now();
  let layout: ReturnType<typeof detectLayout> = null;
  let parsedOk = 0;
  for await (const row of readCsvRows(fs.createReadStream(target, { highWaterMark: 256 * 1024 }))) {
    if (!layout) {
      layout = detectLayout(row.cells);
      continue;
    }
    const values: Record<string, unknown> = {};
    for (const c of layout.columns) values[c.name] = row.cells[c.index];
    if (layout.template.validate(values as never).ok) parsedOk++;
  }
  const parseMs = performance.now() - t;

  // The worker, end to end: claim, stream-parse, validate, batched writes, progress, finish.
  await registerFile({ originalName: "bench.csv", key, bucket: LOCAL_BUCKET, user: "bench@local" });
  t = performance.now();
  const outcome = await processNextJob({ name: "bench-worker", leaseMs: 60_000 });
  const workerMs = performance.now() - t;
  const ok = await mongo.collection("product_master").countDocuments({});
  const nok = await mongo.collection("product_master_nok").countDocuments({});

  await closeDb();
  db.stop();
  await fsp.rm(dataDir, { recursive: true, force: true });

  const rate = (ms: number) => Math.round(ROWS / (ms / 1000));
  const fmt = (n: number) => n.toLocaleString("pt-BR");
  console.log(`rows                               ${fmt(ROWS)} (${(bytes / 1024 / 1024).toFixed(0)} MB CSV, 1 in ${BAD_EVERY} invalid)`);
  console.log(`baseline plain insertMany          ${fmt(rate(baselineMs))} rows/s (${(baselineMs / 1000).toFixed(1)} s)`);
  console.log(`worker ingest (parse+validate+write) ${fmt(rate(workerMs))} rows/s (${(workerMs / 1000).toFixed(1)} s)`);
  console.log(`worker parse+validate, no writes    ${fmt(rate(parseMs))} rows/s (${(parseMs / 1000).toFixed(1)} s, ${fmt(parsedOk)} valid)`);
  console.log(`ratio worker / baseline            ${((baselineMs / workerMs) * 100).toFixed(1)} %   (target ≥ 50.000 rows/s)`);
  console.log(`result                             ${outcome?.kind === "done" ? outcome.message : outcome?.kind}; counted OK ${fmt(ok)}, NOK ${fmt(nok)}`);
}

await main();
