/**
 * The portal's own data after a restart that leaves its documents cold (packages/embedded-mongo/cold.ts): each
 * declared index walked in its order, a text search and every collection in full answer as before the restart.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { holdWarmUp, startEmbeddedMongo } from "embedded-mongo";
import { BSON, type Db, MongoClient, type Sort } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { useTempDataDir } from "#test/upload-fixtures";
import { allIndexes } from "~/models/all-indexes.server";
import { loadedStatus } from "../packages/embedded-mongo/test-helpers";
import { runSeed } from "./seed-run";

useTempDataDir();
const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), "jp-cold-"));
afterAll(() => {
  holdWarmUp(false);
  fs.rmSync(dbPath, { recursive: true, force: true });
});

async function withPortalDb<T>(work: (db: Db, client: MongoClient) => Promise<T>): Promise<T> {
  const server = await startEmbeddedMongo({ dbPath });
  const client = await new MongoClient(server.uri).connect();
  try {
    return await work(client.db("journey_portal_cold"), client);
  } finally {
    await client.close();
    await server.stop();
  }
}

/** Index-served reads first (they see cold documents), then every collection whole (a scan decodes it). */
async function reads(db: Db): Promise<string[]> {
  const out: string[] = [];
  for (const { collection, key } of allIndexes) {
    if (Object.values(key).includes("text")) continue;
    out.push(
      `${collection} ${JSON.stringify(key)} ${BSON.EJSON.stringify(
        await db
          .collection(collection)
          .find({})
          .sort(key as Sort)
          .limit(40)
          .toArray(),
        { relaxed: false },
      )}`,
    );
  }
  const text = await db
    .collection("explorer_documents")
    .find({ $text: { $search: "relatorio vendas" } }, { projection: { score: { $meta: "textScore" } } })
    .sort({ _id: 1 })
    .toArray();
  out.push(BSON.EJSON.stringify(text, { relaxed: false }));
  for (const name of (await db.listCollections().toArray()).map((c) => c.name).sort()) {
    out.push(
      `${name} ${BSON.EJSON.stringify(await db.collection(name).find({}).sort({ _id: 1 }).toArray(), { relaxed: false })}`,
    );
  }
  return out;
}

describe("the seeded portal after a cold start", () => {
  it("answers every declared index's walk, a text search and every collection as it did before the restart", async () => {
    const before = await withPortalDb(async (db) => {
      await runSeed(db, { scale: 0.01, ifEmpty: false, referenceDate: new Date("2026-03-01T00:00:00Z") }, () => {});
      return reads(db);
    });
    // The stop wrote a snapshot (more than 1 MB of journal): the next start reads it.
    expect(fs.statSync(path.join(dbPath, "journal.log")).size).toBe(0);
    expect(before.length).toBeGreaterThan(allIndexes.length);
    holdWarmUp(true);
    const after = await withPortalDb(async (db, client) => {
      expect((await loadedStatus(client)).embedded.cold).toBeGreaterThan(10_000);
      return reads(db);
    });
    for (let i = 0; i < before.length; i++) expect(after[i]).toBe(before[i]);
  });
});
