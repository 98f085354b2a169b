import net from "node:net";
import { MongoClient } from "mongodb";
import { emailKey, ipKey, LOGIN_ATTEMPTS } from "~/models/auth-records.server";
import { connectionRefused } from "../net";
import { expect, test } from "./fixtures";
import { launchChromium, type RunningApp, startApp } from "./harness";

const portOf = (app: RunningApp) => Number(new URL(app.baseURL).port);

/** The keys of the sign-in failures the server recorded (per e-mail and per client IP). */
async function loginAttemptKeys(app: RunningApp): Promise<string[]> {
  const client = await new MongoClient(app.mongoUri).connect();
  try {
    const attempts = await client.db(app.databaseName).collection<{ key: string }>(LOGIN_ATTEMPTS).find().toArray();
    return attempts.map((a) => a.key);
  } finally {
    await client.close();
  }
}

/** A failed sign-in whose X-Forwarded-For carries a forged left-most entry and the balancer's right-most one. */
async function signInThroughBalancer(app: RunningApp, email: string, forwardedFor: string) {
  const body = new URLSearchParams({ email, password: "wrong-password-1" });
  const response = await fetch(`${app.baseURL}/?index`, {
    method: "POST",
    body,
    headers: { Origin: app.baseURL, "X-Forwarded-For": forwardedFor },
    redirect: "manual",
  });
  await response.text();
  return response.status;
}

/**
 * A browser that is slow to upload a form: it sends the request head with `Expect: 100-continue`, waits
 * for the server's "100 Continue" (the request is then being handled) and sends the body when told.
 */
function slowFormPost(app: RunningApp, path: string, form: Record<string, string>) {
  const body = new URLSearchParams(form).toString();
  const socket = net.connect(portOf(app), "127.0.0.1");
  const chunks: Buffer[] = [];
  const closed = new Promise<Buffer>((resolve) => socket.on("close", () => resolve(Buffer.concat(chunks))));
  const handling = new Promise<void>((resolve) => {
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).toString("latin1").startsWith("HTTP/1.1 100 Continue\r\n\r\n")) resolve();
    });
  });
  socket.write(
    [
      `POST ${path} HTTP/1.1`,
      `Host: ${new URL(app.baseURL).host}`,
      `Origin: ${app.baseURL}`,
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Expect: 100-continue",
      "",
      "",
    ].join("\r\n"),
  );
  return {
    handling,
    sendBody: () => socket.write(body),
    /** The final response (after "100 Continue"), once the server has closed the connection. */
    response: closed.then((raw) => parseResponse(raw.subarray(raw.indexOf("\r\n\r\n") + 4))),
  };
}

/** Status line, headers and body (de-chunked) of one raw HTTP/1.1 response. */
function parseResponse(raw: Buffer): { head: string; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, end).toString("latin1");
  let rest = raw.subarray(end + 4);
  if (!/\r\ntransfer-encoding: chunked/i.test(head)) return { head, body: rest.toString("utf8") };
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
  return { head, body: Buffer.concat(parts).toString("utf8") };
}

