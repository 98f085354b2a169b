import { getDb } from "~/db.server";

/**
 * One document per scheduled task (app/scheduled-tasks.server.ts), keyed by its name: when it may run next and who
 * holds it while it runs. Claimed with findOneAndUpdate, so a task runs at most once per period across every web and
 * worker process.
 */
export const SCHEDULED_TASKS = "scheduled_tasks";

type TaskRecord = {
  _id: string;
  next_run_at: Date;
  /** While a run is under way: until when its holder keeps it (a holder that died lets go when it runs out). */
  lease_until: Date | null;
  owner: string | null;
  last_started_at: Date | null;
  last_finished_at: Date | null;
  last_error: string | null;
};

/**
 * Takes the task for one run when it is due and nobody holds it: the next run moves to `now + everyMs` and the lease
 * to `now + leaseMs`. False when it is not due or another runner has it.
 */
export async function claimTaskRun(
  name: string,
  options: { now: Date; everyMs: number; leaseMs: number; owner: string },
): Promise<boolean> {
  const db = await getDb();
  const tasks = db.collection<TaskRecord>(SCHEDULED_TASKS);
  try {
    await tasks.updateOne(
      { _id: name },
      {
        $setOnInsert: {
          next_run_at: new Date(0),
          lease_until: null,
          owner: null,
          last_started_at: null,
          last_finished_at: null,
          last_error: null,
        },
      },
      { upsert: true },
    );
  } catch (error) {
    // Two runners inserting the same task at once: the other one's insert won, which is all this needed.
    if ((error as { code?: number }).code !== 11000) throw error;
  }
  const claimed = await tasks.findOneAndUpdate(
    {
      _id: name,
      next_run_at: { $lte: options.now },
      $or: [{ lease_until: null }, { lease_until: { $lte: options.now } }],
    },
    {
      $set: {
        next_run_at: new Date(options.now.getTime() + options.everyMs),
        lease_until: new Date(options.now.getTime() + options.leaseMs),
        owner: options.owner,
        last_started_at: options.now,
      },
    },
    { returnDocument: "after" },
  );
  return claimed !== null;
}

/**
 * Ends a run. A failed run may be tried again sooner than a full period: `retryAt`, when given and earlier than the
 * next run, becomes the next run.
 */
export async function finishTaskRun(
  name: string,
  owner: string,
  outcome: { finishedAt: Date; error?: string; retryAt?: Date },
): Promise<void> {
  const db = await getDb();
  const tasks = db.collection<TaskRecord>(SCHEDULED_TASKS);
  await tasks.updateOne(
    { _id: name, owner },
    {
      $set: {
        lease_until: null,
        owner: null,
        last_finished_at: outcome.finishedAt,
        last_error: outcome.error ? outcome.error.slice(0, 500) : null,
      },
    },
  );
  if (outcome.retryAt) {
    await tasks.updateOne(
      { _id: name, next_run_at: { $gt: outcome.retryAt } },
      { $set: { next_run_at: outcome.retryAt } },
    );
  }
}

/** A task's record (tests and support). */
export async function readTaskRecord(name: string): Promise<TaskRecord | null> {
  const db = await getDb();
  return db.collection<TaskRecord>(SCHEDULED_TASKS).findOne({ _id: name });
}
