import { readFileSync } from "node:fs";
import http, { type Server } from "node:http";
import path from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { userMaker } from "#test/users";
import { isRouteId, routeRule } from "~/access";
import { signInWithPassword } from "~/features/access/accounts.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { hashPassword } from "~/services/password-hash.server";
import remixConfig from "../remix.config.js";
import { keepOutOfCaches, remixRequestHandler } from "./remix-handler";

/**
 * Every answer a signed-in user gets from the portal's routes carries `Cache-Control: no-store`, whatever the route
 * set or forgot: the resource routes (downloads, exports, APIs, layouts and not-found splats, which Remix answers
 * without the document and data entry points) are walked from the route manifest (Remix's own flat-routes reading of
 * app/routes), as an administrator, as the least-privileged tier and signed out, GET and, when a route has an action,
 * POST, through the handler the host mounts.
 */

process.env.LOG_LEVEL = "error";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const PASSWORD = "Journey#2024";
let passwordHash: string;
const makeUser = userMaker({ prefix: "cache", name: "Cache", passwordHash: () => passwordHash });

type Entry = { id: string; parentId?: string; path?: string; index?: boolean; file: string };

/** The route manifest as the Remix build has it: the root and app/routes read by Remix's flat routes. */
function manifest(): Record<string, Entry> {
  const routes = flatRoutes(path.resolve("app"), remixConfig.ignoredRouteFiles) as Record<string, Entry>;
  return { root: { id: "root", path: "", file: "root.tsx" }, ...routes };
}

/** A module without a component (`export default`, or `export { X as default }`): Remix answers it as a resource. */
const isResourceSource = (file: string) =>
  !/export\s+default\b|\bas\s+default\b/.test(readFileSync(path.resolve("app", file), "utf8"));

/** A value for each dynamic segment: real enough to reach the route's own checks. */
const SAMPLE_PARAMS: Record<string, string> = {
  id: "64b0c0ffee0000000000abcd",
  token: "not-a-token",
  template: "product",
  filial: "0101",
  rf: "RF01",
  cost_center_concat: "CC01",
};
/** The query a download needs to produce its file. */
const SAMPLE_QUERIES: Record<string, string> = { "routes/user.audit_.export": "?formato=csv" };

function urlOf(routes: Record<string, Entry>, id: string): string {
  const parts: string[] = [];
  for (let r: Entry | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined)
    if (r.path) parts.unshift(r.path);
  const pathname = parts
    .join("/")
    .split("/")
    .map((s) => (s === "*" ? "nada" : s.startsWith(":") ? SAMPLE_PARAMS[s.slice(1)] : s))
    .join("/");
  return `/${pathname}${SAMPLE_QUERIES[id] ?? ""}`;
}

let server: Server;
let port: number;
let resources: Array<{ id: string; url: string; action: boolean }>;
const cookies: Record<"admin" | "bronze" | "anonymous", string | null> = { admin: null, bronze: null, anonymous: null };

beforeAll(async () => {
  await applyIndexes(await testDb.db());
  passwordHash = await hashPassword(PASSWORD);
  for (const [account, type] of [
    ["admin", "SYSTEM ADMIN"],
    ["bronze", "USER BRONZE"],
  ] as const) {
    const outcome = await signInWithPassword({ email: await makeUser(type), password: PASSWORD });
    if (outcome.kind !== "signedIn") throw new Error(`${account}: ${outcome.kind}`);
    cookies[account] = (outcome.sessionCookieHeaders.get("Set-Cookie") ?? "").split(";")[0];
  }
  const routes = manifest();
  const modules: Record<string, Record<string, unknown>> = {};
  resources = [];
  for (const entry of Object.values(routes)) {
    // Pages are answered through entry.server.tsx; only the resource routes' own modules are loaded.
    if (!isResourceSource(entry.file)) {
      modules[entry.id] = { default: () => null };
      continue;
    }
    modules[entry.id] = await import(/* @vite-ignore */ path.resolve("app", entry.file));
    if (modules[entry.id].default != null || modules[entry.id].ErrorBoundary != null)
      throw new Error(`${entry.id} has a component: not a resource route`);
    resources.push({ id: entry.id, url: urlOf(routes, entry.id), action: "action" in modules[entry.id] });
  }
  const build = {
    mode: "production",
    entry: { module: await import("../app/entry.server") },
    routes: Object.fromEntries(
      Object.values(routes).map((r) => [
        r.id,
        {
          id: r.id,
          parentId: r.parentId,
          path: r.path,
          index: r.index,
          caseSensitive: undefined,
          module: modules[r.id],
        },
      ]),
    ),
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "test" },
    assetsBuildDirectory: "",
    publicPath: "/",
    future: remixConfig.future,
    isSpaMode: false,
    basename: undefined,
  } as unknown as ServerBuild;
  const app = express();
  app.all("*", remixRequestHandler(build, "production"));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

type Answer = { status: number; cacheControl: string; contentType: string };

/** One request as the browser sends it to the portal's origin (Host and Origin of APP_ORIGIN), body read and dropped. */
function send(method: "GET" | "POST", url: string, cookie: string | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: "localhost:3000" };
    if (cookie) headers.Cookie = cookie;
    if (method === "POST") {
      headers.Origin = "http://localhost:3000";
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const req = http.request({ host: "127.0.0.1", port, path: url, method, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          cacheControl: String(res.headers["cache-control"] ?? ""),
          contentType: String(res.headers["content-type"] ?? ""),
        }),
      );
    });
    req.on("error", reject);
    req.end(method === "POST" ? "intent=x" : undefined);
  });
}

