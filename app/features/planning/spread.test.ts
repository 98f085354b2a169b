import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { AUDIT_LOG } from "~/models/audit.server";
import { PLANNING_HISTORY, PLANNING_QUANTITY } from "~/models/planning.server";
import { action, loader } from "~/routes/ij.plan_edit_.distribuir";
import { readToastFromResponse } from "~/shared/toast.server";
import { resetPlanning } from "./fixtures";
import type { PlanningSpreadPage } from "./spread";
import { planningTexts as t } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * "Distribuir total" of the planning grid: one SKU in one channel over the filter's months (Jan–Mar 2026), in whole
 * units with the remainder on the last month; the preview writes nothing; the save is one individual save whose rows'
 * histories say "distribuído"; a row changed since the preview refuses it whole; bad totals change nothing.
 */

const testDb = useTestDatabase();
let db: Db;
const FILTER = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=sku&sku=80000001&chanel=WHOLESALES&chanel=FSS";
const SKU = "80000001";
const base = "http://localhost/ij/plan_edit/distribuir";
let rowId = "";

beforeAll(async () => {
  db = await testDb.db();
});

beforeEach(async () => {
  await resetPlanning(db);
  Object.assign(currentUser, { email: "gold@example.com", name: "Gold", type: "USER GOLD" });
  const row = await db.collection(PLANNING_QUANTITY).findOne({ sku: SKU, channel: "WHOLESALES" });
  rowId = String(row?._id);
});

const pairRows = () =>
  db.collection(PLANNING_QUANTITY).find({ sku: SKU, channel: "WHOLESALES" }).sort({ dateRef: 1 }).toArray();
const preview = async (query: Record<string, string>) =>
  (await loader({
    request: new Request(`${base}?${FILTER}&${new URLSearchParams({ linha: rowId, ...query })}`),
    params: {},
    context: {},
  } as never)) as PlanningSpreadPage;
const save = (page: PlanningSpreadPage) =>
  action({
    request: new Request(`http://localhost${page.action}`, {
      method: "POST",
      body: new URLSearchParams({
        linha: page.row?.id ?? "",
        total: page.values.total,
        modo: page.values.mode,
        pesos: page.values.weights,
        state: page.preview?.state ?? "",
      }),
    }),
    params: {},
    context: {},
  } as never);

describe("Distribuir total on the planning grid", () => {
  it("previews whole units with the remainder on the last month, writes nothing, then saves as distributed", async () => {
    const before = await pairRows();
    const page = await preview({ total: "1.000", modo: "igual" });
    expect(page.error).toBeNull();
    expect(page.months).toHaveLength(3);
    expect(page.preview?.rows.map((r) => r.next)).toEqual(["333", "333", "334"]);
    expect(await pairRows()).toEqual(before);

    const answer = (await save(page)) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(page.backHref);
    expect((await readToastFromResponse(answer))?.description).toBe(t.spreadSaved(3));
    expect((await pairRows()).map((r) => r.valor)).toEqual([333, 333, 334]);
    const history = await db.collection(PLANNING_HISTORY).find({ via: "spread" }).toArray();
    expect(history).toHaveLength(3);
    // The same SKU in the other channel is another row: untouched.
    const fss = await db.collection(PLANNING_QUANTITY).find({ sku: SKU, channel: "FSS" }).toArray();
    expect(fss.every((r) => r.revision === undefined || r.revision === 0)).toBe(true);
    expect(await db.collection(AUDIT_LOG).countDocuments({ event: "dataEdited", "details.via": "spread" })).toBe(1);
  });

  it("spreads like the same months a year earlier, and falls back to evenly without them, saying so", async () => {
    const without = await preview({ total: "1.000", modo: "ano_anterior" });
    expect(without.preview?.note).toBe(t.spreadFellBack(t.spreadModes.ano_anterior));
    const [template] = await pairRows();
    const { _id: _ignored, ...fields } = template;
    await db
      .collection(PLANNING_QUANTITY)
      .insertMany([1, 1, 2].map((valor, i) => ({ ...fields, dateRef: new Date(Date.UTC(2025, i, 1)), valor })));
    const page = await preview({ total: "1.000", modo: "ano_anterior" });
    expect(page.preview?.note).toBeNull();
    expect(page.preview?.rows.map((r) => r.next)).toEqual(["250", "250", "500"]);
  });

  it("follows the year before where it has months, spreads evenly only the month it lacks, and names it", async () => {
    const [template] = await pairRows();
    const { _id: _ignored, ...fields } = template;
    // Jan and Feb 2025 only: March takes 1.200 / 3; the other 800 go 1 : 3.
    await db
      .collection(PLANNING_QUANTITY)
      .insertMany([1, 3].map((valor, i) => ({ ...fields, dateRef: new Date(Date.UTC(2025, i, 1)), valor })));
    const page = await preview({ total: "1.200", modo: "ano_anterior" });
    expect(page.preview?.rows.map((r) => r.next)).toEqual(["200", "600", "400"]);
    expect(page.preview?.note).toBe(t.spreadUnbased([page.months[2].label]));
  });

  it("refuses a total that is no whole number from 0 to 1.000.000.000, and weights that do not fit", async () => {
    for (const total of ["12,5", "-1", "abc", "1.000.000.001"]) {
      const page = await preview({ total, modo: "igual" });
      expect(page.error, total).toBe(t.spreadTotalInvalid);
      expect(page.preview).toBeNull();
    }
    const weights = await preview({ total: "10", modo: "pesos", pesos: "1;2" });
    expect(weights.error).toBe(t.spreadWeightsInvalid(3));
    const fit = await preview({ total: "10", modo: "pesos", pesos: "1;0;1" });
    expect(fit.preview?.rows.map((r) => r.next)).toEqual(["5", "0", "5"]);
  });

  it("refuses a save when a row changed since the preview, writing none of them", async () => {
    const page = await preview({ total: "90", modo: "igual" });
    const [, second] = await pairRows();
    await db
      .collection(PLANNING_QUANTITY)
      .updateOne({ _id: second._id }, { $set: { valor: 7 }, $inc: { revision: 1 } });
    const before = await pairRows();
    const answer = dataAnswer<PlanningSpreadPage>(await save(page));
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(t.spreadChanged);
    expect(await pairRows()).toEqual(before);
  });

  it("answers a row outside the filter as unknown, and refuses a type that may not edit the plan", async () => {
    const outside = (await loader({
      request: new Request(
        `${base}?dateStart=2026-02-01&dateEnd=2026-03-31&chanel=FSS&${new URLSearchParams({ linha: rowId })}`,
      ),
      params: {},
      context: {},
    } as never)) as PlanningSpreadPage;
    expect(outside.error).toBe(t.spreadUnknownRow);
    const page = await preview({ total: "90", modo: "igual" });
    currentUser.type = "USER SILVER";
    await expect(save(page)).rejects.toMatchObject({ status: 403 });
    expect((await pairRows()).every((r) => r.revision === undefined || r.revision === 0)).toBe(true);
  });
});
