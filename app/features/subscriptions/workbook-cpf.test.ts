import { EJSON } from "bson";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { HR_AUX } from "~/models/hr.server";
import { addSubscription } from "~/models/subscriptions.server";
import { readLatestMail } from "~/services/mail.server";
import { dashboardWorkbook } from "./dashboard-workbook.server";
import { deliverSubscriptionSends } from "./dispatch.server";
import { queueWeeklyDashboardSends } from "./weekly.server";

/** The weekly dashboard workbook holds CPFs masked as the HR grid shows them, never the number itself. */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const makeUser = userMaker({ prefix: "planilha", name: "Planilha", passwordHash: () => "scrypt$unused" });
const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });
const RAW = ["529.982.247-25", "11144477735"];
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);

beforeAll(async () => {
  resetConfigForTests();
  const db = await testDb.db();
  await applyIndexes(db);
  await db.collection(HR_AUX).insertMany([
    { filial_nome: "Loja Centro", matricula: "1", nome: "Ana", cpf: RAW[0] },
    { filial_nome: "Loja Norte", matricula: "2", nome: "Bia", cpf: RAW[1] },
  ]);
  await db.collection(DASHBOARDS).insertOne({
    dashboardId: "pessoas",
    panelLabel: "Pessoas",
    panelType: 1,
    painelId: 11,
    cliente: "journey",
    charts: [
      {
        id: "people",
        title: "Pessoas",
        kind: "table",
        collection: HR_AUX,
        labels: { nome: "Nome", cpf: "CPF" },
        pipeline: pipeline([
          { $sort: { matricula: 1 } },
          { $project: { _id: 0, nome: 1, cpf: 1, texto: { $concat: ["CPF ", "$cpf"] } } },
        ]),
      },
    ],
  });
});

async function sheetRows(buffer: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe("the weekly dashboard workbook", () => {
  it("holds the CPFs of a chart over HR auxiliary data masked", async () => {
    const email = await makeUser("USER GOLD");
    expect(await addSubscription(email, "dashboard", "11", T0)).toBe(true);
    expect(await queueWeeklyDashboardSends(T0)).toBe(1);
    expect(await deliverSubscriptionSends(T0)).toEqual({ sent: 1, skipped: 0, failed: 0 });
    const attachment = (await readLatestMail(email))!.attachments![0] as unknown as { content: { buffer: Uint8Array } };
    const rows = await sheetRows(Buffer.from(attachment.content.buffer));
    expect(rows).toEqual([
      ["Pessoas"],
      ["Nome", "CPF", "texto"],
      ["Ana", "***.982.247-**", "CPF ***.982.247-**"],
      ["Bia", "***.444.777-**", "CPF ***.444.777-**"],
    ]);
  });

  it("masks a CPF column itself, whatever figures it is given", async () => {
    const rows = await sheetRows(
      await dashboardWorkbook("Pessoas", [
        {
          id: "people",
          title: "Pessoas",
          kind: "table",
          labels: { doc: "CPF do colaborador" },
          rows: [{ doc: "52998224725", cpf: 11144477735, nota: "ok" }],
        },
      ]),
    );
    expect(rows.slice(1)).toEqual([
      ["CPF do colaborador", "cpf", "nota"],
      ["***.982.247-**", "***.444.777-**", "ok"],
    ]);
  });
});
