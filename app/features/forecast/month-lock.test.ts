import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { FORECAST_HEADER, forecastRow, grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { uploadAndProcess, workbookPost } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { FORECAST, FORECAST_HISTORY, saveForecastCells } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { FILE_STATUS_REJECTED } from "~/platform/import/datasets/ingest.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import {
  action as excelAction,
  loader as excelLoader,
} from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel";
import { monthKey, monthLabel, monthStartDate } from "~/shared/months";
import { cycleLockTexts } from "./cycle/server-texts";
import { cycleTexts } from "./cycle/texts";
import { ACCOUNTS, dumpForecast, insertScenario } from "./fixtures";
import { reviewPath } from "./forecast-filter";
import { changedCells, initialValues } from "./forecast-grid-rules";
import { planPaste, readPastedBlock } from "./grid-paste";
import { applyPercent } from "./mass-change";
import { parseScenario, scenarioCalendar } from "./release-points";
import { forecastTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The month lock and the cycle's freeze are one rule of the forecast model, asked by every write path, tried as the
 * least-privileged writer (a USER GOLD preparer): after RF2 2027's edit month (February 2027) a cost centre never
 * submitted ("Não enviado") is read-only on the grid, in the round trip (inline and queued), through an edited export
 * or the "forecast" template sent to /captura/manual, and in the model itself; before the edit month the same. Actuals
 * (rf "actual") are the ledger's and load whatever an RF's state.
 */

const testDb = useTestDatabase();
useTempDataDir();
const MARKETING = "CC1001 - Marketing";
const RF = "RF2 2027";
const calendar = scenarioCalendar(parseScenario(RF)!);
const EDIT = monthKey(calendar.editMonth);
/** A forecast month after the edit month: account 0 holds 1014 there (fixtures.ts). */
const APRIL = monthKey(calendar.editMonth + 2);
const IN_EDIT_MONTH = "2027-02-15";
const AFTER_EDIT_MONTH = "2027-03-02";
const BEFORE_EDIT_MONTH = "2027-01-20";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };

function setToday(day: string) {
  process.env.PORTAL_TODAY = day;
  resetConfigForTests();
}

