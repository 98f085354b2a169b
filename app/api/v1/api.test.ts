import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useEnv } from "#test/env";
import {
  FORECAST_HEADER,
  forecastRow,
  grantPermission,
  PRODUCT_HEADER,
  productLine,
  useTempDataDir,
} from "#test/upload-fixtures";
import { canAccessRoute, PERMISSION_TYPES } from "~/access";
import { accessContext } from "~/config.server";
import { tokensAction } from "~/features/api-tokens/tokens.server";
import { BRANCH_A, BRANCH_B, insertHrRecords, LAST_MONTH, RAW_CPFS, setPermission } from "~/features/hr/fixtures";
import { API_TOKENS, type ApiTokenRecord, hashSecret } from "~/models/api-tokens.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { FILES } from "~/models/files.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import type { PermissionType } from "~/models/users.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { handleUpload } from "~/platform/import/upload.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { action, loader } from "~/routes/api.v1.$";
import { runWithClientAddress } from "~/shared/client-address.server";
import { monthKey } from "~/shared/months";
import { OPERATIONS } from "./all-operations.server";

/**
 * /api/v1 as a caller meets it: tokens made on /user/tokens, every answer's status and body, the rules of the screens
 * each operation stands for, applied to the owner's type as it is at each call.
 */

const testDb = useTestDatabase();
useTempDataDir();
useEnv({ LOGIN_MAX_FAILURES: "2", LOGIN_WINDOW_MINUTES: "15" });

const ORIGIN = "http://localhost:3000";
let counter = 0;

async function userOf(type: PermissionType): Promise<AuthenticatedUser> {
  const email = `api${++counter}@example.com`;
  await grantPermission(await testDb.db(), email, type);
  return { email, name: email, type, sessionId: "s" };
}

async function tokenFor(user: AuthenticatedUser, scope: "read" | "write" = "read", days = "90"): Promise<string> {
  const request = new Request(`${ORIGIN}/user/tokens`, {
    method: "POST",
    body: new URLSearchParams({ intent: "create", name: `Integração ${counter}`, days, scope }),
  });
  const answer = (await tokensAction(user, request)) as unknown as { data: { secret: string } };
  return answer.data.secret;
}

type Call = { method?: string; token?: string; body?: BodyInit; headers?: Record<string, string>; ip?: string };

async function api(path: string, call: Call = {}): Promise<Response> {
  const headers = new Headers(call.headers);
  if (call.token) headers.set("Authorization", `Bearer ${call.token}`);
  const method = call.method ?? "GET";
  const request = new Request(`${ORIGIN}/api/v1${path}`, {
    method,
    headers,
    ...(call.body ? { body: call.body, duplex: "half" } : {}),
  } as RequestInit);
  const splat = new URL(request.url).pathname.replace(/^\/api\/v1\/?/, "");
  const args = { request, params: { "*": splat }, context: {} };
  return runWithClientAddress(call.ip ?? "198.51.100.1", () =>
    method === "GET" ? loader(args as never) : action(args as never),
  );
}

/** Lets the worker take every waiting job (earlier tests leave theirs). */
async function drainJobs(): Promise<void> {
  for (let i = 0; i < 100; i++)
    if (!(await processNextJob({ name: "api-test", progressIntervalMs: 50, leaseMs: 60_000 }))) return;
}

const csv = (lines: string[]) => `${[PRODUCT_HEADER, ...lines].join("\r\n")}\r\n`;

describe("personal API tokens", () => {
  it("shows the secret once and keeps only its hash", async () => {
    const user = await userOf("USER BRONZE");
    const secret = await tokenFor(user);
    expect(secret).toMatch(/^jpt_[A-Za-z0-9_-]{43}$/);
    const stored = await (await testDb.db()).collection<ApiTokenRecord>(API_TOKENS).findOne({ owner: user.email });
    expect(stored?.hash).toBe(hashSecret(secret));
    expect(JSON.stringify(stored)).not.toContain(secret.slice(4));
    const entries = await (await testDb.db()).collection(AUDIT_LOG).find({ event: "tokenCreated" }).toArray();
    expect(entries.some((e) => e.object.id === String(stored?._id))).toBe(true);
  });

  it("refuses an expiry over a year, a blank name and an unknown scope, and stores nothing", async () => {
    const user = await userOf("USER GOLD");
    for (const fields of [
      { name: "x", days: "366", scope: "read" },
      { name: "  ", days: "30", scope: "read" },
      { name: "x", days: "30", scope: "admin" },
    ]) {
      const request = new Request(`${ORIGIN}/user/tokens`, {
        method: "POST",
        body: new URLSearchParams({ intent: "create", ...fields }),
      });
      const answer = (await tokensAction(user, request)) as unknown as { init: { status: number }; data: object };
      expect(answer.init.status).toBe(400);
      expect(answer.data).toHaveProperty("error");
    }
    expect(await (await testDb.db()).collection(API_TOKENS).countDocuments({ owner: user.email })).toBe(0);
  });
});

