import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { PRODUCT_HEADER, productLine, storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { FILES } from "~/models/files.server";
import { PRODUCT_MASTER, PRODUCT_MASTER_NOK } from "~/models/master-data.server";

const testDb = useTestDatabase();
const data = useTempDataDir();

const ROWS = 60_000;
const LEASE_MS = 2_000;

type Worker = { name: string; child: ChildProcess; exited: Promise<void>; stderr: () => string };
const started: Worker[] = [];

/** A real worker process (`server/worker.ts`) on the test's database, with a short lease and a quick poll. */
function startWorkerProcess(name: string): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server/worker.ts")], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      MONGODB_URI: testDb.uri,
      DATABASE_NAME: process.env.DATABASE_NAME,
      DATA_DIR: data.dir,
      WORKER_NAME: name,
      WORKER_LEASE_MS: String(LEASE_MS),
      WORKER_PROGRESS_MS: "100",
      WORKER_POLL_MS: "100",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const worker = { name, child, exited, stderr: () => stderr };
  started.push(worker);
  return worker;
}

afterEach(async () => {
  for (const w of started.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
    await w.exited;
  }
});

const pt = (n: number) => n.toLocaleString("pt-BR");

describe("a worker killed mid-file", () => {
  it("is taken over by the other worker after the lease, which imports every row of the file exactly once", async () => {
    const lines = [PRODUCT_HEADER];
    for (let i = 0; i < ROWS; i++) lines.push(productLine(i, i % 50 === 7));
    const expectedNok = lines.slice(1).filter((l) => l.includes(";maybe;")).length;
    const { id } = await storeAndRegister("kill.csv", lines.join("\n"));
    const db = await testDb.db();
    const okRows = () => db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id });
    const doomed = startWorkerProcess("worker-a");

    // Wait until it has claimed the file and written some rows; then a second worker starts and the first is killed
    // -9. (The second starts only now: on a busy machine a worker that is starting up can miss its beats for a whole
    // short lease, and the other would take the file from it alive.)
    const deadline = Date.now() + 60_000;
    let midway = false;
    while (Date.now() < deadline && !midway) {
      const file = await db.collection(FILES).findOne({ _id: id });
      midway = file?.agent === doomed.name && file.progress > 0 && file.progress < 100 && (await okRows()) > 0;
      if (!midway) await new Promise((r) => setTimeout(r, 20));
    }
    expect(midway, doomed.stderr()).toBe(true);
    const survivor = startWorkerProcess("worker-b");
    doomed.child.kill("SIGKILL");
    await doomed.exited;

    const partial = await db.collection(FILES).findOne({ _id: id });
    expect(partial).toMatchObject({ agent: doomed.name, status: 0, attempts: 1 });
    expect(partial!.progress).toBeLessThan(100);
    const written = await okRows();
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(ROWS - expectedNok);

    // After the dead worker's lease, the survivor takes the file over and starts it again.
    let ended: Record<string, unknown> | null = null;
    while (Date.now() < deadline && !ended) {
      const file = await db.collection(FILES).findOne({ _id: id });
      if (file?.progress === 100) ended = file;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(ended, survivor.stderr()).not.toBeNull();
    expect(ended).toMatchObject({
      agent: survivor.name,
      attempts: 2,
      status: 0,
      nokRows: expectedNok,
      message: `${pt(ROWS - expectedNok)} linhas OK, ${pt(expectedNok)} NOK`,
    });
    // Every row of the file once: none lost, none doubled by the killed attempt.
    expect(await okRows()).toBe(ROWS - expectedNok);
    expect(await db.collection(PRODUCT_MASTER_NOK).countDocuments({ sourceFileId: id })).toBe(expectedNok);
    const lineNumbers = await db.collection(PRODUCT_MASTER).distinct("_lineNumber", { sourceFileId: id });
    expect(lineNumbers).toHaveLength(ROWS - expectedNok);
  }, 120_000);
});
