import { getConfig } from "~/config.server";
import {
  claimNextJob,
  DEFAULT_LEASE_MS,
  defaultWorkerName,
  FILE_STATUS_UNREADABLE,
  finishJob,
  holdsClaim,
  type JobClaim,
  sweepOrphanUploads,
} from "~/models/file-jobs.server";
import {
  type IngestClock,
  type IngestOptions,
  type IngestOutcome,
  ingestClaimedFile,
  removeRowsOfFile,
  removeRowsOfGivenUpFiles,
  systemClock,
} from "./ingest.server";
import { announceJobEnded } from "./job-notices.server";
import { jobGiveUpTexts } from "./texts";

/**
 * Claims a job may take without finishing before it is given up. A job is claimed again only once its last lease ran
 * out, i.e. when the claim before never finished (its process died: a kill, a deploy past the grace period, a file
 * that exhausted the memory). The next claim takes the file over and starts it again: a run first removes what an
 * earlier one wrote, or applies idempotently over it (ingest.server.ts), so the file ends applied once. A file whose
 * every claim died is given up, so it cannot take down workers for ever: its removable rows are removed
 * (removeRowsOfFile), and the message says whether an apply had begun (retryable: "Tentar novamente" gives it a fresh
 * allowance).
 */
export const MAX_ATTEMPTS = 3;

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export type WorkerLog = (level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>) => void;

export type WorkerOptions = {
  name?: string;
  leaseMs?: number;
  /** Wait between polls when no job is waiting. */
  pollMs?: number;
  progressIntervalMs?: number;
  /** A source silent for longer than this ends its job with status 3 (see ingestClaimedFile). */
  stallTimeoutMs?: number;
  batchSize?: number;
  clock?: IngestClock;
  openSource?: IngestOptions["openSource"];
  /** 0 disables the orphan sweep. */
  sweepIntervalMs?: number;
  log?: WorkerLog;
  /**
   * Work on its own timer beside the job loop (the scheduled tasks: notice mail, reminders…), so a slow task never
   * holds a job and a long job never holds it. Runs every `everyMs`; a run still going skips the next tick.
   */
  /** Work on its own timer; `stop` is aborted when the worker stops (a run should end soon after). */
  periodic?: { everyMs: number; run(now: Date, stop: AbortSignal): Promise<unknown> };
};

export type RunningWorker = { name: string; stop(): Promise<void> };

/** Claims and processes one job if any is waiting. Null when there was none. */
export async function processNextJob(options: WorkerOptions & { name: string }): Promise<IngestOutcome | null> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const clock = options.clock ?? systemClock;
  const claim = await claimNextJob({ agent: options.name, leaseMs, now: clock.now() });
  if (!claim) return null;
  if (claim.attemptsSinceRetry > MAX_ATTEMPTS) return giveUp(claim, options, clock);
  options.log?.("info", "job claimed", { fileId: String(claim.id), attempts: claim.attempts, agent: options.name });
  const outcome = await ingestClaimedFile(claim, {
    leaseMs,
    progressIntervalMs: options.progressIntervalMs,
    stallTimeoutMs: options.stallTimeoutMs,
    batchSize: options.batchSize,
    clock,
    openSource: options.openSource,
  });
  options.log?.(
    outcome.kind === "done" ? "info" : "warn",
    outcome.kind === "done" ? "job finished" : "job lease lost",
    {
      fileId: String(claim.id),
      ...(outcome.kind === "done" ? { status: outcome.status, message: outcome.message } : {}),
    },
  );
  await announceJobEnded(claim, outcome, "upload", { log: options.log });
  return outcome;
}

/**
 * Removes the rows a job's runs left when its every claim died (MAX_ATTEMPTS), then ends it. Removed while this claim
 * still holds the job, so no retry can claim the file and write rows the removal would take; a claimer that lost the
 * job checks its claim before each batch and writes no more, and a batch checked just before lands within the grace
 * period, after which the sweep removes the file's rows again (removeRowsOfGivenUpFiles).
 */
async function giveUp(claim: JobClaim, options: WorkerOptions, clock: IngestClock): Promise<IngestOutcome> {
  const message = (claim.applyBegan ? jobGiveUpTexts.partlyApplied : jobGiveUpTexts.nothingKept)(MAX_ATTEMPTS);
  options.log?.("warn", "job given up", { fileId: String(claim.id), attempts: claim.attempts, agent: options.name });
  if (await holdsClaim(claim)) await removeRowsOfFile(claim.id);
  const ended: IngestOutcome = (await finishJob(claim, {
    status: FILE_STATUS_UNREADABLE,
    message,
    now: clock.now(),
    retryable: true,
    givenUp: true,
  }))
    ? { kind: "done", status: FILE_STATUS_UNREADABLE, message, okRows: 0, nokRows: 0 }
    : { kind: "lease-lost" };
  await announceJobEnded(claim, ended, "upload", { log: options.log });
  return ended;
}

/** The polling loop: any number of these may run at once, in any number of processes. */
export function startWorker(options: WorkerOptions = {}): RunningWorker {
  const name = options.name ?? defaultWorkerName();
  const pollMs = options.pollMs ?? 1_000;
  const sweepEvery = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastSweep = 0;
  const periodic = startPeriodic(options);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    while (!stopped) {
      try {
        if (sweepEvery > 0 && Date.now() - lastSweep >= sweepEvery) {
          lastSweep = Date.now();
          const files = await removeRowsOfGivenUpFiles();
          if (files > 0) options.log?.("info", "rows of given-up files removed again", { count: files });
          const removed = getConfig().storage.kind === "local" ? await sweepOrphanUploads() : [];
          if (removed.length > 0) options.log?.("info", "orphan uploads removed", { count: removed.length });
        }
        const outcome = await processNextJob({ ...options, name });
        if (outcome === null && !stopped) await sleep(pollMs);
      } catch (error) {
        // The job (if any) stays leased and is retried after the lease by this or another worker.
        options.log?.("error", "worker iteration failed", { error: (error as Error).message });
        if (!stopped) await sleep(Math.max(pollMs, 1_000));
      }
    }
  })();

  return {
    name,
    async stop() {
      stopped = true;
      wake?.();
      await Promise.all([loop, periodic.stop()]);
    },
  };
}

/** The periodic work of startWorker: its own timer, one run at a time, stopped with the worker. */
function startPeriodic(options: WorkerOptions): { stop(): Promise<void> } {
  const periodic = options.periodic;
  if (!periodic || periodic.everyMs <= 0) return { stop: async () => undefined };
  let running: Promise<void> | undefined;
  const stopping = new AbortController();
  const tick = () => {
    if (running || stopping.signal.aborted) return;
    running = periodic
      .run(new Date(), stopping.signal)
      .then(
        () => undefined,
        (error: unknown) => options.log?.("error", "periodic work failed", { error: (error as Error).message }),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, periodic.everyMs);
  timer.unref?.();
  // The first run soon after start, not a whole period later.
  const first = setTimeout(tick, Math.min(1_000, periodic.everyMs));
  first.unref?.();
  return {
    async stop() {
      stopping.abort();
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
