import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { formPost, pageGet, routeArgs } from "#test/requests";
import { useTempDataDir } from "#test/upload-fixtures";
import type { PermissionType } from "~/access";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { listRetryBatchJobs, retryFailedJobs } from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import { action as processingAction, loader as processingLoader } from "~/routes/captura.processando";
import { action as executedAction, loader as executedLoader } from "~/routes/jobs.executados";
import { readToastFromResponse } from "~/shared/toast.server";
import type { JobListActionData } from "./job-list.server";
import { jobTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
useTempDataDir();

const ANA = "ana@x.test";
const BRUNO = "bruno@x.test";

const as = (email: string, type: PermissionType) => {
  currentUser.email = email;
  currentUser.type = type;
};

/** A finished file record: a failure a retry can get past unless told otherwise. */
function fileDoc(over: Record<string, unknown> = {}) {
  const doc: Record<string, unknown> = {
    originalName: "f.csv",
    originalFile: `${new ObjectId().toHexString()}.csv`,
    bucket: "local",
    user: ANA,
    clientName: "demo",
    statusChangeDate: new Date(),
    createdAt: new Date(),
    status: 3,
    retryable: true,
    progress: 100,
    message: "Processamento interrompido",
    agent: "w",
    leaseUntil: null,
    attempts: 1,
    ...over,
  };
  // `undefined`: the field is absent (a record from before the worker said whether a retry can succeed).
  for (const key of Object.keys(doc)) if (doc[key] === undefined) delete doc[key];
  return doc;
}

/** Ana's two failed jobs, Bruno's one, a refusal of Ana's (no retry gets past it) and a job that ended well. */
let jobs: Record<"ana1" | "ana2" | "bruno" | "refused" | "fine", ObjectId>;

beforeEach(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  await db.collection(FILES).deleteMany({});
  const insert = async (over: Record<string, unknown>) =>
    (await db.collection(FILES).insertOne(fileDoc(over))).insertedId;
  jobs = {
    ana1: await insert({ originalName: "a1.csv" }),
    ana2: await insert({ originalName: "a2.csv", retryable: undefined, status: 3 }),
    bruno: await insert({ originalName: "b.csv", user: BRUNO }),
    refused: await insert({ originalName: "r.csv", status: 2, retryable: false }),
    fine: await insert({ originalName: "ok.csv", status: 0, retryable: undefined }),
  };
});

type Route = "/captura/processando" | "/jobs/executados";
const actions = { "/captura/processando": processingAction, "/jobs/executados": executedAction };
const loaders = { "/captura/processando": processingLoader, "/jobs/executados": executedLoader };

const post = (path: Route, fields: Record<string, string>, query = "") =>
  responseOf(Promise.resolve(actions[path](routeArgs(formPost(`${path}${query}`, fields)))));
const postData = async (path: Route, fields: Record<string, string>, query = "") =>
  dataAnswer<JobListActionData>(await post(path, fields, query));
const load = async (path: string) =>
  dataAnswer<Awaited<ReturnType<typeof processingLoader>>>(
    await (path.startsWith("/jobs") ? loaders["/jobs/executados"] : loaders["/captura/processando"])(
      routeArgs(pageGet(path)),
    ),
  ).body;

async function stateOf(id: ObjectId) {
  const doc = await (await testDb.db()).collection(FILES).findOne({ _id: id });
  return { status: doc?.status, progress: doc?.progress, retryCount: doc?.retryCount ?? 0, batch: doc?.retryBatch };
}

