/**
 * Faults the data directory must survive: a holder killed with -9 (its lock goes with it, a live
 * holder still keeps others out), and a full disk (writes fail and are never acknowledged, reads
 * go on, writes succeed again once there is space, without a restart).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient, MongoServerError } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { type EmbeddedMongo, startEmbeddedMongo } from "../index";
import { type JournalIo, nodeIo } from "./io";

const here = path.dirname(fileURLToPath(import.meta.url));
const tempDirs: string[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-faults-"));
  tempDirs.push(dir);
  return dir;
}

/** Starts `npm run db` on a directory; resolves with its URI once it listens, or its exit and output. */
function startCli(dir: string): Promise<{ child: ChildProcess; uri?: string; exit?: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(here, "..", "cli.ts"), "--port", "0", "--dbpath", dir],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NODE_ENV: "test" },
      },
    );
    children.push(child);
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /connection string: (\S+)/.exec(output);
      if (m) resolve({ child, uri: m[1], output });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => resolve({ child, exit: code, output }));
  });
}

describe("the data-directory lock", () => {
  it("refuses a second live server, and lets a new one start 1 s after the holder is killed with -9", async () => {
    const dir = tempDir();
    const first = await startCli(dir);
    expect(first.uri).toBeDefined();
    const client = new MongoClient(first.uri!);
    await client
      .db("d")
      .collection("c")
      .insertOne({ _id: 1 } as never);
    await client.close();

    const second = await startCli(dir);
    expect(second.uri).toBeUndefined();
    expect(second.exit).toBe(1);
    expect(second.output).toMatch(/in use by process \d+/);

    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const third = await startCli(dir);
    expect(third.uri).toBeDefined();
    const again = new MongoClient(third.uri!);
    expect(await again.db("d").collection("c").countDocuments({})).toBe(1);
    await again.close();
    third.child.kill("SIGTERM");
    await new Promise((resolve) => third.child.once("exit", resolve));
  }, 60_000);
});

describe("a full disk", () => {
  it("fails writes cleanly, keeps reads working, and writes again once there is space", async () => {
    const dir = tempDir();
    let full = false;
    const io: JournalIo = {
      ...nodeIo,
      async write(fd, data) {
        if (!full) return nodeIo.write(fd, data);
        // Part of the record reaches the file before the disk runs out, as a real write can.
        await nodeIo.write(fd, data.subarray(0, Math.floor(data.length / 2)));
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28 });
      },
    };
    let server: EmbeddedMongo = await startEmbeddedMongo({ dbPath: dir, io });
    let client = new MongoClient(server.uri);
    const items = () => client.db("d").collection<{ _id: number; n: number }>("items");
    await items().createIndex({ n: 1 }, { unique: true });
    await items().insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);

    full = true;
    const insert = await items()
      .insertOne({ _id: 3, n: 3 })
      .catch((e: unknown) => e);
    expect(insert).toBeInstanceOf(MongoServerError);
    expect((insert as MongoServerError).code).toBe(14031);
    expect((insert as MongoServerError).message).toMatch(/no space left on device/);
    const update = await items()
      .updateOne({ _id: 1 }, { $set: { n: 10 } })
      .catch((e: unknown) => e);
    expect((update as MongoServerError).code).toBe(14031);
    const drop = await items()
      .deleteOne({ _id: 2 })
      .catch((e: unknown) => e);
    expect((drop as MongoServerError).code).toBe(14031);
    // Reads go on, and never see what was refused (the index included).
    expect(await items().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);
    expect(await items().countDocuments({ n: 3 })).toBe(0);
    expect(await items().countDocuments({ n: 1 })).toBe(1);

    full = false;
    await items().insertOne({ _id: 3, n: 3 });
    await items().updateOne({ _id: 1 }, { $set: { n: 10 } });
    expect(await items().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 10 },
      { _id: 2, n: 2 },
      { _id: 3, n: 3 },
    ]);

    // After a restart the journal holds exactly the acknowledged writes (no torn record left in the middle).
    await client.close();
    await server.stop();
    server = await startEmbeddedMongo({ dbPath: dir });
    client = new MongoClient(server.uri);
    expect(await items().find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 10 },
      { _id: 2, n: 2 },
      { _id: 3, n: 3 },
    ]);
    await client.close();
    await server.stop();
  });
});
