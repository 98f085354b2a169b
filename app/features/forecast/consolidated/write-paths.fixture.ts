import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { beforeEach, expect, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { FORECAST_HEADER, forecastRow, grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { uploadAndProcess, workbookPost } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import type { PermissionType } from "~/models/users.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { loader as consolidatedLoader } from "~/routes/ij.forecast_consolidado";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import {
  action as excelAction,
  loader as excelLoader,
} from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel";
import { type Month, monthKey, monthLabel, monthOf, monthStartDate } from "~/shared/months";
import { ACCOUNTS, insertScenario } from "../fixtures";
import { reviewPath } from "../forecast-filter";
import { changedCells, initialValues } from "../forecast-grid-rules";
import { planPaste } from "../grid-paste";
import { applyPercent } from "../mass-change";
import { parseScenario, scenarioCalendar } from "../release-points";
import { forecastTexts } from "../texts";
import { CONSOLIDATED_PATH } from "./query";
import type { TreeRow } from "./tree";

/**
 * Known forecast data and every write path of the forecast, each making random edits, for the consolidated view's
 * and the versions' tests: the grid's save (typed cells, a paste, a mass change), the Excel round trip (inline,
 * queued as a job, sent through /captura/manual) and the "forecast" upload template. The CLI's import is tried in
 * server/ (app/ does not import the host). The clock is RF2 2027's edit month; the caller mocks the route guard
 * (#test/auth-mock) and signs in as SYSTEM ADMIN (useSeededForecast does both the clock and the sign-in).
 */

export const RF = "RF2 2027";
export const PREVIOUS_RF = "RF1 2027";
export const EDIT_DAY = "2027-02-15";
export const calendar = scenarioCalendar(parseScenario(RF)!);
export const CENTRES = [
  { cc: "CC1001 - Marketing", level: "Comercial" },
  { cc: "CC1002 - Vendas Varejo", level: "Comercial" },
  { cc: "CC2001 - Logística", level: "Operações" },
] as const;
export const ADMIN = { email: "admin@example.com", name: "Ana Admin", type: "SYSTEM ADMIN" as const };

/** A small deterministic generator (mulberry32), so a failing run can be replayed. */
export function makeRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    amount: () => Math.round(next() * 5_000_000) / 100,
  };
}
export type Random = ReturnType<typeof makeRandom>;

export function setToday(day: string) {
  process.env.PORTAL_TODAY = day;
  resetConfigForTests();
}

export function signIn(user: { email: string; name: string; type: typeof currentUser.type }) {
  Object.assign(currentUser, user);
}

/** The RF and the previous RF of every centre, the centres' areas, and SYSTEM ADMIN's permission. */
export async function seedForecast(db: Db) {
  for (const { cc, level } of CENTRES) {
    await insertScenario(db, RF, cc);
    await insertScenario(db, PREVIOUS_RF, cc);
    await db.collection(FORECAST).updateMany({ cost_center_concat: cc }, { $set: { level_descr: level } });
  }
  await grantPermission(db, ADMIN.email, ADMIN.type);
  // Written past the model: the caches keyed by the collection's state must read afresh (as the e2e reset does).
  await noteDataChanged([FORECAST], db);
}

export type SeededForecastOptions = {
  /** The collections each test starts without. */
  clear: readonly string[];
  /** Run once they are emptied, before the seed: what else a test starts without (e.g. the audit chain's heads). */
  onCleared?: () => void;
  /** Users given a permission record besides SYSTEM ADMIN. */
  users?: readonly { email: string; type: PermissionType }[];
  /** A preparer assigned to a cost centre. */
  preparer?: { user: string; cc: string };
};

/**
 * The setup the consolidated view's and the versions' test files share: the file's own database and data directory,
 * the clock at EDIT_DAY for the file and again before each test (a test may move it), and before each test the
 * `clear` collections emptied, the forecast seeded (seedForecast), the other users and the preparer recorded, and
 * SYSTEM ADMIN signed in. The answer's `db` is the seeded database, set before each test.
 */
