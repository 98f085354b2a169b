/**
 * Ingest benchmark: the worker imports a 1,000,000-row product-master CSV (1 % invalid rows) into
 * product_master / product_master_nok on the embedded server, against a baseline measured in the
 * same run: a plain insertMany (batches of the worker's size) of the same rows, already split.
 * The embedded server runs in its own process (`npm run db -- --memory`), as a real one would.
 *
 *   npx tsx bench/ingest/run.ts        from the repository root
 *     BENCH_INGEST_ROWS=…               another size
 *     BENCH_INGEST_INDEXES=1            with the indexes app/models declare (the baseline's collections get the same keys)
 *     BENCH_INGEST_BUNDLE=1             the worker bundled by esbuild with the host's build options (server/build-host.ts),
 *                                       the code production runs, instead of through tsx (which keeps names: `__name` wrappers)
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ObjectId } from "mongodb";
import { startDatabase } from "./database";

const ROWS = Number(process.env.BENCH_INGEST_ROWS ?? 1_000_000);
const WITH_INDEXES = process.env.BENCH_INGEST_INDEXES === "1";
const BUNDLED = process.env.BENCH_INGEST_BUNDLE === "1";
const BAD_EVERY = 100;
const here = path.dirname(fileURLToPath(import.meta.url));

const line = (i: number) =>
  `SKU${i};Produto ${i};Marca ${i % 17};CAT${i % 5};Principal ${i % 3};Sub ${i % 9};${i % BAD_EVERY === 0 ? "maybe" : i % 2 ? "hero" : "non-hero"};${"ABCD"[i % 4]};ativo;global;2027-12-31`;

/** CPU time (µs) a process has used so far, from /proc (Linux); null elsewhere. */
function processCpuMicros(pid: number | undefined): number | null {
  try {
    const fields = fs
      .readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    return (ticks / 100) * 1e6; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

type WorkerModule = typeof import("./worker-entry");

/** The benchmark's view of the app: through tsx, or bundled as production builds it. */
async function loadWorker(): Promise<WorkerModule> {
  if (!BUNDLED) return import("./worker-entry");
  const { build } = await import("esbuild");
  const { hostBuildOptions } = await import("../../server/build-host");
  // Inside the repository, so the bundle's external packages resolve from node_modules as build/host's do.
  const outdir = path.resolve(here, "../../node_modules/.cache/jp-bench-ingest");
  await build({
    ...hostBuildOptions({ "worker-entry": path.resolve(here, "worker-entry.ts") }, outdir),
    sourcemap: false,
  });
  return import(pathToFileURL(path.join(outdir, "worker-entry.js")).href) as Promise<WorkerModule>;
}

async function main() {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "jp-bench-ingest-"));
  const db = await startDatabase();
  Object.assign(process.env, {
    MONGODB_URI: db.uri,
    DATA_DIR: dataDir,
    DATABASE_NAME: "bench_ingest",
    LOG_LEVEL: "silent",
  });
  const app = await loadWorker();
  const mongo = await app.getDb();

  if (WITH_INDEXES) {
    await app.applyIndexes(mongo);
    // The baseline's collections get the product collections' keys, so both sides keep the same indexes up to date.
    const same = app.masterDataIndexes.filter(
      (d) => d.collection === "product_master" || d.collection === "product_master_nok",
    );
    await app.applyIndexes(
      mongo,
      same.map((d) => ({ ...d, collection: d.collection === "product_master" ? "baseline_ok" : "baseline_nok" })),
    );
  }

  // The source file, written once to the local store.
  const key = app.generateStorageKey("bench.csv");
  const target = app.getLocalStore().resolve(key);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const out = fs.createWriteStream(target);
  out.write(
    "sku;material_description;marca;category_sku;categoria_principal_sku;sub_categoria_sku;hero;abcd;plc_local;plc_global;data_validade_sku\n",
  );
  for (let i = 1; i <= ROWS; i++)
    if (!out.write(`${line(i)}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((r) => out.end(r));
  const bytes = (await fsp.stat(target)).size;

  // Baseline: the same rows as documents, straight into insertMany.
  const fileId = new ObjectId();
  let t = performance.now();
  let batch: Record<string, unknown>[] = [];
  const header = app.productTemplate.columns.map((c) => c.name);
  for (let i = 1; i <= ROWS; i++) {
    const cells = line(i).split(";");
    const doc: Record<string, unknown> = { urlPath: key, sourceFileId: fileId, _lineNumber: i + 1 };
    header.forEach((h, k) => {
      doc[h] = cells[k];
    });
    batch.push(doc);
    if (batch.length === app.INGEST_BATCH_SIZE) {
      await mongo
        .collection(i % BAD_EVERY === 0 ? "baseline_nok" : "baseline_ok")
        .insertMany(batch, { ordered: false });
      batch = [];
    }
  }
  if (batch.length) await mongo.collection("baseline_ok").insertMany(batch, { ordered: false });
  const baselineMs = performance.now() - t;
  await mongo
    .collection("baseline_ok")
    .drop()
    .catch(() => undefined);
  await mongo
    .collection("baseline_nok")
    .drop()
    .catch(() => undefined);

  // The worker's own ceiling: stream-parse and validate the file, no database writes.
  t = performance.now();
  let layout: ReturnType<WorkerModule["detectTemplate"]> = null;
  let parsedOk = 0;
  for await (const rows of app.readCsvBatches(fs.createReadStream(target, { highWaterMark: 256 * 1024 }))) {
    for (const row of rows) {
      if (!layout) {
        layout = app.detectTemplate(row.cells);
        continue;
      }
      const values = layout.indexes.map((i) => row.cells[i]);
      if (app.checkRow(layout.template, values, values.map(app.cellText), []) === null) parsedOk++;
    }
  }
  const parseMs = performance.now() - t;

  // The worker, end to end: claim, stream-parse, validate, batched writes, progress, finish.
  await app.registerFile({
    originalName: "bench.csv",
    key,
    bucket: app.LOCAL_BUCKET,
    user: "bench@local",
    operator: true,
  });
  t = performance.now();
  const cpuBefore = process.cpuUsage();
  const serverCpuBefore = processCpuMicros(db.pid);
  const outcome = await app.processNextJob({ name: "bench-worker", leaseMs: 60_000 });
  const cpu = process.cpuUsage(cpuBefore);
  const serverCpuAfter = processCpuMicros(db.pid);
  const workerMs = performance.now() - t;
  const ok = await mongo.collection("product_master").countDocuments({});
  const nok = await mongo.collection("product_master_nok").countDocuments({});

  await app.closeDb();
  db.stop();
  await fsp.rm(dataDir, { recursive: true, force: true });

  const rate = (ms: number) => Math.round(ROWS / (ms / 1000));
  const fmt = (n: number) => n.toLocaleString("pt-BR");
  const workerRate = rate(workerMs);
  console.log(
    `code                               ${BUNDLED ? "esbuild bundle (host build options)" : "tsx"}; indexes ${WITH_INDEXES ? "as declared" : "none (only _id)"}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `rows                               ${fmt(ROWS)} (${(bytes / 1024 / 1024).toFixed(0)} MB CSV, 1 in ${BAD_EVERY} invalid)`,
  );
  console.log(
    `baseline plain insertMany          ${fmt(rate(baselineMs))} rows/s (${(baselineMs / 1000).toFixed(1)} s)`,
  );
  const serverCpu =
    serverCpuBefore !== null && serverCpuAfter !== null
      ? `, server process ${((serverCpuAfter - serverCpuBefore) / ROWS).toFixed(1)} µs/row`
      : "";
  console.log(
    `worker ingest (parse+validate+write) ${fmt(workerRate)} rows/s (${(workerMs / 1000).toFixed(1)} s; CPU: worker process ${((cpu.user + cpu.system) / ROWS).toFixed(1)} µs/row${serverCpu})`,
  );
  console.log(
    `worker parse+validate, no writes    ${fmt(rate(parseMs))} rows/s (${(parseMs / 1000).toFixed(1)} s, ${fmt(parsedOk)} valid)`,
  );
  console.log(
    `ratio worker / baseline            ${((baselineMs / workerMs) * 100).toFixed(1)} %   (target ≥ 50.000 rows/s: ${workerRate >= 50_000 ? "met" : "not met"})`,
  );
  console.log(
    `result                             ${outcome?.kind === "done" ? outcome.message : outcome?.kind}; counted OK ${fmt(ok)}, NOK ${fmt(nok)}`,
  );
}

await main();
