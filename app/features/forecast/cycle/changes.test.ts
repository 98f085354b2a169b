import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer, isDataResult } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS } from "~/models/forecast-cycle.server";
import { loader as reviewLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { loader } from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.alteracoes";
import { ACCOUNTS, insertScenario } from "../fixtures";
import type { ChangesPage } from "./changes.server";
import { changesTexts } from "./changes-texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * "Alterações a revisar": the cells of a cost centre × RF that changed since the last state a reviewer saw or decided
 * (the last return or approval, else the first submission; never a submission withdrawn), up to the last submission
 * while it is under review; first value → last, by whom; the page says which.
 */

const testDb = useTestDatabase();
const CC = "CC1001 - Marketing";
const RF = "RF2 2027";
const A = "4101001 - Salários";
const B = "4201001 - Aluguel";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

const at = (day: number, hour = 12) => new Date(Date.UTC(2027, 1, day, hour));
const month = (m: number) => new Date(Date.UTC(2027, m - 1, 1));
const change = (account: string, m: number, old: number, value: number, when: Date, who = "paula@example.com") => ({
  rf: RF,
  cost_center_concat: CC,
  account_concat: account,
  data_ref: month(m),
  at: when,
  by: who,
  name: who === "paula@example.com" ? "Paula" : "Rui",
  old,
  new: value,
});
const event = (action: string, from: string, to: string, when: Date, who = "paula@example.com") => ({
  rf: RF,
  cost_center_concat: CC,
  action,
  from,
  to,
  at: when,
  by: who,
  name: who === "paula@example.com" ? "Paula" : "Rui",
  comment: "",
});
const seconds = (date: Date, n: number) => new Date(date.getTime() + n * 1000);

/** The cycle under review again: submitted on the 5th, returned that evening, submitted again on the 10th. */
const submittedReturnedResubmitted = () =>
  db
    .collection(FORECAST_CYCLE_EVENTS)
    .insertMany([
      event("submit", "preparing", "submitted", at(5)),
      event("return", "submitted", "returned", at(5, 18), "rui@example.com"),
      event("submit", "returned", "submitted", at(10)),
    ]);

async function load(query = "") {
  const path = `${reviewPath(RF, CC)}/alteracoes${query}`;
  return dataAnswer<ChangesPage>(
    await loader({
      request: new Request(`http://localhost${path}`),
      params: { rf: RF, cost_center_concat: CC },
      context: {} as never,
    }),
  ).body;
}

beforeAll(async () => {
  process.env.PORTAL_TODAY = "2027-02-20";
  resetConfigForTests();
  db = await testDb.db();
  await insertScenario(db, RF, CC);
});
afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});
beforeEach(async () => {
  for (const name of [FORECAST_HISTORY, FORECAST_CYCLE, FORECAST_CYCLE_EVENTS])
    await db.collection(name).deleteMany({});
  currentUser.type = "SYSTEM ADMIN";
  currentUser.email = "rev@example.com";
});

