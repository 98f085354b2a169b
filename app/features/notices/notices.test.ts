import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { captureLog } from "#test/s3/s3rver";
import { applyIndexes } from "~/models/all-indexes.server";
import {
  listNotices,
  listQueuedMail,
  MAIL_MAX_ATTEMPTS,
  mailBackoffMs,
  markAllNoticesRead,
  markNoticeRead,
  NOTICE_MAIL,
  NOTICES,
  NOTICES_PAGE_SIZE,
  notify,
  safePortalLink,
  unreadCount,
} from "~/models/notices.server";
import { readTaskRecord } from "~/models/scheduled-tasks.server";
import { getPreferences, savePreferences } from "~/models/user-preferences.server";
import { deliverPendingMail } from "~/platform/notices/mail-dispatch.server";
import { runDueTasks, SCHEDULED_TASKS, type ScheduledTask } from "~/scheduled-tasks.server";
import { readLatestMail } from "~/services/mail.server";

/**
 * Notices on the embedded database: notify() keeps each in the recipient's list and queues its e-mail unless the
 * recipient switched e-mail off; the list, the unread count, marking read (only one's own); the dispatcher sending
 * the queue to the outbox; the scheduled-task runner running a task once per period across runners.
 */

const testDb = useTestDatabase();
// A recent instant: sent mail expires (TTL) 30 days after it was sent.
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (ms: number) => new Date(T0.getTime() + ms);

beforeAll(async () => {
  await applyIndexes(await testDb.db());
});

describe("notify, the list and the unread count", () => {
  it("keeps one notice per recipient, newest first, counts the unread and marks only the user's own read", async () => {
    await notify(
      [
        { to: "Ana@Example.com", kind: "forecast.submitted", title: "Primeiro", body: "Corpo 1", link: "/ij/report" },
        { to: "bia@example.com", kind: "forecast.submitted", title: "Da Bia", body: "Corpo B" },
      ],
      at(0),
    );
    await notify([{ to: "ana@example.com", kind: "job.done", title: "Segundo", body: "Corpo 2" }], at(1_000));

    const list = await listNotices("ANA@example.com", 1);
    expect(list.total).toBe(2);
    expect(list.rows.map((r) => r.title)).toEqual(["Segundo", "Primeiro"]);
    expect(list.rows[1]).toMatchObject({ link: "/ij/report", readAt: null, kind: "forecast.submitted" });
    expect(await unreadCount("ana@example.com")).toBe(2);
    expect(await unreadCount("bia@example.com")).toBe(1);

    // Bia cannot mark Ana's notice read, nor see it.
    const anas = list.rows[1].id;
    expect(await markNoticeRead("bia@example.com", anas, at(2_000))).toBeNull();
    expect(await unreadCount("ana@example.com")).toBe(2);
    expect(await markNoticeRead("ana@example.com", "not-an-id")).toBeNull();

    const opened = await markNoticeRead("ana@example.com", anas, at(2_000));
    expect(opened).toMatchObject({ title: "Primeiro", link: "/ij/report" });
    expect(opened?.readAt?.toISOString()).toBe(at(2_000).toISOString());
    expect(await unreadCount("ana@example.com")).toBe(1);

    expect(await markAllNoticesRead("ana@example.com", at(3_000))).toBe(1);
    expect(await unreadCount("ana@example.com")).toBe(0);
    expect(await unreadCount("bia@example.com")).toBe(1);
  });

  it("keeps only portal-relative links", async () => {
    for (const link of ["//evil.example", "/\\evil.example", "https://evil.example/x", "javascript:alert(1)", "x/y"])
      expect(safePortalLink(link), link).toBeNull();
    expect(safePortalLink("/ij/report_preview_schneider?rf=1")).toBe("/ij/report_preview_schneider?rf=1");
    await notify([{ to: "link@example.com", kind: "x", title: "Forjado", body: "b", link: "//evil.example" }], at(0));
    const [row] = (await listNotices("link@example.com", 1)).rows;
    expect(row.link).toBeNull();
    expect((await listQueuedMail("link@example.com"))[0].link).toBeNull();
  });

  it("pages on the server and answers the last page past the end", async () => {
    const many = Array.from({ length: NOTICES_PAGE_SIZE + 5 }, (_, n) => ({
      to: "many@example.com",
      kind: "x",
      title: `Aviso ${n}`,
      body: "b",
    }));
    for (const [n, notice] of many.entries()) await notify([notice], at(n * 1_000));
    const first = await listNotices("many@example.com", 1);
    expect(first.rows).toHaveLength(NOTICES_PAGE_SIZE);
    expect(first.rows[0].title).toBe(`Aviso ${many.length - 1}`);
    expect(first).toMatchObject({ total: many.length, page: 1, pageCount: 2 });
    const past = await listNotices("many@example.com", 9);
    expect(past).toMatchObject({ page: 2, pageCount: 2 });
    expect(past.rows.map((r) => r.title)).toEqual(["Aviso 4", "Aviso 3", "Aviso 2", "Aviso 1", "Aviso 0"]);
  });

  it("reads the list and the count through indexes", async () => {
    const db = await testDb.db();
    await db.collection(NOTICES).insertMany(
      Array.from({ length: 1_200 }, (_, n) => ({
        to: `bulk${n % 40}@example.com`,
        kind: "x",
        title: "t",
        body: "b",
        link: null,
        created_at: at(n),
        read_at: n % 3 === 0 ? at(n) : null,
      })),
    );
    const [count, page] = await expectIndexedQueries(db, () =>
      Promise.all([unreadCount("bulk7@example.com"), listNotices("bulk7@example.com", 1)]),
    );
    expect(count).toBe(20);
    expect(page.total).toBe(30);
  });
});

