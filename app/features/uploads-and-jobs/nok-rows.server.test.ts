import type { LoaderFunctionArgs } from "@remix-run/node";
import { type Db, ObjectId } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries, recordQueryPlans } from "#test/query-plans";
import {
  endedFileRecord,
  FORECAST_HEADER,
  forecastRow,
  grantPermission,
  PRODUCT_HEADER,
  productLine,
  storeAndRegister,
  useTempDataDir,
} from "#test/upload-fixtures";
import { uploadAndProcess } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { FILES } from "~/models/files.server";
import { FORECAST, FORECAST_NOK } from "~/models/forecast.server";
import { REPORTS_NOK, replaceReportNokRows } from "~/models/reports.server";
import { nokCollectionsOfFiles, UPLOAD_NOK_COLLECTIONS } from "~/models/upload-nok.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { FILE_STATUS_REJECTED } from "~/platform/import/datasets/ingest.server";
import { nokColumnsOf } from "~/platform/import/nok-rows.server";
import { loader } from "~/routes/captura.processando_.nok.$id";
import { csvCell } from "~/shared/csv";
import { loadJobList } from "./job-list.server";

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

const csv = (rows: string[][]) => [FORECAST_HEADER.join(";"), ...rows.map((r) => r.join(";"))].join("\n");

const OWNER = "ana@example.com";
const viewer = (email: string, type: AuthenticatedUser["type"]): AuthenticatedUser => ({
  email,
  name: "",
  type,
  sessionId: "s",
});
const as = (email: string, type: AuthenticatedUser["type"]) => {
  currentUser.email = email;
  currentUser.type = type;
};

/** Uploads a file as `user` and runs the worker once; the file's id and final record. */
async function upload(name: string, content: string, user = OWNER) {
  const { id, outcome } = await uploadAndProcess(name, content, { user });
  const file = await (await testDb.db()).collection(FILES).findOne({ _id: id });
  return { id, outcome, file };
}

const download = (id: string) =>
  (
    loader({
      request: new Request(`http://localhost/captura/processando/nok/${id}`),
      params: { id },
      context: {},
    } as LoaderFunctionArgs) as Promise<Response>
  ).catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });

/** A refused forecast file: line 2 valid, lines 3–5 broken (one with a ";" and a quote inside, one a formula). */
const REFUSED_FORECAST = csv([
  forecastRow(),
  forecastRow({ rf: "RF5 2026", data_ref: "2026-03" }),
  forecastRow({ cost_center_concat: "", data_ref: "2026-04", level_descr: '"Área; nova"' }),
  forecastRow({ data_ref: "2026-06", forecast: "=1+2" }),
]);

let refused: ObjectId;
let accepted: ObjectId;

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection(FILES).deleteMany({});
  refused = (await upload("forecast-quebrado.csv", REFUSED_FORECAST)).id;
  accepted = (await upload("forecast-bom.csv", csv([forecastRow({ data_ref: "2026-09" })]))).id;
});

beforeEach(() => as(OWNER, "USER BRONZE"));

