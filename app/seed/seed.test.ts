import { EJSON } from "bson";
import type { Db, Document } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { getClient } from "~/db.server";
import { applyIndexes } from "~/models/all-indexes.server";
import type { DashboardRecord } from "~/models/dashboards.server";
import { MASTER_DATA_COLLECTION_NAMES } from "~/models/master-data.server";
import { CHANNELS } from "~/models/planning.server";
import { verifyPassword } from "~/services/password-hash.server";
import { useTestDatabase } from "../../test/db";
import { isValidCnpj, isValidCpf } from "./brazil";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./accounts";
import { CHART_PIPELINE_STAGES } from "./dashboards";
import { SEEDED_COLLECTIONS, seedDatabase } from "./index.server";

const testDb = useTestDatabase();
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
    expect(await db.collection("product_master").countDocuments({ categoria_principal_sku: { $nin: ["Makeup", "Skincare", "Haircare", "Fragrance", "Other"] } })).toBe(0);
  });

  it("has unique painelIds, both panel types, and chart pipelines that run", async () => {
    const dashboards = await db.collection<DashboardRecord>("dashboards").find({}).sort({ painelId: 1 }).toArray();
    expect(new Set(dashboards.map((d) => d.painelId)).size).toBe(dashboards.length);
    expect(new Set(dashboards.map((d) => d.panelType))).toEqual(new Set([1, 2]));
    expect(dashboards.every((d) => d.cliente === "acme")).toBe(true);
    expect(dashboards.filter((d) => (d.charts ?? []).length > 0).length).toBeGreaterThanOrEqual(4);
    for (const dashboard of dashboards) {
      for (const chart of dashboard.charts ?? []) {
        // Parsed the way the native dashboard provider does (canonical mode); other tests use relaxed.
        const pipeline = EJSON.parse(chart.pipeline, { relaxed: false }) as Document[];
        for (const stage of pipeline) expect(CHART_PIPELINE_STAGES, `${chart.id}: ${Object.keys(stage)[0]}`).toContain(Object.keys(stage)[0]);
        const rows = await db.collection(chart.collection).aggregate(pipeline).toArray();
        expect(rows.length, `${dashboard.panelLabel} / ${chart.id}`).toBeGreaterThan(0);
        if (chart.kind === "kpi") expect(Number(rows[0].value), chart.id).toBeGreaterThan(0);
        if (chart.kind === "bar" || chart.kind === "line" || chart.kind === "pie") expect(typeof rows[0].label, chart.id).toBe("string");
      }
    }
  });

  it("pivots planned quantity by month and channel without losing any quantity", async () => {
    const dashboard = await db.collection<DashboardRecord>("dashboards").findOne({ painelId: 1 });
    const run = async (id: string) => {
      const chart = dashboard!.charts!.find((c) => c.id === id)!;
      return db.collection(chart.collection).aggregate(EJSON.parse(chart.pipeline) as Document[]).toArray();
    };
    const [total] = await run("planned-total");
    const byMonth = await run("planned-by-channel-month");
    expect(byMonth.map((r) => r.label)).toEqual([...byMonth.map((r) => r.label)].sort());
    expect(byMonth[0].label).toMatch(/^\d{4}-\d{2}$/);
    const pivotSum = byMonth.reduce((s, r) => s + CHANNELS.reduce((t, c) => t + (r[c] as number), 0), 0);
    expect(pivotSum).toBe(total.value);
  });

  it("computes master data OK versus NOK counts in the dashboard chart", async () => {
    const dashboard = await db.collection<DashboardRecord>("dashboards").findOne({ panelLabel: "Master Data OK x NOK" });
    const chart = dashboard?.charts?.find((c) => c.id === "master-data-ok-nok");
    const rows = await db.collection(chart!.collection).aggregate(EJSON.parse(chart!.pipeline) as Document[]).toArray();
    expect(rows).toEqual([
      { label: "Product", ok: counts.product_master, nok: counts.product_master_nok },
      { label: "Channel", ok: counts.channel, nok: counts.channel_nok },
      { label: "Spend", ok: counts.planning_spend, nok: counts.planning_spend_nok },
    ]);
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
    const ordinary = await db.collection("user_permissions").countDocuments({ type: { $in: ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"] } });
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
    expect(await files.countDocuments({ status: 0, progress: { $lt: 100 }, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: new Date("2099-01-01T00:00:00Z") } }] })).toBe(0);
    const keys: string[] = await files.distinct("originalFile");
    expect(keys.length).toBe(counts.files);
    const one = await files.findOne({});
    expect(one?.originalFile.split(".").pop()).toBe(one?.originalName.split(".").pop()?.toLowerCase());
  });

  it("lists the master-data collections in order and only allowed names", async () => {
    const list = await db.collection("master_data_collections").find({}).sort({ order: 1 }).toArray();
    expect(list.map((c) => c.collection_name)).toEqual([...MASTER_DATA_COLLECTION_NAMES]);
    for (const c of list) {
      expect(c.fields.length).toBeGreaterThan(0);
      for (const field of c.fields) expect(Object.keys(field)).toHaveLength(1);
      const row = await db.collection(c.collection_name).findOne({});
      for (const field of c.fields) expect(row, `${c.collection_name}.${Object.keys(field)[0]}`).toHaveProperty(Object.keys(field)[0]);
    }
  });

  it("uses valid CNPJs and CPFs", async () => {
    const cnpjs: string[] = await db.collection("channel").distinct("cnpj");
    expect(cnpjs.every(isValidCnpj)).toBe(true);
    const cpfs: string[] = await db.collection("hr_aux").distinct("cpf");
    expect(cpfs.length).toBeGreaterThan(0);
    expect(cpfs.every(isValidCpf)).toBe(true);
  });

  it("covers reports of both origins, some without url, and the five business units", async () => {
    expect((await db.collection("reports").distinct("origin")).sort()).toEqual(["automatico", "manual"]);
    expect(await db.collection("reports").countDocuments({ url: null })).toBeGreaterThan(0);
    expect((await db.collection("financial_reports").distinct("businessUnitID")).sort()).toEqual(["2236", "4313", "4664", "5454", "9311"]);
    expect(await db.collection("financial_reports").countDocuments({ url: { $exists: false } })).toBeGreaterThan(0);
  });

  it("has actuals and RF1–RF4 forecasts of this and last year", async () => {
    const scenarios: string[] = await db.collection("forecast").distinct("rf");
    expect(scenarios.sort()).toEqual(["RF1 2025", "RF1 2026", "RF2 2025", "RF2 2026", "RF3 2025", "RF3 2026", "RF4 2025", "RF4 2026", "actual"]);
    const rf1 = await db.collection("forecast").distinct("data_ref", { rf: "RF1 2026", cost_center: "CC1001", account_concat: /^4/ });
    expect(rf1.length).toBe(26);
  });

  it("stores accent-free lower-case search text for the explorer", async () => {
    const doc = await db.collection("explorer_documents").findOne({});
    expect(doc?.searchText).toBe(doc?.searchText.toLowerCase());
    expect(doc?.searchText).not.toMatch(/[áàâãéêíóôõúç]/);
  });
});
