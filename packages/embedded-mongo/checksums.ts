/**
 * A snapshot's record checksums checked on a thread of their own, beside the start that reads the same records
 * (Journal.loadInBackground): checking is a fifth of a start's work on the main thread, and the machine has a second
 * core. The start reads the records without checking them and takes a collection as loaded only once the checker has
 * passed its last record (`through`); any error of the start is reported as the checker's corruption when the
 * checker found one before where the start failed. A small snapshot is checked by the start itself (`inline`):
 * starting a thread costs more than checking it.
 */
import { Worker } from "node:worker_threads";

/** The snapshot size from which a thread checks (tests lower it: `checkSnapshotsOnThreadFrom`). */
let threadFrom = 64 * 1024 * 1024;
export function checkSnapshotsOnThreadFrom(bytes: number): void {
  threadFrom = bytes;
}

/** Where the checker is: [0] checked up to (a record boundary), [1] the first record that failed (-1: none). */
const CHECKED = 0;
const FAILED = 1;

/**
 * The checker's code, plain CommonJS (an `eval` worker: nothing to resolve or bundle). It reads the file from
 * `offset` in 4 MB chunks into one buffer, checks each record's length and checksum (length, checksum, then the
 * payload, as the journal writes them), and stores how far it got after each chunk.
 */
const CHECKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { crc32 } = require("node:zlib");
const { file, offset, shared } = workerData;
const progress = new BigInt64Array(shared);
const SIZE = 4 * 1024 * 1024;
const fd = fs.openSync(file, "r");
let buf = Buffer.allocUnsafeSlow(SIZE);
let base = offset;
let length = 0;
let pos = offset;
let failed = -1;
for (;;) {
  const read = fs.readSync(fd, buf, length, buf.length - length, pos);
  pos += read;
  length += read;
  let at = 0;
  while (at + 8 <= length) {
    const size = buf.readUInt32LE(at);
    if (size < 6) { failed = base + at; break; }
    const end = at + 8 + size;
    if (end > length) break;
    if (crc32(buf.subarray(at + 8, end)) !== buf.readUInt32LE(at + 4)) { failed = base + at; break; }
    at = end;
  }
  if (failed < 0 && read === 0 && at < length) failed = base + at;
  if (failed >= 0) { Atomics.store(progress, ${FAILED}, BigInt(failed)); break; }
  Atomics.store(progress, ${CHECKED}, BigInt(base + at));
  if (read === 0) break;
  base += at;
  length -= at;
  if (length + SIZE > buf.length) {
    const grown = Buffer.allocUnsafeSlow(length + SIZE);
    buf.copy(grown, 0, at, at + length);
    buf = grown;
  } else buf.copyWithin(0, at, at + length);
}
fs.closeSync(fd);
`;

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
    this.worker = new Worker(CHECKER_SOURCE, { eval: true, workerData: { file, offset, shared } });
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
