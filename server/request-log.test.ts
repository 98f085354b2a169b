import { EventEmitter } from "node:events";
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { createLogger } from "../app/shared/logger.server";
import { loggablePath, requestLog } from "./request-log";

function fakeExchange(path: string, headers: Record<string, string> = {}) {
  const res = Object.assign(new EventEmitter(), {
    locals: {} as Record<string, unknown>,
    headers: {} as Record<string, string>,
    statusCode: 200,
    headersSent: true,
    writableFinished: true,
    setHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    },
  });
  const req = {
    method: "GET",
    path,
    headers: { ...headers } as Record<string, string>,
    get(name: string) {
      return this.headers[name.toLowerCase()];
    },
  };
  return { req, res };
}

function run(path: string, headers?: Record<string, string>, level: "info" | "debug" = "info") {
  const lines: string[] = [];
  const middleware = requestLog(createLogger(level, (line) => lines.push(line)));
  const { req, res } = fakeExchange(path, headers);
  let nextCalled = false;
  middleware(req as unknown as Request, res as unknown as Response, (() => (nextCalled = true)) as NextFunction);
  res.statusCode = 201;
  res.emit("finish");
  res.emit("close");
  return { lines, req, res, nextCalled };
}

describe("requestLog", () => {
  it("logs one JSON line per request with id, method, path, status and duration", () => {
    const { lines, res, nextCalled } = run("/home");
    expect(nextCalled).toBe(true);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "info", msg: "request", method: "GET", path: "/home", status: 201 });
    expect(entry.requestId).toBe(res.headers["x-request-id"]);
    expect(typeof entry.durationMs).toBe("number");
  });

  it("reuses a sane incoming X-Request-Id and replaces an unsafe one", () => {
    expect(run("/", { "x-request-id": "lb-42" }).res.headers["x-request-id"]).toBe("lb-42");
    const replaced = run("/", { "x-request-id": 'bad"id\n' }).res.headers["x-request-id"];
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("hands the id on to the app through the request headers", () => {
    const { req, res } = run("/");
    expect(req.headers["x-request-id"]).toBe(res.headers["x-request-id"]);
    expect(res.locals.requestId).toBe(res.headers["x-request-id"]);
  });

  it("keeps health probes out of info logs", () => {
    expect(run("/healthz").lines).toHaveLength(0);
    expect(run("/readyz", {}, "debug").lines).toHaveLength(1);
  });
});

describe("loggablePath", () => {
  it("hides password-reset codes", () => {
    expect(loggablePath("/recovery/123456")).toBe("/recovery/:code");
    expect(loggablePath("/ij/plan_edit")).toBe("/ij/plan_edit");
  });

  it("hides download tokens, however the path is spelled (the router matches case-insensitively, decoded)", () => {
    expect(loggablePath("/download/eyJrIjoiYSJ9.c2ln")).toBe("/download/:token");
    expect(loggablePath("/Download/eyJrIjoiYSJ9.c2ln")).toBe("/download/:token");
    expect(loggablePath("/%64ownload/eyJrIjoiYSJ9.c2ln")).toBe("/download/:token");
    expect(loggablePath("/RECOVERY/123456.data")).toBe("/recovery/:code.data");
    expect(loggablePath("/downloads")).toBe("/downloads");
  });
});

describe("the request log and download tokens", () => {
  it("never writes a /download/{token} path's token", () => {
    const token = "eyJrZXkiOiJ4In0.U2VjcmV0U2lnbmF0dXJl";
    for (const path of [
      `/download/${token}`,
      `/DownLoad/${token}`,
      `/%44ownload/${token}`,
      `/download/${token}.data`,
    ]) {
      const { lines } = run(path);
      expect(lines).toHaveLength(1);
      expect(lines[0], path).not.toContain(token);
      expect(lines[0], path).not.toContain("U2VjcmV0");
      expect(JSON.parse(lines[0]).path).toMatch(/^\/download\/:token/);
    }
  });
});
