/**
 * Reading a snapshot: its manifest, and its records in chunks (never the whole file in memory), checked or
 * handed over undecoded (a Put record's document may stay cold: cold.ts).
 */
import fs from "node:fs";
import { crc32 } from "node:zlib";
import { decodeDocumentFast, decodeOfficial } from "../bson-decode";
import { corruptAt } from "../checksums";
import { type ColdFile, coldDocument } from "../cold";
import type { Doc } from "../values";
import { RecordType } from "./records";

export type Manifest = { namespaces: string[]; end: number };

/** The snapshot's manifest record (its collections, in file order) and where the records after it start. */
export function readManifest(snapshotPath: string): Manifest | undefined {
  const fd = fs.openSync(snapshotPath, "r");
  try {
    const head = Buffer.alloc(8);
    if (fs.readSync(fd, head, 0, 8, 0) < 8) return undefined;
    const length = head.readUInt32LE(0);
    if (length < 6 || length > 64 * 1024 * 1024) return undefined;
    const payload = Buffer.alloc(length);
    fs.readSync(fd, payload, 0, length, 8);
    if (crc32(payload) !== head.readUInt32LE(4) || payload[0] !== RecordType.Manifest) return undefined;
    const body = decodeOfficial(payload.subarray(1));
    return { namespaces: (body.c as Doc[]).map((c) => c.n as string), end: 8 + length };
  } finally {
    fs.closeSync(fd);
  }
}

const CHUNK = 16 * 1024 * 1024;
/** Small enough that decoding one chunk stays within a few milliseconds (the server answers meanwhile). */
const ASYNC_CHUNK = 4 * 1024 * 1024;

/**
 * Decodes one record's BSON body, with the fast decoder when it can; the official codec decodes a copy (its binary
 * values are views of what it decodes, and a snapshot's chunk buffer is read into again) unless `views` says that
 * the caller copies what it keeps.
 */
function decodeBody(payload: Buffer, views = false): Doc {
  return (
    decodeDocumentFast(payload, 1, payload.length - 1) ??
    decodeOfficial(views ? payload.subarray(1) : Buffer.from(payload.subarray(1)))
  );
}

/** Reads a snapshot's records from `offset` in chunks (never the whole file in memory); throws on corruption. */
export function forEachSnapshotRecord(
  fd: number,
  file: string,
  offset: number,
  onRecord: (type: number, body: Doc) => void,
): void {
  const chunks = new ChunkReader(fd, offset, CHUNK);
  for (let at = 0; ; ) {
    const read = chunks.next(at);
    const { buf, length } = chunks;
    at = 0;
    let end = 0;
    for (; at + 8 <= length && (end = recordEnd(buf, at, length, true)) >= 0; at = end)
      onRecord(buf[at + 8], decodeBody(buf.subarray(at + 8, end)));
    if (end === CORRUPT) throw corruptAt(file, chunks.base + at);
    if (read === 0) {
      chunks.checkEnd(at, file);
      return;
    }
  }
}

/**
 * A file read in chunks into one buffer, used again for each (memory a process touches for the first time is dear,
 * and what a record's callback keeps of it is a copy): the unread tail of the last chunk moves to its front, then
 * the next `size` bytes of the file follow it.
 */
class ChunkReader {
  buf: Buffer;
  /** Where buf[0] lies in the file. */
  base = 0;
  length = 0;
  private pos: number;
  constructor(
    private readonly fd: number,
    offset: number,
    private readonly size: number,
  ) {
    this.buf = Buffer.allocUnsafeSlow(size);
    this.pos = offset;
  }
  /** Keeps buf[from..length) (a record the last chunk cut short) and reads on after it; how many bytes it read. */
  next(from: number): number {
    const tail = this.length - from;
    if (tail + this.size > this.buf.length) {
      const grown = Buffer.allocUnsafeSlow(tail + this.size);
      this.buf.copy(grown, 0, from, this.length);
      this.buf = grown;
    } else if (tail > 0) this.buf.copyWithin(0, from, this.length);
    const read = fs.readSync(this.fd, this.buf, tail, this.size, this.pos);
    this.base = this.pos - tail;
    this.pos += read;
    this.length = tail + read;
    return read;
  }
  /** At the end of the file: nothing may be left over after `at`. */
  checkEnd(at: number, file: string): void {
    if (at < this.length) throw corruptAt(file, this.base + at);
  }
}