describe("authentication", () => {
  it("answers 401 problem+json without a token, with a session cookie only, and with an unknown token", async () => {
    for (const call of [{}, { headers: { Cookie: "__session=abc" } }, { token: "jpt_nope" }]) {
      const answer = await api("/datasets", call);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("Content-Type")).toBe("application/problem+json");
      expect(answer.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(await answer.json()).toMatchObject({ type: "/api/problems/unauthorized", status: 401 });
    }
  });

  it("refuses an expired, a revoked and a removed owner's token", async () => {
    const db = await testDb.db();
    const user = await userOf("USER GOLD");
    const expired = await tokenFor(user);
    await db.collection(API_TOKENS).updateOne({ hash: hashSecret(expired) }, { $set: { expiresAt: new Date(1000) } });
    expect(await (await api("/datasets", { token: expired })).json()).toMatchObject({
      title: "Token de API expirado.",
    });

    const revoked = await tokenFor(user);
    const [record] = await db
      .collection(API_TOKENS)
      .find({ hash: hashSecret(revoked) })
      .toArray();
    await tokensAction(
      user,
      new Request(`${ORIGIN}/user/tokens`, {
        method: "POST",
        body: new URLSearchParams({ intent: "revoke", id: String(record._id) }),
      }),
    );
    expect(await (await api("/datasets", { token: revoked })).json()).toMatchObject({
      title: "Token de API revogado.",
    });

    const live = await tokenFor(user);
    expect((await api("/datasets", { token: live })).status).toBe(200);
    await grantPermission(db, user.email, "" as PermissionType);
    const gone = await api("/datasets", { token: live });
    expect(gone.status).toBe(401);
    expect(await gone.json()).toMatchObject({ title: "O dono do token não tem mais acesso ao portal." });
  });

  it("counts failed tokens per client address like sign-ins, and answers 429 with Retry-After", async () => {
    const ip = "203.0.113.77";
    // LOGIN_MAX_FAILURES 2 × 4 per address.
    for (let i = 0; i < 8; i++) expect((await api("/datasets", { token: `jpt_guess${i}`, ip })).status).toBe(401);
    const held = await api("/datasets", { token: "jpt_guess-more", ip });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another address is not held back.
    const user = await userOf("USER BRONZE");
    expect((await api("/datasets", { token: await tokenFor(user), ip: "203.0.113.78" })).status).toBe(200);
  });

  it("lets a valid token through from an address whose wrong tokens are held back, and keeps holding them", async () => {
    const ip = "203.0.113.90";
    const token = await tokenFor(await userOf("USER BRONZE"));
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await api("/datasets", { token: `jpt_wrong${i}`, ip })).status);
    // LOGIN_MAX_FAILURES 2 × 4 per address: 8 answered, the rest held back.
    expect(statuses).toEqual([...Array(8).fill(401), ...Array(13).fill(429)]);
    expect((await api("/datasets", { token, ip })).status).toBe(200);
    const held = await api("/datasets", { token: "jpt_wrong-again", ip });
    expect(held.status).toBe(429);
    expect(held.headers.get("Content-Type")).toBe("application/problem+json");
    expect(Number(held.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await held.json()).toMatchObject({ type: "/api/problems/too-many-requests", status: 429 });
  });

  it("never holds back a valid token for its own pace: 50 calls at once all answer", async () => {
    const token = await tokenFor(await userOf("USER BRONZE"));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api("/datasets", { token, ip: "203.0.113.91" })),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
  });
});

