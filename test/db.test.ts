import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { getDb } from "~/db.server";
import { useTestDatabase } from "./db";

const testDb = useTestDatabase();

describe("useTestDatabase", () => {
  it("points the app's getDb() at this file's own in-memory database", async () => {
    const db = await testDb.db();
    expect(db.databaseName).toMatch(/^test_[0-9a-f]{12}$/);
    expect(getConfig().mongodbUri).toBe(testDb.uri);
    await db.collection("probe").insertOne({ hello: "mundo" });
    const viaApp = await getDb();
    expect(await viaApp.collection("probe").findOne({}, { projection: { _id: 0 } })).toEqual({ hello: "mundo" });
  });
});
