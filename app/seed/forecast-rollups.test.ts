import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_ROLLUPS, foldRollups, type RollupSource, readRollups } from "~/models/forecast-consolidated.server";
import { seedDatabase } from "./index.server";

/** The seed's rollups are the rollups of the records it wrote (one pass folds what is written), scenario by scenario. */

const testDb = useTestDatabase();
useTempDataDir();

describe("the seeded forecast rollups", () => {
  it("equal a fold of the seeded records, for every scenario and cost centre", async () => {
    const db = await testDb.db();
    await seedDatabase(db, {
      scale: 0.01,
      referenceDate: new Date("2026-03-01T00:00:00Z"),
      tenantId: "t",
      bucket: "local",
    });
    const records = await db.collection<RollupSource>(FORECAST).find({}).toArray();
    const fresh = foldRollups(records);
    const rfs = [...new Set(fresh.map((r) => r.rf))];
    const stored = await readRollups(rfs, null);
    expect(await db.collection(FORECAST_ROLLUPS).countDocuments()).toBe(fresh.length);
    const key = (r: { rf: string; cost_center_concat: string }) => `${r.rf}|${r.cost_center_concat}`;
    const byAccount = (list: { account: string }[]) => [...list].sort((a, b) => a.account.localeCompare(b.account));
    const storedBy = new Map(stored.map((r) => [key(r), r]));
    for (const rollup of fresh) {
      const found = storedBy.get(key(rollup));
      expect(found, key(rollup)).toBeDefined();
      expect(byAccount(found!.accounts), key(rollup)).toEqual(byAccount(rollup.accounts));
      expect(found!.first_month).toEqual(rollup.first_month);
    }
  });
});
