import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { allIndexes, applyIndexes, listedIndexKey, retiredIndexes } from "./all-indexes.server";
import { indexes as userIndexes } from "./users.server";

const testDb = useTestDatabase();

describe("applyIndexes", () => {
  it("includes the indexes of every model module", () => {
    const collections = new Set(allIndexes.map((i) => i.collection));
    for (const name of [
      "user_permissions",
      "local_users",
      "dashboards",
      "files",
      "master_data_collections",
      "product_master",
      "planning_quantity",
      "reports",
      "financial_reports",
      "forecast",
      "hr_aux",
      "explorer_documents",
    ]) {
      expect(collections.has(name), name).toBe(true);
    }
    expect(allIndexes).toEqual(expect.arrayContaining(userIndexes));
    const names = allIndexes.map((i) => `${i.collection}.${i.options?.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it("creates every declared index, with its key and uniqueness, and is idempotent", async () => {
    const db = await testDb.db();
    const applied = await applyIndexes(db);
    expect(applied.reduce((s, a) => s + a.names.length, 0)).toBe(allIndexes.length);
    await applyIndexes(db);
    for (const declared of allIndexes) {
      const existing = await db.collection(declared.collection).listIndexes().toArray();
      const found = existing.find((i) => i.name === declared.options?.name);
      expect(found, `${declared.collection}.${declared.options?.name}`).toBeDefined();
      expect(found?.key).toEqual(listedIndexKey(declared.key));
      expect(Boolean(found?.unique)).toBe(Boolean(declared.options?.unique));
    }
  });

  it("drops the indexes a release retired, and no index it does not know", async () => {
    const db = await testDb.db();
    const planning = db.collection("planning_quantity");
    await planning.createIndex({ sku: 1, creationDate: -1 }, { name: "sku_creationDate" });
    await planning.createIndex({ note: 1 }, { name: "added_by_hand" });
    expect(retiredIndexes.map((r) => r.name)).toContain("sku_creationDate");
    const applied = await applyIndexes(db);
    expect(applied.find((a) => a.collection === "planning_quantity")?.dropped).toEqual(["sku_creationDate"]);
    const names = (await planning.listIndexes().toArray()).map((i) => i.name);
    expect(names).not.toContain("sku_creationDate");
    expect(names).toContain("added_by_hand");
    expect((await applyIndexes(db)).some((a) => a.dropped)).toBe(false);
    // A retired index is never one that is declared.
    for (const r of retiredIndexes)
      expect(allIndexes.some((i) => i.collection === r.collection && i.options?.name === r.name)).toBe(false);
  });
});
