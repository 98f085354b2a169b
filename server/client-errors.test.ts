import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import type { ErrorReporter } from "../app/shared/error-log.server";
import { hostErrorHandler } from "./client-errors";

/** An app whose one route fails with `error`, behind the host's error handler; what the handler reported. */
async function failWith(error: Error & { code?: string }) {
  const reported: unknown[] = [];
  const errors: ErrorReporter = { report: (e) => reported.push(e), flush: () => undefined, stop: () => undefined };
  const app = express();
  app.get("/asset.css", (_req, _res, next) => next(error));
  app.use(hostErrorHandler(errors));
  const server = app.listen(0);
  await new Promise((r) => server.once("listening", r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/asset.css`);
    await res.arrayBuffer();
    return { status: res.status, reported };
  } finally {
    server.close();
  }
}

describe("the host's error handler", () => {
  it("reports a server's failure once, with the 500 page", async () => {
    const { status, reported } = await failWith(new Error("disk gone"));
    expect(status).toBe(500);
    expect(reported).toHaveLength(1);
  });

  it("reports no error when the client gave the request up (a file it stopped downloading)", async () => {
    const aborted = Object.assign(new Error("Request aborted"), { code: "ECONNABORTED" });
    const { reported } = await failWith(aborted);
    expect(reported).toEqual([]);
  });
});