afterAll(() => {
  vi.unstubAllEnvs();
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(async () => {
  setToday(IN_EDIT_MONTH);
  db = await testDb.db();
  for (const name of [FORECAST, FORECAST_HISTORY, FORECAST_CYCLE, FORECAST_PREPARERS, "files", "forecast_nok"])
    await db.collection(name).deleteMany({});
  await insertScenario(db, RF, MARKETING);
  await grantPermission(db, PREPARER.email, PREPARER.type);
  await db
    .collection(FORECAST_PREPARERS)
    .insertOne({ cost_center_concat: MARKETING, user: PREPARER.email, assigned_at: new Date(), assigned_by: "test" });
  Object.assign(currentUser, PREPARER);
});

const url = (path: string) => `http://localhost${path}`;
const args = (request: Request) => ({
  request,
  params: { rf: RF, cost_center_concat: MARKETING },
  context: {} as never,
});
const closedMessage = forecastTexts.lockedRefused(RF, monthLabel(calendar.editMonth));

const cell = async (account: string, key: string, rf = RF) =>
  (await db.collection(FORECAST).findOne({
    rf,
    cost_center_concat: MARKETING,
    account_concat: account,
    data_ref: new Date(`${key}-01T00:00:00Z`),
  }))!;

async function page() {
  const answer = await loader(args(new Request(url(reviewPath(RF, MARKETING)))));
  return dataAnswer<Extract<BodyOf<typeof loader>, { found: true }>>(answer).body;
}

async function save(changes: unknown[]) {
  const request = new Request(url(reviewPath(RF, MARKETING)), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost" },
    body: JSON.stringify({ intent: "save", changes }),
  });
  return dataAnswer(await action(args(request)));
}

/** The review's export as the grid offers it today (the edit month's cells editable in February). */
async function exported(): Promise<ExcelJS.Workbook> {
  const response = (await excelLoader(args(new Request(url(`${reviewPath(RF, MARKETING)}/excel`))))) as Response;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  return workbook;
}

/** The workbook with the first account's edit-month cell set to `value`. */
function edit(workbook: ExcelJS.Workbook, value: number): ExcelJS.Workbook {
  const sheet = workbook.worksheets[0];
  let column = -1;
  sheet.getRow(1).eachCell((c, col) => {
    if (c.value === monthLabel(calendar.editMonth)) column = col;
  });
  // Row 2 marks the months Real or Forecast; the first account is row 3.
  sheet.getRow(3).getCell(column).value = value;
  return workbook;
}

async function sendBack(workbook: ExcelJS.Workbook) {
  const path = `${reviewPath(RF, MARKETING)}/excel`;
  return responseOf(excelAction(args(await workbookPost(workbook, url(path), "forecast.xlsx"))));
}

async function reportAt(location: string) {
  const answer = await responseOf(loader(args(new Request(url(location)))));
  if (answer.status === 302) return reportAt(answer.headers.get("Location")!);
  return dataAnswer<{ excel: { report: { summary: string; href: string } } }>(answer).body.excel.report;
}

const templateCsv = (rows: Record<string, string>[]) =>
  [FORECAST_HEADER.join(";"), ...rows.map((r) => forecastRow({ cost_center_concat: MARKETING, ...r }).join(";"))].join(
    "\n",
  );

const lockedUpload = (reason: string) => cycleLockTexts.lockedUpload([{ costCenter: MARKETING, rf: RF, reason }]);

describe("after the edit month, a cost centre never submitted (Não enviado) takes no change on any path", () => {
  it("the grid save: a typed cell, a paste, a mass change and an undo are refused, nothing written", async () => {
    const grid = (await page()).grid;
    setToday(AFTER_EDIT_MONTH);
    expect((await page()).cycle.shown.label).toBe(cycleTexts.notSubmitted);
    const original = initialValues(grid.groups);
    const at = grid.months.indexOf(EDIT);
    const typed = original.map((row) => [...row]);
    typed[0][at] = 99999;
    const block = readPastedBlock("1.000,00\t2.000,00");
    if (!block.ok) throw new Error("paste");
    const pasted = original.map((row) => [...row]);
    const plan = planPaste(block.values, { row: 0, column: at }, { rows: 1, columns: grid.months.length }, () => true);
    for (const target of plan.targets) pasted[target.row][target.column] = target.value;
    const massed = original.map((row) => row.map((v, i) => (i === at && v ? applyPercent(v, 10, "increase") : v)));
    const undone = [{ account: ACCOUNTS[0].account, month: EDIT, old: 1, value: original[0][at] }];
    const before = await dumpForecast(db);
    const changed = (values: (number | null)[][]) => changedCells(grid.groups, grid.months, original, values);
    for (const changes of [changed(typed), changed(pasted), changed(massed), undone]) {
      expect(changes.length).toBeGreaterThan(0);
      expect(await save(changes)).toEqual({ status: 409, body: { ok: false, message: closedMessage } });
    }
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("the model itself refuses the write, whoever calls it", async () => {
    setToday(AFTER_EDIT_MONTH);
    const month = new Date(`${APRIL}-01T00:00:00Z`);
    const before = await dumpForecast(db);
    const result = await saveForecastCells(
      RF,
      MARKETING,
      [{ account: ACCOUNTS[0].account, month, old: 1014, value: 99999 }],
      PREPARER,
      new Date(),
    );
    expect(result).toEqual({ kind: "closed", editMonth: calendar.editMonth });
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("the Excel round trip sent back to the screen: exported in the edit month, returned after it", async () => {
    const workbook = edit(await exported(), 99999);
    setToday(AFTER_EDIT_MONTH);
    const before = await dumpForecast(db);
    const sent = await sendBack(workbook);
    const report = await reportAt(sent.headers.get("Location")!);
    expect(report.summary).toBe("0 alterados, 0 conflitos, 1 recusado");
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("the Excel round trip queued as a job (a file past the inline size)", async () => {
    const workbook = edit(await exported(), 99999);
    setToday(AFTER_EDIT_MONTH);
    vi.stubEnv("EXCEL_IMPORT_INLINE_MAX_BYTES", "1000");
    resetConfigForTests();
    try {
      const before = await dumpForecast(db);
      const sent = await sendBack(workbook);
      const following = sent.headers.get("Location")!;
      expect(new URL(following, "http://x").searchParams.get("excelJob")).toMatch(/^[0-9a-f]{24}$/);
      await processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 });
      expect((await reportAt(following)).summary).toBe("0 alterados, 0 conflitos, 1 recusado");
      expect(await dumpForecast(db)).toEqual(before);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });

  it("the edited export sent through /captura/manual", async () => {
    const workbook = edit(await exported(), 99999);
    setToday(AFTER_EDIT_MONTH);
    const before = await dumpForecast(db);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const { file } = await uploadAndProcess("forecast-editado.xlsx", bytes, { user: PREPARER.email });
    expect(file?.message).toContain("0 alterados, 0 conflitos, 1 recusado");
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("the forecast template through /captura/manual: the file is refused whole, naming the cost centre", async () => {
    setToday(AFTER_EDIT_MONTH);
    const before = await dumpForecast(db);
    expect((await cell(ACCOUNTS[0].account, APRIL)).forecast).toBe(1014);
    const csv = templateCsv([{ rf: RF, data_ref: APRIL, forecast: "99.999,00" }]);
    const { outcome, file } = await uploadAndProcess("forecast.csv", csv, { user: PREPARER.email });
    expect(outcome).toMatchObject({ kind: "done", status: FILE_STATUS_REJECTED });
    expect(file?.message).toBe(lockedUpload(cycleLockTexts.lockReason.closed(monthLabel(calendar.editMonth))));
    expect((await cell(ACCOUNTS[0].account, APRIL)).forecast).toBe(1014);
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("before the edit month the RF is not open either", () => {
  it("the forecast template is refused whole", async () => {
    setToday(BEFORE_EDIT_MONTH);
    const before = await dumpForecast(db);
    const csv = templateCsv([{ rf: RF, data_ref: APRIL, forecast: "99.999,00" }]);
    const { outcome, file } = await uploadAndProcess("forecast.csv", csv, { user: PREPARER.email });
    expect(outcome).toMatchObject({ kind: "done", status: FILE_STATUS_REJECTED });
    expect(file?.message).toBe(lockedUpload(cycleLockTexts.lockReason.upcoming(monthLabel(calendar.editMonth))));
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("in the edit month, a cost centre in preparation", () => {
  it("takes the forecast template as before", async () => {
    const csv = templateCsv([{ rf: RF, data_ref: APRIL, forecast: "99.999,00" }]);
    const { outcome } = await uploadAndProcess("forecast.csv", csv, { user: PREPARER.email });
    expect(outcome).toMatchObject({ kind: "done", status: 0 });
    expect((await cell(ACCOUNTS[0].account, APRIL)).forecast).toBe(99999);
  });
});

describe("actuals (rf actual) are the ledger's: they load whatever an RF's state or month", () => {
  beforeEach(async () => {
    await db.collection(FORECAST_CYCLE).insertOne({
      rf: RF,
      cost_center_concat: MARKETING,
      state: "approved",
      changed_at: new Date(),
      changed_by: "admin@example.com",
      changed_by_name: "Admin",
    });
  });

  it("an approved cost centre's RF rows are refused; its actuals load, also after the edit month", async () => {
    const rfRow = { rf: RF, data_ref: APRIL, forecast: "99.999,00" };
    const refused = await uploadAndProcess("rf.csv", templateCsv([rfRow]), { user: PREPARER.email });
    expect(refused.file?.message).toBe(lockedUpload("Aprovado"));
    expect((await cell(ACCOUNTS[0].account, APRIL)).forecast).toBe(1014);

    setToday(AFTER_EDIT_MONTH);
    const actual = { rf: "actual", data_ref: "2027-02", value: "1.234,00", forecast: "0" };
    const loaded = await uploadAndProcess("actuals.csv", templateCsv([actual]), { user: PREPARER.email });
    expect(loaded.outcome).toMatchObject({ kind: "done", status: 0 });
    expect((await cell(ACCOUNTS[0].account, "2027-02", "actual")).value).toBe(1234);

    // A file mixing both is refused whole: nothing of it is applied.
    const mixed = templateCsv([{ ...actual, value: "5,00" }, rfRow]);
    const both = await uploadAndProcess("mixed.csv", mixed, { user: PREPARER.email });
    expect(both.outcome).toMatchObject({ kind: "done", status: FILE_STATUS_REJECTED });
    expect((await cell(ACCOUNTS[0].account, "2027-02", "actual")).value).toBe(1234);
  });
});

describe("the model's answer in the edit month", () => {
  it("saves an open, unsubmitted cost centre's cell", async () => {
    const month = monthStartDate(calendar.editMonth);
    const stored = await cell(ACCOUNTS[0].account, EDIT);
    const result = await saveForecastCells(
      RF,
      MARKETING,
      [{ account: ACCOUNTS[0].account, month, old: stored.forecast, value: 5 }],
      PREPARER,
      new Date(),
    );
    expect(result).toMatchObject({ kind: "saved", count: 1 });
  });
});