const CORRUPT = -2;

/**
 * Where the snapshot record at buf[at] ends, its checksum checked (unless a SnapshotChecker does); -1 when it runs
 * past `length` (its rest in the next chunk), CORRUPT when its length or checksum is wrong.
 */
function recordEnd(buf: Buffer, at: number, length: number, check: boolean): number {
  const size = buf.readUInt32LE(at);
  if (size < 6) return CORRUPT;
  const end = at + 8 + size;
  if (end > length) return -1;
  if (check && crc32(buf.subarray(at + 8, end)) !== buf.readUInt32LE(at + 4)) return CORRUPT;
  return end;
}

/**
 * `at` is where the record starts in the file, `end` where the next one does. A Put record comes undecoded (body
 * undefined): its payload starts at buf[payloadAt]. `onRecord` returns a promise only when it has to be waited for.
 * `check`: whether each record's checksum is checked here (else a SnapshotChecker does it).
 */
export async function forEachSnapshotRecordAsync(
  fd: number,
  file: string,
  offset: number,
  check: boolean,
  onRecord: (
    type: number,
    body: Doc | undefined,
    at: number,
    end: number,
    buf: Buffer,
    payloadAt: number,
  ) => Promise<void> | undefined,
): Promise<void> {
  const chunks = new ChunkReader(fd, offset, ASYNC_CHUNK);
  for (let at = 0; ; ) {
    const read = chunks.next(at);
    const { buf, base, length } = chunks;
    at = 0;
    let end = 0;
    for (; at + 8 <= length && (end = recordEnd(buf, at, length, check)) >= 0; at = end) {
      const type = buf[at + 8];
      // An index order's positions are copied out by readOrderSlice (replay.ts): its body may stay a view of the chunk.
      const body =
        type === RecordType.Put ? undefined : decodeBody(buf.subarray(at + 8, end), type === RecordType.IndexOrder);
      const waited = onRecord(type, body, base + at, base + end, buf, at + 8);
      if (waited) await waited;
    }
    if (end === CORRUPT) throw corruptAt(file, base + at);
    if (read === 0) return chunks.checkEnd(at, file);
  }
}

/**
 * The document of the Put record whose payload starts at buf[payloadAt] ({ n: ns, d: document }) and which starts at
 * `recordAt` in its file: cold, read back from `coldFile`, when its `_id` comes first, else decoded.
 */
export function putDocumentOf(buf: Buffer, payloadAt: number, recordAt: number, coldFile: ColdFile | undefined): Doc {
  // type byte, body size, 0x02 "n\0" and the namespace string, then 0x03 "d\0" and the document.
  const nsAt = payloadAt + 1 + 4 + 3;
  const docAt = nsAt + 4 + buf.readInt32LE(nsAt) + 3;
  const recordEnd = payloadAt + buf.readInt32LE(payloadAt + 1) + 1;
  if (
    buf[payloadAt + 5] === 0x02 &&
    buf[payloadAt + 6] === 0x6e &&
    buf[payloadAt + 7] === 0 &&
    buf[docAt - 3] === 0x03 &&
    buf[docAt - 2] === 0x64 &&
    buf[docAt - 1] === 0 &&
    docAt < recordEnd
  ) {
    const size = buf.readInt32LE(docAt);
    if (docAt + size <= recordEnd) {
      const cold = coldFile && coldDocument(buf, docAt, coldFile, recordAt + 8 + (docAt - payloadAt));
      if (cold) return cold;
      const doc = decodeDocumentFast(buf, docAt, size);
      if (doc) return doc;
    }
  }
  // Not laid out as the writer lays it out: the whole record, the general way.
  const payloadEnd = payloadAt + buf.readUInt32LE(payloadAt - 8);
  return decodeBody(buf.subarray(payloadAt, payloadEnd)).d as Doc;
}
