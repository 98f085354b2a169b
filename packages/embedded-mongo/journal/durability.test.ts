import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BSON } from "bson";
import type { Document, ObjectId } from "mongodb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assertEmbeddedAllowed, startEmbeddedMongo } from "../index";
import { type Harness, startHarness, stopHarness } from "../test-helpers";
import { setCompactionThreshold } from "./compaction";
import { encodePutRecord, encodeRecord, readRecords } from "./records";

/** A document of any shape (the driver's Document), with the _id kinds these tests use. */
type Loose = Document & { _id?: number | string | ObjectId };
const here = path.dirname(fileURLToPath(import.meta.url));
const tempDirs: string[] = [];
let h: Harness | undefined;

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-"));
  tempDirs.push(dir);
  return dir;
}

afterEach(async () => {
  await stopHarness(h);
  h = undefined;
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the writer child until it acknowledged iteration `minAck`, then SIGKILLs
 * it. Resolves with every acknowledged iteration number.
 */
function runAndKill(dir: string, minAck: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "crash-writer.fixture.ts"), dir], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "test" },
    });
    const acks: number[] = [];
    let stderr = "";
    let buffer = "";
    let killed = false;
    // Kill at a moment unrelated to the write loop, once enough writes were acknowledged.
    const killLater = () => {
      if (killed) return;
      killed = true;
      setTimeout(() => child.kill("SIGKILL"), Math.floor(Math.random() * 15));
    };
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m) acks.push(Number(m[1]));
        if (acks.length > 0 && acks[acks.length - 1] >= minAck) killLater();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(acks);
      else reject(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });
}