describe("Tentar novamente todos", () => {
  it("asks first, naming the count, and changes nothing until confirmed", async () => {
    as(ANA, "USER BRONZE");
    expect((await load("/captura/processando")).retryAllCount).toBe(2);
    const asked = await postData("/captura/processando", { intent: "retry-all" });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({
      ok: true,
      confirmRetryAll: { count: 2, question: "Tentar novamente 2 trabalhos com falha?" },
    });
    expect(jobTexts.retryAllQuestion(1)).toBe("Tentar novamente 1 trabalho com falha?");
    expect(await stateOf(jobs.ana1)).toMatchObject({ status: 3, retryCount: 0 });
  });

  it("as the uploader: retries only their own failures; the list follows the batch, keeping its page", async () => {
    as(ANA, "USER BRONZE");
    const done = await post(
      "/captura/processando",
      { intent: "retry-all", confirm: "1", count: "2" },
      "?page=1&pageSize=40",
    );
    expect(done.status).toBe(302);
    const location = new URL(done.headers.get("Location")!, "http://x");
    expect(location.pathname).toBe("/captura/processando");
    expect(location.searchParams.get("pageSize")).toBe("40");
    const batch = location.searchParams.get("lote")!;
    expect(batch).toMatch(/^[0-9a-f]{16}$/);
    expect((await readToastFromResponse(done))?.description).toBe("2 trabalhos voltaram para a fila de processamento.");
    expect(await stateOf(jobs.ana1)).toEqual({ status: 0, progress: 0, retryCount: 1, batch });
    expect(await stateOf(jobs.ana2)).toEqual({ status: 0, progress: 0, retryCount: 1, batch });
    // Bruno's job, the refusal and the finished job are left as they were.
    expect(await stateOf(jobs.bruno)).toMatchObject({ status: 3, retryCount: 0 });
    expect(await stateOf(jobs.refused)).toMatchObject({ status: 2, retryCount: 0 });
    expect(await stateOf(jobs.fine)).toMatchObject({ status: 0, progress: 100, retryCount: 0 });

    // The batch's progress, from its jobs' states; the list polls until every job of it has ended.
    const url = `${location.pathname}${location.search}`;
    expect((await load(url)).retryBatch).toMatchObject({
      total: 2,
      finished: 0,
      text: expect.stringContaining("0 de 2"),
    });
    expect((await load(url)).polling).toBe(true);
    const db = await testDb.db();
    await db.collection(FILES).updateOne({ _id: jobs.ana1 }, { $set: { progress: 100 } });
    expect((await load(url)).retryBatch?.text).toBe("Tentar novamente todos: 1 de 2 concluídos.");
    await db.collection(FILES).updateOne({ _id: jobs.ana2 }, { $set: { progress: 100, status: 3 } });
    const ended = await load(url);
    expect(ended.retryBatch?.text).toBe("Tentar novamente todos: 2 de 2 concluídos (1 com falha de novo).");
    expect(ended.polling).toBe(false);
  });

  it("as SYSTEM ADMIN on /jobs/executados: retries every failed job the list shows, whoever sent it", async () => {
    as("admin@x.test", "SYSTEM ADMIN");
    const asked = await postData("/jobs/executados", { intent: "retry-all" });
    expect(asked.body).toMatchObject({ ok: true, confirmRetryAll: { count: 3 } });
    const done = await post("/jobs/executados", { intent: "retry-all", confirm: "1", count: "3" });
    expect(done.status).toBe(302);
    for (const id of [jobs.ana1, jobs.ana2, jobs.bruno])
      expect(await stateOf(id)).toMatchObject({ status: 0, retryCount: 1 });
    expect(await stateOf(jobs.refused)).toMatchObject({ status: 2 });
    const doc = await (await testDb.db()).collection(FILES).findOne({ _id: jobs.bruno });
    expect(doc).toMatchObject({ retriedBy: "admin@x.test", retryBase: 1 });
    expect(doc).not.toHaveProperty("retryable");
  });

  it("is an entry of the administrator who pressed it, with the count and the batch; one job's retry too", async () => {
    as("admin@x.test", "SYSTEM ADMIN");
    const db = await testDb.db();
    await db.collection(AUDIT_LOG).deleteMany({});
    const done = await post("/jobs/executados", { intent: "retry-all", confirm: "1", count: "3" });
    const batch = new URL(done.headers.get("Location") ?? "", "http://x").searchParams.get("lote");
    await db.collection(FILES).updateOne({ _id: jobs.ana1 }, { $set: { status: 3, retryable: true, progress: 100 } });
    await post("/jobs/executados", { intent: "retry", fileId: jobs.ana1.toHexString() });
    const entries = await db.collection(AUDIT_LOG).find({}).sort({ n: 1 }).toArray();
    expect(entries.map((e) => [e.actor?.email, e.event, e.object, e.details])).toEqual([
      [
        "admin@x.test",
        "decision",
        { kind: "screen", id: "/jobs/executados", label: null },
        { action: "retryAll", batch, retried: 3 },
      ],
      ["admin@x.test", "decision", { kind: "file", id: jobs.ana1.toHexString(), label: "a1.csv" }, { action: "retry" }],
    ]);
  });

  it("as SYSTEM ADMIN on /captura/processando: only the list's own jobs (the filter decides too)", async () => {
    as(ANA, "SYSTEM ADMIN");
    const asked = await postData("/captura/processando", { intent: "retry-all" });
    expect(asked.body).toMatchObject({ confirmRetryAll: { count: 2 } });
  });

  it("as a user who may not retry the listed failures: nothing happens, and the message says why", async () => {
    as("gold@x.test", "USER GOLD");
    expect((await load("/jobs/executados")).retryAllCount).toBe(0);
    const presses: Record<string, string>[] = [
      { intent: "retry-all" },
      { intent: "retry-all", confirm: "1", count: "3" },
    ];
    for (const fields of presses) {
      const refused = await postData("/jobs/executados", fields);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ ok: false, error: jobTexts.retryAllNone });
    }
    for (const id of [jobs.ana1, jobs.ana2, jobs.bruno])
      expect(await stateOf(id)).toMatchObject({ status: 3, retryCount: 0 });
  });

  it("a USER GOLD on /jobs/executados retries only their own failures among everyone's", async () => {
    as(BRUNO, "USER GOLD");
    expect((await load("/jobs/executados")).retryAllCount).toBe(1);
    expect((await post("/jobs/executados", { intent: "retry-all", confirm: "1", count: "1" })).status).toBe(302);
    expect(await stateOf(jobs.bruno)).toMatchObject({ status: 0, retryCount: 1 });
    expect(await stateOf(jobs.ana1)).toMatchObject({ status: 3, retryCount: 0 });
  });

  it("asks again when the count changed since the question, and refuses malformed input", async () => {
    as(ANA, "USER BRONZE");
    const stale = await postData("/captura/processando", { intent: "retry-all", confirm: "1", count: "5" });
    expect(stale.body).toEqual({
      ok: true,
      confirmRetryAll: {
        count: 2,
        question: "Tentar novamente 2 trabalhos com falha?",
        note: jobTexts.retryAllChanged,
      },
    });
    expect(await stateOf(jobs.ana1)).toMatchObject({ status: 3 });
    const bad = await postData("/captura/processando", { intent: "retry-all", confirm: "sim", count: "x" });
    expect(bad.status).toBe(400);
  });

  it("never queues a job twice: a second press, or two admins at once, finds it already queued", async () => {
    as("admin@x.test", "SYSTEM ADMIN");
    const fields = { intent: "retry-all", confirm: "1", count: "3" };
    expect((await post("/jobs/executados", fields)).status).toBe(302);
    const again = await postData("/jobs/executados", fields);
    expect(again).toEqual({ status: 409, body: { ok: false, error: jobTexts.retryAllNone } });
    for (const id of [jobs.ana1, jobs.ana2, jobs.bruno]) expect((await stateOf(id)).retryCount).toBe(1);

    // Failed again, then two admins press at the same moment: each job is sent back by one of them only.
    const db = await testDb.db();
    await db
      .collection(FILES)
      .updateMany(
        { _id: { $in: [jobs.ana1, jobs.ana2, jobs.bruno] } },
        { $set: { status: 3, progress: 100, retryable: true } },
      );
    const admin = (email: string) => ({ email, type: "SYSTEM ADMIN" });
    const [first, second] = await Promise.all([
      retryFailedJobs({}, admin("a@x.test")),
      retryFailedJobs({}, admin("b@x.test")),
    ]);
    expect(first.retried + second.retried).toBe(3);
    for (const id of [jobs.ana1, jobs.ana2, jobs.bruno]) expect((await stateOf(id)).retryCount).toBe(2);
    // A job running (claimed, status 0) is not a failure: nothing to queue.
    expect((await retryFailedJobs({}, admin("a@x.test"))).retried).toBe(0);
  });

  it("counts and follows a batch from indexes, however many jobs there are", async () => {
    const db = await testDb.db();
    await db
      .collection(FILES)
      .insertMany(
        Array.from({ length: 1_200 }, (_, i) =>
          fileDoc({ status: 0, retryable: undefined, user: `u${i % 50}@x.test`, originalName: `${i}.csv` }),
        ),
      );
    const { batch } = await retryFailedJobs({}, { email: "admin@x.test", type: "SYSTEM ADMIN" });
    for (const [email, type, path] of [
      ["admin@x.test", "SYSTEM ADMIN", `/jobs/executados?lote=${batch}`],
      [ANA, "USER BRONZE", `/captura/processando?lote=${batch}`],
      ["gold@x.test", "USER GOLD", "/jobs/executados"],
    ] as const) {
      as(email, type);
      await expectIndexedQueries(db, () => load(path), { minDocuments: 1_000 });
    }
    // The summaries of its end read its jobs from an index too.
    const listed = await expectIndexedQueries(db, () => listRetryBatchJobs(batch), { minDocuments: 1_000 });
    expect(listed.map((job) => job.originalName).sort()).toEqual(["a1.csv", "a2.csv", "b.csv"]);
  });
});