describe("the job lists link a refused all-or-nothing upload to its refused rows", () => {
  it("the refused forecast file really is refused, and its rows are in forecast_nok", async () => {
    const db = await testDb.db();
    expect(await db.collection(FILES).findOne({ _id: refused })).toMatchObject({
      status: FILE_STATUS_REJECTED,
      progress: 100,
    });
    expect(await db.collection(FORECAST_NOK).countDocuments({ sourceFileId: refused })).toBe(3);
    expect(await db.collection(FILES).findOne({ _id: accepted })).toMatchObject({ status: 0 });
    expect(await db.collection(FORECAST).countDocuments({})).toBe(1);
  });

  it("gives the uploader's own list and /jobs/executados a plain download link, and none to a file without refused rows", async () => {
    const own = await loadJobList(new Request("http://x/captura/processando"), viewer(OWNER, "USER BRONZE"), {
      ownOnly: true,
    });
    const row = own.rows.find((r) => r.id === refused.toHexString())!;
    expect(row).toMatchObject({
      kind: "error",
      status: FILE_STATUS_REJECTED,
      nokRowsHref: `/captura/processando/nok/${refused.toHexString()}`,
      nokRowsDownload: true,
    });
    expect(own.rows.find((r) => r.id === accepted.toHexString())).toMatchObject({
      nokRowsHref: null,
      nokRowsDownload: false,
    });

    const all = await loadJobList(new Request("http://x/jobs/executados"), viewer("gold@example.com", "USER GOLD"), {
      ownOnly: false,
    });
    expect(all.rows.find((r) => r.id === refused.toHexString())).toMatchObject({
      nokRowsHref: `/captura/processando/nok/${refused.toHexString()}`,
      nokRowsDownload: true,
    });
  });

  it("keeps the master-data link of a spec-000 file as it was", async () => {
    const db = await testDb.db();
    const { insertedId } = await db.collection(FILES).insertOne(
      endedFileRecord({
        originalName: "produtos.csv",
        originalFile: "2030/05/produtos.csv",
        user: OWNER,
        statusChangeDate: new Date(Date.UTC(2030, 4, 1)),
        createdAt: new Date(Date.UTC(2030, 4, 1)),
        message: "1 linha OK, 1 NOK",
      }),
    );
    await db
      .collection("product_master_nok")
      .insertOne({ sku: "X", _lineNumber: 2, urlPath: "2030/05/produtos.csv", Error: "x", sourceFileId: insertedId });
    const all = await loadJobList(new Request("http://x/jobs/executados"), viewer("gold@example.com", "USER GOLD"), {
      ownOnly: false,
    });
    expect(all.rows.find((r) => r.id === insertedId.toHexString())).toMatchObject({
      nokRowsHref: `/repo/master-data?${new URLSearchParams({ base: "nok", collection: "product_master_nok", file: "2030/05/produtos.csv" })}`,
      nokRowsDownload: false,
    });
    await db.collection(FILES).deleteOne({ _id: insertedId });
    await db.collection("product_master_nok").deleteMany({ sourceFileId: insertedId });
  });
});

describe("which listed files are looked up for refused rows", () => {
  it("decides from the count the job recorded when it ended: none recorded, no link; some, or a file from before the count, looked up", async () => {
    const db = await testDb.db();
    const file = (name: string, nokRows: number | undefined) =>
      endedFileRecord({
        originalName: name,
        originalFile: `2031/01/${name}`,
        user: OWNER,
        statusChangeDate: new Date(Date.UTC(2031, 0, 1)),
        createdAt: new Date(Date.UTC(2031, 0, 1)),
        ...(nokRows === undefined ? {} : { nokRows }),
      });
    const { insertedIds } = await db
      .collection(FILES)
      .insertMany([file("zero.csv", 0), file("two.csv", 2), file("before.csv", undefined)]);
    const ids = [insertedIds[0], insertedIds[1], insertedIds[2]];
    // Rows under each (the first one's are not the job's: it recorded none).
    await db.collection("product_master_nok").insertMany(
      ["zero.csv", "two.csv", "before.csv"].map((name, i) => ({
        sku: "X",
        _lineNumber: 2,
        urlPath: `2031/01/${name}`,
        Error: "x",
        sourceFileId: ids[i],
      })),
    );
    const list = await loadJobList(new Request("http://x/jobs/executados"), viewer("gold@example.com", "USER GOLD"), {
      ownOnly: false,
    });
    const hrefOf = (i: number) => list.rows.find((r) => r.id === ids[i].toHexString())?.nokRowsHref ?? null;
    expect([hrefOf(0), hrefOf(1) !== null, hrefOf(2) !== null]).toEqual([null, true, true]);
    await db.collection(FILES).deleteMany({ _id: { $in: ids } });
    await db.collection("product_master_nok").deleteMany({ sourceFileId: { $in: ids } });
  });
});

