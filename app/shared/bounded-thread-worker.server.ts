import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import zlib from "node:zlib";
import JSZip from "jszip";
import type { PackageFormat, ThreadLimits } from "./bounded-thread.server";

/**
 * The thread side of ~/shared/bounded-thread.server.ts, for the worker modules the runner starts (the viewer's
 * converter, the explorer's text extraction): `serveBoundedThread(run)` inflates every compressed part of the
 * document first, counting and keeping nothing (refused past `maxInflatedBytes`: a ZIP's entries, a PDF's FlateDecode
 * streams; left out when the caller passes `format: null`), watches the thread's ArrayBuffers against `heapMb`, then
 * calls `run(buffer, data, tools)` and posts what it returns. Messages: `{ progress }`, `{ items }` (emit), `{ answer }`,
 * `{ limit }`, `{ failed, name }`. Imports nothing beyond what a worker module may bundle (build/host/*-worker.js).
 */

/** What the runner starts each thread with. */
export type BoundedThreadStart = {
  format: PackageFormat | null;
  bytes: Uint8Array;
  data: unknown;
  limits: ThreadLimits;
};

export type ThreadTools = {
  /** Reports how far the work is (the runner awaits its caller's progress handler between messages). */
  progress(done: number, total?: number | null): void;
  /** Hands items to the caller (streamFromBoundedThread); resolves once the caller has taken all but this batch. */
  emit(items: unknown): Promise<void>;
};

class LimitReached extends Error {}

function emitter(port: MessagePort): ThreadTools["emit"] {
  // Batches handed over and not yet taken by the caller: the thread works on the next one, never further ahead.
  let unread = 0;
  let resume: (() => void) | null = null;
  port.on("message", (message: { more?: boolean } | null) => {
    if (!message?.more) return;
    unread--;
    const next = resume;
    resume = null;
    next?.();
  });
  return (items) => {
    unread++;
    port.postMessage({ items });
    return unread < 2 ? Promise.resolve() : new Promise<void>((resolve) => (resume = resolve));
  };
}

function watchArrayBuffers(port: MessagePort, heapMb: number): void {
  const watch = setInterval(() => {
    if (process.memoryUsage().arrayBuffers <= heapMb * 1024 * 1024) return;
    clearInterval(watch);
    port.postMessage({ limit: "memory" });
  }, 100);
  watch.unref();
}

function counter(limit: number): (n: number) => boolean {
  let total = 0;
  return (n) => {
    total += n;
    return total > limit;
  };
}

function drain(stream: NodeJS.ReadableStream, over: (n: number) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on("data", (chunk: Uint8Array) => {
      if (over(chunk.length)) {
        stream.pause();
        reject(new LimitReached());
      }
    });
    stream.on("error", () => resolve()); // what it cannot inflate, the reader will not read either
    stream.on("end", () => resolve());
    stream.resume();
  });
}

type InternalStream = { internalStream(type: "uint8array"): NodeJS.ReadableStream };

async function checkZip(buffer: Buffer, over: (n: number) => boolean): Promise<void> {
  const zip = await JSZip.loadAsync(buffer);
  for (const file of Object.values(zip.files))
    if (!file.dir) await drain((file as unknown as InternalStream).internalStream("uint8array"), over);
}

async function checkPdf(buffer: Buffer, over: (n: number) => boolean): Promise<void> {
  const keyword = Buffer.from("stream");
  for (let at = buffer.indexOf(keyword); at >= 0; at = buffer.indexOf(keyword, at + keyword.length)) {
    if (buffer.toString("latin1", at - 3, at) === "end") continue;
    let start = at + keyword.length;
    if (buffer[start] === 0x0d) start++;
    if (buffer[start] === 0x0a) start++;
    if (start === at + keyword.length) continue;
    const cmf = buffer[start];
    const flg = buffer[start + 1];
    if ((cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0) continue; // not a zlib stream
    const inflater = zlib.createInflate();
    const done = drain(inflater, over);
    inflater.end(buffer.subarray(start)); // inflating stops at the stream's own end
    try {
      await done;
    } finally {
      inflater.destroy();
    }
  }
}

/** An exceljs cell value as plain data to post back: a result, rich text as its runs' text, a link's text, an error. */
export function plainCell(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== "object" || value instanceof Date) return value;
  const cell = value as Record<string, unknown>;
  if ("result" in cell) return { result: plainCell(cell.result) };
  if (Array.isArray(cell.richText))
    return { richText: cell.richText.map((run: { text?: unknown }) => ({ text: String(run.text ?? "") })) };
  if ("text" in cell) return { text: String(cell.text) };
  if ("error" in cell) return { error: String(cell.error) };
  return null;
}

/** Runs `run` on the thread's document (see above); does nothing outside a worker thread. */
export function serveBoundedThread<D>(run: (buffer: Buffer, data: D, tools: ThreadTools) => Promise<unknown>): void {
  if (!parentPort) return;
  const port = parentPort;
  const start = workerData as BoundedThreadStart;
  watchArrayBuffers(port, start.limits.heapMb);
  const tools: ThreadTools = {
    progress: (done, total) => port.postMessage({ progress: [done, total ?? null] }),
    emit: emitter(port),
  };
  const work = async () => {
    const buffer = Buffer.from(start.bytes.buffer, start.bytes.byteOffset, start.bytes.byteLength);
    const over = counter(start.limits.maxInflatedBytes);
    if (start.format === "pdf") await checkPdf(buffer, over);
    else if (start.format === "zip") await checkZip(buffer, over);
    return run(buffer, start.data as D, tools);
  };
  work().then(
    (answer) => port.postMessage({ answer }),
    (error: Error) =>
      port.postMessage(
        error instanceof LimitReached
          ? { limit: "inflated" }
          : { failed: String(error?.message), name: String(error?.name) },
      ),
  );
}
