/**
 * A decoder for the documents of insert batches (OP_MSG kind-1 sequences), where the server spends
 * most of its time. It handles the plain types those documents hold — double, string, embedded
 * document, array, ObjectId, boolean, date, null, int32 and int64 within ±2^53 — and gives up
 * (returns undefined) on anything else, on a malformed document, on a field name starting with `$`
 * (possible DBRef) or `__proto__`, and on a string that may not be valid UTF-8. The caller then uses
 * `BSON.deserialize`, so the result (and every error) is what the official codec gives with the server's
 * options (promoteLongs, promoteValues, no BSON regexps, UTF-8 validation): the same values, types and
 * field order, with two differences no reader can see — ObjectIds packed into three numbers
 * (object-id.ts), and short strings and dates shared between documents (below).
 */
import { BSON } from "bson";
import { newObjectId, packedObjectId, packObjectIds } from "./object-id";
import type { Doc } from "./values";

type FastBuffer = Buffer & {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
};

const MAX_SAFE_HIGH = 0x200000; // 2^53 / 2^32
const BAIL = Symbol("bail");
const NAME_SLOTS = 256;
/** the field names last seen at each position of a top-level document */
const names: (string | undefined)[] = new Array(NAME_SLOTS).fill(undefined);

function isAscii(buf: Buffer, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (buf[k] > 0x7f) return false;
  return true;
}

function sameAscii(buf: Buffer, start: number, end: number, s: string): boolean {
  if (s.length !== end - start) return false;
  for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) !== buf[start + k]) return false;
  return true;
}

/** A string value from its UTF-8 bytes, or BAIL when they may be invalid (a replacement character: the official codec judges). */
function stringOf(buf: FastBuffer, start: number, end: number, ascii: boolean): string | typeof BAIL {
  if (ascii) return buf.latin1Slice(start, end);
  const u = buf.utf8Slice(start, end);
  return u.includes("\uFFFD") ? BAIL : u;
}

/*
 * Short string values repeat across documents (a channel, a brand, a category: 10 M values and 31 k distinct
 * ones in the planning rows at scale 10). Each decoded copy used to be its own heap object, kept as long as
 * the document, and every full collection of the database's heap walked them all. The last string decoded
 * from the same bytes is handed out again instead: a direct-mapped table keyed by a hash of the bytes, so a
 * hit allocates nothing. Strings are immutable, so sharing one is invisible to every reader.
 */
const SHARED_MAX_BYTES = 48;
const SHARED_SLOTS = 1 << 14;
const sharedStrings: (string | undefined)[] = new Array(SHARED_SLOTS).fill(undefined);
const sharedBytes = new Uint8Array(SHARED_SLOTS * SHARED_MAX_BYTES);
const sharedLengths = new Uint8Array(SHARED_SLOTS);

function sharedString(buf: FastBuffer, start: number, end: number): string | typeof BAIL {
  const n = end - start;
  let hash = 0x811c9dc5; // FNV-1a
  let ascii = true;
  for (let k = start; k < end; k++) {
    const b = buf[k];
    if (b > 0x7f) ascii = false;
    hash = Math.imul(hash ^ b, 0x01000193);
  }
  const slot = (hash >>> 0) & (SHARED_SLOTS - 1);
  const base = slot * SHARED_MAX_BYTES;
  const cached = sharedStrings[slot];
  if (cached !== undefined && sharedLengths[slot] === n) {
    let k = 0;
    while (k < n && sharedBytes[base + k] === buf[start + k]) k++;
    if (k === n) return cached;
  }
  const s = stringOf(buf, start, end, ascii);
  if (s === BAIL) return BAIL;
  sharedStrings[slot] = s;
  sharedLengths[slot] = n;
  for (let k = 0; k < n; k++) sharedBytes[base + k] = buf[start + k];
  return s;
}

/*
 * Dates repeat as well (a planning row's month: 26 values over a million rows), and a Date costs 96 bytes of heap.
 * The last Date decoded with the same time is handed out again, from a direct-mapped table. A stored document's
 * values are never changed in place (storage/: an update replaces the document), so a Date shared by several
 * documents is as invisible to every reader as a shared string; nothing in the engine may call a setter on one.
 */
