import { describe, expect, it, vi } from "vitest";
import type { SourceRow } from "xlsx-reader";
import * as reader from "xlsx-reader";
import { useTestDatabase } from "#test/db";
import { storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { SHEET_CLOSE, SHEET_OPEN, xlsxBomb } from "#test/zip-bombs";
import { FILE_STATUS_UNREADABLE, findFileById } from "~/models/file-jobs.server";
import { type IngestClock, ingestMessages } from "~/platform/import/ingest.server";
import { processNextJob } from "~/platform/import/worker-loop.server";

/**
 * A job the stall watchdog gives up on stops reading: the worker's XLSX reader is handed a signal that the watchdog
 * aborts, and the reader ends at its next inflated chunk with the watchdog's reason, instead of reading on for a job
 * already marked failed. Time is a fake clock the test moves (as in worker-heartbeat.test.ts).
 */

type Ending = { error?: unknown; done?: true };
const readings: Array<{ signal?: AbortSignal; ended: Promise<Ending> }> = [];

vi.mock("xlsx-reader", async (importOriginal) => {
  const real = await importOriginal<typeof import("xlsx-reader")>();
  return {
    ...real,
    readXlsxRows: vi.fn((...args: Parameters<typeof real.readXlsxRows>) => {
      let end: (ending: Ending) => void = () => undefined;
      readings.push({ signal: args[2]?.signal, ended: new Promise<Ending>((resolve) => (end = resolve)) });
      return (async function* (): AsyncGenerator<SourceRow> {
        try {
          yield* real.readXlsxRows(...args);
          end({ done: true });
        } catch (error) {
          end({ error });
          throw error;
        }
      })();
    }),
  };
});

class FakeClock implements IngestClock {
  private timers: Array<{ at: number; fire: () => unknown }> = [];
  constructor(private time: number) {}
  now(): Date {
    return new Date(this.time);
  }
  setTimer(ms: number, fire: () => unknown): () => void {
    const timer = { at: this.time + ms, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      await due.fire();
    }
    this.time = end;
  }
}

useTestDatabase();
useTempDataDir();

describe("worker: a job the watchdog gives up on", () => {
  it("stops the XLSX reader mid-file with the watchdog's reason", async () => {
    // 512 MB of markup before the first row: seconds of reading, far longer than the test takes to give up on it.
    const file = await xlsxBomb({
      sheetRows: {
        name: "",
        prefix: SHEET_OPEN,
        repeat: Buffer.from("<x/>".repeat(262_144)),
        times: 512,
        suffix: SHEET_CLOSE,
      },
    });
    const { id } = await storeAndRegister("enorme.xlsx", file);
    const stallMs = 10_000;
    const clock = new FakeClock(Date.now());
    let outcome: Awaited<ReturnType<typeof processNextJob>> | undefined;
    const running = processNextJob({
      name: "watchdog-worker",
      leaseMs: 60_000,
      progressIntervalMs: 1_000,
      stallTimeoutMs: stallMs,
      clock,
    }).then((o) => (outcome = o));
    await vi.waitFor(() => expect(reader.readXlsxRows).toHaveBeenCalled(), { timeout: 20_000, interval: 5 });
    for (let step = 0; outcome === undefined && step < 100; step++) {
      await clock.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await running;
    expect(outcome).toMatchObject({
      kind: "done",
      status: FILE_STATUS_UNREADABLE,
      message: ingestMessages.stalled(stallMs),
    });
    expect(await findFileById(id)).toMatchObject({ status: FILE_STATUS_UNREADABLE, progress: 100 });

    const [reading] = readings;
    expect(reading.signal?.aborted).toBe(true);
    // The reader ended with the watchdog's own reason: stopped, not read to its end.
    const ending = await reading.ended;
    expect(ending.done).toBeUndefined();
    expect(ending.error).toBe(reading.signal?.reason);
  });
});
