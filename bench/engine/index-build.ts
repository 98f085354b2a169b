/**
 * Building the planning rows' indexes (the portal's own declarations) over N planning-shaped rows in the embedded
 * engine, as the seed and an import build them after the data: all of them in one `createIndexes` command, whose
 * builds share each key field's columns (and the ids' ranks), against the baseline measured in the same run: the
 * same indexes, one command each (no build shares anything with another). Alternating rounds; medians and the
 * ratio (docs/performance.md keeps the current figure).
 *
 *   npx tsx bench/engine/index-build.ts [rows, default 300000] [rounds, default 3]
 */
import { MongoClient } from "mongodb";
import { indexes } from "../../app/models/planning.server";
import { startEmbeddedMongo } from "../../packages/embedded-mongo/index";

const ROWS = Number(process.argv[2] ?? 300_000);
const ROUNDS = Number(process.argv[3] ?? 3);

const server = await startEmbeddedMongo({});
const client = new MongoClient(server.uri);
await client.connect();
const rows = client.db("bench").collection("planning_quantity");

// Deterministic rows with the planning attributes' real spread: 20,000 SKUs, 8 channels, 36 months, attributes of
// 2 to 200 values, creation times all different.
let seed = 1;
const pick = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed % n;
};
const CHANNELS = ["WHOLESALES", "FSS", "RETAIL", "ECOMMERCE", "B2B", "EXPORT", "OUTLET", "FRANCHISE"];
for (let i = 0; i < ROWS; i += 10_000) {
  await rows.insertMany(
    Array.from({ length: Math.min(10_000, ROWS - i) }, () => ({
      sku: `SKU${pick(20_000)}`,
      channel: CHANNELS[pick(8)],
      dateRef: new Date(Date.UTC(2024, pick(36), 1)),
      creationDate: new Date(1.7e12 + pick(1e9) * 100),
      marca: `Marca ${pick(200)}`,
      category_sku: `Categoria ${pick(50)}`,
      hero: pick(2) ? "S" : "N",
      categoria_principal_sku: `Principal ${pick(20)}`,
      abcd: "ABCD"[pick(4)],
      sub_categoria_sku: `Sub ${pick(100)}`,
      plc_localsku: `PLC ${pick(6)}`,
      quantity: pick(1_000),
    })),
  );
}

const specs = indexes.filter((d) => d.collection === "planning_quantity").map((d) => ({ key: d.key, ...d.options }));
const timed = async (build: () => Promise<unknown>) => {
  await rows.dropIndexes();
  const started = performance.now();
  await build();
  return (performance.now() - started) / 1000;
};
const together: number[] = [];
const apart: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  apart.push(
    await timed(async () => {
      for (const spec of specs) await rows.createIndexes([spec] as never);
    }),
  );
  together.push(await timed(() => rows.createIndexes(specs as never)));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`${specs.length} planning indexes over ${ROWS.toLocaleString("en")} rows, ${ROUNDS} rounds (median s):`);
console.log(
  `  one command each (baseline)  ${median(apart).toFixed(2)}   [${apart.map((s) => s.toFixed(2)).join(" ")}]`,
);
console.log(
  `  one command for all          ${median(together).toFixed(2)}   [${together.map((s) => s.toFixed(2)).join(" ")}]`,
);
console.log(`  ratio                        ${(median(together) / median(apart)).toFixed(2)}`);
await client.close();
await server.stop();
