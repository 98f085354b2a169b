/**
 * What versions of the forecast cost the database: the embedded server as its own process with the seed's forecast
 * at scale 10 (every RF and the actuals, and their rollups), its RSS before and after saving four versions (the four
 * RFs of the reference year, every cost centre), and the stored size of each collection (as BSON). The baseline is
 * the same process before the versions, in the same run.
 *
 *   npx tsx bench/forecast/versions-rss.ts            (BENCH_SCALE=… to change the scale, default 10)
 *
 * The forecast itself does not grow past 40 cost centres (app/seed/forecast.ts): the figures hold for scale 10's
 * whole database, whose other collections versions do not touch.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { calculateObjectSize } from "bson";
import { startEmbeddedDbProcess } from "embedded-mongo/process";
import { MongoClient } from "mongodb";

const SCALE = Number(process.env.BENCH_SCALE ?? 10);
const DATABASE = "versions_rss";

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/** The median of five readings a second apart (the server settles after a write). */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    readings.push(rssMb(pid));
  }
  return readings.sort((a, b) => a - b)[2];
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "versions-rss-"));
  const server = await startEmbeddedDbProcess(path.join(dir, "db"));
  process.env.MONGODB_URI = server.uri;
  process.env.DATABASE_NAME = DATABASE;
  const client = new MongoClient(server.uri);
  await client.connect();
  const pid = (await client.db("admin").command({ serverStatus: 1 })).pid as number;
  const db = client.db(DATABASE);
  const { Random, DEFAULT_SEED } = await import("../../app/seed/random");
  const { ForecastRollupCollector, generateForecast } = await import("../../app/seed/forecast");
  const { FORECAST, indexes: forecastIndexes } = await import("../../app/models/forecast.server");
  const { FORECAST_ROLLUPS, indexes: rollupIndexes } = await import("../../app/models/forecast-consolidated.server");
  const versionsModel = await import("../../app/models/forecast-versions.server");
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
  await db.collection(FORECAST_ROLLUPS).insertMany(collector.documents());
  for (const index of [...forecastIndexes, ...rollupIndexes, ...versionsModel.indexes])
    await db.collection(index.collection).createIndex(index.key, index.options);
  const before = await settledRss(pid);

  const { takeVersion } = await import("../../app/features/forecast/versions/snapshot.server");
  const { parseScenario, scenarioCalendar, scenarioName } = await import("../../app/features/forecast/release-points");
  const year = reference.getUTCFullYear();
  const started = performance.now();
  for (const rp of ["RF1", "RF2", "RF3", "RF4"] as const) {
    const calendar = scenarioCalendar(parseScenario(scenarioName(rp, year))!);
    await takeVersion({
      calendar,
      name: `${calendar.name} — bench`,
      kind: "manual",
      actor: { email: "bench@example.com", name: "Bench" },
      now: new Date(),
      notifyReviewers: false,
    });
  }
  const saving = performance.now() - started;
  const after = await settledRss(pid);

  // Stored size as BSON (the embedded server has no $bsonSize), read back by the client.
  const size = async (name: string) => {
    let bytes = 0;
    let n = 0;
    for await (const doc of db.collection(name).find({})) {
      bytes += calculateObjectSize(doc);
      n++;
    }
    return { n, bytes };
  };
  const sizes = Object.fromEntries(
    await Promise.all(
      [FORECAST, FORECAST_ROLLUPS, versionsModel.FORECAST_VERSIONS, versionsModel.FORECAST_VERSION_ROWS].map(
        async (name) => [name, await size(name)] as const,
      ),
    ),
  );
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  console.log(`# bench/forecast/versions-rss — scale ${SCALE}, ${new Date().toISOString()}`);
  for (const [name, s] of Object.entries(sizes)) console.log(`${name}: ${s.n} documents, ${kb(s.bytes)}`);
  const versionBytes = sizes[versionsModel.FORECAST_VERSIONS].bytes + sizes[versionsModel.FORECAST_VERSION_ROWS].bytes;
  console.log(
    `4 versions stored: ${kb(versionBytes)} = ${((versionBytes / sizes[FORECAST].bytes) * 100).toFixed(1)} % of the forecast records; rollups ${((sizes[FORECAST_ROLLUPS].bytes / sizes[FORECAST].bytes) * 100).toFixed(1)} %`,
  );
  console.log(
    `database RSS: ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after 4 versions (${(after - before).toFixed(1)} MB, ${(after / before).toFixed(3)}×); saving them took ${saving.toFixed(0)} ms`,
  );
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
