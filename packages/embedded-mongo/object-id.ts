/**
 * The ObjectIds of stored documents, held as three 32-bit words.
 *
 * The official ObjectId keeps its 12 bytes in a Buffer of their own: with the Buffer's object, 144 bytes of heap
 * per id, most of a small document's cost, and the planning rows alone hold a million of them. A packed id is an
 * object of three numbers (48 bytes). It is an ObjectId to every reader (`instanceof`, `_bsontype`, the official
 * codec, which calls `serializeInto`), and gives its bytes, hex string and timestamp as the official one does; only
 * `buffer` is made on each read, so nothing can change a stored id through it.
 *
 * Every ObjectId inside the engine is a packed one: the fast decoder makes them, whatever the official codec
 * decodes (commands, and the documents the fast decoder declines) goes through `packObjectIds`, and the ids the
 * server generates come from `newObjectId`. One kind throughout matters to mingo, whose hash of an object (its
 * set operators, `$graphLookup`) reads the object's own fields: a packed and an official copy of one id would hash
 * apart.
 */
import { ObjectId } from "bson";

export interface PackedObjectId extends ObjectId {
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
}

/** Each byte's two hexadecimal digits, as character codes. */
const HEX_PAIRS = new Uint16Array(256);
for (let b = 0; b < 256; b++)
  HEX_PAIRS[b] = ("0123456789abcdef".charCodeAt(b >>> 4) << 8) | "0123456789abcdef".charCodeAt(b & 15);
/** Where an id's text is spelled out: an optional prefix character, then 24 digits. */
const spelled = Buffer.alloc(25) as Buffer & { latin1Slice(start: number, end: number): string };

function spellWord(word: number, at: number): void {
  for (let shift = 24; shift >= 0; shift -= 8) {
    const pair = HEX_PAIRS[(word >>> shift) & 0xff];
    spelled[at++] = pair >>> 8;
    spelled[at++] = pair & 0xff;
  }
}

/**
 * The id's 24 hexadecimal digits after `prefix` (a character code, or -1 for none): one flat string made in one
 * step (the id keys of a million documents are made at each start).
 */
export function hexOfWords(w0: number, w1: number, w2: number, prefix = -1): string {
  const from = prefix < 0 ? 1 : 0;
  if (prefix >= 0) spelled[0] = prefix;
  spellWord(w0, 1);
  spellWord(w1, 9);
  spellWord(w2, 17);
  return spelled.latin1Slice(from, 25);
}

/** One 32-bit word, big-endian, as the id's bytes hold it. */
function writeWord(target: Uint8Array, at: number, word: number): void {
  target[at] = (word >>> 24) & 0xff;
  target[at + 1] = (word >>> 16) & 0xff;
  target[at + 2] = (word >>> 8) & 0xff;
  target[at + 3] = word & 0xff;
}

function bytesOf(this: Packed): Buffer {
  const bytes = Buffer.allocUnsafe(12);
  bytes.writeInt32BE(this.w0, 0);
  bytes.writeInt32BE(this.w1, 4);
  bytes.writeInt32BE(this.w2, 8);
  return bytes;
}

class Packed {
  constructor(
    readonly w0: number,
    readonly w1: number,
    readonly w2: number,
  ) {}
}

Object.setPrototypeOf(Packed.prototype, ObjectId.prototype);
Object.defineProperties(Packed.prototype, {
  // mingo compares and hashes objects by constructor first.
  constructor: { value: ObjectId, writable: true, configurable: true },
  buffer: { get: bytesOf },
  id: { get: bytesOf },
  toHexString: {
    value(this: Packed): string {
      return hexOfWords(this.w0, this.w1, this.w2);
    },
  },
  serializeInto: {
    value(this: Packed, target: Uint8Array, index: number): number {
      writeWord(target, index, this.w0);
      writeWord(target, index + 4, this.w1);
      writeWord(target, index + 8, this.w2);
      return 12;
    },
  },
  equals: {
    value(this: PackedObjectId, other: unknown): boolean {
      if (other instanceof Packed) return this.w0 === other.w0 && this.w1 === other.w1 && this.w2 === other.w2;
      return ObjectId.prototype.equals.call(this, other as ObjectId);
    },
  },
});

/** The ObjectId whose 12 bytes start at buf[at]. */
export function packedObjectId(buf: Buffer, at: number): ObjectId {
  return new Packed(buf.readInt32BE(at), buf.readInt32BE(at + 4), buf.readInt32BE(at + 8)) as unknown as ObjectId;
}

/** A new ObjectId, generated as the official codec does (time, process, counter). */
export function newObjectId(): ObjectId {
  return packedObjectId(Buffer.from(ObjectId.generate()), 0);
}

/** Replaces, in place, every official ObjectId in a freshly decoded value by a packed one; returns the value. */
export function packObjectIds<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = packValue(value[i]);
  } else if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const doc = value as Record<string, unknown>;
    for (const k of Object.keys(doc)) {
      const v = doc[k];
      const packed = packValue(v);
      // A "__proto__" field is an own property the codec defined: define it again, never assign it.
      if (packed !== v)
        Object.defineProperty(doc, k, { value: packed, enumerable: true, writable: true, configurable: true });
    }
  }
  return value;
}

function packValue(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof ObjectId) return v instanceof Packed ? v : packedObjectId(Buffer.from(v.id), 0);
  return packObjectIds(v);
}

export function isPacked(value: unknown): value is PackedObjectId {
  return value instanceof Packed;
}

/** Two packed ids in byte order (the order of their hex strings). */
export function comparePacked(a: PackedObjectId, b: PackedObjectId): number {
  return a.w0 !== b.w0
    ? (a.w0 >>> 0) - (b.w0 >>> 0)
    : a.w1 !== b.w1
      ? (a.w1 >>> 0) - (b.w1 >>> 0)
      : (a.w2 >>> 0) - (b.w2 >>> 0);
}
