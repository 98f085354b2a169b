import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { routeArgs } from "#test/requests";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { FORECAST } from "~/models/forecast.server";
import { TRANSITIONS } from "~/models/forecast-cycle.fields";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS, transition } from "~/models/forecast-cycle.server";
import { loader } from "~/routes/ij.forecast_meus_centros";
import { loader as filterLoader } from "~/routes/ij.report_create_schneider";
import { assignPreparer, insertScenario } from "../fixtures";
import { reviewPath } from "../forecast-filter";
import { boardTexts } from "./board-texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * "Meus centros de custo" (/ij/forecast_meus_centros, and the same list on the review's filter): a preparer's cost
 * centres in the RF open today, with the reason a reviewer gave for each one returned to them.
 */

const testDb = useTestDatabase();
const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";
const RF = "RF2 2027";
const PREPARER = { email: "prep@example.com", name: "Paula Preparadora" };
const REVIEWER = { email: "admin@example.com", name: "Renata Revisora" };
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

beforeAll(async () => {
  process.env.PORTAL_TODAY = "2027-02-15";
  resetConfigForTests();
  await applyIndexes(await testDb.db());
});
afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(async () => {
  db = await testDb.db();
  for (const name of [FORECAST, FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS])
    await db.collection(name).deleteMany({});
  await insertScenario(db, RF, MARKETING);
  await insertScenario(db, RF, RETAIL);
  await assignPreparer(db, PREPARER.email, MARKETING, RETAIL);
  Object.assign(currentUser, { ...PREPARER, type: "USER GOLD" });
});

let clock = Date.parse("2027-02-10T12:00:00Z");
async function move(action: keyof typeof TRANSITIONS, cc: string, comment = "") {
  const actor = action === "submit" ? PREPARER : REVIEWER;
  const { from, to } = TRANSITIONS[action];
  clock += 60_000;
  expect((await transition(RF, cc, action, from, to, actor, comment, new Date(clock))).ok).toBe(true);
}

const page = async () =>
  dataAnswer<BodyOf<typeof loader>>(await loader(routeArgs(new Request("http://localhost/ij/forecast_meus_centros"))))
    .body;
const filterPage = async () =>
  dataAnswer<BodyOf<typeof filterLoader>>(
    await filterLoader(routeArgs(new Request("http://localhost/ij/report_create_schneider"))),
  ).body;

describe("Meus centros de custo", () => {
  it("lists the preparer's cost centres in the open RF, each with its state, days left and review", async () => {
    const { mine, prepares } = await page();
    expect(prepares).toBe(true);
    expect(mine?.rf).toBe(RF);
    expect(mine?.rows.map((r) => [r.cost_center_concat, r.stateLabel, r.href, r.returned])).toEqual([
      [MARKETING, "Em preparação", reviewPath(RF, MARKETING), null],
      [RETAIL, "Em preparação", reviewPath(RF, RETAIL), null],
    ]);
  });

  it("shows a returned cost centre's reason: the last return's comment, who gave it and when; none once resubmitted", async () => {
    await move("submit", MARKETING);
    await move("submit", RETAIL);
    await move("return", MARKETING, "Revise os salários de março");
    await move("submit", MARKETING);
    await move("return", MARKETING, "Ainda falta o aluguel");
    const rows = (await page()).mine!.rows;
    const returned = rows.find((r) => r.cost_center_concat === MARKETING)!;
    expect(returned.stateLabel).toBe("Devolvido");
    expect(returned.returned).toMatchObject({ comment: "Ainda falta o aluguel", by: REVIEWER.name });
    expect(returned.returned?.at).toMatch(/\d/);
    expect(rows.find((r) => r.cost_center_concat === RETAIL)).toMatchObject({ stateLabel: "Enviado", returned: null });
    // The review's filter shows the same list.
    expect((await filterPage()).mine?.rows).toEqual(rows);

    await move("submit", MARKETING);
    expect((await page()).mine!.rows.map((r) => r.returned)).toEqual([null, null]);
  });

  it("reads the returns through the timeline's index", async () => {
    await move("submit", MARKETING);
    await move("return", MARKETING, "Revise os salários de março");
    const { mine } = await expectIndexedQueries(db, page, { minDocuments: 1 });
    expect(mine?.rows[0].returned?.comment).toBe("Revise os salários de março");
  });

  it("says so to someone who prepares nothing; is refused to a type that may not prepare", async () => {
    Object.assign(currentUser, { email: "gold2@example.com", name: "Outro Gold", type: "USER GOLD" });
    expect(await page()).toMatchObject({ prepares: false, mine: null, emptyText: boardTexts.mineNone });
    Object.assign(currentUser, { type: "USER SILVER" });
    const refused = await responseOf(loader(routeArgs(new Request("http://localhost/ij/forecast_meus_centros"))));
    expect(refused.status).toBe(403);
  });
});