const DATE_SLOTS = 1 << 12;
const sharedDates: (Date | undefined)[] = new Array(DATE_SLOTS).fill(undefined);

function sharedDate(ms: number): Date {
  const slot = Math.imul((ms | 0) ^ ((ms / 4294967296) | 0), 0x9e3779b1) >>> 20;
  const cached = sharedDates[slot];
  if (cached !== undefined && cached.getTime() === ms) return cached;
  const date = new Date(ms);
  sharedDates[slot] = date;
  return date;
}

/** The server's options for the official codec. */
const DESERIALIZE = { promoteLongs: true, promoteValues: true, promoteBuffers: false, bsonRegExp: false } as const;

/** A document through the official codec, with the server's options and its ObjectIds packed (object-id.ts). */
export function decodeOfficial(bytes: Uint8Array): Doc {
  return packObjectIds(BSON.deserialize(bytes, DESERIALIZE));
}

/** Decodes the BSON document at buf[start..start+size), or returns undefined when it cannot decide. */
export function decodeDocumentFast(buf: Buffer, start: number, size: number): Doc | undefined {
  if (size < 5 || start + size > buf.length) return undefined;
  const out = decodeInto(buf as FastBuffer, start, size, false, true, false);
  return out === BAIL ? undefined : (out as Doc);
}

/**
 * A document to insert: decoded as decodeDocumentFast does, but with `_id` as its first key wherever it lies in the
 * bytes (a driver appends the `_id` it generates), so the server stores the object as decoded instead of copying it
 * to move `_id` first. A document without `_id` gets a new ObjectId there, as the server would give it;
 * `lastInsertHadId` then says false (its bytes are not the document stored).
 */
export function decodeInsertDocument(buf: Buffer, start: number, size: number): Doc | undefined {
  if (size < 5 || start + size > buf.length) return undefined;
  sawId = false;
  const out = decodeInto(buf as FastBuffer, start, size, false, true, true);
  if (out === BAIL) return undefined;
  lastInsertHadId = sawId;
  if (!sawId) (out as Doc)._id = newObjectId();
  return out as Doc;
}

/**
 * Whether the last document decodeInsertDocument returned had an `_id` of its own: read by decodeInsertBody right
 * after each call (module state rather than a result object: no allocation per document on the insert path).
 */
let lastInsertHadId = false;
let sawId = false;

/** Where the value scalarAt read last ends. */
let scalarEnd = 0;

/**
 * The value of the element of `type` whose value starts at buf[i] (`end`: the index of its document's last byte),
 * for the types the fast decoder reads other than documents and arrays, its end in `scalarEnd`; BAIL for any other
 * type, and for a value it leaves to the official codec (an int64 from 2^53, invalid UTF-8).
 */
function scalarAt(buf: FastBuffer, type: number, i: number, end: number): unknown {
  switch (type) {
    case 0x01: // double
      if (i + 8 > end) return BAIL;
      scalarEnd = i + 8;
      return buf.readDoubleLE(i);
    case 0x02: {
      // string
      if (i + 4 > end) return BAIL;
      const len = buf.readInt32LE(i);
      const from = i + 4;
      if (len <= 0 || from + len > end || buf[from + len - 1] !== 0) return BAIL;
      const to = from + len - 1;
      scalarEnd = from + len;
      return len - 1 <= SHARED_MAX_BYTES
        ? sharedString(buf, from, to)
        : stringOf(buf, from, to, isAscii(buf, from, to));
    }
    case 0x07:
      // ObjectId: copied into three numbers (object-id.ts), so the document does not keep the message alive
      if (i + 12 > end) return BAIL;
      scalarEnd = i + 12;
      return packedObjectId(buf, i);
    case 0x08: {
      const b = buf[i];
      if (b !== 0 && b !== 1) return BAIL;
      scalarEnd = i + 1;
      return b === 1;
    }
    case 0x09:
      // date: int64 milliseconds, as Long.toNumber computes it
      if (i + 8 > end) return BAIL;
      scalarEnd = i + 8;
      return sharedDate(buf.readInt32LE(i + 4) * 4294967296 + buf.readUInt32LE(i));
    case 0x0a:
      scalarEnd = i;
      return null;
    case 0x10:
      if (i + 4 > end) return BAIL;
      scalarEnd = i + 4;
      return buf.readInt32LE(i);
    case 0x12: {
      // int64: promoted to a number only within ±2^53 (beyond it the codec yields a Long)
      if (i + 8 > end) return BAIL;
      const high = buf.readInt32LE(i + 4);
      const low = buf.readUInt32LE(i);
      if (high >= MAX_SAFE_HIGH || high < -MAX_SAFE_HIGH || (high === -MAX_SAFE_HIGH && low === 0)) return BAIL;
      scalarEnd = i + 8;
      return high * 4294967296 + low;
    }
    default:
      return BAIL;
  }
}

