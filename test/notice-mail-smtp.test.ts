import type net from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig, resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { findFileById } from "~/models/file-jobs.server";
import { FILE_PROGRESS_DONE } from "~/models/files.server";
import { listNotices, listQueuedMail, notify } from "~/models/notices.server";
import { readTaskRecord } from "~/models/scheduled-tasks.server";
import { startWorker } from "~/platform/import/worker-loop.server";
import { deliverPendingMail } from "~/platform/notices/mail-dispatch.server";
import { runDueTasks } from "~/scheduled-tasks.server";
import { useTestDatabase } from "./db";
import { captureLog } from "./s3/s3rver";
import { storeUpload } from "./uploads";

/**
 * Notice e-mails over SMTP against real relays started here (smtp-server): one that delivers, and one that accepts
 * the message and then never answers. A stalled relay delays the notice mail and nothing else: notify(), the notice
 * list and the job worker go on, and the mail is retried after its backoff.
 */

const testDb = useTestDatabase();

type Received = { to: string[]; data: string };

async function startRelay(options: { stallData?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    closeTimeout: 200,
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
      stream.on("end", () => {
        if (options.stallData) return; // never answers the end of DATA
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function useSmtp(port: number, timeoutMs: number) {
  process.env.MAIL = "smtp";
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.SMTP_CONNECTION_TIMEOUT_MS = String(timeoutMs);
  process.env.SMTP_SEND_TIMEOUT_MS = String(timeoutMs);
  resetConfigForTests();
}

afterEach(() => {
  for (const key of ["MAIL", "SMTP_URL", "SMTP_CONNECTION_TIMEOUT_MS", "SMTP_SEND_TIMEOUT_MS"]) delete process.env[key];
  resetConfigForTests();
});

beforeAll(async () => {
  await applyIndexes(await testDb.db());
});

// A recent instant: sent mail expires (TTL) 30 days after it was sent.
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (ms: number) => new Date(T0.getTime() + ms);

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - started };
}

describe("notice mail over SMTP", () => {
  it("delivers a queued notice through the relay", async () => {
    const relay = await startRelay();
    try {
      useSmtp(relay.port, 2_000);
      await notify(
        [
          {
            to: "dora@example.com",
            kind: "job.done",
            title: "Arquivo processado",
            body: "Seu arquivo foi lido.",
            link: "/jobs/executados",
          },
        ],
        at(0),
      );
      const { result } = await captureLog(() => deliverPendingMail(at(1_000)));
      expect(result).toEqual({ sent: 1, failed: 0 });
      expect(relay.received).toHaveLength(1);
      expect(relay.received[0].to).toEqual(["dora@example.com"]);
      expect(relay.received[0].data).toContain("Subject: Arquivo processado");
      // The body is quoted-printable: soft line breaks ("=" at the end of a line) are not part of the text.
      expect(relay.received[0].data.replace(/=\r?\n/g, "")).toContain(
        `Abrir no portal: ${getConfig().origin}/jobs/executados`,
      );
      expect((await listQueuedMail("dora@example.com"))[0]).toMatchObject({ status: "sent", attempts: 1 });
    } finally {
      await relay.close();
    }
  });

  it("with a relay that stalls: notify, the list and the job worker stay prompt; the mail is retried with backoff", async () => {
    const stalled = await startRelay({ stallData: true });
    const working = await startRelay();
    let worker: ReturnType<typeof startWorker> | undefined;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The real clock here: the worker's scheduled tasks run on it.
    const t0 = new Date();
    const later = (ms: number) => new Date(t0.getTime() + ms);
    try {
      // Each send to the stalled relay takes 4 s to be given up (the bounded SMTP waits).
      useSmtp(stalled.port, 2_000);
      await notify([{ to: "eva@example.com", kind: "job.done", title: "Primeiro", body: "Corpo secreto 1" }], t0);

      const result = await captureLog(async () => {
        // A dispatcher is stuck on the relay with the first mail…
        // (One mail at most: the second is the worker's, whenever this one's attempt ends.)
        const dispatching = deliverPendingMail(later(1_000), { maxMails: 1 });
        await sleep(100);
        // …while a notice is sent and a page of notices loads, without waiting for it.
        const sending = await timed(() =>
          notify([{ to: "eva@example.com", kind: "job.done", title: "Segundo", body: "Corpo 2" }]),
        );
        const listing = await timed(() => listNotices("eva@example.com", 1));
        // The job worker with the scheduled tasks on its own timer: its mail run gets stuck with the second mail…
        worker = startWorker({
          name: "notice-test-worker",
          pollMs: 50,
          sweepIntervalMs: 0,
          periodic: { everyMs: 100, run: (now) => runDueTasks(now) },
        });
        const waitStarted = Date.now();
        while (!(await readTaskRecord("notice-mail"))?.owner && Date.now() - waitStarted < 3_000) await sleep(20);
        const mailRunHeld = !!(await readTaskRecord("notice-mail"))?.owner;
        // …and a file uploaded meanwhile is processed all the same.
        const { id } = await storeUpload("notices-stall.csv", "sku;x\n");
        const started = Date.now();
        let file = await findFileById(id);
        while (file?.progress !== FILE_PROGRESS_DONE && Date.now() - started < 5_000) {
          await sleep(20);
          file = await findFileById(id);
        }
        const jobMs = Date.now() - started;
        const mailStillStuck = !!(await readTaskRecord("notice-mail"))?.owner;
        const outcome = await dispatching;
        await worker.stop();
        return { sending, listing, mailRunHeld, jobMs, jobProgress: file?.progress, mailStillStuck, outcome };
      });
      const { sending, listing, mailRunHeld, jobMs, jobProgress, mailStillStuck, outcome } = result.result;
      expect(sending.ms).toBeLessThan(500);
      expect(listing.ms).toBeLessThan(500);
      expect(listing.value.rows.map((r) => r.title)).toEqual(["Segundo", "Primeiro"]);
      expect(mailRunHeld).toBe(true);
      expect(jobProgress).toBe(FILE_PROGRESS_DONE);
      expect(mailStillStuck).toBe(true);
      expect(jobMs).toBeLessThan(3_000);
      expect(outcome).toEqual({ sent: 0, failed: 1 });

      const queued = await listQueuedMail("eva@example.com");
      expect(queued.map((m) => [m.title, m.status, m.attempts, m.claim])).toEqual([
        ["Primeiro", "pending", 1, null],
        ["Segundo", "pending", 1, null],
      ]);
      // The first retry waits 30 s after the failed attempt.
      expect(queued[0].next_attempt_at.toISOString()).toBe(later(31_000).toISOString());
      expect(queued[1].next_attempt_at.getTime()).toBeGreaterThan(later(30_000).getTime());
      const attempt = result.lines.find((l) => l.msg === "notice mail attempt failed");
      expect(attempt).toMatchObject({ level: "warn", component: "notice-mail", to: "eva@example.com", attempt: 1 });
      expect(result.raw).not.toContain("Corpo secreto");

      // With a working relay: nothing before the backoff is over…
      useSmtp(working.port, 2_000);
      // (The uploaded file's own job notice, to its uploader, may go out meanwhile: only Eva's mails are counted.)
      const toEva = () => working.received.filter((m) => m.to.includes("eva@example.com"));
      await captureLog(() => deliverPendingMail(later(20_000)));
      expect(toEva()).toHaveLength(0);
      // …then both go out, once.
      expect((await captureLog(() => deliverPendingMail(later(95_000)))).result).toMatchObject({ failed: 0 });
      expect(
        toEva()
          .map((m) => /Subject: (\w+)/.exec(m.data)?.[1])
          .sort(),
      ).toEqual(["Primeiro", "Segundo"]);
      expect((await listQueuedMail("eva@example.com")).map((m) => m.status)).toEqual(["sent", "sent"]);
    } finally {
      await worker?.stop();
      await Promise.all([stalled.close(), working.close()]);
    }
  });
});