describe("changes since what a reviewer last saw or decided", () => {
  it("under review after a return: the cells changed since the return, first value → last, by the last author", async () => {
    await db.collection(FORECAST_HISTORY).insertMany([
      change(A, 3, 100, 110, at(2)), // before the first submission: not shown
      change(B, 7, 5, 6, at(5, 15), "rui@example.com"), // before the return, which decided on it: not shown
      change(A, 3, 110, 120, at(6)),
      change(A, 3, 120, 125.5, at(7), "rui@example.com"),
      change(B, 4, 50, 60, at(8)),
      change(B, 5, 70, 80, at(8)),
      change(B, 5, 80, 70, at(9)), // back where it was: not a change
      change(B, 6, 1, 2, at(15)), // after the last submission: not shown
    ]);
    await submittedReturnedResubmitted();
    const page = await load();
    expect(page.window).toEqual({ from: "05 fev 27 15:00:00", to: "10 fev 27 09:00:00" });
    expect(page.since).toBe(`${changesTexts.since.return("05/02/2027", "Rui")}${changesTexts.until("10/02/2027")}`);
    expect(page.since).toBe("Mudanças desde a devolução de 05/02/2027 por Rui, até o último envio, de 10/02/2027.");
    expect(page.rows).toEqual([
      { account: A, month: "03/2027", old: "110,00", new: "125,50", who: "Rui", when: "07 fev 27 09:00:00", count: 2 },
      { account: B, month: "04/2027", old: "50,00", new: "60,00", who: "Paula", when: "08 fev 27 09:00:00", count: 1 },
    ]);
    expect(page.total).toBe(2);
    expect(page.reviewHref).toBe(reviewPath(RF, CC));
  });

  it("being prepared again: what changed since the last submission; never submitted: everything, paged by 50", async () => {
    await db.collection(FORECAST_HISTORY).insertMany([change(A, 3, 1, 2, at(3)), change(A, 4, 1, 2, at(12))]);
    await db
      .collection(FORECAST_CYCLE_EVENTS)
      .insertMany([
        event("submit", "preparing", "submitted", at(5)),
        event("withdraw", "submitted", "preparing", at(6)),
      ]);
    const since = await load();
    expect(since.window).toEqual({ from: "05 fev 27 09:00:00", to: null });
    expect(since.since).toBe(`${changesTexts.since.firstSubmission("05/02/2027", "Paula")}.`);
    expect(since.rows.map((r) => r.month)).toEqual(["04/2027"]);

    await db.collection(FORECAST_CYCLE_EVENTS).deleteMany({});
    await db
      .collection(FORECAST_HISTORY)
      .insertMany(Array.from({ length: 60 }, (_, i) => change(B, 1 + (i % 12), i, i + 1, at(1 + (i % 20)))));
    const all = await load();
    expect(all.window).toEqual({ from: null, to: null });
    expect(all.since).toBe(changesTexts.windowAll);
    expect(all.total).toBe(14);
    expect(all.rows).toHaveLength(14);
    expect((await load("?page=2")).page).toBe(1);
  });

  it("after a withdraw and a resubmission: from the first submission, not the submission withdrawn", async () => {
    const first = at(5);
    const withdrawn = seconds(first, 5);
    const second = seconds(first, 120);
    // 44 cells changed between the withdrawal and the second submission (four accounts' eleven months).
    const edits = [A, B, "4101002 - Encargos", "4301001 - Viagens"].flatMap((account, k) =>
      Array.from({ length: 11 }, (_, m) => change(account, m + 1, 10, 20 + k, seconds(first, 30 + m))),
    );
    await db.collection(FORECAST_HISTORY).insertMany(edits);
    await db
      .collection(FORECAST_CYCLE_EVENTS)
      .insertMany([
        event("submit", "preparing", "submitted", first),
        event("withdraw", "submitted", "preparing", withdrawn),
        event("submit", "preparing", "submitted", second),
      ]);
    expect((await load()).total).toBe(44);
    // Withdrawn once more and sent again 15 s later: still the 44 cells, measured from the first submission.
    await db
      .collection(FORECAST_CYCLE_EVENTS)
      .insertMany([
        event("withdraw", "submitted", "preparing", seconds(second, 5)),
        event("submit", "preparing", "submitted", seconds(second, 15)),
      ]);
    const page = await load();
    expect(page.total).toBe(44);
    expect(page.rows.map((r) => `${r.account} ${r.month}`)).toContain(`${A} 01/2027`);
    expect(page.window.from).toBe("05 fev 27 09:00:00");
    expect(page.since).toBe(
      "Mudanças desde a primeira submissão de 05/02/2027 por Paula, até o último envio, de 05/02/2027.",
    );
  });

  it("after an approval, a reopen and a resubmission: from the approval", async () => {
    await db.collection(FORECAST_HISTORY).insertMany([
      change(A, 3, 1, 2, at(5, 15), "rui@example.com"), // before the approval: not shown
      change(B, 4, 1, 2, at(8)),
    ]);
    await db
      .collection(FORECAST_CYCLE_EVENTS)
      .insertMany([
        event("submit", "preparing", "submitted", at(5)),
        event("approve", "submitted", "approved", at(6), "rui@example.com"),
      ]);
    const approved = await load();
    expect(approved.window).toEqual({ from: "06 fev 27 09:00:00", to: null });
    expect(approved.since).toBe("Mudanças desde a aprovação de 06/02/2027 por Rui.");
    expect(approved.rows.map((r) => r.account)).toEqual([B]);
    await db
      .collection(FORECAST_CYCLE_EVENTS)
      .insertMany([
        event("reopen", "approved", "preparing", at(7), "rui@example.com"),
        event("submit", "preparing", "submitted", at(9)),
      ]);
    const resubmitted = await load();
    expect(resubmitted.window).toEqual({ from: "06 fev 27 09:00:00", to: "09 fev 27 09:00:00" });
    expect(resubmitted.rows.map((r) => `${r.account} ${r.month}`)).toEqual([`${B} 04/2027`]);
    expect(resubmitted.since).toBe(
      `${changesTexts.since.approval("06/02/2027", "Rui")}${changesTexts.until("09/02/2027")}`,
    );
  });

  it("marks the same cells on the review's grid, once the cost centre has been submitted", async () => {
    const grid = async () => {
      const answer = dataAnswer<{
        grid: { months: string[]; groups: { accounts: { account: string; since?: number[] }[] }[] };
      }>(
        await reviewLoader({
          request: new Request(`http://localhost${reviewPath(RF, CC)}`),
          params: { rf: RF, cost_center_concat: CC },
          context: {} as never,
        }),
      ).body.grid;
      const marked = answer.groups
        .flatMap((g) => g.accounts)
        .flatMap((a) => (a.since ?? []).map((i) => `${a.account} ${answer.months[i]}`));
      return marked;
    };
    const [salaries, rent] = [ACCOUNTS[0].account, ACCOUNTS[2].account];
    await db
      .collection(FORECAST_HISTORY)
      .insertMany([change(salaries, 3, 1, 2, at(3)), change(rent, 4, 1, 2, at(7)), change(salaries, 5, 1, 2, at(12))]);
    // Never submitted: nothing to compare with, no mark.
    expect(await grid()).toEqual([]);
    await submittedReturnedResubmitted();
    // Under review: between the last two submissions.
    expect(await grid()).toEqual([`${rent} 2027-04`]);
    await db.collection(FORECAST_CYCLE_EVENTS).insertOne(event("return", "submitted", "returned", at(11)));
    // Being prepared again: since the last submission.
    expect(await grid()).toEqual([`${salaries} 2027-05`]);
  });

  it("is the review's readers' (404 for an unknown cost centre)", async () => {
    /** The status a loader answers by throwing: a Response (the guard) or `data(…, { status })` (not found). */
    const thrownStatus = async (costCenter: string) => {
      try {
        await loader({
          request: new Request(`http://localhost${reviewPath(RF, costCenter)}/alteracoes`),
          params: { rf: RF, cost_center_concat: costCenter },
          context: {} as never,
        });
      } catch (error) {
        if (error instanceof Response) return error.status;
        if (isDataResult(error)) return error.init?.status;
      }
      return null;
    };
    currentUser.type = "USER BRONZE";
    expect(await thrownStatus(CC)).toBe(403);
    currentUser.type = "SYSTEM ADMIN";
    expect(await thrownStatus("CC9 - Nada")).toBe(404);
    expect(changesTexts.title).toBe("Alterações a revisar");
  });
});
