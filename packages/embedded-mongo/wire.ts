/**
 * MongoDB wire protocol framing: OP_QUERY (only for the driver's first
 * hello/isMaster), OP_REPLY, and OP_MSG with kind-0 bodies, kind-1 document
 * sequences, the optional checksum and the moreToCome flag.
 */
import { BSON } from "bson";
import { decodeInsertBody, decodeInsertDocument, decodeOfficial } from "./bson-decode";
import { MongoCommandError } from "./errors";
import type { Doc } from "./values";

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

const FLAG_CHECKSUM = 1 << 0;
const FLAG_MORE_TO_COME = 1 << 1;

const deserialize = (bytes: Buffer): Doc => decodeOfficial(bytes);

export type Request = {
  requestId: number;
  opCode: number;
  command: Doc;
  /** the database from OP_QUERY's namespace or OP_MSG's $db */
  db: string;
  moreToCome: boolean;
};

/** Parses one complete message (header included). */
export function parseMessage(buf: Buffer): Request {
  const requestId = buf.readInt32LE(4);
  const opCode = buf.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    const end = flags & FLAG_CHECKSUM ? buf.length - 4 : buf.length;
    let pos = 20;
    let body: Doc | undefined;
    const sequences: [string, Doc[]][] = [];
    while (pos < end) {
      const kind = buf[pos++];
      if (kind === 0) {
        const size = buf.readInt32LE(pos);
        // Driver 6 sends insert batches inside the body: their documents take the fast decoder.
        body = decodeInsertBody(buf, pos, size, deserialize) ?? deserialize(buf.subarray(pos, pos + size));
        pos += size;
      } else if (kind === 1) {
        const size = buf.readInt32LE(pos);
        const sectionEnd = pos + size;
        let p = pos + 4;
        const nul = buf.indexOf(0, p);
        const identifier = buf.toString("utf8", p, nul);
        p = nul + 1;
        const docs: Doc[] = [];
        // Insert batches take the fast decoder; it defers to the official codec whenever unsure.
        const fast = identifier === "documents";
        while (p < sectionEnd) {
          const docSize = buf.readInt32LE(p);
          docs.push(
            (fast ? decodeInsertDocument(buf, p, docSize) : undefined) ?? deserialize(buf.subarray(p, p + docSize)),
          );
          p += docSize;
        }
        sequences.push([identifier, docs]);
        pos = sectionEnd;
      } else {
        throw new MongoCommandError("BadValue", `Unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new MongoCommandError("BadValue", "OP_MSG without a body section");
    for (const [identifier, docs] of sequences) body[identifier] = docs;
    return {
      requestId,
      opCode,
      command: body,
      db: typeof body.$db === "string" ? body.$db : "admin",
      moreToCome: (flags & FLAG_MORE_TO_COME) !== 0,
    };
  }
  if (opCode === OP_QUERY) {
    let pos = 20;
    const nul = buf.indexOf(0, pos);
    const fullName = buf.toString("utf8", pos, nul);
    pos = nul + 1 + 8; // numberToSkip, numberToReturn
    const size = buf.readInt32LE(pos);
    let command = deserialize(buf.subarray(pos, pos + size));
    // Legacy wrapping: { $query: {...}, $readPreference: ... }
    if (command.$query && typeof command.$query === "object") command = command.$query as Doc;
    const db = fullName.endsWith(".$cmd") ? fullName.slice(0, -5) : fullName.split(".")[0];
    return { requestId, opCode, command, db, moreToCome: false };
  }
  throw new MongoCommandError("BadValue", `Unsupported wire protocol opcode ${opCode}`);
}

let nextResponseId = 1;

/**
 * Reply buffers, reused. Every new Buffer is memory outside the JavaScript heap that V8 counts towards starting a
 * full collection, and a full collection of this process's heap (the whole database, gigabytes) costs seconds of CPU:
 * before this pool, a burst of forecast grids (replies of megabytes) triggered one. Replies are serialized into one
 * scratch buffer, copied into a pooled buffer of the next power-of-two size, and that buffer returns to the pool once
 * the socket has written it.
 */
let scratch: Buffer | undefined; // allocated by the first reply, so a process that only imports this module pays nothing
const MIN_CLASS = 14; // 16 kB
const free = new Map<number, Buffer[]>();
const keptPerClass = (cls: number) => (cls >= 22 ? 2 : 8); // at most two of 4 MB and more

function sizeClass(length: number): number {
  return Math.max(MIN_CLASS, Math.ceil(Math.log2(length)));
}

export type EncodedReply = { bytes: Buffer; release(): void };

function pooled(length: number): EncodedReply {
  const cls = sizeClass(length);
  const buffer = free.get(cls)?.pop() ?? Buffer.allocUnsafe(2 ** cls);
  let released = false;
  return {
    bytes: buffer.subarray(0, length),
    release() {
      if (released) return;
      released = true;
      const list = free.get(cls) ?? [];
      if (list.length < keptPerClass(cls)) list.push(buffer);
      free.set(cls, list);
    },
  };
}

function writeHeader(target: Buffer, length: number, responseTo: number, opCode: number): void {
  target.writeInt32LE(length, 0);
  target.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  target.writeInt32LE(responseTo, 8);
  target.writeInt32LE(opCode, 12);
}

/** An OP_MSG (or, for legacy handshakes, OP_REPLY) answer in a pooled buffer: call release() once it is written. */
export function encodeReply(legacy: boolean, responseTo: number, reply: Doc): EncodedReply {
  const buffer = (scratch ??= Buffer.allocUnsafe(17 * 1024 * 1024 + 64));
  const prefix = legacy ? 36 : 21;
  const end = BSON.serializeWithBufferAndIndex(reply, buffer, { index: prefix }) + 1;
  writeHeader(buffer, end, responseTo, legacy ? OP_REPLY : OP_MSG);
  if (legacy) {
    buffer.fill(0, 16, 36);
    buffer.writeInt32LE(8, 16); // AwaitCapable; cursorID (8 bytes) = 0, startingFrom = 0
    buffer.writeInt32LE(1, 32); // numberReturned
  } else {
    buffer.writeUInt32LE(0, 16); // flagBits
    buffer[20] = 0; // section kind 0: the body
  }
  const out = pooled(end);
  buffer.copy(out.bytes, 0, 0, end);
  return out;
}
