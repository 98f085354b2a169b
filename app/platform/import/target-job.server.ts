import type { Readable } from "node:stream";
import type { Db } from "mongodb";
import { getDb } from "~/db.server";
import { finishJob, type JobClaim, type JobEnding, markApplyBegun, reportProgress } from "~/models/file-jobs.server";
import { openReadStream } from "~/services/storage.server";

/**
 * What every kind of upload job shares: the outcome and the lease lost (declared here, below ingest.server.ts, which
 * dispatches to the explorer documents' and report packages' jobs), their options, the heartbeat, the end of the
 * job, and reading a whole (bounded) stored file.
 */

export type TargetJobOptions = {
  leaseMs: number;
  /** Heartbeat: progress, message and the lease are written at most this often. */
  progressIntervalMs?: number;
  db?: Db;
  clock?: { now(): Date };
  /** Opens the stored file (tests pass their own). */
  openSource?: (claim: JobClaim) => Promise<{ stream: Readable; size: number }>;
};

const DEFAULT_INTERVAL_MS = 1_000;

/** Another worker took the job over: stop without writing anything more. */
export class LeaseLostError extends Error {
  constructor() {
    super("The job's lease was taken over by another worker");
    this.name = "LeaseLostError";
  }
}

/** The stored file is larger than the job reads into memory. */
export class SourceTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`source larger than ${maxBytes} bytes`);
    this.name = "SourceTooLargeError";
  }
}

export type TargetJob = {
  db: Db;
  now(): Date;
  /** A heartbeat when the interval has passed (or `force`); throws LeaseLostError when the claim is lost. */
  beat(progress: number, message: string, force?: boolean): Promise<void>;
  /** Records that the job begins its writes to shared data (markApplyBegun); throws LeaseLostError when lost. */
  beginApply(): Promise<void>;
  /**
   * Ends the job with its status and message; the lease-lost outcome when the claim was lost meanwhile. `retryable`:
   * a failure the same file can get past (the storage did not answer), not a refusal of the file (finishJob).
   */
  finish(status: number, message: string, okRows?: number, nokRows?: number, retryable?: boolean): Promise<JobEnding>;
};

export async function startTargetJob(claim: JobClaim, options: TargetJobOptions): Promise<TargetJob> {
  const db = options.db ?? (await getDb());
  const now = () => options.clock?.now() ?? new Date();
  const interval = options.progressIntervalMs ?? DEFAULT_INTERVAL_MS;
  let lastBeat = 0;
  return {
    db,
    now,
    async beat(progress, message, force = false) {
      const at = now();
      if (!force && at.getTime() - lastBeat < interval) return;
      lastBeat = at.getTime();
      const held = await reportProgress(claim, { progress, message, leaseMs: options.leaseMs, now: at });
      if (!held) throw new LeaseLostError();
    },
    async beginApply() {
      if (!(await markApplyBegun(claim))) throw new LeaseLostError();
    },
    async finish(status, message, okRows = 0, nokRows = 0, retryable = false) {
      return (await finishJob(claim, { status, message, now: now(), retryable, nokRows }))
        ? { kind: "done", status, message, okRows, nokRows }
        : { kind: "lease-lost" };
    },
  };
}

/** The whole stored file, at most `maxBytes` (SourceTooLargeError past that); StoredObjectNotFoundError when it is gone. */
export async function readWholeSource(claim: JobClaim, options: TargetJobOptions, maxBytes: number): Promise<Buffer> {
  const { stream, size } = await (options.openSource ?? ((c: JobClaim) => openReadStream(c.bucket, c.originalFile)))(
    claim,
  );
  if (size > maxBytes) {
    stream.destroy();
    throw new SourceTooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buffer.length;
      if (total > maxBytes) throw new SourceTooLargeError(maxBytes);
      chunks.push(buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

export const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
