import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { workbookPost } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { FORECAST, FORECAST_HISTORY, saveForecastCells } from "~/models/forecast.server";
import { loader as reviewLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import {
  action as excelAction,
  loader as excelLoader,
} from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel";
import { monthLabel, monthStartDate } from "~/shared/months";
import { ACCOUNTS, assignPreparer, insertScenario } from "./fixtures";
import { parseScenario, scenarioCalendar } from "./release-points";
import { forecastTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The forecast review's Excel round trip: an account a row and a month a column; an edited export applies only the
 * edited cells of the months open for editing, refuses locked months, and lists cells saved by someone else since.
 */

const testDb = useTestDatabase();
const COST_CENTER = "CC1001 - Marketing";
const OPEN = "RF2 2027";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;
const calendar = scenarioCalendar(parseScenario(OPEN)!);
const editLabel = monthLabel(calendar.editMonth);
const lockedLabel = monthLabel(calendar.firstMonth);
const excelPath = `${reviewPath(OPEN, COST_CENTER)}/excel`;
const args = (request: Request) => ({
  request,
  params: { rf: OPEN, cost_center_concat: COST_CENTER },
  context: {} as never,
});

beforeAll(() => {
  process.env.PORTAL_TODAY = "2027-02-15";
  resetConfigForTests();
});
afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(async () => {
  db = await testDb.db();
  await db.collection(FORECAST).deleteMany({});
  await db.collection(FORECAST_HISTORY).deleteMany({});
  await insertScenario(db, OPEN, COST_CENTER);
  await assignPreparer(db, "gold@example.com", COST_CENTER);
  currentUser.type = "USER GOLD";
  currentUser.email = "gold@example.com";
  currentUser.name = "Gold User";
});

async function exported(): Promise<ExcelJS.Worksheet> {
  const response = (await excelLoader(args(new Request(`http://localhost${excelPath}`)))) as Response;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  return workbook.worksheets[0];
}

const columnOf = (sheet: ExcelJS.Worksheet, header: string) => {
  let found = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === header) found = col;
  });
  if (found < 0) throw new Error(`no column ${header}`);
  return found;
};
const rowOf = (sheet: ExcelJS.Worksheet, account: string) => {
  const column = columnOf(sheet, forecastTexts.accountColumn);
  for (let n = 2; n <= sheet.rowCount; n++)
    if (sheet.getRow(n).getCell(column).value === account) return sheet.getRow(n);
  throw new Error(`no row ${account}`);
};

async function sendBack(sheet: ExcelJS.Worksheet): Promise<Response> {
  return responseOf(
    excelAction(args(await workbookPost(sheet.workbook, `http://localhost${excelPath}`, "forecast.xlsx"))),
  );
}

async function reportAfter(response: Response) {
  const location = response.headers.get("Location")!;
  const page = (await reviewLoader(args(new Request(`http://localhost${location}`)))) as {
    excel: { report: { summary: string; href: string | null } };
  };
  return page.excel.report;
}

const snapshot = async () => JSON.stringify(await db.collection(FORECAST).find({}).sort({ _id: 1 }).toArray());

describe("Exportar Excel on the forecast review", () => {
  it("writes an account a row with the window's months as real numbers", async () => {
    const sheet = await exported();
    expect(typeof rowOf(sheet, ACCOUNTS[0].account).getCell(columnOf(sheet, editLabel)).value).toBe("number");
  });

  it("keeps the grid's rows: its order, each group's total and the cost centre's, months marked Real or Forecast", async () => {
    // A group whose name sorts last but whose accounts come first by code, as the grid orders groups.
    const REVENUE = {
      account: "3101001 - Receita de Serviços",
      label: "Receita de Serviços",
      group: "Receitas",
      base: 90,
    };
    await insertScenario(db, OPEN, COST_CENTER, [REVENUE]);
    const sheet = await exported();
    const account = columnOf(sheet, forecastTexts.accountColumn);
    const edit = columnOf(sheet, editLabel);
    const rows = Array.from({ length: sheet.actualRowCount - 2 }, (_, i) => sheet.getRow(i + 3));
    expect(rows.map((r) => r.getCell(account).value)).toEqual([
      REVENUE.account,
      forecastTexts.groupTotal("Receitas"),
      ACCOUNTS[0].account,
      ACCOUNTS[1].account,
      forecastTexts.groupTotal(ACCOUNTS[0].group),
      ACCOUNTS[2].account,
      forecastTexts.groupTotal(ACCOUNTS[2].group),
      forecastTexts.grandTotal,
    ]);
    const at = (i: number) => rows[i].getCell(edit).value as number;
    expect(at(1)).toBe(at(0));
    expect(at(4)).toBeCloseTo(at(2) + at(3), 9);
    expect(at(7)).toBeCloseTo(at(0) + at(2) + at(3) + at(5), 9);
    // Under each month's header, as under the grid's: actuals, then forecasts.
    const marks = sheet.getRow(2);
    expect(marks.getCell(columnOf(sheet, lockedLabel)).value).toBe(forecastTexts.actualTag);
    expect(marks.getCell(edit).value).toBe(forecastTexts.forecastTag);
    expect(marks.getCell(account).value).toBeNull();
  });
});

