import { type Db, MongoClient } from "mongodb";
import type { RunningApp } from "./harness";

/** Runs `work` against the app's database with a client of its own, closed afterwards. */
export async function withDb<T>(
  app: Pick<RunningApp, "mongoUri" | "databaseName">,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  const client = new MongoClient(app.mongoUri);
  try {
    await client.connect();
    return await work(client.db(app.databaseName));
  } finally {
    await client.close();
  }
}
