import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { crc32 } from "node:zlib";
import { CHECKED, type ChecksumWorkerData, FAILED } from "./checksum-progress";

/**
 * The snapshot checker's thread (checksums.ts starts it; build/host/embedded-mongo-checksums.js once built). It reads
 * the file from `offset` in 4 MB chunks into one buffer, checks each record's length and checksum (length, checksum,
 * then the payload, as the journal writes them), and stores how far it got after each chunk (checksum-progress.ts).
 */

const SIZE = 4 * 1024 * 1024;

/** The offset, in `buf[0, length)` read from file offset `base`, of the first bad record, or -1; and where it stopped. */
function scan(buf: Buffer, length: number, base: number): { at: number; failed: number } {
  let at = 0;
  while (at + 8 <= length) {
    const size = buf.readUInt32LE(at);
    if (size < 6) return { at, failed: base + at };
    const end = at + 8 + size;
    if (end > length) break;
    if (crc32(buf.subarray(at + 8, end)) !== buf.readUInt32LE(at + 4)) return { at, failed: base + at };
    at = end;
  }
  return { at, failed: -1 };
}

function check({ file, offset, shared }: ChecksumWorkerData): void {
  const progress = new BigInt64Array(shared);
  const fd = fs.openSync(file, "r");
  let buf = Buffer.allocUnsafeSlow(SIZE);
  let base = offset;
  let length = 0;
  let pos = offset;
  try {
    for (;;) {
      const read = fs.readSync(fd, buf, length, buf.length - length, pos);
      pos += read;
      length += read;
      let { at, failed } = scan(buf, length, base);
      if (failed < 0 && read === 0 && at < length) failed = base + at;
      if (failed >= 0) {
        Atomics.store(progress, FAILED, BigInt(failed));
        return;
      }
      Atomics.store(progress, CHECKED, BigInt(base + at));
      if (read === 0) return;
      base += at;
      length -= at;
      if (length + SIZE > buf.length) {
        const grown = Buffer.allocUnsafeSlow(length + SIZE);
        buf.copy(grown, 0, at, at + length);
        buf = grown;
      } else buf.copyWithin(0, at, at + length);
    }
  } finally {
    fs.closeSync(fd);
  }
}

if (parentPort) check(workerData as ChecksumWorkerData);
