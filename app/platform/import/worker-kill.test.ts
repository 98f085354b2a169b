import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { PRODUCT_HEADER, productLine, storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { FILE_STATUS_UNREADABLE, findFileById, retryJob } from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import { PRODUCT_MASTER, PRODUCT_MASTER_NOK } from "~/models/master-data.server";
import { interruptedMessage, processNextJob } from "~/platform/import/worker-loop.server";

const testDb = useTestDatabase();
const data = useTempDataDir();

const ROWS = 60_000;
const LEASE_MS = 1_500;

describe("a worker killed mid-file", () => {
  it("is not taken over after the lease (status 3), and Reprocessar then imports it with exact counts and no duplicates", async () => {
    const lines = [PRODUCT_HEADER];
    for (let i = 0; i < ROWS; i++) lines.push(productLine(i, i % 50 === 7));
    const expectedNok = lines.slice(1).filter((l) => l.includes(";maybe;")).length;
    const { id } = await storeAndRegister("kill.csv", lines.join("\n"));
    const db = await testDb.db();

    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server/worker.ts")], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        MONGODB_URI: testDb.uri,
        DATABASE_NAME: process.env.DATABASE_NAME,
        DATA_DIR: data.dir,
        WORKER_NAME: "doomed-worker",
        WORKER_LEASE_MS: String(LEASE_MS),
        WORKER_PROGRESS_MS: "100",
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

    // Wait until the child has claimed the file and written some rows, then kill -9.
    const deadline = Date.now() + 60_000;
    let progress = 0;
    while (Date.now() < deadline) {
      const file = await db.collection(FILES).findOne({ _id: id });
      progress = file?.progress ?? 0;
      if (
        file?.agent === "doomed-worker" &&
        progress > 0 &&
        progress < 100 &&
        (await db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id })) > 0
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(progress, stderr).toBeGreaterThan(0);
    child.kill("SIGKILL");
    await exited;

    const partial = await db.collection(FILES).findOne({ _id: id });
    expect(partial).toMatchObject({ agent: "doomed-worker", status: 0 });
    expect(partial!.progress).toBeLessThan(100);
    const written = await db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id });
    expect(written).toBeGreaterThan(0);

    // While the dead worker's lease lasts, nobody may take the file.
    if (partial!.leaseUntil > new Date(Date.now() + 200)) {
      expect(await processNextJob({ name: "rescuer", leaseMs: 60_000 })).toBeNull();
    }
    await new Promise((r) => setTimeout(r, Math.max(0, partial!.leaseUntil.getTime() - Date.now()) + 50));
    // The attempt before never finished (its process died, perhaps of this very file): not tried again automatically.
    expect(await processNextJob({ name: "rescuer", leaseMs: 60_000 })).toMatchObject({
      kind: "done",
      status: FILE_STATUS_UNREADABLE,
    });
    expect(await findFileById(id)).toMatchObject({
      attempts: 2,
      progress: 100,
      status: FILE_STATUS_UNREADABLE,
      message: interruptedMessage,
    });
    expect(await processNextJob({ name: "rescuer", leaseMs: 60_000 })).toBeNull();

    const owner = (await findFileById(id))!.user;
    expect(await retryJob(id, { email: owner, type: "USER BRONZE" })).toEqual({ ok: true });
    const outcome = await processNextJob({ name: "rescuer", leaseMs: 60_000 });
    expect(outcome).toMatchObject({ kind: "done", status: 0, okRows: ROWS - expectedNok, nokRows: expectedNok });

    expect(await findFileById(id)).toMatchObject({ agent: "rescuer", attempts: 3, progress: 100, status: 0 });
    expect(await db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id })).toBe(ROWS - expectedNok);
    expect(await db.collection(PRODUCT_MASTER_NOK).countDocuments({ sourceFileId: id })).toBe(expectedNok);
    const lineNumbers = await db.collection(PRODUCT_MASTER).distinct("_lineNumber", { sourceFileId: id });
    expect(lineNumbers).toHaveLength(ROWS - expectedNok);
  }, 180_000);
});
