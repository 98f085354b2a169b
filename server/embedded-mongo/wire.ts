/**
 * MongoDB wire protocol framing: OP_QUERY (only for the driver's first
 * hello/isMaster), OP_REPLY, and OP_MSG with kind-0 bodies, kind-1 document
 * sequences, the optional checksum and the moreToCome flag.
 */
import { BSON } from "bson";
import { decodeDocumentFast, decodeInsertBody } from "./bson-decode";
import { MongoCommandError } from "./errors";
import type { Doc } from "./values";

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

const FLAG_CHECKSUM = 1 << 0;
const FLAG_MORE_TO_COME = 1 << 1;

const DESERIALIZE = { promoteLongs: true, promoteValues: true, promoteBuffers: false, bsonRegExp: false } as const;

const deserialize = (bytes: Buffer): Doc => BSON.deserialize(bytes, DESERIALIZE);

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
          docs.push((fast ? decodeDocumentFast(buf, p, docSize) : undefined) ?? deserialize(buf.subarray(p, p + docSize)));
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
    return { requestId, opCode, command: body, db: typeof body.$db === "string" ? body.$db : "admin", moreToCome: (flags & FLAG_MORE_TO_COME) !== 0 };
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

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.allocUnsafe(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

export function encodeOpMsg(responseTo: number, reply: Doc): Buffer {
  const body = BSON.serialize(reply);
  const prefix = Buffer.allocUnsafe(5);
  prefix.writeUInt32LE(0, 0);
  prefix[4] = 0;
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), prefix, body]);
}

export function encodeOpReply(responseTo: number, reply: Doc): Buffer {
  const body = BSON.serialize(reply);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(8, 0); // AwaitCapable
  // cursorID (8 bytes) = 0, startingFrom = 0
  fields.writeInt32LE(1, 16); // numberReturned
  return Buffer.concat([header(16 + 20 + body.length, responseTo, OP_REPLY), fields, body]);
}