describe("an edited forecast export sent back", () => {
  it("applies two edited cells of the open month, lists the one saved meanwhile as a conflict, and records history via Excel", async () => {
    const sheet = await exported();
    const edit = columnOf(sheet, editLabel);
    for (const [i, a] of ACCOUNTS.entries()) rowOf(sheet, a.account).getCell(edit).value = 9000 + i;
    // Someone else saves the third account's cell in the grid after the export.
    const month = monthStartDate(calendar.editMonth);
    const stored = await db
      .collection(FORECAST)
      .findOne({ rf: OPEN, cost_center_concat: COST_CENTER, account_concat: ACCOUNTS[2].account, data_ref: month });
    await saveForecastCells(
      OPEN,
      COST_CENTER,
      [{ account: ACCOUNTS[2].account, month, old: stored!.forecast, value: 1.5 }],
      { email: "silver@example.com", name: "Silver" },
      new Date(),
    );

    const report = await reportAfter(await sendBack(sheet));
    expect(report.summary).toBe("2 alterados, 1 conflito, 0 recusados");
    const history = await db.collection(FORECAST_HISTORY).find({ via: "excel" }).toArray();
    expect(history.map((h) => h.account_concat).sort()).toEqual([ACCOUNTS[0].account, ACCOUNTS[1].account].sort());
    expect(
      (await db.collection(FORECAST).findOne({ account_concat: ACCOUNTS[2].account, data_ref: month, rf: OPEN }))
        ?.forecast,
    ).toBe(1.5);
  });

  it("refuses an edit in a locked month, changing nothing, and rounds an amount with three decimals to cents", async () => {
    const sheet = await exported();
    rowOf(sheet, ACCOUNTS[0].account).getCell(columnOf(sheet, lockedLabel)).value = 1;
    const before = await snapshot();
    const locked = await reportAfter(await sendBack(sheet));
    expect(locked.summary).toBe("0 alterados, 0 conflitos, 1 recusado");
    expect(decodeURIComponent(locked.href!)).toContain(forecastTexts.columnRefused(lockedLabel));
    expect(await snapshot()).toBe(before);

    // As the grid rounds what is typed and Excel shows the cell (docs/decisions.md "Texts and language").
    const again = await exported();
    rowOf(again, ACCOUNTS[1].account).getCell(columnOf(again, editLabel)).value = 1.234;
    const rounded = await reportAfter(await sendBack(again));
    expect(rounded.summary).toBe("1 alterado, 0 conflitos, 0 recusados");
    const month = monthStartDate(calendar.editMonth);
    expect(
      (await db.collection(FORECAST).findOne({ account_concat: ACCOUNTS[1].account, data_ref: month, rf: OPEN }))
        ?.forecast,
    ).toBe(1.23);
  });
});

