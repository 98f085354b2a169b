/**
 * The embedded engine beside plain JavaScript over the same arrays: a range + sort +
 * limit, a $group, a $lookup and an indexed count, each through the official driver (wire
 * protocol, BSON, planner) against the code a developer would write over an in-memory array,
 * measured in the same run, and the planning batch save's updateMany beside the same arithmetic over the
 * array. Target: every read ratio ≤ 3×. Prints the load average beside the figures.
 * Run: npx tsx bench/engine/run.ts [documents, default 200000]
 */
import os from "node:os";
import { startEmbeddedMongo } from "embedded-mongo";
import { MongoClient } from "mongodb";

const N = Number(process.argv[2] ?? 200_000);
const CATS = 100;
const REFS = 1_000;
const TARGET = 3;
type Row = { _id: number; cat: string; n: number; amount: number; at: Date; ref: number };

const t0 = Date.UTC(2026, 0, 1);
const rows: Row[] = Array.from({ length: N }, (_, i) => ({
  _id: i,
  cat: `c${i % CATS}`,
  n: i,
  amount: (i * 7919) % 1000,
  at: new Date(t0 + ((i * 104729) % N) * 60_000),
  ref: i % REFS,
}));
const refs = Array.from({ length: REFS }, (_, i) => ({ _id: i, label: `ref ${i}` }));

async function median(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const server = await startEmbeddedMongo({});
const client = new MongoClient(server.uri);
await client.connect();
const db = client.db("bench");
const coll = db.collection<Row>("rows");
for (let i = 0; i < N; i += 20_000) await coll.insertMany(rows.slice(i, i + 20_000), { ordered: false });
await db.collection("refs").insertMany(refs as never[]);
await coll.createIndexes([{ key: { at: -1 } }, { key: { cat: 1, n: -1 } }]);

const from = new Date(t0 + N * 20_000);
const to = new Date(t0 + N * 40_000);
const results: [string, number, number][] = [];

// 1. A page of a range, newest first.
const findEngine = await median(21, () =>
  coll
    .find({ at: { $gte: from, $lt: to } })
    .sort({ at: -1 })
    .limit(20)
    .toArray(),
);
const findJs = await median(21, () =>
  rows
    .filter((r) => r.at >= from && r.at < to)
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, 20),
);
results.push(["find range + sort + limit 20", findEngine, findJs]);

// 2. $group over the whole collection.
const groupEngine = await median(11, () =>
  coll.aggregate([{ $group: { _id: "$cat", total: { $sum: "$amount" }, n: { $sum: 1 } } }]).toArray(),
);
const groupJs = await median(11, () => {
  const groups = new Map<string, { _id: string; total: number; n: number }>();
  for (const r of rows) {
    let g = groups.get(r.cat);
    if (!g) groups.set(r.cat, (g = { _id: r.cat, total: 0, n: 0 }));
    g.total += r.amount;
    g.n += 1;
  }
  return [...groups.values()];
});
results.push([`$group over ${N.toLocaleString("en")} documents`, groupEngine, groupJs]);

// 3. $lookup of one category's rows into the reference collection (through its _id index), summed per label.
const lookupEngine = await median(11, () =>
  coll
    .aggregate([
      { $match: { cat: "c7" } },
      { $lookup: { from: "refs", localField: "ref", foreignField: "_id", as: "r" } },
      { $unwind: "$r" },
      { $group: { _id: "$r.label", total: { $sum: "$amount" } } },
    ])
    .toArray(),
);
const lookupJs = await median(11, () => {
  const byId = new Map(refs.map((r) => [r._id, r]));
  const totals = new Map<string, number>();
  for (const r of rows) {
    if (r.cat !== "c7") continue;
    const ref = byId.get(r.ref);
    if (ref) totals.set(ref.label, (totals.get(ref.label) ?? 0) + r.amount);
  }
  return [...totals].map(([_id, total]) => ({ _id, total }));
});
results.push([`$lookup + $unwind + $group (${N / CATS} rows)`, lookupEngine, lookupJs]);

// 4. A count of an indexed filter.
const countEngine = await median(21, () => coll.countDocuments({ cat: "c7", n: { $gte: N / 2 } }));
const countJs = await median(21, () => rows.filter((r) => r.cat === "c7" && r.n >= N / 2).length);
results.push(["countDocuments (indexed)", countEngine, countJs]);

// 5. A deep page of two categories newest first, filtered on a field the index does not hold: the two categories'
// index ranges merged in sort order (SORT_MERGE), half of their documents matching, 980 skipped.
const deep = { cat: { $in: ["c3", "c4"] }, amount: { $lt: 500 } };
const deepEngine = await median(21, () => coll.find(deep).sort({ n: -1 }).skip(980).limit(20).toArray());
const deepJs = await median(21, () =>
  rows
    .filter((r) => (r.cat === "c3" || r.cat === "c4") && r.amount < 500)
    .sort((a, b) => b.n - a.n)
    .slice(980, 1000),
);
results.push(["find $in + sort, merged, skip 980 limit 20", deepEngine, deepJs]);

// 6. The planning batch save's shape: one updateMany with a pipeline over every document (N writes, two
// secondary indexes kept, each change a new document), beside building the new rows over the array.
// Each run changes every document (rev + 1). Reported without a target: a write also keeps indexes and
// cursors' snapshots right, which the array does not.
const batch = [
  {
    $set: {
      amount: {
        $min: [999, { $floor: { $divide: [{ $add: [{ $multiply: [{ $ifNull: ["$amount", 0] }, 110] }, 50] }, 100] } }],
      },
      rev: { $add: [{ $ifNull: ["$rev", 0] }, 1] },
    },
  },
];
let jsRows: (Row & { rev?: number })[] = rows;
const updateEngine = await median(3, () => coll.updateMany({}, batch));
const updateJs = await median(3, () => {
  jsRows = jsRows.map((r) => ({
    ...r,
    amount: Math.min(999, Math.floor(((r.amount ?? 0) * 110 + 50) / 100)),
    rev: (r.rev ?? 0) + 1,
  }));
});
const untargeted = new Set<string>();
results.push([`updateMany, $set pipeline over ${N.toLocaleString("en")} documents`, updateEngine, updateJs]);
untargeted.add(results[results.length - 1][0]);

console.log(
  `embedded engine vs plain JavaScript, ${N.toLocaleString("en")} documents, node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}`,
);
console.log("| operation | engine (driver) | plain JS | ratio | target |");
console.log("|---|---|---|---|---|");
let failed = false;
for (const [name, engine, js] of results) {
  const ratio = engine / js;
  if (untargeted.has(name)) {
    console.log(
      `| ${name} | ${engine.toFixed(2)} ms (${((engine * 1000) / N).toFixed(1)} µs/doc) | ${js.toFixed(2)} ms | ${ratio.toFixed(2)}x | — |`,
    );
    continue;
  }
  if (ratio > TARGET) failed = true;
  console.log(
    `| ${name} | ${engine.toFixed(2)} ms | ${js.toFixed(2)} ms | ${ratio.toFixed(2)}x | ≤ ${TARGET}x ${ratio <= TARGET ? "✔" : "✗"} |`,
  );
}
await client.close();
await server.stop();
process.exit(failed ? 1 : 0);
