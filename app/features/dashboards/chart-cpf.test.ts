import { EJSON } from "bson";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { grantPermission } from "#test/upload-fixtures";
import { DASHBOARDS } from "~/models/dashboards.server";
import { HR_AUX } from "~/models/hr.server";
import { loader as painelLoader } from "~/routes/ij.painel.$id";

/**
 * A native chart over HR auxiliary data that projects `cpf` (as it is, renamed, inside a text, as a group key, or
 * through a $lookup) shows it masked as the HR grid does, on every view, cached or computed.
 */

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
const testDb = useTestDatabase();
const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });
const RAW = ["529.982.247-25", "11144477735", "123.456.789-09"];

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection(HR_AUX).insertMany([
    { filial_nome: "Loja Centro", matricula: "1", nome: "Ana", cpf: RAW[0], vendas_adicionais: 100 },
    { filial_nome: "Loja Centro", matricula: "2", nome: "Bia", cpf: RAW[1], vendas_adicionais: 50 },
    { filial_nome: "Loja Norte", matricula: "3", nome: "Caio", cpf: RAW[2], vendas_adicionais: 999 },
  ]);
  await db.collection("forecast").insertOne({ cost_center: "CC1", cost_center_concat: "CC1", value: 1 });
  // The forecast row the lookup chart starts from is one the gold user prepares (the forecast's read rule).
  await db
    .collection("forecast_preparers")
    .insertOne({ cost_center_concat: "CC1", user: "todas@example.com", assigned_at: new Date(), assigned_by: "test" });
  const sorted = { $sort: { matricula: 1 } };
  await db.collection(DASHBOARDS).insertOne({
    dashboardId: "pessoas",
    panelLabel: "Pessoas",
    panelType: 1,
    painelId: 9,
    cliente: "journey",
    charts: [
      {
        id: "people",
        title: "Pessoas",
        kind: "table",
        collection: HR_AUX,
        pipeline: pipeline([sorted, { $project: { _id: 0, nome: 1, cpf: 1 } }]),
      },
      {
        id: "renamed",
        title: "Documento",
        kind: "table",
        collection: HR_AUX,
        pipeline: pipeline([
          sorted,
          { $project: { _id: 0, documento: "$cpf", texto: { $concat: ["$nome", " (CPF ", "$cpf", ")"] } } },
        ]),
      },
      {
        id: "by-cpf",
        title: "Por CPF",
        kind: "bar",
        collection: HR_AUX,
        pipeline: pipeline([{ $group: { _id: "$cpf", value: { $sum: 1 } } }, { $sort: { _id: 1 } }]),
      },
      {
        id: "lookup",
        title: "Via lookup",
        kind: "table",
        collection: "forecast",
        pipeline: pipeline([
          { $lookup: { from: HR_AUX, pipeline: [sorted, { $project: { _id: 0, cpf: 1 } }], as: "hr" } },
          { $project: { _id: 0, hr: 1 } },
        ]),
      },
    ],
  });
  await grantPermission(db, "todas@example.com", "USER GOLD");
});

async function charts() {
  currentUser.email = "todas@example.com";
  currentUser.type = "USER GOLD";
  const screen = (await painelLoader({
    request: new Request("http://localhost/ij/painel/9"),
    params: { id: "9" },
    context: {} as never,
  })) as { view: { charts: Array<{ id: string; rows: Array<Record<string, unknown>>; error?: string }> } };
  return Object.fromEntries(screen.view.charts.map((c) => [c.id, c]));
}

function expectNoRawCpf(value: unknown) {
  const text = JSON.stringify(value);
  for (const cpf of [...RAW, ...RAW.map((c) => c.replace(/\D/g, ""))]) expect(text).not.toContain(cpf);
}

describe("a native chart that projects cpf from HR auxiliary data", () => {
  it("shows every CPF masked, by its field and in any text, computed and then from the cache", async () => {
    for (const view of [await charts(), await charts()]) {
      expectNoRawCpf(view);
      expect(view.people.rows).toEqual([
        { nome: "Ana", cpf: "***.982.247-**" },
        { nome: "Bia", cpf: "***.444.777-**" },
        { nome: "Caio", cpf: "***.456.789-**" },
      ]);
      expect(view.renamed.rows[0]).toEqual({ documento: "***.982.247-**", texto: "Ana (CPF ***.982.247-**)" });
      expect(view["by-cpf"].rows.map((r) => r._id)).toEqual(
        expect.arrayContaining(["***.982.247-**", "***.444.777-**", "***.456.789-**"]),
      );
      expect(view.lookup.error).toBeUndefined();
      expect(String(view.lookup.rows[0].hr)).toContain("***.982.247-**");
    }
  });
});
