import { expect, test } from "./fixtures";
import { launchChromium, startApp } from "./harness";

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
  expect(csp).toContain("frame-src https://us-east-1.quicksight.aws.amazon.com");
  expect(csp).toContain("object-src 'none'");

  const html = await first.text();
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
  expect(inlineScripts.length).toBeGreaterThan(0);
  for (const attributes of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
  expect(first.headers.get("x-content-type-options")).toBe("nosniff");
});

test("a non-GET request from another origin gets 403 before any route runs", async ({ app }) => {
  const body = new URLSearchParams({ email: "gold@demo.local", password: "x" });
  const foreign = await fetch(`${app.baseURL}/`, { method: "POST", body, headers: { Origin: "https://evil.example" }, redirect: "manual" });
  expect(foreign.status).toBe(403);
  const none = await fetch(`${app.baseURL}/`, { method: "POST", body, redirect: "manual" });
  expect(none.status).toBe(403);
  const own = await fetch(`${app.baseURL}/`, { method: "POST", body, headers: { Origin: app.baseURL }, redirect: "manual" });
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
  expect(entry).toMatchObject({ level: "info", msg: "request", requestId: "e2e-log-check", method: "GET", path: "/home", status: 200 });
  expect(typeof entry.durationMs).toBe("number");
  expect(typeof entry.time).toBe("string");
});

test("on SIGTERM the server finishes, closes the database and exits with 0", async () => {
  const app = await startApp({ seed: false });
  try {
    expect((await fetch(`${app.baseURL}/readyz`)).status).toBe(200);
    app.signal("SIGTERM");
    expect(await app.exited).toBe(0);
    expect(app.output()).toContain('"msg":"shutdown complete"');
  } finally {
    await app.stop();
  }
});

test("without Chromium the browser tests fail and say how to install it", async () => {
  await expect(launchChromium("/nonexistent/chromium")).rejects.toThrow("apt-get install -y chromium");
});
