import type { LoaderFunctionArgs } from "@remix-run/node";
import ExcelJS from "exceljs";
import type { Db, ObjectId } from "mongodb";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { workbookPost } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { BRANCH_A, BRANCH_B, insertHrRecords, LAST_MONTH, MONTH_BEFORE, setPermission } from "~/features/hr/fixtures";
import { hrGridPath } from "~/features/hr/paths";
import { namedFiles } from "~/features/repository-and-master-data/file-names.server";
import { FILES } from "~/models/files.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { action as uploadAction } from "~/routes/api.upload";
import { loader as fixRowsLoader } from "~/routes/captura.processando_.corrigir.$id";
import { loader as nokLoader } from "~/routes/captura.processando_.nok.$id";
import { loader as downloadLoader } from "~/routes/download.$token";
import { action as hrExcelAction, loader as hrExcelLoader } from "~/routes/ij.rh_edit.$filial.excel";
import { action as repoFormatAction } from "~/routes/repo.format";
import { LOCAL_BUCKET, objectUrlPath } from "~/services/storage.server";
import { PRODUCT_HEADER, productLine, useTempDataDir } from "./upload-fixtures";

/**
 * A stored file's class is decided when it is stored, and it alone decides how the file leaves: an HR grid export
 * sent back (through /captura/manual or queued by the grid's own Excel route) and a file with a CPF column are HR
 * files, so every path that hands them out (the repository's download, the master-data file names' links, the
 * refused rows) gives a store-limited account only its branch's rows with every CPF masked, whatever the header row.
 */

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
const testDb = useTestDatabase();
useTempDataDir();
let db: Db;

/** USER GOLD limited to one branch each (the least-privileged account that reaches every path here). */
const ONLY_A = "gold.a@example.com";
const ONLY_B = "gold.b@example.com";
const ADMIN = "admin@example.com";
const RANGE = { from: MONTH_BEFORE, to: LAST_MONTH };
/** Branch A's people, who must never reach an account limited to branch B. */
const A_NAMES = ["Renata Souza Lima", "Ana Paula Costa", "Marcos Vieira"];
const A_CPF = "529.982.247-25";

const as = (email: string, type: "USER GOLD" | "SYSTEM ADMIN" = "USER GOLD") => {
  currentUser.email = email;
  currentUser.type = type;
};

beforeAll(async () => {
  db = await testDb.db();
  await insertHrRecords(db);
  await setPermission(db, ONLY_A, "USER GOLD", [BRANCH_A]);
  await setPermission(db, ONLY_B, "USER GOLD", [BRANCH_B]);
  await setPermission(db, ADMIN, "SYSTEM ADMIN");
});
beforeEach(() => as(ONLY_A));

const excelPath = (filial: string) => hrGridPath(filial, RANGE).replace("?", "/excel?");

/** Branch A's "Exportar Excel" as ONLY_A gets it, with Renata's full CPF typed back into her first row. */
async function branchAExport(): Promise<ExcelJS.Workbook> {
  as(ONLY_A);
  const response = (await hrExcelLoader({
    request: new Request(`http://localhost${excelPath(BRANCH_A)}`),
    params: { filial: BRANCH_A },
    context: {},
  } as LoaderFunctionArgs)) as Response;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  let cpf = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === "CPF") cpf = col;
  });
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (String(row.getCell(cpf).value).endsWith(".982.247-**")) {
      row.getCell(cpf).value = A_CPF;
      break;
    }
  }
  return workbook;
}

/** Sends files through /api/upload (the /captura/manual upload) as the current user; their stored keys. */
async function uploaded(files: Array<{ name: string; bytes: Buffer | string }>): Promise<string[]> {
  const form = new FormData();
  for (const f of files)
    form.append("files", new Blob([typeof f.bytes === "string" ? f.bytes : new Uint8Array(f.bytes)]), f.name);
  const answer = (await uploadAction({
    request: new Request("http://localhost/api/upload", {
      method: "POST",
      headers: { Accept: "application/json" },
      body: form,
    }),
    params: {},
    context: {},
  })) as Response;
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { files: Array<{ key: string }> }).files.map((f) => f.key);
}

const fileIdOf = async (key: string) => String((await db.collection(FILES).findOne({ originalFile: key }))!._id);
/** Lets a worker take every waiting job. */
async function runWorker() {
  while (await processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 }));
}

/** Whatever a download answered, as text: a CSV as it is, an XLSX as its cells (";" between, one line per row). */
async function textOf(response: Response): Promise<{ status: number; csv: boolean; text: string }> {
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.subarray(0, 2).toString("latin1") !== "PK")
    return { status: response.status, csv: true, text: bytes.toString("utf8").replace(/^\uFEFF/, "") };
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const lines: string[] = [];
  for (const sheet of workbook.worksheets)
    sheet.eachRow((row) =>
      lines.push(
        (row.values as unknown[])
          .slice(1)
          .map((v) => String(v ?? ""))
          .join(";"),
      ),
    );
  return { status: response.status, csv: false, text: lines.join("\r\n") };
}

