import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { AUDIT_LOG, forgetAuditHeads } from "~/models/audit.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { NOTICE_MAIL, NOTICES } from "~/models/notices.server";
import { action as boardAction, loader as boardLoader } from "~/routes/ij.forecast_status";
import { action as reviewAction } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { assignPreparer, insertScenario } from "../fixtures";
import { bulkTexts } from "./bulk-texts";
import { cycleAnswerTexts } from "./server-texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Approving or returning several submitted cost centres at once from the status board: each is still decided on its
 * own (the reviewers' rule, the submission the reviewer read), with its own notice and audit entry, and the answer
 * names those refused and why.
 */

const testDb = useTestDatabase();
useTempDataDir();
const RF = "RF2 2027";
const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";
const FINANCE = "CC1003 - Financeiro | Controladoria";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

type Person = { email: string; name: string; type: "USER GOLD" | "SYSTEM ADMIN" };
const PREPARER: Person = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" };
const REVIEWER: Person = { email: "admin@example.com", name: "Renata Revisora", type: "SYSTEM ADMIN" };
const ADMIN_PREPARER: Person = { email: "admin2@example.com", name: "Admin Preparador", type: "SYSTEM ADMIN" };

function as(user: Person) {
  currentUser.email = user.email;
  currentUser.name = user.name;
  currentUser.type = user.type;
}

function setToday(day: string) {
  process.env.PORTAL_TODAY = day;
  resetConfigForTests();
}

beforeAll(() => setToday("2027-02-15"));
afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

beforeEach(async () => {
  setToday("2027-02-15");
  db = await testDb.db();
  for (const name of [FORECAST, FORECAST_HISTORY, FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS])
    await db.collection(name).deleteMany({});
  for (const name of [NOTICES, NOTICE_MAIL, AUDIT_LOG]) await db.collection(name).deleteMany({});
  forgetAuditHeads();
  for (const cc of [MARKETING, RETAIL, FINANCE]) await insertScenario(db, RF, cc);
  for (const user of [PREPARER, REVIEWER, ADMIN_PREPARER]) {
    await grantPermission(db, user.email, user.type);
    await db.collection("user_permissions").updateOne({ user: user.email }, { $set: { name: user.name } });
  }
  await assignPreparer(db, PREPARER.email, MARKETING, FINANCE);
  await assignPreparer(db, ADMIN_PREPARER.email, RETAIL);
});

const url = (path: string) => `http://localhost${path}`;
const post = (path: string, body: URLSearchParams) =>
  new Request(url(path), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" },
    body: body.toString(),
  });

/** A cost centre's submission, confirmed, as its preparer sends it from the review. */
async function cycle(intent: "submit" | "withdraw", cc: string, who: Person) {
  as(who);
  const body = new URLSearchParams({ intent, comment: "", confirm: "1" });
  const result = await reviewAction({
    request: post(reviewPath(RF, cc), body),
    params: { rf: RF, cost_center_concat: cc },
    context: {} as never,
  });
  expect(result).toBeInstanceOf(Response);
}

async function board(query = `?rf=${encodeURIComponent(RF)}`) {
  const result = await boardLoader({
    request: new Request(url(`/ij/forecast_status${query}`)),
    params: {},
    context: {} as never,
  });
  return dataAnswer<BodyOf<typeof boardLoader>>(result).body;
}

/** The board's decision form: the boxes ticked (their values as the board drew them), the intent and the comment. */
async function decide(intent: string, ticked: string[], comment = "") {
  const body = new URLSearchParams({ intent, comment, rf: RF });
  for (const value of ticked) body.append("cc", value);
  try {
    const result = await boardAction({ request: post("/ij/forecast_status", body), params: {}, context: {} as never });
    return dataAnswer<BodyOf<typeof boardAction>>(result);
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: null };
    throw error;
  }
}

const stateOf = async (cc: string) =>
  (await db.collection(FORECAST_CYCLE).findOne({ rf: RF, cost_center_concat: cc }))?.state;

/** The value of a row's box on the board (null: the row has none). */
async function boxOf(cc: string) {
  const rows = (await board()).board.rows;
  return rows.find((r) => r.cost_center_concat === cc)?.decision ?? null;
}

