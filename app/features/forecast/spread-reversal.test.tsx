import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { renderAt } from "#test/static-render";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import SpreadTotalPage, {
  action,
  loader,
} from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir";
import { formatPtBr2 } from "~/shared/numbers";
import { ACCOUNTS, dumpForecast, GENERAL, insertScenario } from "./fixtures";
import type { SpreadPage } from "./spread.server";
import { spreadSignTexts } from "./spread-texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * "Distribuir total" with a total against the account's sign, on 15 Feb 2027 (RF2 2027 open). The expense accounts carry
 * positive figures: a negative total there is a reversal, refused until the preparer confirms it, and refused even
 * then past what the account sums in the review's closed months (−5.000.000,00 on a salary line). An account whose
 * figures are negative (a deduction) takes a negative total as any other. The page (GET preview, POST save) and the
 * grid's dialog (which reads the same preview) answer alike; a refusal writes nothing.
 */

const testDb = useTestDatabase();
const CC = "CC1001 - Marketing";
const RF = "RF2 2027";
const SALARIES = ACCOUNTS[0].account;
const RETURNS = "3201001 - Devoluções de Vendas";
const params = { rf: RF, cost_center_concat: CC };
const base = `http://localhost:3000/ij/report_preview_edit_schneider/${encodeURIComponent(RF)}/${encodeURIComponent(CC)}/distribuir`;
let db: Db;
usePortalToday("2027-02-15");

beforeAll(async () => {
  db = await testDb.db();
  await insertScenario(db, RF, CC, [
    ...ACCOUNTS,
    { account: RETURNS, label: "Devoluções de Vendas", group: GENERAL, base: -800 },
  ]);
  await db.collection(FORECAST_PREPARERS).insertOne({
    cost_center_concat: CC,
    user: "gold@example.com",
    assigned_at: new Date("2027-01-05T12:00:00Z"),
    assigned_by: "admin@example.com",
  });
});

beforeEach(() => {
  Object.assign(currentUser, { type: "USER GOLD", email: "gold@example.com", name: "Gold User" });
});

async function preview(query: Record<string, string>, account: string = SALARIES): Promise<SpreadPage> {
  const search = new URLSearchParams({ modo: "igual", ...query });
  search.append("conta", account);
  return (await loader({ request: new Request(`${base}?${search}`), params, context: {} } as never)) as SpreadPage;
}

/** The page's save, with the fields its preview form carries (and the confirmation when it was given). */
async function save(page: SpreadPage, fields: Record<string, string>) {
  const body = new URLSearchParams({
    modo: "igual",
    alcance: "cada",
    olds: page.preview?.olds ?? "",
    stamps: page.preview?.stamps ?? "",
    ...fields,
  });
  for (const account of page.chosen) body.append("conta", account);
  return action({ request: new Request(base, { method: "POST", body }), params, context: {} } as never);
}

/** The account's open months (February 2027 on) as stored, in cents. */
async function openCents(account: string): Promise<number> {
  const cells = await db
    .collection(FORECAST)
    .find({
      rf: RF,
      cost_center_concat: CC,
      account_concat: account,
      data_ref: { $gte: new Date(Date.UTC(2027, 1, 1)) },
    })
    .toArray();
  return cells.reduce((sum, c) => sum + Math.round(c.forecast * 100), 0);
}

/** What the account sums in the review's months that the spread leaves (before February 2027), in reais. */
async function closedSum(account: string): Promise<number> {
  const page = await preview({}, account);
  const open = new Set(page.openMonths.map((m) => m.key));
  const cells = await db
    .collection(FORECAST)
    .find({ rf: RF, cost_center_concat: CC, account_concat: account })
    .toArray();
  const closed = cells.filter((c) => !open.has(c.data_ref.toISOString().slice(0, 7)));
  return closed.reduce((sum, c) => sum + Math.round((c.value || c.forecast) * 100), 0) / 100;
}

describe("a negative total on an expense account (a reversal)", () => {
  it("is explained beside the total, with the confirmation to tick, on the page without JavaScript", async () => {
    const query = `?${new URLSearchParams({ conta: SALARIES, total: "-1.000,00", modo: "igual" })}`;
    const html = await renderAt(`/distribuir${query}`, [
      {
        path: "*",
        loader: ({ request }) => loader({ request: new Request(`${base}${query}`, request), params, context: {} }),
        Component: SpreadTotalPage,
      },
    ]);
    const unescaped = html.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
    expect(unescaped).toMatch(/<input id="spread-total" name="total"[^>]*aria-describedby="spread-total-hint"/);
    expect(unescaped).toContain(`<small id="spread-total-hint">${spreadSignTexts.totalHint}</small>`);
    expect(unescaped).toMatch(/<input type="checkbox" name="estorno" value="1"\/>/);
    expect(unescaped).toContain(spreadSignTexts.confirm);
    expect(unescaped).toContain(spreadSignTexts.unconfirmed([SALARIES]));
  });

  it("is refused without the confirmation, in Portuguese, previewed and saved alike, writing nothing", async () => {
    const page = await preview({ total: "-1.000,00" });
    expect(page.error).toBe(spreadSignTexts.unconfirmed([SALARIES]));
    expect(page.preview).toBeNull();
    const before = await dumpForecast(db);
    const answer = dataAnswer<SpreadPage>(await save(page, { total: "-1.000,00" }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(spreadSignTexts.unconfirmed([SALARIES]));
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("is refused past what the account sums in the closed months, even confirmed, writing nothing", async () => {
    const limit = await closedSum(SALARIES);
    expect(limit).toBeGreaterThan(0);
    const page = await preview({ total: "-5.000.000,00", estorno: "1" });
    const refusal = spreadSignTexts.tooLarge(SALARIES, `R$ ${formatPtBr2(limit)}`);
    expect(page.error).toBe(refusal);
    expect(page.preview).toBeNull();
    const before = await dumpForecast(db);
    const answer = dataAnswer<SpreadPage>(await save(page, { total: "-5.000.000,00", estorno: "1" }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(refusal);
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("is spread and saved once confirmed, within that bound", async () => {
    const page = await preview({ total: "-1.000,00", estorno: "1" });
    expect(page.error).toBeNull();
    expect(page.values.reversal).toBe(true);
    expect(page.preview?.note).toBe(spreadSignTexts.confirmedNote([SALARIES]));
    const answer = (await save(page, { total: "-1.000,00", estorno: "1" })) as Response;
    expect(answer.status).toBe(302);
    expect(await openCents(SALARIES)).toBe(-100_000);
  });
});

describe("a negative total on an account whose figures are negative (a deduction)", () => {
  it("is spread and saved without a confirmation; a positive one there is the reversal", async () => {
    const positive = await preview({ total: "1.000,00" }, RETURNS);
    expect(positive.error).toBe(spreadSignTexts.unconfirmed([RETURNS]));
    const page = await preview({ total: "-2.400,00" }, RETURNS);
    expect(page.error).toBeNull();
    const answer = (await save(page, { total: "-2.400,00" })) as Response;
    expect(answer.status).toBe(302);
    expect(await openCents(RETURNS)).toBe(-240_000);
  });
});