describe("e-mail notices switched off", () => {
  it("lists the notice but queues no e-mail; switched on again, the next one is queued", async () => {
    expect((await getPreferences("off@example.com")).emailNotices).toBe(true);
    await savePreferences("Off@Example.com", { emailNotices: false }, at(0));
    expect((await getPreferences("off@example.com")).emailNotices).toBe(false);
    await notify(
      [
        { to: "off@example.com", kind: "x", title: "Sem e-mail", body: "b" },
        { to: "on@example.com", kind: "x", title: "Com e-mail", body: "b" },
      ],
      at(0),
    );
    expect((await listNotices("off@example.com", 1)).rows.map((r) => r.title)).toEqual(["Sem e-mail"]);
    expect(await listQueuedMail("off@example.com")).toEqual([]);
    expect(await listQueuedMail("on@example.com")).toHaveLength(1);

    await savePreferences("off@example.com", { emailNotices: true }, at(1_000));
    await notify([{ to: "off@example.com", kind: "x", title: "Agora com e-mail", body: "b" }], at(2_000));
    expect((await listQueuedMail("off@example.com")).map((m) => m.title)).toEqual(["Agora com e-mail"]);
  });
});

describe("the mail dispatcher (outbox)", () => {
  it("delivers each queued notice once to the outbox, with its link and the way to switch mail off", async () => {
    await testDb.db().then((db) => db.collection(NOTICE_MAIL).deleteMany({}));
    await notify(
      [
        {
          to: "caio@example.com",
          kind: "forecast.reminder",
          title: "Lembrete",
          body: "Envie o forecast.",
          link: "/ij/x",
        },
      ],
      at(0),
    );
    const { result, lines } = await captureLog(() => deliverPendingMail(at(5_000)));
    expect(result).toEqual({ sent: 1, failed: 0 });
    const mail = await readLatestMail("caio@example.com");
    expect(mail).toMatchObject({ to: "caio@example.com", subject: "Lembrete" });
    expect(mail?.text).toContain("Envie o forecast.");
    expect(mail?.text).toMatch(/Abrir no portal: http:\/\/[^\s]+\/ij\/x/);
    expect(mail?.text).toMatch(/\/user\/settings/);
    const [queued] = await listQueuedMail("caio@example.com");
    expect(queued).toMatchObject({ status: "sent", attempts: 1, claim: null });
    // Each attempt is logged, without the body.
    expect(lines.find((l) => l.msg === "notice mail sent")).toMatchObject({
      component: "notice-mail",
      to: "caio@example.com",
      kind: "forecast.reminder",
      attempt: 1,
    });
    expect(JSON.stringify(lines)).not.toContain("Envie o forecast.");
    // Nothing left to send.
    expect(await deliverPendingMail(at(60_000))).toEqual({ sent: 0, failed: 0 });
  });

  it("waits 30 s, 1 min, 2 min… between attempts, at most an hour, and gives up after the last", () => {
    expect([1, 2, 3, 4].map(mailBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(mailBackoffMs(20)).toBe(3_600_000);
    expect(MAIL_MAX_ATTEMPTS).toBeGreaterThanOrEqual(5);
  });

  it("runs as a scheduled task of the worker every 10 s at most", () => {
    const task = SCHEDULED_TASKS.find((t) => t.name === "notice-mail");
    expect(task?.everyMs).toBeLessThanOrEqual(15_000);
  });
});

describe("the scheduled-task runner", () => {
  const counting = (name: string, everyMs: number, run: (now: Date) => Promise<void> = async () => undefined) => {
    const runs: string[] = [];
    const task: ScheduledTask = {
      name,
      everyMs,
      leaseMs: 60_000,
      run: async (now) => {
        runs.push(now.toISOString());
        await run(now);
      },
    };
    return { task, runs };
  };

  it("runs a due task once per period, whichever runner calls first", async () => {
    const { task, runs } = counting("test-once", 60 * 60_000);
    // Two runners (two processes) at the same moment: one runs it.
    const [a, b] = await Promise.all([runDueTasks(at(0), [task]), runDueTasks(at(0), [task])]);
    expect([...a, ...b]).toEqual(["test-once"]);
    expect(await runDueTasks(at(30 * 60_000), [task])).toEqual([]);
    expect(await runDueTasks(at(60 * 60_000), [task])).toEqual(["test-once"]);
    expect(runs).toHaveLength(2);
    expect(await readTaskRecord("test-once")).toMatchObject({ lease_until: null, owner: null, last_error: null });
  });

  it("does not start a run while another holds the lease, and takes over once it runs out", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first run hangs (a process that stalled or died); later runs end at once.
    const { task, runs } = counting("test-lease", 1_000, () => (runs.length === 1 ? held : Promise.resolve()));
    const first = runDueTasks(at(0), [task]);
    await expect.poll(() => runs.length).toBe(1);
    // Past the period, but the first run still holds the lease (60 s).
    expect(await runDueTasks(at(5_000), [task])).toEqual([]);
    // The holder is presumed dead once the lease runs out.
    expect(await runDueTasks(at(61_000), [task])).toEqual(["test-lease"]);
    expect(runs).toEqual([at(0).toISOString(), at(61_000).toISOString()]);
    release();
    expect(await first).toEqual(["test-lease"]);
    // The first run's late end changes nothing: the task is next due one period after the takeover.
    expect(await runDueTasks(at(61_500), [task])).toEqual([]);
    expect(await runDueTasks(at(62_000), [task])).toEqual(["test-lease"]);
  });

  it("starts no further task once it is told to stop (a worker shutting down waits for one task at most)", async () => {
    const stop = new AbortController();
    const first = counting("test-stop-first", 60 * 60_000, async () => stop.abort());
    const second = counting("test-stop-second", 60 * 60_000);
    expect(await runDueTasks(at(0), [first.task, second.task], stop.signal)).toEqual(["test-stop-first"]);
    expect(second.runs).toEqual([]);
    // The task left out is still due for the next runner.
    expect(await runDueTasks(at(0), [first.task, second.task])).toEqual(["test-stop-second"]);
  });

  it("logs a failing task, runs the others, and tries the failed one again sooner than a day", async () => {
    const failing = counting("test-failing", 24 * 60 * 60_000, async () => {
      throw new Error("boom");
    });
    const other = counting("test-other", 24 * 60 * 60_000);
    const { result, lines } = await captureLog(() => runDueTasks(at(0), [failing.task, other.task]));
    expect(result).toEqual(["test-failing", "test-other"]);
    expect(lines.find((l) => l.msg === "scheduled task failed")).toMatchObject({ task: "test-failing", error: "boom" });
    expect(await readTaskRecord("test-failing")).toMatchObject({ last_error: "boom", lease_until: null });
    expect(await runDueTasks(at(60_000), [failing.task, other.task])).toEqual([]);
    const again = await captureLog(() => runDueTasks(at(5 * 60_000), [failing.task, other.task]));
    expect(again.result).toEqual(["test-failing"]);
  });
});