export function useSeededForecast(options: SeededForecastOptions) {
  const testDb = useTestDatabase();
  useTempDataDir();
  usePortalToday(EDIT_DAY);
  const seeded = { testDb, db: undefined as unknown as Db };
  beforeEach(async () => {
    setToday(EDIT_DAY);
    const db = await testDb.db();
    seeded.db = db;
    for (const name of options.clear) await db.collection(name).deleteMany({});
    options.onCleared?.();
    await seedForecast(db);
    for (const user of options.users ?? []) await grantPermission(db, user.email, user.type);
    if (options.preparer)
      await db.collection(FORECAST_PREPARERS).insertOne({
        cost_center_concat: options.preparer.cc,
        user: options.preparer.user,
        assigned_at: new Date(),
        assigned_by: "test",
      });
    signIn(ADMIN);
  });
  return seeded;
}

export const url = (path: string) => `http://localhost${path}`;

/** A form post (urlencoded) to `path` from the portal's own origin. */
export const post = (path: string, form: Record<string, string>) =>
  new Request(url(path), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" },
    body: new URLSearchParams(form).toString(),
  });

const args = (request: Request, cc: string) => ({
  request,
  params: { rf: RF, cost_center_concat: cc },
  context: {} as never,
});

/** The consolidated view of the RF (every level open unless `query` says otherwise) as the current user sees it. */
export async function consolidatedPage(query = "nivel=3") {
  const request = new Request(url(`${CONSOLIDATED_PATH}?rf=${encodeURIComponent(RF)}&${query}`));
  const answer = await consolidatedLoader({ request, params: {}, context: {} as never });
  return dataAnswer<BodyOf<typeof consolidatedLoader>>(answer).body;
}

/** The consolidated view's rows (every level open) as the current user sees them. */
export async function consolidatedRows(query = "nivel=3"): Promise<TreeRow[]> {
  return (await consolidatedPage(query)).rows as TreeRow[];
}

// ---------------------------------------------------------------------------------------------
// The sums of a fresh aggregate of the records, at every level

const yearMonths: Month[] = Array.from({ length: 12 }, (_, i) => monthOf(calendar.year, i + 1));

/**
 * Per level, the year's months summed straight from the forecast records by the database (the review's rule:
 * `value` before the RF's first forecast month, `forecast` from it), keyed as the tree keys its rows.
 */
export async function freshSums(db: Db, rf = RF): Promise<Map<string, number[]>> {
  const from = monthStartDate(yearMonths[0]);
  const to = monthStartDate(yearMonths[11] + 1);
  const firstForecast = monthStartDate(calendar.firstForecastMonth);
  const levels: Record<string, Record<string, string>> = {
    company: {},
    area: { level: "$level_descr" },
    costCentre: { cc: "$cost_center_concat" },
    group: { cc: "$cost_center_concat", group: "$group_level_2" },
    account: { cc: "$cost_center_concat", account: "$account_concat" },
  };
  const sums = new Map<string, number[]>();
  for (const [kind, by] of Object.entries(levels)) {
    const rows = await db
      .collection(FORECAST)
      .aggregate<{ _id: Record<string, unknown> & { month: Date }; sum: number }>([
        { $match: { rf, data_ref: { $gte: from, $lt: to } } },
        {
          $group: {
            _id: { ...by, month: "$data_ref" },
            sum: { $sum: { $cond: [{ $lt: ["$data_ref", firstForecast] }, "$value", "$forecast"] } },
          },
        },
      ])
      .toArray();
    for (const row of rows) {
      const id = row._id as Record<string, string> & { month: Date };
      const key =
        kind === "company"
          ? "total"
          : kind === "area"
            ? `a|${id.level}`
            : kind === "costCentre"
              ? `c|${id.cc}`
              : kind === "group"
                ? `g|${id.cc}|${id.group}`
                : `l|${id.cc}|${id.account}`;
      const list = sums.get(key) ?? new Array<number>(12).fill(0);
      list[yearMonths.indexOf(monthOfDateUtc(id.month))] += row.sum;
      sums.set(key, list);
    }
  }
  return sums;
}

const monthOfDateUtc = (d: Date) => monthOf(d.getUTCFullYear(), d.getUTCMonth() + 1);
/** In cents; a month without a figure (null on screen, no record in the aggregate) adds nothing. */
const cents = (n: number | null) => Math.round((n ?? 0) * 100);

