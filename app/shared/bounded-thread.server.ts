/**
 * Reading an uploaded document on a thread of its own, within limits. A file of a few MB can inflate to gigabytes
 * (a ZIP package: XLSX, DOCX; a PDF's FlateDecode streams), and exceljs, mammoth and PDF.js build what they read in
 * memory: past the heap, V8 ends the process with a fatal error, never an exception. On the thread:
 *   1. every compressed part is inflated first, counting and keeping nothing, and the document is refused past
 *      `maxInflatedBytes` (a ZIP's entries; a PDF's FlateDecode streams, found by their `stream` keyword);
 *   2. the caller's worker module (`entry`) then reads it, with a heap of `heapMb` (past it the thread ends with
 *      ERR_WORKER_OUT_OF_MEMORY, the process goes on) and as many MB of ArrayBuffers (PDF.js keeps a decoded
 *      stream whole, off the heap), checked each time the thread yields;
 *   3. the whole run stops at `timeoutMs`.
 * Past any of them the answer is a ThreadLimitError naming the limit. The thread runs a module file, never text
 * (no `eval`): `entry`, found with workerModuleFile (~/shared/worker-module.server.ts): its .ts through a dev loader
 * from the sources, build/host/<name>-worker.js once built. It gets `workerData` { format, bytes, data, limits } and
 * speaks these messages: `{ progress }`, `{ items }` (streamFromBoundedThread: then waits for `{ more: true }` before
 * getting a second batch ahead), `{ answer }`, `{ failed, name }`, `{ limit }`. Steps 1 and 2's ArrayBuffer watch are
 * serveBoundedThread's (~/shared/bounded-thread-worker.server.ts), which the viewer's and the explorer's workers
 * call; the XLSX reader's worker (packages/xlsx-reader/worker.ts) counts what it inflates itself (`format: null`).
 *
 * The process runs at most MAX_BOUNDED_THREADS of these threads at once, whatever asks for them (see takeThreadSlot).
 */

export type ThreadLimits = { maxInflatedBytes: number; heapMb: number; timeoutMs: number };
export type PackageFormat = "zip" | "pdf";

/**
 * Each thread may hold its heap (a few hundred MB) and a core for up to its time limit, and the machines have 2
 * cores: at most this many run at once in the process, the viewer, the explorer's text extraction and the XLSX reader
 * alike. Whoever asks for one more waits in line (first come, first served) at most THREAD_WAIT_MS, or until its
 * request is given up; a caller takes its place before it reads the bytes, so no bytes wait in line.
 */
export const MAX_BOUNDED_THREADS = 2;
export const THREAD_WAIT_MS = 20_000;
/** How long a batch a thread streamed may wait for its caller before the thread is ended and its slot given on. */
export const THREAD_IDLE_MS = 60_000;

export const boundedThreadTexts = {
  // ours: every bounded thread busy past THREAD_WAIT_MS
  busy: "O servidor está ocupado lendo outros arquivos. Tente novamente em instantes.",
};

/** Every slot stayed taken for the longest wait (THREAD_WAIT_MS): the message says to try again. */
export class ThreadBusyError extends Error {
  constructor() {
    super(boundedThreadTexts.busy);
    this.name = "ThreadBusyError";
  }
}

/** A place among the MAX_BOUNDED_THREADS; `release` gives it to the next in line (a second call does nothing). */
export type ThreadSlot = { release(): void };

let running = 0;
const waiting: Array<() => void> = [];

/** Slots taken now (threads running, or about to: their caller is reading the bytes). */
export function boundedThreadsRunning(): number {
  return running;
}

/** Callers waiting in line for a slot. */
export function boundedThreadsWaiting(): number {
  return waiting.length;
}

function heldSlot(): ThreadSlot {
  running++;
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      running--;
      waiting.shift()?.();
    },
  };
}

/**
 * A slot for one bounded thread, at once when one is free and nobody waits, else in turn; ThreadBusyError after
 * `maxWaitMs`, the signal's reason when it aborts first (either way the caller leaves the line).
 */
export function takeThreadSlot(options: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<ThreadSlot> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (running < MAX_BOUNDED_THREADS && waiting.length === 0) return Promise.resolve(heldSlot());
  return new Promise<ThreadSlot>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const turn = () => {
      done();
      resolve(heldSlot());
    };
    const leave = (reason: unknown) => {
      done();
      const at = waiting.indexOf(turn);
      if (at >= 0) waiting.splice(at, 1);
      reject(reason);
    };
    const onAbort = () => leave(signal?.reason);
    const timer = setTimeout(() => leave(new ThreadBusyError()), options.maxWaitMs ?? THREAD_WAIT_MS);
    signal?.addEventListener("abort", onAbort, { once: true });
    waiting.push(turn);
  });
}

export class ThreadLimitError extends Error {
  constructor(
    readonly limit: "inflated" | "memory" | "time",
    readonly limits: ThreadLimits,
  ) {
    super(`document past its ${limit} limit`);
    this.name = "ThreadLimitError";
  }
}

/** A failure of the caller's code on the thread, with the name and message of the error it threw. */
export class ThreadFailedError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
  ) {
    super(message);
    this.name = "ThreadFailedError";
  }
}

type ThreadMessage =
  | { answer: unknown }
  | { items: unknown }
  | { progress: [number, number | null] }
  | { limit: "inflated" | "memory" }
  | { failed: string; name: string };

/**
 * Runs the worker module `entry` on `bytes` on a thread of its own within `limits` (see above). `onProgress` is awaited between
 * messages; when it throws, the thread is ended and the error is the answer.
 */
export async function runOnBoundedThread<T>(options: RunOptions): Promise<T> {
  const slot = options.slot ?? (await takeThreadSlot({ signal: options.signal }));
  try {
    return await runThread<T>(options);
  } finally {
    slot.release();
  }
}

