/**
 * What the audit trail adds to a save: the forecast grid's save of 20 cells (`saveForecastCells`: the check, the
 * conditional bulk write, the history) alone, against the same save followed by its audit entry (`recordEdit`: read
 * the chain's last entry, hash, insert), alternating rounds on one embedded database in its own process over a log that
 * already holds AUDIT_ENTRIES entries. CPU of this process (the web side) and of the database process, per save.
 *
 *   npx tsx bench/audit/write-cost.ts        (BENCH_ROUNDS, BENCH_SAVES, BENCH_AUDIT_ENTRIES to change the sizes)
 *
 * Target (the write path adds ≤ 5 % to a save's CPU): (save + entry − save) / save ≤ 5 %, web and total.
 * The floor, measured in the same rounds: the save followed by one plain `insertOne` of an entry-shaped document into a
 * collection with the log's indexes (the least any stored entry costs: one round trip, the same index writes).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedDbProcess } from "embedded-mongo/process";
import { MongoClient } from "mongodb";
import { cpuOf, ownCpu } from "../cpu-time";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SAVES = Number(process.env.BENCH_SAVES ?? 100);
const AUDIT_ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 200_000);
const CELLS = 20;
const RF = "RF1 2027";
const CC = "CC8000 - Benchmark";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jp-audit-bench-"));
  const db = await startEmbeddedDbProcess(path.join(dir, "db"), { env: { ...process.env, LOG_LEVEL: "warn" } });
  process.env.MONGODB_URI = db.uri;
  process.env.LOG_LEVEL = "warn";
  // The forecast model takes a change only in the RF's edit month (November 2026 for RF1 2027).
  process.env.PORTAL_TODAY = "2026-11-15";
  const { getDb, closeDb } = await import("../../app/db.server");
  const { applyIndexes } = await import("../../app/models/all-indexes.server");
  const { FORECAST, saveForecastCells } = await import("../../app/models/forecast.server");
  const { seedAuditEntries } = await import("../../app/models/audit.server");
  const { recordEdit } = await import("../../app/platform/audit/data-events.server");
  const { indexes: auditIndexes, AUDIT_LOG } = await import("../../app/models/audit.server");
  const { parseScenario, scenarioCalendar, windowMonths } = await import("../../app/features/forecast/release-points");
  const { monthStartDate } = await import("../../app/shared/months");
  const client = new MongoClient(db.uri);
  await client.connect();
  const dbPid = (await client.db("admin").command({ serverStatus: 1 })).pid as number;
  try {
    const portal = await getDb();
    await applyIndexes(portal);
    const calendar = scenarioCalendar(parseScenario(RF)!);
    const months = windowMonths(calendar).filter((m) => m >= calendar.firstForecastMonth);
    const accounts = Array.from({ length: CELLS }, (_, a) => `${4100000 + a} - Conta ${a}`);
    await portal.collection(FORECAST).insertMany(
      accounts.flatMap((account) =>
        months.map((m) => ({
          rf: RF,
          cost_center_concat: CC,
          cost_center: "CC8000",
          level_descr: "Bench",
          group_level_2: "Grupo",
          data_ref: monthStartDate(m),
          account_concat: account,
          acc_description: account,
          value: 0,
          forecast: 0,
        })),
      ),
    );
    console.log(`seeding ${AUDIT_ENTRIES.toLocaleString("en")} audit entries…`);
    await seedAuditEntries(AUDIT_ENTRIES, { db: portal });
    const month = monthStartDate(months[0]);
    const author = { email: "gold@demo.local", name: "Gold", type: "USER GOLD" as const };
    let value = 0;
    const floor = portal.collection("audit_floor");
    for (const index of auditIndexes.filter((i) => i.collection === AUDIT_LOG))
      await floor.createIndex(index.key, { ...index.options });
    const sample = await portal.collection(AUDIT_LOG).findOne({}, { sort: { n: -1 }, projection: { _id: 0 } });
    let floorN = 0;
    const oneSave = async (audited: boolean | "floor") => {
      const old = value;
      value += 1;
      const result = await saveForecastCells(
        RF,
        CC,
        accounts.map((account) => ({ account, month, old, value })),
        author,
        new Date(),
      );
      if (result.kind !== "saved") throw new Error(`save ${result.kind}`);
      if (audited === "floor") await floor.insertOne({ ...sample, n: ++floorN, seq: floorN, at: new Date() });
      else if (audited)
        await recordEdit({
          actor: author,
          dataset: "forecast",
          screen: "/ij/report_preview_edit_schneider/{rf}/{cost_center_concat}",
          rows: result.count,
          historyLink: `/ij/report_preview_edit_schneider/${encodeURIComponent(RF)}/${encodeURIComponent(CC)}`,
        });
    };
    for (let i = 0; i < 20; i++) await oneSave(i % 2 === 0);
    type Series = { save: number[]; audited: number[]; floor: number[] };
    const series = (): Series => ({ save: [], audited: [], floor: [] });
    const web = series();
    const total = series();
    const wall = series();
    for (let round = 0; round < ROUNDS; round++) {
      const order: (boolean | "floor")[] = round % 2 === 0 ? [false, true, "floor"] : ["floor", true, false];
      for (const audited of order) {
        const own = ownCpu();
        const dbCpu = cpuOf(dbPid);
        const started = performance.now();
        for (let i = 0; i < SAVES; i++) await oneSave(audited);
        const key = audited === "floor" ? "floor" : audited ? "audited" : "save";
        wall[key].push((performance.now() - started) / SAVES);
        const w = (ownCpu() - own) / SAVES;
        web[key].push(w);
        total[key].push(w + (cpuOf(dbPid) - dbCpu) / SAVES);
      }
    }
    const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
    const line = (name: string, x: Series) =>
      `${name}: save ${median(x.save).toFixed(2)} ms, save + audit entry ${median(x.audited).toFixed(2)} ms → +${pct(median(x.save), median(x.audited))}; floor (save + one plain insert) ${median(x.floor).toFixed(2)} ms → +${pct(median(x.save), median(x.floor))}`;
    console.log(
      `# bench/audit/write-cost — ${new Date().toISOString()}, ${CELLS} cells a save, ${SAVES} saves × ${ROUNDS} rounds, ${AUDIT_ENTRIES.toLocaleString("en")} entries in the log, load ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(line("web CPU per save", web));
    console.log(line("web + database CPU per save", total));
    console.log(line("wall time per save", wall));
  } finally {
    await client.close();
    await closeDb();
    await db.stop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
