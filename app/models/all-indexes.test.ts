import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../test/db";
import { allIndexes, applyIndexes, listedIndexKey } from "./all-indexes.server";
import { indexes as userIndexes } from "./users.server";

const testDb = useTestDatabase();

describe("applyIndexes", () => {
  it("includes the indexes of every model module", () => {
    const collections = new Set(allIndexes.map((i) => i.collection));
    for (const name of ["user_permissions", "local_users", "dashboards", "files", "master_data_collections", "product_master", "planning_quantity", "reports", "financial_reports", "forecast", "hr_aux", "explorer_documents"]) {
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
});
