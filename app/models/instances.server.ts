import { getDb } from "~/db.server";
import type { IndexDeclaration } from "./indexes";

/**
 * The portal's running instances (web and worker processes), as far as shared state needs to know them: with
 * MULTI_INSTANCE and local storage each instance leaves a marker file in the shared uploads directory and a record
 * here, and refuses to start when a live instance's marker is not in its own directory (DATA_DIR not shared).
 */
export const PORTAL_INSTANCES = "portal_instances";

/** An instance not seen for this long is gone (it renews its record every minute while it runs). */
export const INSTANCE_LIVE_MS = 3 * 60_000;

export const indexes: IndexDeclaration[] = [
  {
    collection: PORTAL_INSTANCES,
    key: { lastSeen: 1 },
    options: { name: "lastSeen_ttl", expireAfterSeconds: 24 * 3600 },
  },
];

type InstanceRecord = { _id: string; role: string; host: string; startedAt: Date; lastSeen: Date };

export async function recordInstance(
  instance: { id: string; role: string; host: string },
  now = new Date(),
): Promise<void> {
  const db = await getDb();
  await db
    .collection<InstanceRecord>(PORTAL_INSTANCES)
    .updateOne(
      { _id: instance.id },
      { $set: { role: instance.role, host: instance.host, lastSeen: now }, $setOnInsert: { startedAt: now } },
      { upsert: true },
    );
}

/** Instances seen within INSTANCE_LIVE_MS, other than `exceptId`. */
export async function listLiveInstances(
  exceptId: string,
  now = new Date(),
): Promise<Array<{ id: string; role: string; host: string }>> {
  const db = await getDb();
  const rows = await db
    .collection<InstanceRecord>(PORTAL_INSTANCES)
    .find({ lastSeen: { $gte: new Date(now.getTime() - INSTANCE_LIVE_MS) } }, { projection: { role: 1, host: 1 } })
    .limit(1000)
    .toArray();
  return rows.filter((r) => r._id !== exceptId).map((r) => ({ id: r._id, role: r.role, host: r.host }));
}

export async function forgetInstance(id: string): Promise<void> {
  const db = await getDb();
  await db.collection<InstanceRecord>(PORTAL_INSTANCES).deleteOne({ _id: id });
}
