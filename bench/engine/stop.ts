/**
 * A clean stop of the embedded database after a few writes, as a container restart or the end of `npm run demo` meets
 * it: on a copy of a data directory, start the database (the process `npm run db` runs), wait until the largest
 * collection answers, insert `--writes` small documents into one new collection (past the 1 MB of journal that makes
 * a stop write a snapshot), send SIGTERM and time the exit. Baseline in the same run: copying the snapshot file
 * (read, write, fsync), the least a stop that writes everything again could cost.
 *
 *   npx tsx bench/engine/stop.ts --data <DATA_DIR or its db directory> [--writes 20000] [--repo <checkout>]
 *
 * `--repo` runs another checkout's engine (a worktree of an older commit) on the same copy, for a comparison.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MongoClient } from "mongodb";
import type { startEmbeddedDbProcess as Start } from "../../packages/embedded-mongo/process";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const data = option("--data");
if (!data) throw new Error("usage: npx tsx bench/engine/stop.ts --data <DATA_DIR> [--writes N] [--repo <checkout>]");
const source = fs.existsSync(path.join(data, "db", "snapshot.bson")) ? path.join(data, "db") : data;
if (!fs.existsSync(path.join(source, "snapshot.bson"))) throw new Error(`no snapshot.bson in ${source}`);
const writes = Number(option("--writes") ?? 20_000);
const repo = path.resolve(option("--repo") ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", ".."));

const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-stop-"));
const seconds = (since: number) => (performance.now() - since) / 1000;
try {
  const dir = path.join(work, "db");
  fs.cpSync(source, dir, { recursive: true });
  // The copy is nobody's: without the source's lock and address, a server is started on it, never joined.
  for (const file of ["embedded-mongo.lock", "embedded-mongo.uri"]) fs.rmSync(path.join(dir, file), { force: true });

  // The baseline: the snapshot's bytes copied and made durable.
  let started = performance.now();
  fs.copyFileSync(path.join(dir, "snapshot.bson"), path.join(work, "copy.bson"));
  const fd = fs.openSync(path.join(work, "copy.bson"), "r+");
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  const copySeconds = seconds(started);
  fs.rmSync(path.join(work, "copy.bson"));

  // The engine's own way of starting a database process (its heap and collector flags), from the checkout measured.
  const { startEmbeddedDbProcess } = (await import(
    pathToFileURL(path.join(repo, "packages/embedded-mongo/process.ts")).href
  )) as { startEmbeddedDbProcess: typeof Start };
  started = performance.now();
  let said = "";
  const db = await startEmbeddedDbProcess(dir, { log: (line) => (said += `${line}\n`) });
  const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 300_000 });
  await client.connect();
  const names = await client.db("journey_portal").listCollections({}, { nameOnly: true }).toArray();
  const counts = await Promise.all(
    names.map(async (c) => ({
      name: c.name,
      n: await client.db("journey_portal").collection(c.name).estimatedDocumentCount(),
    })),
  );
  const largest = counts.sort((a, b) => b.n - a.n)[0];
  await client.db("journey_portal").collection(largest.name).findOne({});
  const answered = seconds(started);
  const status = await client.db("admin").command({ serverStatus: 1 });
  const builds = (
    status.embedded as { indexBuilds?: { inOrder: number; sorted: number; uncompared?: number } } | undefined
  )?.indexBuilds;
  const batch = Array.from({ length: writes }, (_, i) => ({ i, pad: "x".repeat(80) }));
  await client.db("journey_portal").collection("bench_stop_writes").insertMany(batch);
  await client.close();
  started = performance.now();
  await db.stop?.();
  const stopSeconds = seconds(started);
  // Its last words may reach us just after it exited.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const line =
    said.split("\n").find((l) => l.includes("snapshot at stop")) ?? "(no snapshot line: the stop took under a second)";
  console.log(`# bench/engine/stop — ${new Date().toISOString()}, engine of ${repo}, data ${source}`);
  console.log(
    `${largest.name} (${largest.n.toLocaleString("en")} documents) answered ${answered.toFixed(1)} s after the start; indexes built from their recorded order: ${builds ? `${builds.inOrder} (${builds.uncompared ?? 0} of them recorded sorted, not compared), sorted: ${builds.sorted}` : "not reported"}`,
  );
  console.log(
    `baseline: the snapshot (${(fs.statSync(path.join(dir, "snapshot.bson")).size / 1e6).toFixed(0)} MB) copied and fsynced in ${copySeconds.toFixed(1)} s`,
  );
  console.log(
    `stop after ${writes.toLocaleString("en")} inserts: ${stopSeconds.toFixed(1)} s = ${(stopSeconds / copySeconds).toFixed(2)}× the baseline`,
  );
  console.log(line.trim());
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