/** Every row of the view equals the fresh aggregate, month by month and for the year; the fresh has no row more. */
export async function expectSumsFresh(db: Db, label: string) {
  const rows = await consolidatedRows();
  const fresh = await freshSums(db);
  expect(new Set(rows.map((r) => r.key)), label).toEqual(new Set(fresh.keys()));
  for (const row of rows) {
    const expected = fresh.get(row.key)!;
    expect(row.a.map(cents), `${label}: ${row.key}`).toEqual(expected.map(cents));
    expect(cents(row.aTotal), `${label}: total of ${row.key}`).toBe(cents(expected.reduce((s, v) => s + v, 0)));
  }
}

// ---------------------------------------------------------------------------------------------
// The write paths

async function reviewPage(cc: string) {
  const answer = await loader(args(new Request(url(reviewPath(RF, cc))), cc));
  return dataAnswer<Extract<BodyOf<typeof loader>, { found: true }>>(answer).body;
}

async function save(cc: string, changes: unknown[]) {
  const request = new Request(url(reviewPath(RF, cc)), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost" },
    body: JSON.stringify({ intent: "save", changes }),
  });
  return dataAnswer(await action(args(request, cc)));
}

/** The grid's editable cells: account lines × forecast months. */
function editableCells(grid: Awaited<ReturnType<typeof reviewPage>>["grid"]) {
  const lines = grid.groups.reduce((n, g) => n + g.accounts.length, 0);
  return { lines, from: grid.firstForecastIndex, to: grid.months.length - 1 };
}

export type WritePath = { name: string; run: (random: Random) => Promise<void> };

async function typedCells(random: Random) {
  const cc = random.pick(CENTRES).cc;
  const { grid } = await reviewPage(cc);
  const original = initialValues(grid.groups);
  const values = original.map((row) => [...row]);
  const cells = editableCells(grid);
  for (let n = random.int(1, 6); n > 0; n--)
    values[random.int(0, cells.lines - 1)][random.int(cells.from, cells.to)] = random.amount();
  expect(await save(cc, changedCells(grid.groups, grid.months, original, values))).toMatchObject({ status: 200 });
}

async function pasted(random: Random) {
  const cc = random.pick(CENTRES).cc;
  const { grid } = await reviewPage(cc);
  const original = initialValues(grid.groups);
  const values = original.map((row) => [...row]);
  const cells = editableCells(grid);
  const block = Array.from({ length: random.int(1, 3) }, () => Array.from({ length: random.int(1, 4) }, random.amount));
  const plan = planPaste(
    block,
    { row: random.int(0, cells.lines - 1), column: random.int(cells.from, cells.to) },
    { rows: cells.lines, columns: grid.months.length },
    (_row, column) => column >= cells.from,
  );
  for (const target of plan.targets) values[target.row][target.column] = target.value;
  expect(await save(cc, changedCells(grid.groups, grid.months, original, values))).toMatchObject({ status: 200 });
}

async function massChange(random: Random) {
  const cc = random.pick(CENTRES).cc;
  const { grid } = await reviewPage(cc);
  const original = initialValues(grid.groups);
  const column = random.int(grid.firstForecastIndex, grid.months.length - 1);
  const percent = random.int(1, 40);
  const direction = random.next() < 0.5 ? "increase" : "decrease";
  const values = original.map((row) =>
    row.map((v, i) => (i === column && v ? applyPercent(v, percent, direction) : v)),
  );
  expect(await save(cc, changedCells(grid.groups, grid.months, original, values))).toMatchObject({ status: 200 });
}

/** The review's export of a random centre with random editable cells changed. */
async function editedExport(random: Random): Promise<{ cc: string; workbook: ExcelJS.Workbook }> {
  const cc = random.pick(CENTRES).cc;
  const response = (await excelLoader(args(new Request(url(`${reviewPath(RF, cc)}/excel`)), cc))) as Response;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const editable: number[] = [];
  let accountColumn = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === forecastTexts.accountColumn) accountColumn = col;
    for (let m = calendar.firstForecastMonth; m <= calendar.lastMonth; m++)
      if (cell.value === monthLabel(m)) editable.push(col);
  });
  // The fixture's accounts, which have a record in every month (an account an upload added may have one).
  const known = new Set<string>(ACCOUNTS.map((a) => a.account));
  const rows: number[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1 && known.has(String(row.getCell(accountColumn).value))) rows.push(n);
  });
  for (let n = random.int(1, 4); n > 0; n--)
    sheet.getRow(random.pick(rows)).getCell(random.pick(editable)).value = random.amount();
  return { cc, workbook };
}