describe("the owner's rights at each call", () => {
  it("lists the datasets the owner's type may load now", async () => {
    const db = await testDb.db();
    const user = await userOf("USER BRONZE");
    const token = await tokenFor(user);
    const bronze = (await (await api("/datasets", { token })).json()) as { data: Array<{ id: string }> };
    expect(bronze.data.map((d) => d.id)).toEqual(["product", "channel", "spend"]);
    await grantPermission(db, user.email, "SYSTEM ADMIN");
    const admin = (await (await api("/datasets", { token })).json()) as { data: Array<{ id: string }> };
    expect(admin.data.length).toBeGreaterThan(bronze.data.length);
    // Explorer may not open /captura/manual at all: the rule that refused is named.
    await grantPermission(db, user.email, "USER EXPLORER");
    const refused = await api("/datasets", { token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ rule: "/captura/manual" });
  });

  it("never writes with a read-only token, and refuses a dataset the owner may not load", async () => {
    const user = await userOf("USER BRONZE");
    const readOnly = await tokenFor(user, "read");
    const body = csv([productLine(1)]);
    const headers = { "Content-Type": "text/csv" };
    const refused = await api("/uploads?dataset=product", { method: "POST", token: readOnly, body, headers });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ type: "/api/problems/read-only" });
    const writer = await tokenFor(user, "write");
    const notHis = await api("/uploads?dataset=forecast", { method: "POST", token: writer, body, headers });
    expect(notHis.status).toBe(403);
    expect(await (await testDb.db()).collection(FILES).countDocuments({ user: user.email })).toBe(0);
  });

  it("shows a job to its uploader and to who may open /jobs/executados, and no one else", async () => {
    const uploader = await userOf("USER BRONZE");
    const other = await userOf("USER SILVER");
    const admin = await userOf("SYSTEM ADMIN");
    const posted = await api("/uploads?dataset=product&filename=produtos.csv", {
      method: "POST",
      token: await tokenFor(uploader, "write"),
      body: csv([productLine(1)]),
      headers: { "Content-Type": "text/csv" },
    });
    const { id } = (await posted.json()) as { id: string };
    expect((await api(`/jobs/${id}`, { token: await tokenFor(other) })).status).toBe(404);
    expect((await api(`/jobs/${id}`, { token: await tokenFor(admin) })).status).toBe(200);
    expect((await api("/jobs?scope=all", { token: await tokenFor(uploader) })).status).toBe(403);
    expect((await api("/jobs/not-an-id", { token: await tokenFor(admin) })).status).toBe(404);
    expect((await api("/jobs?limit=0", { token: await tokenFor(admin) })).status).toBe(400);
    expect((await api("/jobs?cursor=%7B%7D", { token: await tokenFor(admin) })).status).toBe(400);
  });
});

