import { EJSON } from "bson";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { grantPermission } from "#test/upload-fixtures";
import { DASHBOARDS } from "~/models/dashboards.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { HR_AUX } from "~/models/hr.server";
import type { PermissionType } from "~/models/users.server";
import { loader as painelLoader } from "~/routes/ij.painel.$id";

/**
 * A native dashboard over the forecast follows the forecast's read rule (docs/decisions.md "Forecast: who reads which
 * cost centre"): a preparer's charts hold only the cost centres they prepare, someone who prepares none sees no
 * forecast figure, a chart that reaches the forecast through a $lookup is not run for them; SYSTEM ADMIN sees all.
 */

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
const testDb = useTestDatabase();
const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });
const MINE = "CC1001 - Marketing";
const OTHER = "CC1002 - Vendas Varejo";

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection(FORECAST).insertMany([
    { rf: "RF2 2027", cost_center_concat: MINE, forecast: 100 },
    { rf: "RF2 2027", cost_center_concat: MINE, forecast: 20 },
    { rf: "RF2 2027", cost_center_concat: OTHER, forecast: 999 },
  ]);
  await db.collection(HR_AUX).insertOne({ filial_nome: "Loja Centro", matricula: "1", vendas_adicionais: 1 });
  await db.collection(DASHBOARDS).insertOne({
    dashboardId: "forecast",
    panelLabel: "Forecast",
    panelType: 1,
    painelId: 8,
    cliente: "journey",
    charts: [
      {
        id: "by-centre",
        title: "Forecast por centro de custo",
        kind: "bar",
        collection: FORECAST,
        pipeline: pipeline([
          { $group: { _id: "$cost_center_concat", value: { $sum: "$forecast" } } },
          { $sort: { _id: 1 } },
          { $project: { _id: 0, label: "$_id", value: 1 } },
        ]),
      },
      {
        id: "through-lookup",
        title: "Via lookup",
        kind: "table",
        collection: HR_AUX,
        pipeline: pipeline([
          {
            $lookup: {
              from: FORECAST,
              pipeline: [{ $group: { _id: null, total: { $sum: "$forecast" } } }],
              as: "forecast",
            },
          },
          { $project: { _id: 0, forecast: 1 } },
        ]),
      },
    ],
  });
  await grantPermission(db, "prep@example.com", "USER GOLD");
  await grantPermission(db, "nobody@example.com", "USER GOLD");
  await grantPermission(db, "admin@example.com", "SYSTEM ADMIN");
  await db
    .collection(FORECAST_PREPARERS)
    .insertOne({ cost_center_concat: MINE, user: "prep@example.com", assigned_at: new Date(), assigned_by: "test" });
});

async function chartsFor(email: string, type: PermissionType) {
  currentUser.email = email;
  currentUser.type = type;
  const screen = (await painelLoader({
    request: new Request("http://localhost/ij/painel/8"),
    params: { id: "8" },
    context: {} as never,
  })) as {
    view: { charts: Array<{ id: string; rows: Array<Record<string, unknown>>; error?: string }> };
  };
  return Object.fromEntries(screen.view.charts.map((c) => [c.id, c]));
}

describe("a dashboard over the forecast", () => {
  it("shows a preparer only the cost centres they prepare, and not a chart that looks the forecast up", async () => {
    // SYSTEM ADMIN first: its figures in the cache must not reach the preparer.
    const all = await chartsFor("admin@example.com", "SYSTEM ADMIN");
    expect(all["by-centre"].rows).toEqual([
      { label: MINE, value: 120 },
      { label: OTHER, value: 999 },
    ]);
    expect(all["through-lookup"].error).toBeUndefined();

    const mine = await chartsFor("prep@example.com", "USER GOLD");
    expect(mine["by-centre"].rows).toEqual([{ label: MINE, value: 120 }]);
    expect(mine["through-lookup"].rows).toEqual([]);
    expect(mine["through-lookup"].error).toEqual(expect.any(String));
  });

  it("shows someone who prepares no cost centre no forecast figure", async () => {
    const none = await chartsFor("nobody@example.com", "USER GOLD");
    expect(none["by-centre"].rows).toEqual([]);
    expect(none["through-lookup"].rows).toEqual([]);
  });
});