async function sendBack(cc: string, workbook: ExcelJS.Workbook) {
  const path = `${reviewPath(RF, cc)}/excel`;
  return responseOf(excelAction(args(await workbookPost(workbook, url(path), "forecast.xlsx"), cc)));
}

async function roundTripInline(random: Random) {
  const { cc, workbook } = await editedExport(random);
  expect((await sendBack(cc, workbook)).status).toBe(302);
}

async function roundTripQueued(random: Random) {
  const { cc, workbook } = await editedExport(random);
  vi.stubEnv("EXCEL_IMPORT_INLINE_MAX_BYTES", "1000");
  resetConfigForTests();
  try {
    const sent = await sendBack(cc, workbook);
    expect(new URL(sent.headers.get("Location")!, "http://x").searchParams.get("excelJob")).toMatch(/^[0-9a-f]{24}$/);
    expect(await processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 })).toMatchObject({
      kind: "done",
    });
  } finally {
    vi.unstubAllEnvs();
    resetConfigForTests();
  }
}

async function editedExportThroughCapture(random: Random) {
  const { workbook } = await editedExport(random);
  const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
  const { outcome } = await uploadAndProcess("forecast-editado.xlsx", bytes, { user: ADMIN.email });
  expect(outcome).toMatchObject({ kind: "done", status: 0 });
}

/** A "forecast" template file: random changes of existing cells and, now and then, a new account. */
export function templateCsv(random: Random): string {
  const rows: string[][] = [];
  // A file names each (cc, account, month) once: the template refuses a repeated key.
  const keys = new Set<string>();
  for (let n = random.int(1, 5); n > 0; n--) {
    const { cc, level } = random.pick(CENTRES);
    const account = random.pick(ACCOUNTS);
    const month = random.int(calendar.firstForecastMonth, calendar.lastMonth);
    if (keys.has(`${cc}|${account.account}|${month}`)) continue;
    keys.add(`${cc}|${account.account}|${month}`);
    rows.push(
      forecastRow({
        rf: RF,
        cost_center_concat: cc,
        cost_center: cc.split(" - ")[0],
        level_descr: level,
        group_level_2: account.group,
        data_ref: monthKey(month),
        account_concat: account.account,
        acc_description: account.label,
        forecast: random.amount().toLocaleString("pt-BR", { minimumFractionDigits: 2 }),
      }),
    );
  }
  if (random.next() < 0.7) {
    const { cc, level } = random.pick(CENTRES);
    rows.push(
      forecastRow({
        rf: RF,
        cost_center_concat: cc,
        cost_center: cc.split(" - ")[0],
        level_descr: level,
        group_level_2: "Tecnologia",
        data_ref: monthKey(random.int(calendar.firstForecastMonth, calendar.lastMonth)),
        account_concat: `44010${random.int(10, 99)} - Conta nova`,
        acc_description: "Conta nova",
        forecast: random.amount().toLocaleString("pt-BR", { minimumFractionDigits: 2 }),
      }),
    );
  }
  return [FORECAST_HEADER.join(";"), ...rows.map((r) => r.join(";"))].join("\n");
}

async function uploadTemplate(random: Random) {
  const { outcome } = await uploadAndProcess("forecast.csv", templateCsv(random), { user: ADMIN.email });
  expect(outcome).toMatchObject({ kind: "done", status: 0 });
}

/** Every write path of the forecast that app/ reaches (the CLI's: server/). */
export const WRITE_PATHS: WritePath[] = [
  { name: "grid save (typed cells)", run: typedCells },
  { name: "grid save (paste)", run: pasted },
  { name: "grid save (mass change)", run: massChange },
  { name: "Excel round trip (inline)", run: roundTripInline },
  { name: "Excel round trip (queued as a job)", run: roundTripQueued },
  { name: "edited export through /captura/manual", run: editedExportThroughCapture },
  { name: "upload template forecast", run: uploadTemplate },
];