type RunOptions = {
  entry: URL;
  format: PackageFormat;
  bytes: Buffer;
  limits: ThreadLimits;
  data?: unknown;
  onProgress?: (done: number, total: number | null) => Promise<void>;
} & SlotOptions;

/** A slot the caller took before reading the bytes (else one is taken here); the signal gives up waiting for one. */
type SlotOptions = { slot?: ThreadSlot; signal?: AbortSignal };

async function runThread<T>(options: RunOptions): Promise<T> {
  const { limits } = options;
  const worker = await startThread(options);
  try {
    return await new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ThreadLimitError("time", limits)), limits.timeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        fn();
      };
      let reported = Promise.resolve();
      worker.on("message", (message: ThreadMessage) => {
        if ("progress" in message) {
          const [done, total] = message.progress;
          reported = reported
            .then(() => options.onProgress?.(done, total))
            .catch((error) => settle(() => reject(error)));
        } else if ("limit" in message) settle(() => reject(new ThreadLimitError(message.limit, limits)));
        else if ("failed" in message) settle(() => reject(new ThreadFailedError(message.failed, message.name)));
        else if ("answer" in message) void reported.then(() => settle(() => resolve(message.answer as T)));
      });
      // Past its heap the thread is ended with ERR_WORKER_OUT_OF_MEMORY; the process goes on.
      worker.once("error", (error: NodeJS.ErrnoException) =>
        settle(() =>
          reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new ThreadLimitError("memory", limits) : error),
        ),
      );
      // After any answer still waiting on a progress report (settling twice changes nothing).
      worker.once("exit", () => {
        void reported.then(() => settle(() => reject(new Error("document thread ended without an answer"))));
      });
    });
  } finally {
    await worker.terminate();
  }
}

/** What the thread runs: a module file (see above); `format: null` leaves step 1 to the module. */
type ThreadCode = { entry: URL; format: PackageFormat | null };

type ThreadOptions = ThreadCode & {
  bytes: Buffer;
  limits: ThreadLimits;
  data?: unknown;
};

async function startThread(options: ThreadOptions) {
  const { Worker } = await import("node:worker_threads");
  const { limits } = options;
  const bytes = new Uint8Array(options.bytes);
  const bounds = {
    transferList: [bytes.buffer as ArrayBuffer],
    resourceLimits: {
      maxOldGenerationSizeMb: limits.heapMb,
      maxYoungGenerationSizeMb: Math.min(32, limits.heapMb / 4),
      stackSizeMb: 4,
    },
  };
  const workerData = { format: options.format, bytes, data: options.data, limits };
  return new Worker(options.entry, { workerData, ...bounds });
}

type StreamEvent = ThreadMessage | { error: NodeJS.ErrnoException } | { exit: true } | { aborted: true };

/**
 * Runs the worker module `entry` on `bytes` on a thread of its own within `limits`, giving what it `emit`s, one batch at a time:
 * the thread gets at most one batch ahead of the caller, and `limits.timeoutMs` counts the time the caller waits
 * for the thread, not the time the caller spends on a batch. Ending the iteration early, or `signal` aborting (its
 * reason is thrown), ends the thread; so does a batch left untaken for `idleMs` (THREAD_IDLE_MS): a slow or stalled
 * caller does not keep a slot from the others (the next batch then fails as past the time limit).
 */
export async function* streamFromBoundedThread<T>(
  options: ThreadOptions & SlotOptions & { idleMs?: number },
): AsyncGenerator<T> {
  options.signal?.throwIfAborted();
  const slot = options.slot ?? (await takeThreadSlot({ signal: options.signal }));
  try {
    yield* streamThread<T>(options, slot);
  } finally {
    slot.release();
  }
}

async function* streamThread<T>(
  options: ThreadOptions & { signal?: AbortSignal; idleMs?: number },
  slot: ThreadSlot,
): AsyncGenerator<T> {
  const { limits, signal } = options;
  const worker = await startThread(options);
  const inbox: StreamEvent[] = [];
  let wake: (() => void) | null = null;
  const arrive = (event: StreamEvent) => {
    inbox.push(event);
    wake?.();
  };
  worker.on("message", (message: ThreadMessage) => arrive(message));
  worker.once("error", (error: NodeJS.ErrnoException) => arrive({ error }));
  worker.once("exit", () => arrive({ exit: true }));
  const onAbort = () => arrive({ aborted: true });
  signal?.addEventListener("abort", onAbort, { once: true });
  let left = limits.timeoutMs;
  let since = Date.now();
  try {
    for (;;) {
      const event = inbox.shift();
      if (!event) {
        const wait = left - (Date.now() - since);
        if (wait <= 0) throw new ThreadLimitError("time", limits);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
        continue;
      }
      if ("aborted" in event) throw signal?.reason;
      if ("items" in event) {
        left -= Date.now() - since;
        let idle = false;
        const timer = setTimeout(() => {
          idle = true;
          slot.release();
          void worker.terminate();
        }, options.idleMs ?? THREAD_IDLE_MS);
        try {
          yield event.items as T;
        } finally {
          clearTimeout(timer);
        }
        if (idle) throw new ThreadLimitError("time", limits);
        since = Date.now();
        worker.postMessage({ more: true });
      } else if ("answer" in event) return;
      else if ("limit" in event) throw new ThreadLimitError(event.limit, limits);
      else if ("failed" in event) throw new ThreadFailedError(event.failed, event.name);
      else if ("error" in event)
        throw event.error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new ThreadLimitError("memory", limits) : event.error;
      else if ("exit" in event) throw new Error("document thread ended without an answer");
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await worker.terminate();
  }
}
