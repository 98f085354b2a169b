/**
 * insertMany of N documents (default 100,000) into a collection with three secondary indexes,
 * through the official driver, in batches of 10,000 as the seed and the upload worker send them
 * (target ≥ 50,000 documents/s). Runs in this process in memory, and in the
 * server's own process on a data directory (journal and fsync) as the seed and the worker use it; measures in the same run the floor no server can beat: the driver serialising the
 * same batches and the official codec decoding them again, with no server at all.
 * Also in memory with `_id`s in no order, as the seed's planning rows come (their time part is their creation date).
 * Run: npx tsx packages/embedded-mongo/bench/insert-many.ts [N]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BSON, ObjectId } from "bson";
import { MongoClient } from "mongodb";
import { startEmbeddedMongo } from "../index";
import { startEmbeddedDbProcess } from "../process";

const N = Number(process.argv[2] ?? 100_000);
const BATCH = 10_000;
const TARGET = 50_000;
const CHANNELS = ["VAREJO", "ATACADO", "ECOMMERCE", "FRANQUIA"];

/** A planning-quantity-like row: strings, numbers and a date, as the portal's biggest collection holds. */
function makeDoc(i: number) {
  return {
    sku: `SKU${String(i % 20_000).padStart(6, "0")}`,
    channel: CHANNELS[i % 4],
    creationDate: new Date(Date.UTC(2026, i % 12, 1 + (i % 28))),
    brand: `Brand ${i % 40}`,
    category: `Category ${i % 12}`,
    quantity: (i * 7919) % 5000,
    price: ((i * 104729) % 100_000) / 100,
    updatedBy: "seed",
  };
}

/**
 * An ObjectId whose time part is spread over three years in no order (the seed's planning rows take theirs from
 * their creation date), made unique by its last word: the `_id` index takes them all over its tree.
 */
function scatteredId(i: number): ObjectId {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(1_700_000_000 + (((i * 2_654_435_761) >>> 0) % 94_608_000), 0);
  bytes.writeUInt32BE(i, 8);
  return new ObjectId(bytes);
}

function batches(scattered = false): Record<string, unknown>[][] {
  const out: Record<string, unknown>[][] = [];
  const make = (i: number) => (scattered ? { _id: scatteredId(i), ...makeDoc(i) } : makeDoc(i));
  for (let i = 0; i < N; i += BATCH) out.push(Array.from({ length: Math.min(BATCH, N - i) }, (_, k) => make(i + k)));
  return out;
}

/** In this process and in memory (for profiling), or in its own process on a data directory, as the seed and the worker reach it. */
async function run(dbPath: string | undefined, scattered = false): Promise<number> {
  const server = dbPath ? await startEmbeddedDbProcess(dbPath) : await startEmbeddedMongo({});
  const client = new MongoClient(server.uri);
  await client.connect();
  const coll = client.db("bench").collection("rows");
  await coll.createIndexes([
    { key: { sku: 1, channel: 1, creationDate: 1 }, name: "sku_channel_creationDate" },
    { key: { brand: 1 }, name: "brand" },
    { key: { creationDate: -1 }, name: "creationDate" },
  ]);
  const docs = batches(scattered);
  const t = performance.now();
  for (const batch of docs) await coll.insertMany(batch, { ordered: false });
  const ms = performance.now() - t;
  if ((await coll.estimatedDocumentCount()) !== N) throw new Error("not every document was inserted");
  await client.close();
  await server.stop?.();
  return ms;
}

function floor(): number {
  const docs = batches();
  const t = performance.now();
  for (const batch of docs) {
    const bytes = BSON.serialize({ insert: "rows", documents: batch, ordered: false, $db: "bench" });
    BSON.deserialize(bytes);
  }
  return performance.now() - t;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insert-many-"));
try {
  const floorMs = floor();
  const memoryMs = await run(undefined);
  const diskMs = await run(path.join(dir, "db"));
  const scatteredMs = await run(undefined, true);
  const rate = (ms: number) => Math.round((N / ms) * 1000);
  console.log(
    `insertMany of ${N.toLocaleString("en")} documents, three secondary indexes, batches of ${BATCH.toLocaleString("en")}`,
  );
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log("| run | ms | documents/s | ÷ floor |");
  console.log("|---|---:|---:|---:|");
  for (const [name, ms] of [
    ["floor: serialise + decode the batches, no server", floorMs],
    ["in this process, in memory", memoryMs],
    ["own process, data directory (journal, fsync)", diskMs],
    ["in this process, in memory, `_id`s in no order (as the seed's planning rows)", scatteredMs],
  ] as const) {
    console.log(`| ${name} | ${ms.toFixed(0)} | ${rate(ms).toLocaleString("en")} | ${(ms / floorMs).toFixed(2)} |`);
  }
  console.log(
    `target ≥ ${TARGET.toLocaleString("en")} documents/s on a data directory: ${rate(diskMs) >= TARGET ? "met" : "not met"}`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
