import path from "node:path";
import { MongoClient, MongoServerError, type Db } from "mongodb";
import { getConfig } from "~/config.server";

/**
 * One MongoClient per process, kept on globalThis so dev reloads reuse it.
 * MONGODB_URI unset → the embedded MongoDB-compatible server (server/embedded-mongo) with its data
 * under DATA_DIR/db, running as its own process (started here, or joined when another process of
 * the portal already runs it); the client reaches it over a socket as it would a mongod, so this
 * process holds no data. Tests (NODE_ENV=test) get an in-memory server instead.
 */

type DbState = { client: MongoClient; stopEmbedded?: () => Promise<void> };
const globalKey = Symbol.for("journey-portal.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DbState> };
const g = globalThis as GlobalWithDb;

async function connect(): Promise<DbState> {
  const config = getConfig();
  if (config.mongodbUri) {
    // A request meets an unreachable database after MONGODB_TIMEOUT_MS (then 503), not the driver's 30 s.
    const client = new MongoClient(config.mongodbUri, { appName: "journey-portal", serverSelectionTimeoutMS: config.mongodbTimeoutMs });
    await client.connect();
    return { client };
  }
  if (config.isProduction && !config.allowEmbeddedDb) {
    throw new Error("MONGODB_URI is not set. The embedded database is not for production; set ALLOW_EMBEDDED_DB=1 only for a demo.");
  }
  if (config.env === "test") {
    const { startEmbeddedMongo } = await import("../server/embedded-mongo/index");
    const embedded = await startEmbeddedMongo({});
    const client = new MongoClient(embedded.uri, { appName: "journey-portal" });
    await client.connect();
    return { client, stopEmbedded: embedded.stop };
  }
  const { startEmbeddedDbProcess } = await import("../server/embedded-mongo/process");
  const embedded = await startEmbeddedDbProcess(path.resolve(config.dataDir, "db"));
  const client = new MongoClient(embedded.uri, { appName: "journey-portal" });
  await client.connect();
  return { client, stopEmbedded: embedded.stop };
}

/** A write refused by a unique index (E11000), as the driver raises it. */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

export async function getClient(): Promise<MongoClient> {
  g[globalKey] ??= connect().catch((error) => {
    g[globalKey] = undefined;
    throw error;
  });
  return (await g[globalKey]).client;
}

/** The portal's database handle, one per client and name: `client.db()` copies the client's ~100 options each call. */
const dbHandles = new WeakMap<MongoClient, Map<string, Db>>();

export async function getDb(): Promise<Db> {
  const client = await getClient();
  const name = getConfig().databaseName;
  let byName = dbHandles.get(client);
  if (!byName) dbHandles.set(client, (byName = new Map()));
  let db = byName.get(name);
  if (!db) byName.set(name, (db = client.db(name)));
  return db;
}

/** Closes the client (and the embedded server, when this process started one). */
export async function closeDb(): Promise<void> {
  const pending = g[globalKey];
  g[globalKey] = undefined;
  if (!pending) return;
  const state = await pending.catch(() => undefined);
  if (!state) return;
  await state.client.close();
  await state.stopEmbedded?.();
}