describe("the export's variance columns", () => {
  // RF1 2027 is RF2 2027's previous RF: Feb 2027 is its month 15 (base + 15), RF2's month 12 (base + 12).
  const rfAbs = forecastTexts.variance.rfAbs(editLabel);
  const rfPct = forecastTexts.variance.rfPct(editLabel);

  beforeEach(async () => {
    await insertScenario(db, "RF1 2027", COST_CENTER);
  });

  it("adds RF(n) − RF(n−1) per month and the year's totals beside the previous RF's, as read-only numbers", async () => {
    const sheet = await exported();
    const salaries = rowOf(sheet, ACCOUNTS[0].account);
    expect(salaries.getCell(columnOf(sheet, rfAbs)).value).toBe(-3); // 1012 − 1015
    // Δ% as a percentage: −3 / 1015 = −0,3 %, a fraction Excel shows with its percent format.
    expect(salaries.getCell(columnOf(sheet, rfPct)).value).toBeCloseTo(-0.003, 9);
    expect(salaries.getCell(columnOf(sheet, rfPct)).numFmt).toBe("0.0%");
    // 2027 in RF2: Jan (actual, month 11) + Feb–Dec (forecasts, months 12–22) = Σ base + 11…22.
    const rf2 = 12 * 1000 + (11 + 22) * 6;
    // In RF1: months 14…25 of its window.
    const rf1 = 12 * 1000 + (14 + 25) * 6;
    expect(salaries.getCell(columnOf(sheet, forecastTexts.totalColumn(2027))).value).toBe(rf2);
    expect(salaries.getCell(columnOf(sheet, forecastTexts.variance.totalPrevious(2027, "RF1 2027"))).value).toBe(rf1);
    expect(salaries.getCell(columnOf(sheet, forecastTexts.variance.totalAbs(2027))).value).toBe(rf2 - rf1);
    // RF1 2027 ends in December 2027: 2028's total compares none of its two months, and says so.
    const none = forecastTexts.variance.totalPrevious(2028, "RF1 2027", { compared: 0, of: 2 });
    expect(none).toBe("Total 2028 RF1 2027 (nenhum mês em comum)");
    expect(salaries.getCell(columnOf(sheet, none)).value).toBe("—");
    // Feb 2028 is past RF1's window: nothing to compare.
    expect(salaries.getCell(columnOf(sheet, forecastTexts.variance.rfAbs(monthLabel(calendar.lastMonth)))).value).toBe(
      "—",
    );
  });

  it("over fewer of the year's months than it has (RF1 2027 against RF4 2026): both totals over jan–ago/27, labelled", async () => {
    await insertScenario(db, "RF4 2026", COST_CENTER);
    const path = `${reviewPath("RF1 2027", COST_CENTER)}/excel`;
    const response = (await excelLoader({
      request: new Request(`http://localhost${path}`),
      params: { rf: "RF1 2027", cost_center_concat: COST_CENTER },
      context: {} as never,
    })) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const current = columnOf(sheet, "Total 2027 (jan–ago/27, 8 de 12 meses)");
    const previous = columnOf(sheet, "Total 2027 RF4 2026 (jan–ago/27, 8 de 12 meses)");
    const abs = columnOf(sheet, "Δ Total 2027 (jan–ago/27)");
    const pct = columnOf(sheet, "Δ% Total 2027 (jan–ago/27)");
    // Jan–Aug 2027: RF1 2027's window positions 14–21, RF4 2026's 17–24 (base + position).
    const salaries = rowOf(sheet, ACCOUNTS[0].account);
    expect(salaries.getCell(current).value).toBe(8 * 1000 + 140);
    expect(salaries.getCell(previous).value).toBe(8 * 1000 + 164);
    expect(salaries.getCell(abs).value).toBe(-24);
    expect(salaries.getCell(pct).value).toBeCloseTo(-0.003, 9); // −24 / 8.164 = −0,29 % → −0,3 %
    for (const label of [...ACCOUNTS.map((a) => a.account), forecastTexts.grandTotal]) {
      const row = rowOf(sheet, label);
      const [a, b, d] = [current, previous, abs].map((c) => row.getCell(c).value as number);
      expect(d, label).toBeCloseTo(a - b, 9);
    }
  });

  it("ignores the variance columns of a returned file: only the forecast month's edit is applied", async () => {
    const sheet = await exported();
    const salaries = rowOf(sheet, ACCOUNTS[0].account);
    salaries.getCell(columnOf(sheet, rfAbs)).value = 123456;
    salaries.getCell(columnOf(sheet, rfPct)).value = "abc";
    rowOf(sheet, ACCOUNTS[1].account).getCell(columnOf(sheet, forecastTexts.variance.totalAbs(2027))).value = 1;
    salaries.getCell(columnOf(sheet, editLabel)).value = 5000;
    // A total row is the grid's sum, not a record: an edit there is not applied.
    rowOf(sheet, forecastTexts.grandTotal).getCell(columnOf(sheet, editLabel)).value = 1;
    const report = await reportAfter(await sendBack(sheet));
    expect(report.summary).toBe("1 alterado, 0 conflitos, 0 recusados");
    const month = monthStartDate(calendar.editMonth);
    expect(
      (await db.collection(FORECAST).findOne({ account_concat: ACCOUNTS[0].account, data_ref: month, rf: OPEN }))
        ?.forecast,
    ).toBe(5000);
    expect(await db.collection(FORECAST_HISTORY).countDocuments({})).toBe(1);
  });
});
