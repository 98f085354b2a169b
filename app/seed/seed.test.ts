import { EJSON } from "bson";
import type { Db, Document } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { getClient } from "~/db.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { CHART_PIPELINE_STAGES, type DashboardRecord } from "~/models/dashboards.server";
import { MASTER_DATA_COLLECTION_NAMES } from "~/models/master-data.server";
import { CHANNELS } from "~/models/planning.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { runChart, runCharts } from "~/services/dashboards/native.server";
import { verifyPassword } from "~/services/password-hash.server";
import { objectUrlPath } from "~/services/storage.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./accounts";
import { isValidCnpj, isValidCpf } from "./brazil";
import { monthStart } from "./context";
import { masterDataOkNokChart } from "./dashboards";
import { currentScenario } from "./forecast";
import { SEEDED_COLLECTIONS, seedDatabase } from "./index.server";

/** How many seeded files are queued (waiting or running) at any scale: app/seed/files.ts's first states. */
const FIRST_STATES_QUEUED = 5;

const testDb = useTestDatabase();
// The seeded files go to the local store under DATA_DIR: a temporary one, never the working tree.
useTempDataDir();
const options = { scale: 0.01, referenceDate: new Date("2026-03-01T00:00:00Z"), tenantId: "acme", bucket: "local" };

let db: Db;
let counts: Record<string, number>;

async function dump(target: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of SEEDED_COLLECTIONS) {
    const docs = await target.collection(name).find({}).sort({ _id: 1 }).toArray();
    out[name] = docs.map((d) => EJSON.stringify(d, { relaxed: false }));
  }
  return out;
}

beforeAll(async () => {
  db = await testDb.db();
  await applyIndexes(db);
  counts = await seedDatabase(db, options);
});

describe("seedDatabase", () => {
  it("writes identical documents, _id and password hashes included, on a second run", async () => {
    const other = (await getClient()).db(`${db.databaseName}_again`);
    await applyIndexes(other);
    const otherCounts = await seedDatabase(other, options);
    expect(otherCounts).toEqual(counts);
    const [first, second] = await Promise.all([dump(db), dump(other)]);
    for (const name of SEEDED_COLLECTIONS) {
      expect(second[name].length, name).toBe(counts[name]);
      expect(second[name], name).toEqual(first[name]);
    }
    await other.dropDatabase();
  });

  it("fills every seeded collection and reports the counts it wrote", async () => {
    for (const name of SEEDED_COLLECTIONS) {
      expect(counts[name], name).toBeGreaterThan(0);
      expect(await db.collection(name).countDocuments(), name).toBe(counts[name]);
    }
  });

  it("scales the large volumes proportionally", async () => {
    const double = (await getClient()).db(`${db.databaseName}_double`);
    const doubled = await seedDatabase(double, { ...options, scale: 0.02 });
    expect(counts.planning_quantity).toBe(1_000);
    expect(doubled.planning_quantity).toBe(2_000);
    expect(counts.product_master).toBe(100);
    expect(doubled.product_master).toBe(200);
    expect(counts.files).toBe(60);
    expect(doubled.files).toBe(120);
    expect(doubled.explorer_documents).toBe(2 * counts.explorer_documents);
    await double.dropDatabase();
  });

  it("rejects a scale that is not above zero", async () => {
    await expect(seedDatabase(db, { ...options, scale: 0 })).rejects.toThrow(/scale must be a number above 0/);
    await expect(seedDatabase(db, { ...options, scale: Number.NaN })).rejects.toThrow(/scale must be a number above 0/);
  });
});

