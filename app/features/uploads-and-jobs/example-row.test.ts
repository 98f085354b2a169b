import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { NON_EXAMPLE_CELL, useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { repositoryFiles, uploadAndProcess } from "#test/uploads";
import { applyIndexes } from "~/models/all-indexes.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { TEMPLATE_CATALOG, type TemplateInfo } from "~/platform/import/catalog.server";
import { DATASET_COLLECTIONS } from "~/platform/import/datasets/apply.server";
import { FILE_STATUS_REJECTED } from "~/platform/import/datasets/ingest.server";
import { TEMPLATES } from "~/platform/import/registry";
import { loader as downloadLoader } from "~/routes/captura.manual_.modelo.$template";

/**
 * The example row of a template guides, it does not load. The template downloaded from
 * /captura/manual/modelo/<id>, sent back unchanged (the XLSX itself, its CSV equivalent, its cells typed as Excel
 * types them), changes nothing and says so, however often it is sent; beside real rows it is counted, not loaded,
 * and it never refuses an all-or-nothing file.
 */

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
const testDb = useTestDatabase();
// The files load RF1 2026 forecast rows, which change only in that RF's edit month (November 2025).
usePortalToday("2025-11-15");
useTempDataDir();

/** Every collection an upload of the template may write: its business data and its NOK base. */
function collectionsOf(id: string): string[] {
  const { load } = TEMPLATES.find((t) => t.id === id)!;
  if (load.mode === "rows-with-nok") return [load.okCollection, load.nokCollection];
  const c = DATASET_COLLECTIONS[id as keyof typeof DATASET_COLLECTIONS];
  return [...c.touched, c.nokCollection];
}

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

async function upload(name: string, content: Buffer | string) {
  return (await uploadAndProcess(name, content, { worker: { name: "example-worker", progressIntervalMs: 50 } })).file!;
}

/** The XLSX /captura/manual/modelo/<id> returns, as bytes. */
async function downloadedTemplate(id: string): Promise<Buffer> {
  currentUser.type = "SYSTEM ADMIN";
  const response = (await downloadLoader({
    request: new Request(`http://localhost/captura/manual/modelo/${id}`),
    params: { template: id },
    context: {},
  })) as Response;
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const cellsOf = (info: TemplateInfo, over: Record<string, string> = {}) =>
  info.columns.map((c) => (c.name in over ? over[c.name] : String(c.example)));
const csvOf = (info: TemplateInfo, rows: string[][]) =>
  [info.columns.map((c) => c.name), ...rows].map((r) => r.join(";")).join("\r\n");

/** The example as Excel types what one types into it: dates and months as dates, numbers as numbers, sim/não as booleans. */
function typedAsExcel(text: string): string | number | boolean | Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(`${text}T00:00:00Z`);
  if (/^\d{4}-\d{2}$/.test(text)) return new Date(`${text}-01T00:00:00Z`);
  if (/^(0|[1-9]\d*)$/.test(text)) return Number(text);
  if (/^\d{1,3}(\.\d{3})*,\d+$/.test(text)) return Number(text.replaceAll(".", "").replace(",", "."));
  if (text === "sim" || text === "não") return text === "sim";
  return text;
}

/** The same values written differently, as the import reads them alike (case of a list, punctuation, number forms). */
const RESPELLED: Record<string, Record<string, string>> = {
  product: { hero: "HERO", abcd: "a", data_validade_sku: "31/12/2027" },
  channel: { cnpj: "11222333000181", description: "  Loja parceira " },
  spend: { channel: "wholesales", yearMonthDay: "2026-03-01" },
  planning_quantity: { dateRef: "03/2026", channel: "Wholesales", valor: "1.200" },
  forecast: { data_ref: "11/2026", forecast: "182500.00", value: "" },
  ledger: { month: "2026-01-15", working_capital: "S", fiscal: "n", actual: "12400000" },
  hr_aux: { mes_apur: "02/2026", cpf: "52998224725", dias_media: "21.5" },
  fpa_responsibles: { businessUnitID: " 2236 " },
  fiscal_items: { value: "1350000" },
};

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  // The fiscal example names repository files: they are there, so an example row would have somewhere to go.
  await repositoryFiles(["icms_2236.xlsx", "icms_2236.pdf"]);
});

