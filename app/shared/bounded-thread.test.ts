import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  boundedThreadsRunning,
  boundedThreadsWaiting,
  boundedThreadTexts,
  MAX_BOUNDED_THREADS,
  runOnBoundedThread,
  streamFromBoundedThread,
  THREAD_WAIT_MS,
  ThreadBusyError,
  ThreadLimitError,
  takeThreadSlot,
} from "./bounded-thread.server";
import { readReturnedFile } from "./excel/round-trip.server";
import { readXlsxRowsOnThread } from "./excel/xlsx-thread.server";

/** The process runs at most MAX_BOUNDED_THREADS bounded threads at once; the others wait in line. */

const LIMITS = { maxInflatedBytes: 1024 * 1024, heapMb: 64, timeoutMs: 30_000 };
/** A worker module of the tests' own (bounded-thread-worker.fixture.ts, through tsx). */
const FIXTURE_WORKER = new URL("./bounded-thread-worker.fixture-dev.mjs", import.meta.url);

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Dados");
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function drain<T>(rows: AsyncGenerator<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

afterEach(() => {
  vi.useRealTimers();
  expect(boundedThreadsRunning()).toBe(0);
  expect(boundedThreadsWaiting()).toBe(0);
});

describe("bounded threads share a process-wide limit", () => {
  it("is two threads, the machines' cores", () => {
    expect(MAX_BOUNDED_THREADS).toBe(2);
  });

  it("runs at most the limit of XLSX reads at once; the next starts when one ends, and all finish", async () => {
    const file = await workbook([["nome", "valor"], ...Array.from({ length: 50 }, (_, i) => [`linha ${i}`, i])]);
    const [a, b, c] = [0, 1, 2].map(() => readXlsxRowsOnThread(file));
    expect((await a.next()).value).toMatchObject({ line: 1, cells: ["nome", "valor"] });
    expect((await b.next()).value).toMatchObject({ line: 1 });
    expect(boundedThreadsRunning()).toBe(2);
    const third = c.next();
    // Both slots are held by reads paused mid-file: the third read waits in line, holding none.
    expect(boundedThreadsWaiting()).toBe(1);
    expect(boundedThreadsRunning()).toBe(2);
    expect(await drain(a)).toHaveLength(50);
    expect((await third).value).toMatchObject({ line: 1 });
    expect(boundedThreadsRunning()).toBe(2);
    expect(boundedThreadsWaiting()).toBe(0);
    expect(await drain(b)).toHaveLength(50);
    expect(await drain(c)).toHaveLength(50);
  });

  it("never runs more than the limit when more runs start at once", async () => {
    const seen: number[] = [];
    const runs = [1, 2, 3, 4, 5].map((n) =>
      runOnBoundedThread<number>({
        entry: FIXTURE_WORKER,
        format: "pdf",
        bytes: Buffer.alloc(0),
        data: { n },
        limits: LIMITS,
        onProgress: async () => {
          seen.push(boundedThreadsRunning());
        },
      }),
    );
    expect(boundedThreadsRunning()).toBe(2);
    expect(boundedThreadsWaiting()).toBe(3);
    expect(await Promise.all(runs)).toEqual([10, 20, 30, 40, 50]);
    expect(seen).toHaveLength(5);
    expect(Math.max(...seen)).toBeLessThanOrEqual(2);
  });

  it("serves those waiting in the order they came", async () => {
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    const order: string[] = [];
    const waiting = ["first", "second", "third"].map((name) =>
      takeThreadSlot().then((slot) => {
        order.push(name);
        return slot;
      }),
    );
    expect(boundedThreadsWaiting()).toBe(3);
    held[0].release();
    held[0].release(); // releasing twice frees one slot only
    const first = await waiting[0];
    expect(boundedThreadsWaiting()).toBe(2);
    held[1].release();
    first.release();
    const rest = await Promise.all(waiting.slice(1));
    expect(order).toEqual(["first", "second", "third"]);
    for (const slot of rest) slot.release();
  });

  it("a read whose request is given up while it waits leaves the line and never starts", async () => {
    const file = await workbook([["a"], ["b"]]);
    const [a, b] = [0, 1].map(() => readXlsxRowsOnThread(file));
    await a.next();
    await b.next();
    const gone = new AbortController();
    const waiting = readXlsxRowsOnThread(file, { signal: gone.signal }).next();
    const after = readXlsxRowsOnThread(file);
    const afterFirst = after.next();
    expect(boundedThreadsWaiting()).toBe(2);
    gone.abort(new Error("the client went away"));
    await expect(waiting).rejects.toThrow("the client went away");
    expect(boundedThreadsWaiting()).toBe(1);
    await drain(a);
    // The slot went to the read behind the one that left.
    expect((await afterFirst).value).toMatchObject({ cells: ["a"] });
    await drain(b);
    await drain(after);
  });

  it("past the longest wait, the caller gets the busy message", async () => {
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    await expect(takeThreadSlot({ maxWaitMs: 1 })).rejects.toThrow(ThreadBusyError);
    expect(boundedThreadsWaiting()).toBe(0);
    expect(new ThreadBusyError().message).toBe(
      "O servidor está ocupado lendo outros arquivos. Tente novamente em instantes.",
    );
    expect(boundedThreadTexts.busy).toBe(new ThreadBusyError().message);
    for (const slot of held) slot.release();
  });

  it("an edited export sent back while the threads are busy is answered with the busy message", async () => {
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const answer = readReturnedFile(Readable.from([await workbook([["x"]])]), "planning", [], 10);
    await vi.waitFor(() => expect(boundedThreadsWaiting()).toBe(1));
    await vi.advanceTimersByTimeAsync(THREAD_WAIT_MS);
    expect(await answer).toEqual({ ok: false, message: boundedThreadTexts.busy });
    vi.useRealTimers();
    for (const slot of held) slot.release();
  });

  it("a thread whose caller leaves a batch untaken is ended, and its slot goes to the next in line", async () => {
    const stream = streamFromBoundedThread<number[]>({
      entry: FIXTURE_WORKER,
      format: null,
      bytes: Buffer.alloc(0),
      data: { batches: [[1], [2], [3]] },
      limits: LIMITS,
      idleMs: 20,
    });
    expect((await stream.next()).value).toEqual([1]);
    expect(boundedThreadsRunning()).toBe(1);
    await vi.waitFor(() => expect(boundedThreadsRunning()).toBe(0), { timeout: 10_000, interval: 20 });
    await expect(stream.next()).rejects.toThrow(ThreadLimitError);
  });
});