describe("a master-data file's refused rows, for its uploader who may not open /repo/master-data", () => {
  it("links USER BRONZE's own product file to the CSV of its NOK rows, which downloads; another uploader gets a 404", async () => {
    const db = await testDb.db();
    const bronze = "bruno@example.com";
    await grantPermission(db, bronze, "USER BRONZE");
    const content = [
      PRODUCT_HEADER,
      productLine(1),
      productLine(2, true),
      "SKU-3;;Marca;CAT;Principal;Sub;hero;A;ativo;global;2027-12-31",
    ].join("\n");
    const { id, file } = await upload("produtos-bronze.csv", content, bronze);
    expect(file).toMatchObject({ status: 0, progress: 100, message: "1 linha OK, 2 NOK" });

    const own = await loadJobList(new Request("http://x/captura/processando"), viewer(bronze, "USER BRONZE"), {
      ownOnly: true,
    });
    expect(own.rows.find((r) => r.id === id.toHexString())).toMatchObject({
      nokRowsHref: `/captura/processando/nok/${id.toHexString()}`,
      nokRowsDownload: true,
    });
    // Who may open the repository keeps the page narrowed to the file.
    const all = await loadJobList(new Request("http://x/jobs/executados"), viewer("gold@example.com", "USER GOLD"), {
      ownOnly: false,
    });
    expect(all.rows.find((r) => r.id === id.toHexString())).toMatchObject({
      nokRowsDownload: false,
      nokRowsHref: expect.stringMatching(/^\/repo\/master-data\?base=nok&collection=product_master_nok&file=/),
    });

    as(bronze, "USER BRONZE");
    const response = await download(id.toHexString());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain('filename="linhas-nok-produtos-bronze.csv"');
    const lines = new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(3)).split("\r\n");
    expect(lines[0]).toBe(["Linha", ...PRODUCT_HEADER.split(";"), "Erro"].join(";"));
    expect(lines.slice(1, 3)).toEqual([
      '3;SKU2;Produto 2;Marca 2;CAT2;Principal;Sub;maybe;C;ativo;global;2027-12-31;"Coluna hero: valor ""maybe"" inválido; esperado hero ou non-hero"',
      expect.stringMatching(/^4;SKU-3;;.*Coluna sku: valor ""SKU-3"" inválido/),
    ]);
    expect(lines).toHaveLength(4);

    as("bia@example.com", "USER BRONZE");
    expect((await download(id.toHexString())).status).toBe(404);
  });
});