describe("deciding several cost centres from the status board", () => {
  it("offers a box on each submitted row to a reviewer, none to rows not submitted", async () => {
    await cycle("submit", MARKETING, PREPARER);
    as(REVIEWER);
    const view = await board();
    expect(view.canDecide).toBe(true);
    expect(await boxOf(MARKETING)).toMatch(/^\d+\|CC1001 - Marketing$/);
    expect(await boxOf(RETAIL)).toBeNull();
  });

  it("approves each one it may, refuses the reviewer's own cost centre with its reason, and tells each preparer", async () => {
    await cycle("submit", MARKETING, PREPARER);
    await cycle("submit", FINANCE, PREPARER);
    await cycle("submit", RETAIL, ADMIN_PREPARER);
    as(ADMIN_PREPARER);
    const ticked = [await boxOf(MARKETING), await boxOf(FINANCE), await boxOf(RETAIL)] as string[];
    const answer = await decide("approve", ticked, "Ok para o RF");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ok: true,
      decided: [MARKETING, FINANCE],
      refused: [{ cc: RETAIL, reason: cycleAnswerTexts.refused.ownCostCenter }],
    });
    expect(answer.body && "message" in answer.body ? answer.body.message : "").toBe(bulkTexts.summary("approve", 2, 1));
    expect(await stateOf(MARKETING)).toBe("approved");
    expect(await stateOf(FINANCE)).toBe("approved");
    expect(await stateOf(RETAIL)).toBe("submitted");
    // One notice per cost centre decided, to its preparer, and one audit entry per decision (the refusal too).
    const notices = await db.collection(NOTICES).find({ to: PREPARER.email, kind: "forecast.approved" }).toArray();
    expect(notices.map((n) => n.link).sort()).toEqual([reviewPath(RF, MARKETING), reviewPath(RF, FINANCE)].sort());
    expect(await db.collection(NOTICES).countDocuments({ to: ADMIN_PREPARER.email, kind: "forecast.approved" })).toBe(
      0,
    );
    const decisions = await db.collection(AUDIT_LOG).find({ event: "decision", "details.action": "approve" }).toArray();
    expect(decisions.map((d) => `${d.object.id}:${d.outcome}`).sort()).toEqual(
      [`${FINANCE}:ok`, `${MARKETING}:ok`, `${RETAIL}:refused`].sort(),
    );
    // The comment travels with each decision.
    expect(notices.every((n) => String(n.body).includes("Ok para o RF"))).toBe(true);
  });

  it("refuses one sent again since the board was read (the decision applies to the submission the reviewer read)", async () => {
    await cycle("submit", MARKETING, PREPARER);
    await cycle("submit", FINANCE, PREPARER);
    as(REVIEWER);
    const read = [await boxOf(MARKETING), await boxOf(FINANCE)] as string[];
    // Meanwhile the preparer withdraws Finance, changes it and sends it again.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await cycle("withdraw", FINANCE, PREPARER);
    await cycle("submit", FINANCE, PREPARER);
    as(REVIEWER);
    const answer = await decide("approve", read);
    expect(answer.body).toMatchObject({
      decided: [MARKETING],
      refused: [{ cc: FINANCE, reason: bulkTexts.sentAgain }],
    });
    expect(await stateOf(FINANCE)).toBe("submitted");
  });

  it("returns several with one comment, and asks for the comment first", async () => {
    await cycle("submit", MARKETING, PREPARER);
    await cycle("submit", FINANCE, PREPARER);
    as(REVIEWER);
    const ticked = [await boxOf(MARKETING), await boxOf(FINANCE)] as string[];
    const none = await decide("return", ticked, "   ");
    expect(none).toMatchObject({ status: 400, body: { ok: false, message: bulkTexts.commentRequired } });
    expect(await stateOf(MARKETING)).toBe("submitted");

    const answer = await decide("return", ticked, "Revisar viagens");
    expect(answer.body).toMatchObject({ decided: [MARKETING, FINANCE], refused: [] });
    expect(await stateOf(MARKETING)).toBe("returned");
    expect(await stateOf(FINANCE)).toBe("returned");
    const returned = await db.collection(NOTICES).find({ to: PREPARER.email, kind: "forecast.returned" }).toArray();
    expect(returned).toHaveLength(2);
    expect(returned.every((n) => String(n.body).includes("Revisar viagens"))).toBe(true);
  });

  it("changes nothing on a form it cannot read: no box, an unknown intent, a forged value, too many boxes", async () => {
    await cycle("submit", MARKETING, PREPARER);
    as(REVIEWER);
    const good = (await boxOf(MARKETING)) as string;
    const cases: [string, string[]][] = [
      ["approve", []],
      ["reopen", [good]],
      ["submit", [good]],
      ["approve", ["not-a-number|CC1001 - Marketing"]],
      ["approve", [`${good.split("|")[0]}|`]],
      ["approve", ["-1|CC1001 - Marketing"]],
      ["approve", ["__proto__"]],
      ["approve", [`${good}\u0000`]],
      ["approve", Array.from({ length: 201 }, () => good)],
    ];
    for (const [intent, ticked] of cases) {
      const answer = await decide(intent, ticked);
      expect(answer.status, `${intent} ${ticked.slice(0, 1)}`).toBe(400);
      expect(answer.body).toMatchObject({ ok: false });
    }
    expect(await stateOf(MARKETING)).toBe("submitted");
    expect(await db.collection(NOTICES).countDocuments({ kind: "forecast.approved" })).toBe(0);
  });

  it("is not offered to, and refused for, a user who is not a reviewer", async () => {
    await cycle("submit", MARKETING, PREPARER);
    as(REVIEWER);
    const good = (await boxOf(MARKETING)) as string;
    as(PREPARER);
    const answer = await decide("approve", [good]);
    expect(answer.status).toBe(403);
    expect(await stateOf(MARKETING)).toBe("submitted");
  });

  it("refuses a cost centre of another RF or one that does not exist, by name", async () => {
    await cycle("submit", MARKETING, PREPARER);
    as(REVIEWER);
    const good = (await boxOf(MARKETING)) as string;
    const answer = await decide("approve", [`${good.split("|")[0]}|CC9999 - Nenhum`, good]);
    expect(answer.body).toMatchObject({ decided: [MARKETING], refused: [{ cc: "CC9999 - Nenhum" }] });
  });
});