describe("seeded data", () => {
  it("plans only SKUs of the product master, on the four channels, per competency month", async () => {
    const planned: string[] = await db.collection("planning_quantity").distinct("sku");
    const known = new Set<string>(await db.collection("product_master").distinct("sku"));
    expect(planned.length).toBeGreaterThan(0);
    expect(planned.filter((sku) => !known.has(sku))).toEqual([]);
    expect((await db.collection("planning_quantity").distinct("channel")).sort()).toEqual([...CHANNELS].sort());
    const row = await db.collection("planning_quantity").findOne({});
    expect(row?.dateRef.getUTCDate()).toBe(1);
    expect(Number.isInteger(row?.valor)).toBe(true);
    expect(
      await db.collection("product_master").countDocuments({
        categoria_principal_sku: { $nin: ["Makeup", "Skincare", "Haircare", "Fragrance", "Other"] },
      }),
    ).toBe(0);
  });

  it("has unique painelIds, both panel types, and charts the native provider accepts and draws", async () => {
    const dashboards = await db.collection<DashboardRecord>("dashboards").find({}).sort({ painelId: 1 }).toArray();
    expect(new Set(dashboards.map((d) => d.painelId)).size).toBe(dashboards.length);
    expect(new Set(dashboards.map((d) => d.panelType))).toEqual(new Set([1, 2]));
    expect(dashboards.every((d) => d.cliente === "acme")).toBe(true);
    expect(dashboards.filter((d) => (d.charts ?? []).length > 0).length).toBeGreaterThanOrEqual(4);
    for (const dashboard of dashboards) {
      for (const chart of dashboard.charts ?? []) {
        const pipeline = EJSON.parse(chart.pipeline, { relaxed: false }) as Document[];
        for (const stage of pipeline)
          expect(CHART_PIPELINE_STAGES, `${chart.id}: ${Object.keys(stage)[0]}`).toContain(Object.keys(stage)[0]);
      }
      // Through the provider itself: its allowlists, its row cap, its error handling.
      const results = await runCharts(dashboard.charts);
      for (const result of results) {
        expect(result.error, `${dashboard.panelLabel} / ${result.id}`).toBeUndefined();
        expect(result.rows.length, `${dashboard.panelLabel} / ${result.id}`).toBeGreaterThan(0);
        if (result.kind === "kpi") expect(Number(result.rows[0].value), result.id).toBeGreaterThan(0);
        if (result.kind === "bar" || result.kind === "line" || result.kind === "pie")
          expect(typeof result.rows[0].label, result.id).toBe("string");
      }
    }
  });

  async function chartOf(panelLabel: string, chartId: string) {
    const dashboard = await db.collection<DashboardRecord>("dashboards").findOne({ panelLabel });
    const chart = dashboard?.charts?.find((c) => c.id === chartId);
    if (!dashboard || !chart) throw new Error(`the seed has no chart ${chartId} on ${panelLabel}`);
    return { dashboard, chart, result: await runChart(chart) };
  }

  it("has the dashboard of planned quantity by channel and month, without losing any quantity", async () => {
    const { dashboard, chart, result } = await chartOf("Planejamento de Quantidades", "planned-by-channel-month");
    expect(dashboard.panelType).toBe(1);
    expect(chart).toMatchObject({
      title: "Quantidade planejada por canal e mês",
      kind: "bar",
      collection: "planning_quantity",
    });
    const months = result.rows.map((r) => r.label as string);
    expect(months).toEqual([...months].sort());
    expect(months.every((m) => /^\d{4}-\d{2}$/.test(m))).toBe(true);
    for (const row of result.rows) expect(Object.keys(row).sort()).toEqual(["label", ...CHANNELS].sort());
    const pivotSum = result.rows.reduce((s, r) => s + CHANNELS.reduce((t, c) => t + (r[c] as number), 0), 0);
    const [total] = await db
      .collection("planning_quantity")
      .aggregate([{ $group: { _id: null, valor: { $sum: "$valor" } } }])
      .toArray();
    expect(pivotSum).toBe(total.valor);
    // One month and one channel, counted directly.
    const [month] = months;
    const direct = (await db.collection("planning_quantity").find({ channel: CHANNELS[0] }).toArray())
      .filter((r) => (r.dateRef as Date).toISOString().slice(0, 7) === month)
      .reduce((s, r) => s + (r.valor as number), 0);
    expect(result.rows[0][CHANNELS[0]]).toBe(direct);
  });

  it("has the dashboard of jobs by status per day, matching the files of each day", async () => {
    const { dashboard, chart, result } = await chartOf("Jobs por status", "jobs-by-status-per-day");
    expect(dashboard.panelType).toBe(2);
    expect(chart.kind).toBe("bar");
    expect(chart.labels).toMatchObject({
      concluidos: "Concluídos",
      em_andamento: "Em andamento",
      com_erro: "Com erro",
    });
    const files = await db.collection("files").find({}).toArray();
    const expected = new Map<string, { concluidos: number; em_andamento: number; com_erro: number }>();
    for (const file of files) {
      const day = (file.statusChangeDate as Date).toISOString().slice(0, 10);
      const entry = expected.get(day) ?? { concluidos: 0, em_andamento: 0, com_erro: 0 };
      if (file.status !== 0) entry.com_erro += 1;
      else if (file.progress === 100) entry.concluidos += 1;
      else entry.em_andamento += 1;
      expected.set(day, entry);
    }
    const lastDays = [...expected.keys()].sort().slice(-30);
    expect(result.rows).toEqual(lastDays.map((day) => ({ label: day, ...expected.get(day) })));
  });

  it("has the dashboard of master data OK versus NOK, one row per subject of the catalogue", async () => {
    const { dashboard, result } = await chartOf("Master Data OK x NOK", "master-data-ok-nok");
    expect(dashboard.panelType).toBe(1);
    const catalogue = await db.collection("master_data_collections").find({}).sort({ order: 1 }).toArray();
    const oks = catalogue.filter((c) => c.collection_ok === 1);
    expect(result.rows).toEqual(
      oks.map((c) => ({ label: c.label_name, ok: counts[c.collection_name], nok: counts[`${c.collection_name}_nok`] })),
    );
    expect(result.rows.map((r) => r.label)).toEqual(["Product", "Channel", "Spend"]);
  });

  it("builds the OK x NOK chart from whatever catalogue it is given", async () => {
    const chart = masterDataOkNokChart([
      { collection_name: "channel_nok", label_name: "Canal NOK", collection_ok: 0, order: 2 },
      { collection_name: "channel", label_name: "Canal", collection_ok: 1, order: 1 },
      { collection_name: "planning_spend_nok", label_name: "Gasto NOK", collection_ok: 0, order: 3 },
    ]);
    expect((await runChart(chart)).rows).toEqual([
      { label: "Canal", ok: counts.channel, nok: counts.channel_nok },
      { label: "Gasto NOK", ok: 0, nok: counts.planning_spend_nok },
    ]);
  });

  it("has the dashboard of forecast versus actual by cost centre over the last twelve months", async () => {
    const { dashboard, chart, result } = await chartOf("Forecast x Realizado", "forecast-vs-actual-by-cost-centre");
    expect(dashboard.panelType).toBe(1);
    const scenario = currentScenario(options.referenceDate).rf;
    expect(chart.title).toBe(`Forecast (${scenario}) x Realizado por centro de custo, últimos 12 meses`);
    expect(result.rows.length).toBeGreaterThan(1);
    const from = monthStart(options.referenceDate, -12);
    const to = monthStart(options.referenceDate);
    const [first] = result.rows;
    const records = await db.collection("forecast").find({ cost_center_concat: first.label }).toArray();
    const inWindow = records.filter((r) => r.data_ref >= from && r.data_ref < to);
    const realizado = inWindow.filter((r) => r.rf === "actual").reduce((s, r) => s + r.value, 0);
    const forecast = inWindow.filter((r) => r.rf === scenario).reduce((s, r) => s + r.forecast, 0);
    expect(first.realizado).toBeCloseTo(realizado, 2);
    expect(first.forecast).toBeCloseTo(forecast, 2);
    expect(forecast).toBeGreaterThan(0);
    // Sorted by actual, largest first.
    const actuals = result.rows.map((r) => r.realizado as number);
    expect(actuals).toEqual([...actuals].sort((a, b) => b - a));
  });

  it("names result fields with accents for the tables that screen readers read", async () => {
    expect((await chartOf("Master Data OK x NOK", "master-data-collections")).chart.labels).toEqual({
      colecao: "Coleção",
      nome: "Nome",
      base: "Base",
    });
    expect((await chartOf("Arquivos por usuário", "files-by-user")).chart.labels).toMatchObject({ usuario: "Usuário" });
  });

  it("creates every demo account with its type, a working password and the first-access flag", async () => {
    for (const account of DEMO_ACCOUNTS) {
      const permission = await db.collection("user_permissions").findOne({ user: account.email });
      expect(permission?.type, account.email).toBe(account.type);
      const local = await db.collection("local_users").findOne({ email: account.email });
      expect(local?.mustChangePassword, account.email).toBe(account.email === "firstaccess@demo.local");
    }
    const sample = await db.collection("local_users").findOne({ email: "gold@demo.local" });
    expect(await verifyPassword(DEMO_PASSWORD, sample!.passwordHash)).toBe(true);
    expect(await verifyPassword("wrong", sample!.passwordHash)).toBe(false);
    const ordinary = await db
      .collection("user_permissions")
      .countDocuments({ type: { $in: ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"] } });
    expect(ordinary).toBeGreaterThanOrEqual(60);
    expect(await db.collection("user_permissions").countDocuments({ createdAt: null })).toBeGreaterThan(0);
  });

  it("has files in every state, sorted-list fields and unique object keys", async () => {
    const files = db.collection("files");
    expect(await files.countDocuments({ status: 0, progress: 0 })).toBeGreaterThan(0);
    expect(await files.countDocuments({ status: 0, progress: { $gt: 0, $lt: 100 } })).toBeGreaterThan(0);
    expect(await files.countDocuments({ status: 0, progress: 100 })).toBeGreaterThan(0);
    expect(await files.countDocuments({ status: { $ne: 0 } })).toBeGreaterThan(0);
    // The worker claims status 0, progress < 100 with an expired lease: seeded ones must stay as they are.
    expect(
      await files.countDocuments({
        status: 0,
        progress: { $lt: 100 },
        $or: [{ leaseUntil: null }, { leaseUntil: { $lte: new Date("2099-01-01T00:00:00Z") } }],
      }),
    ).toBe(0);
    const keys: string[] = await files.distinct("originalFile");
    expect(keys.length).toBe(counts.files);
    const one = await files.findOne({});
    expect(one?.originalFile.split(".").pop()).toBe(one?.originalName.split(".").pop()?.toLowerCase());
  });

  it("records on each ended file the refused rows the seed keeps of it: none, as the NOK collections hold", async () => {
    const files = db.collection("files");
    const ended = { $or: [{ progress: 100 }, { status: { $ne: 0 } }] };
    expect(await files.countDocuments(ended)).toBeGreaterThan(0);
    expect(await files.countDocuments({ ...ended, nokRows: { $ne: 0 } })).toBe(0);
    expect(await files.countDocuments({ status: 0, progress: { $lt: 100 }, nokRows: { $exists: true } })).toBe(0);
    const all = await files.find({}, { projection: { _id: 1, bucket: 1, originalFile: 1 } }).toArray();
    const ids = all.map((f) => f._id);
    const paths = all.map((f) => objectUrlPath(f.bucket, f.originalFile));
    for (const name of await db.listCollections({ name: /_nok$/ }, { nameOnly: true }).toArray())
      expect(
        await db
          .collection(name.name)
          .countDocuments({ $or: [{ sourceFileId: { $in: ids } }, { urlPath: { $in: paths } }] }),
        name.name,
      ).toBe(0);
  });

  it("keeps a few files in the queue at any scale, each one the worker accepts once let through (the demo's seed)", async () => {
    const files = db.collection("files");
    const queued = await files.find({ status: 0, progress: { $lt: 100 } }).toArray();
    expect(queued.length).toBeGreaterThanOrEqual(2);
    expect(queued.length).toBeLessThanOrEqual(FIRST_STATES_QUEUED);
    // As the demo seeds them (--live-jobs): no lease. The worker takes one and ends it with its rows loaded.
    const one = queued.find((f) => f.progress === 0)!;
    await files.updateOne({ _id: one._id }, { $set: { leaseUntil: null } });
    const channels = await db.collection("channel").countDocuments();
    const outcome = await processNextJob({ name: "seed-queue", leaseMs: 60_000, progressIntervalMs: 20 });
    expect(outcome).not.toBeNull();
    const ended = await files.findOne({ _id: one._id });
    expect(ended).toMatchObject({ status: 0, progress: 100 });
    expect(ended?.message).toMatch(/5 linhas OK/);
    expect(await db.collection("channel").countDocuments()).toBe(channels + 5);
  });

  it("lists the master-data collections in order and only allowed names", async () => {
    const list = await db.collection("master_data_collections").find({}).sort({ order: 1 }).toArray();
    expect(list.map((c) => c.collection_name)).toEqual([...MASTER_DATA_COLLECTION_NAMES]);
    // The screens' browser tests switch collections within each base: both need at least two.
    expect(list.filter((c) => c.collection_ok === 1).length).toBeGreaterThanOrEqual(2);
    expect(list.filter((c) => c.collection_ok !== 1).length).toBeGreaterThanOrEqual(2);
    for (const c of list) {
      expect(c.fields.length).toBeGreaterThan(0);
      for (const field of c.fields) expect(Object.keys(field)).toHaveLength(1);
      const row = await db.collection(c.collection_name).findOne({});
      for (const field of c.fields)
        expect(row, `${c.collection_name}.${Object.keys(field)[0]}`).toHaveProperty(Object.keys(field)[0]);
    }
  });

  it("uses valid CNPJs and CPFs", async () => {
    const cnpjs: string[] = await db.collection("channel").distinct("cnpj");
    expect(cnpjs.every(isValidCnpj)).toBe(true);
    const cpfs: string[] = await db.collection("hr_aux").distinct("cpf");
    expect(cpfs.length).toBeGreaterThan(0);
    expect(cpfs.every(isValidCpf)).toBe(true);
  });

  it("covers reports of both origins, some without url, and a ledger of the five business units", async () => {
    expect((await db.collection("reports").distinct("origin")).sort()).toEqual(["automatico", "manual"]);
    expect(await db.collection("reports").countDocuments({ url: null })).toBeGreaterThan(0);
    expect((await db.collection("ledger").distinct("businessUnitID")).sort()).toEqual([
      "2236",
      "4313",
      "4664",
      "5454",
      "9311",
    ]);
    expect(await db.collection("financial_reports").countDocuments({ url: { $exists: false } })).toBeGreaterThan(0);
  });

  it("has actuals, RF1–RF4 forecasts of this and last year and the RF1 of next year", async () => {
    const scenarios: string[] = await db.collection("forecast").distinct("rf");
    expect(scenarios.sort()).toEqual([
      "RF1 2025",
      "RF1 2026",
      "RF1 2027",
      "RF2 2025",
      "RF2 2026",
      "RF3 2025",
      "RF3 2026",
      "RF4 2025",
      "RF4 2026",
      "actual",
    ]);
    const rf1 = await db
      .collection("forecast")
      .distinct("data_ref", { rf: "RF1 2026", cost_center: "CC1001", account_concat: /^4/ });
    expect(rf1.length).toBe(26);
  });

  it("stores accent-free lower-case search text for the explorer", async () => {
    const doc = await db.collection("explorer_documents").findOne({});
    expect(doc?.searchText).toBe(doc?.searchText.toLowerCase());
    expect(doc?.searchText).not.toMatch(/[áàâãéêíóôõúç]/);
  });
});
