/**
 * A snapshot's record checksums checked on a thread of their own, beside the start that reads the same records
 * (Journal.loadInBackground): checking is a fifth of a start's work on the main thread, and the machine has a second
 * core. The start reads the records without checking them and takes a collection as loaded only once the checker has
 * passed its last record (`through`); any error of the start is reported as the checker's corruption when the
 * checker found one before where the start failed. A small snapshot is checked by the start itself (`inline`):
 * starting a thread costs more than checking it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { CHECKED, type ChecksumWorkerData, FAILED } from "./checksum-progress";

/** The snapshot size from which a thread checks (tests lower it: `checkSnapshotsOnThreadFrom`). */
let threadFrom = 64 * 1024 * 1024;
export function checkSnapshotsOnThreadFrom(bytes: number): void {
  threadFrom = bytes;
}

/** The checker thread's built file (server/build-host.ts writes it beside the bundles, build/host). */
export const CHECKSUM_WORKER_BUILT = "embedded-mongo-checksums.js";

/**
 * The checker thread's module file, for `new Worker(file)` (nothing is evaluated from text): running from these
 * sources (tests, `npm run db`), checksum-worker-dev.mjs beside this module, which loads checksum-worker.ts through
 * tsx's loader (a worker thread does not inherit it); bundled (build/host/embedded-mongo.js and its chunks), the
 * built CHECKSUM_WORKER_BUILT beside the bundle.
 */
export function checksumWorkerFile(from: string = import.meta.url): URL {
  const here = path.dirname(fileURLToPath(from));
  const candidates = [path.join(here, "checksum-worker-dev.mjs"), path.join(here, CHECKSUM_WORKER_BUILT)];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`the snapshot checker's worker is missing (looked for ${candidates.join(", ")})`);
  return pathToFileURL(file);
}

export class SnapshotChecker {
  /** The checker's progress ([CHECKED], [FAILED]), stored and loaded with Atomics. */
  private readonly progress: BigInt64Array;
  private readonly worker: Worker | undefined;
  private exited: Error | undefined;

  /** `size`: the file's size; below the threshold no thread starts and `inline` is true. */
  constructor(
    private readonly file: string,
    offset: number,
    size: number,
  ) {
    const shared = new SharedArrayBuffer(16);
    this.progress = new BigInt64Array(shared);
    this.progress[CHECKED] = BigInt(offset);
    this.progress[FAILED] = -1n;
    if (size < threadFrom) return;
    const workerData: ChecksumWorkerData = { file, offset, shared };
    this.worker = new Worker(checksumWorkerFile(), { workerData });
    this.worker.unref();
    this.worker.on("error", (error) => (this.exited = error));
    this.worker.on("exit", () => (this.exited ??= new Error("the snapshot checker stopped")));
  }

  /** Whether the start checks each record itself (no thread). */
  get inline(): boolean {
    return this.worker === undefined;
  }

  /** Resolves once every record before `position` is checked; throws the corruption the checker found before it. */
  async through(position: number, stopped: () => boolean): Promise<void> {
    if (this.inline) return;
    for (;;) {
      // Read before the progress: a checker that exits has stored all of it.
      const exited = this.exited;
      this.throwIfCorruptBefore(position);
      if (this.at(CHECKED) >= position) return;
      if (exited) throw new Error(`the snapshot checker stopped before byte ${position}: ${exited.message}`);
      if (stopped()) return;
      await tick();
    }
  }

  /** The error to report for a failure of the start at `position`: the corruption found before it, if any. */
  async explain(error: Error, position: number): Promise<Error> {
    if (this.inline) return error;
    // Wait for the checker to reach where the start failed (or to stop).
    while (!this.exited && this.at(CHECKED) < position && this.at(FAILED) < 0) await tick();
    const failed = this.at(FAILED);
    return failed >= 0 && failed <= position ? corruptAt(this.file, failed) : error;
  }

  stop(): void {
    void this.worker?.terminate();
  }

  private at(which: number): number {
    return Number(Atomics.load(this.progress, which));
  }

  private throwIfCorruptBefore(position: number): void {
    const failed = this.at(FAILED);
    if (failed >= 0 && failed < position) throw corruptAt(this.file, failed);
  }
}

/** A millisecond's wait between two looks at the checker's progress. */
function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

export function corruptAt(file: string, at: number): Error {
  return new Error(`The embedded database snapshot ${file} is corrupt at byte ${at}; restore it from a backup.`);
}
