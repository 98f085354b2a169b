import type { Collection } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import type { IndexDeclaration } from "./indexes";

/**
 * Counters of repeated refusals (403s of the route guard), one per actor, route, reason and UTC minute, so one account
 * cannot flood the audit trail: the minute's first refusal is an entry of its own, the others only add to the counter,
 * and the counter becomes one summary entry ("n more") once its minute is over (app/platform/audit/record.server.ts).
 * The log stays append-only and chained: nothing here touches `audit_log`. A counter is taken (deleted) atomically by
 * whoever writes its summary, so two instances never write the same one twice.
 */

export const AUDIT_REFUSAL_COUNTS = "audit_refusal_counts";

export type RefusalCountRecord = {
  /** The minute and the group: `<minute ISO>|<group>`. */
  _id: string;
  /** Who, where and why: the actor's e-mail ("-" when none), the route id and the reason. */
  group: string;
  /** Start of the UTC minute. */
  minute: Date;
  /** Refusals of the group in that minute, the first (written as an entry of its own) included. */
  count: number;
  actor: { email: string | null; name: string | null; type: string | null } | null;
  route: { id: string; path: string };
  reason: string;
  /** The last refusal counted, and the address it came from. */
  lastAt: Date;
  lastIp: string | null;
};

export const indexes: IndexDeclaration[] = [
  { collection: AUDIT_REFUSAL_COUNTS, key: { group: 1, minute: 1 }, options: { name: "group_minute" } },
  { collection: AUDIT_REFUSAL_COUNTS, key: { minute: 1 }, options: { name: "minute" } },
];

async function counts(): Promise<Collection<RefusalCountRecord>> {
  return (await getDb()).collection<RefusalCountRecord>(AUDIT_REFUSAL_COUNTS);
}

export type RefusalKey = Pick<RefusalCountRecord, "group" | "minute" | "actor" | "route" | "reason">;

/** Counts one refusal at `at`; answers the minute's count so far (1: it is the minute's first). */
export async function countRefusal(key: RefusalKey, at: Date, ip: string | null): Promise<number> {
  const collection = await counts();
  const _id = `${key.minute.toISOString()}|${key.group}`;
  for (let attempt = 1; ; attempt++) {
    try {
      const counted = await collection.findOneAndUpdate(
        { _id },
        { $inc: { count: 1 }, $max: { lastAt: at }, $set: { lastIp: ip }, $setOnInsert: { ...key } },
        { upsert: true, returnDocument: "after", projection: { count: 1 } },
      );
      return counted?.count ?? 1;
    } catch (error) {
      // Two first refusals of the same minute at once: one inserts, the other counts on it.
      if (!isDuplicateKeyError(error) || attempt >= 3) throw error;
    }
  }
}

/** Takes (removes and answers) the oldest counter of a minute before `before`, of one group or of any. */
export async function takeRefusalCount(scope: { group?: string; before: Date }): Promise<RefusalCountRecord | null> {
  const filter = { ...(scope.group !== undefined ? { group: scope.group } : {}), minute: { $lt: scope.before } };
  return (await counts()).findOneAndDelete(filter, { sort: { minute: 1 } });
}

/** Puts a taken counter back (its summary could not be written), adding to any counted since. */
export async function restoreRefusalCount(taken: RefusalCountRecord): Promise<void> {
  const { _id, count, lastAt, lastIp, ...key } = taken;
  await (await counts()).updateOne(
    { _id },
    { $inc: { count }, $max: { lastAt }, $setOnInsert: { ...key, lastIp } },
    { upsert: true },
  );
}
