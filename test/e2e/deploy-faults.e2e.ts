import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployTexts } from "~/messages";
import { FILES } from "~/models/files.server";
import { PRODUCT_MASTER, PRODUCT_MASTER_NOK } from "~/models/master-data.server";
import {
  freePort,
  HOST_ENTRY,
  type Proc,
  portalEnv,
  rawStatus,
  run,
  signInHttp,
  startCuttableProxy,
  startDatabase,
  tempDir,
  WORKER_ENTRY,
  waitFor,
  waitReady,
} from "../deploy/stack";
import { PRODUCT_HEADER, productLine } from "../upload-fixtures";

/**
 * Faults, through processes started from the production build: the database going away under the web side, requests
 * no parser should turn into a 500, and kill -9 of a web process and of a worker in the middle of an ingest. Every
 * portal process here runs in the multi-instance mode on one shared DATA_DIR, as the compose stack's would on local
 * storage.
 */

let database: Awaited<ReturnType<typeof startDatabase>>;
let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
let shared: ReturnType<typeof tempDir>;
let port: number;
let baseURL: string;
let host: Proc | undefined;
const started: Proc[] = [];

const MULTI = { MULTI_INSTANCE: "1", LOCAL_STORAGE_SHARED: "1" };
// A lease long enough that a busy machine (CI or a developer's) renews it in time, short enough to keep the takeovers quick.
const WORKER_TUNING = { WORKER_LEASE_MS: "5000", WORKER_PROGRESS_MS: "100", WORKER_POLL_MS: "100" };

function startHost(): Proc {
  const env = portalEnv({
    mongoUri: proxy.uri,
    databaseName: database.databaseName,
    dataDir: shared.dir,
    port,
    extra: { ...MULTI, ...WORKER_TUNING, MONGODB_TIMEOUT_MS: "1500", WORKER_NAME: "web-worker" },
  });
  const proc = run(process.execPath, [HOST_ENTRY], env);
  started.push(proc);
  return proc;
}

function startWorker(name: string, dataDir = shared.dir): Proc {
  const env = portalEnv({
    mongoUri: database.mongo.uri,
    databaseName: database.databaseName,
    dataDir,
    extra: { ...MULTI, ...WORKER_TUNING, WORKER_NAME: name },
  });
  const proc = run(process.execPath, [WORKER_ENTRY], env);
  started.push(proc);
  return proc;
}

beforeAll(async () => {
  database = await startDatabase();
  proxy = await startCuttableProxy(database.mongo.port);
  shared = tempDir("portal-shared-data-");
  port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  host = startHost();
  await waitReady(baseURL, host);
});

afterAll(async () => {
  await Promise.all(started.map((p) => p.kill9()));
  await proxy?.down();
  await database?.close();
  shared?.remove();
});

const timedFetch = async (url: string, init: RequestInit = {}) => {
  const t0 = Date.now();
  const response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers, ms: Date.now() - t0 };
};

describe("the database goes away under the web side", () => {
  it("answers 503 with a clear page, fast and never hanging, then recovers by itself", async () => {
    const cookie = await signInHttp(baseURL, "gold@demo.local");
    const page = `${baseURL}/jobs/executados`;
    expect((await timedFetch(page, { headers: { Cookie: cookie } })).status).toBe(200);

    await proxy.down();
    // The request that meets the failure waits at most MONGODB_TIMEOUT_MS (1.5 s here), then 503.
    const first = await timedFetch(page, { headers: { Cookie: cookie } });
    expect(first.status).toBe(503);
    expect(first.ms).toBeLessThan(6_000);
    expect(first.text).toContain(deployTexts.unavailable);
    // The next ones are answered at once while the database is away, with Retry-After.
    const next = await timedFetch(page, { headers: { Cookie: cookie } });
    expect(next).toMatchObject({ status: 503 });
    expect(next.ms).toBeLessThan(1_000);
    expect(next.headers.get("retry-after")).toBe("5");
    expect(next.text).toContain(deployTexts.unavailableTitle);
    // A client-side navigation's data request gets the 503 in the router's own encoding, just as fast.
    const data = await timedFetch(`${baseURL}/jobs/executados.data`, { headers: { Cookie: cookie } });
    expect(data.status).toBe(503);
    expect(data.ms).toBeLessThan(1_000);
    expect(data.headers.get("content-type")).toContain("text/x-script");
    // A form post too: nothing is half-done, the answer is the same page.
    const post = await timedFetch(`${baseURL}/?index`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL },
      body: new URLSearchParams({ intent: "signIn", email: "gold@demo.local", password: "Portal#2026" }),
    });
    expect(post.status).toBe(503);
    expect((await timedFetch(`${baseURL}/readyz`)).status).toBe(503);
    expect((await timedFetch(`${baseURL}/healthz`)).status).toBe(200);

    await proxy.up();
    const recovered = await waitFor(
      "the page to answer 200 again",
      async () => {
        const answer = await timedFetch(page, { headers: { Cookie: cookie } });
        return answer.status === 200 ? answer : undefined;
      },
      // Patience, not a speed target: with both browser workers busy on two cores the driver's reconnection and the
      // gate's ping took longer than 15 s, and the file's next tests then met the same 503.
      40_000,
      200,
    );
    expect(recovered.text).not.toContain(deployTexts.unavailableTitle);

    const log = host!.output();
    const down = log.split("\n").filter((l) => l.includes('"msg":"database unavailable"'));
    expect(down.length).toBeGreaterThanOrEqual(1);
    // It names the driver's error: a Mongo* error, or (when the first write met a connection the proxy had just
    // closed) Node's socket error raised inside the driver's connection code.
    const downLine = JSON.parse(down[0]) as { level: string; errorName: string; errorCode?: string; stack?: string };
    expect(downLine.level).toBe("error");
    if (!/^Mongo/.test(downLine.errorName)) {
      expect(downLine.errorCode).toMatch(/^(EPIPE|ECONNRESET)$/);
      expect(downLine.stack).toMatch(/mongodb[\\/]lib[\\/]cmap/);
    }
    expect(log).toContain('"msg":"database available again"');
  });
});

