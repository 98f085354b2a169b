/**
 * The journal's records: u32 payload length | u32 CRC-32 of the payload | payload, where payload = u8 record type |
 * BSON document. Encoding (into a shared slab, or around a command's own BSON), and reading a journal back up to its
 * first torn or corrupt record (a crash in the middle of a write). Every record is idempotent (put/delete by _id,
 * create/drop), so replaying a journal over a snapshot that already contains it is harmless.
 */
import { crc32 } from "node:zlib";
import { BSON } from "bson";
import { decodeOfficial, idElementOf } from "../bson-decode";
import type { Doc } from "../values";

export enum RecordType {
  Put = 1,
  Delete = 2,
  CreateCollection = 3,
  DropCollection = 4,
  CreateIndex = 5,
  DropIndex = 6,
  DropDatabase = 7,
  /** First record of a snapshot: its collections in file order (smallest first), so a start can load them one by one. */
  Manifest = 8,
  /**
   * In a snapshot, after a collection's documents: a slice of one index's order, as the positions (uint32,
   * little-endian) of its entries' documents among the collection's documents in the file, from position `f`.
   * A start then builds the index without sorting (checked in one pass; sorted after all if it does not hold).
   */
  IndexOrder = 9,
  /**
   * Every document of one insert command: { n: ns, d: [documents] }, the array as the command carried it (a
   * document's `_id` may come last: replay puts it first, as the server stored it).
   */
  PutMany = 10,
}

/** A Uint32Array's bytes are the little-endian uint32 an IndexOrder record holds. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeRecord(type: number, body: Doc): Buffer {
  // Most records are small: serialized straight into a shared slab (one allocation per megabyte, not two per record).
  ensureArenaRoom();
  const start = arenaPos;
  let last: number;
  try {
    last = BSON.serializeWithBufferAndIndex(body, arena, { index: start + 9 });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return encodeRecordAlone(type, body);
  }
  const out = arena.subarray(start, last + 1);
  arenaPos = last + 1;
  out[8] = type;
  out.writeUInt32LE(out.length - 8, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/**
 * A Put record ({ n: ns, d: document }) around a document's own BSON, laid out as BSON.serialize would, its
 * `_id` element moved first (as stored; the driver appends a generated _id). Undefined when it has no `_id`.
 */
export function encodePutRecord(ns: string, doc: Buffer): Buffer | undefined {
  const id = idElementOf(doc);
  if (!id) return undefined;
  const nsBytes = Buffer.byteLength(ns);
  const total = 9 + putBodySize(nsBytes, doc.length);
  let out: Buffer;
  if (total <= ARENA_MIN_FREE) {
    ensureArenaRoom();
    out = arena.subarray(arenaPos, arenaPos + total);
    arenaPos += total;
  } else out = Buffer.allocUnsafe(total);
  let i = writePutHead(out, ns, nsBytes, 0x03);
  const [idStart, idEnd] = id;
  i += doc.copy(out, i, 0, 4);
  i += doc.copy(out, i, idStart, idEnd);
  i += doc.copy(out, i, 4, idStart);
  i += doc.copy(out, i, idEnd, doc.length);
  return sealPutRecord(out, RecordType.Put);
}

/** A PutMany record around an insert command's `documents` array, in its own buffer (one copy, one checksum). */
export function encodePutManyRecord(ns: string, documents: Buffer): Buffer {
  const nsBytes = Buffer.byteLength(ns);
  const out = Buffer.allocUnsafe(9 + putBodySize(nsBytes, documents.length));
  documents.copy(out, writePutHead(out, ns, nsBytes, 0x04));
  return sealPutRecord(out, RecordType.PutMany);
}

/** The size of a put body: int32 size | 0x02 "n" int32 len ns 0 | 0x03 or 0x04 "d" value | 0. */
function putBodySize(nsBytes: number, valueBytes: number): number {
  return 4 + (3 + 4 + nsBytes + 1) + (3 + valueBytes) + 1;
}

/** Writes a put body up to its value (a document, 0x03, or an array, 0x04) into `out` after the record's head; returns where the value goes. */
function writePutHead(out: Buffer, ns: string, nsBytes: number, valueType: 0x03 | 0x04): number {
  let i = 9;
  out.writeInt32LE(out.length - 9, i);
  i += 4;
  out[i++] = 0x02;
  out[i++] = 0x6e; // n
  out[i++] = 0;
  out.writeInt32LE(nsBytes + 1, i);
  i += 4;
  i += out.write(ns, i, "utf8");
  out[i++] = 0;
  out[i++] = valueType;
  out[i++] = 0x64; // d
  out[i++] = 0;
  return i;
}

/** Ends a put record whose value fills `out` up to its last byte: the body's 0, the record's type, length and checksum. */
function sealPutRecord(out: Buffer, type: RecordType): Buffer {
  out[out.length - 1] = 0;
  out[8] = type;
  out.writeUInt32LE(out.length - 8, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/** Joins buffers that are adjacent views of the same memory into one view each (no copy); others stay apart. */
export function contiguousRuns(records: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let current: Buffer | undefined;
  for (const r of records) {
    if (current && current.buffer === r.buffer && current.byteOffset + current.length === r.byteOffset) {
      current = Buffer.from(current.buffer, current.byteOffset, current.length + r.length);
    } else {
      if (current) out.push(current);
      current = r;
    }
  }
  if (current) out.push(current);
  return out;
}

const ARENA_BYTES = 1024 * 1024;
const ARENA_MIN_FREE = 64 * 1024;
let arena = Buffer.alloc(0);
let arenaPos = 0;

/** A new slab when the current one has less than ARENA_MIN_FREE bytes left (the records before keep the old one). */
function ensureArenaRoom(): void {
  if (arena.length - arenaPos < ARENA_MIN_FREE) {
    arena = Buffer.allocUnsafe(ARENA_BYTES);
    arenaPos = 0;
  }
}

/** A record in its own buffer (one that does not fit the slab). */
function encodeRecordAlone(type: number, body: Doc): Buffer {
  const bson = BSON.serialize(body);
  const out = Buffer.allocUnsafe(9 + bson.length);
  out[8] = type;
  out.set(bson, 9);
  out.writeUInt32LE(bson.length + 1, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/** Reads records until the end or the first torn/corrupt one; returns the valid length. */
export function readRecords(buf: Buffer, onRecord: (type: number, body: Doc) => void): number {
  let pos = 0;
  while (pos + 8 <= buf.length) {
    const length = buf.readUInt32LE(pos);
    const sum = buf.readUInt32LE(pos + 4);
    if (length < 6 || pos + 8 + length > buf.length) break;
    const payload = buf.subarray(pos + 8, pos + 8 + length);
    if (crc32(payload) !== sum) break;
    let body: Doc;
    try {
      body = decodeOfficial(payload.subarray(1));
    } catch {
      break;
    }
    onRecord(payload[0], body);
    pos += 8 + length;
  }
  return pos;
}

export function splitNs(ns: string): [string, string] {
  const dot = ns.indexOf(".");
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}
