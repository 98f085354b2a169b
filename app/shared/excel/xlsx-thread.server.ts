import type { Readable } from "node:stream";
import {
  bufferInput,
  FileRefusedError,
  type OpenedPackage,
  openXlsxPackage,
  refusalMessages,
  type SourceRow,
  SPOOL_FROM_BYTES,
  UnreadableFileError,
  XLSX_LIMITS,
  type XlsxLimits,
} from "xlsx-reader";
import { type XlsxWorkerData, xlsxWorkerFile } from "xlsx-reader/worker-entry";
import {
  streamFromBoundedThread,
  ThreadBusyError,
  ThreadFailedError,
  ThreadLimitError,
  type ThreadLimits,
  type ThreadSlot,
  takeThreadSlot,
} from "~/shared/bounded-thread.server";

/**
 * The XLSX reader for work done while someone waits on a request (an edited export sent back, an HR file opened
 * from a link): the same reader (packages/xlsx-reader) on a thread of its own (~/shared/bounded-thread.server.ts)
 * running the package's worker module (packages/xlsx-reader/worker.ts; build/host/xlsx-reader-worker.js once built),
 * so the web process's event loop stays free whatever the file holds, within a heap of its own and a time limit,
 * and ended as soon as its caller stops reading. Rows come back in batches; the thread works at most one batch ahead
 * of its caller. A read first waits for a thread's slot (MAX_BOUNDED_THREADS), and only then opens the package, so
 * reads waiting in line hold no package. The package goes to the thread as bytes, or, past SPOOL_FROM_BYTES, as the
 * descriptor of the temporary file it was spooled to (threads share the process's files), read by position there.
 */

/**
 * The thread's heap holds the shared strings (128 MB of XML at most) and a batch of rows; 60 s of the thread's own
 * time is several times what reading 1 GiB takes.
 */
export const XLSX_THREAD_LIMITS = { heapMb: 384, timeoutMs: 60_000 };

/** Rows are handed over in batches of about this many cells. */
const BATCH_CELLS = 16_384;

/** The reader's error for what the thread ended with. */
function readerError(error: unknown, limits: ThreadLimits): unknown {
  if (error instanceof ThreadLimitError)
    return new FileRefusedError(
      error.limit === "time"
        ? refusalMessages.time(Math.round(limits.timeoutMs / 1000))
        : error.limit === "memory"
          ? refusalMessages.memory(limits.heapMb)
          : refusalMessages.inflated(limits.maxInflatedBytes),
    );
  if (error instanceof ThreadFailedError) {
    // The reader's own errors come worded; anything else it met is the file's fault, as in process.
    if (error.errorName === "FileRefusedError") return new FileRefusedError(error.message);
    if (error.errorName === "UnreadableFileError") return new UnreadableFileError(error.message);
    return new UnreadableFileError(`XLSX inválido: ${error.message}`);
  }
  if (error instanceof UnreadableFileError) return error;
  return new UnreadableFileError(`XLSX inválido: ${(error as Error).message}`, { cause: error });
}

/**
 * The rows of the first worksheet of the XLSX in `source`, read on a bounded thread, within `limits` (XLSX_LIMITS)
 * and XLSX_THREAD_LIMITS. Fails as readXlsxRows does: UnreadableFileError, or FileRefusedError naming the cap (the
 * thread's time and memory included); ThreadBusyError when no thread is free within THREAD_WAIT_MS; `signal` ends
 * the wait or the thread (its reason is thrown).
 */
export async function* readXlsxRowsOnThread(
  source: Readable | Buffer,
  options: { limits?: XlsxLimits; signal?: AbortSignal; spoolFromBytes?: number } = {},
): AsyncGenerator<SourceRow> {
  const { signal } = options;
  const limits = options.limits ?? XLSX_LIMITS;
  const threadLimits: ThreadLimits = {
    maxInflatedBytes: limits.inflatedBytes,
    heapMb: XLSX_THREAD_LIMITS.heapMb,
    timeoutMs: XLSX_THREAD_LIMITS.timeoutMs,
  };
  let opened: OpenedPackage | null = null;
  let slot: ThreadSlot | null = null;
  try {
    if (Buffer.isBuffer(source) && source.length > limits.packageBytes)
      throw new FileRefusedError(refusalMessages.package(limits.packageBytes));
    slot = await takeThreadSlot({ signal });
    opened = Buffer.isBuffer(source)
      ? bufferInput(source)
      : await openXlsxPackage(source, limits, options.spoolFromBytes ?? SPOOL_FROM_BYTES, signal);
    const data: XlsxWorkerData = {
      limits,
      batchCells: BATCH_CELLS,
      file: opened.bytes ? null : { fd: opened.fd as number, size: opened.size },
    };
    const batches = streamFromBoundedThread<SourceRow[]>({
      entry: xlsxWorkerFile(),
      format: null,
      bytes: opened.bytes ?? Buffer.alloc(0),
      limits: threadLimits,
      data,
      signal,
      slot,
    });
    for await (const batch of batches) yield* batch;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ThreadBusyError) throw error;
    throw readerError(error, threadLimits);
  } finally {
    slot?.release();
    if (!Buffer.isBuffer(source)) source.destroy();
    await opened?.close();
  }
}