/**
 * Decodes a stored document's fields into `target`, an object that holds its `_id` already (cold.ts): the `_id`
 * element is stepped over, every other field added in the bytes' order, as decodeDocumentFast would make them.
 */
export function decodeDocumentInto(buf: Buffer, start: number, size: number, target: Doc): void {
  if (
    size >= 5 &&
    start + size <= buf.length &&
    decodeInto(buf as FastBuffer, start, size, false, true, false, target) !== BAIL
  )
    return;
  // The fast decoder gave up part way (a type it does not read): the official codec, every field again (a key the
  // target has already keeps its place, and the fields before that point are the same). On a copy: the codec's
  // binary values are views of the bytes it decodes, and `buf` is a read buffer used again (cold.ts).
  const full = decodeOfficial(Buffer.from(buf.subarray(start, start + size)));
  for (const key of Object.keys(full)) if (key !== "_id") target[key] = full[key];
}

/**
 * The value of a document's first element when it is an `_id` holding an ObjectId, a string, an int32 or a
 * double, as the fast decoder reads it (scalarAt); undefined otherwise.
 */
export function idValueAt(buf: Buffer, start: number): unknown {
  const i = start + 4;
  const type = buf[i];
  if (buf[i + 1] !== 0x5f || buf[i + 2] !== 0x69 || buf[i + 3] !== 0x64 || buf[i + 4] !== 0) return undefined;
  if (type !== 0x07 && type !== 0x02 && type !== 0x10 && type !== 0x01) return undefined;
  const value = scalarAt(buf as FastBuffer, type, i + 5, start + buf.readInt32LE(start) - 1);
  return value === BAIL ? undefined : value;
}

/**
 * Reads top-level fields of the stored document at buf[start..] into out[at..] (undefined for a field it lacks), as
 * decodeDocumentFast would decode them, without decoding the others; false when one of them holds a value other
 * than a scalar this reads (a document, an array, a type the fast decoder leaves to the official codec).
 */
export function readFieldsInto(
  buf: Buffer,
  start: number,
  names: readonly string[],
  out: unknown[],
  at: number,
): boolean {
  const fb = buf as FastBuffer;
  const end = start + buf.readInt32LE(start) - 1;
  // Names are compared byte for byte as ASCII.
  for (const name of names) for (let k = 0; k < name.length; k++) if (name.charCodeAt(k) > 0x7f) return false;
  for (let f = 0; f < names.length; f++) out[at + f] = undefined;
  let found = 0;
  let i = start + 4;
  while (i < end && found < names.length) {
    const type = buf[i++];
    const nameAt = i;
    while (i < end && buf[i] !== 0) i++;
    let f = 0;
    while (f < names.length && !sameAscii(buf, nameAt, i, names[f])) f++;
    i++;
    if (f === names.length) {
      if (type === 0x0b) {
        // A regular expression: its pattern and its flags, two C strings.
        const pattern = buf.indexOf(0, i);
        const flags = pattern < 0 || pattern >= end ? -1 : buf.indexOf(0, pattern + 1);
        if (flags < 0 || flags >= end) return false;
        i = flags + 1;
        continue;
      }
      const n = valueSize(buf, type, i, end);
      if (n < 0) return false;
      i += n;
      continue;
    }
    found++;
    const value = scalarAt(fb, type, i, end);
    if (value === BAIL) return false;
    i = scalarEnd;
    out[at + f] = value;
  }
  return true;
}

