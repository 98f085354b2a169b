import { EJSON } from "bson";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { grantPermission } from "#test/upload-fixtures";
import { DASHBOARDS } from "~/models/dashboards.server";
import { HR_AUX } from "~/models/hr.server";
import { loader as painelLoader } from "~/routes/ij.painel.$id";

/**
 * A native dashboard over HR auxiliary data shows a store-limited account only its branches, as /ij/rh
 * does; a chart that would reach other branches' rows through a $lookup is not run for it.
 */

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
const testDb = useTestDatabase();
const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection(HR_AUX).insertMany([
    { filial_nome: "Loja Centro", matricula: "1", vendas_adicionais: 100 },
    { filial_nome: "Loja Centro", matricula: "2", vendas_adicionais: 50 },
    { filial_nome: "Loja Norte", matricula: "3", vendas_adicionais: 999 },
  ]);
  await db.collection("forecast").insertOne({ cost_center: "CC1", value: 1 });
  await db.collection(DASHBOARDS).insertOne({
    dashboardId: "lojas",
    panelLabel: "Lojas",
    panelType: 1,
    painelId: 7,
    cliente: "journey",
    charts: [
      {
        id: "store-sales",
        title: "Vendas por filial",
        kind: "bar",
        collection: HR_AUX,
        pipeline: pipeline([
          { $group: { _id: "$filial_nome", value: { $sum: "$vendas_adicionais" } } },
          { $sort: { _id: 1 } },
          { $project: { _id: 0, label: "$_id", value: 1 } },
        ]),
      },
      {
        id: "through-lookup",
        title: "Via lookup",
        kind: "table",
        collection: "forecast",
        pipeline: pipeline([
          {
            $lookup: {
              from: HR_AUX,
              pipeline: [{ $group: { _id: null, total: { $sum: "$vendas_adicionais" } } }],
              as: "hr",
            },
          },
          { $project: { _id: 0, hr: 1 } },
        ]),
      },
    ],
  });
  await grantPermission(db, "centro@example.com", "USER GOLD", ["Loja Centro"]);
  await grantPermission(db, "todas@example.com", "USER GOLD");
});

async function chartsFor(email: string) {
  currentUser.email = email;
  currentUser.type = "USER GOLD";
  const screen = (await painelLoader({
    request: new Request("http://localhost/ij/painel/7"),
    params: { id: "7" },
    context: {} as never,
  })) as {
    view: { charts: Array<{ id: string; rows: Array<Record<string, unknown>>; error?: string }> };
  };
  return Object.fromEntries(screen.view.charts.map((c) => [c.id, c]));
}

describe("a dashboard over HR auxiliary data", () => {
  it("shows a store-limited account only its branches, and not a chart that looks the others up", async () => {
    const charts = await chartsFor("centro@example.com");
    expect(charts["store-sales"].rows).toEqual([{ label: "Loja Centro", value: 150 }]);
    expect(charts["through-lookup"]).toMatchObject({
      rows: [],
      error: "Este gráfico reúne dados de filiais fora do seu acesso e não é exibido para você.",
    });
  });

  it("shows an account of every branch every branch (its figures cached apart from the limited account's)", async () => {
    const charts = await chartsFor("todas@example.com");
    expect(charts["store-sales"].rows).toEqual([
      { label: "Loja Centro", value: 150 },
      { label: "Loja Norte", value: 999 },
    ]);
    expect(charts["through-lookup"].error).toBeUndefined();
    // And the limited account, after the unlimited one filled the cache, still sees its own.
    expect((await chartsFor("centro@example.com"))["store-sales"].rows).toEqual([{ label: "Loja Centro", value: 150 }]);
  });
});
