import net from "node:net";
import { BSON } from "bson";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Harness, startHarness, stopHarness } from "./test-helpers";

/**
 * OP_MSG as other drivers send it, over a raw socket: batches as kind-1 document sequences, and
 * moreToCome. Driver 6.22 puts batches in the command body, so the other tests never send these.
 */

const OP_MSG = 2013;
const MORE_TO_COME = 1 << 1;

type Doc = Record<string, unknown>;

function opMsg(requestId: number, body: Doc, sequence?: { identifier: string; documents: Doc[] }, flags = 0): Buffer {
  const sections: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(body))];
  if (sequence) {
    const identifier = Buffer.from(`${sequence.identifier}\0`, "utf8");
    const documents = sequence.documents.map((d) => Buffer.from(BSON.serialize(d)));
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + identifier.length + documents.reduce((n, d) => n + d.length, 0));
    sections.push(Buffer.from([1]), size, identifier, ...documents);
  }
  const header = Buffer.alloc(20);
  const length = 20 + sections.reduce((n, s) => n + s.length, 0);
  header.writeInt32LE(length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(flags, 16);
  return Buffer.concat([header, ...sections]);
}

/** A raw connection that reads whole OP_MSG replies in order. */
function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let pending = Buffer.alloc(0);
  const replies: { responseTo: number; body: Doc }[] = [];
  const waiters: (() => void)[] = [];
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const length = pending.readInt32LE(0);
      const message = pending.subarray(0, length);
      pending = pending.subarray(length);
      expect(message.readInt32LE(12)).toBe(OP_MSG);
      expect(message[20]).toBe(0);
      replies.push({ responseTo: message.readInt32LE(8), body: BSON.deserialize(message.subarray(21)) });
      waiters.shift()?.();
    }
  });
  const connected = new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  return {
    async send(message: Buffer): Promise<void> {
      await connected;
      socket.write(message);
    },
    async nextReply(): Promise<{ responseTo: number; body: Doc }> {
      if (replies.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
      return replies.shift()!;
    },
    close: () => socket.destroy(),
  };
}

let h: Harness;
let dbName: string;
let dbCounter = 0;
let conn: ReturnType<typeof rawConnection>;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await stopHarness(h);
});
beforeEach(() => {
  dbName = `wire_${++dbCounter}`;
  conn = rawConnection(h.server.port);
});
afterEach(() => conn.close());

const coll = () => h.client.db(dbName).collection<{ _id: number; [key: string]: unknown }>("seq");

describe("OP_MSG kind-1 document sequences", () => {
  it("inserts the documents of a `documents` sequence", async () => {
    const when = new Date("2026-03-01T12:00:00Z");
    const documents = [
      { _id: 1, name: "Ana", tags: ["a", "b"] },
      { _id: 2, name: "Bruno", at: when },
      { _id: 3, name: "Carla", nested: { level: 1 } },
    ];
    await conn.send(opMsg(11, { insert: "seq", ordered: true, $db: dbName }, { identifier: "documents", documents }));
    const reply = await conn.nextReply();
    expect(reply.responseTo).toBe(11);
    expect(reply.body).toMatchObject({ ok: 1, n: 3 });
    expect(await coll().find().sort({ _id: 1 }).toArray()).toEqual(documents);
  });

  it("applies the statements of an `updates` sequence, upserts included", async () => {
    await coll().insertMany([
      { _id: 1, score: 1 },
      { _id: 2, score: 2 },
      { _id: 3, score: 3 },
    ]);
    const updates = [
      { q: { score: { $gte: 2 } }, u: { $set: { top: true } }, multi: true },
      { q: { _id: 9 }, u: { $set: { score: 9 } }, upsert: true },
    ];
    await conn.send(
      opMsg(12, { update: "seq", ordered: true, $db: dbName }, { identifier: "updates", documents: updates }),
    );
    const reply = await conn.nextReply();
    expect(reply.responseTo).toBe(12);
    expect(reply.body).toMatchObject({ ok: 1, n: 3, nModified: 2, upserted: [{ index: 1, _id: 9 }] });
    expect(await coll().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, score: 1 },
      { _id: 2, score: 2, top: true },
      { _id: 3, score: 3, top: true },
      { _id: 9, score: 9 },
    ]);
  });

  it("applies the statements of a `deletes` sequence", async () => {
    await coll().insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const deletes = [
      { q: { _id: 1 }, limit: 1 },
      { q: { _id: { $gte: 3 } }, limit: 0 },
    ];
    await conn.send(opMsg(13, { delete: "seq", $db: dbName }, { identifier: "deletes", documents: deletes }));
    expect((await conn.nextReply()).body).toMatchObject({ ok: 1, n: 2 });
    expect(await coll().find().toArray()).toEqual([{ _id: 2 }]);
  });

  it("sends no reply to a moreToCome message and still applies it before the next command", async () => {
    const documents = [{ _id: 21 }, { _id: 22 }];
    await conn.send(
      opMsg(
        31,
        { insert: "seq", writeConcern: { w: 0 }, $db: dbName },
        { identifier: "documents", documents },
        MORE_TO_COME,
      ),
    );
    await conn.send(opMsg(32, { count: "seq", $db: dbName }));
    // The first reply on the connection answers the count: the insert got none.
    const reply = await conn.nextReply();
    expect(reply.responseTo).toBe(32);
    expect(reply.body).toMatchObject({ ok: 1, n: 2 });
    expect(await coll().find().sort({ _id: 1 }).toArray()).toEqual(documents);
  });
});

describe("reply encoding", () => {
  const decode = (bytes: Buffer) => ({
    length: bytes.readInt32LE(0),
    responseTo: bytes.readInt32LE(8),
    opCode: bytes.readInt32LE(12),
  });

  it("writes OP_MSG and legacy OP_REPLY answers a driver reads back", async () => {
    const { encodeReply, OP_REPLY } = await import("./wire");
    const reply = {
      ok: 1,
      cursor: { id: 0n, firstBatch: Array.from({ length: 3000 }, (_, i) => ({ i, s: `row ${i} ção` })) },
    };
    const msg = encodeReply(false, 41, reply);
    expect(decode(msg.bytes)).toEqual({ length: msg.bytes.length, responseTo: 41, opCode: OP_MSG });
    expect(msg.bytes.readUInt32LE(16)).toBe(0);
    expect(msg.bytes[20]).toBe(0);
    expect(BSON.deserialize(msg.bytes.subarray(21), { useBigInt64: true })).toEqual(reply);
    msg.release();
    const legacy = encodeReply(true, 7, { ismaster: true, ok: 1 });
    expect(decode(legacy.bytes)).toEqual({ length: legacy.bytes.length, responseTo: 7, opCode: OP_REPLY });
    expect(legacy.bytes.readInt32LE(32)).toBe(1);
    expect(BSON.deserialize(legacy.bytes.subarray(36))).toEqual({ ismaster: true, ok: 1 });
    legacy.release();
  });

  it("reuses a reply's memory once it was written, and never while it is still being written", async () => {
    const { encodeReply } = await import("./wire");
    const big = { ok: 1, rows: Array.from({ length: 20_000 }, (_, i) => ({ i, v: i * 1.5 })) };
    const first = encodeReply(false, 1, big);
    const second = encodeReply(false, 2, big);
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    first.release();
    const third = encodeReply(false, 3, big);
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    expect(third.bytes.readInt32LE(8)).toBe(3);
    expect(second.bytes.readInt32LE(8)).toBe(2);
    second.release();
    third.release();
  });
});