test("the health endpoints answer 200 with a request id", async ({ app }) => {
  const health = await fetch(`${app.baseURL}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

  const ready = await fetch(`${app.baseURL}/readyz`, { headers: { "X-Request-Id": "probe-123" } });
  expect(ready.status).toBe(200);
  expect(ready.headers.get("x-request-id")).toBe("probe-123");
});

test("pages carry an enforced CSP with a fresh nonce that the page's scripts use", async ({ app }) => {
  const first = await fetch(`${app.baseURL}/`);
  const second = await fetch(`${app.baseURL}/`);
  expect(first.headers.get("content-security-policy-report-only")).toBeNull();
  const csp = first.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(second.headers.get("content-security-policy")).not.toContain(`'nonce-${nonce}'`);
  expect(csp).toContain("frame-src 'self' https://us-east-1.quicksight.aws.amazon.com");
  expect(csp).toContain("object-src 'none'");

  const html = await first.text();
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
  expect(inlineScripts.length).toBeGreaterThan(0);
  for (const attributes of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
  expect(first.headers.get("x-content-type-options")).toBe("nosniff");
});

test("a non-GET request from another origin gets 403 before any route runs", async ({ app }) => {
  const body = new URLSearchParams({ email: "gold@demo.local", password: "x" });
  const foreign = await fetch(`${app.baseURL}/`, {
    method: "POST",
    body,
    headers: { Origin: "https://evil.example" },
    redirect: "manual",
  });
  expect(foreign.status).toBe(403);
  const none = await fetch(`${app.baseURL}/`, { method: "POST", body, redirect: "manual" });
  expect(none.status).toBe(403);
  const own = await fetch(`${app.baseURL}/`, {
    method: "POST",
    body,
    headers: { Origin: app.baseURL },
    redirect: "manual",
  });
  expect(own.status).not.toBe(403);
});

test("hashed assets are served with immutable caching", async ({ app }) => {
  const html = await (await fetch(`${app.baseURL}/`)).text();
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  const response = await fetch(`${app.baseURL}${asset}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect((await fetch(`${app.baseURL}/assets/missing.js`)).status).toBe(404);
});

test("each request is logged as one JSON line with id, method, path, status and duration", async ({ app }) => {
  const response = await fetch(`${app.baseURL}/home`, { headers: { "X-Request-Id": "e2e-log-check" } });
  expect(response.headers.get("x-request-id")).toBe("e2e-log-check");
  await response.text();
  await expect.poll(() => app.output()).toContain("e2e-log-check");
  const line = app
    .output()
    .split("\n")
    .find((l) => l.includes('"e2e-log-check"'));
  const entry = JSON.parse(line ?? "{}") as Record<string, unknown>;
  expect(entry).toMatchObject({
    level: "info",
    msg: "request",
    requestId: "e2e-log-check",
    method: "GET",
    path: "/home",
    status: 200,
  });
  expect(typeof entry.durationMs).toBe("number");
  expect(typeof entry.time).toBe("string");
});

test("responses are gzip-compressed when the client accepts it", async ({ app }) => {
  const page = await fetch(`${app.baseURL}/`, { headers: { "Accept-Encoding": "gzip" } });
  expect(page.status).toBe(200);
  expect(page.headers.get("content-encoding")).toBe("gzip");
  const html = await page.text();
  expect(html).toContain('<html lang="pt-BR"');

  // Every script of the page comes compressed, but for those too small to gain from it (under 1 kB).
  const scripts = [...new Set(html.match(/\/assets\/[^"]+\.js/g))];
  expect(scripts.length).toBeGreaterThan(1);
  const encodings: string[] = [];
  for (const script of scripts) {
    const asset = await fetch(`${app.baseURL}${script}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(asset.status).toBe(200);
    const encoding = asset.headers.get("content-encoding") ?? "none";
    const bytes = (await asset.arrayBuffer()).byteLength;
    if (encoding !== "gzip") expect(bytes, script).toBeLessThan(1024);
    encodings.push(encoding);
  }
  expect(encodings).toContain("gzip");

  const plain = await fetch(`${app.baseURL}/`, { headers: { "Accept-Encoding": "identity" } });
  expect(plain.headers.get("content-encoding")).toBeNull();
  await plain.text();
});

test("the public files beside the assets are served, and a missing one is the portal's 404 page", async ({ app }) => {
  const svg = await fetch(`${app.baseURL}/favicon.svg`);
  expect(svg.status).toBe(200);
  expect(svg.headers.get("content-type")).toContain("image/svg+xml");
  expect(await svg.text()).toContain("<svg");
  const ico = await fetch(`${app.baseURL}/favicon.ico`);
  expect(ico.status).toBe(200);
  expect((await ico.arrayBuffer()).byteLength).toBeGreaterThan(0);
  const missing = await fetch(`${app.baseURL}/favicon.png`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain('<html lang="pt-BR"');
});

test("behind one load balancer (TRUST_PROXY=1) the per-IP sign-in limit counts the address it saw, not one the client wrote", async () => {
  const app = await startApp({ seed: false, env: { TRUST_PROXY: "1" } });
  try {
    // The right-most X-Forwarded-For entry, appended by the balancer, is the client.
    expect(await signInThroughBalancer(app, "nobody-1@demo.local", "203.0.113.66, 198.51.100.7")).toBe(400);
    const keys = await loginAttemptKeys(app);
    expect(keys).toContain(ipKey("198.51.100.7"));
    expect(keys).not.toContain(ipKey("203.0.113.66"));
  } finally {
    await app.stop();
  }
});

test("by default (TRUST_PROXY unset: clients connect directly) the host ignores X-Forwarded-For and counts the connection's own address", async () => {
  const app = await startApp({ seed: false });
  try {
    expect(await signInThroughBalancer(app, "nobody-2@demo.local", "203.0.113.66, 198.51.100.7")).toBe(400);
    const ipKeys = (await loginAttemptKeys(app)).filter((key) => key.startsWith(ipKey("")));
    expect(ipKeys).toHaveLength(1);
    expect(ipKeys[0]).toMatch(/127\.0\.0\.1$/);
  } finally {
    await app.stop();
  }
});

test("on SIGTERM the server finishes the request in flight, refuses new connections, closes the database and exits 0", async () => {
  const app = await startApp({ seed: false });
  try {
    expect((await fetch(`${app.baseURL}/readyz`)).status).toBe(200);
    // The forgot-password form: its action writes to MongoDB, so the database must outlive the request.
    const upload = slowFormPost(app, "/?index&forgot=1", { intent: "forgot", email: "someone@demo.local" });
    await upload.handling;

    app.signal("SIGTERM");
    await expect.poll(() => connectionRefused(portOf(app))).toBe(true);
    expect(app.output()).not.toContain('"msg":"shutdown complete"');

    upload.sendBody();
    const { head, body } = await upload.response;
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
    expect(body).toContain('<html lang="pt-BR"');

    expect(await app.exited).toBe(0);
    const output = app.output();
    const served = output.indexOf('"method":"POST","path":"/","status":200');
    expect(served).toBeGreaterThan(-1);
    expect(output.indexOf('"msg":"shutdown complete"')).toBeGreaterThan(served);
    // The action reached MongoDB (it counts reset requests per e-mail) while the host was draining.
    expect(await loginAttemptKeys(app)).toContain(`reset:${emailKey("someone@demo.local")}`);
  } finally {
    await app.stop();
  }
});

test("`npm start`, as the container runs it, passes SIGTERM on to the host, which drains and exits 0", async () => {
  const app = await startApp({ seed: false, viaNpmStart: true });
  try {
    app.signal("SIGTERM");
    expect(await app.exited).toBe(0);
    expect(app.output()).toContain('"msg":"shutdown complete"');
    expect(await connectionRefused(portOf(app))).toBe(true);
  } finally {
    await app.stop();
  }
});

test("without Chromium the browser tests fail and say how to install it", async () => {
  await expect(launchChromium("/nonexistent/chromium")).rejects.toThrow("apt-get install -y chromium");
});
