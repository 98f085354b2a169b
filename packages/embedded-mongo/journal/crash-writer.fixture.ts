/**
 * Child process for the crash test: opens the embedded server on a data
 * directory, writes in a loop through the driver and prints "ack <n>" after
 * each acknowledged write. The parent kills it with SIGKILL at a random moment.
 */
import { MongoClient } from "mongodb";
import { startEmbeddedMongo } from "../index";

const dbPath = process.argv[2];
if (!dbPath) throw new Error("usage: crash-writer.fixture.ts <dbPath>");
const server = await startEmbeddedMongo({ dbPath });
const client = new MongoClient(server.uri);
await client.connect();
const docs = client.db("crash").collection<{ _id: number; payload?: string; kind?: string; n?: number }>("docs");
await docs.createIndex({ kind: 1 });
// Continue after what a previous run left behind.
const last = await docs
  .find({ _id: { $gte: 0 } })
  .sort({ _id: -1 })
  .limit(1)
  .next();
const start = last ? Math.floor(last._id / 10) + 1 : 0;
process.stdout.write("ready\n");
for (let i = start; ; i++) {
  if (i % 3 === 2) {
    // A batch of three, acknowledged together.
    await docs.insertMany([0, 1, 2].map((k) => ({ _id: i * 10 + k, kind: "batch", payload: "x".repeat(200) })));
  } else {
    await docs.insertOne({ _id: i * 10, kind: "single", payload: "y".repeat(100) });
  }
  await docs.updateOne({ _id: -1 }, { $inc: { n: 1 } }, { upsert: true });
  process.stdout.write(`ack ${i}\n`);
}
