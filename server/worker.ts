/**
 * The job worker that processes uploaded files (app/platform/import/*).
 *   npm run worker                 a standalone worker process (any number may run)
 *   startInProcessWorker()         the host starts one inside the web process when WORKER_IN_PROCESS is on
 * WORKER_LEASE_MS, WORKER_POLL_MS, WORKER_PROGRESS_MS and WORKER_STALL_MS tune the lease, the idle poll, the
 * progress heartbeat (at most 2 s, as the job lists promise) and how long a silent source may hold a job.
 */
import path from "node:path";
import { z } from "zod";
import { ConfigError, getConfig } from "../app/config.server";
import { registerPortalDatasets } from "../app/datasets.server";
import { closeDb } from "../app/db.server";
import { type RunningWorker, startWorker, type WorkerLog } from "../app/platform/import/worker-loop.server";
import { runDueTasks, TASKS_TICK_MS } from "../app/scheduled-tasks.server";
import { createLogger } from "../app/shared/logger.server";
import { checkSharedDataDir, type SharedDataCheck } from "./shared-data";

const tuningSchema = z.object({
  WORKER_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).optional(),
  WORKER_POLL_MS: z.coerce.number().int().min(50).max(60_000).optional(),
  WORKER_PROGRESS_MS: z.coerce.number().int().min(50).max(2_000).optional(),
  WORKER_STALL_MS: z.coerce.number().int().min(1_000).max(3_600_000).optional(),
  WORKER_NAME: z.string().min(1).max(200).optional(),
});

function tuning() {
  const parsed = tuningSchema.safeParse(process.env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  return {
    name: parsed.data.WORKER_NAME,
    leaseMs: parsed.data.WORKER_LEASE_MS,
    pollMs: parsed.data.WORKER_POLL_MS,
    progressIntervalMs: parsed.data.WORKER_PROGRESS_MS,
    stallTimeoutMs: parsed.data.WORKER_STALL_MS,
  };
}

function workerLog(): WorkerLog {
  const logger = createLogger(getConfig().logLevel);
  return (level, msg, fields) => logger[level](msg, { component: "worker", ...fields });
}

/** The scheduled tasks (notice mail, reminders…), on the worker's own timer beside the job loop. */
const scheduledTasks = {
  everyMs: TASKS_TICK_MS,
  run: (now: Date, stop: AbortSignal) => runDueTasks(now, undefined, stop),
};

/** One worker loop in this process; the host calls it when config.workerInProcess is true. */
export function startInProcessWorker(): RunningWorker {
  registerPortalDatasets();
  return startWorker({ ...tuning(), log: workerLog(), periodic: scheduledTasks });
}

async function main() {
  let worker: RunningWorker;
  let sharedData: SharedDataCheck | undefined;
  try {
    if (!getConfig().mongodbUri) {
      // A second process must not open the embedded database's files next to the web process.
      throw new Error(
        "npm run worker needs MONGODB_URI (a MongoDB, or the embedded server started with `npm run db`). Without it, keep WORKER_IN_PROCESS=1 so the web process runs the worker.",
      );
    }
    const config = getConfig();
    if (config.instances.multi && config.storage.kind === "local") {
      sharedData = await checkSharedDataDir(
        path.resolve(config.dataDir, "uploads"),
        createLogger(config.logLevel),
        "worker",
      );
    }
    registerPortalDatasets();
    worker = startWorker({ ...tuning(), log: workerLog(), periodic: scheduledTasks });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    await closeDb().catch(() => undefined);
    process.exit(1);
  }
  const shutdown = async () => {
    await worker.stop();
    await sharedData?.stop();
    await closeDb();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown());
  process.once("SIGINT", () => void shutdown());
}

// Run only as the entry point. Checked by file name, not import.meta.url: when the host bundle
// inlines this module, import.meta.url is the bundle's own URL.
const entry = process.argv[1] ? path.basename(process.argv[1]) : "";
if (/^worker\.(ts|js|mjs)$/.test(entry)) void main();