describe("durability", () => {
  it("keeps every acknowledged write across kill -9", async () => {
    const dir = tempDir();
    const acked: number[] = [];
    for (const round of [1, 2]) {
      acked.push(...(await runAndKill(dir, 150 * round)));
      expect(acked.length).toBeGreaterThanOrEqual(150 * round);
      h = await startHarness(dir);
      const docs = h.client.db("crash").collection<{ _id: number; n?: number }>("docs");
      const ids = new Set((await docs.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
      const missing: number[] = [];
      for (const i of acked) {
        const expected = i % 3 === 2 ? [i * 10, i * 10 + 1, i * 10 + 2] : [i * 10];
        for (const id of expected) if (!ids.has(id)) missing.push(id);
      }
      expect(missing).toEqual([]);
      const counter = await docs.findOne({ _id: -1 });
      // Every acknowledged $inc is there; at most one unacknowledged one may be too.
      expect(counter?.n).toBeGreaterThanOrEqual(acked.length);
      expect(counter?.n).toBeLessThanOrEqual(acked.length + round);
      expect((await docs.indexes()).map((i) => i.name)).toEqual(["_id_", "kind_1"]);
      await stopHarness(h);
      h = undefined;
    }
  }, 30_000);

  it("journals an inserted document in the bytes it arrived in, and a restart reads back the same values", async () => {
    const doc = {
      _id: 7,
      name: "Tênis Ação",
      n: 2.5,
      whole: 3,
      big: 2 ** 40,
      at: new Date(Date.UTC(2026, 0, 2)),
      tags: ["a", "b"],
      sub: { x: null, y: true },
    };
    // The record around the document's own bytes is the record the journal encodes from the document.
    expect(encodePutRecord("db.c", Buffer.from(BSON.serialize(doc)))).toEqual(encodeRecord(1, { n: "db.c", d: doc }));
    // A driver appends the _id it generates: the record has it first, as the document is stored.
    const { _id, ...rest } = doc;
    expect(encodePutRecord("db.c", Buffer.from(BSON.serialize({ ...rest, _id })))).toEqual(
      encodeRecord(1, { n: "db.c", d: doc }),
    );
    expect(encodePutRecord("db.c", Buffer.from(BSON.serialize(rest)))).toBeUndefined();
    const dir = tempDir();
    h = await startHarness(dir);
    const docs = h.client.db("raw").collection<Loose>("docs");
    await docs.createIndexes([{ key: { name: 1 } }, { key: { "sub.y": 1, at: -1 } }]);
    const batch: Loose[] = Array.from({ length: 3_000 }, (_, i) => ({
      ...doc,
      _id: i,
      n: i / 4,
      tags: [`t${i % 5}`],
      at: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
    }));
    await docs.insertMany(batch.slice(0, 1_500));
    // Without an _id: the driver generates one and appends it.
    const generated = batch.slice(1_500).map(({ _id, ...fields }) => fields as Loose);
    await docs.insertMany(generated, { ordered: false });
    await stopHarness(h);
    h = await startHarness(dir);
    const again = h.client.db("raw").collection<Loose>("docs");
    const back = await again.find({}).toArray();
    expect(back.slice(0, 1_500)).toEqual(batch.slice(0, 1_500));
    expect(back.slice(1_500)).toEqual(generated);
    expect(Object.keys(back[2_000])[0]).toBe("_id");
    expect(await again.countDocuments({ "sub.y": true, at: { $gte: new Date(Date.UTC(2026, 0, 20)) } })).toBe(
      batch.filter((d) => d.at >= new Date(Date.UTC(2026, 0, 20))).length,
    );
  });

  it("journals an insert command whose documents all went in as one record of its documents array; one that refused some, document by document", async () => {
    const dir = tempDir();
    h = await startHarness(dir);
    const docs = h.client.db("batch").collection<Loose>("docs");
    await docs.createIndex({ k: 1 });
    const journal = path.join(dir, "journal.log");
    const kinds = () => {
      const out: number[] = [];
      readRecords(fs.readFileSync(journal), (type) => out.push(type));
      return out;
    };
    const before = kinds().length;
    // The driver appends the _ids it generates: the record holds the array as sent, _id last.
    const generated: Loose[] = Array.from({ length: 500 }, (_, i) => ({ k: i % 7, n: i }));
    await docs.insertMany(generated, { ordered: false });
    expect(kinds().slice(before)).toEqual([10]);
    // A duplicate _id refuses one document: the others are journaled one by one.
    await expect(
      docs.insertMany([{ _id: "a", k: 1 }, { _id: "b" }, { _id: "a" }, { _id: "c", k: 2 }], { ordered: false }),
    ).rejects.toThrow(/E11000/);
    expect(kinds().slice(before + 1)).toEqual([1, 1, 1]);
    await stopHarness(h);
    h = await startHarness(dir);
    const again = h.client.db("batch").collection<Loose>("docs");
    const back = await again
      .find({ n: { $exists: true } })
      .sort({ n: 1 })
      .toArray();
    expect(back.map(({ _id, ...rest }) => rest)).toEqual(generated.map(({ _id, ...rest }) => rest));
    expect(back.map((d) => String(d._id))).toEqual(generated.map((d) => String(d._id)));
    expect(back.every((d) => Object.keys(d)[0] === "_id")).toBe(true);
    expect(
      await again
        .find({ n: { $exists: false } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([{ _id: "a", k: 1 }, { _id: "b" }, { _id: "c", k: 2 }]);
    expect(await again.countDocuments({ k: 3 })).toBe(generated.filter((d) => d.k === 3).length);
  });

  it("discards a torn last record and keeps writing after it", async () => {
    const dir = tempDir();
    h = await startHarness(dir);
    await h.client
      .db("t")
      .collection<Loose>("c")
      .insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    await stopHarness(h);
    h = undefined;
    const journal = path.join(dir, "journal.log");
    const goodSize = fs.statSync(journal).size;
    // Half a record: a length prefix promising more bytes than were written.
    fs.appendFileSync(journal, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 1, 9, 9]));
    h = await startHarness(dir);
    const c = h.client.db("t").collection<Loose>("c");
    expect(await c.find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
    expect(fs.statSync(journal).size).toBe(goodSize);
    await c.insertOne({ _id: 3 } as never);
    await stopHarness(h);
    h = undefined;
    h = await startHarness(dir);
    expect(await h.client.db("t").collection<Loose>("c").countDocuments()).toBe(3);
  });

  it("discards a record whose checksum does not match", async () => {
    const dir = tempDir();
    h = await startHarness(dir);
    const c = h.client.db("t").collection<Loose>("c");
    await c.insertOne({ _id: 1, v: "first" } as never);
    await c.insertOne({ _id: 2, v: "second" } as never);
    await stopHarness(h);
    h = undefined;
    const journal = path.join(dir, "journal.log");
    const bytes = fs.readFileSync(journal);
    bytes[bytes.length - 3] ^= 0xff; // corrupt the last record's body
    fs.writeFileSync(journal, bytes);
    h = await startHarness(dir);
    expect(await h.client.db("t").collection<Loose>("c").find().toArray()).toEqual([{ _id: 1, v: "first" }]);
  });

  it("compacts into a snapshot and replays a journal over it idempotently", async () => {
    const dir = tempDir();
    h = await startHarness(dir);
    const c = h.client.db("t").collection<Loose>("big");
    await c.createIndex({ k: 1 }, { unique: true });
    const payload = "z".repeat(1000);
    await c.insertMany(Array.from({ length: 1500 }, (_, i) => ({ _id: i, k: i, payload })) as never[]);
    await c.updateMany({ _id: { $lt: 10 } }, { $set: { touched: true } });
    await c.deleteOne({ _id: 1499 });
    const journal = path.join(dir, "journal.log");
    const beforeCompaction = fs.readFileSync(journal);
    await stopHarness(h); // the journal is over 1 MB, so stop compacts it
    h = undefined;
    expect(fs.statSync(path.join(dir, "snapshot.bson")).size).toBeGreaterThan(1_000_000);
    expect(fs.statSync(journal).size).toBe(0);
    // Simulate a crash between the snapshot rename and the journal truncation.
    fs.writeFileSync(journal, beforeCompaction);
    h = await startHarness(dir);
    const again = h.client.db("t").collection<Loose>("big");
    expect(await again.countDocuments()).toBe(1499);
    expect(await again.countDocuments({ touched: true })).toBe(10);
    const dup = await again.insertOne({ _id: 5000, k: 3 } as never).catch((e: { code?: number }) => e);
    expect((dup as { code?: number }).code).toBe(11000);
  });

  it("compacts beside the commands: they answer while the snapshot is written, and a restart sees every acknowledged write", async () => {
    setCompactionThreshold(256 * 1024);
    try {
      const dir = tempDir();
      h = await startHarness(dir);
      const c = h.client.db("t").collection<Loose>("big");
      await c.createIndex({ k: 1 }, { unique: true });
      const payload = "y".repeat(400);
      const snapshot = path.join(dir, "snapshot.bson");
      // One write of 20,000 documents: the journal passes the threshold and a compaction of ~9 MB starts.
      await c.insertMany(Array.from({ length: 20_000 }, (_, i) => ({ _id: i, k: i, payload })) as never[]);
      const journalBefore = fs.statSync(path.join(dir, "journal.log")).size;
      // The compaction has begun but not switched yet: reads and writes answer meanwhile (with a synchronous
      // compaction the insert above would only have answered after the snapshot was in place).
      expect(fs.existsSync(snapshot)).toBe(false);
      expect(await c.countDocuments({ k: { $gte: 19_990 } })).toBe(10);
      await c.updateOne({ _id: 3 }, { $set: { during: true } });
      await c.deleteOne({ _id: 4 });
      await c.insertOne({ _id: 30_000, k: 30_000, late: true } as never);
      expect(fs.existsSync(snapshot)).toBe(false);
      await vi.waitFor(() => expect(fs.existsSync(snapshot)).toBe(true), { timeout: 30_000, interval: 20 });
      // After the switch, more writes go to the shortened journal.
      await c.updateOne({ _id: 5 }, { $set: { after: true } });
      expect(fs.statSync(path.join(dir, "journal.log")).size).toBeLessThan(journalBefore);
      await stopHarness(h);
      h = undefined;
      h = await startHarness(dir);
      const again = h.client.db("t").collection<Loose>("big");
      expect(await again.countDocuments()).toBe(20_000);
      expect(await again.findOne({ _id: 3 })).toMatchObject({ during: true });
      expect(await again.findOne({ _id: 4 })).toBeNull();
      expect(await again.findOne({ _id: 5 })).toMatchObject({ after: true });
      expect(await again.findOne({ _id: 30_000 })).toMatchObject({ late: true });
      expect(
        (await again.insertOne({ _id: 40_000, k: 7 } as never).catch((e: { code?: number }) => e)) as { code?: number },
      ).toMatchObject({ code: 11000 });
    } finally {
      setCompactionThreshold(undefined);
    }
  }, 60_000);

  it("refuses a data directory that another server holds", async () => {
    const dir = tempDir();
    h = await startHarness(dir);
    await expect(startHarness(dir)).rejects.toThrow(/already open/);
  });

  it("releases the data directory when the port is taken", async () => {
    const dir = tempDir();
    h = await startHarness();
    await expect(startEmbeddedMongo({ dbPath: dir, port: h.server.port })).rejects.toThrow(/EADDRINUSE/);
    const again = await startEmbeddedMongo({ dbPath: dir });
    await again.stop();
  });

  it("refuses NODE_ENV=production unless ALLOW_EMBEDDED_DB=1, and warns when allowed", () => {
    expect(() => assertEmbeddedAllowed({ NODE_ENV: "production" })).toThrow(/MONGODB_URI/);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(() => assertEmbeddedAllowed({ NODE_ENV: "production", ALLOW_EMBEDDED_DB: "1" })).not.toThrow();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not for production/));
    } finally {
      warn.mockRestore();
    }
    expect(() => assertEmbeddedAllowed({ NODE_ENV: "development" })).not.toThrow();
  });
});
