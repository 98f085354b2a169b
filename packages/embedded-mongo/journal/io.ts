/**
 * The journal's files and disk operations: their names, the injectable writes, fsync of a directory, copying a range.
 */
import fs from "node:fs";

export const JOURNAL_FILE = "journal.log";
export const SNAPSHOT_FILE = "snapshot.bson";
export const SNAPSHOT_TMP = "snapshot.tmp";

export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The disk operations of the journal; tests inject failures (a full disk) through this. */
export type JournalIo = {
  write(fd: number, data: Buffer): Promise<void>;
  datasync(fd: number): Promise<void>;
  truncate(fd: number, length: number): Promise<void>;
};

export const nodeIo: JournalIo = {
  write: (fd, data) => writeAll(fd, data),
  datasync: (fd) => new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve()))),
  truncate: (fd, length) =>
    new Promise<void>((resolve, reject) => fs.ftruncate(fd, length, (e) => (e ? reject(e) : resolve()))),
};

/** Copies `length` bytes at `at` of one file to the end of another, a few megabytes at a time. */
export async function copyRange(from: number, to: number, at: number, length: number): Promise<void> {
  for (const piece of rangePieces(from, at, length)) await writeAll(to, piece);
}

export function copyRangeSync(from: number, to: number, at: number, length: number): void {
  for (const piece of rangePieces(from, at, length)) {
    for (let done = 0; done < piece.length; ) done += fs.writeSync(to, piece, done);
  }
}

/** The bytes of a range of a file, read a few megabytes at a time into one buffer (each piece is spent before the next read). */
function* rangePieces(fd: number, at: number, length: number): Generator<Buffer> {
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(length, 4 * 1024 * 1024)));
  for (let done = 0; done < length; ) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, length - done), at + done);
    if (n <= 0) throw new Error(`the snapshot ended at byte ${at + done} while copying a collection from it`);
    yield buf.subarray(0, n);
    done += n;
  }
}

export function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number) => {
      fs.write(fd, data, offset, data.length - offset, null, (error, written) => {
        if (error) return reject(error);
        if (offset + written < data.length) step(offset + written);
        else resolve();
      });
    };
    step(0);
  });
}
