import fs from "node:fs/promises";
import path from "node:path";
import type { ObjectId } from "mongodb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { FORECAST_HEADER, forecastRow, grantPermission, useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { repositoryFiles, uploadAndProcess } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { FILE_STATUS_UNKNOWN_LAYOUT } from "~/models/file-jobs.server";
import { FISCAL_ITEMS, FISCAL_ITEMS_NOK, listFiscalItems } from "~/models/fiscal.server";
import { FORECAST, FORECAST_HISTORY, FORECAST_NOK, readWindow } from "~/models/forecast.server";
import { assignPreparers, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { FPA_RESPONSIBLES, FPA_RESPONSIBLES_NOK, findResponsible, fpaReport } from "~/models/fpa.server";
import { HR_AUX, HR_AUX_CHANGES, HR_AUX_NOK, listAuxRows } from "~/models/hr.server";
import { LEDGER, LEDGER_ACCOUNTS, LEDGER_NOK, ledgerRows, listAccounts } from "~/models/ledger.server";
import type { PlanningFilter } from "~/models/planning.fields";
import { PLANNING_HISTORY, PLANNING_QUANTITY, PLANNING_QUANTITY_NOK } from "~/models/planning.server";
import { readPlanningPage } from "~/models/planning-queries.server";
import { jobGiveUpTexts } from "~/platform/import/texts";
import { MAX_ATTEMPTS, processNextJob } from "~/platform/import/worker-loop.server";
import { monthOf } from "~/shared/months";
import { nokRowsDownload } from "../nok-rows.server";
import { FILE_STATUS_REJECTED } from "./ingest.server";
import { spoolDir } from "./spool.server";

const testDb = useTestDatabase();
useTempDataDir();

const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 });
const csv = (header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>) =>
  [header.join(";"), ...rows.map((r) => r.join(";"))].join("\n");
const month = (y: number, m: number) => new Date(Date.UTC(y, m - 1, 1));

async function count(collection: string, filter: Record<string, unknown> = {}) {
  return (await testDb.db()).collection(collection).countDocuments(filter);
}

/** The files in the worker's spool folder (the rows of runs not yet ended). */
async function spoolFiles() {
  return fs.readdir(spoolDir()).catch(() => [] as string[]);
}

async function nokOf(collection: string, file: ObjectId) {
  return (await testDb.db()).collection(collection).find({ sourceFileId: file }).sort({ _lineNumber: 1 }).toArray();
}

/** Runs one upload and returns the job's outcome and the file's final record. */
async function upload(name: string, content: string | Buffer, user = "ana@example.com") {
  const { id, outcome, file } = await uploadAndProcess(name, content, { user });
  return { id, outcome, file };
}

/** A snapshot of collections, to check that a refused file changed none of them. */
async function snapshot(collections: readonly string[]) {
  const db = await testDb.db();
  return Promise.all(
    collections.map((c) =>
      db
        .collection(c)
        .find({}, { sort: { _id: 1 } })
        .toArray(),
    ),
  );
}

/**
 * A file whose header matches no template is refused naming the closest one and the columns `missing` and
 * `unexpected`; an empty file and one with only `header` are refused too, and `collections` stay as they were.
 */
async function expectLayoutsRefused(
  header: readonly string[],
  collections: readonly string[],
  wrong: { content: string; closest: string; missing: string; unexpected: string },
) {
  const { outcome, file } = await upload("errado.csv", wrong.content);
  expect(outcome).toMatchObject({ kind: "done", status: FILE_STATUS_UNKNOWN_LAYOUT });
  expect(file?.message).toBe(
    `Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo. Mais próximo: ${wrong.closest}; faltam: ${wrong.missing}; sobram: ${wrong.unexpected}.`,
  );
  const before = await snapshot(collections);
  const empty = await upload("vazio.csv", "");
  expect(empty.file).toMatchObject({
    status: FILE_STATUS_UNKNOWN_LAYOUT,
    message: "Arquivo vazio: nenhuma linha de cabeçalho encontrada.",
  });
  const headerOnly = await upload("so-cabecalho.csv", `${header.join(";")}\n\n`);
  expect(headerOnly.file).toMatchObject({
    status: FILE_STATUS_REJECTED,
    progress: 100,
    message: "Nenhuma linha de dados abaixo do cabeçalho: nada foi aplicado.",
  });
  expect(await snapshot(collections)).toEqual(before);
}

/**
 * A file whose rows break the template's rules is refused whole: the file's `message`, the NOK base `nok` lists
 * `errors` in the file's order, and `unchanged` stay as they were.
 */
async function expectBrokenRowsRefused(
  name: string,
  content: string,
  expected: { message: RegExp; nok: string; errors: string[]; unchanged: readonly string[] },
) {
  const before = await snapshot(expected.unchanged);
  const { id, file } = await upload(name, content);
  expect(file).toMatchObject({ status: FILE_STATUS_REJECTED, message: expect.stringMatching(expected.message) });
  expect((await nokOf(expected.nok, id)).map((r) => r.Error)).toEqual(expected.errors);
  expect(await snapshot(expected.unchanged)).toEqual(before);
}

beforeEach(async () => {
  const db = await testDb.db();
  await Promise.all(
    [
      PLANNING_QUANTITY,
      PLANNING_QUANTITY_NOK,
      PLANNING_HISTORY,
      FORECAST,
      FORECAST_NOK,
      FORECAST_HISTORY,
      FORECAST_PREPARERS,
      LEDGER,
      LEDGER_ACCOUNTS,
      LEDGER_NOK,
      HR_AUX,
      HR_AUX_NOK,
      HR_AUX_CHANGES,
      FPA_RESPONSIBLES,
      FPA_RESPONSIBLES_NOK,
      FISCAL_ITEMS,
      FISCAL_ITEMS_NOK,
      "files",
    ].map((c) => db.collection(c).deleteMany({})),
  );
  // The second uploader of some tests: a finance planner, who may load every one of these templates.
  await grantPermission(db, "bia@example.com", "USER GOLD");
});

// ---------------------------------------------------------------------------------------------
// a. Planning quantities