describe("a template sent back unchanged loads nothing, and says so", () => {
  for (const info of TEMPLATE_CATALOG) {
    it(`${info.id}: the downloaded XLSX, twice, its CSV and its Excel-typed cells change nothing`, async () => {
      const collections = collectionsOf(info.id);
      const before = await snapshot(collections);
      const xlsx = await downloadedTemplate(info.id);
      const variants: Array<[string, Buffer | string]> = [
        [`modelo_${info.id}.xlsx`, xlsx],
        [`modelo_${info.id} (1).xlsx`, xlsx],
        [`modelo_${info.id}.csv`, csvOf(info, [cellsOf(info)])],
        [`${info.id}-respelled.csv`, csvOf(info, [cellsOf(info, RESPELLED[info.id])])],
        [`${info.id}-typed.xlsx`, await xlsxBuffer([info.columns.map((c) => c.name), cellsOf(info).map(typedAsExcel)])],
      ];
      for (const [name, content] of variants) {
        const job = await upload(name, content);
        const nothing = info.allOrNothing ? "nada foi aplicado" : "nada foi carregado";
        expect({ name, status: job.status, message: job.message }).toEqual({
          name,
          status: info.allOrNothing ? FILE_STATUS_REJECTED : FILE_STATUS_OK,
          message: `Linha 2: linha de exemplo do modelo, ignorada. Nenhuma outra linha de dados: ${nothing}.`,
        });
        expect(await snapshot(collections), `${name} changed ${collections.join(", ")}`).toEqual(before);
      }
    });
  }
});

describe("beside real rows, the example row is counted, not loaded", () => {
  for (const info of TEMPLATE_CATALOG) {
    it(`${info.id}: the real row loads, the example does not, and an all-or-nothing file is applied`, async () => {
      const [businessCollection] = collectionsOf(info.id);
      const db = await testDb.db();
      const before = await db.collection(businessCollection).countDocuments();
      expect(before).toBe(0);
      const real = cellsOf(info, NON_EXAMPLE_CELL[info.id]);
      const job = await upload(`${info.id}-real.csv`, csvOf(info, [cellsOf(info), real, cellsOf(info)]));
      expect(job.status, job.message).toBe(0);
      expect(job.message).toMatch(
        /^1 linhas? OK, 0 NOK; 2 linhas de exemplo do modelo, ignoradas \(a primeira na linha 2\)/,
      );
      // Only the real row is stored (nothing of this template was stored before).
      expect(await db.collection(businessCollection).countDocuments()).toBe(before + 1);
    });
  }

  it("channel: the template sent twice with a real row under the example creates that row once per upload, never the example", async () => {
    const info = TEMPLATE_CATALOG.find((t) => t.id === "channel")!;
    const db = await testDb.db();
    await db.collection("channel").deleteMany({});
    for (const name of ["canal-1.csv", "canal-2.csv"]) {
      const job = await upload(
        name,
        csvOf(info, [cellsOf(info), cellsOf(info, { description: "Loja Centro", cnpj: "11.444.777/0001-61" })]),
      );
      expect(job.message).toMatch(/^1 linhas? OK, 0 NOK; linha 2: linha de exemplo do modelo, ignorada$/);
    }
    const rows = await db.collection("channel").find({}).toArray();
    expect(rows.map((r) => [r.cnpj, r.description])).toEqual([
      ["11444777000161", "Loja Centro"],
      ["11444777000161", "Loja Centro"],
    ]);
    expect(await db.collection("channel").countDocuments({ description: "Loja parceira" })).toBe(0);
  });

  it("a row that differs from the example in one cell is an ordinary row: loaded, or NOK when invalid", async () => {
    const info = TEMPLATE_CATALOG.find((t) => t.id === "product")!;
    const ok = await upload("produto-1.csv", csvOf(info, [cellsOf(info, { plc_global: "4-Phase Out" })]));
    expect(ok.message).toMatch(/^1 linhas? OK, 0 NOK$/);
    const nok = await upload("produto-2.csv", csvOf(info, [cellsOf(info, { hero: "talvez" })]));
    expect(nok.message).toMatch(/^0 linhas? OK, 1 NOK$/);
    const hr = TEMPLATE_CATALOG.find((t) => t.id === "hr_aux")!;
    const refused = await upload("rh.csv", csvOf(hr, [cellsOf(hr), cellsOf(hr, { cpf: "123" })]));
    expect(refused.status).toBe(FILE_STATUS_REJECTED);
    expect(refused.message).toMatch(
      /^0 linhas? OK, 1 NOK; linha 2: linha de exemplo do modelo, ignorada; nada foi aplicado/,
    );
  });
});

describe("the downloaded template marks its example row", () => {
  it("grey italics, a note on its first cell, and a line on the columns sheet", async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await downloadedTemplate("channel")) as unknown as ArrayBuffer);
    const [data, help] = workbook.worksheets;
    expect(data.getRow(2).getCell(1).font).toMatchObject({ italic: true });
    expect(String(data.getRow(2).getCell(1).note)).toMatch(/Linha de exemplo/);
    const lines: string[] = [];
    help.eachRow((row) => lines.push((row.values as unknown[]).filter(Boolean).join(" ")));
    expect(lines.some((l) => l.includes("linha de exemplo do modelo, ignorada"))).toBe(true);
  });
});
