import { ObjectId } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { endedFileRecord, grantPermission, storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { messages } from "~/messages";
import { claimNextJob, FILE_STATUS_UNKNOWN_LAYOUT, retryJob } from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { jobGiveUpTexts } from "~/platform/import/texts";
import { MAX_ATTEMPTS, processNextJob } from "~/platform/import/worker-loop.server";
import { handleRetryAction, loadJobList, parseListParams, toJobRow } from "./job-list.server";
import { jobTexts } from "./texts";

const testDb = useTestDatabase();
useTempDataDir();

const viewer = (email: string, type: AuthenticatedUser["type"] = "USER BRONZE"): AuthenticatedUser => ({
  email,
  name: "",
  type,
  sessionId: "s",
});
const item = (over: Partial<Parameters<typeof toJobRow>[0]> = {}): Parameters<typeof toJobRow>[0] => ({
  id: new ObjectId().toHexString(),
  originalName: "a.csv",
  originalFile: "k.csv",
  bucket: "local",
  user: "owner@x.test",
  statusChangeDate: new Date(Date.UTC(2024, 2, 5, 14, 7, 9)),
  createdAt: new Date(Date.UTC(2024, 2, 5, 14, 0, 0)),
  status: 0,
  progress: 0,
  message: "",
  agent: "",
  retryable: false,
  nokRows: 0,
  nokRowsRecorded: false,
  ...over,
});

describe("parseListParams", () => {
  const parse = (query: string) => parseListParams(new URL(`http://x/jobs/executados${query}`));
  it("defaults to page 1 and 20 per page", () => {
    expect(parse("")).toEqual({ page: 1, pageSize: 20 });
  });
  it("accepts 40 per page and any positive page", () => {
    expect(parse("?page=3&pageSize=40")).toEqual({ page: 3, pageSize: 40 });
  });
  it("falls back to the defaults for anything else", () => {
    expect(parse("?page=abc&pageSize=33")).toEqual({ page: 1, pageSize: 20 });
    expect(parse("?page=0&pageSize=-20")).toEqual({ page: 1, pageSize: 20 });
    expect(parse("?page=2.5&pageSize=20.5")).toEqual({ page: 1, pageSize: 20 });
  });
});

describe("toJobRow", () => {
  it("says Completed only at progress 100, and picks the icon from the status", () => {
    expect(toJobRow(item({ progress: 100 }), viewer("v@x.test"))).toMatchObject({
      state: messages.jobCompleted,
      kind: "success",
    });
    expect(toJobRow(item({ progress: 40 }), viewer("v@x.test"))).toMatchObject({
      state: messages.jobInProgress,
      kind: "in-progress",
    });
  });
  it("says Completed at 100 also when the job refused rows, with the refused rows beside it and its own icon", () => {
    // Spec 000 §4: "Completed" at progress 100; one refused row of 501 does not make the file read as not completed.
    expect(toJobRow(item({ progress: 100, nokRows: 1 }), viewer("v@x.test"))).toMatchObject({
      state: messages.jobCompleted,
      refusedRows: 1,
      kind: "partial",
    });
    expect(toJobRow(item({ progress: 100, nokRows: 0 }), viewer("v@x.test"))).toMatchObject({
      state: messages.jobCompleted,
      refusedRows: 0,
      kind: "success",
    });
    // Before the end it is in progress, whatever it counted so far.
    expect(toJobRow(item({ progress: 60, nokRows: 2 }), viewer("v@x.test"))).toMatchObject({
      state: messages.jobInProgress,
      refusedRows: 0,
    });
    // A refusal stays a refusal, whatever its rows.
    expect(toJobRow(item({ progress: 100, status: 4, nokRows: 3 }), viewer("v@x.test"))).toMatchObject({
      state: jobTexts.stateRefused,
      refusedRows: 0,
      kind: "error",
    });
  });
  it("says a job that ended with another status refused or failed, in words, whatever its progress", () => {
    expect(toJobRow(item({ progress: 100, status: 2 }), viewer("v@x.test"))).toMatchObject({
      state: jobTexts.stateRefused,
      kind: "error",
    });
    expect(toJobRow(item({ progress: 100, status: 4 }), viewer("v@x.test"))).toMatchObject({
      state: jobTexts.stateRefused,
      kind: "error",
    });
    expect(toJobRow(item({ progress: 100, status: 3 }), viewer("v@x.test"))).toMatchObject({
      state: jobTexts.stateRefused,
      kind: "error",
    });
    expect(toJobRow(item({ progress: 10, status: 3, retryable: true }), viewer("v@x.test"))).toMatchObject({
      state: jobTexts.stateFailed,
      kind: "error",
    });
  });
  it("formats the date as 'DD MMM YY HH:mm:ss', pt-BR, 24 h, in the portal's zone (America/Sao_Paulo)", () => {
    expect(toJobRow(item(), viewer("v@x.test")).date).toBe("05 mar 24 11:07:09");
  });
  it("offers Retry on a failed job to its owner and to a SYSTEM ADMIN only", () => {
    const failed = item({ status: 3, progress: 100, retryable: true });
    expect(toJobRow(failed, viewer("owner@x.test")).canRetry).toBe(true);
    expect(toJobRow(failed, viewer("admin@x.test", "SYSTEM ADMIN")).canRetry).toBe(true);
    expect(toJobRow(failed, viewer("gold@x.test", "USER GOLD")).canRetry).toBe(false);
    expect(toJobRow(item({ progress: 100 }), viewer("owner@x.test")).canRetry).toBe(false);
  });
  it("offers no Retry for a refusal, which a retry would only repeat", () => {
    for (const status of [2, 3, 4])
      expect(toJobRow(item({ status, progress: 100 }), viewer("owner@x.test")).canRetry, String(status)).toBe(false);
    expect(toJobRow(item({ status: 2, progress: 100 }), viewer("admin@x.test", "SYSTEM ADMIN")).canRetry).toBe(false);
  });
});

async function insertFile(over: Record<string, unknown>) {
  const { insertedId } = await (await testDb.db()).collection(FILES).insertOne(endedFileRecord(over));
  return insertedId;
}

describe("loadJobList and the retry action (embedded database)", () => {
  it("lists one user's jobs or everyone's, and polls only while a listed job is in progress", async () => {
    await (await testDb.db()).collection(FILES).deleteMany({});
    await insertFile({ user: "owner@x.test", originalName: "mine.csv" });
    await insertFile({ user: "other@x.test", originalName: "theirs.csv", progress: 30 });
    const request = new Request("http://x/captura/processando?pageSize=40");
    const own = await loadJobList(request, viewer("owner@x.test"), { ownOnly: true });
    expect(own.rows.map((r) => r.name)).toEqual(["mine.csv"]);
    expect(own).toMatchObject({ total: 1, page: 1, pageSize: 40, pageSizes: [20, 40], polling: false });
    const all = await loadJobList(request, viewer("gold@x.test", "USER GOLD"), { ownOnly: false });
    expect(all.rows.map((r) => r.name).sort()).toEqual(["mine.csv", "theirs.csv"]);
    expect(all.polling).toBe(true);
  });

  it("opens on the page that holds the file a notice names, its row marked; another's file is not looked for", async () => {
    const db = await testDb.db();
    await db.collection(FILES).deleteMany({});
    const base = Date.UTC(2026, 0, 1);
    const ids: ObjectId[] = [];
    for (let i = 0; i < 45; i++)
      ids.push(
        await insertFile({
          user: i % 2 === 0 ? "owner@x.test" : "other@x.test",
          originalName: `f${i}.csv`,
          statusChangeDate: new Date(base + i * 1000),
        }),
      );
    const load = (query: string, who = viewer("owner@x.test"), ownOnly = true) =>
      loadJobList(new Request(`http://x/captura/processando${query}`), who, { ownOnly });
    // The owner's 23 files, newest first: f4 is the 21st, on page 2 of 20.
    const found = await load(`?arquivo=${ids[4].toHexString()}`);
    expect(found).toMatchObject({ page: 2, highlightedJobId: ids[4].toHexString() });
    expect(found.rows.map((r) => r.name)).toContain("f4.csv");
    // Everyone's list, 40 a page: f4 is the 41st of 45.
    const all = await load(`?arquivo=${ids[4].toHexString()}&pageSize=40`, viewer("gold@x.test", "USER GOLD"), false);
    expect(all).toMatchObject({ page: 2, pageSize: 40, highlightedJobId: ids[4].toHexString() });
    // An explicit page wins; the row is marked only where it is.
    expect(await load(`?arquivo=${ids[44].toHexString()}&page=2`)).toMatchObject({ page: 2, highlightedJobId: null });
    // Another's file on one's own list, a malformed or an unknown id: the first page, nothing marked.
    for (const other of [ids[5].toHexString(), "x'); drop", new ObjectId().toHexString()])
      expect(await load(`?arquivo=${encodeURIComponent(other)}`)).toMatchObject({ page: 1, highlightedJobId: null });
  });

  it("shows the last page for a page past the end (a stale link, or after jobs were removed)", async () => {
    const db = await testDb.db();
    await db.collection(FILES).deleteMany({});
    const base = Date.UTC(2026, 0, 1);
    await db.collection(FILES).insertMany(
      Array.from({ length: 45 }, (_, i) =>
        endedFileRecord({
          originalName: `f${i}.csv`,
          user: i < 25 ? "owner@x.test" : "other@x.test",
          statusChangeDate: new Date(base + i * 1000),
          createdAt: new Date(base),
        }),
      ),
    );
    const all = await loadJobList(new Request("http://x/jobs/executados?page=9"), viewer("gold@x.test", "USER GOLD"), {
      ownOnly: false,
    });
    expect(all).toMatchObject({ total: 45, page: 3, pageSize: 20 });
    expect(all.rows.map((r) => r.name)).toEqual(["f4.csv", "f3.csv", "f2.csv", "f1.csv", "f0.csv"]);
    const own = await loadJobList(
      new Request("http://x/captura/processando?page=2&pageSize=40"),
      viewer("owner@x.test"),
      { ownOnly: true },
    );
    expect(own).toMatchObject({ total: 25, page: 1, pageSize: 40 });
    expect(own.rows).toHaveLength(25);
    // A page that exists is shown as asked, and an empty list stays on page 1.
    expect(
      await loadJobList(new Request("http://x/jobs/executados?page=2"), viewer("gold@x.test", "USER GOLD"), {
        ownOnly: false,
      }),
    ).toMatchObject({ page: 2 });
    const none = await loadJobList(new Request("http://x/captura/processando?page=4"), viewer("nobody@x.test"), {
      ownOnly: true,
    });
    expect(none).toMatchObject({ rows: [], total: 0, page: 1 });
  });

  const post = (body: Record<string, string>, query = "") =>
    new Request(`http://x/captura/processando${query}`, { method: "POST", body: new URLSearchParams(body) });

  it("answers 400 to a malformed request", async () => {
    const response = (await handleRetryAction(
      post({ intent: "delete", fileId: "x" }),
      viewer("owner@x.test"),
    )) as unknown as { init: ResponseInit; data: unknown };
    expect(response.init.status).toBe(400);
    expect(response.data).toEqual({ ok: false, error: messages.badRequest });
  });

  it("refuses someone else's job with 403 and a job that did not fail with 409", async () => {
    const failed = await insertFile({ status: 2, message: "Layout não reconhecido" });
    const refused = (await handleRetryAction(
      post({ intent: "retry", fileId: String(failed) }),
      viewer("gold@x.test", "USER GOLD"),
    )) as unknown as {
      init: ResponseInit;
      data: unknown;
    };
    expect(refused.init.status).toBe(403);
    expect(refused.data).toEqual({ ok: false, error: jobTexts.retryRefused.forbidden });
    const fine = await insertFile({ status: 0 });
    const notFailed = (await handleRetryAction(
      post({ intent: "retry", fileId: String(fine) }),
      viewer("owner@x.test"),
    )) as unknown as { init: ResponseInit };
    expect(notFailed.init.status).toBe(409);
    const missing = (await handleRetryAction(
      post({ intent: "retry", fileId: new ObjectId().toHexString() }),
      viewer("owner@x.test"),
    )) as unknown as {
      init: ResponseInit;
    };
    expect(missing.init.status).toBe(404);
  });

  it("sends the owner's failed job back to the workers and returns to the same list page with a toast", async () => {
    const failed = await insertFile({ status: 3, message: "Não foi possível ler o arquivo", retryable: true });
    const response = await handleRetryAction(
      post({ intent: "retry", fileId: String(failed) }, "?page=2&pageSize=40&x=1"),
      viewer("owner@x.test"),
    );
    expect(response).toBeInstanceOf(Response);
    const redirect = response as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe("/captura/processando?page=2&pageSize=40");
    expect(redirect.headers.get("Set-Cookie")).toContain("jp_toast=");
    const doc = await (await testDb.db()).collection(FILES).findOne({ _id: failed });
    expect(doc).toMatchObject({ status: 0, progress: 0, retriedBy: "owner@x.test" });
  });
});

describe("retry where a retry can succeed, and only there", () => {
  const post = (fileId: string) =>
    new Request("http://x/captura/processando", {
      method: "POST",
      body: new URLSearchParams({ intent: "retry", fileId }),
    });
  const retry = async (fileId: string, who = viewer("owner@x.test")) =>
    (await handleRetryAction(post(fileId), who)) as unknown as Response | { init: ResponseInit; data: unknown };
  // Only this block's jobs wait for the worker (an earlier test sent one back without a stored file).
  beforeAll(async () => {
    await (await testDb.db()).collection(FILES).deleteMany({});
  });

  it("refuses a retry of a file the worker refused for its layout, in Portuguese, and leaves the job as it was", async () => {
    const db = await testDb.db();
    const { id } = await storeAndRegister("sem-layout.csv", "a;b;c\n1;2;3\n", "owner@x.test");
    await grantPermission(db, "owner@x.test", "USER BRONZE");
    expect(await processNextJob({ name: "test-worker", leaseMs: 60_000 })).toMatchObject({
      kind: "done",
      status: FILE_STATUS_UNKNOWN_LAYOUT,
    });
    const before = await db.collection(FILES).findOne({ _id: id });
    expect(before).toMatchObject({ status: FILE_STATUS_UNKNOWN_LAYOUT, retryable: false });
    const answer = await retry(String(id));
    expect(answer).not.toBeInstanceOf(Response);
    expect((answer as { init: ResponseInit }).init.status).toBe(409);
    expect((answer as { data: unknown }).data).toEqual({ ok: false, error: jobTexts.retryRefused["not-retryable"] });
    // Not even a SYSTEM ADMIN: the rule is the model's, not the button's.
    expect(await retryJob(id, { email: "admin@x.test", type: "SYSTEM ADMIN" })).toEqual({
      ok: false,
      reason: "not-retryable",
    });
    expect(await db.collection(FILES).findOne({ _id: id })).toMatchObject({
      status: FILE_STATUS_UNKNOWN_LAYOUT,
      progress: 100,
      message: before?.message,
    });
    const listed = await loadJobList(new Request("http://x/captura/processando"), viewer("owner@x.test"), {
      ownOnly: true,
    });
    expect(listed.rows.find((r) => r.id === String(id))).toMatchObject({
      state: jobTexts.stateRefused,
      canRetry: false,
    });
  });

  it("refuses a retry of an all-or-nothing file refused for its NOK rows (status 4)", async () => {
    const refused = await insertFile({ status: 4, message: "1 linha OK, 2 NOK; nada foi aplicado", retryable: false });
    expect(((await retry(String(refused))) as { init: ResponseInit }).init.status).toBe(409);
    // A record from before the worker said which: statuses 2 and 4 are refusals by their meaning.
    const legacy = await insertFile({ status: 2, message: "Layout não reconhecido" });
    expect(await retryJob(legacy, { email: "owner@x.test", type: "USER BRONZE" })).toEqual({
      ok: false,
      reason: "not-retryable",
    });
  });

  it("sends back a job given up after its worker died, which says Falhou and offers Retry", async () => {
    const db = await testDb.db();
    const { id } = await storeAndRegister("caiu.csv", "a;b;c\n1;2;3\n", "owner@x.test");
    // Every worker that claims it dies: each lease runs out without a finish; the claim after the last gives it up.
    const start = Date.now();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const now = new Date(start + i * 2_000);
      expect(await claimNextJob({ agent: `dead-worker-${i}`, leaseMs: 1_000, now, only: id })).not.toBeNull();
    }
    const later = { now: () => new Date(start + MAX_ATTEMPTS * 2_000), setTimer: () => () => undefined };
    expect(await processNextJob({ name: "next-worker", leaseMs: 60_000, clock: later })).toMatchObject({
      kind: "done",
      status: 3,
      message: jobGiveUpTexts.nothingKept(MAX_ATTEMPTS),
    });
    expect(await db.collection(FILES).findOne({ _id: id })).toMatchObject({ status: 3, retryable: true });
    const listed = await loadJobList(new Request("http://x/captura/processando"), viewer("owner@x.test"), {
      ownOnly: true,
    });
    expect(listed.rows.find((r) => r.id === String(id))).toMatchObject({ state: jobTexts.stateFailed, canRetry: true });
    const answer = await retry(String(id));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    const doc = await db.collection(FILES).findOne({ _id: id });
    expect(doc).toMatchObject({ status: 0, progress: 0, retriedBy: "owner@x.test" });
    expect(doc).not.toHaveProperty("retryable");
  });
});