describe("upload and poll", () => {
  beforeAll(async () => {
    await grantPermission(await testDb.db(), "screen@example.com", "USER BRONZE");
  });

  it("ends in the same rows, refusals and messages as the same file sent through the screen", async () => {
    const db = await testDb.db();
    const user = await userOf("USER BRONZE");
    const token = await tokenFor(user, "write");
    const content = csv([productLine(10), productLine(11, true), productLine(12)]);
    const posted = await api("/uploads?dataset=product&filename=produtos.csv", {
      method: "POST",
      token,
      body: content,
      headers: { "Content-Type": "text/csv; charset=utf-8" },
    });
    expect(posted.status).toBe(202);
    const job = (await posted.json()) as { id: string; state: string };
    expect(posted.headers.get("Location")).toBe(`/api/v1/jobs/${job.id}`);
    expect(job.state).toBe("running");
    await drainJobs();

    const form = new FormData();
    form.append("files", new Blob([content]), "produtos.csv");
    const screen = await handleUpload(
      new Request(`${ORIGIN}/api/upload`, { method: "POST", body: form }),
      "screen@example.com",
    );
    expect(screen).toHaveProperty("files");
    await drainJobs();

    const viaApi = (await (await api(`/jobs/${job.id}`, { token })).json()) as Record<string, unknown>;
    const viaScreen = await db.collection(FILES).findOne({ user: "screen@example.com" });
    expect(viaApi).toMatchObject({ state: "completed", statusCode: viaScreen?.status, message: viaScreen?.message });
    const refused = await api(`/jobs/${job.id}/refused`, { token });
    expect(refused.status).toBe(200);
    const refusedText = await refused.text();
    expect(refusedText).toContain("SKU11");
    expect(refusedText).not.toContain("SKU10;");
    const list = (await (await api("/jobs?state=completed", { token })).json()) as { data: unknown[]; next: null };
    expect(list.data).toHaveLength(1);
    expect(list.next).toBeNull();
    // The job's own entry is the same for both paths (the worker writes it): event, outcome, dataset, counts.
    const screenFile = await db.collection(FILES).findOne({ user: "screen@example.com" });
    const jobEntry = async (fileId: string) => {
      const entry = await db.collection(AUDIT_LOG).findOne({ "object.kind": "file", "object.id": fileId });
      return entry && { event: entry.event, outcome: entry.outcome, dataset: entry.dataset, details: entry.details };
    };
    const viaApiEntry = await jobEntry(job.id);
    expect(viaApiEntry).not.toBeNull();
    expect(viaApiEntry).toEqual(await jobEntry(String(screenFile?._id)));
    const entries = await db.collection(AUDIT_LOG).find({ event: "apiCall", "actor.email": user.email }).toArray();
    expect(entries.map((e) => e.details.operation)).toEqual(["createUpload", "getJob", "getRefusedRows", "listJobs"]);
    expect(entries.every((e) => e.object.kind === "token")).toBe(true);
  });

  it("refuses a file whose header is another dataset's than the one named", async () => {
    const user = await userOf("SYSTEM ADMIN");
    const token = await tokenFor(user, "write");
    const posted = await api("/uploads?dataset=channel", {
      method: "POST",
      token,
      body: csv([productLine(1)]),
      headers: { "Content-Type": "text/csv" },
    });
    const { id } = (await posted.json()) as { id: string };
    await drainJobs();
    const job = (await (await api(`/jobs/${id}`, { token })).json()) as { state: string; message: string };
    expect(job.state).toBe("failed");
    expect(job.message).toContain("foi enviado como");
  });

  it("links a job's refused rows exactly when there are some to download, whatever the job's state", async () => {
    const admin = await userOf("SYSTEM ADMIN");
    const token = await tokenFor(admin, "write");
    const send = async (dataset: string, body: string) => {
      const posted = await api(`/uploads?dataset=${dataset}`, {
        method: "POST",
        token,
        body,
        headers: { "Content-Type": "text/csv" },
      });
      return ((await posted.json()) as { id: string }).id;
    };
    const forecast = (rows: string[][]) => `${[FORECAST_HEADER, ...rows].map((r) => r.join(";")).join("\r\n")}\r\n`;
    const ids = {
      completedWithOneRefused: await send("product", csv([productLine(21), productLine(22, true)])),
      completedClean: await send("product", csv([productLine(23)])),
      failedWithoutRows: await send("channel", csv([productLine(24)])),
      failedWithRows: await send("forecast", forecast([forecastRow(), forecastRow({ forecast: "muito" })])),
    };
    await drainJobs();
    const jobs: Record<string, { state: string; refusedRows: number; links: { refused?: string } }> = {};
    for (const [name, id] of Object.entries(ids))
      jobs[name] = (await (await api(`/jobs/${id}`, { token })).json()) as (typeof jobs)[string];
    expect(jobs.completedWithOneRefused).toMatchObject({ state: "completed", refusedRows: 1 });
    expect(jobs.completedWithOneRefused.links.refused).toBe(`/api/v1/jobs/${ids.completedWithOneRefused}/refused`);
    expect(jobs.failedWithoutRows).toMatchObject({ state: "failed", refusedRows: 0 });
    expect(jobs.failedWithoutRows.links).not.toHaveProperty("refused");
    expect(jobs.completedClean.links).not.toHaveProperty("refused");
    expect(jobs.failedWithRows.state).toBe("failed");
    expect(jobs.failedWithRows.links.refused).toBe(`/api/v1/jobs/${ids.failedWithRows}/refused`);
    // The link answers 200 whenever present, and the address answers 404 when there is none; the list says the same.
    const listed = (await (await api("/jobs?limit=100", { token })).json()) as {
      data: Array<{ id: string; links: { refused?: string } }>;
    };
    for (const [name, id] of Object.entries(ids)) {
      const refused = await api(`/jobs/${id}/refused`, { token });
      expect(`${name}: ${refused.status}`).toBe(`${name}: ${jobs[name].links.refused ? 200 : 404}`);
      expect(listed.data.find((j) => j.id === id)?.links.refused).toBe(jobs[name].links.refused);
    }
  });

  it("says a completed job refused rows (outcome), as the job lists do, and links them, in the job and the list", async () => {
    const admin = await userOf("SYSTEM ADMIN");
    const token = await tokenFor(admin, "write");
    const send = async (dataset: string, body: string) => {
      const posted = await api(`/uploads?dataset=${dataset}`, {
        method: "POST",
        token,
        body,
        headers: { "Content-Type": "text/csv" },
      });
      return ((await posted.json()) as { id: string; outcome: string }).id;
    };
    const forecast = (rows: string[][]) => `${[FORECAST_HEADER, ...rows].map((r) => r.join(";")).join("\r\n")}\r\n`;
    const ids = {
      completedWithRefusals: await send(
        "product",
        csv([productLine(31), productLine(32, true), productLine(33, true)]),
      ),
      completed: await send("product", csv([productLine(34)])),
      refusedFile: await send("forecast", forecast([forecastRow(), forecastRow({ forecast: "muito" })])),
    };
    type JobAnswer = { state: string; outcome: string; refusedRows: number; retryable: boolean; links: object };
    const job = async (id: string) => (await (await api(`/jobs/${id}`, { token })).json()) as JobAnswer;
    // Queued: still running, whatever it will refuse.
    expect(await job(ids.completedWithRefusals)).toMatchObject({ state: "running", outcome: "running" });
    await drainJobs();
    const jobs: Record<string, JobAnswer> = {};
    for (const [name, id] of Object.entries(ids)) jobs[name] = await job(id);
    // `state` keeps its three values (existing clients filter on them); `outcome` says what the lists' words say.
    expect(jobs.completedWithRefusals).toMatchObject({
      state: "completed",
      outcome: "completedWithRefusals",
      refusedRows: 2,
      links: { refused: `/api/v1/jobs/${ids.completedWithRefusals}/refused` },
    });
    expect(jobs.completed).toMatchObject({ state: "completed", outcome: "completed", refusedRows: 0 });
    expect(jobs.completed.links).not.toHaveProperty("refused");
    expect(jobs.refusedFile).toMatchObject({ state: "failed", outcome: "refused", retryable: false });
    const listed = (await (await api("/jobs?limit=100", { token })).json()) as {
      data: Array<{ id: string; outcome: string; links: object }>;
    };
    for (const [name, id] of Object.entries(ids)) {
      const inList = listed.data.find((j) => j.id === id);
      expect(`${name}: ${inList?.outcome}`).toBe(`${name}: ${jobs[name].outcome}`);
      expect(inList?.links).toEqual(jobs[name].links);
    }
    const completedOnly = (await (await api("/jobs?state=completed&limit=100", { token })).json()) as {
      data: Array<{ id: string }>;
    };
    expect(completedOnly.data.map((j) => j.id)).toEqual(
      expect.arrayContaining([ids.completedWithRefusals, ids.completed]),
    );
  });

  it("holds a forecast file's rows to the forecast's write rule: another's cost centre refused with why, nothing written", async () => {
    const db = await testDb.db();
    const MARKETING = "CC1001 - Marketing";
    const RETAIL = "CC1002 - Vendas Varejo";
    const preparer = await userOf("USER GOLD");
    await db
      .collection(FORECAST_PREPARERS)
      .insertOne({ cost_center_concat: MARKETING, user: preparer.email, assigned_at: new Date(), assigned_by: "test" });
    // Actuals: they load whatever an RF's state or month, so only the cost centre's rule can refuse them.
    const actual = (cost_center_concat: string, value: string) =>
      forecastRow({
        rf: "actual",
        cost_center_concat,
        cost_center: cost_center_concat.slice(0, 6),
        value,
        forecast: "",
      });
    const body = `${[FORECAST_HEADER, actual(MARKETING, "7,00"), actual(RETAIL, "8,00")].map((r) => r.join(";")).join("\r\n")}\r\n`;
    const send = async (user: AuthenticatedUser) => {
      const token = await tokenFor(user, "write");
      const posted = await api("/uploads?dataset=forecast&filename=forecast.csv", {
        method: "POST",
        token,
        body,
        headers: { "Content-Type": "text/csv" },
      });
      expect(posted.status).toBe(202);
      const { id } = (await posted.json()) as { id: string };
      await drainJobs();
      return { id, token };
    };
    const stored = () =>
      db.collection(FORECAST).countDocuments({ rf: "actual", cost_center_concat: { $in: [MARKETING, RETAIL] } });
    const before = await stored();

    const mine = await send(preparer);
    const job = (await (await api(`/jobs/${mine.id}`, { token: mine.token })).json()) as Record<string, unknown>;
    expect(job).toMatchObject({ state: "failed", outcome: "refused", refusedRows: 1 });
    expect(job.message).toMatch(/^1 linha OK, 1 NOK; nada foi aplicado/);
    const refused = await (await api(`/jobs/${mine.id}/refused`, { token: mine.token })).text();
    expect(refused).toContain(
      "Centro de custo CC1002 - Vendas Varejo não é seu: só quem o prepara, um revisor ou o SYSTEM ADMIN grava nele.",
    );
    expect(refused).not.toContain(MARKETING);
    expect(await stored()).toBe(before);

    const admin = await send(await userOf("SYSTEM ADMIN"));
    expect(await (await api(`/jobs/${admin.id}`, { token: admin.token })).json()).toMatchObject({
      state: "completed",
      outcome: "completed",
      refusedRows: 0,
    });
    expect(await db.collection(FORECAST).countDocuments({ rf: "actual", cost_center_concat: RETAIL, value: 8 })).toBe(
      1,
    );
  });

  it("pages the job list by cursor, newest first, without repeating or skipping a job", async () => {
    const user = await userOf("USER BRONZE");
    const token = await tokenFor(user, "write");
    for (let i = 0; i < 5; i++)
      await api(`/uploads?dataset=product&filename=p${i}.csv`, {
        method: "POST",
        token,
        body: csv([productLine(i)]),
        headers: { "Content-Type": "text/csv" },
      });
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const query: string = next ? `&cursor=${next}` : "";
      const page = (await (await api(`/jobs?limit=2${query}`, { token })).json()) as {
        data: Array<{ fileName: string }>;
        next: string | null;
      };
      seen.push(...page.data.map((j) => j.fileName));
      next = page.next;
      pages++;
    } while (next && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(["p4.csv", "p3.csv", "p2.csv", "p1.csv", "p0.csv"]);
  });

  it("answers 415 for another content type and 405 for a method the path does not have", async () => {
    const token = await tokenFor(await userOf("USER BRONZE"), "write");
    const wrongType = await api("/uploads?dataset=product", {
      method: "POST",
      token,
      body: "x",
      headers: { "Content-Type": "application/json" },
    });
    expect(wrongType.status).toBe(415);
    const wrongMethod = await api("/datasets", { method: "POST", token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Allow")).toBe("GET");
    expect((await api("/nothing-here", { token })).status).toBe(404);
  });
});

describe("the grids' data", () => {
  it("reads HR rows of the owner's branches only, CPF masked, paged by cursor", async () => {
    const db = await testDb.db();
    await insertHrRecords(db);
    const scoped = await userOf("USER SILVER");
    await setPermission(db, scoped.email, "USER SILVER", [BRANCH_A]);
    const token = await tokenFor(scoped);
    const month = monthKey(LAST_MONTH);
    const rows: Array<{ cpf: string; filial: string }> = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const cursor: string = next ? `&cursor=${next}` : "";
      const answer = await api(
        `/hr?filial=${encodeURIComponent(BRANCH_A)}&mes_inicio=${month}&mes_fim=${month}&limit=2${cursor}`,
        { token },
      );
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as { data: typeof rows; next: string | null };
      rows.push(...page.data);
      next = page.next;
      pages++;
    } while (next && pages < 10);
    expect(rows).toHaveLength(3);
    expect(pages).toBe(2);
    expect(rows.every((r) => r.filial === BRANCH_A)).toBe(true);
    const text = JSON.stringify(rows);
    for (const cpf of RAW_CPFS) expect(text).not.toContain(cpf);
    // Another branch answers as one that does not exist.
    const other = await api(`/hr?filial=${encodeURIComponent(BRANCH_B)}`, { token });
    expect(other.status).toBe(404);
    // A type the HR screen does not admit is refused by its rule.
    const bronze = await api(`/hr?filial=${encodeURIComponent(BRANCH_A)}`, {
      token: await tokenFor(await userOf("USER BRONZE")),
    });
    expect(bronze.status).toBe(403);
    expect(await bronze.json()).toMatchObject({ rule: "/ij/rh_edit/{filial}" });
  });

  it("reads the forecast of an RF by cost centre with each one's cycle state", async () => {
    const db = await testDb.db();
    const base = { rf: "RF3 2026", group_level_2: "Pessoal", acc_description: "Salários", level_descr: "Comercial" };
    await db.collection(FORECAST).insertMany([
      {
        ...base,
        cost_center_concat: "CC1",
        cost_center: "CC1",
        account_concat: "A1",
        data_ref: new Date("2026-10-01T00:00:00Z"),
        value: null,
        forecast: 10,
      },
      {
        ...base,
        cost_center_concat: "CC1",
        cost_center: "CC1",
        account_concat: "A1",
        data_ref: new Date("2026-09-01T00:00:00Z"),
        value: 7,
        forecast: 8,
      },
      {
        ...base,
        cost_center_concat: "CC2",
        cost_center: "CC2",
        account_concat: "A1",
        data_ref: new Date("2026-10-01T00:00:00Z"),
        value: null,
        forecast: 3,
      },
    ]);
    await db.collection(FORECAST_CYCLE).insertOne({
      rf: "RF3 2026",
      cost_center_concat: "CC2",
      state: "approved",
      changed_at: new Date(),
      changed_by: "r@example.com",
      changed_by_name: "R",
    });
    // A preparer of both reads both (a preparer reads only the cost centres they prepare: the test below).
    const gold = await userOf("USER GOLD");
    await db.collection(FORECAST_PREPARERS).insertMany(
      ["CC1", "CC2"].map((cost_center_concat) => ({
        cost_center_concat,
        user: gold.email,
        assigned_at: new Date(),
        assigned_by: "test",
      })),
    );
    const token = await tokenFor(gold);
    const first = (await (await api("/forecast?rf=RF3%202026&limit=1", { token })).json()) as {
      data: Array<{
        costCenter: string;
        state: string;
        accounts: Array<{ months: Array<{ month: string; forecast: number }> }>;
      }>;
      next: string;
    };
    expect(first.data.map((c) => [c.costCenter, c.state])).toEqual([["CC1", "preparing"]]);
    expect(first.data[0].accounts[0].months).toEqual([
      { month: "2026-09", actual: 7, forecast: 8 },
      { month: "2026-10", actual: null, forecast: 10 },
    ]);
    const second = (await (await api(`/forecast?rf=RF3%202026&limit=1&cursor=${first.next}`, { token })).json()) as {
      data: Array<{ costCenter: string; state: string }>;
      next: null;
    };
    expect(second.data.map((c) => [c.costCenter, c.state])).toEqual([["CC2", "approved"]]);
    expect(second.next).toBeNull();
    expect((await api("/forecast?rf=RF9", { token })).status).toBe(400);
    const bronze = await api("/forecast?rf=RF3%202026", { token: await tokenFor(await userOf("USER BRONZE")) });
    expect(bronze.status).toBe(403);
  });

  it("reads a preparer only the cost centres they prepare, as the review does; a reviewer every one", async () => {
    const db = await testDb.db();
    // The RF of the test before: CC1 and CC2.
    const preparer = await userOf("USER GOLD");
    await db
      .collection(FORECAST_PREPARERS)
      .insertOne({ cost_center_concat: "CC2", user: preparer.email, assigned_at: new Date(), assigned_by: "test" });
    const read = async (token: string, query = "") => {
      const answer = await api(`/forecast?rf=RF3%202026${query}`, { token });
      return { status: answer.status, type: answer.headers.get("Content-Type"), body: await answer.json() };
    };
    const centres = (body: { data: Array<{ costCenter: string }> }) => body.data.map((c) => c.costCenter);

    const mine = await tokenFor(preparer);
    expect(centres((await read(mine)).body)).toEqual(["CC2"]);
    expect(centres((await read(mine, "&cost_center=CC2")).body)).toEqual(["CC2"]);
    for (const other of ["CC1", "CC9"]) {
      const refused = await read(mine, `&cost_center=${other}`);
      expect(refused).toMatchObject({
        status: 404,
        type: "application/problem+json",
        body: { type: "/api/problems/not-found", status: 404 },
      });
    }
    expect(centres((await read(await tokenFor(await userOf("USER GOLD")))).body)).toEqual([]);

    const reviewer = await tokenFor(await userOf("SYSTEM ADMIN"));
    expect(centres((await read(reviewer)).body)).toEqual(["CC1", "CC2"]);
    expect(centres((await read(reviewer, "&cost_center=CC1")).body)).toEqual(["CC1"]);
  });
});

describe("planning through the API", () => {
  it("pages the planners' rows newest first by cursor, filtered as the report preview filters", async () => {
    const db = await testDb.db();
    const row = (i: number, sku: string) => ({
      creationDate: new Date(Date.UTC(2026, 10, 1, 0, 0, i)),
      sku,
      material_description: `Produto ${sku}`,
      valor: 100 + i,
      marca: "Marca",
      channel: "WHOLESALES",
      hero: "hero",
      abcd: "A",
      plc_localsku: "ativo",
      category_sku: "CAT",
      categoria_principal_sku: "P",
      sub_categoria_sku: "S",
      dateRef: new Date(Date.UTC(2026, 11, 1)),
      updatedBy: null,
      updatedAt: null,
      revision: 0,
    });
    await db.collection(PLANNING_QUANTITY).insertMany([row(1, "SKU1"), row(2, "SKU2"), row(3, "SKU3"), row(4, "SKU9")]);
    const token = await tokenFor(await userOf("USER GOLD"));
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const cursor: string = next ? `&cursor=${next}` : "";
      const page = (await (await api(`/planning?sku=SKU1&sku=SKU2&sku=SKU3&limit=2${cursor}`, { token })).json()) as {
        data: Array<{ sku: string; quantity: number }>;
        next: string | null;
      };
      seen.push(...page.data.map((r) => `${r.sku}:${r.quantity}`));
      next = page.next;
      pages++;
    } while (next && pages < 5);
    expect(seen).toEqual(["SKU3:103", "SKU2:102", "SKU1:101"]);
    expect(pages).toBe(2);
    expect((await api("/planning?dateStart=2026-02-31", { token })).status).toBe(400);
    const silver = await api("/planning", { token: await tokenFor(await userOf("USER SILVER")) });
    expect(silver.status).toBe(403);
  });
});

