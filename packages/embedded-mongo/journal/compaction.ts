/**
 * Compaction: the whole catalogue written to snapshot.tmp (in slices while serving, or at once), fsynced, renamed
 * over snapshot.bson, the directory fsynced, and the journal emptied or cut back to the tail written meanwhile.
 * The Journal decides when; this holds the thresholds and the file steps.
 */
import fs from "node:fs";
import path from "node:path";
import type { Catalog } from "../storage/catalog";
import { copyRange, copyRangeSync, fsyncDir, JOURNAL_FILE, SNAPSHOT_FILE, SNAPSHOT_TMP, writeAll } from "./io";
import { pauseSlice, STOPPED } from "./slices";
import { type Reuse, snapshotChunks } from "./snapshot";

const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
let compactMinBytes = COMPACT_MIN_BYTES;
const JOURNAL_MAX_BYTES = 512 * 1024 * 1024;

/** Tests: compact past `bytes` of journal instead of 64 MB (undefined restores the default). */
export function setCompactionThreshold(bytes: number | undefined): void {
  compactMinBytes = bytes ?? COMPACT_MIN_BYTES;
}

/**
 * Whether a journal of `size` bytes over a snapshot of `snapshotSize` asks for a compaction: past three times the
 * snapshot, or past 512 MB whatever the snapshot's size (the journal is read whole at start, and readFileSync cannot
 * read 2 GiB or more, so it must never grow near that); never below the threshold.
 */
export function journalOutgrown(size: number, snapshotSize: number): boolean {
  return size > compactMinBytes && (size > 3 * snapshotSize || size > JOURNAL_MAX_BYTES);
}

/**
 * Writes snapshot.tmp from `reuse` and the catalogue, a chunk per slice (commands run in between), and fsyncs it;
 * throws STOPPED when `stopped()` says so between chunks. Returns the bytes written.
 */
export async function writeSnapshotInSlices(
  dir: string,
  catalog: Catalog,
  reuse: Reuse,
  stopped: () => boolean,
): Promise<number> {
  const fd = fs.openSync(path.join(dir, SNAPSHOT_TMP), "w");
  let source: number | undefined;
  let written = 0;
  try {
    for (const piece of snapshotChunks(catalog, reuse)) {
      if (piece.copy) {
        source ??= fs.openSync(path.join(dir, SNAPSHOT_FILE), "r");
        await copyRange(source, fd, piece.copy.at, piece.copy.length);
        written += piece.copy.length;
      } else {
        for (const run of piece.records) {
          await writeAll(fd, run);
          written += run.length;
        }
      }
      // Between chunks (a megabyte, or 256 documents): other commands run.
      await pauseSlice();
      if (stopped()) throw STOPPED;
    }
    await new Promise<void>((resolve, reject) => fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
  } finally {
    fs.closeSync(fd);
    if (source !== undefined) fs.closeSync(source);
  }
  return written;
}

/** Writes snapshot.tmp from `reuse` and the catalogue in one synchronous step, and fsyncs it; returns its bytes. */
export function writeSnapshotNow(dir: string, catalog: Catalog, reuse: Reuse): number {
  const fd = fs.openSync(path.join(dir, SNAPSHOT_TMP), "w");
  let source: number | undefined;
  let written = 0;
  try {
    for (const piece of snapshotChunks(catalog, reuse)) {
      if (piece.copy) {
        source ??= fs.openSync(path.join(dir, SNAPSHOT_FILE), "r");
        copyRangeSync(source, fd, piece.copy.at, piece.copy.length);
        written += piece.copy.length;
      } else {
        for (const run of piece.records) {
          fs.writeSync(fd, run);
          written += run.length;
        }
      }
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
    if (source !== undefined) fs.closeSync(source);
  }
  return written;
}

/**
 * Copies the journal's bytes from `from` to `to` (what was appended while a snapshot was written) to journal.log.tmp,
 * fsynced; returns their length.
 */
export function writeJournalTail(dir: string, from: number, to: number): number {
  const journalPath = path.join(dir, JOURNAL_FILE);
  const tail = Buffer.alloc(to - from);
  if (tail.length > 0) {
    const reader = fs.openSync(journalPath, "r");
    try {
      fs.readSync(reader, tail, 0, tail.length, from);
    } finally {
      fs.closeSync(reader);
    }
  }
  const tailFd = fs.openSync(`${journalPath}.tmp`, "w");
  try {
    if (tail.length > 0) fs.writeSync(tailFd, tail);
    fs.fsyncSync(tailFd);
  } finally {
    fs.closeSync(tailFd);
  }
  return tail.length;
}

/**
 * Renames snapshot.tmp over snapshot.bson, and with `withTail` journal.log.tmp over journal.log (writeJournalTail),
 * fsyncing the directory after each. A crash between the two renames leaves the new snapshot with the whole old
 * journal: still correct.
 */
export function installSnapshot(dir: string, withTail: boolean): void {
  fs.renameSync(path.join(dir, SNAPSHOT_TMP), path.join(dir, SNAPSHOT_FILE));
  fsyncDir(dir);
  if (!withTail) return;
  const journalPath = path.join(dir, JOURNAL_FILE);
  fs.renameSync(`${journalPath}.tmp`, journalPath);
  fsyncDir(dir);
}
