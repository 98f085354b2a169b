/**
 * The journal's records as a start reads them back: every record encoded (in the shared slab, alone when it does not
 * fit, or around an insert command's own BSON) reads back as its type and body, and a journal cut in the middle of a
 * record (a crash during a write) or with a corrupt record reads up to the last whole, sound record: a start replays
 * those, cuts the file back to them, and appends after them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BSON } from "bson";
import { afterEach, describe, expect, it } from "vitest";
import { Catalog } from "../storage/catalog";
import type { Doc } from "../values";
import { Journal } from "./journal";
import { contiguousRuns, encodePutManyRecord, encodeRecord, RecordType, readRecords } from "./records";

function readAll(buf: Buffer): { valid: number; records: [number, Doc][] } {
  const records: [number, Doc][] = [];
  const valid = readRecords(buf, (type, body) => records.push([type, body]));
  return { valid, records };
}

/** A few records of every shape a journal holds, with the type and body each was encoded from. */
function sampleRecords(): { buffers: Buffer[]; expected: [number, Doc][] } {
  const expected: [number, Doc][] = [
    [RecordType.CreateCollection, { n: "d.c", o: { capped: false } }],
    [RecordType.CreateIndex, { n: "d.c", s: { v: 2, key: { k: 1 }, name: "k_1" } }],
    [
      RecordType.Put,
      { n: "d.c", d: { _id: 1, k: "Tênis Ação", at: new Date(Date.UTC(2026, 0, 2)), tags: ["a", "b"] } },
    ],
    // Too big for the shared slab's free room: encoded in a buffer of its own.
    [RecordType.Put, { n: "d.c", d: { _id: 2, k: "x".repeat(200_000) } }],
    [RecordType.Delete, { n: "d.c", id: 1 }],
    [RecordType.DropIndex, { n: "d.c", x: "k_1" }],
    [RecordType.DropCollection, { n: "d.c" }],
    [RecordType.DropDatabase, { db: "d" }],
  ];
  return { buffers: expected.map(([type, body]) => encodeRecord(type, body)), expected };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("record encoding", () => {
  it("reads back every record it encodes, type and body, to the last byte", () => {
    const { buffers, expected } = sampleRecords();
    const journal = Buffer.concat(buffers);
    expect(readAll(journal)).toEqual({ valid: journal.length, records: expected });
  });

  it("lays a record out as length, CRC-32 and payload (the type, then the BSON body)", () => {
    const body = { n: "d.c", id: "a" };
    const record = encodeRecord(RecordType.Delete, body);
    const bson = BSON.serialize(body);
    expect(record.length).toBe(9 + bson.length);
    expect(record.readUInt32LE(0)).toBe(1 + bson.length);
    expect(record[8]).toBe(RecordType.Delete);
    expect(Buffer.compare(record.subarray(9), Buffer.from(bson))).toBe(0);
  });

  it("reads back an insert command's documents as one PutMany record, each document as the command sent it", () => {
    const documents = [{ _id: 1, a: "x" }, { b: [1, 2], _id: 2 }, { _id: { k: 3 } }];
    // An insert command's `documents` array, as its BSON: an array is a document keyed "0", "1", ...
    const array = Buffer.from(BSON.serialize(Object.fromEntries(documents.map((d, i) => [String(i), d]))));
    const record = encodePutManyRecord("d.c", array);
    expect(readAll(record)).toEqual({
      valid: record.length,
      records: [[RecordType.PutMany, { n: "d.c", d: documents }]],
    });
  });

  it("joins records that lie next to each other in one slab into one write, without changing a byte", () => {
    const small = [1, 2, 3].map((i) => encodeRecord(RecordType.Delete, { n: "d.c", id: i }));
    const runs = contiguousRuns(small);
    // One run, or two when the slab filled up between them.
    expect(runs.length).toBeLessThan(small.length);
    expect(Buffer.compare(Buffer.concat(runs), Buffer.concat(small))).toBe(0);
    expect(readAll(Buffer.concat(runs)).records.map(([, body]) => body.id)).toEqual([1, 2, 3]);
  });
});

describe("a journal cut in the middle of a record", () => {
  it("reads every whole record before the cut, wherever the cut falls in the last one", () => {
    const { buffers, expected } = sampleRecords();
    const last = buffers.length - 1;
    const whole = Buffer.concat(buffers.slice(0, last));
    const torn = buffers[last];
    for (let cut = 0; cut < torn.length; cut++) {
      const journal = Buffer.concat([whole, torn.subarray(0, cut)]);
      expect(readAll(journal)).toEqual({ valid: whole.length, records: expected.slice(0, last) });
    }
  });

  it("stops at a record whose checksum does not match, even when sound records follow it", () => {
    const { buffers, expected } = sampleRecords();
    const journal = Buffer.concat(buffers);
    const at = buffers[0].length + buffers[1].length;
    // A byte of the third record's body flipped.
    journal[at + 12] ^= 0xff;
    expect(readAll(journal)).toEqual({ valid: at, records: expected.slice(0, 2) });
  });

  it("stops at a length prefix that promises more than the journal holds", () => {
    const first = encodeRecord(RecordType.CreateCollection, { n: "d.c", o: {} });
    const journal = Buffer.concat([first, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 1, 9, 9])]);
    expect(readAll(journal)).toEqual({
      valid: first.length,
      records: [[RecordType.CreateCollection, { n: "d.c", o: {} }]],
    });
  });

  it("is replayed up to the cut at start: the file is cut back there and new records follow the sound ones", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-records-"));
    dirs.push(dir);
    const sound = Buffer.concat([
      encodeRecord(RecordType.CreateCollection, { n: "d.c", o: {} }),
      encodeRecord(RecordType.Put, { n: "d.c", d: { _id: 1, v: "one" } }),
      encodeRecord(RecordType.Put, { n: "d.c", d: { _id: 2, v: "two" } }),
    ]);
    const torn = encodeRecord(RecordType.Put, { n: "d.c", d: { _id: 3, v: "never acknowledged" } });
    const file = path.join(dir, "journal.log");
    fs.writeFileSync(file, Buffer.concat([sound, torn.subarray(0, torn.length >> 1)]));

    const catalog = new Catalog();
    const journal = await Journal.open(dir, catalog);
    await journal.loaded;
    const coll = catalog.getCollection("d", "c")!;
    expect([...coll.docs.values()]).toEqual([
      { _id: 1, v: "one" },
      { _id: 2, v: "two" },
    ]);
    expect(fs.statSync(file).size).toBe(sound.length);
    catalog.insert(coll, { _id: 4, v: "four" });
    await journal.sync();
    await journal.close();

    expect(readAll(fs.readFileSync(file)).records.map(([, body]) => (body.d as Doc | undefined)?._id)).toEqual([
      undefined,
      1,
      2,
      4,
    ]);
    const again = new Catalog();
    const reopened = await Journal.open(dir, again);
    await reopened.loaded;
    expect([...again.getCollection("d", "c")!.docs.values()].map((d) => d._id)).toEqual([1, 2, 4]);
    await reopened.close();
  });
});