/** Follows a signed link (/download/{token}) as the current user. */
async function followed(link: string) {
  const response = (await downloadLoader({
    params: { token: link.slice("/download/".length) },
    request: new Request(`http://localhost${link}`),
    context: {},
  })) as Response;
  return textOf(response);
}

/** What the current user downloads of the file from /repo/format. */
async function fromRepository(fileId: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ intent: "download", fileId, mode: "fetch" })) form.append(k, v);
  const answer = (await repoFormatAction({
    request: new Request("http://localhost/repo/format", { method: "POST", body: form }),
    params: {},
    context: {},
  })) as { data: { url?: string } };
  if (!answer.data.url) throw new Error(JSON.stringify(answer));
  return followed(answer.data.url);
}

const dataLines = (text: string) => text.split("\r\n").filter(Boolean).slice(1);

/** The branch-B account gets nothing of branch A: no name, no CPF, no comment, no figure row. */
function expectNothingOfBranchA(got: { status: number; csv: boolean; text: string }) {
  expect(got.status).toBe(200);
  for (const name of A_NAMES) expect(got.text).not.toContain(name);
  expect(got.text).not.toContain(A_CPF);
  expect(got.text).not.toContain("Comentário inicial");
  expect(got.csv).toBe(true);
  expect(dataLines(got.text)).toEqual([]);
}

/** The branch-A account gets its six rows (three people, two months), the CPF typed back masked. */
function expectBranchAMasked(got: { status: number; csv: boolean; text: string }) {
  expect(got.status).toBe(200);
  expect(got.csv).toBe(true);
  expect(dataLines(got.text)).toHaveLength(6);
  for (const name of A_NAMES) expect(got.text).toContain(name);
  expect(got.text).toContain("***.982.247-**");
  expect(got.text).not.toContain(A_CPF);
  expect(got.text).not.toMatch(/_portal:|\b_rev\b/);
}

