import ExcelJS from "exceljs";
import type { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { pageGet, routeArgs } from "#test/requests";
import {
  FORECAST_HEADER,
  forecastRow,
  grantPermission,
  PRODUCT_HEADER,
  productLine,
  TEST_UPLOADER,
  useTempDataDir,
} from "#test/upload-fixtures";
import { uploadAndProcess } from "#test/uploads";
import type { PermissionType } from "~/access";
import { resetConfigForTests } from "~/config.server";
import { FILES } from "~/models/files.server";
import { FORECAST, FORECAST_NOK } from "~/models/forecast.server";
import { HR_AUX, HR_AUX_NOK } from "~/models/hr.server";
import { PRODUCT_MASTER, PRODUCT_MASTER_NOK } from "~/models/master-data.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { TEMPLATE_CATALOG } from "~/platform/import/catalog.server";
import { FILE_STATUS_REJECTED } from "~/platform/import/datasets/ingest.server";
import { MASKED_CPF_RULE } from "~/platform/import/rules";
import { loader } from "~/routes/captura.processando_.corrigir.$id";
import { loadJobList } from "./job-list.server";
import { jobTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
useTempDataDir();

// The forecast rows are RF1 2026's, which change only in its edit month (November 2025): the forecast's write rule.
const savedToday = process.env.PORTAL_TODAY;
beforeAll(() => {
  process.env.PORTAL_TODAY = "2025-11-15";
  resetConfigForTests();
});
afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

const REASON = "Motivo da recusa";
const as = (email: string, type: PermissionType) => {
  currentUser.email = email;
  currentUser.type = type;
};
const viewer = (email: string, type: PermissionType): AuthenticatedUser => ({ email, name: "", type, sessionId: "s" });

/** "Baixar linhas recusadas para corrigir" of a file, as the signed-in user. */
const download = (id: ObjectId | string) =>
  responseOf(
    Promise.resolve(loader(routeArgs(pageGet(`/captura/processando/corrigir/${String(id)}`), { id: String(id) }))),
  );

/** The downloaded workbook's first sheet as rows of cell values (the header first). */
async function sheetOf(response: Response): Promise<{ workbook: ExcelJS.Workbook; rows: unknown[][] }> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe(
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { workbook, rows };
}

/** The workbook as the bytes of a file to upload. */
async function bytesOf(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  await (await testDb.db()).collection(FILES).deleteMany({});
});

describe("Baixar linhas recusadas para corrigir: a rows-with-nok template (product master)", () => {
  it("gives the refused rows as sent, with their reason; fixed and sent back, they load (reason ignored)", async () => {
    const db = await testDb.db();
    const csv = [PRODUCT_HEADER, productLine(1), productLine(2, true), productLine(3), productLine(4, true)].join("\n");
    const { id, file } = await uploadAndProcess("produtos.csv", csv);
    expect(file).toMatchObject({ status: 0, message: "2 linhas OK, 2 NOK" });

    // The job lists offer the download beside the refused rows.
    const list = await loadJobList(new Request("http://x/captura/processando"), viewer(TEST_UPLOADER, "SYSTEM ADMIN"), {
      ownOnly: true,
    });
    expect(list.rows.find((r) => r.id === id.toHexString())).toMatchObject({
      fixRowsHref: `/captura/processando/corrigir/${id.toHexString()}`,
    });

    as(TEST_UPLOADER, "SYSTEM ADMIN");
    const response = await download(id);
    expect(response.headers.get("Content-Disposition")).toContain("corrigir-produtos.xlsx");
    const { workbook, rows } = await sheetOf(response);
    const columns = PRODUCT_HEADER.split(";");
    // The template's columns in its order (as /captura/manual/modelo/product gives them), then the reason.
    expect(rows[0]).toEqual([...columns, REASON]);
    expect(rows).toHaveLength(3);
    expect(rows[1].slice(0, columns.length)).toEqual(productLine(2, true).split(";"));
    expect(rows[2].slice(0, columns.length)).toEqual(productLine(4, true).split(";"));
    expect(rows[1][columns.length]).toContain('Coluna hero: valor "maybe" inválido');

    // Fix the hero cells and send the file back as it is (reason column included).
    const sheet = workbook.worksheets[0];
    const hero = columns.indexOf("hero") + 1;
    sheet.getRow(2).getCell(hero).value = "hero";
    sheet.getRow(3).getCell(hero).value = "non-hero";
    const sent = await uploadAndProcess("produtos-corrigidos.xlsx", await bytesOf(workbook));
    expect(sent.file).toMatchObject({ status: 0, message: "2 linhas OK, 0 NOK" });
    const loaded = await db
      .collection(PRODUCT_MASTER)
      .find({ sourceFileId: sent.id })
      .sort({ _lineNumber: 1 })
      .toArray();
    expect(loaded.map((d) => [d.sku, d.hero])).toEqual([
      ["SKU2", "hero"],
      ["SKU4", "non-hero"],
    ]);
    for (const doc of loaded) expect(Object.keys(doc)).not.toContain(REASON);
    expect(await db.collection(PRODUCT_MASTER_NOK).countDocuments({ sourceFileId: sent.id })).toBe(0);
  });

  it("is for the uploader and whoever may open /jobs/executados; anyone else gets 404", async () => {
    const csv = [PRODUCT_HEADER, productLine(7, true)].join("\n");
    await grantPermission(await testDb.db(), "bia@example.com", "USER BRONZE");
    const { id } = await uploadAndProcess("bia.csv", csv, { user: "bia@example.com" });
    as("bia@example.com", "USER BRONZE");
    expect((await download(id)).status).toBe(200);
    as("gold@example.com", "USER GOLD");
    expect((await download(id)).status).toBe(200);
    as("outro@example.com", "USER BRONZE");
    expect((await download(id)).status).toBe(404);
    as("bia@example.com", "USER BRONZE");
    expect((await download("0123456789abcdef01234567")).status).toBe(404);
    expect((await download("nada")).status).toBe(404);
  });
});

describe("Baixar linhas recusadas para corrigir: an all-or-nothing template (forecast)", () => {
  it("gives the whole original, reasons on refused rows only; fixed and sent back, it is applied whole", async () => {
    const db = await testDb.db();
    const rowsSent = [
      forecastRow({ data_ref: "2026-01", forecast: "100,00" }),
      forecastRow({ data_ref: "2026-02", cost_center_concat: "" }),
      forecastRow({ data_ref: "2026-03", forecast: "muito" }),
    ];
    const csv = [FORECAST_HEADER, ...rowsSent].map((r) => r.join(";")).join("\n");
    const { id, file } = await uploadAndProcess("forecast.csv", csv);
    expect(file).toMatchObject({ status: FILE_STATUS_REJECTED });
    expect(await db.collection(FORECAST).countDocuments({})).toBe(0);
    expect(await db.collection(FORECAST_NOK).countDocuments({ sourceFileId: id })).toBe(2);

    as("gold@example.com", "USER GOLD");
    const { workbook, rows } = await sheetOf(await download(id));
    expect(rows[0]).toEqual([...FORECAST_HEADER, REASON]);
    expect(rows).toHaveLength(4);
    // Every row as sent (an empty cell stays empty); the reason only where the row was refused.
    const n = FORECAST_HEADER.length;
    const asSent = (row: unknown[]) => Array.from({ length: n }, (_, k) => row[k] ?? "");
    expect(rows.slice(1).map(asSent)).toEqual(rowsSent);
    expect(rows[1][n] ?? "").toBe("");
    expect(rows[2][n]).toContain("Coluna cost_center_concat");
    expect(rows[3][n]).toContain('Coluna forecast: valor "muito" inválido');

    const sheet = workbook.worksheets[0];
    sheet.getRow(3).getCell(FORECAST_HEADER.indexOf("cost_center_concat") + 1).value = "CC1001 - Marketing";
    sheet.getRow(4).getCell(FORECAST_HEADER.indexOf("forecast") + 1).value = "300,00";
    const sent = await uploadAndProcess("forecast-corrigido.xlsx", await bytesOf(workbook));
    expect(sent.file).toMatchObject({ status: 0 });
    expect(sent.file?.message).toContain("3 linhas OK, 0 NOK");
    const applied = await db.collection(FORECAST).find({}).toArray();
    expect(applied.map((d) => d.forecast).sort((a, b) => a - b)).toEqual([100, 182500, 300].sort((a, b) => a - b));
    for (const doc of applied) expect(Object.keys(doc)).not.toContain(REASON);
  });

  it("reads an original sent as XLSX the same way (cells as sent, blank lines left out)", async () => {
    const { xlsxBuffer } = await import("#test/upload-fixtures");
    const sentRows = [
      forecastRow({ data_ref: "2027-01", forecast: "10,00" }),
      FORECAST_HEADER.map(() => ""),
      forecastRow({ data_ref: "2027-02", forecast: "x" }),
    ];
    const { id, file } = await uploadAndProcess("forecast.xlsx", await xlsxBuffer([FORECAST_HEADER, ...sentRows]));
    expect(file).toMatchObject({ status: FILE_STATUS_REJECTED });
    as(TEST_UPLOADER, "SYSTEM ADMIN");
    const { rows } = await sheetOf(await download(id));
    const n = FORECAST_HEADER.length;
    expect(rows.map((r) => Array.from({ length: n }, (_, k) => r[k] ?? ""))).toEqual([
      FORECAST_HEADER,
      sentRows[0],
      sentRows[2],
    ]);
    expect(rows[1][n] ?? "").toBe("");
    expect(rows[2][n]).toContain("Coluna forecast");
  });

  it("masks the CPF of an HR file as the NOK CSV does, so no CPF leaves the portal unmasked", async () => {
    const hr = TEMPLATE_CATALOG.find((t) => t.id === "hr_aux")!;
    const header = hr.columns.map((c) => c.name);
    const hrRow = (over: Record<string, string>) =>
      hr.columns.map((c) => (c.name in over ? over[c.name] : String(c.example)));
    const csv = [
      header,
      hrRow({ filial_nome: "Loja Centro", matricula: "1", cpf: "529.982.247-25", vendas_servicos: "831,00" }),
      hrRow({ filial_nome: "Loja Centro", matricula: "2", cpf: "111.444.777-00" }),
    ]
      .map((r) => r.join(";"))
      .join("\n");
    const { id, file } = await uploadAndProcess("rh.csv", csv);
    expect(file).toMatchObject({ status: FILE_STATUS_REJECTED });
    as(TEST_UPLOADER, "SYSTEM ADMIN");
    const { rows } = await sheetOf(await download(id));
    const cpf = header.indexOf("cpf");
    expect(rows.slice(1).map((r) => r[cpf])).toEqual(["***.982.247-**", "***.444.777-**"]);
    const text = JSON.stringify(rows);
    expect(text).not.toContain("529.982.247-25");
    expect(text).not.toContain("111.444.777-00");
    expect(rows[2][header.length]).toContain("Coluna cpf");

    // Sent back as downloaded, a masked CPF is refused, saying so; typed back in full, the file is applied whole.
    const { workbook } = await sheetOf(await download(id));
    const again = await uploadAndProcess("rh-sem-cpf.xlsx", await bytesOf(workbook));
    expect(again.file).toMatchObject({ status: FILE_STATUS_REJECTED });
    const refusedAgain = await (await testDb.db()).collection(HR_AUX_NOK).find({ sourceFileId: again.id }).toArray();
    expect(refusedAgain.map((r) => r.Error)).toEqual([
      `Coluna cpf: valor "***.982.247-**" inválido; ${MASKED_CPF_RULE}`,
      `Coluna cpf: valor "***.444.777-**" inválido; ${MASKED_CPF_RULE}`,
    ]);
    const sheet = workbook.worksheets[0];
    sheet.getRow(2).getCell(cpf + 1).value = "529.982.247-25";
    sheet.getRow(3).getCell(cpf + 1).value = "111.444.777-35";
    const fixed = await uploadAndProcess("rh-corrigido.xlsx", await bytesOf(workbook));
    expect(fixed.file).toMatchObject({ status: 0 });
    const stored = await (await testDb.db()).collection(HR_AUX).find({}).toArray();
    expect(stored.map((d) => d.cpf).sort()).toEqual(["11144477735", "52998224725"]);
  });
});

describe("the reason column on the way back", () => {
  it("is not a template column: a header with it is still recognised", async () => {
    expect(jobTexts.fixRowsReason).toBe(REASON);
    const { detectTemplate } = await import("~/platform/import/registry");
    const layout = detectTemplate([...FORECAST_HEADER, REASON]);
    expect(layout?.template.id).toBe("forecast");
    expect(layout?.indexes).toEqual(FORECAST_HEADER.map((_, i) => i));
  });
});
