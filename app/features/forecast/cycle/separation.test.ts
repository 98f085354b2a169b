import type { Db } from "mongodb";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { routeArgs } from "#test/requests";
import { grantPermission } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { AUDIT_LOG, forgetAuditHeads } from "~/models/audit.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS, transition } from "~/models/forecast-cycle.server";
import { action as preparersAction } from "~/routes/ij.forecast_preparers";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { insertScenario } from "../fixtures";
import { cycleAnswerTexts } from "./server-texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Separation of duties in the forecast cycle: whoever submitted the version under review, or prepared the cost centre
 * when it was submitted, may neither approve nor return it, whatever the preparers' list says by then. Removing a
 * preparer of a submitted cost centre is allowed (staff change), and the rule holds through the submission's record.
 * The clock is pinned inside RF2 2027's edit month (February 2027).
 */

const testDb = useTestDatabase();
const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";
const RF = "RF2 2027";
const ORIGIN = "http://localhost";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

type Person = { email: string; name: string; type: "USER GOLD" | "SYSTEM ADMIN" };
const GOLD: Person = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" };
const REVIEWER: Person = { email: "admin@example.com", name: "Renata Revisora", type: "SYSTEM ADMIN" };
const ADMIN2: Person = { email: "admin2@example.com", name: "Admin Preparador", type: "SYSTEM ADMIN" };

function as(user: Person) {
  Object.assign(currentUser, user);
}

afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(async () => {
  process.env.PORTAL_TODAY = "2027-02-15";
  resetConfigForTests();
  db = await testDb.db();
  for (const name of [FORECAST, FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS, AUDIT_LOG])
    await db.collection(name).deleteMany({});
  forgetAuditHeads();
  await insertScenario(db, RF, MARKETING);
  await insertScenario(db, RF, RETAIL);
  for (const user of [GOLD, REVIEWER, ADMIN2]) {
    await grantPermission(db, user.email, user.type);
    await db.collection("user_permissions").updateOne({ user: user.email }, { $set: { name: user.name } });
  }
});

async function assign(costCenter: string, ...users: Person[]) {
  await db.collection(FORECAST_PREPARERS).insertMany(
    users.map((u) => ({
      cost_center_concat: costCenter,
      user: u.email,
      assigned_at: new Date(),
      assigned_by: "test",
    })),
  );
}

const reviewArgs = (request: Request, costCenter: string) =>
  routeArgs(request, { rf: RF, cost_center_concat: costCenter });