describe("GET /captura/processando/nok/{file id}", () => {
  it("downloads the refused rows as a pt-BR CSV: BOM, ';', Linha, the template's columns and Erro, in line order", async () => {
    const response = await download(refused.toHexString());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toContain('filename="linhas-nok-forecast-quebrado.csv"');
    expect(response.body).toBeInstanceOf(ReadableStream);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toBe(["Linha", ...FORECAST_HEADER, "Erro"].join(";"));
    expect(lines.slice(1)).toEqual([
      '3;RF5 2026;CC1001 - Marketing;CC1001;Comercial;Despesas com Pessoal;2026-03;4101001 - Salários e Ordenados;;0;182.500,00;"Coluna rf: valor ""RF5 2026"" inválido; esperado actual ou RF1 a RF4 seguido do ano, ex.: ""RF1 2026"" (ano de 2000 a 2099)"',
      '4;RF1 2026;;CC1001;"Área; nova";Despesas com Pessoal;2026-04;4101001 - Salários e Ordenados;;0;182.500,00;"Coluna cost_center_concat: valor """" inválido; campo obrigatório"',
      expect.stringMatching(/^5;RF1 2026;.*;2026-06;.*;0;'=1\+2;"Coluna forecast: valor ""=1\+2"" inválido; /),
    ]);
  });

  it("is seen by a type that may open /jobs/executados, and is a 404 to another uploader who may not", async () => {
    as("gold@example.com", "USER GOLD");
    expect((await download(refused.toHexString())).status).toBe(200);
    as("admin@example.com", "SYSTEM ADMIN");
    expect((await download(refused.toHexString())).status).toBe(200);
    for (const type of ["USER SILVER", "USER BRONZE"] as const) {
      as("bia@example.com", type);
      const response = await download(refused.toHexString());
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(messages.notFound);
    }
    // A type outside the route's rule is refused by the guard first.
    as("explorer@example.com", "USER EXPLORER");
    await expect(
      loader({
        request: new Request("http://localhost/x"),
        params: { id: refused.toHexString() },
        context: {},
      } as LoaderFunctionArgs),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("answers 404 with the portal's message to an unknown or malformed id, and to a file without refused rows", async () => {
    for (const id of [
      new ObjectId().toHexString(),
      "xyz",
      "abcdefghijkl",
      "0123456789abcdef0123456g",
      `${refused.toHexString()}0`,
      "",
      "../../etc/passwd",
      accepted.toHexString(),
    ]) {
      const response = await download(id);
      expect(response.status, id).toBe(404);
      expect(await response.text()).toBe(messages.notFound);
    }
    const noParams = await (
      loader({
        request: new Request("http://localhost/x"),
        params: {},
        context: {},
      } as LoaderFunctionArgs) as Promise<Response>
    ).catch((r: Response) => r);
    expect(noParams.status).toBe(404);
  });

  it("serves a refused report package from reports_nok with the manifest's columns", async () => {
    const db = await testDb.db();
    const { id } = await storeAndRegister("pacote.zip", "PK", OWNER);
    await db.collection(FILES).updateOne({ _id: id }, { $set: { status: 3, progress: 100, message: "refused" } });
    await replaceReportNokRows(id, [
      {
        name: "Vendas",
        origin: "x",
        dateRef: "2026-01",
        file: "a.pdf",
        _lineNumber: 3,
        Error: 'Coluna origin: valor "x" inválido',
        urlPath: "k",
        timeStamp: new Date(),
      },
      {
        name: "Custos",
        origin: "manual",
        dateRef: "13/2026",
        file: "b.pdf",
        _lineNumber: 2,
        Error: "Coluna dateRef: inválido",
        urlPath: "k",
        timeStamp: new Date(),
      },
    ]);
    const bytes = new Uint8Array(await (await download(id.toHexString())).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3)).split("\r\n")).toEqual([
      "Linha;name;origin;dateRef;file;Erro",
      "2;Custos;manual;13/2026;b.pdf;Coluna dateRef: inválido",
      '3;Vendas;x;2026-01;a.pdf;"Coluna origin: valor ""x"" inválido"',
      "",
    ]);
    const list = await loadJobList(new Request("http://x/captura/processando"), viewer(OWNER, "USER BRONZE"), {
      ownOnly: true,
    });
    expect(list.rows.find((r) => r.id === id.toHexString())).toMatchObject({ nokRowsDownload: true });
    await db.collection(REPORTS_NOK).deleteMany({ sourceFileId: id });
    await db.collection(FILES).deleteOne({ _id: id });
  });

  it("knows the columns of every NOK collection it may find rows in", () => {
    for (const collection of UPLOAD_NOK_COLLECTIONS)
      expect(nokColumnsOf(collection).length, collection).toBeGreaterThan(0);
    expect(nokColumnsOf(FORECAST_NOK)).toEqual(FORECAST_HEADER);
  });

  it("quotes cells holding the delimiter, a quote or a line break, and keeps formulas from running", () => {
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvCell("a\nb")).toBe('"a\nb"');
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("@x")).toBe("'@x");
    expect(csvCell("-1.234,56")).toBe("-1.234,56");
    expect(csvCell(null)).toBe("");
    expect(csvCell(7)).toBe("7");
  });
});