describe("Cache-Control on every resource route", () => {
  it("walks the resource routes of the manifest, downloads and exports among them", () => {
    const ids = resources.map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    for (const id of ["routes/user.audit_.export", "routes/download.$token", "routes/ij.forecast_status.excel"])
      expect(ids).toContain(id);
  });

  it("answers no-store to a signed-in user, whatever the route answers (file, JSON, redirect, 4xx)", async () => {
    const missing: string[] = [];
    const statuses = new Set<number>();
    let files = 0;
    for (const account of ["admin", "bronze"] as const) {
      for (const { id, url, action } of resources) {
        for (const method of action ? (["GET", "POST"] as const) : (["GET"] as const)) {
          const answer = await send(method, url, cookies[account]);
          statuses.add(answer.status);
          if (/spreadsheetml|text\/csv/.test(answer.contentType) && answer.status === 200) files++;
          if (!/\bno-store\b/.test(answer.cacheControl) || /\bpublic\b/.test(answer.cacheControl))
            missing.push(`${account} ${method} ${url} (${id}) → ${answer.status} "${answer.cacheControl}"`);
        }
      }
    }
    expect(missing).toEqual([]);
    // The walk reached real files (the audit export, an upload template…) and refusals alike.
    expect(files).toBeGreaterThanOrEqual(2);
    expect([...statuses].some((s) => s >= 400)).toBe(true);
  });

  it("answers no-store signed out too, except where a public route sets its own caching", async () => {
    const missing: string[] = [];
    for (const { id, url } of resources) {
      const answer = await send("GET", url, null);
      const isPublic = isRouteId(id) && routeRule(id).kind === "public";
      if (!/\bno-store\b/.test(answer.cacheControl) && !(isPublic && /\bpublic\b/.test(answer.cacheControl)))
        missing.push(`GET ${url} (${id}) → ${answer.status} "${answer.cacheControl}"`);
    }
    expect(missing).toEqual([]);
  });
});

describe("keepOutOfCaches", () => {
  it("overrides a route's own caching for a signed-in browser, and keeps it for a signed-out one", async () => {
    const app = express();
    app.use((req, res, next) => {
      keepOutOfCaches(req, res);
      next();
    });
    app.get("/public", (_req, res) => void res.set("Cache-Control", "public, max-age=3600").send("x"));
    app.get("/private", (_req, res) => void res.set("Cache-Control", "private, max-age=60").send("x"));
    app.get("/silent", (_req, res) => void res.end("x"));
    const other = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const cacheOf = async (url: string, cookie?: string) =>
      (await fetch(`${base}${url}`, { headers: cookie ? { Cookie: cookie } : {} })).headers.get("cache-control");
    try {
      const session = "theme=dark; __session=abc";
      for (const url of ["/public", "/private", "/silent"])
        expect(await cacheOf(url, session)).toBe("private, no-store");
      expect(await cacheOf("/public")).toBe("public, max-age=3600");
      expect(await cacheOf("/private", "x__session=1")).toBe("private, max-age=60");
      expect(await cacheOf("/silent")).toBe("private, no-store");
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
