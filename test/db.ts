import crypto from "node:crypto";
import { type EmbeddedMongo, startEmbeddedMongo } from "embedded-mongo";
import type { Db } from "mongodb";
import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { closeDb, getDb } from "~/db.server";

/**
 * Gives the calling test file its own in-memory embedded server and database:
 *
 *   const testDb = useTestDatabase();
 *   it("...", async () => { const db = await testDb.db(); ... });
 *
 * The app code under test reaches the same database through getDb(), because MONGODB_URI and
 * DATABASE_NAME point at it for the duration of the file.
 */
export function useTestDatabase() {
  let server: EmbeddedMongo | undefined;
  const saved = { uri: process.env.MONGODB_URI, name: process.env.DATABASE_NAME };

  beforeAll(async () => {
    server = await startEmbeddedMongo();
    process.env.MONGODB_URI = server.uri;
    process.env.DATABASE_NAME = `test_${crypto.randomBytes(6).toString("hex")}`;
    resetConfigForTests();
  });

  afterAll(async () => {
    await closeDb();
    await server?.stop();
    restore("MONGODB_URI", saved.uri);
    restore("DATABASE_NAME", saved.name);
    resetConfigForTests();
  });

  return {
    /** The test file's database (the same one getDb() returns to app code). */
    db: (): Promise<Db> => getDb(),
    /** The embedded server's connection string. */
    get uri(): string {
      if (!server)
        throw new Error("useTestDatabase(): the database starts in beforeAll; use it inside tests or hooks.");
      return server.uri;
    },
  };
}

function restore(key: string, value: string | undefined) {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}