describe("the audit trail through the API", () => {
  it("pages SYSTEM ADMIN's reads of the trail by cursor, with the screen's filters", async () => {
    const admin = await userOf("SYSTEM ADMIN");
    const token = await tokenFor(admin);
    const first = (await (await api("/audit?evento=tokenCreated&limit=2", { token })).json()) as {
      data: Array<{ n: number; event: string }>;
      next: string;
    };
    expect(first.data).toHaveLength(2);
    expect(first.data.every((e) => e.event === "tokenCreated")).toBe(true);
    const second = (await (await api(`/audit?evento=tokenCreated&limit=2&cursor=${first.next}`, { token })).json()) as {
      data: Array<{ n: number }>;
    };
    expect(second.data[0].n).toBeLessThan(first.data[1].n);
    expect((await api("/audit?de=2026-13-01", { token })).status).toBe(400);
  });
});

describe("every operation as each permission type", () => {
  it("refuses (403, naming the screen) exactly the types its screen's rule refuses", async () => {
    const context = accessContext();
    const reads: Record<string, string> = {
      listDatasets: "/datasets",
      listJobs: "/jobs",
      getJob: "/jobs/000000000000000000000000",
      getRefusedRows: "/jobs/000000000000000000000000/refused",
      readForecast: "/forecast?rf=RF3%202026",
      readHr: "/hr?filial=Nenhuma",
      readAudit: "/audit?limit=1",
      readPlanning: "/planning?limit=1",
    };
    const problems: string[] = [];
    for (const type of PERMISSION_TYPES) {
      const token = await tokenFor(await userOf(type), "write");
      for (const operation of OPERATIONS) {
        const path = reads[operation.id];
        const answer = path
          ? await api(path, { token })
          : await api(
              operation.id === "retryJob" ? "/jobs/000000000000000000000000/retry" : "/uploads?dataset=product",
              {
                method: "POST",
                token,
                body: "x",
                headers: { "Content-Type": "application/json" },
              },
            );
        const admitted = canAccessRoute(type, operation.rule.routeId, context, operation.rule.mode);
        const refusedByRule = answer.status === 403 && (await answer.clone().json()).rule === operation.rule.screen;
        if (admitted === refusedByRule) problems.push(`${type} ${operation.id}: ${answer.status}`);
        if (answer.status >= 500) problems.push(`${type} ${operation.id}: ${answer.status}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
