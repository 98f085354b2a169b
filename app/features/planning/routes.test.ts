import { type Db, ObjectId } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { applyMultiplier, PLANNING_PAGE_SIZE } from "~/features/planning/planning";
import { messages } from "~/messages";
import { PLANNING_HISTORY, PLANNING_QUANTITY, PLANNING_SAVES } from "~/models/planning.server";
import { loader as planLoader } from "~/routes/ij.plan";
import { action as planEditAction, loader as planEditLoader } from "~/routes/ij.plan_edit";
import { loader as reportCreateLoader } from "~/routes/ij.report_create";
import { action as reportAction, loader as reportLoader } from "~/routes/ij.report_preview";
import { planningSnapshot, resetPlanning } from "./fixtures";
import { planningTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
let db: Db;

const FILTER = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=attributes&chanel=WHOLESALES&chanel=FSS";
const args = (path: string) => ({ request: new Request(`http://localhost${path}`), params: {}, context: {} as never });
const post = (path: string, body: Record<string, string> | [string, string][] | string) => ({
  request: new Request(`http://localhost${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : new URLSearchParams(body as Record<string, string>),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  }),
  params: {},
  context: {} as never,
});

async function settle(promise: Promise<unknown>): Promise<Response | { status: number; body: unknown }> {
  try {
    const result = await promise;
    if (result instanceof Response) return result;
    // data(): { type: "DataWithResponseInit", data, init }
    const value = result as { data: unknown; init?: { status?: number } | null };
    return { status: value.init?.status ?? 200, body: value.data };
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

const rowsOf = (body: unknown) => (body as { rows: { id: string; revision: number; valor: number }[] }).rows;

/** The fields a page's form posts for an individual save, with `values` typed into some rows. */
function unitarioBody(
  rows: { id: string; revision: number; valor: number }[],
  values: Record<number, string>,
  confirmed = true,
): [string, string][] {
  const fields: [string, string][] = [["intent", "unitario"]];
  if (confirmed) fields.push(["confirmed", "1"]);
  rows.forEach((r, i) => {
    fields.push(
      [`rows[${i}].id`, r.id],
      [`rows[${i}].revision`, String(r.revision)],
      [`rows[${i}].loaded`, String(r.valor)],
      [`rows[${i}].valor`, values[i] ?? String(r.valor)],
    );
  });
  return fields;
}

beforeAll(async () => {
  db = await testDb.db();
});

beforeEach(async () => {
  currentUser.type = "USER GOLD";
  currentUser.email = "gold@example.com";
  await resetPlanning(db);
});

describe("/ij/plan and the report filter", () => {
  it("offers the catalogue's attribute values, sorted, and the SKU list by code prefix", async () => {
    const data = await planLoader(args("/ij/plan"));
    expect(data.options.brand).toEqual(["Aurora Bela", "Lumina", "Vivace"]);
    expect(data.options.abcd).toEqual(["", "A", "B", "C", "D"]);
    expect(data.options.plcLocal).toEqual(["1-Concept", "3-Released", "4-Launch Event", "5-Phase Out"]);
    expect(data.skuResults.map((s) => s.sku)).toEqual([
      "80000001",
      "80000002",
      "80000003",
      "80000004",
      "80000005",
      "80000006",
    ]);
    expect(data.restorable).toBe(true);
    const searched = await planLoader(args("/ij/plan?skuSearch=8000000%35%24"));
    expect(searched.skuResults).toEqual([{ sku: "80000005", description: "COLONIA LUMINA 100ML" }]);
    expect(searched.restorable).toBe(false);
  });

  it("lists at most 500 SKUs (SKU list) and 2000 values per attribute (SKU grouped)", async () => {
    await db.collection("product_master").insertMany(
      Array.from({ length: 2_100 }, (_, i) => ({
        sku: String(81_000_000 + i),
        material_description: `ITEM ${i}`,
        marca: `Marca ${String(i).padStart(4, "0")}`,
        abcd: "A",
      })),
    );
    const data = await planLoader(args("/ij/plan?skuSearch=81"));
    expect(data.skuResults).toHaveLength(500);
    expect(data.skuResults[0].sku).toBe("81000000");
    expect(data.options.brand).toHaveLength(2_000);
    // The results screen checks the chosen values against the catalogue itself, not against the offered lists:
    // a brand the catalogue holds past the 2,000 offered is a filter, two unknown to it are refused.
    const beyond = await planEditLoader(args("/ij/plan_edit?chanel=FSS&brand=Marca+2099&brand=Marca+0001"));
    expect(beyond.filter.brand).toEqual(["Marca 2099", "Marca 0001"]);
    expect(beyond.total).toBe(0);
    const refused = (await settle(
      planEditLoader(args("/ij/plan_edit?chanel=FSS&brand=Marca+0001&brand=Marca+2100")),
    )) as Response;
    expect(refused.status).toBe(302);
    expect((await planLoader(args("/ij/plan?chanel=FSS&brand=Marca+2100&check=1"))).errors).toEqual({
      brand: [planningTexts.unknownValue("Brand", "Marca 2100")],
    });
  });

  it("shows why the results screen sent the filter back (check=1), field by field", async () => {
    const data = await planLoader(args("/ij/plan?dateStart=2026-05-01&dateEnd=2026-04-01&brand=Nope&check=1"));
    expect(data.errors.chanel).toEqual([planningTexts.channelRequired]);
    expect(data.errors.dateEnd).toEqual([planningTexts.dateOrder]);
    const unknown = await planLoader(args("/ij/plan?chanel=FSS&brand=Nope&check=1"));
    expect(unknown.errors).toEqual({ brand: [planningTexts.unknownValue("Brand", "Nope")] });
    expect((await planLoader(args("/ij/plan?chanel=FSS&brand=Nope"))).errors).toEqual({});
  });

  it("the report filter has no channel and keeps every list", async () => {
    const data = await reportCreateLoader(args("/ij/report_create?sku=80000001&brand=Vivace&chanel=FSS"));
    expect(data.values).toMatchObject({ sku: ["80000001"], brand: ["Vivace"], chanel: [] });
    expect(data.selectedSkus).toEqual([{ sku: "80000001", description: "BATOM AURORA 3,5G" }]);
  });
});

describe("/ij/plan_edit loader", () => {
  it("sends a filter without a channel, out of bounds or naming unknown values back to /ij/plan", async () => {
    for (const bad of [
      "dateStart=2026-01-01",
      "chanel=RETAIL",
      "chanel=FSS&dateStart=1900-01-01",
      "chanel=FSS&brand=Nope",
      "chanel=FSS&skuMode=sku&sku=99999999",
    ]) {
      const response = (await settle(planEditLoader(args(`/ij/plan_edit?${bad}&page=2&history=x`)))) as Response;
      expect(response.status, bad).toBe(302);
      const location = new URL(response.headers.get("Location")!, "http://localhost");
      expect(location.pathname).toBe("/ij/plan");
      expect(location.searchParams.get("check")).toBe("1");
      expect(location.searchParams.has("page")).toBe(false);
    }
  });

  it("pages 20 rows newest creationDate first with the count, dates in pt-BR and the period as month/year", async () => {
    const data = await planEditLoader(args(`/ij/plan_edit?${FILTER}`));
    expect(data.total).toBe(36);
    expect(data.rows).toHaveLength(PLANNING_PAGE_SIZE);
    expect(data.period).toBe("jan. de 2026 – mar. de 2026");
    expect(data.rows[0]).toMatchObject({
      sku: "80000001",
      channel: "WHOLESALES",
      valor: 100,
      date: "20 abr 2026",
      month: "jan. de 2026",
      brand: "Aurora Bela",
      preview: null,
    });
    const second = await planEditLoader(args(`/ij/plan_edit?${FILTER}&page=2`));
    expect(second.page).toBe(2);
    expect(second.rows).toHaveLength(16);
    const all = [...data.rows, ...second.rows];
    expect(new Set(all.map((r) => r.id)).size).toBe(36);
    // Past the end: the last page.
    expect((await planEditLoader(args(`/ij/plan_edit?${FILTER}&page=9`))).page).toBe(2);
    expect(data.canWrite).toBe(true);
  });

  it("filters by attributes, by SKUs, and answers No data found with an empty page", async () => {
    const brand = await planEditLoader(args(`/ij/plan_edit?${FILTER}&brand=Vivace&abcd=`));
    expect(brand.total).toBe(6);
    expect(brand.rows.every((r) => r.sku === "80000004")).toBe(true);
    const skus = await planEditLoader(
      args(`/ij/plan_edit?chanel=BRANDSITE&skuMode=sku&sku=80000002&sku=80000005&brand=Vivace`),
    );
    expect(skus.rows.map((r) => r.sku).sort()).toEqual(["80000002", "80000005"]);
    const none = await planEditLoader(args("/ij/plan_edit?chanel=ONLINE_PARTNERS"));
    expect(none).toMatchObject({ total: 0, rows: [] });
  });

  it("previews a group edit from the URL, each value multiplied and rounded", async () => {
    const data = await planEditLoader(
      args(`/ij/plan_edit?${FILTER}&percent=15&op=increase&batchId=${new ObjectId().toHexString()}`),
    );
    expect(data.batch).toMatchObject({ percent: 15, op: "increase", label: "+15% (×1,15)" });
    for (const r of data.rows) expect(r.preview).toBe(applyMultiplier(r.valor, 115));
    const bad = await planEditLoader(args(`/ij/plan_edit?${FILTER}&percent=2000000&op=increase`));
    expect(bad).toMatchObject({ batch: null, groupEdit: true, groupEditErrors: [messages.numberNotValid] });
  });
});

describe("Report generated successfully and the filter's total quantity", () => {
  const withCookie = (path: string, cookie: string) => ({
    ...args(path),
    request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
  });

  it("says it once, after Generate report: not on a reload or a deep link", async () => {
    const generated = (await settle(planEditLoader(args(`/ij/plan_edit?${FILTER}&generated=1&page=2`)))) as Response;
    expect(generated.status).toBe(302);
    const target = generated.headers.get("Location")!;
    expect(target).toBe(`/ij/plan_edit?${FILTER}`);
    const cookie = generated.headers.get("Set-Cookie")!.split(";")[0];
    const landed = (await settle(planEditLoader(withCookie(target, cookie)))) as {
      status: number;
      body: { generated: boolean; total: number };
    };
    expect(landed.body).toMatchObject({ generated: true, total: 36 });
    // The landing clears the cookie: the next request (a reload) carries none and says nothing.
    expect((await planEditLoader(args(target))).generated).toBe(false);
    // A deep link of another filter with a leftover cookie says nothing either.
    const other = (await settle(planEditLoader(withCookie("/ij/plan_edit?chanel=FSS", cookie)))) as {
      body: { generated: boolean };
    };
    expect(other.body.generated).toBe(false);
    const report = (await settle(reportLoader(args("/ij/report_preview?generated=1")))) as Response;
    expect(report.headers.get("Location")).toBe("/ij/report_preview");
    expect(report.headers.get("Set-Cookie")).toContain("jp_generated=");
  });

  it("shows the sum of the filter's quantities (every page), pt-BR, read through an index", async () => {
    const first = await expectIndexedQueries(db, () => planEditLoader(args(`/ij/plan_edit?${FILTER}`)), {
      minDocuments: 1,
    });
    const second = await planEditLoader(args(`/ij/plan_edit?${FILTER}&page=2`));
    const sum = [...first.rows, ...second.rows].reduce((total, r) => total + r.valor, 0);
    expect(sum).toBeGreaterThan(999);
    expect(first.quantity).toBe(sum.toLocaleString("pt-BR"));
    expect(second.quantity).toBe(first.quantity);
    expect((await planEditLoader(args("/ij/plan_edit?chanel=ONLINE_PARTNERS"))).quantity).toBe("0");
  });

  it("keeps the filter's total until its rows change: a save shows the new total at once", async () => {
    const page = rowsOf(await planEditLoader(args(`/ij/plan_edit?${FILTER}`)));
    const before = Number((await planEditLoader(args(`/ij/plan_edit?${FILTER}`))).quantity.replace(/\./g, ""));
    const saved = (await settle(
      planEditAction(post(`/ij/plan_edit?${FILTER}&groupEdit=1`, unitarioBody(page, { 0: String(page[0].valor + 7) }))),
    )) as Response;
    expect(saved.status).toBe(302);
    expect(Number((await planEditLoader(args(`/ij/plan_edit?${FILTER}`))).quantity.replace(/\./g, ""))).toBe(
      before + 7,
    );
  });
});

describe("/ij/plan_edit saves", () => {
  it("unitario: asks for confirmation first, then sets each changed row's valor, stamps it and records old and new", async () => {
    const page = rowsOf(await planEditLoader(args(`/ij/plan_edit?${FILTER}`)));
    const before = await planningSnapshot(db);
    const ask = await settle(
      planEditAction(post(`/ij/plan_edit?${FILTER}`, unitarioBody(page, { 0: "555", 3: "0" }, false))),
    );
    expect(ask).toMatchObject({ status: 200, body: { kind: "confirm", text: planningTexts.confirmIndividual(2) } });
    expect(await planningSnapshot(db)).toEqual(before);

    const started = Date.now();
    const saved = (await settle(
      planEditAction(post(`/ij/plan_edit?${FILTER}&groupEdit=1`, unitarioBody(page, { 0: "555", 3: "0" }))),
    )) as Response;
    expect(saved.status).toBe(302);
    const location = new URL(saved.headers.get("Location")!, "http://localhost");
    expect(location.searchParams.get("groupEdit")).toBeNull();
    const saveId = location.searchParams.get("saved")!;
    expect(saveId).toMatch(/^[0-9a-f]{24}$/);

    const rows = db.collection(PLANNING_QUANTITY);
    const first = await rows.findOne({ _id: before.rows.find((r) => r._id.toHexString() === page[0].id)!._id });
    expect(first).toMatchObject({ valor: 555, revision: 1, updatedBy: "gold@example.com" });
    expect(first!.creationDate.getTime()).toBeGreaterThanOrEqual(started);
    expect(await rows.countDocuments({ revision: 1 })).toBe(2);
    const history = await db.collection(PLANNING_HISTORY).find({}).sort({ old: 1 }).toArray();
    expect(history.map((h) => [h.rowId.toHexString(), h.old, h.new, h.user, h.mode])).toEqual([
      [page[0].id, page[0].valor, 555, "gold@example.com", "unitario"],
      [page[3].id, page[3].valor, 0, "gold@example.com", "unitario"],
    ]);
    expect(await db.collection(PLANNING_SAVES).findOne({})).toMatchObject({
      mode: "unitario",
      status: "done",
      modified: 2,
      screen: "plan_edit",
    });

    // The page shows the confirmation, and the saved rows first (newest creationDate).
    const after = await planEditLoader(args(`/ij/plan_edit?${FILTER}&saved=${saveId}`));
    expect(after.saved).toEqual({ title: messages.editingSaved, details: planningTexts.savedRows(2), conflicts: [] });
    expect(
      after.rows
        .slice(0, 2)
        .map((r) => r.valor)
        .sort(),
    ).toEqual([0, 555]);
    // Someone else's save id shows nothing.
    currentUser.email = "other@example.com";
    expect((await planEditLoader(args(`/ij/plan_edit?${FILTER}&saved=${saveId}`))).saved).toBeNull();
  });

  it("unitario: a row changed since the page was loaded is refused and named; the others are saved", async () => {
    const page = rowsOf(await planEditLoader(args(`/ij/plan_edit?${FILTER}`)));
    // Someone saves row 1 meanwhile.
    await settle(planEditAction(post(`/ij/plan_edit?${FILTER}`, unitarioBody(page, { 1: "999" }))));
    const before = await planningSnapshot(db);

    const alone = await settle(planEditAction(post(`/ij/plan_edit?${FILTER}`, unitarioBody(page, { 1: "5" }))));
    expect(alone).toMatchObject({ status: 409, body: { kind: "error", message: planningTexts.conflictIntro } });
    const conflicts = (alone as { body: { conflicts: { id: string; text: string }[] } }).body.conflicts;
    expect(conflicts).toEqual([
      { id: page[1].id, text: planningTexts.conflictRow("80000001 · WHOLESALES · fev. de 2026", "999") },
    ]);
    expect(await planningSnapshot(db)).toEqual(before);

    const mixed = (await settle(
      planEditAction(post(`/ij/plan_edit?${FILTER}`, unitarioBody(page, { 1: "5", 2: "6" }))),
    )) as Response;
    expect(mixed.status).toBe(302);
    const saveId = new URL(mixed.headers.get("Location")!, "http://localhost").searchParams.get("saved");
    const shown = await planEditLoader(args(`/ij/plan_edit?${FILTER}&saved=${saveId}`));
    expect(shown.saved?.details).toBe(planningTexts.savedRows(1));
    expect(shown.saved?.conflicts.map((c) => c.id)).toEqual([page[1].id]);
    const rows = db.collection(PLANNING_QUANTITY);
    expect(
      (await rows.findOne({ sku: "80000001", channel: "WHOLESALES", dateRef: new Date("2026-02-01T00:00:00Z") }))
        ?.valor,
    ).toBe(999);
    expect(
      (await rows.findOne({ sku: "80000001", channel: "WHOLESALES", dateRef: new Date("2026-03-01T00:00:00Z") }))
        ?.valor,
    ).toBe(6);
  });

  it("lote: ONE update over the whole filter (every page), rounded half up, stamped, recorded once with its counts", async () => {
    const data = await planEditLoader(
      args(`/ij/plan_edit?${FILTER}&percent=15&op=increase&batchId=${new ObjectId().toHexString()}`),
    );
    const before = await planningSnapshot(db);
    const body = { intent: "lote", percent: "15", op: "increase", loadedAt: data.loadedAt, batchId: data.batch!.id };
    const ask = await settle(planEditAction(post(`/ij/plan_edit?${FILTER}&percent=15&op=increase`, body)));
    expect(ask).toMatchObject({
      status: 200,
      body: { kind: "confirm", text: planningTexts.confirmBatch("+15% (×1,15)", 36) },
    });
    expect(await planningSnapshot(db)).toEqual(before);

    const saved = (await settle(
      planEditAction(post(`/ij/plan_edit?${FILTER}&percent=15&op=increase&page=2`, { ...body, confirmed: "1" })),
    )) as Response;
    expect(saved.status).toBe(302);
    const location = new URL(saved.headers.get("Location")!, "http://localhost");
    expect([location.searchParams.get("percent"), location.searchParams.get("page")]).toEqual([null, null]);

    const after = await db.collection(PLANNING_QUANTITY).find({}).sort({ _id: 1 }).toArray();
    after.forEach((row, i) => {
      const old = before.rows[i];
      if (old.channel === "BRANDSITE") expect(row, "outside the filter").toEqual(old);
      else {
        expect(row.valor, `${old.valor} × 1.15`).toBe(applyMultiplier(old.valor, 115));
        expect(row.revision).toBe(1);
        expect(row.updatedBy).toBe("gold@example.com");
        expect(row.creationDate.getTime()).toBeGreaterThan(old.creationDate.getTime());
      }
    });
    const saves = await db.collection(PLANNING_SAVES).find({}).toArray();
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({
      mode: "lote",
      status: "done",
      matched: 36,
      modified: 36,
      batch: { percent: 15, op: "increase", multiplier: 115 },
      user: "gold@example.com",
    });
    expect(saves[0].filter).toMatchObject({ chanel: ["WHOLESALES", "FSS"], dateStart: "2026-01-01" });
    // Each changed row keeps its old and new valor.
    expect(await db.collection(PLANNING_HISTORY).countDocuments({ mode: "lote", saveId: saves[0]._id })).toBe(36);

    // A decrease of 100 % sets everything to zero; a batch over a page read before a change is refused.
    const stale = await settle(
      planEditAction(
        post(`/ij/plan_edit?${FILTER}`, {
          intent: "lote",
          percent: "100",
          op: "decrease",
          loadedAt: data.loadedAt,
          batchId: new ObjectId().toHexString(),
          confirmed: "1",
        }),
      ),
    );
    expect(stale).toMatchObject({ status: 409, body: { message: planningTexts.batchStale } });
    const fresh = await planEditLoader(args(`/ij/plan_edit?${FILTER}`));
    await settle(
      planEditAction(
        post(`/ij/plan_edit?${FILTER}`, {
          intent: "lote",
          percent: "100",
          op: "decrease",
          loadedAt: fresh.loadedAt,
          batchId: new ObjectId().toHexString(),
          confirmed: "1",
        }),
      ),
    );
    expect(
      await db.collection(PLANNING_QUANTITY).countDocuments({ channel: { $in: ["WHOLESALES", "FSS"] }, valor: 0 }),
    ).toBe(36);
  });

  it("a row's history shows its individual saves and batches (old → new), and the batches of older releases that covered it", async () => {
    const page = rowsOf(await planEditLoader(args(`/ij/plan_edit?${FILTER}`)));
    await settle(planEditAction(post(`/ij/plan_edit?${FILTER}`, unitarioBody(page, { 0: "200" }))));
    const fresh = await planEditLoader(args(`/ij/plan_edit?${FILTER}`));
    await settle(
      planEditAction(
        post(`/ij/plan_edit?${FILTER}&brand=Aurora%20Bela`, {
          intent: "lote",
          percent: "10",
          op: "increase",
          loadedAt: fresh.loadedAt,
          batchId: new ObjectId().toHexString(),
          confirmed: "1",
        }),
      ),
    );
    // A batch on another brand did not touch it.
    await settle(
      planEditAction(
        post(`/ij/plan_edit?${FILTER}&brand=Vivace`, {
          intent: "lote",
          percent: "50",
          op: "decrease",
          loadedAt: new Date().toISOString(),
          batchId: new ObjectId().toHexString(),
          confirmed: "1",
        }),
      ),
    );

    const data = await planEditLoader(args(`/ij/plan_edit?${FILTER}&history=${page[0].id}`));
    expect(data.history?.label).toBe("80000001 · WHOLESALES · jan. de 2026");
    expect(data.history?.current).toBe(planningTexts.historyCurrent("220"));
    expect(data.history?.entries.map((e) => [e.mode, e.change, e.user])).toEqual([
      ["lote", planningTexts.historyBatchRowChange("+10% (×1,1)", "200", "220"), "gold@example.com"],
      ["unitario", `${page[0].valor} → 200`, "gold@example.com"],
    ]);
    // A batch recorded before rows kept their own records shows what it kept: the factor and how many rows.
    const older = await db.collection(PLANNING_SAVES).findOne({ mode: "lote", "batch.percent": 10 });
    await db.collection(PLANNING_SAVES).updateOne({ _id: older!._id }, { $unset: { rowHistory: "" } });
    await db.collection(PLANNING_HISTORY).deleteMany({ saveId: older!._id });
    const legacy = await planEditLoader(args(`/ij/plan_edit?${FILTER}&history=${page[0].id}`));
    expect(legacy.history?.entries[0].change).toBe(planningTexts.historyBatchChange("+10% (×1,1)", 12));
    expect(data.history?.entries[0].at).toMatch(/^\d{2} [a-z]{3} \d{2} \d{2}:\d{2}:\d{2}$/);
    // A row outside the filter has no history here.
    const brandsite = await db.collection(PLANNING_QUANTITY).findOne({ channel: "BRANDSITE" });
    expect(
      (await planEditLoader(args(`/ij/plan_edit?${FILTER}&history=${brandsite!._id.toHexString()}`))).history,
    ).toMatchObject({ label: planningTexts.historyNotFound, entries: [] });
  });
});

describe("a save sent again", () => {
  it("lote: the preview's save id is spent by the save; Back's preview, a reload of it or the same form again are refused", async () => {
    const batchId = "6ae64f1c0a1b2c3d4e5f6071";
    const previewUrl = `/ij/plan_edit?${FILTER}&percent=10&op=increase&batchId=${batchId}`;
    const preview = await planEditLoader(args(previewUrl));
    expect(preview.batch).toMatchObject({ percent: 10, op: "increase", id: batchId });
    const before = await planningSnapshot(db);
    const body = { intent: "lote", percent: "10", op: "increase", loadedAt: preview.loadedAt, batchId, confirmed: "1" };
    const saved = (await settle(planEditAction(post(previewUrl, body)))) as Response;
    expect(saved.status).toBe(302);
    // With JavaScript the saved grid replaces the preview in the history.
    expect(saved.headers.get("X-Remix-Replace")).toBe("true");
    const once = await db.collection(PLANNING_QUANTITY).find({}).sort({ _id: 1 }).toArray();
    const inFilter = before.rows.filter((r) => r.channel !== "BRANDSITE");
    expect(inFilter.map((r) => once.find((o) => o._id.equals(r._id))!.valor)).toEqual(
      inFilter.map((r) => applyMultiplier(r.valor, 110)),
    );

    // Every row keeps its value before and after, and its history shows them.
    const history = await db.collection(PLANNING_HISTORY).find({ mode: "lote" }).toArray();
    expect(history).toHaveLength(inFilter.length);
    for (const row of inFilter) {
      expect(history.find((h) => h.rowId.equals(row._id))).toMatchObject({
        old: row.valor,
        new: applyMultiplier(row.valor, 110),
        user: "gold@example.com",
        screen: "plan_edit",
      });
    }
    const shown = await planEditLoader(args(`/ij/plan_edit?${FILTER}&history=${inFilter[0]._id.toHexString()}`));
    expect(shown.history?.entries.map((e) => [e.mode, e.change])).toEqual([
      [
        "lote",
        planningTexts.historyBatchRowChange(
          "+10% (×1,1)",
          inFilter[0].valor.toLocaleString("pt-BR"),
          applyMultiplier(inFilter[0].valor, 110).toLocaleString("pt-BR"),
        ),
      ],
    ]);

    // Back to the preview's address: the saved grid, without the preview.
    const back = await planEditLoader(args(previewUrl));
    expect(back.batch).toBeNull();
    expect(back.rows.every((r) => r.preview === null)).toBe(true);

    // The form sent again, as it was and as a reloaded preview would send it (a fresh loadedAt): 409, nothing changes.
    const after = await planningSnapshot(db);
    for (const replay of [
      body,
      { ...body, loadedAt: new Date().toISOString() },
      { ...body, loadedAt: new Date().toISOString(), confirmed: "" },
    ]) {
      const outcome = await settle(planEditAction(post(previewUrl, replay)));
      expect(outcome).toMatchObject({ status: 409, body: { kind: "error", message: planningTexts.batchStale } });
    }
    expect(await planningSnapshot(db)).toEqual(after);
  });

  it("lote: a preview without a save id gets one (a new one each time), and a batch save must name one", async () => {
    const first = await settle(planEditLoader(args(`/ij/plan_edit?${FILTER}&percent=10&op=increase`)));
    expect(first).toBeInstanceOf(Response);
    const id = new URL((first as Response).headers.get("Location")!, "http://localhost").searchParams.get("batchId");
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const second = (await settle(planEditLoader(args(`/ij/plan_edit?${FILTER}&percent=10&op=increase`)))) as Response;
    expect(new URL(second.headers.get("Location")!, "http://localhost").searchParams.get("batchId")).not.toBe(id);
    const before = await planningSnapshot(db);
    const { loadedAt } = await planEditLoader(args(`/ij/plan_edit?${FILTER}`));
    const outcome = await settle(
      planEditAction(
        post(`/ij/plan_edit?${FILTER}`, { intent: "lote", percent: "10", op: "increase", loadedAt, confirmed: "1" }),
      ),
    );
    expect(outcome).toMatchObject({ status: 400, body: { kind: "error", message: messages.badRequest } });
    expect(await planningSnapshot(db)).toEqual(before);
  });
});

describe("bad input changes nothing", () => {
  it("is refused with a clear message, never a 500, and leaves the collections as they were", async () => {
    const page = rowsOf(await planEditLoader(args(`/ij/plan_edit?${FILTER}`)));
    const { loadedAt } = await planEditLoader(args(`/ij/plan_edit?${FILTER}`));
    const brandsite = await db.collection(PLANNING_QUANTITY).findOne({ channel: "BRANDSITE" });
    const outside = [{ id: brandsite!._id.toHexString(), revision: 0, valor: brandsite!.valor }];
    const lote = (percent: string, op = "increase") => ({
      intent: "lote",
      percent,
      op,
      loadedAt,
      batchId: "6ae64f1c0a1b2c3d4e5f6071",
      confirmed: "1",
    });
    const cases: [string, string, Record<string, string> | [string, string][] | string, number, string][] = [
      ["empty body", FILTER, "", 400, messages.badRequest],
      ["forged intent", FILTER, { intent: "deleteAll" }, 400, messages.badRequest],
      ["forged conform state", FILTER, { intent: "unitario", __intent__: "{not json" }, 400, messages.badRequest],
      ["negative quantity", FILTER, unitarioBody(page, { 0: "-5" }), 400, messages.numberNotValid],
      ["fractional quantity", FILTER, unitarioBody(page, { 0: "10.5" }), 400, messages.numberNotValid],
      ["text quantity", FILTER, unitarioBody(page, { 0: "dez" }), 400, messages.numberNotValid],
      ["empty quantity", FILTER, unitarioBody(page, { 0: "" }), 400, messages.numberNotValid],
      ["huge quantity", FILTER, unitarioBody(page, { 0: "99999999999" }), 400, messages.numberNotValid],
      ["nothing changed", FILTER, unitarioBody(page, {}), 400, planningTexts.nothingChanged],
      ["duplicate ids", FILTER, unitarioBody([page[0], page[0]], { 0: "1", 1: "2" }), 400, messages.badRequest],
      [
        "more rows than a page",
        FILTER,
        unitarioBody([...page, ...page.slice(0, 1)], { 0: "1" }),
        400,
        messages.badRequest,
      ],
      ["forged id", FILTER, unitarioBody([{ ...page[0], id: "$where" }], { 0: "1" }), 400, messages.badRequest],
      ["row outside the filter", FILTER, unitarioBody(outside, { 0: "1" }), 400, planningTexts.rowsOutsideFilter],
      ["percentage over 1,000,000", FILTER, lote("1000001"), 400, messages.numberNotValid],
      ["percentage below 0", FILTER, lote("-1"), 400, messages.numberNotValid],
      ["fractional percentage", FILTER, lote("10.5"), 400, messages.numberNotValid],
      ["text percentage", FILTER, lote("dez"), 400, messages.numberNotValid],
      ["decrease over 100", FILTER, lote("150", "decrease"), 400, planningTexts.decreaseTooLarge],
      ["unknown direction", FILTER, lote("10", "double"), 400, messages.numberNotValid],
      ["forged loadedAt", FILTER, { ...lote("10"), loadedAt: '{"$gt":""}' }, 400, messages.badRequest],
      ["unknown channel", "chanel=RETAIL", lote("10"), 400, planningTexts.filterInvalid],
      ["no channel", "dateStart=2026-01-01", lote("10"), 400, planningTexts.filterInvalid],
      ["unknown attribute value", `${FILTER}&brand=Nope`, lote("10"), 400, planningTexts.filterInvalid],
      [
        "operator as a value",
        `${FILTER}&brand=%7B%22%24ne%22%3A%22%22%7D`,
        lote("10"),
        400,
        planningTexts.filterInvalid,
      ],
      [
        "date out of bounds",
        "chanel=FSS&dateStart=2026-01-01&dateEnd=2031-01-01",
        lote("10"),
        400,
        planningTexts.filterInvalid,
      ],
      [
        "dates in the wrong order",
        "chanel=FSS&dateStart=2026-03-01&dateEnd=2026-01-01",
        lote("10"),
        400,
        planningTexts.filterInvalid,
      ],
    ];
    const before = await planningSnapshot(db);
    for (const [name, filter, body, status, message] of cases) {
      const outcome = await settle(planEditAction(post(`/ij/plan_edit?${filter}`, body)));
      expect(outcome, name).toMatchObject({ status, body: { kind: "error", message } });
    }
    expect(await planningSnapshot(db)).toEqual(before);
  });

  it("marks the rows whose quantity is wrong and sends back what was typed", async () => {
    const page = rowsOf(await planEditLoader(args(`/ij/plan_edit?${FILTER}`)));
    const outcome = await settle(
      planEditAction(post(`/ij/plan_edit?${FILTER}`, unitarioBody(page, { 0: "7", 2: "-1" }))),
    );
    expect(outcome).toMatchObject({
      status: 400,
      body: { rowErrors: { [page[2].id]: messages.numberNotValid }, values: { [page[0].id]: "7", [page[2].id]: "-1" } },
    });
  });
});

describe("/ij/report_preview", () => {
  const REPORT = "dateStart=2026-01-01&dateEnd=2026-03-31";

  it("counts the page index from 0 in the URL, every channel, and lets the planning types save", async () => {
    const first = await reportLoader(args(`/ij/report_preview?${REPORT}&page=0`));
    expect(first).toMatchObject({ page: 1, total: 42, canWrite: true });
    expect(first.summary[0]).toEqual({ label: "Channel", values: planningTexts.allChannels });
    expect((await reportLoader(args(`/ij/report_preview?${REPORT}`))).page).toBe(1);
    const second = await reportLoader(args(`/ij/report_preview?${REPORT}&page=1`));
    expect(second.page).toBe(2);
    expect(second.rows[0].id).not.toBe(first.rows[0].id);
    const third = await reportLoader(args(`/ij/report_preview?${REPORT}&page=2`));
    expect(third.page).toBe(3);
    expect(third.rows).toHaveLength(42 - 2 * PLANNING_PAGE_SIZE);

    const saved = (await settle(
      reportAction(post(`/ij/report_preview?${REPORT}`, unitarioBody(rowsOf(first), { 0: "1" }))),
    )) as Response;
    expect(saved.status).toBe(302);
    expect(await db.collection(PLANNING_SAVES).findOne({})).toMatchObject({
      screen: "report_preview",
      channels: ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"],
    });
  });

  it("is read-only for USER SILVER: no batch preview, and the server refuses the saves", async () => {
    currentUser.type = "USER SILVER";
    const data = await reportLoader(args(`/ij/report_preview?${REPORT}&percent=10&op=increase&groupEdit=1`));
    expect(data).toMatchObject({ canWrite: false, batch: null, groupEdit: false });
    const before = await planningSnapshot(db);
    for (const body of [
      unitarioBody(rowsOf(data), { 0: "1" }),
      { intent: "lote", percent: "10", op: "increase", loadedAt: data.loadedAt, confirmed: "1" },
      "",
    ]) {
      const refused = (await settle(reportAction(post(`/ij/report_preview?${REPORT}`, body)))) as Response;
      expect(refused.status).toBe(403);
    }
    expect(await planningSnapshot(db)).toEqual(before);
    // And the planning screens are not theirs at all.
    expect(((await settle(planEditLoader(args(`/ij/plan_edit?${FILTER}`)))) as Response).status).toBe(403);
  });
});
