import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_CYCLE } from "~/models/forecast-cycle.server";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir";
import { readToastFromResponse } from "~/shared/toast.server";
import { ACCOUNTS, assignPreparer, dumpForecast, insertScenario } from "./fixtures";
import type { SpreadPage } from "./spread.server";
import { forecastTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * "Distribuir total" without JavaScript, with the clock pinned to 15 Feb 2027 (RF2 2027 in its edit month): the GET
 * preview writes nothing; the POST writes the open months only, as one save whose cells' histories say "distribuído";
 * a cell changed since the preview, a frozen cost centre and a reader are refused with nothing written.
 */

const testDb = useTestDatabase();
const CC = "CC1001 - Marketing";
const RF = "RF2 2027";
const ACCOUNT = ACCOUNTS[0].account;
const params = { rf: RF, cost_center_concat: CC };
const base = `http://localhost:3000/ij/report_preview_edit_schneider/${encodeURIComponent(RF)}/${encodeURIComponent(CC)}/distribuir`;
let db: Db;
usePortalToday("2027-02-15");

beforeAll(async () => {
  db = await testDb.db();
  await insertScenario(db, RF, CC);
  await assignPreparer(db, "gold@example.com", CC);
});

beforeEach(() => {
  currentUser.type = "USER GOLD";
  currentUser.email = "gold@example.com";
});

async function preview(query: Record<string, string>, accounts: readonly string[] = [ACCOUNT]): Promise<SpreadPage> {
  const search = new URLSearchParams(query);
  for (const account of accounts) search.append("conta", account);
  const url = `${base}?${search}`;
  return (await loader({ request: new Request(url), params, context: {} } as never)) as SpreadPage;
}

async function save(page: SpreadPage, extra: Record<string, string> = {}) {
  const fields = new URLSearchParams({
    total: page.values.total,
    modo: page.values.mode,
    pesos: page.values.weights,
    alcance: page.values.scope,
    olds: page.preview?.olds ?? "",
    stamps: page.preview?.stamps ?? "",
    ...extra,
  });
  for (const account of page.chosen) fields.append("conta", account);
  const request = new Request(base, { method: "POST", body: fields });
  return action({ request, params, context: {} } as never);
}

const closedCells = async () =>
  db
    .collection(FORECAST)
    .find({
      rf: RF,
      cost_center_concat: CC,
      account_concat: ACCOUNT,
      data_ref: { $lt: new Date(Date.UTC(2027, 1, 1)) },
    })
    .toArray();

const openCells = async () =>
  db
    .collection(FORECAST)
    .find({
      rf: RF,
      cost_center_concat: CC,
      account_concat: ACCOUNT,
      data_ref: { $gte: new Date(Date.UTC(2027, 1, 1)) },
    })
    .sort({ data_ref: 1 })
    .toArray();

describe("Distribuir total", () => {
  it("previews evenly, writes nothing, then saves the open months only, as a spread", async () => {
    const before = await dumpForecast(db);
    const page = await preview({ total: "1.000,00", modo: "igual" });
    expect(page.error).toBeNull();
    const n = page.openMonths.length;
    expect(n).toBeGreaterThan(1);
    expect(page.preview?.rows).toHaveLength(n);
    expect(await dumpForecast(db)).toEqual(before);

    const closed = await closedCells();
    const answer = (await save(page)) as Response;
    expect(answer.status).toBe(302);
    expect((await readToastFromResponse(answer))?.description).toBe(forecastTexts.spreadSaved(n));
    const cells = await openCells();
    expect(cells.map((c) => c.forecast)).toHaveLength(n);
    expect(Math.round(cells.reduce((sum, c) => sum + c.forecast * 100, 0))).toBe(100_000);
    const even = Math.round(100_000 / n) / 100;
    expect(cells.slice(0, -1).every((c) => c.forecast === even)).toBe(true);
    const stillClosed = await closedCells();
    expect(stillClosed).toEqual(closed);
    expect(await db.collection(FORECAST_HISTORY).countDocuments({ via: "spread" })).toBe(n);
    const entry = await db.collection(AUDIT_LOG).findOne({ event: "dataEdited", "details.via": "spread" });
    expect(entry?.details.rows).toBe(n);
  });

  it("spreads over several accounts: each takes the total, or one total shared by their open months' weight", async () => {
    const [A, B] = [ACCOUNTS[0].account, ACCOUNTS[1].account];
    const cellsOf = (account: string) =>
      db
        .collection(FORECAST)
        .find({
          rf: RF,
          cost_center_concat: CC,
          account_concat: account,
          data_ref: { $gte: new Date(Date.UTC(2027, 1, 1)) },
        })
        .sort({ data_ref: 1 })
        .toArray();
    const sumOf = async (account: string) =>
      Math.round((await cellsOf(account)).reduce((sum, c) => sum + c.forecast * 100, 0));
    const closed = await closedCells();

    const each = await preview({ total: "1.200,00", modo: "igual", alcance: "cada" }, [A, B]);
    const n = each.openMonths.length;
    expect(each.preview?.rows).toHaveLength(2 * n);
    expect(((await save(each)) as Response).status).toBe(302);
    expect([await sumOf(A), await sumOf(B)]).toEqual([120_000, 120_000]);

    // Now both accounts hold 1.200,00 each over the open months: shared by that weight, 1.000,00 splits in halves.
    await db
      .collection(FORECAST)
      .updateMany(
        { rf: RF, cost_center_concat: CC, account_concat: B, data_ref: { $gte: new Date(Date.UTC(2027, 1, 1)) } },
        { $mul: { forecast: 3 } },
      );
    const shared = await preview({ total: "1.000,00", modo: "igual", alcance: "repartido" }, [A, B]);
    const answer = (await save(shared)) as Response;
    expect(answer.status).toBe(302);
    expect((await readToastFromResponse(answer))?.description).toBe(forecastTexts.spreadSaved(n, 2));
    // Weights 1 : 3 (B tripled): 250,00 and 750,00, to the cent.
    expect([await sumOf(A), await sumOf(B)]).toEqual([25_000, 75_000]);
    expect(await closedCells()).toEqual(closed);
  });

  it("shares evenly between accounts that have no weight, and says so", async () => {
    const [A, B] = [ACCOUNTS[0].account, ACCOUNTS[1].account];
    await db
      .collection(FORECAST)
      .updateMany(
        { rf: RF, cost_center_concat: CC, data_ref: { $gte: new Date(Date.UTC(2027, 1, 1)) } },
        { $set: { forecast: 0 } },
      );
    const page = await preview({ total: "100", modo: "igual", alcance: "repartido" }, [A, B]);
    expect(page.preview?.note).toBe(forecastTexts.spreadSharedEvenly);
    const perAccount = (account: string) =>
      Math.round(
        (page.preview?.rows ?? []).filter((r) => r.account === account).reduce((sum, r) => sum + r.value * 100, 0),
      );
    expect([perAccount(A), perAccount(B)]).toEqual([5_000, 5_000]);
  });

  it("falls back to evenly without a previous RF, and says so", async () => {
    const page = await preview({ total: "600", modo: "rf_anterior" });
    expect(page.preview?.note).toBe(forecastTexts.spreadFellBack(forecastTexts.spreadModes.rf_anterior));
  });

  it("spreads by typed weights, and refuses weights that do not fit the open months", async () => {
    const first = await preview({ total: "100", modo: "igual" });
    const n = first.openMonths.length;
    const weights = Array.from({ length: n }, (_, i) => (i === 0 ? "3" : "1")).join(";");
    const page = await preview({ total: `${(n + 2) * 10}`, modo: "pesos", pesos: weights });
    expect(page.preview?.rows[0].next).toBe("30,00");
    expect(page.preview?.rows[1].next).toBe("10,00");
    const wrong = await preview({ total: "100", modo: "pesos", pesos: "1;2" });
    expect(wrong.error).toBe(forecastTexts.spreadWeightsInvalid(n));
    expect(wrong.preview).toBeNull();
    const total = await preview({ total: "abc", modo: "igual" });
    expect(total.error).toBe(forecastTexts.spreadTotalInvalid);
  });

  it("refuses a save when a cell changed since the preview, writing nothing", async () => {
    const page = await preview({ total: "500", modo: "igual" });
    const [first] = await openCells();
    await db
      .collection(FORECAST)
      .updateOne({ _id: first._id }, { $set: { forecast: 1, edited_at: new Date(), edited_by: "x@example.com" } });
    const before = await dumpForecast(db);
    const answer = dataAnswer<SpreadPage>(await save(page));
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(forecastTexts.spreadChanged);
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("offers nothing on a submitted cost centre, and refuses its save", async () => {
    const page = await preview({ total: "500", modo: "igual" });
    await db.collection(FORECAST_CYCLE).insertOne({
      rf: RF,
      cost_center_concat: CC,
      state: "submitted",
      changed_at: new Date(),
      changed_by: "p@example.com",
      changed_by_name: "P",
    });
    const frozen = await preview({ total: "500", modo: "igual" });
    expect(frozen.error).toMatch(/Enviado|enviad/i);
    expect(frozen.preview).toBeNull();
    const before = await dumpForecast(db);
    expect(dataAnswer(await save(page)).status).toBe(400);
    expect(await dumpForecast(db)).toEqual(before);
    await db.collection(FORECAST_CYCLE).deleteMany({});
  });

  it("lets a reader who may not edit see only why, and refuses the post (403)", async () => {
    process.env.FORECAST_REVIEWER_TYPES = "SYSTEM ADMIN,USER SILVER";
    resetConfigForTests();
    try {
      currentUser.type = "USER SILVER";
      const page = await preview({ total: "500", modo: "igual" });
      expect(page.error).toBe(forecastTexts.spreadReadOnly);
      expect(page.preview).toBeNull();
      await expect(save(page)).rejects.toMatchObject({ status: 403 });
    } finally {
      delete process.env.FORECAST_REVIEWER_TYPES;
      resetConfigForTests();
    }
  });
});