const PLANNING_HEADER = [
  "dateRef",
  "sku",
  "channel",
  "valor",
  "material_description",
  "marca",
  "hero",
  "abcd",
  "plc_localsku",
  "category_sku",
  "categoria_principal_sku",
  "sub_categoria_sku",
];
const planningRow = (i: number, over: Partial<Record<string, string | number>> = {}) => {
  const base: Record<string, string | number> = {
    dateRef: "2026-03",
    sku: `SKU${i}`,
    channel: "WHOLESALES",
    valor: 100 + i,
    material_description: `Produto ${i}`,
    marca: "Marca A",
    hero: "hero",
    abcd: "A",
    plc_localsku: "3-Released",
    category_sku: "Lips",
    categoria_principal_sku: "Makeup",
    sub_categoria_sku: "Batom",
  };
  return PLANNING_HEADER.map((h) => (h in over ? over[h]! : base[h]));
};
const ALL_CHANNELS_FILTER: PlanningFilter = {
  dateStart: "2026-01-01",
  dateEnd: "2026-12-31",
  sku: [],
  chanel: [],
  brand: [],
  category: [],
  hero: [],
  majorCategory: [],
  abcd: [],
  subCategory: [],
  plcLocal: [],
};

describe("template planning_quantity", () => {
  it("upserts a good file (pt-BR integers, any case) and the planning screen reads it; a second file updates with revision and history", async () => {
    const file = csv(PLANNING_HEADER, [
      planningRow(1),
      planningRow(2, { channel: "fss", valor: "1.200", dateRef: "15/03/2026", hero: "NON-HERO", abcd: "" }),
    ]);
    const first = await upload("plano.csv", file);
    expect(first.file).toMatchObject({
      status: 0,
      progress: 100,
      message: "2 linhas OK, 0 NOK. Aplicado: 2 novas, 0 alteradas, 0 sem alteração.",
    });
    const page = await readPlanningPage(ALL_CHANNELS_FILTER, 1);
    expect(page.total).toBe(2);
    const fss = page.rows.find((r) => r.channel === "FSS")!;
    expect(fss).toMatchObject({
      sku: "SKU2",
      valor: 1200,
      hero: "non-hero",
      abcd: "",
      dateRef: month(2026, 3),
      plc_localsku: "3-Released",
      revision: 0,
    });

    const second = await upload(
      "plano2.csv",
      csv(PLANNING_HEADER, [
        planningRow(1),
        planningRow(2, { channel: "FSS", valor: 1500, hero: "non-hero", abcd: "" }),
      ]),
      "bia@example.com",
    );
    expect(second.file?.message).toBe("2 linhas OK, 0 NOK. Aplicado: 0 novas, 1 alterada, 1 sem alteração.");
    const row = await (await testDb.db()).collection(PLANNING_QUANTITY).findOne({ sku: "SKU2" });
    expect(row).toMatchObject({ valor: 1500, revision: 1, updatedBy: "bia@example.com" });
    const history = await (await testDb.db()).collection(PLANNING_HISTORY).find({ rowId: row!._id }).toArray();
    expect(history).toMatchObject([{ old: 1200, new: 1500, via: "upload", user: "bia@example.com" }]);
    expect(await count(PLANNING_QUANTITY)).toBe(2);
    expect(await spoolFiles()).toEqual([]);
  });

  it("refuses a file with broken rows (each rule once): the NOK base lists them, nothing is applied", async () => {
    await upload("base.csv", csv(PLANNING_HEADER, [planningRow(1)]));
    const before = await snapshot([PLANNING_QUANTITY, PLANNING_HISTORY]);
    const rows = [
      planningRow(10),
      planningRow(11, { dateRef: "2026-13" }),
      planningRow(12, { dateRef: "2031-01" }),
      planningRow(13, { sku: "SKU 13!" }),
      planningRow(14, { channel: "RETAIL" }),
      planningRow(15, { valor: "-5" }),
      planningRow(16, { valor: "12,5" }),
      planningRow(17, { material_description: "" }),
      planningRow(18, { marca: "M".repeat(101) }),
      planningRow(19, { hero: "maybe" }),
      planningRow(20, { abcd: "E" }),
      planningRow(10, { valor: 7 }),
    ];
    const { id, file } = await upload("quebrado.csv", csv(PLANNING_HEADER, rows));
    expect(file).toMatchObject({ status: FILE_STATUS_REJECTED, progress: 100 });
    expect(file?.message).toBe(
      "1 linha OK, 11 NOK; nada foi aplicado: o arquivo só é aplicado quando todas as linhas são válidas. Corrija as linhas listadas na base planning_quantity_nok e envie de novo.",
    );
    const nok = await nokOf(PLANNING_QUANTITY_NOK, id);
    expect(nok.map((r) => [r._lineNumber, r.Error])).toEqual([
      [
        3,
        'Coluna dateRef: valor "2026-13" inválido; esperado um mês válido (AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)',
      ],
      [4, 'Coluna dateRef: valor "2031-01" inválido; esperado um mês entre 12/1950 e 12/2030'],
      [5, 'Coluna sku: valor "SKU 13!" inválido; esperado apenas letras, dígitos, ponto, hífen e sublinhado'],
      [6, 'Coluna channel: valor "RETAIL" inválido; esperado WHOLESALES, BRANDSITE, ONLINE_PARTNERS, FSS'],
      [7, 'Coluna valor: valor "-5" inválido; esperado um número entre 0 e 1.000.000.000'],
      [8, 'Coluna valor: valor "12,5" inválido; esperado um número inteiro'],
      [9, 'Coluna material_description: valor "" inválido; campo obrigatório'],
      [10, `Coluna marca: valor "${"M".repeat(59)}…" inválido; esperado no máximo 100 caracteres`],
      [11, 'Coluna hero: valor "maybe" inválido; esperado hero ou non-hero'],
      [12, 'Coluna abcd: valor "E" inválido; esperado A, B, C, D ou vazio'],
      [13, 'Coluna sku: valor "SKU10" inválido; linha duplicada: a linha 2 tem os mesmos sku, channel, dateRef'],
    ]);
    expect(nok[0]).toMatchObject({ sku: "SKU11", urlPath: expect.any(String), timeStamp: expect.any(Date) });
    expect(await snapshot([PLANNING_QUANTITY, PLANNING_HISTORY])).toEqual(before);
    expect(await spoolFiles()).toEqual([]);
  });

  it("refuses a wrong header naming the closest template, and empty files", async () => {
    const header = PLANNING_HEADER.map((h) => (h === "dateRef" ? "dt_ref" : h));
    await expectLayoutsRefused(PLANNING_HEADER, [PLANNING_QUANTITY], {
      content: csv(header, [["2026-03"]]),
      closest: "Planejamento – quantidades",
      missing: "dateRef",
      unexpected: "dt_ref",
    });
  });

  it("applies a large XLSX file (20,000 rows)", async () => {
    const channels = ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"];
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      planningRow(Math.floor(i / 4), { channel: channels[i % 4], valor: i }),
    );
    const { file } = await upload("grande.xlsx", await xlsxBuffer([PLANNING_HEADER, ...rows]));
    expect(file?.message).toBe("20.000 linhas OK, 0 NOK. Aplicado: 20.000 novas, 0 alteradas, 0 sem alteração.");
    expect(await count(PLANNING_QUANTITY)).toBe(20_000);
    expect((await readPlanningPage({ ...ALL_CHANNELS_FILTER, chanel: ["FSS"] }, 1)).total).toBe(5_000);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// b. Forecast

describe("template forecast", () => {
  // RF1 2026, the rows' scenario, takes changes only in its edit month (November 2025): the forecast's write rule.
  const savedToday = process.env.PORTAL_TODAY;
  beforeEach(() => {
    process.env.PORTAL_TODAY = "2025-11-15";
    resetConfigForTests();
  });
  afterEach(() => {
    if (savedToday === undefined) delete process.env.PORTAL_TODAY;
    else process.env.PORTAL_TODAY = savedToday;
    resetConfigForTests();
  });

  it("upserts actuals and RF records that the review grid reads; a changed forecast is recorded in the cell's history", async () => {
    const rows = [
      forecastRow({ rf: "actual", data_ref: "2025-12", value: "170.000,10", forecast: "" }),
      forecastRow({ rf: "rf1 2026" }),
      forecastRow({ data_ref: "2026-02", forecast: "1234.5" }),
    ];
    const first = await upload("forecast.csv", csv(FORECAST_HEADER, rows));
    expect(first.file).toMatchObject({
      status: 0,
      message: "3 linhas OK, 0 NOK. Aplicado: 3 novas, 0 alteradas, 0 sem alteração.",
    });
    const window = await readWindow("RF1 2026", "CC1001 - Marketing", month(2025, 1), month(2027, 1));
    expect(window).toHaveLength(1);
    expect(window[0]).toMatchObject({
      _id: { account: "4101001 - Salários e Ordenados", group: "Despesas com Pessoal" },
      label: "Salários e Ordenados",
    });
    const byMonth = new Map(
      window[0].months.map((m, i) => [m.toISOString().slice(0, 7), [window[0].values[i], window[0].forecasts[i]]]),
    );
    expect(byMonth.get("2026-01")).toEqual([0, 182500]);
    expect(byMonth.get("2026-02")).toEqual([0, 1234.5]);
    expect(byMonth.get("2025-12")).toEqual([170000.1, null]);

    // A USER GOLD writes the cost centres they prepare (the forecast's one rule: app/models/forecast-readers.server.ts).
    await assignPreparers([{ cost_center_concat: "CC1001 - Marketing", user: "bia@example.com" }], "test", new Date());
    const again = await upload(
      "forecast2.csv",
      csv(FORECAST_HEADER, [forecastRow({ forecast: "190.000,00" })]),
      "bia@example.com",
    );
    expect(again.file?.message).toBe("1 linha OK, 0 NOK. Aplicado: 0 novas, 1 alterada, 0 sem alteração.");
    expect(await (await testDb.db()).collection(FORECAST_HISTORY).find().toArray()).toMatchObject([
      { rf: "RF1 2026", old: 182500, new: 190000, by: "bia@example.com", via: "upload" },
    ]);
    expect(await count(FORECAST)).toBe(3);
  });

  it("a file of scenarios not stored yet is all new rows; a file sharing a stored scenario updates its rows, never copies them", async () => {
    const first = await upload(
      "rf1.csv",
      csv(
        FORECAST_HEADER,
        ["2026-01", "2026-02", "2026-03"].map((m) => forecastRow({ data_ref: m })),
      ),
    );
    expect(first.file?.message).toBe("3 linhas OK, 0 NOK. Aplicado: 3 novas, 0 alteradas, 0 sem alteração.");
    // The actuals are another scenario, the only one that loads beside the RF open this month.
    const mixed = [
      forecastRow({ rf: "actual" }),
      forecastRow({ rf: "actual", data_ref: "2026-02" }),
      forecastRow({ forecast: "1,00" }),
    ];
    expect((await upload("rf2.csv", csv(FORECAST_HEADER, mixed))).file?.message).toBe(
      "3 linhas OK, 0 NOK. Aplicado: 2 novas, 1 alterada, 0 sem alteração.",
    );
    // Only the scenario the previous file added, spelt in upper case: its two rows are found and changed.
    const again = [
      forecastRow({ rf: "ACTUAL", forecast: "2,00" }),
      forecastRow({ rf: "ACTUAL", data_ref: "2026-02", forecast: "2,00" }),
    ];
    expect((await upload("rf2-again.csv", csv(FORECAST_HEADER, again))).file?.message).toBe(
      "2 linhas OK, 0 NOK. Aplicado: 0 novas, 2 alteradas, 0 sem alteração.",
    );
    expect(await count(FORECAST)).toBe(5);
    expect(await count(FORECAST, { rf: "actual", forecast: 2 })).toBe(2);
  });

  it("rounds an amount with more decimals to cents, as the review grid and its Excel round trip do", async () => {
    const { file } = await upload(
      "centavos.csv",
      csv(FORECAST_HEADER, [forecastRow({ value: "10,555", forecast: "(1.234,564)" })]),
    );
    expect(file).toMatchObject({ status: 0 });
    expect(
      await (await testDb.db()).collection(FORECAST).findOne({}, { projection: { _id: 0, value: 1, forecast: 1 } }),
    ).toEqual({
      value: 10.56,
      forecast: -1234.56,
    });
  });

  it("refuses broken rows (each rule once) and applies nothing", async () => {
    await upload("base.csv", csv(FORECAST_HEADER, [forecastRow()]));
    const rows = [
      forecastRow({ forecast: "1" }),
      forecastRow({ rf: "RF5 2026", data_ref: "2026-03" }),
      forecastRow({ cost_center_concat: "", data_ref: "2026-04" }),
      forecastRow({ data_ref: "2026/05" }),
      forecastRow({ data_ref: "2026-06", forecast: "1,234.56" }),
      forecastRow({ data_ref: "2026-07", value: "20.000.000.000.000" }),
      forecastRow({ data_ref: "2026-08", account_concat: "X".repeat(201) }),
      forecastRow({ forecast: "2" }),
    ];
    await expectBrokenRowsRefused("forecast-quebrado.csv", csv(FORECAST_HEADER, rows), {
      message: /^1 linha OK, 7 NOK; nada foi aplicado/,
      nok: FORECAST_NOK,
      errors: [
        'Coluna rf: valor "RF5 2026" inválido; esperado actual ou RF1 a RF4 seguido do ano, ex.: "RF1 2026" (ano de 2000 a 2099)',
        'Coluna cost_center_concat: valor "" inválido; campo obrigatório',
        'Coluna data_ref: valor "2026/05" inválido; esperado um mês válido (AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)',
        'Coluna forecast: valor "1,234.56" inválido; esperado um número (1.234,56 ou 1234.56)',
        'Coluna value: valor "20.000.000.000.000" inválido; esperado um número entre -10.000.000.000.000 e 10.000.000.000.000',
        `Coluna account_concat: valor "${"X".repeat(59)}…" inválido; esperado no máximo 200 caracteres`,
        'Coluna rf: valor "RF1 2026" inválido; linha duplicada: a linha 2 tem os mesmos rf, cost_center_concat, account_concat, data_ref',
      ],
      unchanged: [FORECAST, FORECAST_HISTORY],
    });
  });

  it("refuses the rows of a cost centre its uploader does not prepare, naming why, and applies nothing; SYSTEM ADMIN loads them", async () => {
    const MARKETING = "CC1001 - Marketing";
    const RETAIL = "CC1002 - Vendas Varejo";
    const retail = (over: Partial<Record<string, string>>) =>
      forecastRow({ cost_center_concat: RETAIL, cost_center: "CC1002", ...over });
    await upload("base.csv", csv(FORECAST_HEADER, [forecastRow(), retail({ forecast: "50,00" })]));
    // bia (USER GOLD, who may load the template) prepares Marketing only; the reviewer types are SYSTEM ADMIN's.
    await assignPreparers([{ cost_center_concat: MARKETING, user: "bia@example.com" }], "test", new Date());
    const before = await snapshot([FORECAST, FORECAST_HISTORY]);
    const rows = [
      forecastRow({ forecast: "1,00" }),
      retail({ forecast: "2,00" }),
      retail({ data_ref: "2026-02", forecast: "3,00" }),
    ];
    const { id, file } = await upload("de-outro.csv", csv(FORECAST_HEADER, rows), "bia@example.com");
    // All or nothing, as for any refused row: Marketing's row is not applied either.
    expect(file).toMatchObject({
      status: FILE_STATUS_REJECTED,
      message: expect.stringMatching(/^1 linha OK, 2 NOK; nada foi aplicado/),
    });
    const reason =
      "Centro de custo CC1002 - Vendas Varejo não é seu: só quem o prepara, um revisor ou o SYSTEM ADMIN grava nele.";
    expect((await nokOf(FORECAST_NOK, id)).map((r) => [r._lineNumber, r.cost_center_concat, r.Error])).toEqual([
      [3, RETAIL, reason],
      [4, RETAIL, reason],
    ]);
    expect(await snapshot([FORECAST, FORECAST_HISTORY])).toEqual(before);
    // The job's refused-rows file holds them with their reason, as any refused row.
    const refused = await (
      await nokRowsDownload({ id: String(id) }, { email: "bia@example.com", type: "USER GOLD" })
    ).text();
    expect(refused.split("\r\n").filter((l) => l.includes(reason))).toHaveLength(2);

    // The same file from a preparer of both loads; from SYSTEM ADMIN too.
    await assignPreparers([{ cost_center_concat: RETAIL, user: "bia@example.com" }], "test", new Date());
    expect((await upload("de-ambos.csv", csv(FORECAST_HEADER, rows), "bia@example.com")).file).toMatchObject({
      status: 0,
      message: "3 linhas OK, 0 NOK. Aplicado: 1 nova, 2 alteradas, 0 sem alteração.",
    });
    const byAdmin = [
      forecastRow({ forecast: "11,00" }),
      retail({ forecast: "12,00" }),
      retail({ data_ref: "2026-02", forecast: "13,00" }),
    ];
    expect((await upload("admin.csv", csv(FORECAST_HEADER, byAdmin))).file).toMatchObject({
      status: 0,
      message: "3 linhas OK, 0 NOK. Aplicado: 0 novas, 3 alteradas, 0 sem alteração.",
    });
    expect(await count(FORECAST, { cost_center_concat: RETAIL, forecast: { $in: [12, 13] } })).toBe(2);
  });

  it("refuses a wrong header naming the closest template, and empty files", async () => {
    const header = FORECAST_HEADER.map((h) => (h === "data_ref" ? "dt_ref" : h));
    await expectLayoutsRefused(FORECAST_HEADER, [FORECAST], {
      content: csv(header, [["x"]]),
      closest: "Previsão (forecast)",
      missing: "data_ref",
      unexpected: "dt_ref",
    });
  });

  it("applies a large file (24,000 records)", async () => {
    const rows: Array<Array<string | number>> = [];
    for (let cc = 0; cc < 50; cc++)
      for (let a = 0; a < 40; a++)
        for (let m = 1; m <= 12; m++)
          rows.push(
            forecastRow({
              cost_center_concat: `CC${cc} - Centro ${cc}`,
              cost_center: `CC${cc}`,
              account_concat: `${4000 + a} - Conta ${a}`,
              data_ref: `2026-${String(m).padStart(2, "0")}`,
              forecast: String(a * m),
            }),
          );
    const { file } = await upload("forecast-grande.csv", csv(FORECAST_HEADER, rows));
    expect(file?.message).toBe("24.000 linhas OK, 0 NOK. Aplicado: 24.000 novas, 0 alteradas, 0 sem alteração.");
    expect(await count(FORECAST)).toBe(24_000);
    expect(await readWindow("RF1 2026", "CC7 - Centro 7", month(2026, 1), month(2027, 1))).toHaveLength(40);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// c. Ledger

const LEDGER_HEADER = [
  "businessUnitID",
  "month",
  "account",
  "category1",
  "category2",
  "category3",
  "working_capital",
  "fiscal",
  "actual",
  "priorYear",
  "forecast",
];
const ledgerRow = (over: Partial<Record<string, string | number>> = {}) => {
  const base: Record<string, string | number> = {
    businessUnitID: "2236",
    month: "2026-01",
    account: "1.1.02.001",
    category1: "Current Assets",
    category2: "Trade Receivables",
    category3: "Customers",
    working_capital: "sim",
    fiscal: "não",
    actual: "12.400.000,00",
    priorYear: "11.950.000,00",
    forecast: "12.650.000,00", // not the template's example row (12.600.000,00), which an upload ignores
  };
  return LEDGER_HEADER.map((h) => (h in over ? over[h]! : base[h]));
};

describe("template ledger", () => {
  it("replaces the (unit, month) pairs of the file, adds its accounts to the chart, and the FP&A report reads them", async () => {
    const db = await testDb.db();
    await db.collection(LEDGER).insertMany([
      { businessUnitID: "2236", account: "9.9.99", month: month(2026, 1), actual: 1, priorYear: 1, forecast: 1 },
      { businessUnitID: "2236", account: "1.1.02.001", month: month(2025, 12), actual: 5, priorYear: 5, forecast: 5 },
    ]);
    const rows = [
      ledgerRow(),
      ledgerRow({
        account: "1.1.04.001",
        category2: "Recoverable Taxes",
        category3: "ICMS Recoverable",
        fiscal: "sim",
        actual: "1350000.5",
        priorYear: "",
        forecast: "",
      }),
    ];
    const { file } = await upload("razao.csv", csv(LEDGER_HEADER, rows));
    expect(file).toMatchObject({
      status: 0,
      message: "2 linhas OK, 0 NOK. Aplicado: 1 par (empresa, mês) substituído (1 linha removida, 2 gravadas).",
    });
    const jan = await ledgerRows("2236", [month(2026, 1)]);
    expect(jan.map((r) => [r.account, r.actual, r.priorYear, r.forecast])).toEqual([
      ["1.1.02.001", 12_400_000, 11_950_000, 12_650_000],
      ["1.1.04.001", 1_350_000.5, 0, 0],
    ]);
    expect(await ledgerRows("2236", [month(2025, 12)])).toHaveLength(1);
    expect(await listAccounts()).toMatchObject([
      {
        _id: "1.1.02.001",
        description: "1.1.02.001 - Customers",
        category1: "Current Assets",
        workingCapital: true,
        fiscal: false,
        order: 1,
      },
      { _id: "1.1.04.001", category3: "ICMS Recoverable", fiscal: true, order: 2 },
    ]);
    const report = await fpaReport("2236", month(2026, 1));
    expect(report?.current.find((r) => r.id === "1.1.02.001")).toMatchObject({
      actual: 12_400_000,
      rf_n: 12_650_000,
      type: "row",
    });
    // The same file again: the same rows, no copies.
    await upload("razao-de-novo.csv", csv(LEDGER_HEADER, rows));
    expect(await count(LEDGER, { month: month(2026, 1) })).toBe(2);
  });

  it("refuses broken rows (each rule once) and applies nothing", async () => {
    await upload("base.csv", csv(LEDGER_HEADER, [ledgerRow()]));
    const rows = [
      ledgerRow({ month: "2026-02" }),
      ledgerRow({ businessUnitID: "1234" }),
      ledgerRow({ category1: "Assets" }),
      ledgerRow({ working_capital: "talvez" }),
      ledgerRow({ actual: "" }),
      ledgerRow({ month: "2026-03", category3: "Clientes" }),
      ledgerRow({ month: "2026-02" }),
    ];
    await expectBrokenRowsRefused("razao-quebrado.csv", csv(LEDGER_HEADER, rows), {
      message: /^1 linha OK, 6 NOK; nada foi aplicado/,
      nok: LEDGER_NOK,
      errors: [
        'Coluna businessUnitID: valor "1234" inválido; esperado 2236, 4313, 4664, 5454, 9311',
        'Coluna category1: valor "Assets" inválido; esperado No-current Assets, Current Assets, Current Liabilities, No-current Liabilities, Equity',
        'Coluna working_capital: valor "talvez" inválido; esperado sim ou não',
        'Coluna actual: valor "" inválido; campo obrigatório',
        'Coluna category3: valor "Clientes" inválido; a conta 1.1.02.001 está classificada de outro modo na linha 2',
        'Coluna businessUnitID: valor "2236" inválido; linha duplicada: a linha 2 tem os mesmos businessUnitID, month, account',
      ],
      unchanged: [LEDGER, LEDGER_ACCOUNTS],
    });
  });

  it("refuses a wrong header naming the closest template, and empty files", async () => {
    const header = [...LEDGER_HEADER.filter((h) => h !== "priorYear"), "prior_year"];
    await expectLayoutsRefused(LEDGER_HEADER, [LEDGER, LEDGER_ACCOUNTS], {
      content: csv(header, [["x"]]),
      closest: "Razão / balanço por empresa e mês",
      missing: "priorYear",
      unexpected: "prior_year",
    });
  });

  it("applies a large file (5 units × 24 months × 200 accounts = 24,000 rows)", async () => {
    const units = ["2236", "4313", "4664", "5454", "9311"];
    const rows: Array<Array<string | number>> = [];
    for (const unit of units)
      for (let m = 0; m < 24; m++)
        for (let a = 0; a < 200; a++)
          rows.push(
            ledgerRow({
              businessUnitID: unit,
              month: `${2024 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`,
              account: `1.${a}`,
              category3: `Conta ${a}`,
              actual: a,
            }),
          );
    const { file } = await upload("razao-grande.csv", csv(LEDGER_HEADER, rows));
    expect(file?.message).toBe(
      "24.000 linhas OK, 0 NOK. Aplicado: 120 pares (empresa, mês) substituídos (0 linhas removidas, 24.000 gravadas).",
    );
    expect(await count(LEDGER)).toBe(24_000);
    expect(await count(LEDGER_ACCOUNTS)).toBe(200);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// d. HR

const HR_HEADER = [
  "marca_cod",
  "marca_desc",
  "filial_cod",
  "filial_nome",
  "mes_apur",
  "matricula",
  "nome",
  "cpf",
  "cargo_cod",
  "cargo_nome",
  "datas_afastamento",
  "vendas_adicionais",
  "dias_media",
  "result_qtde_servico",
  "result_desafio_mensal",
  "vendas_servicos",
  "comentario",
];
const hrRow = (over: Partial<Record<string, string | number>> = {}) => {
  const base: Record<string, string | number> = {
    marca_cod: "01",
    marca_desc: "Marca A",
    filial_cod: "1001",
    filial_nome: "Loja Centro",
    mes_apur: "2026-02",
    matricula: "100231",
    nome: "Ana Souza Lima",
    cpf: "529.982.247-25",
    cargo_cod: "101",
    cargo_nome: "Consultora de Vendas",
    datas_afastamento: "",
    vendas_adicionais: "1.250,50",
    dias_media: "21,5",
    result_qtde_servico: "35",
    result_desafio_mensal: "98,4",
    vendas_servicos: "830",
    comentario: "Meta superada.",
  };
  return HR_HEADER.map((h) => (h in over ? over[h]! : base[h]));
};

describe("template hr_aux", () => {
  it("upserts the figures the HR grid reads (CPF stored as 11 digits, shown masked); an empty comment keeps the stored one", async () => {
    const { file } = await upload(
      "rh.csv",
      csv(HR_HEADER, [hrRow(), hrRow({ matricula: "100232", nome: "Bruno Dias", cpf: "11144477735", comentario: "" })]),
    );
    expect(file).toMatchObject({
      status: 0,
      message: "2 linhas OK, 0 NOK. Aplicado: 2 novas, 0 alteradas, 0 sem alteração.",
    });
    const stored = await (await testDb.db()).collection(HR_AUX).findOne({ matricula: "100231" });
    expect(stored).toMatchObject({
      cpf: "52998224725",
      mes_apur: month(2026, 2),
      vendas_adicionais: 1250.5,
      dias_media: 21.5,
      result_qtde_servico: 35,
      comentario: "Meta superada.",
    });
    const { rows } = await listAuxRows("Loja Centro", { from: monthOf(2026, 1), to: monthOf(2026, 3) });
    expect(rows.map((r) => [r.nome, r.cpf, r.vendas_servicos, r.comentario])).toEqual([
      ["Ana Souza Lima", "***.982.247-**", 830, "Meta superada."],
      ["Bruno Dias", "***.444.777-**", 830, ""],
    ]);
    const again = await upload(
      "rh2.csv",
      csv(HR_HEADER, [hrRow({ comentario: "", dias_media: "22" })]),
      "bia@example.com",
    );
    expect(again.file?.message).toBe("1 linha OK, 0 NOK. Aplicado: 0 novas, 1 alterada, 0 sem alteração.");
    expect(await (await testDb.db()).collection(HR_AUX).findOne({ matricula: "100231" })).toMatchObject({
      dias_media: 22,
      comentario: "Meta superada.",
      updatedBy: "bia@example.com",
    });
    expect(await (await testDb.db()).collection(HR_AUX_CHANGES).find().toArray()).toMatchObject([
      { field: "dias_media", old: 21.5, new: 22, via: "upload", user: "bia@example.com" },
    ]);
  });

  it("refuses broken rows (each rule once) and applies nothing", async () => {
    await upload("base.csv", csv(HR_HEADER, [hrRow()]));
    const rows = [
      hrRow({ dias_media: "23" }),
      hrRow({ matricula: "2", cpf: "529.982.247-24" }),
      hrRow({ matricula: "3", cpf: "" }),
      hrRow({ matricula: "4", mes_apur: "fev/2026" }),
      hrRow({ matricula: "5", dias_media: "32" }),
      hrRow({ matricula: "6", vendas_adicionais: "-1" }),
      hrRow({ matricula: "7", result_qtde_servico: "1,5" }),
      hrRow({ matricula: "8", comentario: "c".repeat(256) }),
      hrRow({ matricula: "9", nome: "" }),
      hrRow({ dias_media: "20" }),
    ];
    await expectBrokenRowsRefused("rh-quebrado.csv", csv(HR_HEADER, rows), {
      message: /^1 linha OK, 9 NOK; nada foi aplicado/,
      nok: HR_AUX_NOK,
      errors: [
        'Coluna cpf: valor "529.982.247-24" inválido; esperado um CPF de 11 dígitos com dígitos verificadores válidos',
        'Coluna cpf: valor "" inválido; campo obrigatório; esperado um CPF de 11 dígitos',
        'Coluna mes_apur: valor "fev/2026" inválido; esperado um mês válido (AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)',
        'Coluna dias_media: valor "32" inválido; esperado um número entre 0 e 31',
        'Coluna vendas_adicionais: valor "-1" inválido; esperado um número entre 0 e 99.999.999,99',
        'Coluna result_qtde_servico: valor "1,5" inválido; esperado um número inteiro',
        `Coluna comentario: valor "${"c".repeat(59)}…" inválido; esperado no máximo 255 caracteres`,
        'Coluna nome: valor "" inválido; campo obrigatório',
        'Coluna filial_nome: valor "Loja Centro" inválido; linha duplicada: a linha 2 tem os mesmos filial_nome, mes_apur, matricula',
      ],
      unchanged: [HR_AUX, HR_AUX_CHANGES],
    });
  });

  it("refuses a wrong header naming the closest template, and empty files", async () => {
    const header = HR_HEADER.filter((h) => h !== "cpf");
    await expectLayoutsRefused(HR_HEADER, [HR_AUX], {
      content: csv(header, [["x"]]),
      closest: "RH – dados auxiliares por filial e mês",
      missing: "cpf",
      unexpected: "nenhuma",
    });
  });

  it("applies a large file (20,000 rows)", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      hrRow({
        filial_nome: `Loja ${i % 40}`,
        matricula: String(200_000 + i),
        mes_apur: `2025-${String((i % 12) + 1).padStart(2, "0")}`,
      }),
    );
    const { file } = await upload("rh-grande.csv", csv(HR_HEADER, rows));
    expect(file?.message).toBe("20.000 linhas OK, 0 NOK. Aplicado: 20.000 novas, 0 alteradas, 0 sem alteração.");
    expect(await count(HR_AUX)).toBe(20_000);
    expect((await listAuxRows("Loja 3", { from: monthOf(2025, 1), to: monthOf(2025, 12) })).rows).toHaveLength(500);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// e. FP&A responsibles

const FPA_HEADER = [
  "businessUnitID",
  "country",
  "functionalArea",
  "personResponsible",
  "userResponsible",
  "costCenter",
];
// userResponsible is not the example's (Rafael Costa): unit 2236's row would be the template's example row, ignored.
const fpaRow = (unit: string, over: Partial<Record<string, string>> = {}) =>
  FPA_HEADER.map(
    (h) =>
      over[h] ??
      (
        {
          businessUnitID: unit,
          country: "Brasil",
          functionalArea: "Controladoria",
          personResponsible: "Carla Mendes",
          userResponsible: "Rafael Costa Lima",
          costCenter: `CC${unit}01 - Controladoria`,
        } as Record<string, string>
      )[h],
  );

describe("template fpa_responsibles", () => {
  it("upserts each unit's header, which the FP&A report reads", async () => {
    const { file } = await upload(
      "fpa.xlsx",
      await xlsxBuffer([FPA_HEADER, fpaRow("2236"), fpaRow("4313", { country: "Argentina" })]),
    );
    expect(file).toMatchObject({
      status: 0,
      message: "2 linhas OK, 0 NOK. Aplicado: 2 novas, 0 alteradas, 0 sem alteração.",
    });
    expect(await findResponsible("4313")).toMatchObject({
      _id: "4313",
      country: "Argentina",
      personResponsible: "Carla Mendes",
      costCenter: "CC431301 - Controladoria",
    });
    const again = await upload("fpa2.csv", csv(FPA_HEADER, [fpaRow("2236", { personResponsible: "Outra Pessoa" })]));
    expect(again.file?.message).toBe("1 linha OK, 0 NOK. Aplicado: 0 novas, 1 alterada, 0 sem alteração.");
    expect(await findResponsible("2236")).toMatchObject({ personResponsible: "Outra Pessoa" });
    expect(await count(FPA_RESPONSIBLES)).toBe(2);
  });

  it("refuses broken rows (each rule once) and applies nothing", async () => {
    const rows = [
      fpaRow("2236"),
      fpaRow("9999"),
      fpaRow("4313", { country: "" }),
      fpaRow("4664", { costCenter: "C".repeat(201) }),
      fpaRow("2236"),
    ];
    await expectBrokenRowsRefused("fpa-quebrado.csv", csv(FPA_HEADER, rows), {
      message: /^1 linha OK, 4 NOK; nada foi aplicado/,
      nok: FPA_RESPONSIBLES_NOK,
      errors: [
        'Coluna businessUnitID: valor "9999" inválido; esperado 2236, 4313, 4664, 5454, 9311',
        'Coluna country: valor "" inválido; campo obrigatório',
        `Coluna costCenter: valor "${"C".repeat(59)}…" inválido; esperado no máximo 200 caracteres`,
        'Coluna businessUnitID: valor "2236" inválido; linha duplicada: a linha 2 tem os mesmos businessUnitID',
      ],
      unchanged: [FPA_RESPONSIBLES],
    });
  });

  it("refuses a wrong header naming the closest template, and empty files", async () => {
    await expectLayoutsRefused(FPA_HEADER, [FPA_RESPONSIBLES], {
      content: csv([...FPA_HEADER.filter((h) => h !== "country"), "pais"], [["x"]]),
      closest: "FP&A – responsáveis",
      missing: "country",
      unexpected: "pais",
    });
  });

  it("a large file (20,000 rows, five units) is all duplicates past the first five: refused whole", async () => {
    const units = ["2236", "4313", "4664", "5454", "9311"];
    const rows = Array.from({ length: 20_000 }, (_, i) => fpaRow(units[i % 5], { personResponsible: `Pessoa ${i}` }));
    const { id, file } = await upload("fpa-grande.csv", csv(FPA_HEADER, rows));
    expect(file?.message).toMatch(/^5 linhas OK, 19\.995 NOK; nada foi aplicado/);
    expect(await count(FPA_RESPONSIBLES_NOK, { sourceFileId: id })).toBe(19_995);
    expect(await count(FPA_RESPONSIBLES)).toBe(0);
    expect(await spoolFiles()).toEqual([]);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// f. Fiscal items

const FISCAL_HEADER = ["businessUnitID", "year", "account", "description", "value", "worksheet_file", "document_file"];
const fiscalRow = (over: Partial<Record<string, string | number>> = {}) => {
  // Not the template's example row (value 1.350.000,00), which an upload ignores.
  const base: Record<string, string | number> = {
    businessUnitID: "2236",
    year: 2025,
    account: "1.1.04.001",
    description: "ICMS Recoverable",
    value: "1.360.000,00",
    worksheet_file: "icms_2236.xlsx",
    document_file: "icms_2236.pdf",
  };
  return FISCAL_HEADER.map((h) => (h in over ? over[h]! : base[h]));
};

describe("template fiscal_items", () => {
  const fiscalFiles = () => repositoryFiles(["icms_2236.xlsx", "icms_2236.pdf"]);

  it("replaces the (unit, year) items with the repository's files, which the fiscal page lists", async () => {
    await fiscalFiles();
    const db = await testDb.db();
    await db.collection(FISCAL_ITEMS).insertOne({
      businessUnitID: "2236",
      year: 2025,
      account: "old",
      description: "Antigo",
      value: 1,
      worksheet: { bucket: "local", key: "x", name: "x" },
      document: { bucket: "local", key: "y", name: "y" },
    });
    const { file } = await upload(
      "fiscal.csv",
      csv(FISCAL_HEADER, [
        fiscalRow(),
        fiscalRow({ account: "1.2.01.001", description: "Judicial Deposits", value: "2100000" }),
      ]),
    );
    expect(file).toMatchObject({
      status: 0,
      message: "2 linhas OK, 0 NOK. Aplicado: 1 par (empresa, ano) substituído (1 linha removida, 2 gravadas).",
    });
    const items = await listFiscalItems("2236");
    expect(items.map((i) => [i.account, i.description, i.value, i.worksheet.name, i.document.key])).toEqual([
      ["1.1.04.001", "ICMS Recoverable", 1_360_000, "icms_2236.xlsx", "2026/01/icms_2236.pdf"],
      ["1.2.01.001", "Judicial Deposits", 2_100_000, "icms_2236.xlsx", "2026/01/icms_2236.pdf"],
    ]);
  });

  it("refuses broken rows (each rule once, an unknown file among them) and applies nothing", async () => {
    await fiscalFiles();
    const rows = [
      fiscalRow(),
      fiscalRow({ year: "20x5", description: "A" }),
      fiscalRow({ value: "", description: "B" }),
      fiscalRow({ description: "" }),
      fiscalRow({ description: "C", worksheet_file: "nao-existe.xlsx" }),
      fiscalRow(),
    ];
    await expectBrokenRowsRefused("fiscal-quebrado.csv", csv(FISCAL_HEADER, rows), {
      message: /^1 linha OK, 5 NOK; nada foi aplicado/,
      nok: FISCAL_ITEMS_NOK,
      errors: [
        'Coluna year: valor "20x5" inválido; esperado um número inteiro',
        'Coluna value: valor "" inválido; campo obrigatório',
        'Coluna description: valor "" inválido; campo obrigatório',
        'Coluna worksheet_file: valor "nao-existe.xlsx" inválido; arquivo não encontrado no repositório (/repo/format); envie-o antes por /captura/manual',
        'Coluna businessUnitID: valor "2236" inválido; linha duplicada: a linha 2 tem os mesmos businessUnitID, year, account, description',
      ],
      unchanged: [FISCAL_ITEMS],
    });
  });

  it("refuses a wrong header naming the closest template, and empty files", async () => {
    const header = FISCAL_HEADER.filter((h) => h !== "document_file");
    await expectLayoutsRefused(FISCAL_HEADER, [FISCAL_ITEMS], {
      content: csv(header, [["x"]]),
      closest: "Ativo fiscal – itens",
      missing: "document_file",
      unexpected: "nenhuma",
    });
  });

  it("applies a large file (20,000 items)", async () => {
    await fiscalFiles();
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      fiscalRow({ year: 2000 + (i % 20), description: `Item ${i}` }),
    );
    const { file } = await upload("fiscal-grande.csv", csv(FISCAL_HEADER, rows));
    expect(file?.message).toBe(
      "20.000 linhas OK, 0 NOK. Aplicado: 20 pares (empresa, ano) substituídos (0 linhas removidas, 20.000 gravadas).",
    );
    expect(await count(FISCAL_ITEMS)).toBe(20_000);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Interrupted runs

describe("a run cut short", () => {
  /** The job sent back to the queue, as "Tentar novamente" does (or as a claim whose worker died leaves it). */
  async function requeue(id: ObjectId) {
    const files = (await testDb.db()).collection("files");
    const { attempts } = (await files.findOne({ _id: id }))!;
    await files.updateOne(
      { _id: id },
      { $set: { status: 0, progress: 0, agent: "", leaseUntil: null, message: "", retryBase: attempts } },
    );
    return run();
  }

  it("is repaired by the next run: a ledger pair half applied (a crash mid-apply) is whole again, without copies", async () => {
    const rows = Array.from({ length: 300 }, (_, a) =>
      ledgerRow({ account: `1.${a}`, category3: `Conta ${a}`, actual: a }),
    );
    const { id } = await upload("razao.csv", csv(LEDGER_HEADER, rows));
    const db = await testDb.db();
    await db.collection(LEDGER).deleteMany({ actual: { $gte: 150 } }); // the crash: half of the month written
    expect(await requeue(id)).toMatchObject({ status: 0 });
    expect(await count(LEDGER)).toBe(300);
    expect(await spoolFiles()).toEqual([]);
  });

  it("is repaired by the next run: an upsert half applied, and the spool an earlier run left, give the same result", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => hrRow({ matricula: String(300_000 + i) }));
    const { id } = await upload("rh.csv", csv(HR_HEADER, rows));
    const db = await testDb.db();
    await db.collection(HR_AUX).deleteMany({ matricula: { $gte: "300150" } });
    await fs.mkdir(spoolDir(), { recursive: true });
    await fs.writeFile(path.join(spoolDir(), `${id.toHexString()}-0000aaaa.bson`), "not rows");
    expect(await requeue(id)).toMatchObject({
      status: 0,
      message: "300 linhas OK, 0 NOK. Aplicado: 150 novas, 0 alteradas, 150 sem alteração.",
    });
    expect(await count(HR_AUX)).toBe(300);
    expect(await count(HR_AUX_CHANGES)).toBe(0);
    expect(await spoolFiles()).toEqual([]);
  });

  it("records on the job when its apply begins: a refused file never reaches it", async () => {
    const applied = await upload("fpa-ok.csv", csv(FPA_HEADER, [fpaRow("5454")]));
    expect(applied.file).toMatchObject({ status: 0, attempts: 1, applyBegan: 1 });
    const refused = await upload("fpa-nok.csv", csv(FPA_HEADER, [fpaRow("9999")]));
    expect(refused.file).toMatchObject({ status: FILE_STATUS_REJECTED });
    expect(refused.file).not.toHaveProperty("applyBegan");
  });

  it("given up after every claim died while checking it, keeps none of its rows and says so", async () => {
    const before = await snapshot([FPA_RESPONSIBLES]);
    const { id } = await upload("fpa-caiu.csv", csv(FPA_HEADER, [fpaRow("2236"), fpaRow("9999")]));
    expect(await nokOf(FPA_RESPONSIBLES_NOK, id)).toHaveLength(1);
    // As MAX_ATTEMPTS claims that died after writing its NOK rows leave it: waiting, every allowed claim used.
    const files = (await testDb.db()).collection("files");
    await files.updateOne(
      { _id: id },
      { $set: { status: 0, progress: 40, agent: "dead", leaseUntil: null, attempts: MAX_ATTEMPTS, retryBase: 0 } },
    );
    expect(await run()).toMatchObject({ status: 3, message: jobGiveUpTexts.nothingKept(MAX_ATTEMPTS) });
    expect(await nokOf(FPA_RESPONSIBLES_NOK, id)).toEqual([]);
    expect(await snapshot([FPA_RESPONSIBLES])).toEqual(before);
  });
});
