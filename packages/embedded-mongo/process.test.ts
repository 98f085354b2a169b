/** The embedded database as its own process: started once per data directory, joined by others, gone with its parent. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { findRunningServer, startEmbeddedDbProcess } from "./process";

const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-db-process-"));
  dirs.push(d);
  return d;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("startEmbeddedDbProcess", () => {
  it("runs the server in a child process that a second caller joins, and stops it", async () => {
    const dir = tempDir();
    const first = await startEmbeddedDbProcess(dir);
    expect(first.pid).not.toBe(process.pid);
    expect(alive(first.pid!)).toBe(true);
    const client = new MongoClient(first.uri);
    await client.db("d").collection("c").insertOne({ n: 1 });
    // The pid is the server's own process, and it runs with the heap and collector flags (not a wrapper's child).
    const status = await client.db("admin").command({ serverStatus: 1 });
    expect(Number(status.pid)).toBe(first.pid);
    const flags = fs.readFileSync(`/proc/${first.pid}/cmdline`, "utf8").split("\0");
    expect(flags.some((f) => f.startsWith("--max-old-space-size="))).toBe(true);
    expect(flags).toContain("--heap-growing-percent=50");
    const second = await startEmbeddedDbProcess(dir);
    expect(second).toEqual({ uri: first.uri });
    await client.close();
    await first.stop!();
    expect(alive(first.pid!)).toBe(false);
    expect(await findRunningServer(dir)).toBeUndefined();
  }, 30_000);

  it("stops the server when its parent is killed with -9", async () => {
    const dir = tempDir();
    const parent = spawn(process.execPath, ["--import", "tsx", path.join(here, "parent.fixture.ts"), dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const dbPid = await new Promise<number>((resolve) => {
      let out = "";
      parent.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        const m = /db pid (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
    });
    expect(alive(dbPid)).toBe(true);
    parent.kill("SIGKILL");
    for (let i = 0; i < 100 && alive(dbPid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(dbPid)).toBe(false);
  }, 30_000);
});
