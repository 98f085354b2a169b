import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { applyMultiplier, filterMatchesRow, parseFilter, QUANTITY_MAX } from "~/features/planning/planning";
import { PLANNING_QUANTITY, type PlanningQuantityRow } from "~/models/planning.server";
import { batchValorExpression, planningQuery } from "~/models/planning-queries.server";
import { planningRows, resetPlanning } from "./fixtures";

const testDb = useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await testDb.db();
  await resetPlanning(db);
});

describe("the planning query and the row rule agree", () => {
  const filters = [
    "chanel=FSS",
    "chanel=FSS&chanel=WHOLESALES&dateStart=2026-02-15&dateEnd=2026-03-01",
    "chanel=BRANDSITE&brand=Lumina&brand=Vivace",
    "chanel=WHOLESALES&abcd=&abcd=A&hero=hero",
    "chanel=FSS&skuMode=sku&sku=80000003&sku=80000006",
    "chanel=FSS&majorCategory=Makeup&subCategory=Gloss&plcLocal=3-Released&category=L%C3%A1bios",
    "chanel=FSS&dateStart=2026-04-01",
  ];
  it.each(filters)("%s", async (text) => {
    const parsed = parseFilter(new URLSearchParams(text), "plan");
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const found = await db
      .collection<PlanningQuantityRow>(PLANNING_QUANTITY)
      .find(planningQuery(parsed.filter))
      .toArray();
    const expected = planningRows().filter((r) => filterMatchesRow(parsed.filter, r));
    expect(found.map((r) => r._id.toHexString()).sort()).toEqual(expected.map((r) => r._id!.toHexString()).sort());
  });

  it("every filter has channel $in and a dateRef range first, whatever was chosen (one query shape for the indexes)", () => {
    const parsed = parseFilter(new URLSearchParams("sku=80000001"), "report");
    if (!parsed.ok) throw new Error("valid");
    const query = planningQuery(parsed.filter);
    expect(Object.keys(query)).toEqual(["channel", "dateRef", "sku"]);
    expect(query.channel).toEqual({ $in: ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"] });
  });
});

describe("the batch expression, evaluated by the database", () => {
  it("gives exactly the preview's rounding for every value and factor", async () => {
    const values = [0, 1, 2, 3, 5, 7, 15, 25, 29, 99, 100, 101, 333, 4_999, 123_456, QUANTITY_MAX - 1, QUANTITY_MAX];
    const multipliers = [0, 1, 49, 50, 51, 90, 99, 100, 101, 110, 115, 150, 250, 1_000_100];
    const coll = db.collection<{ m: number; v: number; valor: number }>("planning_rounding");
    for (const m of multipliers) {
      await coll.insertMany(values.map((v) => ({ m, v, valor: v })));
      await coll.updateMany({ m }, [{ $set: { valor: batchValorExpression(m) } }]);
    }
    for (const doc of await coll.find({}).toArray()) {
      expect(doc.valor, `${doc.v} × ${doc.m}/100`).toBe(applyMultiplier(doc.v, doc.m));
      expect(Number.isInteger(doc.valor)).toBe(true);
    }
  });
});
