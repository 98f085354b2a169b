import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { EMBEDDED_IN_PRODUCTION_REFUSED, useConfiguredDatabase } from "./database";

describe("the database a process of the portal uses", () => {
  it("is MONGODB_URI when it is set, and starts nothing", async () => {
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "test",
      MONGODB_URI: "mongodb://db.example:27017/?directConnection=true",
    };
    const database = await useConfiguredDatabase(env);
    expect(database).toMatchObject({ uri: env.MONGODB_URI, embedded: false });
  });

  it("refuses the embedded database in production unless ALLOW_EMBEDDED_DB=1", async () => {
    await expect(useConfiguredDatabase({ NODE_ENV: "production" })).rejects.toThrow(EMBEDDED_IN_PRODUCTION_REFUSED);
  });

  it("without MONGODB_URI starts the embedded server on DATA_DIR/db, names it in MONGODB_URI, and a second process joins it", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-database-"));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir, MONGODB_URI: "" };
    const first = await useConfiguredDatabase(env);
    try {
      expect(first.embedded).toBe(true);
      expect(env.MONGODB_URI).toBe(first.uri);
      const joined = await useConfiguredDatabase({ ...env, MONGODB_URI: "" });
      expect(joined.uri).toBe(first.uri);
      const client = await new MongoClient(first.uri).connect();
      expect((await client.db("admin").command({ ping: 1 })).ok).toBe(1);
      await client.close();
      await joined.stop(); // joined, not started: the server stays up
      const again = await new MongoClient(first.uri, { serverSelectionTimeoutMS: 2_000 }).connect();
      await again.close();
    } finally {
      await first.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
