/**
 * The planning queries on two running databases holding copies of the same scale-10 data directory (two builds
 * of the engine, e.g. this checkout and a worktree of the commit before): each query in turn on A then B, for a
 * number of rounds, the medians side by side and B ÷ A. A quiet machine and alternating rounds make the ratio
 * the comparison; the absolute figures move by 10–25 % between runs here.
 *
 *   cp -r <scale-10 DATA_DIR>/db /tmp/a && cp -r <scale-10 DATA_DIR>/db /tmp/b
 *   (in each checkout) node --max-old-space-size=16384 --import tsx packages/embedded-mongo/cli.ts --port <p> --dbpath <dir> &
 *   npx tsx bench/engine/two-builds.ts <port A> <port B> [rounds, default 25]
 *
 * The last query updates 2,000 planning rows (`revision` + 1, no indexed field): run it on copies only.
 */
import { type Collection, type Document, MongoClient } from "mongodb";

const [portA, portB] = [process.argv[2], process.argv[3]];
if (!portA || !portB) throw new Error("usage: npx tsx bench/engine/two-builds.ts <port A> <port B> [rounds]");
const ROUNDS = Number(process.argv[4] ?? 25);

const connect = async (port: string) => {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`);
  await client.connect();
  return client;
};
const clients = [await connect(portA), await connect(portB)];
const portal = clients[0].db("journey_portal");
const first = await portal
  .collection("planning_quantity")
  .find({}, { sort: { _id: 1 } })
  .limit(1)
  .next();
if (!first) throw new Error("no planning rows: start both databases on a seeded data directory");
// The load bench's "hero, ABCD and PLC" filter: the SKUs of one row's three attributes (626 at scale 10).
const skus = (
  await portal
    .collection<{ _id: string }>("planning_attribute_sets")
    .find({ hero: first.hero, abcd: first.abcd, plc_localsku: first.plc_localsku }, { projection: { _id: 1 } })
    .toArray()
).map((s) => s._id);
const everyPeriod = { $gte: new Date("1950-12-01"), $lte: new Date("2030-12-31") };
const hero = { channel: { $in: ["WHOLESALES"] }, dateRef: everyPeriod, sku: { $in: skus } };
const brand = { channel: { $in: ["WHOLESALES", "FSS"] }, dateRef: everyPeriod, marca: first.marca };
const wholesales = { channel: { $in: ["WHOLESALES"] }, dateRef: everyPeriod };
const newestFirst = { creationDate: -1, _id: -1 } as const;

const queries: Record<string, (rows: Collection<Document>) => Promise<unknown>> = {
  [`${skus.length} SKUs, page 20`]: (rows) => rows.find(hero).sort(newestFirst).skip(380).limit(20).toArray(),
  [`${skus.length} SKUs, count`]: (rows) => rows.countDocuments(hero),
  "a brand, two channels, page 50": (rows) => rows.find(brand).sort(newestFirst).skip(980).limit(20).toArray(),
  "a brand, two channels, count": (rows) => rows.countDocuments(brand),
  "one channel, page 1": (rows) => rows.find(wholesales).sort(newestFirst).limit(20).toArray(),
  "one channel, count": (rows) => rows.countDocuments(wholesales),
  "one SKU, every row": (rows) => rows.find({ sku: first.sku }).toArray(),
  "updateMany of ~2,000 rows, no indexed field": (rows) =>
    rows.updateMany({ sku: { $in: skus.slice(0, 60) }, channel: "WHOLESALES" }, { $inc: { revision: 1 } }),
};

const samples = new Map<string, [number[], number[]]>(Object.keys(queries).map((name) => [name, [[], []]]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(queries)) {
    for (const side of [0, 1] as const) {
      const rows = clients[side].db("journey_portal").collection("planning_quantity");
      const t = performance.now();
      await run(rows);
      samples.get(name)![side].push(performance.now() - t);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${ROUNDS} rounds, A = port ${portA}, B = port ${portB}; medians in ms\n`);
console.log("| query | A | B | B ÷ A |\n|---|---:|---:|---:|");
for (const [name, [a, b]] of samples)
  console.log(
    `| ${name} | ${median(a).toFixed(1)} | ${median(b).toFixed(1)} | ${(median(b) / median(a)).toFixed(2)} |`,
  );
await Promise.all(clients.map((c) => c.close()));