/** A cycle action sent by the review page's form, as the current user: the status and the refusal's message. */
async function cycle(intent: string, costCenter: string, comment = "") {
  const request = new Request(`${ORIGIN}${reviewPath(RF, costCenter)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    // A submission as its dialog sends it, confirmed.
    body: new URLSearchParams({ intent, comment, confirm: "1" }).toString(),
  });
  const result = await action(reviewArgs(request, costCenter));
  if (result instanceof Response) return { status: result.status };
  const { status, body } = dataAnswer<{ cycleError: string }>(result);
  return { status, message: body.cycleError };
}

async function actionsShown(costCenter: string): Promise<string[]> {
  const result = await loader(reviewArgs(new Request(`${ORIGIN}${reviewPath(RF, costCenter)}`), costCenter));
  return dataAnswer<Extract<BodyOf<typeof loader>, { found: true }>>(result).body.cycle.actions;
}

/** Removes a preparer on /ij/forecast_preparers, confirmed, as the current user (an administrator). */
async function removeOnScreen(costCenter: string, user: Person) {
  const body = new URLSearchParams({
    intent: "remove",
    cost_center_concat: costCenter,
    user: user.email,
    confirm: "1",
  });
  const request = new Request(`${ORIGIN}/ij/forecast_preparers`, { method: "POST", body, headers: { Origin: ORIGIN } });
  const response = await responseOf(preparersAction(routeArgs(request)));
  expect(new URL(response.headers.get("Location") ?? "", ORIGIN).searchParams.get("ok")).toBe("removed");
}

const stateOf = async (costCenter: string) =>
  (await db.collection(FORECAST_CYCLE).findOne({ rf: RF, cost_center_concat: costCenter }))?.state;

describe("a preparer who submits and then leaves the preparers' list", () => {
  it("admin2 prepares, submits, leaves the list on /ij/forecast_preparers: may neither approve nor return", async () => {
    await assign(RETAIL, ADMIN2);
    as(ADMIN2);
    expect((await cycle("submit", RETAIL)).status).toBe(302);
    await removeOnScreen(RETAIL, ADMIN2);
    expect(await db.collection(FORECAST_PREPARERS).countDocuments({ cost_center_concat: RETAIL })).toBe(0);

    expect(await actionsShown(RETAIL)).toEqual([]);
    expect(await cycle("approve", RETAIL)).toEqual({ status: 403, message: cycleAnswerTexts.refused.ownSubmission });
    expect(await cycle("return", RETAIL, "Devolvo eu mesmo")).toEqual({
      status: 403,
      message: cycleAnswerTexts.refused.ownSubmission,
    });
    expect(await stateOf(RETAIL)).toBe("submitted");
    const timeline = await db.collection(FORECAST_CYCLE_EVENTS).find({ cost_center_concat: RETAIL }).toArray();
    expect(timeline.map((e) => [e.action, e.by])).toEqual([["submit", ADMIN2.email]]);

    // Another reviewer decides as before.
    as(REVIEWER);
    expect(await actionsShown(RETAIL)).toEqual(["approve", "return"]);
    expect((await cycle("approve", RETAIL)).status).toBe(302);
    expect(await stateOf(RETAIL)).toBe("approved");
  });

  it("a preparer at submission who did not submit is bound too, after removal", async () => {
    await assign(MARKETING, GOLD, ADMIN2);
    as(GOLD);
    expect((await cycle("submit", MARKETING)).status).toBe(302);
    as(REVIEWER);
    await removeOnScreen(MARKETING, ADMIN2);

    as(ADMIN2);
    expect(await actionsShown(MARKETING)).toEqual([]);
    expect(await cycle("approve", MARKETING)).toEqual({ status: 403, message: cycleAnswerTexts.refused.ownSubmission });
    expect(await cycle("return", MARKETING, "Não")).toEqual({
      status: 403,
      message: cycleAnswerTexts.refused.ownSubmission,
    });
    expect(await stateOf(MARKETING)).toBe("submitted");
  });

  it("a reviewer made a preparer after the submission is bound by today's list", async () => {
    await assign(MARKETING, GOLD);
    as(GOLD);
    expect((await cycle("submit", MARKETING)).status).toBe(302);
    await assign(MARKETING, REVIEWER);
    as(REVIEWER);
    expect(await cycle("approve", MARKETING)).toEqual({ status: 403, message: cycleAnswerTexts.refused.ownCostCenter });
  });

  it("the record follows the version under review: a later submission by someone else takes its own list", async () => {
    await assign(RETAIL, ADMIN2);
    as(ADMIN2);
    expect((await cycle("submit", RETAIL)).status).toBe(302);
    as(REVIEWER);
    expect((await cycle("return", RETAIL, "Refaça")).status).toBe(302);
    await removeOnScreen(RETAIL, ADMIN2);
    await assign(RETAIL, GOLD);
    as(GOLD);
    expect((await cycle("submit", RETAIL)).status).toBe(302);
    const record = await db.collection(FORECAST_CYCLE).findOne({ rf: RF, cost_center_concat: RETAIL });
    expect(record).toMatchObject({ submitted_by: GOLD.email, preparers_at_submission: [GOLD.email] });

    // admin2 neither submitted nor prepared this version.
    as(ADMIN2);
    expect((await cycle("approve", RETAIL)).status).toBe(302);
  });

  it("a submission recorded before submissions kept their record binds its submitter (timeline)", async () => {
    await assign(RETAIL, ADMIN2);
    as(ADMIN2);
    expect((await cycle("submit", RETAIL)).status).toBe(302);
    // As a record written before the submission's fields existed.
    await db
      .collection(FORECAST_CYCLE)
      .updateOne(
        { rf: RF, cost_center_concat: RETAIL },
        { $unset: { submitted_by: "", submitted_at: "", preparers_at_submission: "" } },
      );
    await db.collection(FORECAST_PREPARERS).deleteMany({ cost_center_concat: RETAIL });
    expect(await cycle("approve", RETAIL)).toEqual({ status: 403, message: cycleAnswerTexts.refused.ownSubmission });
  });
});

describe("a decision applies to the submission it was checked against", () => {
  it("an approval checked against one submission is refused once another submission replaced it", async () => {
    await assign(RETAIL, GOLD);
    as(GOLD);
    expect((await cycle("submit", RETAIL)).status).toBe(302);
    const checked = (await db.collection(FORECAST_CYCLE).findOne({ rf: RF, cost_center_concat: RETAIL }))
      ?.submitted_at as Date;
    // Between the reviewer's check and the write: a return and a new submission by someone else.
    as(REVIEWER);
    expect((await cycle("return", RETAIL, "Refaça")).status).toBe(302);
    as(GOLD);
    expect((await cycle("submit", RETAIL)).status).toBe(302);

    const actor = { email: REVIEWER.email, name: REVIEWER.name };
    const stale = await transition(
      RF,
      RETAIL,
      "approve",
      ["submitted"],
      "approved",
      actor,
      "",
      new Date(),
      undefined,
      checked,
    );
    expect(stale).toEqual({ ok: false, current: "submitted" });
    expect(await stateOf(RETAIL)).toBe("submitted");
    const current = (await db.collection(FORECAST_CYCLE).findOne({ rf: RF, cost_center_concat: RETAIL }))
      ?.submitted_at as Date;
    const fresh = await transition(
      RF,
      RETAIL,
      "approve",
      ["submitted"],
      "approved",
      actor,
      "",
      new Date(),
      undefined,
      current,
    );
    expect(fresh.ok).toBe(true);
  });
});
