import { type Db, ObjectId } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { renderAt } from "#test/static-render";
import { resetConfigForTests } from "~/config.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_CYCLE } from "~/models/forecast-cycle.server";
import { SEASONALITY_PROFILES } from "~/models/seasonality-profiles.server";
import SpreadTotalPage, {
  action,
  loader,
} from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir";
import { readToastFromResponse } from "~/shared/toast.server";
import { ACCOUNTS, assignPreparer, dumpForecast, insertScenario } from "./fixtures";
import type { SpreadPage } from "./spread.server";
import { spreadBaseTexts } from "./spread-texts";
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

  it("follows the previous RF where it has months, spreads evenly only the months it lacks, and names them", async () => {
    // RF1 2027 ends in 12/2027: of RF2 2027's 13 open months (02/2027–02/2028) it covers 11, each with base + its
    // position in RF1's window (1015 in 02/2027 … 1025 in 12/2027).
    const other = "CC1002 - Vendas";
    await insertScenario(db, RF, other);
    await insertScenario(db, "RF1 2027", other);
    await assignPreparer(db, "gold@example.com", other);
    const search = new URLSearchParams({ total: "1.300,00", modo: "rf_anterior", conta: ACCOUNT });
    const url = `http://localhost:3000/ij/report_preview_edit_schneider/${encodeURIComponent(RF)}/${encodeURIComponent(other)}/distribuir?${search}`;
    const page = (await loader({
      request: new Request(url),
      params: { rf: RF, cost_center_concat: other },
      context: {},
    } as never)) as SpreadPage;
    expect(page.error).toBeNull();
    expect(page.preview?.note).toBe(spreadBaseTexts.unbased(["01/2028", "02/2028"]));
    const next = Object.fromEntries((page.preview?.rows ?? []).map((r) => [r.label, r.next]));
    // Each month without a base takes 1.300,00 / 13; the other 1.100,00 go by the base (1015 of 11220, …).
    expect(next["01/2028"]).toBe("100,00");
    expect(next["02/2028"]).toBe("100,00");
    expect(next["02/2027"]).toBe("99,51");
    expect(next["12/2027"]).toBe("100,49");
    const cents = (page.preview?.rows ?? []).reduce((sum, r) => sum + Math.round(r.value * 100), 0);
    expect(cents).toBe(130_000);

    // Two accounts whose bases lack different months: each set of months is named with its accounts.
    const B = ACCOUNTS[1].account;
    await db.collection(FORECAST).deleteOne({
      rf: "RF1 2027",
      cost_center_concat: other,
      account_concat: B,
      data_ref: new Date(Date.UTC(2027, 10, 1)),
    });
    search.append("conta", B);
    const both = (await loader({
      request: new Request(url.replace(/\?.*$/, `?${search}`)),
      params: { rf: RF, cost_center_concat: other },
      context: {},
    } as never)) as SpreadPage;
    expect(both.preview?.note).toBe(
      [
        spreadBaseTexts.unbased(["01/2028", "02/2028"], [ACCOUNT]),
        spreadBaseTexts.unbased(["11/2027", "01/2028", "02/2028"], [B]),
      ].join(" "),
    );
  });

  it("spreads like a stored seasonality profile the preparer picks, read again by its id when saved", async () => {
    // A profile kept by a reviewer: November weighs 2, December 4, every other month 1.
    const _id = new ObjectId();
    const at = new Date();
    const who = { by: "admin@example.com", name: "Admin" };
    await db.collection(SEASONALITY_PROFILES).insertOne({
      _id,
      name: "Varejo — Natal forte",
      name_key: "varejo — natal forte",
      weights: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4],
      created_at: at,
      created_by: who.by,
      created_by_name: who.name,
      updated_at: at,
      updated_by: who.by,
      updated_by_name: who.name,
    });
    const perfil = _id.toHexString();
    const page = await preview({ total: "1.700,00", modo: "perfil", perfil });
    expect(page.profiles).toEqual([{ id: perfil, name: "Varejo — Natal forte" }]);
    expect(page.error).toBeNull();
    expect(page.preview?.note).toBeNull();
    // 02/2027–02/2028: eleven months of weight 1, 11/2027 of 2 and 12/2027 of 4 (17 in all).
    const next = Object.fromEntries((page.preview?.rows ?? []).map((r) => [r.label, r.next]));
    expect([next["02/2027"], next["11/2027"], next["12/2027"], next["01/2028"]]).toEqual([
      "100,00",
      "200,00",
      "400,00",
      "100,00",
    ]);
    // Without JavaScript: the mode, the profile chosen in its list, and the preview's save carrying it.
    const query = `?${new URLSearchParams({ total: "1.700,00", modo: "perfil", perfil, conta: ACCOUNT })}`;
    const html = (
      await renderAt(`/distribuir${query}`, [
        {
          path: "*",
          loader: ({ request }) =>
            loader({ request: new Request(`${base}${query}`, request), params, context: {} } as never),
          Component: SpreadTotalPage,
        },
      ])
    ).replaceAll("&quot;", '"');
    expect(html).toContain(forecastTexts.spreadModes.perfil);
    expect(html).toContain(`<option value="${perfil}" selected="">Varejo — Natal forte</option>`);
    expect(html).toContain(`<input type="hidden" name="perfil" value="${perfil}"/>`);

    const answer = (await save(page, { perfil })) as Response;
    expect(answer.status).toBe(302);
    const december = (await openCells()).find((c) => c.data_ref.getTime() === Date.UTC(2027, 11, 1));
    expect(december?.forecast).toBe(400);

    // No profile chosen, or one removed since the preview: refused, nothing written.
    expect((await preview({ total: "100", modo: "perfil" })).error).toBe(spreadBaseTexts.profileMissing);
    const again = await preview({ total: "1.700,00", modo: "perfil", perfil });
    await db.collection(SEASONALITY_PROFILES).deleteOne({ _id });
    const before = await dumpForecast(db);
    const refused = dataAnswer<SpreadPage>(await save(again, { perfil }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(spreadBaseTexts.profileMissing);
    expect(await dumpForecast(db)).toEqual(before);
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
