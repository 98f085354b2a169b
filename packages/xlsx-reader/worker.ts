import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { bufferInput, descriptorInput } from "./input";
import type { SourceRow } from "./limits";
import { readRows } from "./read";
import type { XlsxWorkerData } from "./worker-entry";

/**
 * The reader's worker thread: a module of its own (build/host/xlsx-reader-worker.js once built; worker-entry.ts
 * finds it), started by the portal's bounded-thread runner with the package's bytes (or the descriptor of the file
 * they were spooled to) and the caps. It speaks the runner's messages: `{ items }` for each batch of rows, sent at
 * most one batch ahead of the caller (the caller answers `{ more: true }` as it takes one); `{ answer: null }` at the
 * end; `{ failed, name }` with the error the reader threw (its message already worded); `{ limit: "memory" }` when
 * the ArrayBuffers it holds pass the thread's heap (V8's limit does not count them).
 */

type Start = { bytes: Uint8Array; data: XlsxWorkerData; limits: { heapMb: number } };

/** Hands a batch to the caller; resolves once the caller has taken all but this one. */
function batchSender(port: MessagePort): (items: SourceRow[]) => Promise<void> {
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

/** Reports once when the ArrayBuffers held pass `heapMb` (checked every 100 ms). */
function watchArrayBuffers(port: MessagePort, heapMb: number): void {
  const watch = setInterval(() => {
    if (process.memoryUsage().arrayBuffers <= heapMb * 1024 * 1024) return;
    clearInterval(watch);
    port.postMessage({ limit: "memory" });
  }, 100);
  watch.unref();
}

/** Reads the rows and sends them in batches of about `batchCells` cells. */
async function run(start: Start, send: (items: SourceRow[]) => Promise<void>): Promise<void> {
  const { limits, batchCells, file } = start.data;
  const bytes = Buffer.from(start.bytes.buffer, start.bytes.byteOffset, start.bytes.byteLength);
  const input = file ? descriptorInput(file.fd, file.size) : bufferInput(bytes);
  let batch: SourceRow[] = [];
  let cells = 0;
  for await (const row of readRows(input, limits)) {
    batch.push(row);
    cells += row.cells.length + 1;
    if (cells >= batchCells) {
      await send(batch);
      batch = [];
      cells = 0;
    }
  }
  if (batch.length > 0) await send(batch);
}

if (parentPort) {
  const port = parentPort;
  const start = workerData as Start;
  watchArrayBuffers(port, start.limits.heapMb);
  run(start, batchSender(port)).then(
    () => port.postMessage({ answer: null }),
    (error: Error) => port.postMessage({ failed: String(error?.message), name: String(error?.name) }),
  );
}
