import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { uploadAndProcess, workbookPost } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { ACCOUNTS, assignPreparer, insertScenario } from "~/features/forecast/fixtures";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { figureInputName } from "~/features/hr/edits";
import { BRANCH_A, insertHrRecords, LAST_MONTH, MONTH_BEFORE, RAW_CPFS, setPermission } from "~/features/hr/fixtures";
import { hrGridPath } from "~/features/hr/paths";
import { hrTexts } from "~/features/hr/texts";
import { applyIndexes } from "~/models/all-indexes.server";
import type { AuditEvent } from "~/models/audit.fields";
import { AUDIT_LOG, type AuditEntry } from "~/models/audit.server";
import { HR_AUX, type HrAuxRecord } from "~/models/hr.server";
import { loader as downloadLoader } from "~/routes/download.$token";
import { action as forecastAction } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { action as hrGridAction } from "~/routes/ij.rh_edit.$filial";
import { action as hrExcelAction, loader as hrExcelLoader } from "~/routes/ij.rh_edit.$filial.excel";
import { generateStorageKey, getDownloadUrl, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";
import { monthKey } from "~/shared/months";
import { FORECAST_HEADER, forecastRow, PRODUCT_HEADER, productLine, useTempDataDir } from "./upload-fixtures";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The audit trail's data events as the caller sees them: an export with its filter and row count, a
 * download, an upload job's end (and a refusal for rights), a round trip, a grid save on the forecast and HR screens;
 * each entry stored before the answer that reports the event, with the actor's e-mail and type, and no CPF.
 */

process.env.LOG_LEVEL = "warn";
const testDb = useTestDatabase();
useTempDataDir();
let db: Db;

const MARKETING = "CC1001 - Marketing";
const OPEN = "RF2 2027";
const savedToday = process.env.PORTAL_TODAY;

beforeAll(async () => {
  process.env.PORTAL_TODAY = "2027-02-15";
  resetConfigForTests();
  db = await testDb.db();
  await applyIndexes(db);
  await insertHrRecords(db);
  await insertScenario(db, OPEN, MARKETING);
  // The gold user saves as a preparer of the cost centre (a preparer reads only theirs: the forecast's read rule).
  await assignPreparer(db, "gold@example.com", MARKETING);
  await setPermission(db, "gold@example.com", "USER GOLD");
});

afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(() => {
  currentUser.email = "gold@example.com";
  currentUser.name = "Gold User";
  currentUser.type = "USER GOLD";
});

async function head(): Promise<number> {
  const last = await db.collection<AuditEntry>(AUDIT_LOG).findOne({}, { sort: { n: -1 } });
  return last?.n ?? 0;
}

/** The entries written since `since` (an `n`), oldest first. */
async function entriesAfter(since: number, event?: AuditEvent): Promise<AuditEntry[]> {
  return db
    .collection<AuditEntry>(AUDIT_LOG)
    .find({ n: { $gt: since }, ...(event ? { event } : {}) }, { projection: { _id: 0 } })
    .sort({ n: 1 })
    .toArray();
}

const RANGE = { from: MONTH_BEFORE, to: LAST_MONTH };
const hrExcelPath = () => hrGridPath(BRANCH_A, RANGE).replace("?", "/excel?");
const hrArgs = (request: Request) => ({ request, params: { filial: BRANCH_A }, context: {} as never });

describe("data out", () => {
  it("an HR Excel export: dataExported with the filter and the row count, written before the file is read, no CPF", async () => {
    const since = await head();
    const response = (await hrExcelLoader(hrArgs(new Request(`http://localhost${hrExcelPath()}`)))) as Response;
    // Stored before the response is even read.
    const [entry] = await entriesAfter(since, "dataExported");
    const rows = await db.collection(HR_AUX).countDocuments({ filial_nome: BRANCH_A });
    expect(entry).toMatchObject({
      actor: { email: "gold@example.com", name: "Gold User", type: "USER GOLD" },
      event: "dataExported",
      object: { kind: "dataset", id: "rh" },
      dataset: "rh",
      outcome: "ok",
      details: {
        filter: { filial: BRANCH_A, mes_inicio: monthKey(MONTH_BEFORE), mes_fim: monthKey(LAST_MONTH) },
        rows,
      },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].actualRowCount - 1).toBe(rows);
    // The HR data carries CPFs and names: none of them (raw or masked) is in the log.
    const text = JSON.stringify(await entriesAfter(since));
    for (const cpf of RAW_CPFS) {
      expect(text).not.toContain(cpf);
      expect(text).not.toContain(`${cpf.slice(3, 6)}.${cpf.slice(6, 9)}`);
    }
    expect(text).not.toContain("Renata");
  });

  it("a stored file through /download/{token}: dataExported for the file, before the bytes", async () => {
    // A stored object (no upload job: the worker of the next tests takes none of it).
    const key = generateStorageKey("relatorio.csv");
    await getLocalStore().putStream(key, Readable.from([Buffer.from("a;b\n1;2\n")]), { maxBytes: 1e6 });
    const link = await getDownloadUrl(LOCAL_BUCKET, key, "relatorio.csv");
    const since = await head();
    const response = (await downloadLoader({
      request: new Request(`http://localhost${link}`),
      params: { token: link.slice("/download/".length) },
      context: {} as never,
    })) as Response;
    expect(await entriesAfter(since)).toMatchObject([
      {
        actor: { email: "gold@example.com", type: "USER GOLD" },
        event: "dataExported",
        object: { kind: "file", id: `${LOCAL_BUCKET}/${key}`, label: "relatorio.csv" },
        outcome: "ok",
        details: { via: "download" },
      },
    ]);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("1;2");

    // A link that does not verify downloads nothing and records nothing.
    const before = await head();
    await downloadLoader({
      request: new Request(`http://localhost${link}x`),
      params: { token: `${link.slice("/download/".length)}x` },
      context: {} as never,
    });
    expect(await entriesAfter(before)).toEqual([]);
  });
});

describe("data in", () => {
  it("an upload job's end: dataImported with its OK and NOK rows, for the uploader with their type", async () => {
    await setPermission(db, "silver-up@example.com", "USER SILVER");
    const since = await head();
    const csv = [PRODUCT_HEADER, productLine(1), productLine(2, true), productLine(3)].join("\n");
    const { id, outcome } = await uploadAndProcess("produtos.csv", csv, { user: "silver-up@example.com", grant: null });
    expect(outcome).toMatchObject({ kind: "done", okRows: 2, nokRows: 1 });
    expect(await entriesAfter(since)).toMatchObject([
      {
        actor: { email: "silver-up@example.com", type: "USER SILVER" },
        ip: null,
        event: "dataImported",
        object: { kind: "file", id: String(id), label: "produtos.csv" },
        dataset: "product",
        outcome: "ok",
        details: { via: "upload", ok: 2, nok: 1, status: 0 },
      },
    ]);
  });

  it("an upload its uploader may not load: uploadRefused, outcome refused, nothing imported", async () => {
    await setPermission(db, "bronze-up@example.com", "USER BRONZE");
    const since = await head();
    const csv = [FORECAST_HEADER.join(";"), forecastRow().join(";")].join("\n");
    const { id } = await uploadAndProcess("forecast.csv", csv, { user: "bronze-up@example.com", grant: null });
    expect(await entriesAfter(since)).toMatchObject([
      {
        actor: { email: "bronze-up@example.com", type: "USER BRONZE" },
        event: "uploadRefused",
        object: { kind: "file", id: String(id), label: "forecast.csv" },
        dataset: "forecast",
        outcome: "refused",
        details: { via: "upload", ok: 0, nok: 0, status: 3 },
      },
    ]);
  });

  it("an edited HR export sent back: dataImported with changed, conflicts and refused, and the report's link", async () => {
    const response = (await hrExcelLoader(hrArgs(new Request(`http://localhost${hrExcelPath()}`)))) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const columnOf = (header: string) => {
      let found = -1;
      sheet.getRow(1).eachCell((cell, col) => {
        if (cell.value === header) found = col;
      });
      return found;
    };
    sheet.getRow(2).getCell(columnOf(hrTexts.columns.vendas_adicionais)).value = 4321;
    sheet.getRow(3).getCell(columnOf(hrTexts.columns.vendas_adicionais)).value = -5;
    const since = await head();
    const answer = await responseOf(
      hrExcelAction(hrArgs(await workbookPost(workbook, `http://localhost${hrExcelPath()}`, "rh.xlsx"))),
    );
    expect(answer.status).toBe(302);
    const [entry] = await entriesAfter(since, "dataImported");
    expect(entry).toMatchObject({
      actor: { email: "gold@example.com", type: "USER GOLD" },
      object: { kind: "dataset", id: "rh" },
      dataset: "rh",
      outcome: "ok",
      details: { roundTrip: true, via: "screen", changed: 1, conflicts: 0, refused: 1 },
    });
    expect(entry.details.link).toBe(answer.headers.get("Location"));
    expect(JSON.stringify(entry)).not.toContain("4321");
  });
});

describe("edits", () => {
  it("an HR grid save: dataEdited with the rows written and the grid (where each cell's history opens)", async () => {
    const row = (await db
      .collection<HrAuxRecord>(HR_AUX)
      .findOne({ filial_nome: BRANCH_A }, { sort: { _id: 1 } })) as HrAuxRecord & { _id: unknown };
    const since = await head();
    const fields = {
      intent: "save",
      confirmed: "1",
      [figureInputName("dias_media", String(row._id))]: "17",
      [figureInputName("vendas_servicos", String(row._id))]: "12",
    };
    const answer = await responseOf(
      hrGridAction({
        request: new Request(`http://localhost${hrGridPath(BRANCH_A)}`, {
          method: "POST",
          body: new URLSearchParams(fields),
        }),
        params: { filial: BRANCH_A },
        context: {} as never,
      }),
    );
    expect(answer.status).toBe(302);
    const [entry] = await entriesAfter(since, "dataEdited");
    expect(entry).toMatchObject({
      actor: { email: "gold@example.com", type: "USER GOLD" },
      object: { kind: "screen", id: "/ij/rh_edit/{filial}" },
      dataset: "rh",
      outcome: "ok",
      details: { what: "figures", link: expect.stringContaining(hrGridPath(BRANCH_A)) },
    });
    expect(entry.details.rows).toBeGreaterThanOrEqual(1);
  });

  it("a forecast grid save: dataEdited with the cells saved and the review's path", async () => {
    const since = await head();
    // RF2 2027's window starts Feb 2026: month position i holds base + i (fixtures.ts).
    const old = (base: number, month: string) => {
      const [y, m] = month.split("-").map(Number);
      return base + (y - 2026) * 12 + (m - 2);
    };
    const answer = await forecastAction({
      request: new Request(`http://localhost${reviewPath(OPEN, MARKETING)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: "http://localhost" },
        body: JSON.stringify({
          intent: "save",
          changes: [
            { account: ACCOUNTS[0].account, month: "2027-03", old: old(1000, "2027-03"), value: 1234.5 },
            { account: ACCOUNTS[2].account, month: "2028-02", old: old(250.5, "2028-02"), value: 0 },
          ],
        }),
      }),
      params: { rf: OPEN, cost_center_concat: MARKETING },
      context: {} as never,
    });
    expect((answer as { data?: unknown }).data ?? answer).toEqual({ ok: true, saved: 2 });
    expect(await entriesAfter(since)).toMatchObject([
      {
        actor: { email: "gold@example.com", name: "Gold User", type: "USER GOLD" },
        event: "dataEdited",
        // Named in words: the RF and the cost centre, not the route's pattern.
        object: { kind: "costCentre", id: MARKETING, label: `${OPEN} · ${MARKETING}` },
        dataset: "forecast",
        outcome: "ok",
        details: {
          rows: 2,
          link: reviewPath(OPEN, MARKETING),
          rf: OPEN,
          cost_center_concat: MARKETING,
          // From what the save wrote: each cell, the value it had and the one written.
          cells: [
            { account: ACCOUNTS[0].account, month: "2027-03", old: old(1000, "2027-03"), new: 1234.5 },
            { account: ACCOUNTS[2].account, month: "2028-02", old: old(250.5, "2028-02"), new: 0 },
          ],
        },
      },
    ]);
    expect((await entriesAfter(since))[0].details).not.toHaveProperty("moreCells");
  });
});