describe("requests no parser should turn into a 500", () => {
  it("answers malformed request lines, a bad Host and oversize headers with 400/431, logs without secrets", async () => {
    const cases: Array<[string, Buffer | string, number[]]> = [
      ["garbage request line", "GARBAGE\r\n\r\n", [400]],
      ["space in the target", "GET /a b HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["control character", "GET /\x01 HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["unknown version", "GET / HTTP/9.9\r\nHost: localhost\r\n\r\n", [400, 505]],
      ["bad percent-encoding", "GET /%ZZ HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["bad Host", "GET / HTTP/1.1\r\nHost: bad host\r\n\r\n", [400]],
      ["no Host", "GET / HTTP/1.1\r\n\r\n", [400]],
      ["bad Content-Length", "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n", [400]],
      ["oversize header", `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, [431]],
      [
        "oversize cookie",
        `GET / HTTP/1.1\r\nHost: localhost\r\nCookie: __session=${"a".repeat(20_000)}\r\n\r\n`,
        [431],
      ],
      ["oversize URL", `GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, [431, 414]],
      // Ports out of range, zero, not a number or empty; IPv6 literals broken; userinfo; a path in Host.
      ["Host port out of range", "GET / HTTP/1.1\r\nHost: localhost:99999\r\n\r\n", [400]],
      ["Host port 65536", "GET / HTTP/1.1\r\nHost: localhost:65536\r\n\r\n", [400]],
      ["Host port 0", "GET / HTTP/1.1\r\nHost: localhost:0\r\n\r\n", [400]],
      ["Host port not a number", "GET / HTTP/1.1\r\nHost: localhost:abc\r\n\r\n", [400]],
      ["Host port empty", "GET / HTTP/1.1\r\nHost: localhost:\r\n\r\n", [400]],
      ["Host IPv6 unclosed", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", [400]],
      ["Host IPv6 without brackets", "GET / HTTP/1.1\r\nHost: ::1\r\n\r\n", [400]],
      ["Host IPv6 not an address", "GET / HTTP/1.1\r\nHost: [::zz]:3000\r\n\r\n", [400]],
      ["Host with userinfo", "GET / HTTP/1.1\r\nHost: user@localhost\r\n\r\n", [400]],
      ["Host with a path", "GET / HTTP/1.1\r\nHost: localhost/evil\r\n\r\n", [400]],
      ["absolute-form with a bad port", "GET http://localhost:99999/ HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["absolute-form with port 0", "GET http://localhost:0/ HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["absolute-form, unclosed IPv6", "GET http://[::1/ HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["absolute-form with userinfo", "GET http://user:pw@localhost/ HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      ["absolute-form of another scheme", "GET ftp://localhost/ HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]],
      // Valid shapes of the same families still work.
      ["Host IPv6 with a port", "GET /healthz HTTP/1.1\r\nHost: [::1]:3000\r\n\r\n", [200]],
      ["Host IPv6 without a port", "GET /healthz HTTP/1.1\r\nHost: [::1]\r\n\r\n", [200]],
      ["absolute-form, valid", `GET http://localhost:${port}/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n`, [200]],
    ];
    for (const [name, bytes, expected] of cases) expect(expected, name).toContain(await rawStatus(port, bytes));
    // The host still serves afterwards.
    expect((await timedFetch(`${baseURL}/healthz`)).status).toBe(200);

    // Secrets in addresses never reach the log.
    const token = "eyJidWNrZXQiOiJsb2NhbCJ9.SECRETSIGNATURE";
    await timedFetch(`${baseURL}/download/${token}`);
    await timedFetch(`${baseURL}/recovery/731942?email=a%40b.c`);
    const log = host!.output();
    expect(log).not.toContain("SECRETSIGNATURE");
    expect(log).not.toContain("731942");
    expect(log).toContain("/download/:token");
    expect(log).not.toContain("[object Object]");
    // A flood of one malformed request is logged once and then counted, not line by line.
    for (let i = 0; i < 30; i++) await rawStatus(port, "GARBAGE\r\n\r\n");
    const malformed = host!
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"malformed request"'));
    expect(malformed.length).toBeLessThanOrEqual(cases.length);
    // Each is a warning with its reason, never an error with a stack.
    for (const line of malformed) {
      const entry = JSON.parse(line) as { level: string; stack?: string };
      expect(entry.level).toBe("warn");
      expect(entry.stack).toBeUndefined();
    }
  });
});

describe("kill -9 of the web process and of a worker during an ingest", () => {
  it("loses no row and duplicates none; a worker on another DATA_DIR refuses to start", async () => {
    const ROWS = 60_000;
    const lines = [PRODUCT_HEADER];
    for (let i = 0; i < ROWS; i++) lines.push(productLine(i, i % 40 === 3));
    const expectedNok = lines.slice(1).filter((l) => l.includes(";maybe;")).length;
    const cookie = await signInHttp(baseURL, "gold@demo.local");
    const form = new FormData();
    form.append("files", new Blob([`${lines.join("\n")}\n`], { type: "text/csv" }), "grande-ingest.csv");
    const uploaded = await fetch(`${baseURL}/api/upload`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: baseURL, Accept: "application/json" },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const db = database.db;
    const record = await waitFor("the file record", () =>
      db.collection(FILES).findOne({ originalName: "grande-ingest.csv" }),
    );
    const id = record._id;
    const rows = () => db.collection(PRODUCT_MASTER).countDocuments({ sourceFileId: id });
    const midway = (agent: string) =>
      waitFor(
        `${agent} to be mid-way`,
        async () => {
          const file = await db.collection(FILES).findOne({ _id: id });
          return file?.agent?.startsWith?.(agent) && file.progress > 0 && file.progress < 100 && (await rows()) > 0
            ? file
            : undefined;
        },
        60_000,
        20,
      );

    // 1. The web process's in-process worker is importing it: kill -9 the web process.
    await midway("web-worker");
    await host!.kill9();
    expect((await db.collection(FILES).findOne({ _id: id }))?.progress).toBeLessThan(100);

    // 2. A worker process takes it over after the lease and starts it again: kill -9 it mid-way too.
    const first = startWorker("worker-1");
    await midway("worker-1");
    await first.kill9();

    // 3. A worker on an unshared directory refuses to start (a live instance's marker is missing there).
    const elsewhere = tempDir("portal-unshared-");
    try {
      const stray = startWorker("stray", elsewhere.dir);
      expect(await stray.exited).toBe(1);
      expect(stray.output()).toContain("DATA_DIR is not shared");
    } finally {
      elsewhere.remove();
    }

    // 4. Another worker takes it over and finishes it (the third claim), and the web process starts again.
    const second = startWorker("worker-2");
    host = startHost();
    await waitReady(baseURL, host);
    const done = await waitFor(
      "the ingest to finish",
      async () => {
        const file = await db.collection(FILES).findOne({ _id: id });
        return file?.progress === 100 ? file : undefined;
      },
      90_000,
      100,
    );
    const pt = (n: number) => n.toLocaleString("pt-BR");
    expect(done).toMatchObject({ status: 0, message: `${pt(ROWS - expectedNok)} linhas OK, ${pt(expectedNok)} NOK` });
    expect(done.attempts).toBeGreaterThanOrEqual(3);
    expect(await rows()).toBe(ROWS - expectedNok);
    expect(await db.collection(PRODUCT_MASTER_NOK).countDocuments({ sourceFileId: id })).toBe(expectedNok);
    expect((await db.collection(PRODUCT_MASTER).distinct("_lineNumber", { sourceFileId: id })).length).toBe(
      ROWS - expectedNok,
    );
    await second.stop();
  }, 180_000);
});
