import { type Db, MongoClient, MongoServerError } from "mongodb";
import { getConfig } from "~/config.server";

/**
 * One MongoClient per process, kept on globalThis so dev reloads reuse it, on MONGODB_URI: a real MongoDB in
 * production, or the embedded server, which the process that started the portal (server/database.ts) or the test
 * setup (test/db.ts) started and named in MONGODB_URI. The app reaches the database only through that URI.
 */

type DbState = { client: MongoClient };
const globalKey = Symbol.for("journey-portal.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DbState> };
const g = globalThis as GlobalWithDb;

async function connect(): Promise<DbState> {
  const config = getConfig();
  if (!config.mongodbUri) {
    throw new Error(
      "MONGODB_URI is not set: start the portal through its host or CLI (which start the embedded database when it is unset), or set it to a MongoDB.",
    );
  }
  // A request meets an unreachable database after MONGODB_TIMEOUT_MS (then 503), not the driver's 30 s.
  const client = new MongoClient(config.mongodbUri, {
    appName: "journey-portal",
    serverSelectionTimeoutMS: config.mongodbTimeoutMs,
  });
  await client.connect();
  return { client };
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

/** True when `db` is the handle getDb() gives (the portal's own database), told without connecting. */
export function isPortalDb(db: Db): boolean {
  return dbHandles.get(db.client)?.get(db.databaseName) === db;
}

/** Closes the client. */
export async function closeDb(): Promise<void> {
  const pending = g[globalKey];
  g[globalKey] = undefined;
  if (!pending) return;
  const state = await pending.catch(() => undefined);
  if (!state) return;
  await state.client.close();
}
