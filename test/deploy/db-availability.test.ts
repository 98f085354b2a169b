import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { MongoNetworkError, MongoServerError } from "mongodb";
import { describe, expect, it } from "vitest";
import { deployTexts } from "~/messages";
import { createLogger } from "../../app/shared/logger.server";
import { createDatabaseGate, isDatabaseUnavailable } from "../../server/db-availability";

/** A loader failure as the driver raises it when the database is out of disk space (MongoDB's OutOfDiskSpace). */
function diskFull(): MongoServerError {
  return new MongoServerError({ ok: 0, code: 14031, codeName: "OutOfDiskSpace", errmsg: "No space left on device" });
}

describe("which errors mean the database is unavailable", () => {
  it("recognises driver connection errors, shutdown and step-down codes, a full disk, and causes", () => {
    expect(isDatabaseUnavailable(new MongoNetworkError("connection reset"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { name: "MongoServerSelectionError" }))).toBe(true);
    expect(isDatabaseUnavailable(diskFull())).toBe(true);
    expect(isDatabaseUnavailable(new MongoServerError({ ok: 0, code: 91, errmsg: "shutting down" }))).toBe(true);
    expect(
      isDatabaseUnavailable(new MongoServerError({ ok: 0, code: 1, errmsg: "ENOSPC: no space left on device, write" })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapper", { cause: new MongoNetworkError("down") }))).toBe(true);
    // The driver writing on a connection the database (or a proxy) has just closed: Node's own EPIPE, raised inside
    // the driver's connection code, not wrapped as a MongoNetworkError (seen with driver 6.22 in deploy-faults).
    const endedByPeer = Object.assign(new Error("This socket has been ended by the other party"), { code: "EPIPE" });
    endedByPeer.stack = `Error: This socket has been ended by the other party
    at Socket.writeAfterFIN [as write] (node:net:566:14)
    at Connection.writeCommand (/app/node_modules/mongodb/lib/cmap/connection.js:392:25)`;
    expect(isDatabaseUnavailable(endedByPeer)).toBe(true);
    // The same socket error from another client (mail, object storage) is not the database's.
    const otherPeer = Object.assign(new Error("This socket has been ended by the other party"), { code: "EPIPE" });
    otherPeer.stack = `Error: This socket has been ended by the other party
    at Socket.writeAfterFIN [as write] (node:net:566:14)
    at SMTPConnection._send (/app/node_modules/nodemailer/lib/smtp-connection/index.js:1:1)`;
    expect(isDatabaseUnavailable(otherPeer)).toBe(false);
    // Errors about the request itself are not availability problems.
    expect(isDatabaseUnavailable(new MongoServerError({ ok: 0, code: 11000, errmsg: "E11000 duplicate key" }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new Error("No space left on device"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("the database gate", () => {
  it("turns a loader's unavailable database (disk full) into a 503 page, answers at once while down, and lets requests through once a ping succeeds", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger("debug", (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    let databaseUp = false;
    let loaderCalls = 0;
    const gate = createDatabaseGate({ ping: async () => databaseUp, logger, probeIntervalMs: 50 });
    const build = gate.wrapBuild({
      routes: {
        root: {
          id: "root",
          path: "",
          module: {
            loader: async () => {
              loaderCalls++;
              if (!databaseUp) throw diskFull();
              return "page";
            },
          },
        },
      },
    } as unknown as ServerBuild);
    const loader = build.routes.root.module.loader!;
    const app = express();
    app.use(gate.middleware);
    app.get("/page", async (req, res) => {
      try {
        res.send(
          await loader({
            request: new Request(`http://x${req.url}`, { headers: { "x-request-id": "req-1" } }),
            params: {},
            context: {},
          }),
        );
      } catch (thrown) {
        const response = thrown as Response;
        res
          .status(response.status)
          .set("Retry-After", response.headers.get("Retry-After") ?? "")
          .send(await response.text());
      }
    });
    const server = app.listen(0);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = await fetch(`${base}/page`);
      expect(first.status).toBe(503);
      expect(first.headers.get("retry-after")).toBe("5");
      expect(await first.text()).toBe(deployTexts.unavailable);
      expect(gate.down).toBe(true);
      expect(lines.find((l) => l.msg === "database unavailable")).toMatchObject({
        level: "error",
        requestId: "req-1",
        errorCode: 14031,
      });

      // While down, the gate answers without calling the loader (no request waits on the database).
      const second = await fetch(`${base}/page`);
      expect(second.status).toBe(503);
      expect(await second.text()).toContain(deployTexts.unavailableTitle);
      expect(loaderCalls).toBe(1);
      expect((await fetch(`${base}/healthz`)).status).toBe(404); // passes the gate (no such route here)

      // Space comes back: the probe's ping succeeds and pages are served again, without a restart.
      databaseUp = true;
      const back = await (async () => {
        for (let i = 0; i < 100; i++) {
          const answer = await fetch(`${base}/page`);
          if (answer.status === 200) return answer;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error("never recovered");
      })();
      expect(await back.text()).toBe("page");
      expect(lines.find((l) => l.msg === "database available again")).toMatchObject({
        level: "info",
        refusedRequests: expect.any(Number),
      });
    } finally {
      gate.stop();
      server.close();
    }
  });
});
