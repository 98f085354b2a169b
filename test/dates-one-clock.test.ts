import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { insertScenario, scenarioRecords } from "~/features/forecast/fixtures";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { resetPlanning } from "~/features/planning/fixtures";
import { FILES } from "~/models/files.server";
import { FORECAST_HISTORY } from "~/models/forecast.server";
import { PLANNING_HISTORY } from "~/models/planning.server";
import { loader as processingLoader } from "~/routes/captura.processando";
import { loader as planEditLoader } from "~/routes/ij.plan_edit";
import { loader as forecastHistoryLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history";
import { loader as executedJobsLoader } from "~/routes/jobs.executados";
import { formatDateTime } from "~/shared/dates";
import { currentUser } from "./auth-mock";
import { useTestDatabase } from "./db";

vi.mock("~/platform/auth/auth.server", () => import("./auth-mock"));

/**
 * One clock and one format: the same instant, stored as a forecast cell's change, a planning row's
 * change and a job's status change, reads the same on the three screens: the portal's date and time
 * (app/shared/dates.ts formatDateTime, the job lists' shape of spec 000 §9) in the portal's zone, Brasília by default.
 * Before: "27 nov 2026 2:04" (forecast), "27/11/2026, 05:04:09" (planning, UTC), "27 nov 26 02:04:09" (jobs).
 */

const testDb = useTestDatabase();
/** 05:04:09 UTC is 02:04:09 in Brasília (UTC−3). */
const INSTANT = new Date("2026-11-27T05:04:09Z");
const SHOWN = "27 nov 26 02:04:09";
const RF = "RF2 2027";
const COST_CENTER = "CC1001 - Marketing";
const savedToday = process.env.PORTAL_TODAY;
const args = (path: string, params: Record<string, string> = {}) => ({
  request: new Request(`http://localhost${path}`),
  params,
  context: {} as never,
});

let planningRowId = "";
let account = "";

beforeAll(async () => {
  process.env.PORTAL_TODAY = "2027-02-15";
  resetConfigForTests();
  currentUser.type = "SYSTEM ADMIN";
  currentUser.email = "admin@example.com";
  const db = await testDb.db();
  // A forecast cell changed at INSTANT.
  await insertScenario(db, RF, COST_CENTER);
  const cell = scenarioRecords(RF, COST_CENTER).find((r) => r.data_ref.getTime() === Date.UTC(2027, 2, 1))!;
  account = cell.account_concat;
  await db.collection(FORECAST_HISTORY).insertOne({
    rf: RF,
    cost_center_concat: COST_CENTER,
    account_concat: account,
    data_ref: cell.data_ref,
    at: INSTANT,
    by: "gold@example.com",
    name: "Gold",
    old: 1,
    new: 2,
  });
  // A planning row changed at INSTANT.
  const rows = await resetPlanning(db);
  const row = rows.find((r) => r.channel === "WHOLESALES")!;
  planningRowId = row._id!.toHexString();
  await db.collection(PLANNING_HISTORY).insertOne({
    rowId: row._id,
    saveId: new ObjectId(),
    at: INSTANT,
    user: "gold@example.com",
    mode: "unitario",
    screen: "plan_edit",
    old: 1,
    new: 2,
  });
  // A job whose status changed at INSTANT.
  await db.collection(FILES).insertOne({
    originalName: "canal.csv",
    originalFile: "2026/11/k.csv",
    bucket: "local",
    user: "admin@example.com",
    statusChangeDate: INSTANT,
    createdAt: INSTANT,
    status: 0,
    progress: 100,
    message: "1 linha OK, 0 NOK",
    agent: "",
    attempts: 1,
    leaseUntil: null,
  });
});

afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

describe("one instant, one text on every screen that shows when something happened", () => {
  it("the portal's date and time is the job lists' shape, in Brasília", () => {
    expect(formatDateTime(INSTANT)).toBe(SHOWN);
  });

  it("forecast: a cell's history (Histórico da célula)", async () => {
    const query = new URLSearchParams({ account, month: "2027-03" });
    const answer = (await forecastHistoryLoader(
      args(`${reviewPath(RF, COST_CENTER)}/history?${query}`, { rf: RF, cost_center_concat: COST_CENTER }),
    )) as unknown;
    const body = (
      answer instanceof Response
        ? await answer.json()
        : "data" in (answer as object)
          ? (answer as { data: unknown }).data
          : answer
    ) as { entries: Array<{ when: string }> };
    expect(body.entries.map((e) => e.when)).toEqual([SHOWN]);
  });

  it("planning: a row's history on /ij/plan_edit", async () => {
    const filter = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=attributes&chanel=WHOLESALES&chanel=FSS";
    const data = (await planEditLoader(args(`/ij/plan_edit?${filter}&history=${planningRowId}`))) as {
      history?: { entries: Array<{ at: string }> };
    };
    expect(data.history?.entries.map((e) => e.at)).toEqual([SHOWN]);
  });

  it("jobs: Processamento (/captura/processando) and Jobs executados (/jobs/executados)", async () => {
    for (const [path, loader] of [
      ["/captura/processando", processingLoader],
      ["/jobs/executados", executedJobsLoader],
    ] as const) {
      const data = (await loader(args(path) as never)) as { rows: Array<{ date: string }> };
      expect(
        data.rows.map((r) => r.date),
        path,
      ).toEqual([SHOWN]);
    }
  });
});
