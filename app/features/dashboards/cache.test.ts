import { EJSON } from "bson";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { applyIndexes } from "~/models/all-indexes.server";
import { DASHBOARD_CHART_CACHE, noteDataChanged } from "~/models/dashboard-cache.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import { loader as painelLoader } from "~/routes/ij.painel.$id";
import { CHART_CACHE_MAX_AGE_MS } from "~/services/dashboards/native.server";
import { backgroundWorkSettled } from "~/shared/background-work.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/** Native dashboards read cached figures while the data they come from is unchanged. */
const testDb = useTestDatabase();
const args = () => ({
  request: new Request("http://localhost/ij/painel/1"),
  params: { id: "1" },
  context: {} as never,
});
const total = [{ $group: { _id: null, value: { $sum: "$valor" } } }, { $project: { _id: 0, value: 1 } }];

async function setUp() {
  const db = await testDb.db();
  if ((await db.collection(DASHBOARDS).countDocuments({ painelId: 1 })) === 0) {
    await applyIndexes(db);
    await db
      .collection(PLANNING_QUANTITY)
      .insertMany(Array.from({ length: 2_000 }, (_, i) => ({ sku: `S${i}`, valor: 1, channel: "FSS" })));
    await db.collection(DASHBOARDS).insertOne({
      dashboardId: "d1",
      panelLabel: "Planejamento",
      panelType: 1,
      painelId: 1,
      cliente: "journey",
      charts: [
        {
          id: "total",
          title: "Total",
          kind: "kpi",
          collection: PLANNING_QUANTITY,
          pipeline: EJSON.stringify(total, { relaxed: false }),
        },
      ],
    });
  }
  return db;
}

async function view() {
  const data = await painelLoader(args());
  if (data.view.provider !== "native") throw new Error("expected the native provider");
  if (data.view.charts[0].error) throw new Error(data.view.charts[0].error);
  return data.view.charts[0].rows[0]?.value;
}

const aggregations = (plans: { op: string; ns: string; command: Record<string, unknown> }[]) =>
  plans.filter((p) => p.command.aggregate === PLANNING_QUANTITY).length;

describe("native dashboard figures", () => {
  it("are computed once, then read from the cache without touching the business collection", async () => {
    const db = await setUp();
    const first = await recordQueryPlans(db, view, { minDocuments: 1_000_000 });
    expect(first.error).toBeUndefined();
    expect(first.result).toBe(2_000);
    expect(aggregations(first.plans)).toBe(1);
    const again = await recordQueryPlans(db, view, { minDocuments: 1 });
    expect(again.error).toBeUndefined();
    expect(again.result).toBe(2_000);
    expect(aggregations(again.plans)).toBe(0);
    // What a cached view reads: the dashboard, the data versions and the cached figures, all by index or _id.
    expect(again.plans.filter((p) => /COLLSCAN/.test(p.planSummary))).toEqual([]);
  });

  it("are recomputed after a write announced with noteDataChanged, or one that changes a count", async () => {
    const db = await setUp();
    await view();
    await db.collection(PLANNING_QUANTITY).updateMany({ sku: { $in: ["S1", "S2"] } }, { $set: { valor: 11 } });
    await noteDataChanged([PLANNING_QUANTITY]);
    expect(await view()).toBe(2_020);
    await db.collection(PLANNING_QUANTITY).insertOne({ sku: "new", valor: 5, channel: "FSS" });
    expect(await view()).toBe(2_025);
  });

  it("are computed once however many views wait for them", async () => {
    const db = await setUp();
    await noteDataChanged([PLANNING_QUANTITY]);
    const { result, plans } = await recordQueryPlans(db, () => Promise.all(Array.from({ length: 8 }, view)), {
      minDocuments: 1_000_000,
    });
    expect(result).toEqual(Array(8).fill(2_025));
    expect(aggregations(plans)).toBe(1);
  });

  it("past the maximum age with no change announced, are shown at once and recomputed behind the view", async () => {
    const db = await setUp();
    const before = Number(await view());
    // A write nobody announced and that keeps the count, seen only because the figures grew older than the maximum age.
    await db.collection(PLANNING_QUANTITY).updateOne({ sku: "S3" }, { $inc: { valor: 100 } });
    await db
      .collection(DASHBOARD_CHART_CACHE)
      .updateMany({}, { $set: { computedAt: new Date(Date.now() - CHART_CACHE_MAX_AGE_MS - 1_000) } });
    // The view answers with the figures it has (it used to wait for the recomputation)…
    expect(await view()).toBe(before);
    // …which runs behind it, and the next views show its result.
    await expect.poll(view, { timeout: 5_000 }).toBe(before + 100);
  });

  it("recomputed behind the view, are awaited by the host's shutdown before the database closes", async () => {
    const db = await setUp();
    const before = Number(await view());
    await db.collection(PLANNING_QUANTITY).updateOne({ sku: "S4" }, { $inc: { valor: 7 } });
    const stale = new Date(Date.now() - CHART_CACHE_MAX_AGE_MS - 1_000);
    await db.collection(DASHBOARD_CHART_CACHE).updateMany({}, { $set: { computedAt: stale } });
    expect(await view()).toBe(before);
    // What the shutdown awaits (server/index.ts) ends only once the new figures are stored.
    await backgroundWorkSettled();
    const stored = await db.collection(DASHBOARD_CHART_CACHE).find({}).toArray();
    expect(stored.map((c) => [c.rows[0]?.value, c.computedAt > stale])).toEqual([[before + 7, true]]);
  });

  it("follow an edited chart at once: a new pipeline is new figures, with no change to the data", async () => {
    const db = await setUp();
    const before = Number(await view());
    const count = [{ $group: { _id: null, value: { $sum: 1 } } }, { $project: { _id: 0, value: 1 } }];
    const edit = (pipeline: object[]) =>
      db
        .collection(DASHBOARDS)
        .updateOne({ painelId: 1 }, { $set: { "charts.0.pipeline": EJSON.stringify(pipeline, { relaxed: false }) } });
    await edit(count);
    const rows = await db.collection(PLANNING_QUANTITY).countDocuments();
    expect(await view()).toBe(rows);
    // …and back: the first definition's figures again.
    await edit(total);
    expect(await view()).toBe(before);
  });
});
