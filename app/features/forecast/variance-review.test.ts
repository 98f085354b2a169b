import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { FORECAST, type ForecastRecord } from "~/models/forecast.server";
import { loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { assignPreparer } from "./fixtures";
import type { ForecastGridPayload } from "./forecast-grid-rules";
import type { VariancePayload } from "./variance";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The variance columns as the review's loader sends them (`?cols=`), from records seeded by hand, with the clock on
 * 15 May 2026: RF2 2026 (forecasts from Feb 2026) compares with RF1 2026 (forecasts from Nov 2025); RF1 2026 has no
 * RF4 2025 to compare with. January 2026 has actuals and is closed; March 2026 has none.
 *
 *                  RF2 2026          RF1 2026          actual
 *                  Jan     Mar       Jan     Mar       Jan
 *   Salários       100     300       120     250       100
 *   Encargos        40       0         0      20        40
 */

const testDb = useTestDatabase();
const CC = "CC2001 - Controladoria";
const GROUP = "Despesas com Pessoal";
const SALARIES = "4101001 - Salários e Ordenados";
const CHARGES = "4101002 - Encargos Sociais";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

const record = (rf: string, account: string, month: number, value: number, forecast: number): ForecastRecord => ({
  rf,
  cost_center_concat: CC,
  cost_center: "CC2001",
  level_descr: "Administrativo",
  group_level_2: GROUP,
  data_ref: new Date(Date.UTC(2026, month - 1, 1)),
  account_concat: account,
  acc_description: account.split(" - ")[1],
  value,
  forecast,
});

beforeAll(async () => {
  process.env.PORTAL_TODAY = "2026-05-15";
  resetConfigForTests();
  db = await testDb.db();
  await db
    .collection<ForecastRecord>(FORECAST)
    .insertMany([
      record("RF2 2026", SALARIES, 1, 100, 0),
      record("RF2 2026", SALARIES, 3, 0, 300),
      record("RF2 2026", CHARGES, 1, 40, 0),
      record("RF2 2026", CHARGES, 3, 0, 0),
      record("RF1 2026", SALARIES, 1, 0, 120),
      record("RF1 2026", SALARIES, 3, 0, 250),
      record("RF1 2026", CHARGES, 1, 0, 0),
      record("RF1 2026", CHARGES, 3, 0, 20),
      record("actual", SALARIES, 1, 100, 0),
      record("actual", CHARGES, 1, 40, 0),
    ]);
  await assignPreparer(db, "gold@example.com", CC);
});

afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(() => {
  currentUser.type = "USER GOLD";
  currentUser.email = "gold@example.com";
  currentUser.name = "Gold User";
});

async function grid(rf: string, query: string): Promise<ForecastGridPayload> {
  const result = await loader({
    request: new Request(`http://localhost${reviewPath(rf, CC)}${query}`),
    params: { rf, cost_center_concat: CC },
    context: {} as never,
  });
  const { status, body } = dataAnswer<{ grid: ForecastGridPayload }>(result);
  expect(status).toBe(200);
  return body.grid;
}

const dash = { abs: null, pct: null };

describe("the review's variance columns (loader)", () => {
  it("sends none by default: the grid's payload is as before", async () => {
    expect((await grid("RF2 2026", "")).variance).toBeUndefined();
  });

  it("compares RF2 with RF1 per month, for the accounts and for the group's and cost centre's totals", async () => {
    const payload = await grid("RF2 2026", "?cols=rf,actual,total");
    const variance = payload.variance as VariancePayload;
    const jan = payload.months.indexOf("2026-01");
    const mar = payload.months.indexOf("2026-03");
    expect(variance.columns).toEqual(["total", "rf", "actual"]);
    expect(variance.previousRf).toBe("RF1 2026");
    expect(variance.previousFound).toBe(true);
    const [salaries, charges] = variance.lines;
    expect(salaries.rf[jan]).toEqual({ abs: -20, pct: -16.7 }); // 100 − 120
    expect(charges.rf[jan]).toEqual({ abs: 40, pct: null }); // 40 − 0: zero base, "—"
    expect(salaries.rf[mar]).toEqual({ abs: 50, pct: 20 }); // 300 − 250
    expect(charges.rf[mar]).toEqual({ abs: -20, pct: -100 }); // 0 − 20
    expect(salaries.rf[jan + 1]).toEqual(dash); // no record in either RF
    expect(variance.groups[0].rf[jan]).toEqual({ abs: 20, pct: 16.7 }); // 140 − 120
    expect(variance.grand.rf[mar]).toEqual({ abs: 30, pct: 11.1 }); // 300 − 270
  });

  it("compares the forecast made for a closed month with its actual, and only closed months", async () => {
    const payload = await grid("RF2 2026", "?cols=actual");
    const variance = payload.variance as VariancePayload;
    const jan = payload.months.indexOf("2026-01");
    // January is an actual in RF2: RF1 forecast it (120 and 0).
    expect(variance.closedMonths).toEqual([jan]);
    expect(variance.lines[0].actual[jan]).toEqual({ abs: 20, pct: 20 }); // 120 − 100
    expect(variance.lines[1].actual[jan]).toEqual({ abs: -40, pct: -100 }); // 0 − 40
    expect(variance.grand.actual[jan]).toEqual({ abs: -20, pct: -14.3 }); // 120 − 140
    expect(variance.lines[0].actual[payload.months.indexOf("2026-03")]).toBeNull();
    // Only the groups asked for travel.
    expect(variance.lines[0].rf).toEqual([]);
    expect(variance.lines[0].total).toEqual([]);
  });

  it("sets the year's total (actuals + forecasts) beside RF1's", async () => {
    const payload = await grid("RF2 2026", "?cols=total");
    const variance = payload.variance as VariancePayload;
    const y2026 = payload.totals.findIndex((t) => t.year === 2026);
    const y2025 = payload.totals.findIndex((t) => t.year === 2025);
    expect(variance.lines[0].total[y2026]).toEqual({ current: 400, previous: 370, abs: 30, pct: 8.1 });
    expect(variance.lines[1].total[y2026]).toEqual({ current: 40, previous: 20, abs: 20, pct: 100 });
    expect(variance.groups[0].total[y2026]).toEqual({ current: 440, previous: 390, abs: 50, pct: 12.8 });
    expect(variance.grand.total[y2025]).toEqual({ current: 0, previous: null, ...dash });
  });

  it("compares a year's total over the months both windows hold: none of 2027's, as RF1 2026 ends in December", async () => {
    const payload = await grid("RF2 2026", "?cols=total");
    const variance = payload.variance as VariancePayload;
    expect(payload.totals.map((t) => t.year)).toEqual([2025, 2026, 2027]);
    expect(variance.totalMonths.map(({ compared, of }) => ({ compared, of }))).toEqual([
      { compared: 11, of: 11 },
      { compared: 12, of: 12 },
      { compared: 0, of: 2 },
    ]);
    expect(variance.totalMonths[2].indexes).toEqual([]);
    expect(variance.grand.total[2]).toEqual({ current: 0, previous: null, ...dash });
  });

  it("compares RF1 2026 with RF4 2025 over Jan–Aug 2026 only: both totals over those months, the Δ theirs", async () => {
    const previous = [
      record("RF4 2025", SALARIES, 1, 0, 100),
      record("RF4 2025", SALARIES, 3, 0, 300),
      record("RF4 2025", CHARGES, 3, 0, 10),
    ];
    await db.collection<ForecastRecord>(FORECAST).insertMany(previous);
    try {
      const payload = await grid("RF1 2026", "?cols=total");
      const variance = payload.variance as VariancePayload;
      const y2026 = payload.totals.findIndex((t) => t.year === 2026);
      const months = variance.totalMonths[y2026];
      expect(months.indexes.map((i) => payload.months[i])).toEqual(
        ["01", "02", "03", "04", "05", "06", "07", "08"].map((m) => `2026-${m}`),
      );
      expect(months).toMatchObject({ compared: 8, of: 12 });
      // RF1 2026: Salários 120 + 250, Encargos 0 + 20; RF4 2025: 100 + 300 and 10.
      expect(variance.lines[0].total[y2026]).toEqual({ current: 370, previous: 400, abs: -30, pct: -7.5 });
      expect(variance.grand.total[y2026]).toEqual({ current: 390, previous: 410, abs: -20, pct: -4.9 });
    } finally {
      await db.collection(FORECAST).deleteMany({ rf: "RF4 2025" });
    }
  });

  it("shows — for RF1 2026, which has no RF4 2025, and still compares its own forecast of January with the actual", async () => {
    const payload = await grid("RF1 2026", "?cols=rf&cols=actual&cols=total");
    const variance = payload.variance as VariancePayload;
    const jan = payload.months.indexOf("2026-01");
    expect(variance.previousRf).toBe("RF4 2025");
    expect(variance.previousFound).toBe(false);
    expect(variance.grand.rf.every((d) => d.abs === null && d.pct === null)).toBe(true);
    expect(variance.grand.total.every((t) => t.previous === null && t.abs === null)).toBe(true);
    expect(variance.lines[0].actual[jan]).toEqual({ abs: 20, pct: 20 }); // RF1's 120 − 100
    expect(variance.lines[1].actual[jan]).toEqual({ abs: -40, pct: -100 }); // RF1's 0 − 40
  });
});