describe("an HR grid export sent back through /captura/manual", () => {
  it("is an HR file: another branch's account gets none of its rows, its own branch's masked", async () => {
    const workbook = await branchAExport();
    as(ONLY_A);
    const [key] = await uploaded([
      { name: "auxiliar-editado.xlsx", bytes: Buffer.from(await workbook.xlsx.writeBuffer()) },
    ]);
    await runWorker();
    const id = await fileIdOf(key);

    as(ONLY_B);
    expectNothingOfBranchA(await fromRepository(id));
    as(ONLY_A);
    expectBranchAMasked(await fromRepository(id));
  });

  it("leaves the same way through the link the master-data screens give its name", async () => {
    const workbook = await branchAExport();
    const [key] = await uploaded([
      { name: "auxiliar-nomes.xlsx", bytes: Buffer.from(await workbook.xlsx.writeBuffer()) },
    ]);
    const named = await namedFiles([objectUrlPath(LOCAL_BUCKET, key)]);
    const link = named.get(objectUrlPath(LOCAL_BUCKET, key))?.href;
    expect(link).toMatch(/^\/download\//);
    as(ONLY_B);
    expectNothingOfBranchA(await followed(link!));
  });
});

describe("an HR grid export too large to apply in the request (queued by the grid's Excel route)", () => {
  beforeEach(() => {
    vi.stubEnv("EXCEL_IMPORT_INLINE_MAX_BYTES", "1000");
    resetConfigForTests();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it("is stored as HR: before and after the worker applies it, another branch gets none of it", async () => {
    const workbook = await branchAExport();
    as(ONLY_A);
    const response = await responseOf(
      hrExcelAction({
        request: await workbookPost(workbook, `http://localhost${excelPath(BRANCH_A)}`, "auxiliar-grande.xlsx"),
        params: { filial: BRANCH_A },
        context: {},
      } as LoaderFunctionArgs),
    );
    expect(response.status).toBe(302);
    const job = new URL(response.headers.get("Location")!, "http://x").searchParams.get("excelJob");
    expect(job).toMatch(/^[0-9a-f]{24}$/);
    // Classified as it was stored, by the path that stored it.
    expect(await db.collection(FILES).findOne({ originalName: "auxiliar-grande.xlsx" })).toMatchObject({
      dataClass: "hr",
    });

    as(ONLY_B);
    expectNothingOfBranchA(await fromRepository(job!));
    await runWorker();
    expectNothingOfBranchA(await fromRepository(job!));
    as(ONLY_A);
    expectBranchAMasked(await fromRepository(job!));
  });
});

describe("a file whose header is no template but that holds a CPF column", () => {
  it("is HR: a store-limited account gets no row (none is its branch's), every CPF masked for all", async () => {
    as(ADMIN, "SYSTEM ADMIN");
    const [formatted, bare, plain] = await uploaded([
      { name: "colaboradores.csv", bytes: `colaborador;documento;valor\nRenata Souza Lima;${A_CPF};10\n` },
      { name: "colaboradores-2.csv", bytes: "pessoa,doc\nMarcos Vieira,39053344705\nAna Paula Costa,11144477735\n" },
      { name: "vendas.csv", bytes: "sku;valor\nA;10\n" },
    ]);

    as(ONLY_B);
    for (const key of [formatted, bare]) {
      const got = await fromRepository(await fileIdOf(key));
      expect(got.csv).toBe(true);
      expect(dataLines(got.text)).toEqual([]);
      for (const name of A_NAMES) expect(got.text).not.toContain(name);
      expect(got.text).not.toMatch(/529\.982\.247-25|39053344705|11144477735/);
    }
    // A file with nothing of HR downloads as it was stored.
    expect((await fromRepository(await fileIdOf(plain))).text).toBe("sku;valor\nA;10\n");

    as(ADMIN, "SYSTEM ADMIN");
    const all = await fromRepository(await fileIdOf(formatted));
    expect(dataLines(all.text)).toEqual(["Renata Souza Lima;***.982.247-**;10"]);
    const allBare = await fromRepository(await fileIdOf(bare));
    expect(allBare.text).toContain("Marcos Vieira;***.533.447-**");
    expect(allBare.text).not.toMatch(/39053344705|11144477735/);
  });
});

describe("the worker classifies the files it takes, from the rows it reads", () => {
  it("records HR for a file of no template with CPFs in its rows, plain for a product file", async () => {
    as(ADMIN, "SYSTEM ADMIN");
    const lines = Array.from({ length: 50 }, (_, i) => `Pessoa ${i};${i === 40 ? A_CPF : "sem documento"}`);
    const [people, products] = await uploaded([
      { name: "pessoas.csv", bytes: ["nome;documento", ...lines].join("\n") },
      { name: "produtos.csv", bytes: [PRODUCT_HEADER, productLine(1), productLine(2)].join("\n") },
    ]);
    await runWorker();
    const record = (key: string) => db.collection(FILES).findOne({ originalFile: key });
    expect(await record(people)).toMatchObject({ status: 2, dataClass: "hr", dataClassBy: "cpf-column" });
    expect(await record(products)).toMatchObject({ status: 0, dataClass: "plain", dataClassBy: "no-hr-sign" });

    as(ONLY_B);
    const got = await fromRepository(await fileIdOf(people));
    expect(dataLines(got.text)).toEqual([]);
    expect(got.text).not.toContain(A_CPF);
    expect((await fromRepository(await fileIdOf(products))).text).toContain("SKU1;Produto 1");
  });
});

describe("the refused rows of a file classified HR", () => {
  let id: ObjectId;
  beforeAll(async () => {
    // A product file with a CPF column of its own, one row refused for a CPF typed in the hero column.
    as(ADMIN, "SYSTEM ADMIN");
    const content = [
      `${PRODUCT_HEADER};cpf_responsavel`,
      `${productLine(1)};${A_CPF}`,
      `${productLine(2).replace(";non-hero;", `;${A_CPF};`)};${A_CPF}`,
    ].join("\n");
    const [key] = await uploaded([{ name: "produtos-com-cpf.csv", bytes: content }]);
    await runWorker();
    id = (await db.collection(FILES).findOne({ originalFile: key }))!._id as ObjectId;
  });

  const nok = async (loader: typeof nokLoader | typeof fixRowsLoader) =>
    textOf(
      await responseOf(
        loader({
          request: new Request(`http://localhost/captura/processando/nok/${id.toHexString()}`),
          params: { id: id.toHexString() },
          context: {},
        } as LoaderFunctionArgs) as Promise<Response>,
      ),
    );

  it("leave masked, and only rows of the viewer's branches: none for a store-limited account", async () => {
    as(ONLY_B);
    for (const loader of [nokLoader, fixRowsLoader]) {
      const got = await nok(loader);
      expect(got.status).toBe(200);
      expect(got.text).not.toContain(A_CPF);
      expect(dataLines(got.text)).toEqual([]);
    }
    as(ADMIN, "SYSTEM ADMIN");
    for (const loader of [nokLoader, fixRowsLoader]) {
      const got = await nok(loader);
      expect(got.text).toContain("***.982.247-**");
      expect(got.text).not.toContain(A_CPF);
    }
  });
});
