/**
 * A start of the embedded database, as `npm run demo` and a container restart meet it: on a copy of a data directory,
 * the server process is started the way the portal starts it (its heap, collector and malloc settings; the bundled
 * build when `npm run build` wrote it, `--tsx` for the TypeScript sources) and a driver times, from the spawn:
 * the first answer of the smallest collection, the first answer of a filtered query on the largest, its first page
 * (sorted by `_id`, 25 documents), and the moment every document is decoded (serverStatus `embedded.cold` 0).
 *
 * Baseline in the same run, alternating with the engine (`start-floor.mjs`, same flags): the least a start that
 * makes every document an object in a map by id can do — read the file, check every checksum, one object and one
 * map entry per document. Its time, spawn to exit, is the floor of "the largest collection answers".
 *
 *   npx tsx bench/engine/start.ts --data <DATA_DIR or its db directory> [--rounds 3] [--tsx]
 *     [--collection planning_quantity --filter '{"channel":"FSS"}']
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { DB_GC_FLAGS, DB_MALLOC_ENV, NODE_HARDENING_FLAGS } from "../../packages/embedded-mongo/process";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const data = option("--data");
if (!data)
  throw new Error(
    "usage: npx tsx bench/engine/start.ts --data <DATA_DIR> [--rounds N] [--tsx] [--collection C --filter JSON]",
  );
const source = fs.existsSync(path.join(data, "db", "snapshot.bson")) ? path.join(data, "db") : data;
if (!fs.existsSync(path.join(source, "snapshot.bson"))) throw new Error(`no snapshot.bson in ${source}`);
const rounds = Number(option("--rounds") ?? 3);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const bundle = path.join(repo, "build/host/embedded-mongo.js");
const useTsx = args.includes("--tsx") || !fs.existsSync(bundle);
const flags = ["--max-old-space-size=16384", ...NODE_HARDENING_FLAGS, ...DB_GC_FLAGS];
const env = { ...process.env, ...DB_MALLOC_ENV };
const dbName = "journey_portal";
/** The server process's arguments, as the portal starts it, on the copy at `port`. */
const serverArgs = (port: number) => [
  ...flags,
  ...(useTsx ? ["--import", "tsx", path.join(repo, "packages/embedded-mongo/cli.ts")] : [bundle]),
  "--port",
  String(port),
  "--dbpath",
  dir,
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-start-"));
const dir = path.join(work, "db");
const since = (t0: number) => (performance.now() - t0) / 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The floor: start-floor.mjs, spawn to exit. */
async function floor(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [...flags, path.join(repo, "bench/engine/start-floor.mjs"), path.join(dir, "snapshot.bson")],
    { env, stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`start-floor.mjs exited with ${code}`);
  JSON.parse(out);
  return since(t0);
}

type Times = { small: number; first: number; page: number; decoded: number; rss: number };

async function engine(
  port: number,
  largest: string,
  filter: Record<string, unknown>,
  smallest: string,
): Promise<Times> {
  const t0 = performance.now();
  const child = spawn(process.execPath, serverArgs(port), { env, stdio: "ignore" });
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
    serverSelectionTimeoutMS: 120_000,
  });
  try {
    for (;;) {
      try {
        await client.connect();
        break;
      } catch {
        await sleep(10);
      }
    }
    const db = client.db(dbName);
    await db.collection(smallest).findOne({});
    const small = since(t0);
    await db.collection(largest).findOne(filter);
    const first = since(t0);
    await db.collection(largest).find(filter).sort({ _id: 1 }).limit(25).toArray();
    const page = since(t0);
    for (;;) {
      const status = await client.db("admin").command({ serverStatus: 1 });
      if (!status.embedded?.loading && !(status.embedded?.cold > 0))
        return { small, first, page, decoded: since(t0), rss: status.mem.resident as number };
      await sleep(100);
    }
  } finally {
    await client.close();
    child.kill("SIGTERM");
    await new Promise((resolve) => child.on("exit", resolve));
  }
}

try {
  fs.cpSync(source, dir, { recursive: true });
  for (const file of ["embedded-mongo.lock", "embedded-mongo.uri"]) fs.rmSync(path.join(dir, file), { force: true });
  // Which collections: from the snapshot's own manifest, through one start of the engine.
  const port = 28_000 + Math.floor(Math.random() * 1_000);
  const probe = spawn(process.execPath, serverArgs(port), { env, stdio: "ignore" });
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
    serverSelectionTimeoutMS: 120_000,
  });
  await client.connect();
  const names = (await client.db(dbName).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const counts = await Promise.all(
    names.map(async (name) => ({ name, n: await client.db(dbName).collection(name).estimatedDocumentCount() })),
  );
  await client.close();
  probe.kill("SIGTERM");
  await new Promise((resolve) => probe.on("exit", resolve));
  counts.sort((a, b) => a.n - b.n);
  const smallest = counts.find((c) => c.n > 0)!.name;
  const largest = option("--collection") ?? counts.at(-1)!.name;
  const filter = JSON.parse(
    option("--filter") ?? (largest === "planning_quantity" ? '{"channel":"FSS"}' : "{}"),
  ) as Record<string, unknown>;
  const documents = counts.reduce((sum, c) => sum + c.n, 0);

  console.log(
    `# bench/engine/start — ${new Date().toISOString()}, ${useTsx ? "TypeScript sources (tsx)" : "bundled build"}, data ${source}`,
  );
  console.log(
    `${documents.toLocaleString("en")} documents, a ${(fs.statSync(path.join(dir, "snapshot.bson")).size / 1e6).toFixed(0)} MB snapshot; largest ${largest} (${counts.find((c) => c.name === largest)!.n.toLocaleString("en")}), filter ${JSON.stringify(filter)}`,
  );
  console.log(
    "| round | floor (s) | smallest answers | largest: first answer | ÷ floor | first page | every document decoded | RSS then (MB) |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (let round = 1; round <= rounds; round++) {
    const base = await floor();
    const t = await engine(port + round, largest, filter, smallest);
    console.log(
      `| ${round} | ${base.toFixed(2)} | ${t.small.toFixed(2)} | ${t.first.toFixed(2)} | ${(t.first / base).toFixed(2)}× | ${t.page.toFixed(2)} | ${t.decoded.toFixed(1)} | ${t.rss} |`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
