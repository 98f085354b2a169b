import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { allIndexes, listedIndexKey } from "~/models/all-indexes.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { FILES } from "~/models/files.server";
import { MASTER_DATA_COLLECTIONS, PRODUCT_MASTER } from "~/models/master-data.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import { LOCAL_USERS, USER_PERMISSIONS } from "~/models/users.server";
import { DEMO_ACCOUNTS, EMPTY_START_COLLECTIONS } from "~/seed/index.server";
import { runSeed, SEED_STATE, SeedRefusedError } from "./seed-run";

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
    const present = (
      await db
        .collection(collection)
        .listIndexes()
        .toArray()
        .catch(() => [])
    ).map((ix) => JSON.stringify(ix.key));
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
    await db
      .collection(USER_PERMISSIONS)
      .insertOne({ _id: "partial", user: "partial@demo.local", type: "USER GOLD" } as never);
    await db
      .collection(SEED_STATE)
      .insertOne({ _id: "demo", state: "started", scale: 0.01, startedAt: new Date("2026-11-01T00:00:00Z") } as never);
    const lines: string[] = [];
    const result = await runSeed(
      db,
      { scale: 0.01, ifEmpty: true, referenceDate: new Date("2026-03-01T00:00:00Z") },
      (line) => lines.push(line),
    );
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

    const result = await runSeed(
      db,
      { scale: 0.01, ifEmpty: false, referenceDate: new Date("2026-03-01T00:00:00Z") },
      () => {},
    );

    expect(result.seeded).toBe(true);
    const users = (await db.collection(USER_PERMISSIONS).find().toArray()).map((u) => u.user);
    expect(users).not.toContain(stale.user);
    expect(users).toEqual(expect.arrayContaining(DEMO_ACCOUNTS.map((a) => a.email)));
    expect(await missingIndexes(db)).toEqual([]);
  });

  it("--empty writes the demo accounts, the dashboard definitions and the catalogue, and no business data", async () => {
    const db = client.db("seed_empty");
    const result = await runSeed(
      db,
      { scale: 1, ifEmpty: true, empty: true, referenceDate: new Date("2026-03-01T00:00:00Z") },
      () => {},
    );
    expect(result.seeded).toBe(true);
    const users = (await db.collection(USER_PERMISSIONS).find().toArray()).map((u) => u.user).sort();
    expect(users).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    expect(await db.collection(LOCAL_USERS).countDocuments()).toBe(DEMO_ACCOUNTS.length);
    expect(await db.collection(DASHBOARDS).countDocuments()).toBeGreaterThan(0);
    expect(await db.collection(MASTER_DATA_COLLECTIONS).countDocuments()).toBeGreaterThan(0);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    for (const name of names) {
      if ((EMPTY_START_COLLECTIONS as readonly string[]).includes(name) || name === SEED_STATE) continue;
      expect(`${name}: ${await db.collection(name).countDocuments()}`).toBe(`${name}: 0`);
    }
    for (const name of [FILES, PRODUCT_MASTER, PLANNING_QUANTITY])
      expect(await db.collection(name).countDocuments()).toBe(0);
    expect(await missingIndexes(db)).toEqual([]);
    // Started again on it: kept as it is.
    const again = await runSeed(db, { scale: 1, ifEmpty: true, empty: true }, () => {});
    expect(again).toEqual({ seeded: false });
    // And the plain demo leaves it alone too.
    expect(await runSeed(db, { scale: 1, ifEmpty: true }, () => {})).toEqual({ seeded: false });
  });

  it("--empty --if-empty refuses a database holding data it did not write, and says so", async () => {
    const own = client.db("seed_empty_refused_own");
    await own.collection(USER_PERMISSIONS).insertOne({ user: "someone@example.com", type: "USER GOLD" });
    await expect(runSeed(own, { scale: 1, ifEmpty: true, empty: true }, () => {})).rejects.toThrow(SeedRefusedError);
    await expect(runSeed(own, { scale: 1, ifEmpty: true, empty: true }, () => {})).rejects.toThrow(
      /already holds data \(user_permissions\)/,
    );
    const files = client.db("seed_empty_refused_files");
    await files.collection("files").insertOne({ originalName: "a.csv" });
    await expect(runSeed(files, { scale: 1, ifEmpty: true, empty: true }, () => {})).rejects.toThrow(
      /already holds data \(files\)/,
    );
    expect(await own.collection(USER_PERMISSIONS).countDocuments()).toBe(1);

    const demo = client.db("seed_empty_refused_demo");
    await demo.collection(USER_PERMISSIONS).insertOne({ user: "someone@example.com", type: "USER GOLD" });
    await demo
      .collection(SEED_STATE)
      .insertOne({ _id: "demo", state: "complete", scale: 1, startedAt: new Date() } as never);
    await expect(runSeed(demo, { scale: 1, ifEmpty: true, empty: true }, () => {})).rejects.toThrow(
      /already holds the demo data/,
    );
  });
});
