import { type Db, ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { filterMatchesRow, type PlanningFilter, parseFilter } from "~/features/planning/planning";
import { PLANNING_QUANTITY, type PlanningQuantityRow } from "~/models/planning.server";
import {
  PLANNING_ATTRIBUTE_SETS,
  PLANNING_ATTRIBUTE_VALUES,
  rebuildAttributeSets,
  SKU_SET_LIMIT,
  skusOfAttributes,
} from "~/models/planning-attribute-sets.server";
import { countPlanningRows, narrowedPlanningQuery, readPlanningPage } from "~/models/planning-queries.server";
import { applyPlanningUpload } from "~/models/planning-upload.server";
import { PRODUCTS, resetPlanning } from "./fixtures";

const testDb = useTestDatabase();
let db: Db;

beforeEach(async () => {
  db = await testDb.db();
  await resetPlanning(db);
});

function filterOf(text: string): PlanningFilter {
  const parsed = parseFilter(new URLSearchParams(text), "plan");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.filter;
}

async function allRows(): Promise<PlanningQuantityRow[]> {
  return db.collection<PlanningQuantityRow>(PLANNING_QUANTITY).find({}).toArray();
}

/** Every row of every page the screen shows for the filter, and its count, against the row rule over every row. */
async function expectScreenMatchesRule(text: string): Promise<void> {
  const filter = filterOf(text);
  const expected = (await allRows()).filter((r) => filterMatchesRow(filter, r)).map((r) => r._id!.toHexString());
  const shown: string[] = [];
  for (let page = 1; ; page++) {
    const result = await readPlanningPage(filter, page);
    if (result.page !== page) break;
    shown.push(...result.rows.map((r) => r._id.toHexString()));
    expect(result.total).toBe(expected.length);
    if (page >= result.pageCount) break;
  }
  expect(shown.sort()).toEqual(expected.sort());
  expect(await countPlanningRows(filter)).toBe(expected.length);
}

const FILTERS = [
  "chanel=FSS&brand=Aurora+Bela&abcd=B",
  "chanel=FSS&chanel=WHOLESALES&hero=hero&plcLocal=3-Released",
  "chanel=FSS&majorCategory=Makeup&subCategory=Gloss&plcLocal=3-Released&category=L%C3%A1bios&brand=Aurora+Bela&hero=non-hero&abcd=B",
  "chanel=WHOLESALES&abcd=&abcd=A&dateStart=2026-02-01&dateEnd=2026-02-28",
  "chanel=BRANDSITE&brand=Lumina&brand=Vivace",
  "chanel=FSS&brand=Lumina&abcd=B",
];

describe("a filter by attributes reads the SKUs of its attribute sets", () => {
  it("one set per SKU of the plan, none mixed", async () => {
    const sets = await db.collection(PLANNING_ATTRIBUTE_SETS).find({}).sort({ _id: 1 }).toArray();
    expect(sets.map((s) => s._id)).toEqual(PRODUCTS.map((p) => p.sku));
    expect(sets.every((s) => s.mixed === false)).toBe(true);
    expect(sets[1]).toMatchObject({ marca: "Aurora Bela", abcd: "B", hero: "non-hero", sub_categoria_sku: "Gloss" });
  });

  it.each(FILTERS)("%s: the pages and the count hold exactly the rows the rule admits", async (text) => {
    await expectScreenMatchesRule(text);
  });

  it("names the few matching SKUs instead of the attribute conditions, and reads nothing when none matches", async () => {
    const query = await narrowedPlanningQuery(filterOf("chanel=FSS&brand=Aurora+Bela&abcd=B"));
    expect(query).toEqual({ channel: { $in: ["FSS"] }, dateRef: expect.anything(), sku: { $in: ["80000002"] } });
    expect(await narrowedPlanningQuery(filterOf("chanel=FSS&brand=Lumina&abcd=B"))).toBeNull();
    // No attribute: the filter's own query.
    expect(Object.keys((await narrowedPlanningQuery(filterOf("chanel=FSS")))!)).toEqual(["channel", "dateRef"]);
  });

  it("a filter by hero, ABCD or PLC alone names every value of the other two, and still admits a row without one", async () => {
    const query = (await narrowedPlanningQuery(filterOf("chanel=FSS&hero=hero")))!;
    expect(query).toEqual({
      channel: { $in: ["FSS"] },
      dateRef: expect.anything(),
      hero: { $in: ["hero"] },
      abcd: { $in: expect.arrayContaining(["", "A", "B", "C", "D"]) },
      plc_localsku: { $in: expect.arrayContaining(["1-Concept", "3-Released", "4-Launch Event", "5-Phase Out"]) },
    });
    const rows = db.collection(PLANNING_QUANTITY);
    const { _id, abcd: _abcd, ...withoutAbcd } = (await rows.findOne({ sku: "80000001", channel: "FSS" }))!;
    // Loaded outside the portal, then `db:indexes` (which rebuilds the sets and the recorded values from the rows).
    await rows.insertMany([
      { ...withoutAbcd, _id: new ObjectId() },
      { ...withoutAbcd, _id: new ObjectId(), abcd: "A", plc_localsku: null },
    ]);
    await rebuildAttributeSets(db);
    const screens = [
      "chanel=FSS&hero=hero",
      "chanel=FSS&hero=hero&abcd=A",
      "chanel=FSS&abcd=A&page=2",
      "chanel=FSS&chanel=WHOLESALES&plcLocal=3-Released",
    ];
    for (const text of screens) await expectScreenMatchesRule(text);
    const withNull = (await narrowedPlanningQuery(filterOf("chanel=FSS&hero=hero")))!;
    expect((withNull.abcd as { $in: unknown[] }).$in).toContain(null);
    expect((withNull.plc_localsku as { $in: unknown[] }).$in).toContain(null);
    // Without recorded values (a data directory of an older release), the values are read from the rows: the same rows.
    await db.collection(PLANNING_ATTRIBUTE_VALUES).deleteMany({});
    for (const text of screens) await expectScreenMatchesRule(text);
    const fromRows = (await narrowedPlanningQuery(filterOf("chanel=FSS&hero=hero")))!;
    for (const field of ["abcd", "plc_localsku"] as const) {
      const named = (query: typeof withNull) => [...(query[field] as { $in: unknown[] }).$in].map(String).sort();
      expect(named(fromRows)).toEqual(named(withNull));
    }
  });

  it("a value of hero, ABCD or PLC that an upload brings is named at once by the filters of the other two", async () => {
    const row = (await db
      .collection<PlanningQuantityRow>(PLANNING_QUANTITY)
      .findOne({ sku: "80000001", channel: "FSS" }))!;
    await applyPlanningUpload([{ ...row, abcd: "E", plc_localsku: "9-New" }], {
      db,
      file: new ObjectId(),
      user: "u@x",
      now: new Date(),
    });
    const query = (await narrowedPlanningQuery(filterOf("chanel=FSS&hero=hero")))!;
    expect((query.abcd as { $in: unknown[] }).$in).toContain("E");
    expect((query.plc_localsku as { $in: unknown[] }).$in).toContain("9-New");
    for (const text of ["chanel=FSS&hero=hero", "chanel=FSS&plcLocal=9-New", "chanel=FSS&abcd=E"])
      await expectScreenMatchesRule(text);
  });

  it("an upload that changes some rows' attributes makes the SKU mixed: old and new attributes both still find their rows", async () => {
    const row = (await db
      .collection<PlanningQuantityRow>(PLANNING_QUANTITY)
      .findOne({ sku: "80000001", channel: "FSS" }))!;
    const changed = { ...row, marca: "Vivace", abcd: "C" };
    await applyPlanningUpload([changed], { db, file: new ObjectId(), user: "u@x", now: new Date() });
    expect(await db.collection(PLANNING_ATTRIBUTE_SETS).findOne({ _id: "80000001" as never })).toMatchObject({
      mixed: true,
      marca: "Aurora Bela",
    });
    const selection = await skusOfAttributes(db, filterOf("chanel=FSS&brand=Vivace&abcd=C"));
    expect(selection).toEqual({ kind: "skus", skus: expect.arrayContaining(["80000003", "80000001"]), exact: false });
    for (const text of [...FILTERS, "chanel=FSS&brand=Vivace&abcd=C", "chanel=FSS&brand=Aurora+Bela&abcd=A"])
      await expectScreenMatchesRule(text);
    // The rebuild from the rows agrees.
    await rebuildAttributeSets(db);
    expect(await db.collection(PLANNING_ATTRIBUTE_SETS).findOne({ _id: "80000001" as never })).toMatchObject({
      mixed: true,
    });
    expect(await db.collection(PLANNING_ATTRIBUTE_SETS).countDocuments({ mixed: false })).toBe(PRODUCTS.length - 1);
  });

  it("a new SKU uploaded gets its set, so an attribute filter finds its rows", async () => {
    const base = (await db.collection<PlanningQuantityRow>(PLANNING_QUANTITY).findOne({ sku: "80000006" }))!;
    const fresh = { ...base, sku: "80000099", marca: "Nova", channel: "FSS" as const };
    await applyPlanningUpload([fresh], { db, file: new ObjectId(), user: "u@x", now: new Date() });
    expect(await db.collection(PLANNING_ATTRIBUTE_SETS).findOne({ _id: "80000099" as never })).toMatchObject({
      mixed: false,
      marca: "Nova",
    });
    await expectScreenMatchesRule("chanel=FSS&brand=Nova&abcd=A");
  });

  it("with no sets recorded (rows loaded before them) the rows decide alone", async () => {
    await db.collection(PLANNING_ATTRIBUTE_SETS).deleteMany({});
    expect(await skusOfAttributes(db, filterOf("chanel=FSS&brand=Aurora+Bela&abcd=B"))).toBeUndefined();
    for (const text of FILTERS) await expectScreenMatchesRule(text);
  });

  it(`more than ${SKU_SET_LIMIT} matching SKUs: the attribute conditions alone, as before`, async () => {
    const many = Array.from({ length: SKU_SET_LIMIT + 1 }, (_, i) => ({
      ...PRODUCTS[0],
      _id: `9${String(i).padStart(7, "0")}`,
      mixed: false,
    }));
    await db
      .collection(PLANNING_ATTRIBUTE_SETS)
      .insertMany(many.map(({ sku: _sku, material_description: _d, ...set }) => set) as never[]);
    expect(await skusOfAttributes(db, filterOf("chanel=FSS&brand=Aurora+Bela"))).toBeUndefined();
    expect(await skusOfAttributes(db, filterOf("chanel=FSS&brand=Aurora+Bela&abcd=B"))).toEqual({
      kind: "skus",
      skus: ["80000002"],
      exact: true,
    });
    await expectScreenMatchesRule("chanel=FSS&brand=Aurora+Bela");
  });
});
