/**
 * The consolidated forecast's read, against its floor and against summing the records per request: the embedded
 * server as its own process with the seed's forecast at scale 10 (every RF, the actuals, their rollups), then in
 * alternating rounds
 *   - floor: reading the rollups the company view needs (the RF, the previous RF, the actuals) and nothing else;
 *   - view: the whole model of the company view compared with the previous RF (buildConsolidated, as SYSTEM ADMIN,
 *     in a request's scope), the forecast unchanged since the last request (its rollups' read kept);
 *   - view after a write: the same after the forecast's state changed (its rollups read again);
 *   - records: one aggregate summing the same three scenarios' records of the year per cost centre, account and month
 *     (what a view without rollups would run on every request).
 * Medians, and ratios to the floor.
 *
 *   npx tsx bench/forecast/consolidated-read.ts       (BENCH_ROUNDS=… default 15, BENCH_SCALE=… default 10)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedDbProcess } from "embedded-mongo/process";
import { MongoClient } from "mongodb";

const SCALE = Number(process.env.BENCH_SCALE ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const DATABASE = "consolidated_read";

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consolidated-read-"));
  const server = await startEmbeddedDbProcess(path.join(dir, "db"));
  process.env.MONGODB_URI = server.uri;
  process.env.DATABASE_NAME = DATABASE;
  const client = new MongoClient(server.uri);
  await client.connect();
  const db = client.db(DATABASE);
  const { Random, DEFAULT_SEED } = await import("../../app/seed/random");
  const { ForecastRollupCollector, generateForecast } = await import("../../app/seed/forecast");
  const { FORECAST, indexes: forecastIndexes } = await import("../../app/models/forecast.server");
  const consolidatedModel = await import("../../app/models/forecast-consolidated.server");
  const reference = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const ctx = {
    random: new Random(DEFAULT_SEED, "journey-portal-seed"),
    scale: SCALE,
    reference,
    tenantId: "t",
    bucket: "b",
  };
  const collector = new ForecastRollupCollector(ctx);
  const records = [...collector.tap(generateForecast(ctx))];
  for (let i = 0; i < records.length; i += 5000) await db.collection(FORECAST).insertMany(records.slice(i, i + 5000));
  await db.collection(consolidatedModel.FORECAST_ROLLUPS).insertMany(collector.documents());
  for (const index of [...forecastIndexes, ...consolidatedModel.indexes])
    await db.collection(index.collection).createIndex(index.key, index.options);

  const { buildConsolidated, parseConsolidatedQuery } = await import(
    "../../app/features/forecast/consolidated/consolidated.server"
  );
  const { parseScenario, scenarioCalendar, scenarioName } = await import("../../app/features/forecast/release-points");
  const { previousScenario } = await import("../../app/features/forecast/variance");
  const year = reference.getUTCFullYear();
  const rf = scenarioName("RF2", year);
  const calendar = scenarioCalendar(parseScenario(rf)!);
  const previous = previousScenario(calendar).name;
  const today = { year, month: 5, day: 15 };
  const admin = { email: "bench@example.com", type: "SYSTEM ADMIN" as const };
  const query = parseConsolidatedQuery(new URLSearchParams({ rf, vs: "anterior" }));
  const from = new Date(Date.UTC(year, 0, 1));
  const to = new Date(Date.UTC(year + 1, 0, 1));

  const { runInRequestScope } = await import("../../app/shared/request-scope.server");
  const { noteDataChanged } = await import("../../app/models/dashboard-cache.server");
  const view = () => runInRequestScope(() => buildConsolidated(query, admin, today));
  const ways: Record<string, () => Promise<unknown>> = {
    floor: () =>
      db
        .collection(consolidatedModel.FORECAST_ROLLUPS)
        .find({ rf: { $in: [rf, previous, "actual"] } }, { projection: { _id: 0, ticket: 0, applied: 0 } })
        .toArray(),
    view,
    "view after a write": async () => {
      await noteDataChanged([FORECAST]);
      await view();
    },
    records: () =>
      db
        .collection(FORECAST)
        .aggregate([
          { $match: { rf: { $in: [rf, previous, "actual"] }, data_ref: { $gte: from, $lt: to } } },
          {
            $group: {
              _id: { rf: "$rf", cc: "$cost_center_concat", account: "$account_concat", month: "$data_ref" },
              value: { $sum: "$value" },
              forecast: { $sum: "$forecast" },
            },
          },
        ])
        .toArray(),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (const run of Object.values(ways)) await run(); // warm: caches, the server's decoded documents
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(ways)) {
      const started = performance.now();
      await run();
      times[name].push(performance.now() - started);
    }
  const floor = median(times.floor);
  console.log(`# bench/forecast/consolidated-read — scale ${SCALE}, ${records.length} records, ${ROUNDS} rounds`);
  for (const [name, list] of Object.entries(times))
    console.log(`${name}: median ${median(list).toFixed(1)} ms (${(median(list) / floor).toFixed(2)}× the floor)`);
  await client.close();
  const { closeDb } = await import("../../app/db.server");
  await closeDb();
  await server.stop?.();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
