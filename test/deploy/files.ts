import { Readable } from "node:stream";
import type { Db, ObjectId } from "mongodb";
import { closeDb } from "~/db.server";
import { registerFile } from "~/models/file-jobs.server";
import { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";
import { swapEnv } from "../env";
import { grantPermission, TEST_UPLOADER } from "../upload-fixtures";

/**
 * Stores bytes in a local store under `dataDir` and registers them as a job in `db`, as an upload through a web
 * process would, from the test process (which points its own configuration there for the call).
 */
export async function storeAndRegisterIn(
  db: Db,
  dataDir: string,
  originalName: string,
  content: string,
  user = TEST_UPLOADER,
): Promise<ObjectId> {
  const uri = (db as unknown as { client: { options: { hosts: Array<{ host: string; port: number }> } } }).client
    .options.hosts[0];
  const restore = swapEnv({
    MONGODB_URI: `mongodb://${uri.host}:${uri.port}/`,
    DATABASE_NAME: db.databaseName,
    DATA_DIR: dataDir,
  });
  try {
    const key = generateStorageKey(originalName);
    await getLocalStore().putStream(key, Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
    if (user === TEST_UPLOADER) await grantPermission(db, TEST_UPLOADER, "SYSTEM ADMIN");
    return await registerFile({ originalName, key, bucket: LOCAL_BUCKET, user });
  } finally {
    await closeDb();
    restore();
  }
}
