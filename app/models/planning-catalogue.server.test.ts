import type { Db } from "mongodb";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { planningTexts } from "~/messages";
import type { PlanningFilter } from "~/models/planning.fields";
import { PRODUCT_MASTER } from "./master-data.server";
import { checkFilterAgainstCatalogue, KNOWN_VALUES_MS } from "./planning-catalogue.server";

const testDb = useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await testDb.db();
  await db.collection(PRODUCT_MASTER).insertMany([
    { sku: "80000001", marca: "Aurora", abcd: "A" },
    { sku: "80000002", marca: "Vivace", abcd: "B" },
  ]);
});

afterEach(() => vi.useRealTimers());

const filterOf = (brand: string[], abcd: string[] = []): PlanningFilter =>
  ({
    chanel: ["FSS"],
    sku: [],
    brand,
    category: [],
    hero: [],
    majorCategory: [],
    abcd,
    subCategory: [],
    plcLocal: [],
  }) as unknown as PlanningFilter;

describe("the planning filter's values, checked against the catalogue", () => {
  it("knows a value added to the catalogue at once, though the values it keeps were read before", async () => {
    expect(await checkFilterAgainstCatalogue(filterOf(["Aurora"], ["A"]))).toEqual({});
    await db.collection(PRODUCT_MASTER).insertOne({ sku: "80000003", marca: "Nova", abcd: "C" });
    expect(await checkFilterAgainstCatalogue(filterOf(["Aurora", "Nova"], ["C"]))).toEqual({});
    expect(await checkFilterAgainstCatalogue(filterOf(["Nope"], ["Z"]))).toEqual({
      brand: [planningTexts.unknownValue(planningTexts.attributes.brand, "Nope")],
      abcd: [planningTexts.unknownValue(planningTexts.attributes.abcd, "Z")],
    });
  });

  it(`takes a value removed from the catalogue for ${KNOWN_VALUES_MS / 1000} s after its values were read, and refuses it after`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // Past what the first test kept: the values are read again now.
    vi.setSystemTime(Date.now() + 2 * KNOWN_VALUES_MS);
    const readAt = Date.now();
    expect(await checkFilterAgainstCatalogue(filterOf(["Vivace"]))).toEqual({});
    await db.collection(PRODUCT_MASTER).deleteMany({ marca: "Vivace" });
    vi.setSystemTime(readAt + KNOWN_VALUES_MS - 1);
    expect(await checkFilterAgainstCatalogue(filterOf(["Vivace"]))).toEqual({});
    vi.setSystemTime(readAt + KNOWN_VALUES_MS);
    expect(await checkFilterAgainstCatalogue(filterOf(["Vivace"]))).toEqual({
      brand: [planningTexts.unknownValue(planningTexts.attributes.brand, "Vivace")],
    });
  });
});
