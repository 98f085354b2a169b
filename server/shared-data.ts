import crypto from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { forgetInstance, listLiveInstances, recordInstance } from "../app/models/instances.server";
import type { Logger } from "../app/shared/logger.server";

/**
 * With several instances on local storage (MULTI_INSTANCE=1, LOCAL_STORAGE_SHARED=1), DATA_DIR/uploads must be
 * one directory seen by all of them, or a file stored by one instance is "not found" by the worker of another.
 * Each instance writes a marker file there and a record in MongoDB, renews both every minute, and refuses to
 * start when the marker of a live instance is missing from its own directory: the volume is not shared.
 */
const MARKERS = ".instances";
const RENEW_MS = 60_000;

export class DataDirNotSharedError extends Error {
  constructor(dir: string, missing: Array<{ id: string; host: string }>) {
    super(
      `DATA_DIR is not shared between the instances: ${dir} does not hold the marker of ${missing.map((m) => `${m.id} (${m.host})`).join(", ")}. ` +
        "Mount the same volume at DATA_DIR on every web and worker instance, or use STORAGE=s3.",
    );
    this.name = "DataDirNotSharedError";
  }
}

export type SharedDataCheck = { id: string; stop(): Promise<void> };

export async function checkSharedDataDir(uploadsDir: string, logger: Logger, role = "web"): Promise<SharedDataCheck> {
  const id = `${os.hostname()}-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  const markers = path.join(uploadsDir, MARKERS);
  await fsp.mkdir(markers, { recursive: true });
  const marker = path.join(markers, id);
  await fsp.writeFile(marker, `${new Date().toISOString()}\n`);
  await recordInstance({ id, role, host: os.hostname() });
  const others = await listLiveInstances(id);
  const missing: Array<{ id: string; host: string }> = [];
  for (const other of others) {
    const found = await fsp.access(path.join(markers, other.id)).then(
      () => true,
      () => false,
    );
    if (!found) missing.push(other);
  }
  if (missing.length > 0) {
    await fsp.rm(marker, { force: true });
    await forgetInstance(id).catch(() => undefined);
    throw new DataDirNotSharedError(uploadsDir, missing);
  }
  logger.info("shared data directory checked", { dir: uploadsDir, instance: id, liveInstances: others.length + 1 });
  const renew = setInterval(() => {
    void Promise.all([
      fsp.utimes(marker, new Date(), new Date()),
      recordInstance({ id, role, host: os.hostname() }),
    ]).catch((error: unknown) => logger.warn("instance record not renewed", { error: String(error) }));
  }, RENEW_MS);
  renew.unref();
  return {
    id,
    async stop() {
      clearInterval(renew);
      await fsp.rm(marker, { force: true }).catch(() => undefined);
      await forgetInstance(id).catch(() => undefined);
    },
  };
}