function decodeInto(
  buf: FastBuffer,
  start: number,
  size: number,
  isArray: boolean,
  topLevel: boolean,
  idFirst: boolean,
  target?: Doc,
): Doc | unknown[] | typeof BAIL {
  const end = start + size - 1; // index of the terminating 0
  if (buf[end] !== 0) return BAIL;
  const object: Record<string, unknown> | unknown[] = target ?? (isArray ? [] : {});
  // The key first, the value when its element comes (added to {}, not a literal: values.ts docWithId says why).
  if (idFirst) (object as Record<string, unknown>)._id = undefined;
  let i = start + 4;
  let field = 0;
  while (i < end) {
    const type = buf[i++];
    // field name: a C string
    let j = i;
    let ascii = true;
    while (j < end && buf[j] !== 0) {
      if (buf[j] > 0x7f) ascii = false;
      j++;
    }
    if (j >= end || !ascii) return BAIL;
    let name: string | undefined;
    if (!isArray) {
      if (buf[i] === 0x24 /* $ */) return BAIL;
      // The documents of a batch usually share their field names: reuse the previous string.
      const slot = topLevel && field < NAME_SLOTS ? field : -1;
      const cached = slot >= 0 ? names[slot] : undefined;
      if (cached !== undefined && sameAscii(buf, i, j, cached)) {
        name = cached;
      } else {
        name = buf.latin1Slice(i, j);
        if (name === "__proto__") return BAIL;
        if (slot >= 0) names[slot] = name;
      }
      if (idFirst && name === "_id") {
        // A second _id would overwrite the first in the object: let the official codec decide.
        if (sawId) return BAIL;
        sawId = true;
      }
      field++;
    }
    i = j + 1;
    let value: unknown;
    if (type === 0x03 || type === 0x04) {
      // an embedded document or an array
      if (i + 4 > end) return BAIL;
      const len = buf.readInt32LE(i);
      if (len < 5 || i + len > end) return BAIL;
      const inner = decodeInto(buf, i, len, type === 0x04, false, false);
      if (inner === BAIL) return BAIL;
      value = inner;
      i += len;
    } else {
      value = scalarAt(buf, type, i, end);
      if (value === BAIL) return BAIL;
      i = scalarEnd;
    }
    if (isArray) (object as unknown[]).push(value);
    else if (target === undefined || name !== "_id") (object as Record<string, unknown>)[name!] = value;
  }
  return i === end ? object : BAIL;
}

/**
 * The size of the element value of `type` at buf[i], or -1 when the type is unknown or the value
 * runs past `end`. Used only to step over the fields of a command body.
 */
/** Where the top-level `_id` element (type byte to value end) lies in a document's bytes; undefined without one. */
export function idElementOf(doc: Buffer): [number, number] | undefined {
  const end = doc.length - 1;
  let i = 4;
  while (i < end) {
    const start = i;
    const type = doc[i++];
    const nul = doc.indexOf(0, i);
    if (nul < 0 || nul >= end) return undefined;
    const isId = nul - i === 3 && doc[i] === 0x5f && doc[i + 1] === 0x69 && doc[i + 2] === 0x64;
    i = nul + 1;
    const n = valueSize(doc, type, i, end);
    if (n < 0) return undefined;
    i += n;
    if (isId) return [start, i];
  }
  return undefined;
}

function valueSize(buf: Buffer, type: number, i: number, end: number): number {
  let n: number;
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      n = 8;
      break;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      n = i + 4 <= end ? 4 + buf.readInt32LE(i) : -1;
      break;
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      n = i + 4 <= end ? buf.readInt32LE(i) : -1;
      break;
    case 0x05: // binary
      n = i + 4 <= end ? 5 + buf.readInt32LE(i) : -1;
      break;
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      n = 0;
      break;
    case 0x07: // ObjectId
      n = 12;
      break;
    case 0x08: // boolean
      n = 1;
      break;
    case 0x10: // int32
      n = 4;
      break;
    case 0x13: // decimal128
      n = 16;
      break;
    default: // regex, DBPointer and unknown types: let the official codec handle the body
      return -1;
  }
  return n < 0 || i + n > end ? -1 : n;
}

const INSERT_NAME = Buffer.from("insert\0", "latin1");

