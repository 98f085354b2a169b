import { MongoClient, type Db } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allIndexes, listedIndexKey } from "~/models/all-indexes.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { DEMO_ACCOUNTS } from "~/seed/index.server";
import { useTestDatabase } from "../test/db";
import { useTempDataDir } from "../app/features/uploads-and-jobs/test-helpers";
import { runSeed, SEED_STATE } from "./seed-run";

const testDb = useTestDatabase();
useTempDataDir();
let client: MongoClient;
beforeAll(async () => {
  client = await new MongoClient(testDb.uri).connect();
});
afterAll(async () => {
  await client.close();
});

async function missingIndexes(db: Db): Promise<string[]> {
  const missing: string[] = [];
  for (const { collection, key } of allIndexes) {
    const present = (await db.collection(collection).listIndexes().toArray().catch(() => [])).map((ix) => JSON.stringify(ix.key));
    if (!present.includes(JSON.stringify(listedIndexKey(key)))) missing.push(`${collection} ${JSON.stringify(key)}`);
  }
  return missing;
}

describe("runSeed", () => {
  it("with --if-empty on a database that has data, leaves the data alone but applies every declared index", async () => {
    const db = client.db("seed_existing");
    const existing = { _id: "kept", user: "someone@demo.local", type: "USER GOLD" };
    await db.collection(USER_PERMISSIONS).insertOne(existing as never);
    expect((await missingIndexes(db)).length).toBeGreaterThan(0);

    const lines: string[] = [];
    const result = await runSeed(db, { scale: 1, ifEmpty: true }, (line) => lines.push(line));

    expect(result).toEqual({ seeded: false });
    expect(lines.join("\n")).toContain("seed skipped, indexes applied");
    expect(await db.collection(USER_PERMISSIONS).find().toArray()).toEqual([existing]);
    expect(await missingIndexes(db)).toEqual([]);
  });

  it("with --if-empty seeds again over a seed that never finished, and records the finished one", async () => {
    const db = client.db("seed_interrupted");
    // What a seed cut short leaves: the accounts written, the state still "started", the large bases missing.
    await db.collection(USER_PERMISSIONS).insertOne({ _id: "partial", user: "partial@demo.local", type: "USER GOLD" } as never);
    await db.collection(SEED_STATE).insertOne({ _id: "demo", state: "started", scale: 0.01, startedAt: new Date("2026-11-01T00:00:00Z") } as never);
    const lines: string[] = [];
    const result = await runSeed(db, { scale: 0.01, ifEmpty: true, referenceDate: new Date("2026-03-01T00:00:00Z") }, (line) => lines.push(line));
    expect(result.seeded).toBe(true);
    expect(lines.join("\n")).toContain("never finished");
    expect(await db.collection(USER_PERMISSIONS).findOne({ _id: "partial" as never })).toBeNull();
    expect(await db.collection(SEED_STATE).findOne({ _id: "demo" as never })).toMatchObject({ state: "complete" });
    // Finished: the next --if-empty leaves it alone.
    const again = await runSeed(db, { scale: 0.01, ifEmpty: true }, () => {});
    expect(again).toEqual({ seeded: false });
  });

  it("without --if-empty replaces earlier data, even data the unique indexes would refuse", async () => {
    const db = client.db("seed_rewrite");
    const stale = { user: "stale@demo.local", type: "USER GOLD" };
    await db.collection(USER_PERMISSIONS).insertMany([{ ...stale }, { ...stale }]);

    const result = await runSeed(db, { scale: 0.01, ifEmpty: false, referenceDate: new Date("2026-03-01T00:00:00Z") }, () => {});

    expect(result.seeded).toBe(true);
    const users = (await db.collection(USER_PERMISSIONS).find().toArray()).map((u) => u.user);
    expect(users).not.toContain(stale.user);
    expect(users).toEqual(expect.arrayContaining(DEMO_ACCOUNTS.map((a) => a.email)));
    expect(await missingIndexes(db)).toEqual([]);
  });
});
