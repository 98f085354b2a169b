/**
 * Benchmark of the embedded MongoDB-compatible server, through the official
 * driver, against a baseline measured in the same run: the same operation done
 * directly with mingo on a plain array (no wire protocol, no indexes, no
 * durability). Run: npx tsx bench/embedded-mongo/run.ts
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Aggregator, find as mingoFind, updateMany as mingoUpdateMany } from "mingo";
import { MongoClient } from "mongodb";
import { startEmbeddedMongo } from "../index";

const N = 100_000;
const CATEGORIES = 100;
type Row = { _id: number; cat: string; n: number; score: number; name: string; tags: string[] };

function makeDocs(from: number, count: number): Row[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      _id: i,
      cat: `c${i % CATEGORIES}`,
      n: i,
      score: (i * 7919) % 1000,
      name: `name ${i}`,
      tags: [`t${i % 7}`, `u${i % 11}`],
    };
  });
}

async function time<T>(fn: () => Promise<T> | T): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Median of `runs` timings after one warm-up run. */
async function median(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await time(fn));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows: string[][] = [];
function report(name: string, ms: number, baselineMs: number, target?: string, unit = "ms"): void {
  const ratio = baselineMs > 0 ? ms / baselineMs : NaN;
  rows.push([
    name,
    `${ms.toFixed(2)} ${unit}`,
    `${baselineMs.toFixed(2)} ${unit}`,
    `${ratio.toFixed(2)}x`,
    target ?? "",
  ]);
}

const server = await startEmbeddedMongo({});
const client = new MongoClient(server.uri);
await client.connect();
const coll = client.db("bench").collection<Row>("docs");

// insertMany 100k
const docs = makeDocs(0, N);
const insertMs = await time(() => coll.insertMany(makeDocs(0, N), { ordered: false }));
const plain: Row[] = [];
const insertBase = await time(() => {
  for (const d of makeDocs(0, N)) plain.push(d);
});
report(`insertMany ${N / 1000}k`, insertMs, insertBase);

// filtered find + sort + limit 20, without an index
const filter = { cat: "c42" };
const findNoIndex = await median(9, () => coll.find(filter).sort({ n: -1 }).limit(20).toArray());
const findBase = await median(9, () => mingoFind(docs, filter).sort({ n: -1 }).limit(20).all());
report("find cat= + sort + limit 20, no index", findNoIndex, findBase);

// countDocuments without an index
const countNoIndex = await median(9, () => coll.countDocuments(filter));
const countBase = await median(9, () =>
  new Aggregator([{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }]).run(docs),
);
report("countDocuments cat=, no index", countNoIndex, countBase);

// the same with an index on the filtered field
await coll.createIndex({ cat: 1 });
const findIndex = await median(21, () => coll.find(filter).sort({ n: -1 }).limit(20).toArray());
report("find cat= + sort + limit 20, indexed", findIndex, findBase, "<= 2 ms");
const countIndex = await median(21, () => coll.countDocuments(filter));
report("countDocuments cat=, indexed", countIndex, countBase);
const byId = await median(51, () => coll.findOne({ _id: 4242 }));
const byIdBase = await median(51, () => mingoFind(docs, { _id: 4242 }).limit(1).all());
report("findOne by _id", byId, byIdBase);

// updateMany $mul over 10k documents
const updFilter = { n: { $lt: 10_000 } };
const updateMs = await median(5, () => coll.updateMany(updFilter, { $mul: { score: 1.5 } }));
const updateBase = await median(5, () => mingoUpdateMany(docs, updFilter, { $mul: { score: 1.5 } }));
report("updateMany $mul over 10k", updateMs, updateBase, "<= 100 ms");

await client.close();
await server.stop();

// durable batched inserts (journal + fdatasync per command)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-bench-"));
const durable = await startEmbeddedMongo({ dbPath: dir });
const dclient = new MongoClient(durable.uri);
await dclient.connect();
const dcoll = dclient.db("bench").collection<Row>("durable");
const BATCH = 1000;
const BATCHES = 50;
const durableMs = await time(async () => {
  for (let b = 0; b < BATCHES; b++) await dcoll.insertMany(makeDocs(b * BATCH, BATCH));
});
const durableBase = await time(() => {
  const arr: Row[] = [];
  for (let b = 0; b < BATCHES; b++) for (const d of makeDocs(b * BATCH, BATCH)) arr.push(d);
});
const total = BATCH * BATCHES;
const rate = (total / durableMs) * 1000;
const baseRate = (total / durableBase) * 1000;
rows.push([
  `durable insertMany, batches of ${BATCH}`,
  `${Math.round(rate).toLocaleString("en")} docs/s`,
  `${Math.round(baseRate).toLocaleString("en")} docs/s`,
  `${(baseRate / rate).toFixed(2)}x slower`,
  ">= 20,000 docs/s",
]);
await dclient.close();
await durable.stop();
fs.rmSync(dir, { recursive: true, force: true });

const header = ["operation", "embedded server", "mingo on an array", "ratio", "target"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
console.log(
  `embedded-mongo benchmark: ${N.toLocaleString("en")} documents, node ${process.version}, ${os.cpus().length} CPUs`,
);
console.log(line(header));
for (const r of rows) console.log(line(r));
