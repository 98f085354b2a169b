import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Db, type Document, MongoClient } from "mongodb";
import { type RunningApp, startApp } from "./harness";

/**
 * One seeded server for many browser-test files: the files of a worker that ask for the same settings share it, and
 * each file starts from the seeded state. `reset()` puts the database back as the seed left it (every collection but
 * the append-only audit trail, which the server keeps a chain over), marks every collection's data state as changed
 * (so the server's caches keyed by it read afresh) and restores any stored file a test removed or changed.
 */
export type SharedApp = { app: RunningApp; reset: () => Promise<void>; stop: () => Promise<void> };

/** Kept as they are: the audit trail is a hash chain whose head the server holds; tests read only their own entries. */
const KEPT = new Set(["audit_log", "audit_days", "audit_refusal_counts"]);

type Snapshot = { collections: Map<string, { docs: Document[]; indexes: Document[] }>; storeCopy: string };

async function takeSnapshot(db: Db, app: RunningApp): Promise<Snapshot> {
  const collections: Snapshot["collections"] = new Map();
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (KEPT.has(name)) continue;
    const indexes = (await db.collection(name).listIndexes().toArray()).filter((index) => index.name !== "_id_");
    collections.set(name, { docs: await db.collection(name).find({}).toArray(), indexes });
  }
  const storeCopy = mkdtempSync(path.join(os.tmpdir(), "portal-e2e-store-"));
  const uploads = path.join(app.dataDir, "uploads");
  if (existsSync(uploads)) cpSync(uploads, storeCopy, { recursive: true });
  return { collections, storeCopy };
}

/** Copies back every file of `from` that is missing from `to` or differs in size. */
function restoreFiles(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const target = path.join(to, path.relative(from, source));
    if (!existsSync(target) || !statSync(target).isFile() || statSync(target).size !== statSync(source).size)
      cpSync(source, target, { force: true });
  }
}

async function restore(db: Db, snapshot: Snapshot, app: RunningApp): Promise<void> {
  const present = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map(({ name }) => name));
  for (const name of present) {
    if (!KEPT.has(name) && !snapshot.collections.has(name)) await db.collection(name).drop();
  }
  for (const [name, { docs, indexes }] of snapshot.collections) {
    if (present.has(name)) await db.collection(name).deleteMany({});
    else {
      // A test dropped it: back with its indexes (unique ones included), as the seed made it.
      await db.createCollection(name);
      for (const { key, v: _v, ns: _ns, ...options } of indexes) await db.collection(name).createIndex(key, options);
    }
    if (docs.length > 0) await db.collection(name).insertMany(docs.map((d) => ({ ...d })));
  }
  // Data states never seen before: whatever the server computed from the last file's data is not read again.
  await db.collection("data_versions").updateMany({}, { $set: { version: Date.now(), changedAt: new Date() } });
  restoreFiles(snapshot.storeCopy, path.join(app.dataDir, "uploads"));
}

export async function startSharedApp(env: Record<string, string>, seed: "demo" | "empty"): Promise<SharedApp> {
  const app = await startApp({ env, seed: seed === "empty" ? "empty" : true });
  const client = await new MongoClient(app.mongoUri).connect();
  const db = client.db(app.databaseName);
  const snapshot = await takeSnapshot(db, app);
  let used = false;
  return {
    app,
    reset: async () => {
      // The first file gets the server as the seed left it.
      if (used) await restore(db, snapshot, app);
      used = true;
    },
    stop: async () => {
      await client.close();
      await app.stop();
      rmSync(snapshot.storeCopy, { recursive: true, force: true });
    },
  };
}
