import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { PRODUCT_HEADER, productLine, storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { FILE_STATUS_UNREADABLE, findFileById } from "~/models/file-jobs.server";
import { PRODUCT_MASTER, PRODUCT_MASTER_NOK } from "~/models/master-data.server";
import {
  DEFAULT_STALL_TIMEOUT_MS,
  type IngestClock,
  ingestMessages,
  PROGRESS_INTERVAL_MS,
} from "~/platform/import/ingest.server";
import { processNextJob } from "~/platform/import/worker-loop.server";

/**
 * The worker's heartbeat and stall watchdog, on a fake clock: time moves only when the test (or the
 * throttled source) says so, and moving it runs the timers that fall due, waiting for their writes.
 * So the job's recorded states can be read at exact instants, with no wall-clock timing.
 */
class FakeClock implements IngestClock {
  private time: number;
  private timers: Array<{ at: number; seq: number; fire: () => unknown }> = [];
  private seq = 0;

  constructor(start: Date) {
    this.time = start.getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  setTimer(ms: number, fire: () => unknown): () => void {
    const timer = { at: this.time + ms, seq: this.seq++, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing each timer due on the way (in order) and awaiting what it starts. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      await due.fire();
    }
    this.time = end;
  }
}

const testDb = useTestDatabase();
useTempDataDir();

type Observation = {
  at: number;
  progress: number;
  message: string;
  agent: string;
  statusChangeDate: number;
  leaseUntil: number | null;
};

async function observe(clock: FakeClock, id: Parameters<typeof findFileById>[0]): Promise<Observation> {
  const file = await findFileById(id);
  return {
    at: clock.now().getTime(),
    progress: file!.progress,
    message: file!.message,
    agent: file!.agent,
    statusChangeDate: file!.statusChangeDate.getTime(),
    leaseUntil: file!.leaseUntil ? file!.leaseUntil.getTime() : null,
  };
}

function productCsv(rows: number): Buffer {
  const lines = [PRODUCT_HEADER];
  for (let i = 1; i <= rows; i++) lines.push(productLine(i, i % 10 === 0));
  return Buffer.from(`${lines.join("\n")}\n`);
}

function pieces(bytes: Buffer, count: number): Buffer[] {
  const size = Math.ceil(bytes.length / count);
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

describe("worker heartbeat", () => {
  it("defaults to a beat well inside the 2 s the job lists promise", () => {
    expect(PROGRESS_INTERVAL_MS).toBeLessThanOrEqual(2_000);
  });

  it("updates progress, message, agent and statusChangeDate at least once per interval while a slow source is read", async () => {
    const intervalMs = 1_000;
    const stepMs = 250;
    const clock = new FakeClock(new Date());
    const bytes = productCsv(8_000); // ~600 KB: 8 pieces bigger than the stream buffers, so the source cannot run far ahead
    const { id } = await storeAndRegister("lento.csv", bytes);
    const observations: Observation[] = [];
    // Between pieces the source is silent for 1 to 4.5 s (under the stall limit): the time passes in steps,
    // and the job is read after each one.
    const pauses = [1_000, 4_500, 2_000, 3_250, 1_500, 4_000, 2_750, 1_250];
    async function* throttled() {
      for (const [i, piece] of pieces(bytes, pauses.length).entries()) {
        for (let waited = 0; waited < pauses[i]; waited += stepMs) {
          await clock.advance(stepMs);
          observations.push(await observe(clock, id));
        }
        yield piece;
      }
    }

    const outcome = await processNextJob({
      name: "heartbeat-worker",
      leaseMs: 30_000,
      progressIntervalMs: intervalMs,
      stallTimeoutMs: 5_000,
      batchSize: 200,
      clock,
      // Byte mode with a 1-byte buffer: the next piece is asked for only when the reader has taken the last.
      openSource: async () => ({
        stream: Readable.from(throttled(), { objectMode: false, highWaterMark: 1 }),
        size: bytes.length,
      }),
    });
    expect(outcome).toMatchObject({ kind: "done", status: 0, message: "7.200 linhas OK, 800 NOK" });

    const totalMs = pauses.reduce((a, b) => a + b, 0);
    expect(observations).toHaveLength(totalMs / stepMs);
    for (const o of observations) {
      // Never older than one interval, and always this worker's lease, renewed ahead.
      expect(o.at - o.statusChangeDate, `at +${o.at - observations[0].at + stepMs} ms`).toBeLessThanOrEqual(intervalMs);
      expect(o.agent).toBe("heartbeat-worker");
      expect(o.leaseUntil).toBe(o.statusChangeDate + 30_000);
      expect(o.progress).toBeGreaterThanOrEqual(0);
      expect(o.progress).toBeLessThan(100);
    }
    // The beats carried the work along: progress and the row count only grow, and reached the later pieces.
    // (Until the first beat the job shows the claim's own "Processando".)
    const claimedAt = observations[0].statusChangeDate;
    expect(observations[0].message).toBe("Processando");
    const beats = observations.filter(
      (o, i) => o.statusChangeDate !== claimedAt && o.statusChangeDate !== observations[i - 1].statusChangeDate,
    );
    expect(beats.length).toBeGreaterThanOrEqual(totalMs / intervalMs - 1);
    const counts = beats.map((o) =>
      Number(/^Processando: ([\d.]+) linhas lidas$/.exec(o.message)?.[1].replaceAll(".", "") ?? "NaN"),
    );
    expect(counts.every((n, i) => Number.isInteger(n) && (i === 0 || n >= counts[i - 1]))).toBe(true);
    expect(beats.map((o) => o.progress).every((p, i, all) => i === 0 || p >= all[i - 1])).toBe(true);
    expect(beats.at(-1)!.progress).toBeGreaterThan(0);
    expect(counts.at(-1)).toBeGreaterThan(0);

    const done = await findFileById(id);
    expect(done).toMatchObject({ status: 0, progress: 100, message: "7.200 linhas OK, 800 NOK", leaseUntil: null });
    expect(clock.pendingTimers).toBe(0); // the heartbeat stopped with the job
  });
});

describe("worker stall watchdog", () => {
  it("ends the job with status 3 and a clear message when the source goes silent, and stops renewing the lease", async () => {
    const stallMs = 10_000;
    const clock = new FakeClock(new Date());
    const bytes = productCsv(3_000); // the first half is past the reader's 64 KB sample, so rows are written before the silence
    const { id } = await storeAndRegister("parado.csv", bytes);
    const firstHalf = bytes.subarray(0, Math.floor(bytes.length / 2));
    let release: () => void = () => undefined;
    async function* stalling() {
      yield firstHalf;
      // Then nothing, until the test ends.
      await new Promise<void>((resolve) => (release = resolve));
    }

    let outcome: Awaited<ReturnType<typeof processNextJob>> | undefined;
    const running = processNextJob({
      name: "stall-worker",
      leaseMs: 30_000,
      progressIntervalMs: 1_000,
      stallTimeoutMs: stallMs,
      batchSize: 25,
      clock,
      openSource: async () => ({ stream: Readable.from(stalling()), size: bytes.length }),
    }).then((o) => (outcome = o));

    // Before time starts to pass, let the worker take in all of the first half: its complete rows, in whole
    // batches of 25, are then written, and the worker waits for the rest.
    const db = await testDb.db();
    const completeRows = firstHalf.toString().split("\n").length - 2; // minus the header and the cut line
    const written = async () =>
      (await db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id })) +
      (await db.collection(PRODUCT_MASTER_NOK).countDocuments({ sourceFileId: id }));
    for (let i = 0; i < 1_000 && (await written()) < Math.floor(completeRows / 25) * 25; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(await written()).toBe(Math.floor(completeRows / 25) * 25);
    const startedAt = clock.now().getTime();
    const renewals: number[] = [];
    // Fake time runs in 500 ms steps until the worker gives up (bounded: 5 fake seconds past the limit).
    while (outcome === undefined && clock.now().getTime() - startedAt < stallMs + 5_000) {
      await clock.advance(500);
      if (clock.now().getTime() - startedAt > stallMs) {
        // Past the limit the watchdog may have fired: give the worker real time to write the job's end before fake
        // time moves on (on a busy machine that write takes longer than one step; the record's time would drift).
        await vi
          .waitFor(
            () => {
              if (outcome === undefined) throw new Error("the worker is still running");
            },
            { timeout: 2_000, interval: 5 },
          )
          .catch(() => undefined);
      } else {
        await new Promise((r) => setTimeout(r, 5));
      }
      const file = await findFileById(id);
      if (file!.progress < 100) renewals.push(file!.statusChangeDate.getTime());
    }
    release(); // (a worker that never gave up now gets the end of its source, and the checks below fail)
    await running;

    expect(outcome).toMatchObject({
      kind: "done",
      status: FILE_STATUS_UNREADABLE,
      message: ingestMessages.stalled(stallMs),
    });
    expect(ingestMessages.stalled(stallMs)).toBe(
      "Processamento interrompido: a leitura do arquivo ficou parada por mais de 10 s. Tente novamente.",
    );
    const file = await findFileById(id);
    expect(file).toMatchObject({
      status: FILE_STATUS_UNREADABLE,
      progress: 100,
      leaseUntil: null,
      agent: "stall-worker",
    });
    // It waited the limit (renewing the lease meanwhile), then gave up within one more beat.
    const gaveUpAfter = file!.statusChangeDate.getTime() - startedAt;
    expect(gaveUpAfter).toBeGreaterThan(stallMs);
    expect(gaveUpAfter).toBeLessThanOrEqual(stallMs + 1_000);
    expect(renewals.length).toBeGreaterThan(0);
    // The rows of the half that arrived are gone: the job ended as a failure.
    expect(await db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id })).toBe(0);
    expect(await db.collection(PRODUCT_MASTER_NOK).countDocuments({ sourceFileId: id })).toBe(0);
    // No beat after the end: time passes, the record stays as the worker left it.
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(10_000);
    expect((await findFileById(id))!.statusChangeDate.getTime()).toBe(file!.statusChangeDate.getTime());
  });

  it("has a default limit far above the heartbeat", () => {
    expect(DEFAULT_STALL_TIMEOUT_MS).toBeGreaterThanOrEqual(60_000);
  });
});