describe("the NOK lookups use indexes", () => {
  const MIN_DOCUMENTS = 1_000;
  let db: Db;
  let big: ObjectId;

  beforeAll(async () => {
    db = await testDb.db();
    await applyIndexes(db);
    // Another file's 3,000 refused rows (ids as the importer makes them: growing with the line), so a scan counts.
    big = new ObjectId();
    const urlPath = "2030/01/grande.csv";
    await db.collection(FILES).insertOne({
      _id: big,
      originalName: "grande.csv",
      originalFile: urlPath,
      bucket: "local",
      user: OWNER,
      clientName: "demo",
      statusChangeDate: new Date(Date.UTC(2020, 0, 1)),
      createdAt: new Date(Date.UTC(2020, 0, 1)),
      status: FILE_STATUS_REJECTED,
      progress: 100,
      message: "refused",
      agent: "w",
      leaseUntil: null,
      attempts: 1,
    });
    const prefix = big.id.subarray(0, 8);
    const rows = Array.from({ length: 3_000 }, (_, i) => {
      const id = Buffer.alloc(12);
      Buffer.from(prefix).copy(id, 0);
      id.writeUInt32BE(i + 2, 8);
      return {
        _id: new ObjectId(id),
        ...Object.fromEntries(FORECAST_HEADER.map((h, k) => [h, forecastRow()[k]])),
        _lineNumber: i + 2,
        urlPath,
        timeStamp: new Date(),
        Error: `erro ${i + 2}`,
        sourceFileId: big,
      };
    });
    // Inserted out of line order: the download must still come out in line order.
    await db.collection(FORECAST_NOK).insertMany([...rows].reverse());
    for (const collection of UPLOAD_NOK_COLLECTIONS)
      expect(await db.collection(collection).estimatedDocumentCount()).toBeLessThan(MIN_DOCUMENTS * 10);
    expect(await db.collection(FORECAST_NOK).estimatedDocumentCount()).toBeGreaterThanOrEqual(MIN_DOCUMENTS);
  });

  it("the job list's lookup and the download read through sourceFileId and urlPath_id, streaming in line order", async () => {
    const found = await expectIndexedQueries(db, () => nokCollectionsOfFiles([big, refused, accepted]), {
      minDocuments: MIN_DOCUMENTS,
    });
    expect(Object.fromEntries(found)).toEqual({
      [big.toHexString()]: FORECAST_NOK,
      [refused.toHexString()]: FORECAST_NOK,
    });
    await expectIndexedQueries(
      db,
      () =>
        loadJobList(new Request("http://x/jobs/executados?pageSize=40"), viewer("gold@example.com", "USER GOLD"), {
          ownOnly: false,
        }),
      {
        minDocuments: MIN_DOCUMENTS,
      },
    );

    as("gold@example.com", "USER GOLD");
    const { result, plans } = await recordQueryPlans(
      db,
      async () => {
        const response = await download(big.toHexString());
        const reader = response.body!.getReader();
        const chunks: Uint8Array[] = [];
        for (;;) {
          const next = await reader.read();
          if (next.done) break;
          chunks.push(next.value);
        }
        return chunks;
      },
      { minDocuments: MIN_DOCUMENTS },
    );
    const chunks = result!;
    // Streamed: many chunks, not one buffer.
    expect(chunks.length).toBeGreaterThan(3);
    const lines = new TextDecoder().decode(Buffer.concat(chunks)).split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(3_000);
    expect(lines.map((l) => Number(l.split(";")[0]))).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 2));
    const nokReads = plans.filter((p) => p.ns.endsWith(`.${FORECAST_NOK}`));
    expect(nokReads.length).toBeGreaterThan(0);
    for (const p of plans) expect(p.planSummary, `${p.ns} ${JSON.stringify(p.command)}`).not.toMatch(/COLLSCAN/);
    const rowsRead = nokReads.find((p) => p.op === "query" && JSON.stringify(p.command).includes("urlPath"));
    expect(rowsRead?.planSummary).toMatch(/IXSCAN \{ urlPath: 1, _id: 1 \}/);
    expect(rowsRead?.planSummary).not.toMatch(/SORT/);
  });
});