/**
 * An `insert` command body (OP_MSG kind 0, where driver 6 puts the documents): every field but
 * `documents` goes through `deserialize`, and the documents through the fast decoder, one by one.
 * Returns undefined when the body is not an insert or anything about it is unusual; the caller
 * then decodes the whole body with the official codec. `documents` ends up as the body's last key.
 */
export function decodeInsertBody(
  buf: Buffer,
  start: number,
  size: number,
  deserialize: (bytes: Buffer) => Doc,
): Doc | undefined {
  try {
    return splitInsertBody(buf, start, size, deserialize);
  } catch {
    return undefined; // e.g. invalid UTF-8: the official codec, run on the whole body, raises the error
  }
}

function splitInsertBody(
  buf: Buffer,
  start: number,
  size: number,
  deserialize: (bytes: Buffer) => Doc,
): Doc | undefined {
  if (size < 5 || start + size > buf.length) return undefined;
  const end = start + size - 1;
  if (buf[end] !== 0) return undefined;
  // The command's name must be the first field.
  if (
    buf[start + 4] !== 0x02 ||
    buf.compare(INSERT_NAME, 0, INSERT_NAME.length, start + 5, start + 5 + INSERT_NAME.length) !== 0
  )
    return undefined;
  let i = start + 4;
  let docsAt = -1; // element start (its type byte)
  let docsValue = -1;
  let docsEnd = -1;
  while (i < end) {
    const elementStart = i;
    const type = buf[i++];
    const nul = buf.indexOf(0, i);
    if (nul < 0 || nul >= end) return undefined;
    const isDocuments = nul - i === 9 && (buf as FastBuffer).latin1Slice(i, nul) === "documents";
    i = nul + 1;
    const n = valueSize(buf, type, i, end);
    if (n < 0) return undefined;
    if (isDocuments) {
      if (type !== 0x04 || docsAt >= 0) return undefined;
      docsAt = elementStart;
      docsValue = i;
      docsEnd = i + n;
    }
    i += n;
  }
  if (i !== end || docsAt < 0) return undefined;

  const documents: Doc[] = [];
  const raw: (Buffer | undefined)[] = [];
  const arrayEnd = docsEnd - 1;
  if (buf[arrayEnd] !== 0) return undefined;
  let p = docsValue + 4;
  while (p < arrayEnd) {
    if (buf[p] !== 0x03) return undefined;
    const nul = buf.indexOf(0, p + 1);
    if (nul < 0 || nul >= arrayEnd) return undefined;
    p = nul + 1;
    if (p + 4 > arrayEnd) return undefined;
    const docSize = buf.readInt32LE(p);
    if (docSize < 5 || p + docSize > arrayEnd) return undefined;
    const fast = decodeInsertDocument(buf, p, docSize);
    documents.push(fast ?? deserialize(buf.subarray(p, p + docSize)));
    // The bytes serve the journal when they are the document stored (with its own _id).
    raw.push(fast && lastInsertHadId ? buf.subarray(p, p + docSize) : undefined);
    p += docSize;
  }
  if (p !== arrayEnd) return undefined;

  // The rest of the body, without the documents field.
  const rest = Buffer.allocUnsafe(size - (docsEnd - docsAt));
  buf.copy(rest, 0, start, docsAt);
  buf.copy(rest, docsAt - start, docsEnd, start + size);
  rest.writeInt32LE(rest.length, 0);
  const body = deserialize(rest);
  body.documents = documents;
  rawDocuments.set(documents, raw);
  if (!raw.includes(undefined)) rawArrays.set(documents, buf.subarray(docsValue, docsEnd));
  return body;
}

/**
 * The bytes each document of an insert batch arrived in, where the fast decoder read it (so encoding the
 * decoded document gives the same values): the journal writes them as they are instead of encoding the
 * document again. Keyed by the command's documents array, so they go with the command.
 */
const rawDocuments = new WeakMap<unknown[], (Buffer | undefined)[]>();

export function rawDocumentsOf(documents: unknown[]): (Buffer | undefined)[] | undefined {
  return rawDocuments.get(documents);
}

/** The command's whole `documents` array in the bytes it arrived in, when every document of it has its bytes above. */
const rawArrays = new WeakMap<unknown[], Buffer>();

export function rawDocumentsArrayOf(documents: unknown[]): Buffer | undefined {
  return rawArrays.get(documents);
}
